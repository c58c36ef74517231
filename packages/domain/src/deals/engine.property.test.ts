/**
 * Property tests of the deals engine (issue 28), on carts of real demo products:
 *  - on carts small enough to brute-force, the discount equals the best over every possible
 *    assignment of units to deals (bruteForceItemDiscount), stackable deals together and each
 *    deal that does not stack alone;
 *  - line discounts add up to the order's discount, each line's deals to its discount, the applied
 *    deals to the total; nothing negative; no unit below its floor ($0.01, or its cost);
 *  - evaluating twice, or with the lines shuffled, gives the same result;
 *  - a 20-line cart against 200 deals keeps the same rules (the heuristic path).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO_DEALS } from './demo-deals.ts';
import { demoProduct, DEMO_CATEGORY_PARENTS } from '../../test-support/deals/demo-products.fixture.ts';
import { bruteForceItemDiscount, evaluateDeals, type DealsResult } from './engine.ts';
import { dealSchema, type Deal, type DealCartLine, type DealContext, type DealFloor, type DealInput, type ProductSet } from './model.ts';
import { syntheticCart, syntheticDeals } from '../../test-support/deals/synthetic.ts';

const SKUS = [
  'FL-WEDDING-CAKE-8TH',
  'FL-BLUE-DREAM-8TH',
  'FL-CHERRY-PIE-8TH',
  'PR-GREEN-CRACK-PRE-ROLL-1-G',
  'PR-PURPLE-PUNCH-PRE-ROLL-1-G',
  'VP-BLUE-DREAM-DISPOSABLE-VAPE-0-3-G',
  'ED-STRAWBERRY-GUMMIES-100-MG',
  'AC-510-VAPE-BATTERY',
];
const SETS: ProductSet[] = [{}, { kinds: ['flower'] }, { sizes: [92] }, { categories: [4] }, { categories: [3, 4] }, { brands: [105] }, { skus: ['AC-510-VAPE-BATTERY', 'ED-STRAWBERRY-GUMMIES-100-MG'] }, { kinds: ['flower', 'preroll'], exclude: { strainTypes: ['Indica'] } }];

const ctx: DealContext = { now: new Date('2026-06-17T19:00:00Z'), timeZone: 'America/Los_Angeles', customer: { licence: 'recreational', previousOrders: 1 }, categoryParents: DEMO_CATEGORY_PARENTS };

const set = fc.constantFrom(...SETS);
const stacking = fc.record({ deals: fc.boolean(), coupons: fc.constant(true), points: fc.constant(true) });
const limits = fc.oneof(fc.constant({}), fc.record({ perOrder: fc.integer({ min: 1, max: 2 }) }));
const itemReward = fc.oneof(
  fc.record({ type: fc.constant('percent' as const), percent: fc.constantFrom(10, 15, 33.33, 50, 100) }),
  fc.record({ type: fc.constant('amount' as const), cents: fc.integer({ min: 1, max: 3000 }) }),
  fc.record({ type: fc.constant('price' as const), cents: fc.constantFrom(1, 100, 1500, 3000) }),
);

/** An item-level deal of any kind (order-level thresholds come in the invariants test). */
const itemDeal = (id: string): fc.Arbitrary<DealInput> =>
  fc.oneof(
    fc.record({ kind: fc.constant('set_discount' as const), set, reward: itemReward, stacking, limits }),
    fc.record({
      kind: fc.constant('buy_get' as const),
      buy: fc.record({ set, qty: fc.integer({ min: 1, max: 2 }) }),
      get: fc.record({ set, qty: fc.constant(1), reward: fc.oneof(fc.record({ type: fc.constant('percent' as const), percent: fc.constantFrom(50, 100) }), fc.record({ type: fc.constant('price' as const), cents: fc.constantFrom(1, 500) })) }),
      rewardNoPricierThanBuy: fc.boolean(),
      stacking,
      limits,
    }),
    fc.record({ kind: fc.constant('mix_match' as const), set, qty: fc.integer({ min: 2, max: 3 }), priceCents: fc.integer({ min: 3, max: 12000 }), stacking, limits }),
    fc.record({ kind: fc.constant('bundle' as const), name: fc.constant('B'), items: fc.tuple(fc.record({ set, qty: fc.constant(1) }), fc.record({ set, qty: fc.constant(1) })).map((x) => [...x]), priceCents: fc.integer({ min: 2, max: 9000 }), stacking, limits }),
    fc.record({
      kind: fc.constant('threshold' as const),
      condition: fc.oneof(fc.record({ type: fc.constant('spend' as const), cents: fc.integer({ min: 1000, max: 15000 }) }), fc.record({ type: fc.constant('items' as const), count: fc.integer({ min: 1, max: 4 }) })),
      reward: fc.record({ target: fc.constant('set' as const), set, reward: itemReward, maxItems: fc.integer({ min: 1, max: 2 }) }),
      stacking,
    }),
  ).map((d) => ({ ...d, id, title: id, status: 'active' }) as DealInput);

const orderDeal = (id: string): fc.Arbitrary<DealInput> =>
  fc
    .record({
      kind: fc.constant('threshold' as const),
      condition: fc.record({ type: fc.constant('spend' as const), cents: fc.integer({ min: 1000, max: 10000 }) }),
      reward: fc.record({ target: fc.constant('order' as const), reward: fc.oneof(fc.record({ type: fc.constant('percent' as const), percent: fc.constantFrom(5, 10, 100) }), fc.record({ type: fc.constant('amount' as const), cents: fc.integer({ min: 1, max: 20000 }) })) }),
      stacking,
    })
    .map((d) => ({ ...d, id, title: id, status: 'active' }) as DealInput);

const deals = (n: number, withOrder: boolean) =>
  fc.integer({ min: 1, max: n }).chain((k) => fc.tuple(...Array.from({ length: k }, (_, i) => (withOrder && i === k - 1 ? fc.oneof(itemDeal(`d${i}`), orderDeal(`d${i}`)) : itemDeal(`d${i}`))))).map((xs) => xs.map((x) => dealSchema.parse(x)));

/** 1–3 lines, at most `maxUnits` units, some with a cost. */
const cart = (maxUnits: number) =>
  fc
    .array(fc.record({ sku: fc.constantFrom(...SKUS), qty: fc.integer({ min: 1, max: 2 }), cost: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: undefined }) }), { minLength: 1, maxLength: 3 })
    .filter((ls) => ls.reduce((s, l) => s + l.qty, 0) <= maxUnits)
    .map((ls) =>
      ls.map((l, i): DealCartLine => {
        const product = demoProduct(l.sku);
        return { id: `l${i}`, product: { ...product, costCents: l.cost ?? null }, unitPriceCents: product.priceCents, qty: l.qty };
      }),
    );
const floor = fc.record({ minUnitCents: fc.constantFrom(1, 1, 50), useCost: fc.boolean() });

function unitFloor(line: DealCartLine, f: DealFloor): number {
  return Math.min(line.unitPriceCents, Math.max(f.minUnitCents ?? 1, f.useCost && line.product.costCents != null ? line.product.costCents : 0));
}

function checkInvariants(lines: readonly DealCartLine[], r: DealsResult, f: DealFloor) {
  expect(r.lines.reduce((s, l) => s + l.discountCents, 0)).toBe(r.discountCents);
  expect(r.applied.reduce((s, a) => s + a.discountCents, 0)).toBe(r.discountCents);
  expect(r.totalCents).toBe(r.subtotalCents - r.discountCents);
  for (const l of r.lines) {
    const line = lines.find((x) => x.id === l.lineId)!;
    expect(l.discountCents).toBeGreaterThanOrEqual(0);
    expect(l.deals.reduce((s, d) => s + d.discountCents, 0)).toBe(l.discountCents);
    for (const d of l.deals) expect(d.discountCents).toBeGreaterThanOrEqual(0);
    expect(l.totalCents).toBeGreaterThanOrEqual(unitFloor(line, f) * line.qty);
    expect(Number.isInteger(l.discountCents)).toBe(true);
  }
}

function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('deals engine properties', () => {
  it('on tiny carts the discount is the best over every possible combination (brute force)', () => {
    fc.assert(
      fc.property(cart(4), deals(4, false), floor, (lines, ds, f) => {
        const r = evaluateDeals(lines, ds, ctx, f);
        expect(r.exact).toBe(true);
        expect(r.discountCents).toBe(bruteForceItemDiscount(lines, ds, ctx, f));
      }),
      { numRuns: 400 },
    );
  });

  it('with order-level rewards too: sums, floors, no negatives; the same answer twice and with the lines shuffled', () => {
    fc.assert(
      fc.property(cart(6), deals(5, true), floor, fc.integer({ min: 1, max: 1e6 }), (lines, ds, f, seed) => {
        const r = evaluateDeals(lines, ds, ctx, f);
        checkInvariants(lines, r, f);
        expect(evaluateDeals(lines, ds, ctx, f)).toEqual(r);
        expect(evaluateDeals(shuffled(lines, seed), shuffled(ds, seed + 1), ctx, f)).toEqual(r);
        // Every deal is either applied or explained.
        expect(r.applied.length + r.notApplied.length).toBe(ds.length);
      }),
      { numRuns: 300 },
    );
  });

  it('the demo deals on carts of demo products keep the same rules', () => {
    fc.assert(
      fc.property(cart(6), floor, fc.integer({ min: 1, max: 1e6 }), (lines, f, seed) => {
        const r = evaluateDeals(lines, DEMO_DEALS, ctx, f);
        checkInvariants(lines, r, f);
        expect(evaluateDeals(shuffled(lines, seed), DEMO_DEALS, ctx, f)).toEqual(r);
      }),
      { numRuns: 150 },
    );
  });

  it('a 20-line cart against 200 deals (the heuristic path): the same rules, the same answer shuffled', () => {
    const many: Deal[] = syntheticDeals(200);
    for (let seed = 1; seed <= 15; seed++) {
      const lines = syntheticCart(20, seed);
      const r = evaluateDeals(lines, many, ctx);
      checkInvariants(lines, r, {});
      expect(evaluateDeals(shuffled(lines, seed), shuffled(many, seed), ctx)).toEqual(r);
    }
  });
});
