/**
 * Delivery zones (issue 14): which zone of a store an address is in, and what delivery costs
 * there. Pure; the server decides with it from the address's ZIP centre (apps/server
 * shipping/zip-location.ts), never from coordinates a browser sends; the browser may use it for
 * display only. Zones are tried in the order the store lists them and the first that contains the
 * address wins (a ZIP list before a wider distance tier, say). Amounts in cents.
 */
import { distanceMiles, type LatLng } from '../delivery.ts';
import { formatMoney, type MoneyLocale } from '../money.ts';
import type { DeliveryZone, ZoneGeometry } from './schema.ts';

export interface ZonePoint extends LatLng {
  zip: string;
}

export interface ZoneMatch {
  zone: DeliveryZone;
  /** Miles from the store to the address's ZIP centre, two decimals. */
  distance: number;
}

type Position = readonly number[];

/** Whether p lies on the segment a–b (within a hair, for coordinates given in degrees). */
function onSegment(p: LatLng, a: Position, b: Position): boolean {
  const [ax, ay, bx, by] = [a[0], a[1], b[0], b[1]];
  const cross = (p.lng - ax) * (by - ay) - (p.lat - ay) * (bx - ax);
  if (Math.abs(cross) > 1e-12) return false;
  return (
    p.lng >= Math.min(ax, bx) - 1e-12 &&
    p.lng <= Math.max(ax, bx) + 1e-12 &&
    p.lat >= Math.min(ay, by) - 1e-12 &&
    p.lat <= Math.max(ay, by) + 1e-12
  );
}

type RingSide = 'inside' | 'outside' | 'edge';

/** Ray casting (even–odd) of a ring of `[lng, lat]` positions; a point on the ring is 'edge'. */
export function ringSide(p: LatLng, ring: readonly Position[]): RingSide {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i];
    const b = ring[j];
    if (onSegment(p, a, b)) return 'edge';
    // The half-open test (a above p) !== (b above p) counts a vertex the ray passes through once.
    if (a[1] > p.lat !== b[1] > p.lat) {
      const x = a[0] + ((p.lat - a[1]) * (b[0] - a[0])) / (b[1] - a[1]);
      if (p.lng < x) inside = !inside;
    }
  }
  return inside ? 'inside' : 'outside';
}

/**
 * Whether a point is in a GeoJSON Polygon / MultiPolygon: inside (or on) an outer ring and not
 * strictly inside one of its holes (a hole's edge belongs to the zone). Planar in degrees, which
 * is exact enough for a city-sized zone.
 */
export function geometryContains(geometry: ZoneGeometry, p: LatLng): boolean {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  return polygons.some(([outer, ...holes]) => ringSide(p, outer) !== 'outside' && holes.every((hole) => ringSide(p, hole) !== 'inside'));
}

function contains(zone: DeliveryZone, store: LatLng, p: ZonePoint, miles: number): boolean {
  switch (zone.type) {
    case 'zips':
      return zone.zips.includes(p.zip);
    case 'distance':
      return miles <= zone.max_miles && (zone.min_miles === 0 ? true : miles > zone.min_miles);
    case 'polygon':
      return geometryContains(zone.geometry, p);
  }
}

/** The first of the store's zones that contains the address, or null (no delivery there). */
export function findZone(zones: readonly DeliveryZone[], store: LatLng, p: ZonePoint): ZoneMatch | null {
  const miles = distanceMiles(store, p);
  const zone = zones.find((z) => contains(z, store, p, miles));
  return zone ? { zone, distance: Math.round(miles * 100) / 100 } : null;
}

export interface ZoneQuote {
  /** Fee charged, before tax and tax included (0 when the order reaches the free-delivery threshold). */
  fee: number;
  feeInclTax: number;
  free: boolean;
  /** How much more the order needs to reach the zone's minimum; 0 when it does. */
  shortBy: number;
}

/** What delivery in a zone costs for an order of `orderValue` (subtotal after discounts, before taxes). */
export function zoneQuote(zone: DeliveryZone, orderValue: number): ZoneQuote {
  const free = zone.free_over != null && orderValue >= zone.free_over;
  return {
    fee: free ? 0 : zone.fee,
    feeInclTax: free ? 0 : zone.fee_incl_tax,
    free,
    shortBy: Math.max(0, zone.minimum_order - orderValue),
  };
}

/** The largest distance a store's zones reach when they are all distance tiers (for the "N-mile delivery area" copy). */
export function distanceOnlyRadius(zones: readonly DeliveryZone[]): number | null {
  if (zones.length === 0 || zones.some((z) => z.type !== 'distance')) return null;
  return Math.max(...zones.map((z) => (z.type === 'distance' ? z.max_miles : 0)));
}

export const ZONE_MESSAGES = {
  outsideZones: (zip: string) =>
    `We don’t deliver to ZIP ${zip}: it is outside this store’s delivery zones. Choose pickup or another address.`,
  belowMinimum: (zone: DeliveryZone, shortBy: number, money?: MoneyLocale) =>
    `Delivery to ${zone.name} needs an order of at least ${formatMoney(zone.minimum_order, money)}: add ${formatMoney(shortBy, money)} more, or choose pickup.`,
  eta: (zone: Pick<DeliveryZone, 'eta_minutes'>) => `about ${zone.eta_minutes < 120 ? `${zone.eta_minutes} min` : `${Math.round(zone.eta_minutes / 60)} h`}`,
} as const;
