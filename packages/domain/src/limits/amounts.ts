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
  /**
   * The product's kind (from canna_type, limitKindOf), for a menu that gives no explicit facts:
   * a concentrate or vape counts its weight as concentrate, an infused product its THC, a pre-roll
   * its weight as flower (issue 26). Absent: today's rule (the weight as flower, else 1 g).
   */
  kind?: LimitProductKind | null;
}

/** What a product is, for counting it when the menu omits its facts (canna_type 1, 2, 3, 5). */
export const LIMIT_PRODUCT_KINDS = ['flower', 'preroll', 'concentrate', 'infused'] as const;
export type LimitProductKind = (typeof LIMIT_PRODUCT_KINDS)[number];

/** canna_type → kind: 1 flower, 2 pre-roll, 3 concentrate (vapes, wax, rosin…), 5 infused (edibles, tinctures, topicals). */
export function limitKindOf(cannaType: number | null | undefined): LimitProductKind | null {
  switch (cannaType) {
    case 1:
      return 'flower';
    case 2:
      return 'preroll';
    case 3:
      return 'concentrate';
    case 5:
      return 'infused';
    default:
      return null;
  }
}

/**
 * Rates used only to derive a measure the menu does not give (never to count one it gives): the
 * Colorado equivalence the demo catalogue's flower equivalents are built on (1 oz of flower =
 * 8 g of concentrate = 800 mg of THC, at 28 g to the ounce: the lower figure gives the larger,
 * more conservative derived amount), and 100 mg of THC for an infused package of unknown potency
 * (California's most for one edible package).
 */
export const DERIVE_FLOWER_G_PER_CONCENTRATE_G = 3.5;
export const DERIVE_FLOWER_G_PER_THC_MG = 0.035;
export const DERIVE_UNKNOWN_INFUSED_THC_MG = 100;
export const DERIVE_UNKNOWN_CONCENTRATE_G = 1;

/**
 * The facts a product counts with once its kind fills what the menu left out (productMeasures
 * applies this), and in words how each derived figure came about: empty when the menu gave
 * everything the product's kind needs. The console lists the products that rely on a derivation.
 */
export function deriveLimitFacts(f: LimitProductFacts): {
  facts: LimitProductFacts;
  derived: string[];
} {
  if (f.cannabis === false || !f.kind) {
    if (f.cannabis !== false && !f.kind && positive(f.concentrate_g) == null && positive(f.thc_mg) == null) {
      const w = positive(f.weight_g);
      const e = positive(f.flower_equivalent_g);
      return {
        facts: f,
        derived: [
          w != null
            ? `kind unknown: counted as ${round3(w)} g of flower (its weight)`
            : `kind unknown: counted as ${round3(e ?? 1)} g of flower (${e != null ? 'its flower equivalent' : 'no weight given'})`,
        ],
      };
    }
    return { facts: f, derived: [] };
  }
  const weight = positive(f.weight_g);
  const equivalent = positive(f.flower_equivalent_g);
  const concentrate = positive(f.concentrate_g);
  const thc = positive(f.thc_mg);
  switch (f.kind) {
    case 'concentrate':
      // Its concentrate is all the cannabis in it (the rest of the weight is packaging or carrier, not flower).
      if (concentrate != null) return { facts: { ...f, weight_g: concentrate }, derived: [] };
      // By weight even when the label gives mg of THC: a 1 g cart of 850 mg counts 1 g of concentrate.
      if (weight != null)
        return {
          facts: { ...f, concentrate_g: weight },
          derived: [`concentrate ${round3(weight)} g: its net weight`],
        };
      if (thc != null) return { facts: f, derived: [] };
      if (equivalent != null) {
        const g = round3(equivalent / DERIVE_FLOWER_G_PER_CONCENTRATE_G);
        return {
          facts: { ...f, concentrate_g: g },
          derived: [`concentrate ${g} g: from its flower equivalent of ${round3(equivalent)} g`],
        };
      }
      return {
        facts: { ...f, concentrate_g: DERIVE_UNKNOWN_CONCENTRATE_G },
        derived: [`concentrate ${DERIVE_UNKNOWN_CONCENTRATE_G} g: no weight given, counted as a 1 g package`],
      };
    case 'infused':
      if (thc != null || concentrate != null) return { facts: f, derived: [] };
      if (equivalent != null) {
        const mg = round3(equivalent / DERIVE_FLOWER_G_PER_THC_MG);
        return {
          facts: { ...f, thc_mg: mg },
          derived: [`THC ${mg} mg: from its flower equivalent of ${round3(equivalent)} g`],
        };
      }
      return {
        // With a flower equivalent too, for the models that count infused products only by theirs (Michigan).
        facts: { ...f, thc_mg: DERIVE_UNKNOWN_INFUSED_THC_MG, flower_equivalent_g: DERIVE_UNKNOWN_INFUSED_THC_MG * DERIVE_FLOWER_G_PER_THC_MG },
        derived: [`THC ${DERIVE_UNKNOWN_INFUSED_THC_MG} mg: no potency given, counted as the most a package may hold`],
      };
    case 'preroll':
      if (concentrate == null && weight != null && equivalent != null && equivalent > weight + 1e-9) {
        // An infused pre-roll: its flower equivalent beyond its weight is the concentrate rolled in.
        const g = round3((equivalent - weight) / DERIVE_FLOWER_G_PER_CONCENTRATE_G);
        return {
          facts: { ...f, concentrate_g: g, weight_g: weight + g },
          derived: [
            `infused: flower ${round3(weight)} g (its net weight) and concentrate ${g} g (its flower equivalent beyond its weight)`,
          ],
        };
      }
      return flowerByWeight(f, weight, equivalent, concentrate, thc);
    case 'flower':
      return flowerByWeight(f, weight, equivalent, concentrate, thc);
  }
}

function flowerByWeight(
  f: LimitProductFacts,
  weight: number | null,
  equivalent: number | null,
  concentrate: number | null,
  thc: number | null,
): { facts: LimitProductFacts; derived: string[] } {
  if (weight != null || concentrate != null || thc != null) return { facts: f, derived: [] };
  return {
    facts: f,
    derived: [`flower ${round3(equivalent ?? 1)} g: ${equivalent != null ? 'its flower equivalent' : 'no weight given, counted as 1 g'}`],
  };
}

/** Rounded UP to the mg: a derived amount is never lighter than the figure it comes from. */
function round3(n: number): number {
  return Math.ceil(n * 1000 - 1e-6) / 1000;
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
 * With a `kind`, what the menu leaves out is first derived from it (deriveLimitFacts): a concentrate
 * or vape without concentrate grams counts its net weight as concentrate, never as flower.
 */
export function productMeasures(given: LimitProductFacts): ProductMeasures {
  const f = given.kind ? deriveLimitFacts(given).facts : given;
  if (f.cannabis === false)
    return {
      flower_g: 0,
      concentrate_g: 0,
      thc_mg: 0,
      flower_equivalent_g: null,
    };
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
