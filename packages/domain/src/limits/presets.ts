import type { LicenseType } from '../license.ts';
import { isSizeId, sizeWeightGrams } from '../sizes.ts';
import { isCannabisType, limitKindOf, thcMgPerPackage, type LimitProductFacts } from './amounts.ts';
import { parseLimitModel, type LimitModel, type LimitModelInput } from './model.ts';

/**
 * Ready-made limit models per state. A store starts from one (STORES_FILE or the console) and may
 * edit its copy. Figures and sources are beside each; [R] marks what the project's research says
 * (/work/shared/research/dispensary-domain.md §2, operator-side.md §3), [D12] the Dutchie compliance
 * table the research cites (summersab/dutchie-taxes shared/core/constants/compliance.js, unofficial),
 * [W] a public source found for this code where the research is silent. Where no source settles a
 * point, the comment says so and the choice made.
 *
 * Ounces: 1 oz = 28.3495 g. Caps in ounces are floored to the milligram (1 oz → 28.349 g,
 * 2.5 oz → 70.873 g) so that a cap never exceeds the law by the rounding; [D12] rounds to 28.35.
 *
 * Throughout: the three measures (flower grams, concentrate grams, mg of THC in infused products)
 * come from the menu's fields (amounts.ts). Where a state counts "mg of THC toward the concentrate
 * limit", 1000 mg of THC count as 1 g of concentrate (the mass of the THC) — an inference: the
 * sources say that edibles count toward concentrate, not at what rate.
 */

/** California — 4 CCR §15409 [R]. */
export const CALIFORNIA: LimitModelInput = {
  buckets: [
    {
      // Adult use: 28.5 g of non-concentrated cannabis per customer per day [R, D12 rec Flower 28.5].
      // 6 immature plants per day [R] are not modelled: plants are not on the menu.
      id: 'flower',
      label: 'Flower',
      unit: 'flower_g',
      caps: { recreational: 28.5, medical: 'no_cap' },
      window: { type: 'day' },
    },
    {
      // Adult use: 8 g of concentrate per day, including concentrate inside products [R]; edibles,
      // beverages, topicals and infused pre-rolls count their mg of THC toward it (Treez, [R]; [D12]
      // maps Edible, Vaporizers, Tincture and infused to Concentrate).
      id: 'concentrate',
      label: 'Concentrate',
      unit: 'concentrate_g',
      counts: { concentrate_g: { amount: 1, counts_as: 1 }, thc_mg: { amount: 1000, counts_as: 1 } },
      caps: { recreational: 8, medical: 'no_cap' },
      window: { type: 'day' },
    },
    {
      // Medical: 8 oz per day, or the physician's recommended amount [R] → 226.796 g ([R] operator-side
      // and [D12] use 224 g, i.e. 28 g to the ounce; a store wanting that margin edits its copy). The
      // research does not say how concentrate and edibles count toward the 8 oz: counted by weight, 1:1,
      // and THC mg as above — the conservative reading. A recommendation above 8 oz is a per-patient
      // override the model does not hold.
      id: 'medical',
      label: 'Medical cannabis',
      unit: 'flower_g',
      counts: {
        flower_g: { amount: 1, counts_as: 1 },
        concentrate_g: { amount: 1, counts_as: 1 },
        thc_mg: { amount: 1000, counts_as: 1 },
      },
      caps: { recreational: 'no_cap', medical: 226.796 },
      window: { type: 'day' },
    },
  ],
  // "Adult-use and medical limits can't be stacked" [R]: every bucket counts all of the customer's
  // orders of the day (count_orders "all", the default), whichever licence type they were under.
  share_with_licence_holder: false,
};

/** Colorado — Rule R 402(C)(1.5) and HB21-1317 [R]. */
export const COLORADO: LimitModelInput = {
  buckets: [
    {
      // Adult use: 1 oz of flower or equivalent per transaction, residents and visitors alike [R];
      // 1 oz flower = 8 g concentrate = 800 mg THC in products, mixable [R, D12 multipliers]. Non-
      // psychoactive topicals don't count [R]: the store leaves their thc_mg empty or marks them
      // non-cannabis. A product's own flower_equivalent_g, when given, is used as is.
      id: 'equivalent',
      label: 'Flower equivalent',
      unit: 'flower_equivalent_g',
      counts: {
        flower_g: { amount: 1, counts_as: 1 },
        concentrate_g: { amount: 8, counts_as: 28.349 },
        thc_mg: { amount: 800, counts_as: 28.349 },
      },
      caps: { recreational: 28.349, medical: 'no_cap' },
      window: { type: 'transaction' },
    },
    {
      // Medical since 2022: 2 oz flower per day [R] (56.699 g; [D12] 56.7). The 2 g concentrate cap
      // for patients aged 18–20 [R] needs the patient's age, which the model does not take: not modelled.
      // Medical and adult-use items never share a cart [D12 isolatedMenus], and the medical allotment
      // is tracked apart in Metrc [R]: only earlier medical orders count.
      id: 'medical-flower',
      label: 'Medical flower',
      unit: 'flower_g',
      caps: { recreational: 'no_cap', medical: 56.699 },
      window: { type: 'day' },
      count_orders: 'same_customer_type',
    },
    {
      // Medical: 8 g concentrate per day [R]. How infused products count for patients is not in the
      // research ([D12] converts them at 56.7 g per 20 g THC): not counted here.
      id: 'medical-concentrate',
      label: 'Medical concentrate',
      unit: 'concentrate_g',
      caps: { recreational: 'no_cap', medical: 8 },
      window: { type: 'day' },
      count_orders: 'same_customer_type',
    },
  ],
  share_with_licence_holder: false,
};

/** Michigan — MRTMA §5, CRA R 420.506(3) [R]. */
export const MICHIGAN: LimitModelInput = {
  buckets: [
    {
      // Adult use: 2.5 oz per transaction [R] (70.873 g; [D12] 70), concentrate included by weight.
      // Infused products count by the product's flower_equivalent_g when the operator gives it (the
      // medical equivalents of 1 oz: 16 oz solid infused, 36 fl oz liquid, 7 g gaseous [R]; the model
      // has no volume measure, so those are entered per product).
      id: 'total',
      label: 'Cannabis',
      unit: 'flower_equivalent_g',
      counts: { flower_g: { amount: 1, counts_as: 1 }, concentrate_g: { amount: 1, counts_as: 1 } },
      caps: { recreational: 70.873, medical: 'no_cap' },
      window: { type: 'transaction' },
    },
    {
      // …of which no more than 15 g concentrate, including infused pre-rolls and vape carts [R, D12 15].
      id: 'concentrate',
      label: 'Concentrate',
      unit: 'concentrate_g',
      caps: { recreational: 15, medical: 'no_cap' },
      window: { type: 'transaction' },
    },
    {
      // Medical: sources disagree — 2.5 oz/day and 10 oz/month, vs 2.5 oz per 14 days [R: "Confirm with
      // the CRA"]. The stricter reading is taken: 2.5 oz per 14 days. Medical stores pull each patient's
      // remaining allotment from Metrc [R]; that figure, when the server has it, is stricter still.
      id: 'medical',
      label: 'Medical cannabis',
      unit: 'flower_equivalent_g',
      counts: { flower_g: { amount: 1, counts_as: 1 }, concentrate_g: { amount: 1, counts_as: 1 } },
      caps: { recreational: 'no_cap', medical: 70.873 },
      window: { type: 'rolling_days', days: 14 },
    },
  ],
  share_with_licence_holder: false,
};

/** Illinois — Verilife, Treez [R]; [D12] outOfStateLimits. */
export const ILLINOIS: LimitModelInput = {
  buckets: [
    // Adult use, residents: 30 g flower, 5 g concentrate, 500 mg THC in infused products; non-
    // residents half: 15 g, 2.5 g, 250 mg [R, D12]. Each category has its own cap [R]. The window is
    // not in the research: per transaction, as [D12] and Dispense [R] enforce it.
    {
      id: 'flower',
      label: 'Flower',
      unit: 'flower_g',
      caps: { recreational: { resident: 30, non_resident: 15 }, medical: 'no_cap' },
      window: { type: 'transaction' },
    },
    {
      id: 'concentrate',
      label: 'Concentrate',
      unit: 'concentrate_g',
      caps: { recreational: { resident: 5, non_resident: 2.5 }, medical: 'no_cap' },
      window: { type: 'transaction' },
    },
    {
      id: 'infused',
      label: 'THC in infused products',
      unit: 'thc_mg',
      caps: { recreational: { resident: 500, non_resident: 250 }, medical: 'no_cap' },
      window: { type: 'transaction' },
    },
    {
      // Medical: 2.5 oz per 14 days [R] (70.873 g; [D12] 70, flower and concentrate 1:1, edibles not
      // capped). Residency of patients is not in the research: the same cap for both.
      id: 'medical',
      label: 'Medical cannabis',
      unit: 'flower_equivalent_g',
      counts: { flower_g: { amount: 1, counts_as: 1 }, concentrate_g: { amount: 1, counts_as: 1 } },
      use_product_equivalent: false,
      caps: { recreational: 'no_cap', medical: 70.873 },
      window: { type: 'rolling_days', days: 14 },
    },
  ],
  share_with_licence_holder: false,
};

/**
 * Massachusetts — not in the research. [W] 935 CMR 500.140 as quoted by the Cannabis Control
 * Commission: "may not sell more than one ounce of marijuana or five grams of marijuana concentrate
 * to a consumer per transaction"; [D12] MA: 28.35 g flower, 5 g concentrate, 500 mg edible THC,
 * combined by equivalence (multipliers 5.67 and 56.7).
 */
export const MASSACHUSETTS: LimitModelInput = {
  buckets: [
    {
      id: 'equivalent',
      label: 'Cannabis',
      unit: 'flower_equivalent_g',
      counts: {
        flower_g: { amount: 1, counts_as: 1 },
        concentrate_g: { amount: 5, counts_as: 28.349 },
        thc_mg: { amount: 500, counts_as: 28.349 },
      },
      caps: { recreational: 28.349, medical: 'no_cap' },
      window: { type: 'transaction' },
    },
    {
      // Medical: no more than a 60-day supply per 60 days (935 CMR 501.140(3) [W]), 10 oz unless the
      // certifying provider says otherwise (a Provincetown town notice [W], third-party). How infused
      // products count is not settled by these sources: flower and concentrate by weight.
      id: 'medical',
      label: 'Medical cannabis',
      unit: 'flower_equivalent_g',
      counts: { flower_g: { amount: 1, counts_as: 1 }, concentrate_g: { amount: 1, counts_as: 1 } },
      use_product_equivalent: false,
      caps: { recreational: 'no_cap', medical: 283.495 },
      window: { type: 'rolling_days', days: 60 },
    },
  ],
  share_with_licence_holder: false,
};

/**
 * Nevada — not in the research. Since 2024-01-01 (SB 277, 2023): 2.5 oz of usable cannabis and
 * 1/4 oz of concentrated cannabis per transaction for adults (cannabisclarkcounty.com [W], citing the
 * Cannabis Compliance Board's exchange chart — a third-party summary: CHECK WITH THE CCB before use).
 * [D12] still has the earlier 1 oz / 3.5 g, with edibles, topicals and tinctures counted as
 * concentrate. Medical: 2.5 oz per 14 days (themagazine.io [W], third-party; [D12] has 1 oz / 4 g):
 * unconfirmed.
 */
export const NEVADA: LimitModelInput = {
  buckets: [
    {
      id: 'flower',
      label: 'Flower',
      unit: 'flower_g',
      caps: { recreational: 70.873, medical: 'no_cap' },
      window: { type: 'transaction' },
    },
    {
      id: 'concentrate',
      label: 'Concentrate',
      unit: 'concentrate_g',
      counts: { concentrate_g: { amount: 1, counts_as: 1 }, thc_mg: { amount: 1000, counts_as: 1 } },
      caps: { recreational: 7.087, medical: 'no_cap' },
      window: { type: 'transaction' },
    },
    {
      id: 'medical',
      label: 'Medical cannabis',
      unit: 'flower_equivalent_g',
      counts: {
        flower_g: { amount: 1, counts_as: 1 },
        concentrate_g: { amount: 1, counts_as: 1 },
        thc_mg: { amount: 1000, counts_as: 1 },
      },
      use_product_equivalent: false,
      caps: { recreational: 'no_cap', medical: 70.873 },
      window: { type: 'rolling_days', days: 14 },
    },
  ],
  share_with_licence_holder: false,
};

export const LIMIT_PRESETS = {
  CA: { name: 'California', model: CALIFORNIA },
  CO: { name: 'Colorado', model: COLORADO },
  MI: { name: 'Michigan', model: MICHIGAN },
  IL: { name: 'Illinois', model: ILLINOIS },
  MA: { name: 'Massachusetts', model: MASSACHUSETTS },
  NV: { name: 'Nevada', model: NEVADA },
} as const satisfies Record<string, { name: string; model: LimitModelInput }>;

export type LimitPresetId = keyof typeof LIMIT_PRESETS;

/** A preset, validated and normalised (a fresh copy: a store edits its own). */
export function limitPreset(id: LimitPresetId): LimitModel {
  return parseLimitModel(structuredClone(LIMIT_PRESETS[id].model));
}

/**
 * Today's single per-transaction limit (compliance_settings.limits[licence].per_transaction.usable_max)
 * as a model: one "Cannabis" bucket per order, so the spec's §8 message comes out word for word. A
 * licence type without a figure gets no cap, as today. Products count their flower equivalent, else
 * their flower grams (the spec §5 rule: size weight, else unit_weight_grams_equivelent, else 1 g);
 * concentrate grams count 1:1.
 */
export function transactionLimitModel(usableMax: Partial<Record<LicenseType, number>>): LimitModel {
  const cap = (n: number | undefined) => (n == null ? ('no_cap' as const) : Math.floor(n * 1000 + 1e-6) / 1000);
  return parseLimitModel({
    buckets: [
      {
        id: 'cannabis',
        label: 'Cannabis',
        unit: 'flower_equivalent_g',
        counts: { flower_g: { amount: 1, counts_as: 1 }, concentrate_g: { amount: 1, counts_as: 1 } },
        caps: { recreational: cap(usableMax.recreational), medical: cap(usableMax.medical) },
        window: { type: 'transaction' },
      },
    ],
  });
}

/**
 * Whether a model is the spec's per-order limit (transactionLimitModel's shape, whatever its caps):
 * products then count exactly as spec §5 counts them (limitFactsFromCartItem), its message is the
 * spec's word for word. Any other model counts the menu's facts and the product's kind.
 */
export function isSpecPerOrderModel(model: LimitModel): boolean {
  if (model.buckets.length !== 1) return false;
  const b = model.buckets[0];
  const one = (f: { amount: number; countsAs: number } | undefined) => f != null && f.amount === f.countsAs;
  return (
    b.id === 'cannabis' &&
    b.label === 'Cannabis' &&
    b.unit === 'flower_equivalent_g' &&
    b.window.type === 'transaction' &&
    b.useProductEquivalent &&
    one(b.counts.flower_g) &&
    one(b.counts.concentrate_g) &&
    b.counts.thc_mg == null
  );
}

/**
 * Facts for today's cart items (cart/limits.ts LimitItem: size, unit_weight_grams_equivelent,
 * canna_type), counted exactly as spec §5 does: the size's weight when a size is set, else the unit
 * equivalent, else 1 g; canna_type 4 and 6 count nothing. With transactionLimitModel this gives the
 * same verdict as checkTransactionLimit (evaluate.test.ts checks it on random carts).
 */
export function limitFactsFromCartItem(item: {
  size?: number | null;
  unit_weight_grams_equivelent?: number | null;
  canna_type?: number | null;
}): LimitProductFacts {
  const cannabis = isCannabisType(item.canna_type);
  if (item.size != null && isSizeId(Number(item.size))) return { cannabis, unit: 'g', weight_g: sizeWeightGrams(item.size) };
  const equivalent = item.unit_weight_grams_equivelent;
  return equivalent != null && equivalent > 0 ? { cannabis, unit: 'ea', flower_equivalent_g: equivalent } : { cannabis, unit: 'ea' };
}

const menuNumber = (v: string | undefined): number | null => {
  if (v == null || !v.trim()) return null;
  const n = Number(v.replace(/[^\d.]/g, ''));
  return Number.isFinite(n) ? n : null;
};

/** A net weight as the menu writes it ("1 g", "500 mg", "0.5", "1 oz") in grams; null when it is not one. */
export function menuWeightGrams(v: string | undefined): number | null {
  if (v == null) return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(mg|g|grams?|oz|ounces?)?\s*$/i.exec(v);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? 'g').toLowerCase();
  const g = unit === 'mg' ? n / 1000 : unit.startsWith('o') ? n * 28.3495 : n;
  return Number.isFinite(g) && g > 0 ? g : null;
}

/**
 * Facts of a product under a store's own model (not the spec's per-order limit): spec §5's fields,
 * the menu's attributes (concentrate_grams, thc_mg or thc_mg_per_piece × pieces, net_weight) and
 * the product's kind from canna_type, which fills what the menu leaves out (deriveLimitFacts: a wax
 * without concentrate grams counts its net weight as concentrate, never as flower; issue 26).
 */
export function limitFactsFromMenu(
  item: { size?: number | null; unit_weight_grams_equivelent?: number | null; canna_type?: number | null },
  attrs: Readonly<Record<string, string | undefined>>,
): LimitProductFacts {
  const base = limitFactsFromCartItem(item);
  const concentrate = menuNumber(attrs.concentrate_grams);
  const thc =
    attrs.thc_mg != null
      ? thcMgPerPackage(menuNumber(attrs.thc_mg), 'mg', null)
      : thcMgPerPackage(menuNumber(attrs.thc_mg_per_piece), 'mg_per_piece', menuNumber(attrs.pieces));
  const net = menuWeightGrams(attrs.net_weight);
  return {
    ...base,
    kind: limitKindOf(item.canna_type),
    ...(concentrate != null ? { concentrate_g: concentrate } : {}),
    ...(thc != null ? { thc_mg: thc } : {}),
    ...(base.unit === 'ea' && net != null ? { weight_g: net } : {}),
  };
}
