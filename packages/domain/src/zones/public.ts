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
import { distanceOnlyRadius, ZONE_MESSAGES } from './rules.ts';
import type { DeliveryZone } from './schema.ts';

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

/** `Within 10 miles of the store`, or `To Midtown, East Sacramento and Land Park`; null: no delivery. */
export function deliveryAreaText(delivery: PublicDelivery): string | null {
  if (delivery.zones.length === 0) return null;
  if (delivery.radius_miles != null) return `Within ${delivery.radius_miles} miles of the store`;
  const names = delivery.zones.map((z) => z.name);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `To ${list}`;
}

/** `Midtown: $5.00 incl. tax, minimum order $40.00, free from $100.00, about 45 min`. */
export function zoneSummary(zone: PublicZone, money?: MoneyLocale): string {
  const parts = [zone.fee_incl_tax === 0 ? 'free delivery' : `${formatMoney(zone.fee_incl_tax, money)} incl. tax`];
  if (zone.minimum_order > 0) parts.push(`minimum order ${formatMoney(zone.minimum_order, money)}`);
  if (zone.free_over != null && zone.fee_incl_tax > 0) parts.push(`free from ${formatMoney(zone.free_over, money)}`);
  parts.push(ZONE_MESSAGES.eta(zone));
  return `${zone.name}: ${parts.join(', ')}`;
}
