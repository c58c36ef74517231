/**
 * The exact search's bound (README "The search and its bounds") must never prune the best answer.
 * The case the brute-force property found: any 2 for $0.03, a Wedding Cake eighth (5800, cost 2), a
 * Cherry Pie eighth (2900, cost 1702) and a Purple Punch pre-roll (1200, no cost), cost floor on.
 * The two dearest give min(8700 − 3, 5798 + 1198) = 6996; Wedding Cake with the pre-roll gives
 * min(7000 − 3, 5798 + 1199) = 6997. Capping each unit at min(room, price − 3/2) bounded that pair
 * by 5798 + 1198.5 and pruned it.
 */
import { describe, expect, it } from 'vitest';
import { demoProduct, DEMO_CATEGORY_PARENTS } from '../../test-support/deals/demo-products.fixture.ts';
import { bruteForceItemDiscount, evaluateDeals } from './engine.ts';
import { dealSchema, type DealCartLine, type DealContext } from './model.ts';

const ctx: DealContext = { now: new Date('2026-06-17T19:00:00Z'), timeZone: 'America/Los_Angeles', customer: { licence: 'recreational', previousOrders: 1 }, categoryParents: DEMO_CATEGORY_PARENTS };
const line = (id: string, sku: string, cost: number | null): DealCartLine => {
  const product = demoProduct(sku);
  return { id, product: { ...product, costCents: cost }, unitPriceCents: product.priceCents, qty: 1 };
};

describe('the exact search keeps the best mix-and-match group when cost floors differ', () => {
  it('any 2 for $0.03 picks Wedding Cake with the pre-roll (6997), not the two dearest (6996)', () => {
    const lines = [line('l0', 'FL-CHERRY-PIE-8TH', 1702), line('l1', 'PR-PURPLE-PUNCH-PRE-ROLL-1-G', null), line('l2', 'FL-WEDDING-CAKE-8TH', 2)];
    const deal = dealSchema.parse({ id: 'd0', title: 'd0', status: 'active', kind: 'mix_match', set: {}, qty: 2, priceCents: 3, limits: { perOrder: 1 }, stacking: { deals: false, coupons: true, points: true } });
    const floor = { minUnitCents: 1, useCost: true };
    const r = evaluateDeals(lines, [deal], ctx, floor);
    expect(r.exact).toBe(true);
    expect(r.discountCents).toBe(6997);
    expect(bruteForceItemDiscount(lines, [deal], ctx, floor)).toBe(6997);
    expect(r.applied).toEqual([{ dealId: 'd0', kind: 'mix_match', discountCents: 6997, applications: 1, lineIds: ['l1', 'l2'] }]);
    // Each unit keeps its floor: the pre-roll at $0.01, Wedding Cake at its $0.02 cost.
    expect(Object.fromEntries(r.lines.map((l) => [l.lineId, l.totalCents]))).toEqual({ l0: 2900, l1: 1, l2: 2 });
  });
});

describe('a deal that stands alone is realised only when its bound can beat the answer so far', () => {
  it('a bundle bounded by its units’ room cannot beat $51.50 off the order on one $52 eighth: not searched, the answer is exact even with no search allowed', () => {
    // One Blue Dream eighth (5200, floor 50: room 5150). $51.50 off the order takes all the room; a
    // "any 2 for $0.06" bundle could save at most min(Σ (price − 6/2), Σ room) = 5150, so it is never
    // tried. Its price − price/N bound alone (5197) would try it and, with exactLimit 0, give up.
    const lines = [{ ...line('l0', 'FL-BLUE-DREAM-8TH', 0) }];
    const common = { status: 'active', limits: { perOrder: 1 }, stacking: { deals: false, coupons: false, points: false } };
    const order = dealSchema.parse({ ...common, id: 'd0', title: 'd0', kind: 'threshold', condition: { type: 'spend', cents: 1000 }, reward: { target: 'order', reward: { type: 'amount', cents: 5150 } } });
    const bundle = dealSchema.parse({ ...common, id: 'd1', title: 'd1', kind: 'bundle', name: 'B', items: [{ set: {}, qty: 1 }, { set: {}, qty: 1 }], priceCents: 6 });
    const r = evaluateDeals(lines, [order, bundle], ctx, { minUnitCents: 50, useCost: false }, { exactLimit: 0 });
    expect(r.discountCents).toBe(5150);
    expect(r.applied.map((a) => a.dealId)).toEqual(['d0']);
    expect(r.exact).toBe(true);
  });
});
