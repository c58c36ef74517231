/**
 * The server's price of one sellable unit, in integer cents (spec §4 pricing, §5 special window,
 * §9 weight prices). Pure: the loader (./loader.ts) reads the rows, this decides the price.
 *
 * final = the active special price (inside its window and below the price), else the price;
 * then a lower tier price of the shopper's customer group for the quantity bought; then, for a
 * weighed flower child, a lower weight price (the parent's qty_discount whose qty_to_buy equals the
 * child's size weight).
 *
 * Tier prices apply by quantity (`tier.qty <= qty`), as their name says ("buy 3, pay less each").
 * The rule itself is the domain's cartUnitPrice, the one the product page shows its prices with
 * (packages/domain/src/pricing.ts chosenUnitPrice), so a page never shows another price than the
 * cart charges (apps/server/src/cart/page-price.test.ts checks it over the whole demo catalogue).
 */
import { cartUnitPrice, sizeWeightPrice, tierPriceAt, type Cents, type QtyDiscount, type TierPrice } from '@verdant/domain';

export interface PriceRecord {
  price: Cents;
  special_price: Cents | null;
  special_from_date: string | null;
  special_to_date: string | null;
}

export interface UnitPricing {
  /** The regular price. */
  original: Cents;
  /** The special price when active now, else null. */
  special: Cents | null;
  /** What one unit costs at this quantity. */
  final: Cents;
}

/** The domain's tier rule (a tier of qty N applies from N units on). */
export const tierPriceFor = (tiers: readonly TierPrice[], groupId: number, qty: number): Cents | null => tierPriceAt(tiers, groupId, qty);

/**
 * The domain's weight-price rule, for real size ids only: the spec's default weight of 1 g suits a
 * listing, but a cart line without a size must never be charged the 1 g weight price.
 */
export function weightPriceFor(discounts: readonly QtyDiscount[], size: number | null): Cents | null {
  return sizeWeightPrice(discounts, size);
}

export interface PriceUnitOptions {
  now: Date;
  groupId: number;
  qty: number;
  tiers?: readonly TierPrice[];
  weightPrice?: Cents | null;
}

/** Null when the unit has no price row: such a product cannot be sold (spec §8 price unknown). */
export function priceUnit(record: PriceRecord | null, o: PriceUnitOptions): UnitPricing | null {
  if (!record || !Number.isInteger(record.price) || record.price < 0) return null;
  const priced = cartUnitPrice({ ...record, tier_prices: o.tiers ?? [] }, { now: o.now, customerGroupId: o.groupId, qty: o.qty, weightPrice: o.weightPrice });
  return { original: record.price, special: priced.sale ? (record.special_price as Cents) : null, final: priced.final_price };
}
