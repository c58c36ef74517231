/**
 * The server's price of one sellable unit, in integer cents (spec §4 pricing, §5 special window,
 * §9 weight prices). Pure: the loader (./loader.ts) reads the rows, this decides the price.
 *
 * final = the active special price (inside its window and below the price), else the price;
 * then a lower tier price of the shopper's customer group for the quantity bought; then, for a
 * weighed flower child, a lower weight price (the parent's qty_discount whose qty_to_buy equals the
 * child's size weight).
 *
 * Tier prices apply by quantity (`tier.qty <= qty`), as their name says ("buy 3, pay less each");
 * the domain's unitPrice() only looks at quantity 1, which is what a product card shows, and gives
 * the same answer here at qty 1. The rule is local until packages/domain grows a qty-aware one.
 */
import { isSizeId, isSpecialPriceActive, tierPriceAt, weightPrice, type Cents, type QtyDiscount, type TierPrice } from '@verdant/domain';

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
  return size != null && isSizeId(size) ? weightPrice(discounts, size) : null;
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
  const special = isSpecialPriceActive(record, o.now) ? (record.special_price as Cents) : null;
  let final = special ?? record.price;
  const tier = tierPriceFor(o.tiers ?? [], o.groupId, o.qty);
  if (tier != null && tier < final) final = tier;
  if (o.weightPrice != null && o.weightPrice >= 0 && o.weightPrice < final) final = o.weightPrice;
  return { original: record.price, special, final };
}
