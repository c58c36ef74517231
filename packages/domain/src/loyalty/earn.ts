/**
 * The loyalty programme's pure rules (./programme.ts says what each setting means):
 *  - pointsForOrder: the points an order earns, per line;
 *  - tierFor / nextTier / spendInWindow: the customer's tier from their spend history;
 *  - expiryOf: when a balance expires and when the reminder goes.
 *
 * Rounding rule: rates and multipliers have at most two decimals, so they are taken as whole
 * hundredths and a line's points are computed in integers:
 *     floor(paidCents × rate×100 × multiplier×100 / 1 000 000)
 * i.e. floor(paid dollars × rate × multiplier): a part of a point is never given. A line's paid
 * amount is its price after discounts less its share of the points redeemed on the order (shares in
 * proportion to the lines' amounts, whole cents, the leftover cents to the first lines). Never
 * negative: a negative or non-finite amount counts as 0.
 */
import type { DealProductFacts } from '../deals/model.ts';
import { inProductSet, localClock } from '../deals/match.ts';
import { LOYALTY_WEEKDAYS, type LoyaltyMultiplier, type LoyaltyProgramme, type LoyaltyTier } from './programme.ts';

const DAY_MS = 86_400_000;

export interface LoyaltyOrderLine {
  /** The product's facts for product-set multipliers (null: only multipliers for every product apply). */
  product: DealProductFacts | null;
  /** Pre-tax amount of the line after every discount, in cents. */
  netCents: number;
}

export interface LoyaltyOrderInput {
  lines: readonly LoyaltyOrderLine[];
  /** Points (cents) redeemed on the order: not earned on. */
  redeemedCents: number;
  /** When the order was placed: weekday multipliers read its weekday in `timeZone`. */
  placedAt: Date;
  timeZone: string;
  licence: 'medical' | 'recreational';
  /** The earn rate of the customer's tier (tierFor(...).earnRate); absent: the programme's. */
  earnRate?: number;
  categoryParents?: Readonly<Record<number, number | null>>;
}

export interface LoyaltyLineEarning {
  paidCents: number;
  multiplier: number;
  /** The multiplier rule that applied (null: none). */
  label: string | null;
  points: number;
}

export type NoEarnReason = 'disabled' | 'not_eligible';

export interface LoyaltyEarning {
  points: number;
  lines: LoyaltyLineEarning[];
  /** Why nothing could be earned at all (null: the rules ran). */
  reason: NoEarnReason | null;
}

const cents = (n: number) => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);
const hundredths = (n: number) => (Number.isFinite(n) && n > 0 ? Math.round(n * 100) : 0);

/** Split `total` cents over `amounts` in proportion (floors, leftover cents to the first lines with room). */
export function spreadCents(total: number, amounts: readonly number[]): number[] {
  const sum = amounts.reduce((s, a) => s + a, 0);
  const t = Math.min(cents(total), sum);
  if (t === 0 || sum === 0) return amounts.map(() => 0);
  const shares = amounts.map((a) => Math.floor((t * a) / sum));
  let left = t - shares.reduce((s, a) => s + a, 0);
  for (let i = 0; left > 0 && i < shares.length; i++) {
    if (shares[i] < amounts[i]) {
      shares[i]++;
      left--;
    }
  }
  return shares;
}

/** Does a multiplier rule apply to a line on a weekday (0 = Sunday)? */
export function multiplierApplies(rule: LoyaltyMultiplier, product: DealProductFacts | null, weekday: number, parents?: LoyaltyOrderInput['categoryParents']): boolean {
  if (rule.weekdays?.length && !rule.weekdays.includes(LOYALTY_WEEKDAYS[weekday])) return false;
  if (rule.products && Object.keys(rule.products).length > 0) {
    if (!product) return false;
    if (!inProductSet(product, rule.products, parents)) return false;
  }
  return true;
}

/** The points an order earns under a programme. */
export function pointsForOrder(programme: LoyaltyProgramme, input: LoyaltyOrderInput): LoyaltyEarning {
  const net = input.lines.map((l) => cents(l.netCents));
  const empty = (reason: NoEarnReason): LoyaltyEarning => ({ points: 0, reason, lines: net.map((n) => ({ paidCents: n, multiplier: 0, label: null, points: 0 })) });
  if (!programme.enabled) return empty('disabled');
  if (programme.eligibility === 'medical' && input.licence !== 'medical') return empty('not_eligible');
  const redeemed = spreadCents(input.redeemedCents, net);
  const weekday = localClock(input.placedAt, input.timeZone).weekday;
  const rateH = hundredths(input.earnRate ?? programme.earnRate);
  const lines = input.lines.map((line, i): LoyaltyLineEarning => {
    const paidCents = net[i] - redeemed[i];
    let best: LoyaltyMultiplier | null = null;
    for (const rule of programme.multipliers) {
      if (!multiplierApplies(rule, line.product, weekday, input.categoryParents)) continue;
      if (!best || rule.multiplier > best.multiplier) best = rule;
    }
    const multiplier = best ? best.multiplier : 1;
    const points = Math.max(0, Math.floor((paidCents * rateH * hundredths(multiplier)) / 1_000_000));
    return { paidCents, multiplier, label: best?.label ?? null, points };
  });
  return { points: lines.reduce((s, l) => s + l.points, 0), lines, reason: null };
}

/* ------------------------------------------------------------------ tiers */

export interface SpendEntry {
  /** ISO instant of the completed order. */
  at: string;
  cents: number;
}

/** The spend of completed orders in the `days` before `now` (an order exactly `days` old no longer counts). */
export function spendInWindow(history: readonly SpendEntry[], now: Date, days: number): number {
  const from = now.getTime() - days * DAY_MS;
  let sum = 0;
  for (const h of history) {
    const t = Date.parse(h.at);
    if (t > from && t <= now.getTime()) sum += cents(h.cents);
  }
  return sum;
}

export interface TierStanding {
  /** The tier's name ("Member" below the lowest tier). */
  name: string;
  earnRate: number;
  minSpendCents: number;
  /** null: below every tier. */
  tier: LoyaltyTier | null;
}

export const BASE_TIER_NAME = 'Member';

function sortedTiers(programme: LoyaltyProgramme): LoyaltyTier[] {
  return [...programme.tiers].sort((a, b) => a.minSpendCents - b.minSpendCents);
}

/** The tier of a spend: the highest tier whose spend is reached. */
export function tierFor(programme: LoyaltyProgramme, spendCents: number): TierStanding {
  let standing: TierStanding = { name: BASE_TIER_NAME, earnRate: programme.earnRate, minSpendCents: 0, tier: null };
  for (const t of sortedTiers(programme)) if (cents(spendCents) >= t.minSpendCents) standing = { name: t.name, earnRate: t.earnRate, minSpendCents: t.minSpendCents, tier: t };
  return standing;
}

/** The next tier above a spend and the spend still needed for it (null: at the top, or no tiers). */
export function nextTier(programme: LoyaltyProgramme, spendCents: number): { tier: LoyaltyTier; neededCents: number } | null {
  const s = cents(spendCents);
  const t = sortedTiers(programme).find((x) => x.minSpendCents > s);
  return t ? { tier: t, neededCents: t.minSpendCents - s } : null;
}

/* ------------------------------------------------------------------ expiry */

export interface ExpiryDates {
  expiresAt: Date;
  /** When the reminder is due (null: no reminder). */
  remindAt: Date | null;
}

/** When a balance expires after the last purchase (null: points never expire). */
export function expiryOf(programme: LoyaltyProgramme, lastPurchaseAt: Date | string | null): ExpiryDates | null {
  if (programme.expiry.days <= 0 || lastPurchaseAt == null) return null;
  const last = typeof lastPurchaseAt === 'string' ? Date.parse(lastPurchaseAt) : lastPurchaseAt.getTime();
  if (!Number.isFinite(last)) return null;
  const expiresAt = new Date(last + programme.expiry.days * DAY_MS);
  const r = programme.expiry.reminderDays;
  return { expiresAt, remindAt: r > 0 && r < programme.expiry.days ? new Date(expiresAt.getTime() - r * DAY_MS) : null };
}
