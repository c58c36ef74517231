import { z } from 'zod';

/**
 * Deal records (issue 28): the data a manager creates, one zod schema per kind sharing common
 * fields (eligibility, schedule, limits, stacking). Money is integer cents; percentages are plain
 * numbers with at most two decimals (15 = 15 %). See ./README.md for the model as a whole.
 */

const cents = (what: string) =>
  z.number({ error: `${what} must be an amount in cents` }).int(`${what} must be whole cents`).min(0, `${what} must not be negative`).max(100_000_000, `${what} is too large`);
const positiveCents = (what: string) => cents(what).min(1, `${what} must be at least 1 cent`);
const count = (what: string, min = 1, max = 1000) =>
  z.number({ error: `${what} must be a number` }).int(`${what} must be a whole number`).min(min, `${what} must be at least ${min}`).max(max, `${what} must be at most ${max}`);
const percent = z
  .number({ error: 'percent must be a number' })
  .gt(0, 'percent must be more than 0')
  .max(100, 'percent must be at most 100')
  .refine((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-7, 'percent may have at most 2 decimals');

/** Product kinds of the catalogue (seed data/merch.ts ProductKind). */
export const DEAL_PRODUCT_KINDS = ['flower', 'preroll', 'vape', 'concentrate', 'edible', 'tincture', 'topical', 'accessory'] as const;
export type DealProductKind = (typeof DEAL_PRODUCT_KINDS)[number];

const criteria = {
  /** Category ids; a product in a descendant category matches too. */
  categories: z.array(count('a category id', 1, 1e12)).optional(),
  brands: z.array(count('a brand id', 1, 1e12)).optional(),
  kinds: z.array(z.enum(DEAL_PRODUCT_KINDS)).optional(),
  /** Strain types as the menu spells them (Indica, Sativa, Hybrid, CBD); compared case-insensitively. */
  strainTypes: z.array(z.string().min(1)).optional(),
  /** Size ids (91–95) of weighed flower. */
  sizes: z.array(count('a size id', 1, 1e6)).optional(),
  /** Discovery tags; compared case-insensitively. */
  tags: z.array(z.string().min(1)).optional(),
};

/**
 * A product set: every criterion given must match (AND across fields, OR within a field); explicit
 * `skus` are added to what the criteria match (a set of only skus is exactly those); `exclude` removes
 * whatever any of its criteria matches. An empty set matches every product.
 */
export const productSetSchema = z.strictObject({
  ...criteria,
  skus: z.array(z.string().min(1)).optional(),
  exclude: z.strictObject({ ...criteria, skus: z.array(z.string().min(1)).optional() }).optional(),
});
export type ProductSet = z.infer<typeof productSetSchema>;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time is HH:MM (24-hour)');

export const dealScheduleSchema = z.strictObject({
  /** ISO instants; the deal runs from startsAt (inclusive) to endsAt (exclusive). */
  startsAt: z.iso.datetime({ offset: true }).optional(),
  endsAt: z.iso.datetime({ offset: true }).optional(),
  /** Days of the week in the store's time zone, 0 = Sunday … 6 = Saturday. Absent: every day. */
  days: z.array(count('a weekday', 0, 6)).min(1, 'name at least one day').optional(),
  /** Local hours in the store's time zone, from inclusive to exclusive; `to` at or before `from` runs past midnight. */
  hours: z.strictObject({ from: hhmm, to: hhmm }).optional(),
});
export type DealSchedule = z.infer<typeof dealScheduleSchema>;

export const dealEligibilitySchema = z.strictObject({
  /** Only shoppers buying under this licence type. Absent: both. */
  licence: z.enum(['medical', 'recreational']).optional(),
  /** Only these customer group ids. */
  customerGroups: z.array(count('a customer group id', 0, 1e9)).min(1).optional(),
  /** Only a customer's first order (no earlier order). */
  firstOrder: z.boolean().optional(),
  /** Only customers whose account is at most `newCustomerDays` old (default 30). */
  newCustomer: z.boolean().optional(),
  newCustomerDays: count('newCustomerDays', 1, 365).optional(),
  /** Only in the customer's birthday month (store's time zone). */
  birthdayMonth: z.boolean().optional(),
});
export type DealEligibility = z.infer<typeof dealEligibilitySchema>;

export const perCustomerWindowSchema = z.discriminatedUnion('type', [
  /** The calendar day in the store's time zone. */
  z.strictObject({ type: z.literal('day') }),
  /** Today and the N−1 days before it. */
  z.strictObject({ type: z.literal('days'), days: count('days', 1, 366) }),
  /** For as long as the deal runs. */
  z.strictObject({ type: z.literal('deal') }),
]);

export const dealLimitsSchema = z.strictObject({
  /** Most applications in one order: items for an item discount, groups for group kinds. */
  perOrder: count('perOrder').optional(),
  /** Most orders a customer may redeem the deal in, per window; the server counts them (context usage). */
  perCustomer: z.strictObject({ max: count('perCustomer.max'), window: perCustomerWindowSchema }).optional(),
  /** Most orders that may redeem the deal in all; the server reserves them atomically. */
  budget: count('budget', 1, 1e9).optional(),
});
export type DealLimits = z.infer<typeof dealLimitsSchema>;

export const dealStackingSchema = z.strictObject({
  /** Combines with other deals (on other items, and with an order-level reward). False: it applies alone. */
  deals: z.boolean(),
  /** May apply in an order that also carries a coupon. */
  coupons: z.boolean(),
  /** May apply in an order that also redeems reward points. */
  points: z.boolean(),
});
export type DealStacking = z.infer<typeof dealStackingSchema>;

/** What an item gets: a percent off, an amount off each, or a price each ($0.01 is a price, never "free"). */
export const itemRewardSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('percent'), percent }),
  z.strictObject({ type: z.literal('amount'), cents: positiveCents('amount') }),
  z.strictObject({ type: z.literal('price'), cents: positiveCents('price') }),
]);
export type ItemReward = z.infer<typeof itemRewardSchema>;

const nounSchema = z.strictObject({ one: z.string().min(1).max(40), other: z.string().min(1).max(40) });

const common = {
  id: z.string().min(1).max(80),
  /** The manager's name for it; shown only where the display rules allow its words (words.ts). */
  title: z.string().min(1).max(120),
  status: z.enum(['active', 'paused', 'ended']),
  eligibility: dealEligibilitySchema.default({}),
  schedule: dealScheduleSchema.default({}),
  limits: dealLimitsSchema.default({}),
  stacking: dealStackingSchema,
  /** How nudges name the items ("eighth" / "eighths"). Absent: "item" / "items". */
  noun: nounSchema.optional(),
};

export const setDiscountDealSchema = z.strictObject({
  ...common,
  kind: z.literal('set_discount'),
  set: productSetSchema,
  reward: itemRewardSchema,
});

export const buyGetDealSchema = z
  .strictObject({
    ...common,
    kind: z.literal('buy_get'),
    buy: z.strictObject({ set: productSetSchema, qty: count('buy.qty', 1, 50) }),
    get: z.strictObject({
      set: productSetSchema,
      qty: count('get.qty', 1, 50),
      reward: z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('percent'), percent }),
        z.strictObject({ type: z.literal('price'), cents: positiveCents('price') }),
      ]),
    }),
    /** Each reward item costs no more than every item bought with it ("of equal or lesser value"). Default true. */
    rewardNoPricierThanBuy: z.boolean().default(true),
  });

export const mixMatchDealSchema = z.strictObject({
  ...common,
  kind: z.literal('mix_match'),
  set: productSetSchema,
  qty: count('qty', 2, 50),
  priceCents: positiveCents('priceCents'),
}).refine((d) => d.priceCents >= d.qty, { message: 'the group price must leave every item at least $0.01', path: ['priceCents'] });

export const bundleDealSchema = z
  .strictObject({
    ...common,
    kind: z.literal('bundle'),
    /** The bundle's name as the shopper sees it ("Night In"). */
    name: z.string().min(1).max(80),
    items: z.array(z.strictObject({ set: productSetSchema, qty: count('items.qty', 1, 20) })).min(2, 'a bundle has at least two parts').max(8),
    priceCents: positiveCents('priceCents'),
  })
  .refine((d) => d.priceCents >= d.items.reduce((s, i) => s + i.qty, 0), { message: 'the bundle price must leave every item at least $0.01', path: ['priceCents'] });

/** Measures a weight threshold may count (per unit as the cart gives them; limits/ buckets' units). */
export const DEAL_MEASURES = ['flower_g', 'concentrate_g', 'thc_mg', 'flower_equivalent_g'] as const;
export type DealMeasure = (typeof DEAL_MEASURES)[number];

export const thresholdConditionSchema = z.discriminatedUnion('type', [
  /** Items of `set` (default: all) add up to at least this, at their prices before deals. */
  z.strictObject({ type: z.literal('spend'), cents: positiveCents('spend'), set: productSetSchema.optional() }),
  z.strictObject({ type: z.literal('items'), count: count('items', 1, 1000), set: productSetSchema.optional() }),
  z.strictObject({
    type: z.literal('weight'),
    measure: z.enum(DEAL_MEASURES),
    amount: z.number().positive().max(100_000),
    set: productSetSchema.optional(),
  }),
]);
export type ThresholdCondition = z.infer<typeof thresholdConditionSchema>;

export const thresholdRewardSchema = z.discriminatedUnion('target', [
  /** Off the whole order, after item deals. */
  z.strictObject({
    target: z.literal('order'),
    reward: z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('percent'), percent }),
      z.strictObject({ type: z.literal('amount'), cents: positiveCents('amount') }),
    ]),
  }),
  /**
   * Off items of a set: percent / price each, or an amount off the set's items together; at most
   * `maxItems` items (an "item at a price": price with maxItems 1).
   */
  z.strictObject({
    target: z.literal('set'),
    set: productSetSchema,
    reward: z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('percent'), percent }),
      z.strictObject({ type: z.literal('price'), cents: positiveCents('price') }),
      z.strictObject({ type: z.literal('amount'), cents: positiveCents('amount') }),
    ]),
    maxItems: count('maxItems', 1, 1000).optional(),
  }),
]);

export const thresholdDealSchema = z.strictObject({
  ...common,
  kind: z.literal('threshold'),
  condition: thresholdConditionSchema,
  reward: thresholdRewardSchema,
});

export const dealSchema = z.union([setDiscountDealSchema, buyGetDealSchema, mixMatchDealSchema, bundleDealSchema, thresholdDealSchema]);

export type SetDiscountDeal = z.infer<typeof setDiscountDealSchema>;
export type BuyGetDeal = z.infer<typeof buyGetDealSchema>;
export type MixMatchDeal = z.infer<typeof mixMatchDealSchema>;
export type BundleDeal = z.infer<typeof bundleDealSchema>;
export type ThresholdDeal = z.infer<typeof thresholdDealSchema>;
export type Deal = z.infer<typeof dealSchema>;
export type DealInput = z.input<typeof dealSchema>;
export type DealKind = Deal['kind'];

/** Parse a record (throws a ZodError with the field paths on bad input). */
export function parseDeal(input: unknown): Deal {
  return dealSchema.parse(input);
}

/* ------------------------------------------------------------------ cart and context */

/** What the engine needs to know about a product (the server and the offline catalogue both have it). */
export interface DealProductFacts {
  sku: string;
  /** Leaf categories the product is in (descendants are resolved with `categoryParents`). */
  categoryIds: readonly number[];
  brandId: number | null;
  kind: DealProductKind | null;
  strainType: string | null;
  size: number | null;
  tags: readonly string[];
  /** The item's cost in cents when the menu gives one (the optional cost floor). */
  costCents?: number | null;
  /** What one unit counts in each measure (weight thresholds). */
  measures?: Partial<Record<DealMeasure, number>>;
}

export interface DealCartLine {
  /** Stable id of the line (the cart item id): results are keyed by it. */
  id: string;
  product: DealProductFacts;
  /** Price of one unit before deals, in cents. */
  unitPriceCents: number;
  /** Whole units (a weighed product's units are its packages). */
  qty: number;
}

export interface DealCustomerFacts {
  licence: 'medical' | 'recreational';
  groupId?: number | null;
  /** Orders the customer placed before this one (null: unknown, e.g. a guest: first-order deals do not apply). */
  previousOrders?: number | null;
  /** Account creation, ISO instant. */
  createdAt?: string | null;
  /** YYYY-MM-DD or MM-DD. */
  birthday?: string | null;
}

export interface DealUsage {
  /** Orders of this customer that redeemed the deal within its perCustomer window (the server counts). */
  customerRedemptions?: number;
  /** Orders that redeemed the deal in all (the budget). */
  totalRedemptions?: number;
}

export interface DealContext {
  now: Date;
  /** IANA zone of the store. */
  timeZone: string;
  customer: DealCustomerFacts;
  usage?: Readonly<Record<string, DealUsage>>;
  /** A coupon is on the order: deals that do not combine with coupons stand aside. */
  couponApplied?: boolean;
  /** Points are redeemed on the order: deals that do not combine with points stand aside. */
  pointsRedeemed?: boolean;
  /** child category id → parent id (root's parent null), for "a category and its descendants". */
  categoryParents?: Readonly<Record<number, number | null>>;
}

/** The store's floor setting: no unit below minUnitCents (default 1, $0.01); optionally not below its cost. */
export interface DealFloor {
  minUnitCents?: number;
  useCost?: boolean;
}
