import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DealProductFacts } from '../deals/model.ts';
import {
  expiryOf,
  ledgerEntryLabel,
  loyaltyOfPreset,
  loyaltyPresetFor,
  loyaltyProgrammeSchema,
  nextTier,
  pointsForOrder,
  pointsLabel,
  spendInWindow,
  spreadCents,
  tierFor,
  type LoyaltyProgramme,
} from './index.ts';

const LA = 'America/Los_Angeles';
// 2026-11-24 is a Tuesday; 03:00 UTC on the 25th is still Tuesday evening in Los Angeles.
const TUESDAY_LA = new Date('2026-11-25T03:00:00Z');
const WEDNESDAY_LA = new Date('2026-11-25T18:00:00Z');

const product = (over: Partial<DealProductFacts> = {}): DealProductFacts => ({ sku: 'X', categoryIds: [], brandId: null, kind: 'flower', strainType: null, size: null, tags: [], ...over });

const programme = (over: Partial<LoyaltyProgramme> = {}): LoyaltyProgramme => ({ ...loyaltyOfPreset('default'), ...over });

describe('loyalty: points for an order', () => {
  const HOUSE = 7;
  const p = programme({
    multipliers: [
      { label: '2× Tuesdays', multiplier: 2, weekdays: ['tue'] },
      { label: '3× on house brand', multiplier: 3, products: { brands: [HOUSE] } },
    ],
  });
  const cases: { name: string; lines: { product: DealProductFacts | null; netCents: number }[]; at: Date; licence?: 'medical' | 'recreational'; prog?: LoyaltyProgramme; rate?: number; redeemed?: number; points: number; multipliers?: number[] }[] = [
    { name: '1 point per whole dollar, parts of a point dropped', lines: [{ product: product(), netCents: 4599 }], at: WEDNESDAY_LA, points: 45, multipliers: [1] },
    { name: '2× on Tuesday in the store zone (Wednesday in UTC)', lines: [{ product: product(), netCents: 4599 }], at: TUESDAY_LA, points: 91, multipliers: [2] },
    { name: 'house brand 3×, the largest multiplier wins (no stacking)', lines: [{ product: product({ brandId: HOUSE }), netCents: 1000 }], at: TUESDAY_LA, points: 30, multipliers: [3] },
    { name: 'per line: each line its own multiplier', lines: [{ product: product({ brandId: HOUSE }), netCents: 1000 }, { product: product(), netCents: 1050 }], at: WEDNESDAY_LA, points: 30 + 10, multipliers: [3, 1] },
    { name: 'a product rule needs the product', lines: [{ product: null, netCents: 1000 }], at: WEDNESDAY_LA, points: 10, multipliers: [1] },
    { name: 'the tier rate replaces the base rate', lines: [{ product: product(), netCents: 1000 }], at: WEDNESDAY_LA, rate: 1.5, points: 15 },
    { name: 'redeemed points are not earned on (each line floors: $7.50 → 7, twice)', lines: [{ product: product(), netCents: 1000 }, { product: product(), netCents: 1000 }], at: WEDNESDAY_LA, redeemed: 500, points: 14 },
    { name: 'negative amounts earn nothing', lines: [{ product: product(), netCents: -500 }], at: WEDNESDAY_LA, points: 0 },
    { name: 'New York preset: a recreational order earns nothing', lines: [{ product: product(), netCents: 10_000 }], at: TUESDAY_LA, prog: loyaltyOfPreset('NY'), licence: 'recreational', points: 0 },
    { name: 'New York preset: a medical order earns', lines: [{ product: product(), netCents: 10_000 }], at: WEDNESDAY_LA, prog: loyaltyOfPreset('NY'), licence: 'medical', points: 100 },
    { name: 'a programme switched off earns nothing', lines: [{ product: product(), netCents: 10_000 }], at: WEDNESDAY_LA, prog: programme({ enabled: false }), points: 0 },
    { name: 'fractional rates in integers: 0.35 × $3.00 = 1.05 → 1', lines: [{ product: product(), netCents: 300 }], at: WEDNESDAY_LA, rate: 0.35, points: 1 },
  ];
  it.each(cases)('$name', (c) => {
    const r = pointsForOrder(c.prog ?? p, { lines: c.lines, redeemedCents: c.redeemed ?? 0, placedAt: c.at, timeZone: LA, licence: c.licence ?? 'recreational', earnRate: c.rate });
    expect(r.points).toBe(c.points);
    if (c.multipliers) expect(r.lines.map((l) => l.multiplier)).toEqual(c.multipliers);
    expect(r.reason).toBe(c.prog?.enabled === false ? 'disabled' : c.points === 0 && c.prog?.eligibility === 'medical' ? 'not_eligible' : null);
  });

  it('property: never negative, never more than the best rate allows, the sum of its lines', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -10_000, max: 1_000_000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 0, max: 1000 }).map((n) => n / 100),
        fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
        (amounts, redeemed, rate, at) => {
          const r = pointsForOrder(p, { lines: amounts.map((n) => ({ product: product({ brandId: n % 2 ? HOUSE : null }), netCents: n })), redeemedCents: redeemed, placedAt: at, timeZone: LA, licence: 'recreational', earnRate: rate });
          expect(r.points).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(r.points)).toBe(true);
          expect(r.points).toBe(r.lines.reduce((s, l) => s + l.points, 0));
          const paid = Math.max(0, amounts.reduce((s, n) => s + Math.max(0, n), 0) - redeemed);
          expect(r.points).toBeLessThanOrEqual(Math.floor((paid * rate * 3) / 100) + 1);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('spreads redeemed cents in proportion, whole cents, never more than a line', () => {
    expect(spreadCents(500, [1000, 1000])).toEqual([250, 250]);
    expect(spreadCents(1, [1000, 1000])).toEqual([1, 0]);
    expect(spreadCents(5000, [100, 300])).toEqual([100, 300]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.array(fc.integer({ min: 0, max: 50_000 }), { maxLength: 5 }), (total, amounts) => {
        const shares = spreadCents(total, amounts);
        shares.forEach((s, i) => expect(s).toBeLessThanOrEqual(amounts[i]));
        expect(shares.reduce((a, b) => a + b, 0)).toBe(Math.min(total, amounts.reduce((a, b) => a + b, 0)));
      }),
      { numRuns: 60 },
    );
  });
});

describe('loyalty: tiers, expiry, settings', () => {
  const p = programme({ tiers: [{ name: 'Gold', minSpendCents: 75_000, earnRate: 1.5 }, { name: 'Silver', minSpendCents: 25_000, earnRate: 1.25 }] });
  it.each([
    { spend: 0, tier: 'Member', rate: 1, next: 'Silver', needed: 25_000 },
    { spend: 24_999, tier: 'Member', rate: 1, next: 'Silver', needed: 1 },
    { spend: 25_000, tier: 'Silver', rate: 1.25, next: 'Gold', needed: 50_000 },
    { spend: 80_000, tier: 'Gold', rate: 1.5, next: null, needed: null },
  ])('spend $spend → $tier, next $next', (c) => {
    const t = tierFor(p, c.spend);
    expect([t.name, t.earnRate]).toEqual([c.tier, c.rate]);
    const n = nextTier(p, c.spend);
    expect(n ? [n.tier.name, n.neededCents] : [null, null]).toEqual([c.next, c.needed]);
  });

  it('counts the spend of the rolling window only', () => {
    const now = new Date('2026-11-29T12:00:00Z');
    const history = [
      { at: '2026-11-28T12:00:00Z', cents: 10_000 },
      { at: '2025-11-30T12:00:00Z', cents: 5_000 },
      { at: '2025-11-29T12:00:00Z', cents: 99_999 }, // exactly 365 days: out
    ];
    expect(spendInWindow(history, now, 365)).toBe(15_000);
  });

  it('expiry: N days after the last purchase, the reminder N days before; never when 0', () => {
    const q = programme({ expiry: { days: 365, reminderDays: 30 } });
    const e = expiryOf(q, '2026-01-01T00:00:00.000Z')!;
    expect(e.expiresAt.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(e.remindAt!.toISOString()).toBe('2026-12-02T00:00:00.000Z');
    expect(expiryOf(programme(), '2026-01-01T00:00:00.000Z')).toBeNull();
    expect(expiryOf(q, null)).toBeNull();
  });

  it('presets: New York lets only medical customers earn, elsewhere everyone', () => {
    expect(loyaltyOfPreset(loyaltyPresetFor('ny')).eligibility).toBe('medical');
    expect(loyaltyOfPreset(loyaltyPresetFor('CA')).eligibility).toBe('all');
    expect(loyaltyProgrammeSchema.parse(loyaltyOfPreset('NY'))).toEqual(loyaltyOfPreset('NY'));
  });

  it.each([
    [{ multipliers: [{ label: '2× Tuesdays', multiplier: 2, weekdays: ['tues'] }] }, 'a weekday is one of'],
    [{ multipliers: [{ label: 'x', multiplier: 2.555 }] }, 'at most two decimals'],
    [{ multipliers: [{ label: 'x', multiplier: 11 }] }, 'at most 10'],
    [{ earnRate: -1 }, 'cannot be negative'],
    [{ tiers: [{ name: 'A', minSpendCents: 100, earnRate: 1 }, { name: 'B', minSpendCents: 100, earnRate: 2 }] }, 'same spend'],
    [{ expiry: { days: 30, reminderDays: 30 } }, 'before the expiry'],
    [{ preset: 'NY', eligibility: 'all' }, 'only medical customers'],
  ])('refuses %j clearly', (over, message) => {
    const r = loyaltyProgrammeSchema.safeParse({ ...loyaltyOfPreset('default'), ...over });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message).join(' ')).toContain(message);
  });
});

describe('loyalty: the words of the account', () => {
  it('names each entry and counts points', () => {
    expect(ledgerEntryLabel({ kind: 'earn', order_number: 'DO-000123' })).toBe('Earned on order DO-000123');
    expect(ledgerEntryLabel({ kind: 'reverse', order_number: 'DO-000123' })).toBe('Returned: cancelled order DO-000123');
    expect(ledgerEntryLabel({ kind: 'bonus', order_number: null })).toBe('Sign-up bonus');
    expect([pointsLabel(1), pointsLabel(-1250), pointsLabel(0)]).toEqual(['1 point', '1,250 points', '0 points']);
  });
});
