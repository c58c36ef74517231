/**
 * Shipping and payment methods (spec §3, §9): pickup is the default and free; delivery costs 4
 * (5 including its tax) and is offered only by a store with a delivery radius; cash on delivery is
 * the one payment method, hidden for a cart of only virtual or downloadable items (spec §5).
 * Amounts in cents.
 */
import type { Store } from '@verdant/domain';

export type ShippingMethodCode = 'pickup' | 'delivery';

export interface ShippingMethod {
  carrier_code: ShippingMethodCode;
  method_code: ShippingMethodCode;
  method_title: string;
  /** Fee before tax, cents. */
  fees: number;
  amount: number;
  price_incl_tax: number;
  default: boolean;
  offline: boolean;
  available: boolean;
}

export const PICKUP: ShippingMethod = {
  carrier_code: 'pickup',
  method_code: 'pickup',
  method_title: 'Pickup',
  fees: 0,
  amount: 0,
  price_incl_tax: 0,
  default: true,
  offline: true,
  available: true,
};

export const DELIVERY: ShippingMethod = {
  carrier_code: 'delivery',
  method_code: 'delivery',
  method_title: 'Delivery',
  fees: 400,
  amount: 400,
  price_incl_tax: 500,
  default: false,
  offline: true,
  available: true,
};

export function storeDelivers(store: Store): boolean {
  return store.dispensarySettings.place_info.delivery_radius_miles > 0;
}

export function shippingMethodsFor(store: Store): ShippingMethod[] {
  return storeDelivers(store) ? [PICKUP, DELIVERY] : [PICKUP];
}

/** What the shopper pays for the method, tax included (the totals' shipping segment). */
export function shippingInclTax(code: ShippingMethodCode): number {
  return code === 'delivery' ? DELIVERY.price_incl_tax : PICKUP.price_incl_tax;
}

export const CASH_ON_DELIVERY = {
  code: 'cashondelivery',
  title: 'Cash On Delivery',
  cost: 0,
  cost_incl_tax: 0,
  default: true,
  offline: true,
  is_server_method: true,
} as const;

export function paymentMethodsFor(productTypes: readonly string[]) {
  const virtual = productTypes.length > 0 && productTypes.every((t) => t === 'virtual' || t === 'downloadable');
  return virtual ? [] : [CASH_ON_DELIVERY];
}

const EARTH_RADIUS_MILES = 3958.7613;

export interface LatLng {
  lat: number;
  lng: number;
}

/** Great-circle distance (haversine) in miles. */
export function distanceMiles(a: LatLng, b: LatLng): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface DeliveryCheck {
  /** Miles from the store, two decimals. */
  distance: number;
  too_far: boolean;
}

/** Distance from the store and whether it is beyond the delivery radius (no radius: always too far). */
export function deliveryCheck(store: Store, to: LatLng): DeliveryCheck {
  const place = store.dispensarySettings.place_info;
  const miles = distanceMiles({ lat: place.lat, lng: place.lng }, to);
  const radius = place.delivery_radius_miles;
  return { distance: Math.round(miles * 100) / 100, too_far: !(radius > 0 && miles <= radius) };
}
