import { z } from 'zod';
import { LICENSE_TYPES, type LicenseType } from '../license.ts';

/**
 * The purchase-limit model of a store (issue 14 "Purchase-limit buckets"): a list of buckets, each
 * with a unit, a cap per customer type and residency, and a window. See index.ts for the overview.
 *
 * Amounts are integers of thousandths of the bucket's unit ("milli"): milligrams for the gram
 * units, micrograms for `thc_mg`. Every figure in a model (caps, equivalence factors) may carry at
 * most three decimals, so it converts to an integer exactly and 28.5 g is 28500, never 28.499999.
 */
export type Milli = number;

export const MILLI = 1000;

/** What a bucket is measured in. */
export const LIMIT_UNITS = ['flower_g', 'concentrate_g', 'thc_mg', 'flower_equivalent_g'] as const;
export type LimitUnit = (typeof LIMIT_UNITS)[number];

/** What a product carries (per package) that a bucket can count: the units other than the equivalent. */
export const LIMIT_MEASURES = ['flower_g', 'concentrate_g', 'thc_mg'] as const;
export type LimitMeasure = (typeof LIMIT_MEASURES)[number];

export const RESIDENCIES = ['resident', 'non_resident'] as const;
export type Residency = (typeof RESIDENCIES)[number];

/** The symbol shown after an amount of the unit. */
export const UNIT_SYMBOL: Readonly<Record<LimitUnit, string>> = {
  flower_g: 'g',
  concentrate_g: 'g',
  thc_mg: 'mg',
  flower_equivalent_g: 'g',
};

/** A figure with at most three decimals, as an exact integer of thousandths. */
export function toMilli(value: number): Milli {
  return Math.round(value * MILLI);
}

function hasAtMostThreeDecimals(value: number): boolean {
  return Math.abs(value * MILLI - Math.round(value * MILLI)) < 1e-6;
}

const figure = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .positive(`${what} must be more than 0`)
    .max(1_000_000, `${what} must be at most 1000000`)
    .refine(hasAtMostThreeDecimals, `${what} may have at most 3 decimals (the smallest step is 1/1000 of the unit)`);

/**
 * A cap, explicit in all three cases: a number (in the bucket's unit), `"no_cap"` (this bucket does
 * not limit these shoppers: the products are sold to them without counting here) or `"not_sold"`
 * (products that count toward this bucket may not be sold to them at all). A missing cap is a
 * validation error, never a silent default, because the two readings of "missing" are opposite.
 */
const capInput = z.union([figure('A cap'), z.literal('no_cap'), z.literal('not_sold')], {
  error: 'a cap is a number in the bucket’s unit, "no_cap" or "not_sold"',
});

/** One cap for both residencies, or one per residency. */
const capsForType = z.union([capInput, z.strictObject({ resident: capInput, non_resident: capInput })], {
  error: 'give one cap (a number, "no_cap" or "not_sold") or { "resident": …, "non_resident": … }',
});

export const limitWindowSchema = z.discriminatedUnion(
  'type',
  [
    /** The cart alone; earlier orders are never counted. */
    z.strictObject({ type: z.literal('transaction') }),
    /** The calendar day in the store's time zone. */
    z.strictObject({ type: z.literal('day') }),
    /** Today and the N−1 calendar days before it, in the store's time zone. */
    z.strictObject({
      type: z.literal('rolling_days'),
      days: z
        .number({ error: 'days must be a number' })
        .int('days must be a whole number')
        .min(1, 'days must be at least 1')
        .max(366, 'days must be at most 366'),
    }),
    /** The calendar month in the store's time zone. */
    z.strictObject({ type: z.literal('month') }),
  ],
  { error: 'a window is { "type": "transaction" | "day" | "month" } or { "type": "rolling_days", "days": N }' },
);
export type LimitWindow = z.infer<typeof limitWindowSchema>;

/** `amount` of the measure counts as `counts_as` of the bucket's unit (1 g concentrate = 3.5 g flower: {1, 3.5}). */
const factorInput = z.strictObject({ amount: figure('amount'), counts_as: figure('counts_as') });

export const limitBucketSchema = z
  .strictObject({
    id: z
      .string({ error: 'id must be text' })
      .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'id: lowercase letters, digits, "-" and "_", starting with a letter, at most 40'),
    label: z.string({ error: 'label must be text' }).trim().min(1, 'label must not be empty').max(40, 'label: at most 40 characters'),
    unit: z.enum(LIMIT_UNITS, { error: `unit must be one of ${LIMIT_UNITS.join(', ')}` }),
    /**
     * What counts toward the bucket and at what rate. Default for flower_g, concentrate_g and thc_mg:
     * that measure one to one. Required for flower_equivalent_g (there is no default equivalence).
     */
    counts: z.partialRecord(z.enum(LIMIT_MEASURES), factorInput).optional(),
    /** flower_equivalent_g only: a product's own flower_equivalent_g, when set, replaces the factors (Dutchie's rule). */
    use_product_equivalent: z.boolean().default(true),
    caps: z.strictObject({ recreational: capsForType, medical: capsForType }, { error: 'caps needs "recreational" and "medical"' }),
    window: limitWindowSchema,
    /**
     * Which earlier orders count: all of the customer's (medical and recreational limits can't be
     * stacked, California) or only those of the same customer type (Colorado keeps them apart).
     */
    count_orders: z.enum(['all', 'same_customer_type']).default('all'),
  })
  .superRefine((b, ctx) => {
    if (b.unit === 'flower_equivalent_g' && (!b.counts || Object.keys(b.counts).length === 0)) {
      ctx.addIssue({ code: 'custom', path: ['counts'], message: 'a flower_equivalent_g bucket needs counts (its equivalence factors)' });
    }
    if (b.counts && Object.keys(b.counts).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['counts'], message: 'counts must name at least one of flower_g, concentrate_g, thc_mg' });
    }
  });

export const limitModelSchema = z
  .strictObject({
    buckets: z
      .array(limitBucketSchema, { error: 'buckets must be a list of buckets' })
      .min(1, 'a limit model needs at least one bucket')
      .max(16, 'at most 16 buckets'),
    /**
     * Earlier orders are counted across the deployment's stores of the same licence holder (the
     * server does the query; the model only records the store's choice).
     */
    share_with_licence_holder: z.boolean().default(false),
  })
  .superRefine((m, ctx) => {
    const seen = new Set<string>();
    m.buckets.forEach((b, i) => {
      if (seen.has(b.id)) ctx.addIssue({ code: 'custom', path: ['buckets', i, 'id'], message: `bucket id "${b.id}" is used twice` });
      seen.add(b.id);
    });
  });

/** A model as stores give it (STORES_FILE, the console). */
export type LimitModelInput = z.input<typeof limitModelSchema>;

/** A cap after normalising: thousandths of the unit, or one of the two explicit non-numbers. */
export type Cap = { kind: 'cap'; max: Milli } | { kind: 'no_cap' } | { kind: 'not_sold' };

/** Exact factor: `amount` thousandths of the measure count as `countsAs` thousandths of the unit. */
export interface Factor {
  amount: Milli;
  countsAs: Milli;
}

export interface LimitBucket {
  id: string;
  label: string;
  unit: LimitUnit;
  counts: Partial<Record<LimitMeasure, Factor>>;
  useProductEquivalent: boolean;
  caps: Record<LicenseType, Record<Residency, Cap>>;
  window: LimitWindow;
  countOrders: 'all' | 'same_customer_type';
}

export interface LimitModel {
  buckets: LimitBucket[];
  shareWithLicenceHolder: boolean;
}

function normaliseCap(c: z.infer<typeof capInput>): Cap {
  return typeof c === 'number' ? { kind: 'cap', max: toMilli(c) } : { kind: c };
}

/** Validates a model (throws a ZodError with the path of the bad field). */
export function parseLimitModel(input: unknown): LimitModel {
  return normaliseLimitModel(limitModelSchema.parse(input));
}

/** Like parseLimitModel, for callers that answer 400 with the issues. */
export function safeParseLimitModel(input: unknown): { success: true; data: LimitModel } | { success: false; error: z.ZodError } {
  const r = limitModelSchema.safeParse(input);
  return r.success ? { success: true, data: normaliseLimitModel(r.data) } : { success: false, error: r.error };
}

export function normaliseLimitModel(m: z.output<typeof limitModelSchema>): LimitModel {
  return {
    shareWithLicenceHolder: m.share_with_licence_holder,
    buckets: m.buckets.map((b) => {
      const counts: Partial<Record<LimitMeasure, Factor>> = {};
      const given = b.counts ?? (b.unit === 'flower_equivalent_g' ? {} : { [b.unit]: { amount: 1, counts_as: 1 } });
      for (const measure of LIMIT_MEASURES) {
        const f = given[measure];
        if (f) counts[measure] = { amount: toMilli(f.amount), countsAs: toMilli(f.counts_as) };
      }
      const caps = {} as Record<LicenseType, Record<Residency, Cap>>;
      for (const type of LICENSE_TYPES) {
        const c = b.caps[type];
        caps[type] =
          typeof c === 'object'
            ? { resident: normaliseCap(c.resident), non_resident: normaliseCap(c.non_resident) }
            : { resident: normaliseCap(c), non_resident: normaliseCap(c) };
      }
      return {
        id: b.id,
        label: b.label,
        unit: b.unit,
        counts,
        useProductEquivalent: b.unit === 'flower_equivalent_g' && b.use_product_equivalent,
        caps,
        window: b.window,
        countOrders: b.count_orders,
      };
    }),
  };
}

/** Whether the shopper's residency changes any cap: the age gate or checkout must then ask for it. */
export function modelNeedsResidency(model: LimitModel): boolean {
  const same = (a: Cap, b: Cap) => a.kind === b.kind && (a.kind !== 'cap' || a.max === (b as { max: Milli }).max);
  return model.buckets.some((b) => LICENSE_TYPES.some((t) => !same(b.caps[t].resident, b.caps[t].non_resident)));
}
