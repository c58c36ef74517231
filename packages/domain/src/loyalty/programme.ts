/**
 * A store's loyalty programme as data (issue 30 "Loyalty"): the store setting `loyalty`.
 *
 *  - `earnRate`: points per whole dollar paid (1 point is worth 1 cent when redeemed, as before).
 *  - `multipliers`: "2× Tuesdays" (weekdays, in the store's zone, of the moment the order was
 *    placed), "3× on house brand" (a product set, the deals' product-set matching: ../deals/match.ts).
 *    A rule with both applies only to those products on those days. Multipliers do NOT stack: a line
 *    gets the largest multiplier among the rules that apply to it (1 when none does).
 *  - `signupBonus`: points credited once when the customer's loyalty account opens.
 *  - `tiers`: by spend (completed orders, pre-tax after discounts) in the last `tierWindowDays`; each
 *    tier has its own earn rate, which replaces `earnRate`. Below the lowest tier the customer is a
 *    "Member" at `earnRate`.
 *  - `expiry`: points expire `days` after the last completed purchase (0: never); a reminder goes
 *    `reminderDays` before.
 *  - `eligibility`: who may earn: `all`, or `medical` (orders under a medical licence only).
 *  - `preset`: the state rule the values started from, with its sources (New York: only medical
 *    customers earn; Dutchie sets a 0× multiplier for recreational customers "as required in New
 *    York" — shared/research/market-and-regulation.md [D10]).
 * Rounding (written down once): a line's points are floor(paid cents × rate × multiplier / 100),
 * never below 0; an order's points are the sum of its lines' (./earn.ts).
 */
import { z } from 'zod';
import { productSetSchema, type ProductSet } from '../deals/model.ts';

export const LOYALTY_WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type LoyaltyWeekday = (typeof LOYALTY_WEEKDAYS)[number];
export const LOYALTY_WEEKDAY_NAMES: Readonly<Record<LoyaltyWeekday, string>> = {
  sun: 'Sunday',
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
};

export const LOYALTY_PRESETS = ['NY', 'default', 'custom'] as const;
export type LoyaltyPreset = (typeof LOYALTY_PRESETS)[number];
export const LOYALTY_ELIGIBILITY = ['all', 'medical'] as const;
export type LoyaltyEligibility = (typeof LOYALTY_ELIGIBILITY)[number];

export const LOYALTY_LIMITS = {
  maxEarnRate: 100,
  maxMultiplier: 10,
  maxBonus: 100_000,
  maxTiers: 10,
  maxMultipliers: 20,
  maxWindowDays: 730,
  maxExpiryDays: 3650,
  maxSpendCents: 100_000_000,
} as const;

/** A rate with at most two decimals (1, 1.5, 0.25). */
function rate(what: string, max: number) {
  return z
    .number({ message: `${what} must be a number.` })
    .min(0, `${what} cannot be negative.`)
    .max(max, `${what} is at most ${max}.`)
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, `${what} has at most two decimals.`);
}
function whole(what: string, min: number, max: number) {
  return z
    .number({ message: `${what} must be a whole number.` })
    .int(`${what} must be a whole number.`)
    .min(min, `${what} is at least ${min}.`)
    .max(max, `${what} is at most ${max}.`);
}

export const loyaltyMultiplierSchema = z.strictObject({
  /** Shown to staff and in the shopper's history: "2× Tuesdays". */
  label: z.string().trim().min(1, 'A multiplier needs a name.').max(60, 'A multiplier name is at most 60 characters.'),
  multiplier: rate('A multiplier', LOYALTY_LIMITS.maxMultiplier),
  /** Days of the week (store zone); absent or empty: every day. */
  weekdays: z.array(z.enum(LOYALTY_WEEKDAYS, { message: `a weekday is one of: ${LOYALTY_WEEKDAYS.join(', ')}.` })).optional(),
  /** Products (the deals' product sets); absent: every product. */
  products: productSetSchema.optional(),
});
export type LoyaltyMultiplier = z.infer<typeof loyaltyMultiplierSchema>;

export const loyaltyTierSchema = z.strictObject({
  name: z.string().trim().min(1, 'A tier needs a name.').max(40, 'A tier name is at most 40 characters.'),
  /** Spend in the window from which the tier applies, in cents. */
  minSpendCents: whole('A tier’s spend', 1, LOYALTY_LIMITS.maxSpendCents),
  earnRate: rate('A tier’s earn rate', LOYALTY_LIMITS.maxEarnRate),
});
export type LoyaltyTier = z.infer<typeof loyaltyTierSchema>;

export const loyaltyProgrammeSchema = z
  .strictObject({
    enabled: z.boolean(),
    preset: z.enum(LOYALTY_PRESETS, { message: `preset must be one of: ${LOYALTY_PRESETS.join(', ')}.` }),
    eligibility: z.enum(LOYALTY_ELIGIBILITY, { message: 'Who earns is “all” or “medical”.' }),
    earnRate: rate('The earn rate', LOYALTY_LIMITS.maxEarnRate),
    signupBonus: whole('The sign-up bonus', 0, LOYALTY_LIMITS.maxBonus),
    multipliers: z.array(loyaltyMultiplierSchema).max(LOYALTY_LIMITS.maxMultipliers, `At most ${LOYALTY_LIMITS.maxMultipliers} multipliers.`),
    tiers: z.array(loyaltyTierSchema).max(LOYALTY_LIMITS.maxTiers, `At most ${LOYALTY_LIMITS.maxTiers} tiers.`),
    tierWindowDays: whole('The tier window', 1, LOYALTY_LIMITS.maxWindowDays),
    expiry: z.strictObject({
      /** Days without a completed purchase after which the balance expires; 0: never. */
      days: whole('The expiry', 0, LOYALTY_LIMITS.maxExpiryDays),
      /** Days before the expiry the reminder goes; 0: no reminder. */
      reminderDays: whole('The reminder', 0, LOYALTY_LIMITS.maxExpiryDays),
    }),
  })
  .superRefine((p, ctx) => {
    const spends = p.tiers.map((t) => t.minSpendCents);
    if (new Set(spends).size !== spends.length) ctx.addIssue({ code: 'custom', path: ['tiers'], message: 'Two tiers start at the same spend.' });
    const names = p.tiers.map((t) => t.name.toLowerCase());
    if (new Set(names).size !== names.length) ctx.addIssue({ code: 'custom', path: ['tiers'], message: 'Two tiers have the same name.' });
    if (p.expiry.days > 0 && p.expiry.reminderDays >= p.expiry.days)
      ctx.addIssue({ code: 'custom', path: ['expiry', 'reminderDays'], message: 'The reminder must come before the expiry (fewer days than it).' });
    if (p.expiry.days === 0 && p.expiry.reminderDays > 0)
      ctx.addIssue({ code: 'custom', path: ['expiry', 'reminderDays'], message: 'Points that never expire need no reminder.' });
    if (p.preset === 'NY' && p.eligibility !== 'medical')
      ctx.addIssue({ code: 'custom', path: ['eligibility'], message: 'The New York preset lets only medical customers earn; choose “custom” to change it.' });
  });
export type LoyaltyProgramme = z.infer<typeof loyaltyProgrammeSchema>;

export interface LoyaltyPresetInfo {
  title: string;
  eligibility: LoyaltyEligibility;
  sources: string[];
}

export const LOYALTY_PRESET_INFO: Readonly<Record<LoyaltyPreset, LoyaltyPresetInfo>> = {
  NY: {
    title: 'New York: only medical customers earn points',
    eligibility: 'medical',
    sources: ['Dutchie loyalty multipliers: a 0× multiplier for recreational customers “as required in New York” (support.dutchie.com/hc/en-us/articles/40646855702291)'],
  },
  default: { title: 'No state rule known: every customer earns', eligibility: 'all', sources: [] },
  custom: { title: 'The store’s own rule', eligibility: 'all', sources: [] },
};

/** The preset of a store's state (its address's region code). */
export function loyaltyPresetFor(regionCode: string | null | undefined): LoyaltyPreset {
  return (regionCode ?? '').toUpperCase() === 'NY' ? 'NY' : 'default';
}

/**
 * The programme a store starts with: today's flat rule (1 point per dollar, no bonus, no tiers,
 * no expiry), with the state preset's eligibility.
 */
export function loyaltyOfPreset(preset: LoyaltyPreset): LoyaltyProgramme {
  return {
    enabled: true,
    preset,
    eligibility: LOYALTY_PRESET_INFO[preset].eligibility,
    earnRate: 1,
    signupBonus: 0,
    multipliers: [],
    tiers: [],
    tierWindowDays: 365,
    expiry: { days: 0, reminderDays: 0 },
  };
}

export type { ProductSet };
