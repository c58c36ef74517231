import { NON_CANNABIS_CANNA_TYPES } from '../catalog.ts';
import { LIMIT_MEASURES, type LimitBucket, type LimitMeasure, type Milli } from './model.ts';

/**
 * What one package of a product counts toward purchase limits, derived from the menu import's
 * fields (apps/server/src/menu-import/FORMAT.md: unit, weight_g, thc/thc_unit, pieces,
 * flower_equivalent_g, concentrate_g; canna_type 4 and 6 are not cannabis).
 */
export interface LimitProductFacts {
  /** False for items that are not cannabis (canna_type 4, 6): they count toward nothing. Default true. */
  cannabis?: boolean;
  /** `g`: sold by weight (flower); `ea`: a package. */
  unit: 'g' | 'ea';
  /** Grams per package: the size for unit g, the net weight for ea. */
  weight_g?: number | null;
  /** Grams of flower one package counts toward purchase limits (operator-entered). */
  flower_equivalent_g?: number | null;
  /** Grams of concentrate in one package (concentrates, vape carts, the infusion of an infused pre-roll). */
  concentrate_g?: number | null;
  /** mg of THC in one package (thcMgPerPackage turns thc_unit mg_per_piece into this). */
  thc_mg?: number | null;
}

/** Per-package measures, in thousandths (mg of flower/concentrate, µg of THC). */
export interface ProductMeasures {
  flower_g: Milli;
  concentrate_g: Milli;
  thc_mg: Milli;
  /** The product's own flower equivalent, when the operator gave one. */
  flower_equivalent_g: Milli | null;
}

const positive = (n: number | null | undefined): number | null => (n != null && Number.isFinite(n) && n > 0 ? n : null);

/**
 * A product's figure in thousandths, rounded UP past the third decimal (a 0.0005 g remainder counts
 * as a whole mg): a product is never counted lighter than its label. The 1e-6 absorbs float noise
 * (0.1 × 1000 = 100.00000000000001 is 100).
 */
function measureMilli(value: number): number {
  return value > 0 ? Math.ceil(value * 1000 - 1e-6) : 0;
}

/** mg THC per package from the menu's thc + thc_unit (+ pieces); null when the potency is a percentage or unknown. */
export function thcMgPerPackage(
  thc: number | null | undefined,
  thcUnit: string | null | undefined,
  pieces: number | null | undefined,
): number | null {
  const v = positive(thc);
  if (v == null) return null;
  if (thcUnit === 'mg') return v;
  if (thcUnit === 'mg_per_piece') return v * (positive(pieces) ?? 1);
  return null;
}

/** Facts from a catalogue item's canna_type, for callers holding a product rather than a menu row. */
export function isCannabisType(cannaType: number | null | undefined): boolean {
  return cannaType == null || !NON_CANNABIS_CANNA_TYPES.includes(cannaType);
}

/**
 * The measures of one package. The three measures never overlap, so a bucket that counts several
 * of them never counts the same cannabis twice:
 * - concentrate: `concentrate_g`.
 * - THC of infused products (edibles, drinks, tinctures, topicals): `thc_mg`, only when the product has
 *   no concentrate grams — a vape cart's label mg are inside its concentrate grams already.
 * - flower: for unit g, the weight less any concentrate in it; for a package, nothing when it is an
 *   infused product (it has mg of THC), else its net weight less its concentrate (a pre-roll: its
 *   weight; an infused pre-roll: the flower part; a vape cart, whose weight is its concentrate: 0).
 *   With no weight at all: the flower equivalent, else 1 g — the spec §5 fallback, so an item with
 *   unknown facts is never counted as nothing.
 */
export function productMeasures(f: LimitProductFacts): ProductMeasures {
  if (f.cannabis === false) return { flower_g: 0, concentrate_g: 0, thc_mg: 0, flower_equivalent_g: null };
  const concentrate = positive(f.concentrate_g) ?? 0;
  const thc = concentrate > 0 ? 0 : (positive(f.thc_mg) ?? 0);
  const weight = positive(f.weight_g);
  const equivalent = positive(f.flower_equivalent_g);
  let flower: number;
  if (f.unit === 'ea' && thc > 0) flower = 0;
  else if (weight != null) flower = Math.max(0, measureMilli(weight) - measureMilli(concentrate)) / 1000;
  else if (concentrate > 0) flower = 0;
  else flower = equivalent ?? 1;
  return {
    flower_g: measureMilli(flower),
    concentrate_g: measureMilli(concentrate),
    thc_mg: measureMilli(thc),
    flower_equivalent_g: equivalent != null ? measureMilli(equivalent) : null,
  };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** ⌈n / d⌉ for non-negative n and positive d. */
export function ceilDiv(n: bigint, d: bigint): bigint {
  return (n + d - 1n) / d;
}

/**
 * Exact arithmetic for equivalence factors: a bucket's amounts are counted in 1/scale of a
 * thousandth of its unit, where scale is the least common multiple of its factors' `amount`s, so
 * that every factor multiplies to a whole number and nothing is rounded before the comparison with
 * the cap. (Rounding each package up instead would refuse 8 one-gram carts at Colorado's 1 oz =
 * 8 g: 8 × ⌈3543.625⌉ = 28352 > 28349.) BigInt: the products reach 10¹⁸ and beyond.
 */
export function bucketScale(bucket: LimitBucket): bigint {
  let scale = 1n;
  for (const measure of LIMIT_MEASURES) {
    const f = bucket.counts[measure];
    if (f) scale = (scale * BigInt(f.amount)) / gcd(scale, BigInt(f.amount));
  }
  return scale;
}

/**
 * What one package counts toward a bucket, in 1/scale thousandths of the bucket's unit. A
 * flower_equivalent_g bucket takes the product's own flower equivalent when it has one (and the
 * bucket allows it), else applies the bucket's factors.
 */
export function bucketScaledPerPackage(bucket: LimitBucket, m: ProductMeasures, scale: bigint = bucketScale(bucket)): bigint {
  if (bucket.useProductEquivalent && m.flower_equivalent_g != null) return BigInt(m.flower_equivalent_g) * scale;
  let total = 0n;
  for (const measure of LIMIT_MEASURES) {
    const f = bucket.counts[measure];
    const amount = m[measure as LimitMeasure];
    if (!f || amount === 0) continue;
    total += (BigInt(amount) * BigInt(f.countsAs) * scale) / BigInt(f.amount);
  }
  return total;
}

/** What one package counts toward a bucket, in thousandths of its unit, rounded up (for display). */
export function bucketAmountPerPackage(bucket: LimitBucket, m: ProductMeasures): Milli {
  const scale = bucketScale(bucket);
  return Number(ceilDiv(bucketScaledPerPackage(bucket, m, scale), scale));
}

/**
 * What one package counts toward each bucket of a model, in thousandths of the bucket's unit
 * (rounded up), leaving out buckets it does not count toward: for "counts 3.5 g toward Flower" on a
 * product page or a cart line.
 */
export function packageContributions(
  buckets: readonly LimitBucket[],
  facts: LimitProductFacts,
): Array<{ bucketId: string; amount: Milli }> {
  const m = productMeasures(facts);
  return buckets.map((b) => ({ bucketId: b.id, amount: bucketAmountPerPackage(b, m) })).filter((c) => c.amount > 0);
}
