/**
 * Demo prices: store-level price levels, the flower size ladder with per-gram discounting,
 * special-price windows around the reference date, weight-based quantity discounts and tier prices.
 * All amounts are integer cents.
 */
import { SIZE_IDS, SIZE_WEIGHTS_GRAMS, type Cents, type SizeId } from '@verdant/domain';
import { hashSeed, type Rng } from './prng.ts';
import { shiftDays } from './text.ts';

/** Each store prices a little differently (0.94–1.08 of list), fixed by its id. */
export function storePriceFactor(storeId: number): number {
  return 0.94 + (hashSeed('price-level', storeId) % 15) / 100;
}

/** Whole dollars, at least $1. */
export function roundDollars(cents: number): Cents {
  return Math.max(100, Math.round(cents / 100) * 100);
}

/** Retail ending in .99 (accessories). */
export function roundNinetyNine(cents: number): Cents {
  return Math.max(99, Math.round((cents + 1) / 100) * 100 - 1);
}

/** A store's price for a list price: its level and ±5 % per product, rounded like the list price. */
export function storePrice(listCents: Cents, storeId: number, rng: Rng): Cents {
  const raw = listCents * storePriceFactor(storeId) * rng.float(0.95, 1.05, 3);
  return listCents % 100 === 99 ? roundNinetyNine(raw) : roundDollars(raw);
}

/** Per-gram factor by size: bigger sizes cost less per gram, as on every dispensary menu. */
export const PER_GRAM_FACTOR: Readonly<Record<SizeId, number>> = { 91: 1, 92: 0.92, 93: 0.85, 94: 0.78, 95: 0.7 };

/** Prices of the five flower sizes from the 1 g price: rising with size, falling per gram. */
export function flowerSizePrices(oneGramCents: Cents): Record<SizeId, Cents> {
  const out = {} as Record<SizeId, Cents>;
  let previous = 0;
  for (const size of SIZE_IDS) {
    const price = Math.max(
      roundDollars(oneGramCents * SIZE_WEIGHTS_GRAMS[size] * PER_GRAM_FACTOR[size]),
      previous + 100,
    );
    out[size] = price;
    previous = price;
  }
  return out;
}

/**
 * Weight-based quantity discounts for a flower product (spec §9): buying exactly the weight of a
 * size (qty_to_buy, grams) costs `price_cents` in total. Only the larger sizes get one.
 */
export function qtyDiscounts(productId: number, sizePrices: Record<SizeId, Cents>) {
  const off: Partial<Record<SizeId, number>> = { 93: 0.95, 94: 0.92, 95: 0.9 };
  return SIZE_IDS.filter((s) => off[s] !== undefined).map((size) => ({
    product_id: productId,
    qty_to_buy: SIZE_WEIGHTS_GRAMS[size],
    price_cents: roundDollars(sizePrices[size] * (off[size] as number)),
  }));
}

/**
 * The demo's members' group: a customer group with tier prices of its own (a store puts a
 * customer in it; new accounts are in group 1, which has no rows and so pays the default prices).
 */
export const DEMO_MEMBER_GROUP_ID = 3;

/**
 * Buy 3 or 5 and pay less each: the store's default tiers (group 0), which apply to guests and to
 * every group without tiers of its own (domain groupTiers). The members' group has its own: 5 %
 * off from the first unit (its member price) and 15 % off from 3.
 */
export function tierPrices(productId: number, priceCents: Cents) {
  return [
    { product_id: productId, customer_group_id: 0, qty: 3, price_cents: Math.round(priceCents * 0.9) },
    { product_id: productId, customer_group_id: 0, qty: 5, price_cents: Math.round(priceCents * 0.85) },
    { product_id: productId, customer_group_id: DEMO_MEMBER_GROUP_ID, qty: 1, price_cents: Math.round(priceCents * 0.95) },
    { product_id: productId, customer_group_id: DEMO_MEMBER_GROUP_ID, qty: 3, price_cents: Math.round(priceCents * 0.85) },
  ];
}

export type SpecialWindowKind = 'always' | 'open-ended' | 'bounded' | 'expired' | 'future';

export interface SpecialWindow {
  kind: SpecialWindowKind;
  from: string | null;
  to: string | null;
}

/**
 * A special-price window relative to the reference date. `always`, `open-ended` and `bounded` are
 * active at the reference date; `expired` and `future` are not, so lists must filter them.
 */
export function specialWindow(rng: Rng, reference: Date): SpecialWindow {
  const r = rng.next();
  if (r < 0.15) return { kind: 'always', from: null, to: null };
  if (r < 0.4) return { kind: 'open-ended', from: shiftDays(reference, -rng.int(5, 30)), to: null };
  if (r < 0.65) {
    return { kind: 'bounded', from: shiftDays(reference, -rng.int(1, 5)), to: shiftDays(reference, rng.int(3, 14)) };
  }
  if (r < 0.85) return { kind: 'expired', from: shiftDays(reference, -40), to: shiftDays(reference, -rng.int(1, 10)) };
  return { kind: 'future', from: shiftDays(reference, rng.int(2, 10)), to: shiftDays(reference, 30) };
}

/** 10–30 % off, rounded like the price, always below it; null when no lower price exists. */
export function specialPrice(priceCents: Cents, rng: Rng): Cents | null {
  const off = rng.int(10, 30) / 100;
  const raw = priceCents * (1 - off);
  const special = priceCents % 100 === 99 ? roundNinetyNine(raw) : roundDollars(raw);
  return special < priceCents ? special : null;
}
