/**
 * The price of one sellable unit (a simple product, a configurable child, a kit member): its
 * regular price, and the final price after an active special (spec §5 window) or a lower tier
 * price for the shopper's customer group. Everything in integer cents.
 *
 * Customer groups (spec §6 "a group id and group token drive price tiers"). The store's default
 * prices — its price row and tier rows of group 0, the group guests shop in — apply to EVERY
 * group, logged in or not, unless the group has rows of its own:
 *  - a unit's price row of the shopper's group replaces the default row as a whole (price and
 *    special with its window);
 *  - a unit's tier rows of the shopper's group replace the default group's tier rows as a whole.
 * So a customer of a group the store never priced (new accounts get group 1) pays what a guest
 * pays, "buy 3, pay less each" included, and a group with its own prices gets exactly those.
 * The server's cart and orders and every page price go through this one rule (groupPriceRow,
 * groupTiers, cartUnitPrice).
 */
import { isSpecialPriceActive, type SpecialPriceInput } from './catalog.ts';
import type { Cents } from './money.ts';
import type { GroupPrice, TierPrice } from './product.ts';

/** The customer group whose price and tier rows every other group falls back to. */
export const DEFAULT_CUSTOMER_GROUP_ID = 0;

export interface UnitPriceInput extends SpecialPriceInput {
  tier_prices?: readonly TierPrice[] | null;
  /** Price rows of customer groups with prices of their own (the unit's own fields are the default row). */
  group_prices?: readonly GroupPrice[] | null;
}

/** The price row a group pays: its own row when the unit has one, else the unit's own (default) fields. */
export function groupPriceRow(p: UnitPriceInput, customerGroupId: number): SpecialPriceInput {
  return p.group_prices?.find((r) => r.customer_group_id === customerGroupId) ?? p;
}

/**
 * The tier rows that apply to a group: its own rows when the unit has any (negative ones are data
 * errors and do not count), else the default group's rows.
 */
export function groupTiers(tiers: readonly TierPrice[] | null | undefined, customerGroupId: number): TierPrice[] {
  const valid = (tiers ?? []).filter((t) => t.price >= 0 && t.qty > 0);
  const own = valid.filter((t) => t.customer_group_id === customerGroupId);
  return own.length > 0 ? own : valid.filter((t) => t.customer_group_id === DEFAULT_CUSTOMER_GROUP_ID);
}

export interface UnitPrice {
  price: Cents;
  final_price: Cents;
  /** An active special price (a tier price is a group price, not a sale). */
  sale: boolean;
}

/**
 * The lowest tier price of a customer group (groupTiers: its own rows, else the default group's)
 * that applies when buying `qty` (a tier of qty N applies from N units on; "buy 3, pay less
 * each"), or null. Negative tiers are data errors and ignored.
 */
export function tierPriceAt(tiers: readonly TierPrice[] | null | undefined, customerGroupId: number, qty = 1): Cents | null {
  let best: Cents | null = null;
  for (const t of groupTiers(tiers, customerGroupId)) {
    if (t.qty > qty) continue;
    if (best == null || t.price < best) best = t.price;
  }
  return best;
}

/** A quantity from which one unit costs less (spec §3 tier_prices): "Buy 3+: $9.00 each". */
export interface TierOffer {
  qty: number;
  /** What the cart charges for one unit when buying `qty` or more (until the next offer). */
  each: Cents;
}

/**
 * The tier offers a group sees for a unit: each quantity above 1 from which cartUnitPrice charges
 * less than at the quantity before it, with that unit price (weight price and special included,
 * so an offer never promises less than the cart takes, nor shows a tier the special already beats).
 */
export function tierOffers(p: UnitPriceInput, o: Omit<CartUnitPriceOptions, 'qty'>): TierOffer[] {
  const qtys = [...new Set(groupTiers(p.tier_prices, o.customerGroupId ?? DEFAULT_CUSTOMER_GROUP_ID).map((t) => t.qty))].filter((q) => q > 1).sort((a, b) => a - b);
  const out: TierOffer[] = [];
  let previous = cartUnitPrice(p, { ...o, qty: 1 }).final_price;
  for (const qty of qtys) {
    const each = cartUnitPrice(p, { ...o, qty }).final_price;
    if (each < previous) out.push({ qty, each });
    previous = Math.min(previous, each);
  }
  return out;
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
 * the group's price row (groupPriceRow): its active special (spec §5 window), else its price; then
 * a lower tier price of the customer group for `qty` (groupTiers); then a lower weight price (spec §9). Whole cents.
 */
export function cartUnitPrice(p: UnitPriceInput, o: CartUnitPriceOptions): UnitPrice {
  const group = o.customerGroupId ?? DEFAULT_CUSTOMER_GROUP_ID;
  const row = groupPriceRow(p, group);
  const sale = isSpecialPriceActive(row, o.now);
  let final = sale ? (row.special_price as Cents) : row.price;
  const tier = tierPriceAt(p.tier_prices, group, o.qty ?? 1);
  if (tier != null && tier < final) final = tier;
  if (o.weightPrice != null && o.weightPrice >= 0 && o.weightPrice < final) final = o.weightPrice;
  return { price: row.price, final_price: final, sale };
}

/** A unit's price at quantity 1 without a weight price (a card, a kit member). */
export function unitPrice(p: UnitPriceInput, now: Date, customerGroupId = 0): UnitPrice {
  return cartUnitPrice(p, { now, customerGroupId, qty: 1 });
}
