import { NON_CANNABIS_CANNA_TYPES } from '../catalog.ts';
import type { LicenseType } from '../license.ts';
import { sizeWeightGrams, isSizeId } from '../sizes.ts';
import type { Store } from '../store.ts';
import { usableMaxGrams } from '../store-rules.ts';

/**
 * Purchase limits (spec §5 "Transaction limit"): the THC-equivalent grams in the cart against the
 * store's per-transaction usable_max for the shopper's licence type.
 *
 * Per item: the size's weight when a size is set (91–95), else unit_weight_grams_equivelent, else
 * 1 g — times the quantity. Items with canna_type 4 or 6 (not cannabis) count nothing.
 *
 * Grams are summed in whole milligrams so that 0.1 + 0.2 style float error can never move a cart
 * across the line. The spec says the fractional part is ignored; read literally, a cart up to
 * 0.99 g over the legal limit would pass, and a dispensary's licence depends on never exceeding it.
 * So the check is exact: any excess at all is over the limit. The amount in the message is the
 * excess in grams, shown to at most two decimals.
 */
export interface LimitItem {
  qty: number;
  size?: number | null;
  unit_weight_grams_equivelent?: number | null;
  canna_type?: number | null;
}

const MG = 1000;

function toMg(grams: number): number {
  return Math.round(grams * MG);
}

export function itemThcMilligrams(item: LimitItem): number {
  if (item.canna_type != null && NON_CANNABIS_CANNA_TYPES.includes(item.canna_type)) return 0;
  const per =
    item.size != null && isSizeId(Number(item.size))
      ? sizeWeightGrams(item.size)
      : item.unit_weight_grams_equivelent != null && item.unit_weight_grams_equivelent > 0
        ? item.unit_weight_grams_equivelent
        : 1;
  return toMg(per) * Math.max(0, item.qty);
}

/** THC-equivalent grams of a list of items (exact to the milligram). */
export function thcEquivalentGrams(items: readonly LimitItem[]): number {
  return items.reduce((mg, i) => mg + itemThcMilligrams(i), 0) / MG;
}

export interface LimitCheck {
  /** Grams in the cart. */
  grams: number;
  /** The store's limit for the licence type, or null when none applies. */
  limit: number | null;
  over: boolean;
  /** Grams over the limit (0 when within). */
  excess: number;
  /** The spec §8 cart notice when over, else null. */
  message: string | null;
}

/** `3.5 g`, `0.25 g`, `1 g` */
export function formatGrams(grams: number): string {
  return `${Number(grams.toFixed(2))} g`;
}

export function overLimitMessage(excessGrams: number): string {
  const amount = formatGrams(excessGrams);
  return `Your cart contains ${amount} more cannabis than can be in a single order. Please remove ${amount} from your cart.`;
}

/** Applies only when a licence type, a store and its compliance settings exist (spec §5). */
export function checkTransactionLimit(
  items: readonly LimitItem[],
  store: Pick<Store, 'dispensarySettings'> | null | undefined,
  licenseType: LicenseType | null | undefined,
): LimitCheck {
  const mg = items.reduce((a, i) => a + itemThcMilligrams(i), 0);
  const limit = store && licenseType ? usableMaxGrams(store, licenseType) : null;
  if (limit == null) return { grams: mg / MG, limit: null, over: false, excess: 0, message: null };
  const excessMg = mg - toMg(limit);
  const over = excessMg > 0;
  const excess = over ? excessMg / MG : 0;
  return { grams: mg / MG, limit, over, excess, message: over ? overLimitMessage(excess) : null };
}
