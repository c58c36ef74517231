/**
 * Delivery zones on the server (issue 14): the `zones` settings section, and the decision for an
 * address — its zone, from the address's ZIP code alone (./zip-location.ts: the `zipcodes`
 * package's offline table of ZIP centres; coordinates or a distance a browser sends are never
 * used), and what delivery costs there for the order (fee, minimum order, free-delivery
 * threshold; packages/domain/src/zones/).
 *
 * Today's behaviour is the demo stores' default: one distance zone over `place_info`'s delivery
 * radius at the spec's fixed fee (§9: 4, 5 including tax), no minimum, never free — so the demo's
 * totals, messages and journeys stay as they were. A radius of 0 gives no zone: no delivery.
 *
 * Read straight from the database (in the caller's transaction at order save) rather than through
 * the per-node cache of store-settings/service.ts (read through store-settings/read.ts): an order is judged on the zones as saved at that
 * moment, and the console's change is seen at once on every node. One primary-key read.
 */
import {
  defaultDeliveryZones,
  DELIVERY_MESSAGES,
  distanceMiles,
  distanceOnlyRadius,
  findZone,
  normalizeZip,
  ZONE_MESSAGES,
  zoneQuote,
  zonesSchema,
  type DeliveryZone,
  type DeliveryZones,
  type MoneyLocale,
  type Store,
  type ZoneQuote,
} from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { CART_MESSAGES } from '../cart/messages.ts';
import { defineSection } from '../store-settings/registry.ts';
import { readSection } from '../store-settings/read.ts';
import { zipLocation } from './zip-location.ts';

export const ZONES_SECTION = defineSection<DeliveryZones>({
  name: 'zones',
  title: 'Delivery zones',
  schema: zonesSchema,
  initial: (store) => ({ zones: initialZones(store) }),
});

/** Today's rule as a zone: the store's radius at the spec's fee (none when the radius is 0; domain defaultDeliveryZones). */
export function initialZones(store: Store): DeliveryZone[] {
  return defaultDeliveryZones(store.dispensarySettings.place_info.delivery_radius_miles);
}

/** The store's zones: the console's save, else the stores file's `settings.zones`, else today's rule (store-settings/registry.ts). */
export async function zonesOf(db: Kysely<Database>, store: Store): Promise<DeliveryZone[]> {
  return (await readSection(db, store, ZONES_SECTION)).value.zones;
}

export interface ZoneDecision {
  zip: string;
  /** Miles from the store to the ZIP's centre, two decimals (display and the order record). */
  distance: number;
  too_far: false;
  zone: DeliveryZone;
}

/**
 * The zone of a delivery address, from its ZIP code. Throws ApiError 400 with the shopper's
 * message: no zones (the store does not deliver), no or an unknown ZIP, or outside every zone —
 * the last two say "Choose pickup". A store whose zones are all distance tiers keeps the spec's
 * "N miles from the store, outside its M-mile delivery area" copy.
 */
export function zoneFor(store: Store, zones: readonly DeliveryZone[], zip: string | null | undefined): ZoneDecision {
  if (zones.length === 0) throw new ApiError(400, CART_MESSAGES.deliveryNotOffered);
  const z = zip ? normalizeZip(zip) : null;
  if (!z) throw new ApiError(400, DELIVERY_MESSAGES.zipRequired);
  const point = zipLocation(z);
  if (!point) throw new ApiError(400, DELIVERY_MESSAGES.unknownZip(z));
  const place = store.dispensarySettings.place_info;
  const match = findZone(zones, place, { zip: z, lat: point.lat, lng: point.lng });
  if (match) return { zip: z, distance: match.distance, too_far: false, zone: match.zone };
  const radius = distanceOnlyRadius(zones);
  if (radius != null) {
    const miles = Math.round(distanceMiles(place, point) * 100) / 100;
    throw new ApiError(400, DELIVERY_MESSAGES.tooFar(z, miles, radius));
  }
  throw new ApiError(400, ZONE_MESSAGES.outsideZones(z));
}

/**
 * What delivery in the zone costs an order of `orderValue` (subtotal after discounts, before
 * taxes); an order under the zone's minimum is refused (400) with how much more it needs.
 */
export function chargeFor(zone: DeliveryZone, orderValue: number, money?: MoneyLocale): ZoneQuote {
  const quote = zoneQuote(zone, orderValue);
  if (quote.shortBy > 0) throw new ApiError(400, ZONE_MESSAGES.belowMinimum(zone, quote.shortBy, money), { errorCode: 'delivery_minimum' });
  return quote;
}

/** The zone as the shopper sees it (shipping-information's answer). */
export function zoneView(zone: DeliveryZone, quote: ZoneQuote) {
  return {
    name: zone.name,
    eta_minutes: zone.eta_minutes,
    eta: ZONE_MESSAGES.eta(zone),
    fee_incl_tax: quote.feeInclTax,
    free: quote.free,
    minimum_order: zone.minimum_order,
    free_over: zone.free_over,
  };
}

/**
 * Price an order delivered in `zone`: its value from a pricing without shipping (the fee does not
 * change the lines), then priced again with the zone's fee for that value. Under the zone's
 * minimum: refused (400, how much more). `price` is the caller's pricing at a given shipping fee.
 */
export function priceInZone<P extends { totals: { segments: { subtotal: number; discount: number } } }>(
  price: (shippingInclTax: number) => P,
  zone: DeliveryZone,
): { priced: P; quote: ZoneQuote } {
  const bare = price(0);
  const quote = chargeFor(zone, bare.totals.segments.subtotal - bare.totals.segments.discount);
  return { priced: quote.feeInclTax > 0 ? price(quote.feeInclTax) : bare, quote };
}

/**
 * A delivery cart's totals (cart views, before the order): the zone of the ZIP accepted at
 * shipping-information, its fee for the cart's value (free from the threshold). A cart under the
 * minimum is still shown (the order is refused, with how much more it needs); before an address
 * is given, the store's first zone's fee stands as the estimate (the demo stores' one fee).
 */
export async function priceDeliveryCart<P extends { totals: { segments: { subtotal: number; discount: number } } }>(
  db: Kysely<Database>,
  store: Store,
  zip: string | null,
  price: (shippingInclTax: number) => P,
): Promise<P> {
  const zones = await zonesOf(db, store);
  let zone: DeliveryZone | undefined = zones[0];
  if (zip) {
    try {
      zone = zoneFor(store, zones, zip).zone;
    } catch (e) {
      // Zones changed since the address was accepted: the estimate stands; the order decides.
      if (!(e instanceof ApiError)) throw e;
    }
  }
  if (!zone) return price(0);
  const bare = price(0);
  const quote = zoneQuote(zone, bare.totals.segments.subtotal - bare.totals.segments.discount);
  return quote.feeInclTax > 0 ? price(quote.feeInclTax) : bare;
}
