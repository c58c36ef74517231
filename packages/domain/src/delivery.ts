/**
 * Delivery area (spec §3, §9): whether a point is within a store's delivery radius, and the
 * shopper-facing messages. Pure: the server finds the point of a ZIP code (apps/server
 * shipping/zip-location.ts) and decides with these rules; the browser shows what the server
 * answered and may use the same rules for display only.
 */

export interface LatLng {
  lat: number;
  lng: number;
}

/** A store's place and radius (store settings `place_info`); a radius of 0 means no delivery. */
export interface DeliveryArea extends LatLng {
  radiusMiles: number;
}

export interface DeliveryCheck {
  /** Miles from the store, two decimals. */
  distance: number;
  too_far: boolean;
}

const EARTH_RADIUS_MILES = 3958.7613;

/** Great-circle distance (haversine) in miles. */
export function distanceMiles(a: LatLng, b: LatLng): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Distance from the store and whether it is beyond the delivery radius (no radius: always too far). */
export function deliveryCheck(area: DeliveryArea, to: LatLng): DeliveryCheck {
  const miles = distanceMiles(area, to);
  return { distance: Math.round(miles * 100) / 100, too_far: !(area.radiusMiles > 0 && miles <= area.radiusMiles) };
}

/** `95814`, `95814-1234` → `95814`; anything else → null. */
export function normalizeZip(zip: string): string | null {
  const m = /^\s*(\d{5})(?:-\d{4})?\s*$/.exec(zip);
  return m ? m[1] : null;
}

export const DELIVERY_MESSAGES = {
  zipRequired: 'A delivery order needs a shipping address with a 5-digit ZIP code.',
  unknownZip: (zip: string) => `We can’t check delivery to ZIP ${zip}: it isn’t a US ZIP code we know. Choose pickup or another address.`,
  tooFar: (zip: string, distance: number, radiusMiles: number) =>
    `ZIP ${zip} is ${distance} miles from the store, outside its ${radiusMiles}-mile delivery area. Choose pickup or another address.`,
} as const;
