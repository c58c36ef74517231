/**
 * The price of one sellable unit (a simple product, a configurable child, a kit member): its
 * regular price, and the final price after an active special (spec §5 window) or a lower tier
 * price for the shopper's customer group. Everything in integer cents.
 */
import { isSpecialPriceActive, type SpecialPriceInput } from './catalog.ts';
import type { Cents } from './money.ts';
import type { TierPrice } from './product.ts';

export interface UnitPriceInput extends SpecialPriceInput {
  tier_prices?: readonly TierPrice[] | null;
}

export interface UnitPrice {
  price: Cents;
  final_price: Cents;
  /** An active special price (a tier price is a group price, not a sale). */
  sale: boolean;
}

/**
 * The lowest tier price of a customer group that applies when buying `qty` (a tier of qty N applies
 * from N units on; "buy 3, pay less each"), or null. Negative tiers are data errors and ignored.
 */
export function tierPriceAt(tiers: readonly TierPrice[] | null | undefined, customerGroupId: number, qty = 1): Cents | null {
  let best: Cents | null = null;
  for (const t of tiers ?? []) {
    if (t.customer_group_id !== customerGroupId || t.qty > qty || t.price < 0) continue;
    if (best == null || t.price < best) best = t.price;
  }
  return best;
}

/** What a listing shows: the tier price for one unit. */
export function tierPriceAtQtyOne(tiers: readonly TierPrice[] | null | undefined, customerGroupId: number): Cents | null {
  return tierPriceAt(tiers, customerGroupId, 1);
}

export interface CartUnitPriceOptions {
  now: Date;
  customerGroupId?: number;
  /** Units bought (tier prices apply from their qty on); 1 for what a page shows. */
  qty?: number;
  /** The weight price of the unit's size (sizeWeightPrice of its parent's discounts), if any. */
  weightPrice?: Cents | null;
}

/**
 * What the cart charges for one unit — THE price rule, used by the server's cart and orders
 * (apps/server/src/prices/unit-price.ts) and by every price a page shows for a chosen unit:
 * the active special (spec §5 window), else the price; then a lower tier price of the customer
 * group for `qty`; then a lower weight price (spec §9). Whole cents.
 */
export function cartUnitPrice(p: UnitPriceInput, o: CartUnitPriceOptions): UnitPrice {
  const sale = isSpecialPriceActive(p, o.now);
  let final = sale ? (p.special_price as Cents) : p.price;
  const tier = tierPriceAt(p.tier_prices, o.customerGroupId ?? 0, o.qty ?? 1);
  if (tier != null && tier < final) final = tier;
  if (o.weightPrice != null && o.weightPrice >= 0 && o.weightPrice < final) final = o.weightPrice;
  return { price: p.price, final_price: final, sale };
}

/** A unit's price at quantity 1 without a weight price (a card, a kit member). */
export function unitPrice(p: UnitPriceInput, now: Date, customerGroupId = 0): UnitPrice {
  return cartUnitPrice(p, { now, customerGroupId, qty: 1 });
}
