/**
 * What the checkout's totals say on the Shipping line (issue 26). Pickup is free. Delivery is never
 * called free before the store accepted the address: "Enter your ZIP" until a ZIP is accepted, the
 * zone's real fee once it is, and "Delivery not available below $X" when the order is under the
 * zone's minimum (the server refused the ZIP for it, or the cart shrank below it afterwards).
 */
import { formatMoney, ZONE_MESSAGES, type DeliveryZone, type MoneyLocale, type PublicDelivery } from '@verdant/domain';

export interface ShippingLabelInput {
  method: 'pickup' | 'delivery';
  /** The ZIP as typed, normalised ('' when none). */
  zip: string;
  /** The store's accepted answer for a ZIP, if any. */
  delivery: { zip: string; too_far: boolean; zone?: { name: string; fee_incl_tax: number; free: boolean } | null } | null;
  /** The ZIP field's message (the server's refusal), if any. */
  zipError?: string | null;
  /** The order's value for a zone minimum: subtotal after discounts, before taxes (cents). */
  orderValue: number;
  /** The shipping the totals carry (cents, incl. tax). */
  shipping: number;
  zones: PublicDelivery['zones'];
  money?: MoneyLocale;
}

export const SHIPPING_LABELS = {
  enterZip: 'Enter your ZIP',
  belowMinimum: (minimum: string) => `Delivery not available below ${minimum}`,
} as const;

export function shippingLabel(i: ShippingLabelInput): string {
  const money = (cents: number) => formatMoney(cents, i.money);
  const paid = (cents: number) => (cents > 0 ? `${money(cents)} incl. tax` : 'Free');
  if (i.method === 'pickup') return paid(i.shipping);
  // A ZIP refused because the order is under its zone's minimum: the server's own sentence names the zone.
  const refusal = (z: PublicDelivery['zones'][number]) => ZONE_MESSAGES.belowMinimum(z as unknown as DeliveryZone, 0, i.money).split(': add ')[0];
  const refusedZone = i.zipError ? i.zones.find((z) => z.minimum_order > 0 && i.zipError!.startsWith(refusal(z))) : undefined;
  if (refusedZone) return SHIPPING_LABELS.belowMinimum(money(refusedZone.minimum_order));
  const accepted = i.delivery && i.zip && i.delivery.zip === i.zip && !i.delivery.too_far ? i.delivery : null;
  if (!accepted) return SHIPPING_LABELS.enterZip;
  const zone = accepted.zone ? i.zones.find((z) => z.name === accepted.zone!.name) : undefined;
  if (zone && zone.minimum_order > 0 && i.orderValue < zone.minimum_order) return SHIPPING_LABELS.belowMinimum(money(zone.minimum_order));
  if (accepted.zone) return accepted.zone.free ? 'Free' : paid(i.shipping > 0 ? i.shipping : accepted.zone.fee_incl_tax);
  return paid(i.shipping);
}
