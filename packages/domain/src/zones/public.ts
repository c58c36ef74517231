/**
 * What a shopper is told about a store's delivery zones (issue 14) before giving an address: the
 * delivery option's label at checkout, the area in words (checkout, contact page) and one line per
 * zone. The browser gets the zones without their shapes (`PublicZone`: polygons can be large and
 * say nothing to a shopper); the server alone decides an address's zone (rules.ts).
 *
 * Copy decisions (the spec has the one flat fee and radius only): a store whose zones are all
 * distance tiers keeps the spec's "Within N miles of the store"; otherwise the zones are named.
 * One fee everywhere reads "Delivery — $5.00 incl. tax" (today's label); different fees read
 * "Delivery — from $3.00 incl. tax".
 */
import { formatMoney, type MoneyLocale } from '../money.ts';
import { DELIVERY_FEE } from '../shipping.ts';
import { distanceOnlyRadius, ZONE_MESSAGES } from './rules.ts';
import type { DeliveryZone } from './schema.ts';

/**
 * A store's zones before it sets its own: today's rule as one distance tier — its delivery radius
 * at the spec's fee (§9: $4.00, $5.00 with tax); none when the radius is 0.
 */
export function defaultDeliveryZones(radiusMiles: number): DeliveryZone[] {
  if (!(radiusMiles > 0)) return [];
  return [
    {
      type: 'distance',
      name: `Within ${radiusMiles} miles`,
      fee: DELIVERY_FEE.beforeTax,
      fee_incl_tax: DELIVERY_FEE.inclTax,
      minimum_order: 0,
      free_over: null,
      // Not in the spec: an hour is what the demo stores' delivery pages imply for a 10-mile area.
      eta_minutes: 60,
      min_miles: 0,
      max_miles: radiusMiles,
    },
  ];
}

export interface PublicZone {
  name: string;
  type: DeliveryZone['type'];
  fee_incl_tax: number;
  minimum_order: number;
  free_over: number | null;
  eta_minutes: number;
  /** Distance tiers: up to how many miles from the store. */
  max_miles?: number;
  /** ZIP-list zones: their ZIP codes. */
  zips?: string[];
}

export interface PublicDelivery {
  zones: PublicZone[];
  /** All zones are distance tiers: the farthest they reach (the spec's "N-mile delivery area"). */
  radius_miles: number | null;
}

export function publicDelivery(zones: readonly DeliveryZone[]): PublicDelivery {
  return {
    zones: zones.map((z) => ({
      name: z.name,
      type: z.type,
      fee_incl_tax: z.fee_incl_tax,
      minimum_order: z.minimum_order,
      free_over: z.free_over,
      eta_minutes: z.eta_minutes,
      ...(z.type === 'distance' ? { max_miles: z.max_miles } : {}),
      ...(z.type === 'zips' ? { zips: [...z.zips] } : {}),
    })),
    radius_miles: distanceOnlyRadius(zones),
  };
}

/** `Delivery — $5.00 incl. tax`, or `Delivery — from $3.00 incl. tax` when the zones' fees differ; null: no delivery. */
export function deliveryOptionLabel(delivery: PublicDelivery, money?: MoneyLocale): string | null {
  if (delivery.zones.length === 0) return null;
  const fees = delivery.zones.map((z) => z.fee_incl_tax);
  const low = Math.min(...fees);
  const same = fees.every((f) => f === low);
  if (low === 0 && same) return 'Delivery — Free';
  return `Delivery — ${same ? '' : 'from '}${formatMoney(low, money)} incl. tax`;
}

/** `Midtown, East Sacramento and Land Park`. */
export function deliveryZoneNames(delivery: PublicDelivery): string {
  const names = delivery.zones.map((z) => z.name);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** `Within 10 miles of the store`, or `To Midtown, East Sacramento and Land Park`; null: no delivery. */
export function deliveryAreaText(delivery: PublicDelivery): string | null {
  if (delivery.zones.length === 0) return null;
  return delivery.radius_miles != null ? `Within ${delivery.radius_miles} miles of the store` : `To ${deliveryZoneNames(delivery)}`;
}

/** `We deliver within 10 miles of the store.` (spec), or `We deliver to Midtown and Land Park.`; null: no delivery. */
export function deliveryAreaSentence(delivery: PublicDelivery): string | null {
  if (delivery.zones.length === 0) return null;
  return delivery.radius_miles != null
    ? `We deliver within ${delivery.radius_miles} miles of the store.`
    : `We deliver to ${deliveryZoneNames(delivery)}.`;
}

/** Whether the zones have more to say than the option's label: several zones, a minimum or a free-delivery threshold. */
export function zonesNeedDetail(delivery: PublicDelivery): boolean {
  return delivery.zones.length > 1 || delivery.zones.some((z) => z.minimum_order > 0 || z.free_over != null);
}

/** `Midtown: $5.00 incl. tax, minimum order $40.00, free from $100.00, about 45 min`. */
export function zoneSummary(zone: PublicZone, money?: MoneyLocale): string {
  const parts = [zone.fee_incl_tax === 0 ? 'free delivery' : `${formatMoney(zone.fee_incl_tax, money)} incl. tax`];
  if (zone.minimum_order > 0) parts.push(`minimum order ${formatMoney(zone.minimum_order, money)}`);
  if (zone.free_over != null && zone.fee_incl_tax > 0) parts.push(`free from ${formatMoney(zone.free_over, money)}`);
  parts.push(ZONE_MESSAGES.eta(zone));
  return `${zone.name}: ${parts.join(', ')}`;
}
