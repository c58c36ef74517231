/**
 * Shipping and payment methods (spec §3, §9): pickup is the default and free; delivery costs 4
 * (5 including its tax) and is offered only by a store with a delivery radius; cash on delivery is
 * the one payment method, hidden for a cart of only virtual or downloadable items (spec §5).
 * Amounts in cents.
 */
import { DELIVERY_FEE, DELIVERY_MESSAGES, deliveryCheck, normalizeZip, shippingFeeInclTax, type DeliveryArea, type DeliveryCheck, type DeliveryZone, type Store } from '@verdant/domain';
import { ApiError } from '../http/envelope.ts';
import { CART_MESSAGES } from '../cart/messages.ts';
import { zipLocation } from './zip-location.ts';

export { deliveryCheck, distanceMiles, type DeliveryCheck, type LatLng } from '@verdant/domain';

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
  // The domain's one figure, which the delivery page quotes too.
  fees: DELIVERY_FEE.beforeTax,
  amount: DELIVERY_FEE.beforeTax,
  price_incl_tax: DELIVERY_FEE.inclTax,
  default: false,
  offline: true,
  available: true,
};

export function storeDelivers(store: Store): boolean {
  return store.dispensarySettings.place_info.delivery_radius_miles > 0;
}

/**
 * Pickup, and delivery when the store delivers: with its delivery zones (issue 14, ./zones.ts), when
 * it has one, quoted at the first zone's fee (the zone of the address decides the fee charged);
 * without them, by today's radius rule.
 */
export function shippingMethodsFor(store: Store, zones?: readonly DeliveryZone[]): ShippingMethod[] {
  if (!zones) return storeDelivers(store) ? [PICKUP, DELIVERY] : [PICKUP];
  if (zones.length === 0) return [PICKUP];
  const [first] = zones;
  return [PICKUP, { ...DELIVERY, fees: first.fee, amount: first.fee, price_incl_tax: first.fee_incl_tax }];
}

/** What the shopper pays for the method, tax included (the totals' shipping segment). */
export function shippingInclTax(code: ShippingMethodCode): number {
  return shippingFeeInclTax(code);
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

/**
 * Delivery to an address (spec §9): decided from its ZIP code alone — the ZIP's centre
 * (./zip-location.ts) against the store's place and radius (the domain rule). Coordinates or a
 * distance a client sends are never used. Throws ApiError 400 with the shopper's message when the
 * store does not deliver, the ZIP is missing or unknown, or the address is beyond the radius.
 */
export function deliveryTo(store: Store, zip: string | null | undefined): DeliveryCheck & { zip: string } {
  if (!storeDelivers(store)) throw new ApiError(400, CART_MESSAGES.deliveryNotOffered);
  const z = zip ? normalizeZip(zip) : null;
  if (!z) throw new ApiError(400, DELIVERY_MESSAGES.zipRequired);
  const point = zipLocation(z) ?? fail(DELIVERY_MESSAGES.unknownZip(z));
  const check = deliveryCheck(deliveryAreaOf(store), point);
  if (check.too_far) fail(DELIVERY_MESSAGES.tooFar(z, check.distance, store.dispensarySettings.place_info.delivery_radius_miles));
  return { ...check, zip: z };
}

export function deliveryAreaOf(store: Store): DeliveryArea {
  const place = store.dispensarySettings.place_info;
  return { lat: place.lat, lng: place.lng, radiusMiles: place.delivery_radius_miles };
}

const fail = (message: string): never => {
  throw new ApiError(400, message);
};
