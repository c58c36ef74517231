import { NON_CANNABIS_CANNA_TYPES } from '../catalog.ts';
import { LIMIT_MEASURES, toMilli, type LimitBucket, type LimitMeasure, type Milli } from './model.ts';

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
  else if (weight != null) flower = Math.max(0, toMilli(weight) - toMilli(concentrate)) / 1000;
  else if (concentrate > 0) flower = 0;
  else flower = equivalent ?? 1;
  return {
    flower_g: toMilli(flower),
    concentrate_g: toMilli(concentrate),
    thc_mg: toMilli(thc),
    flower_equivalent_g: equivalent != null ? toMilli(equivalent) : null,
  };
}

/** ⌈a·b / c⌉ exactly (BigInt: a and b may each be up to 10⁹). */
function mulDivCeil(a: number, b: number, c: number): number {
  const n = BigInt(a) * BigInt(b);
  const d = BigInt(c);
  return Number((n + d - 1n) / d);
}

/**
 * What one package counts toward a bucket, in thousandths of the bucket's unit.
 *
 * A flower_equivalent_g bucket takes the product's own flower equivalent when it has one (and the
 * bucket allows it), else applies the bucket's factors. A factor that does not divide evenly is
 * rounded UP to the next thousandth, per package: the rounding can only make a cart look fuller,
 * never let an amount over the legal limit through (Colorado's 800 mg = 28.349 g comes out exact).
 */
export function bucketAmountPerPackage(bucket: LimitBucket, m: ProductMeasures): Milli {
  if (bucket.useProductEquivalent && m.flower_equivalent_g != null) return m.flower_equivalent_g;
  let total = 0;
  for (const measure of LIMIT_MEASURES) {
    const f = bucket.counts[measure];
    const amount = m[measure as LimitMeasure];
    if (!f || amount === 0) continue;
    total += mulDivCeil(amount, f.countsAs, f.amount);
  }
  return total;
}
