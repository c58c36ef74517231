/**
 * The fast engine gives exactly the answer of the engine before the speed work (issue 28 "Speed"):
 * the index of sets by product facts, the prepared deal list (reused across carts, its memo of
 * products), the cut heuristic orders and the allocation-free search must not change a cent, a
 * reason, a nudge or a line. The oracle is the earlier engine kept verbatim in
 * test-support/deals/reference-engine.ts. Random carts of demo products (repeated skus at other
 * prices, costs, empty lines) and random deal lists of every kind, field and gate, in random
 * contexts; plain lists, prepared lists, and one prepared list across many carts.
 *
 * Everything but `exact` must be equal. `exact` is each engine's own claim that it searched every
 * component it realised, and which stand-alone deals an engine realises depends on its bounds: the
 * fast engine bounds a group by min(Σ (price − price/N), Σ room) where the earlier engine used Σ room
 * alone, so each sometimes skips a deal the other tries (and gives up on, when the space is over
 * `exactLimit`). Such a deal cannot beat the answer, which is why the answers are equal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO_DEALS } from './demo-deals.ts';
import { evaluateDeals } from './engine.ts';
import { dealSchema, DEAL_PRODUCT_KINDS, type Deal, type DealCartLine, type DealContext, type DealFloor, type DealInput, type ProductSet } from './model.ts';
import { prepareDeals } from './prepare.ts';
import { BRAND, CAT, DEMO_CATEGORY_PARENTS, DEMO_DEAL_PRODUCTS } from '../../test-support/deals/demo-products.fixture.ts';
import { referenceEvaluateDeals } from '../../test-support/deals/reference-engine.ts';
import { syntheticCart, syntheticDeals, syntheticStore } from '../../test-support/deals/synthetic.ts';

const SKUS = DEMO_DEAL_PRODUCTS.map((p) => p.sku);
const CATS = [...Object.values(CAT), 2, 99];
const BRANDS = [...Object.values(BRAND), 999];

const some = <T>(arb: fc.Arbitrary<T>, max = 3) => fc.option(fc.array(arb, { minLength: 0, maxLength: max }), { nil: undefined, freq: 2 });
const criteria = {
  categories: some(fc.constantFrom(...CATS)),
  brands: some(fc.constantFrom(...BRANDS)),
  kinds: some(fc.constantFrom(...DEAL_PRODUCT_KINDS)),
  strainTypes: some(fc.constantFrom('Indica', 'sativa', 'HYBRID', 'CBD', 'Ruderalis')),
  sizes: some(fc.constantFrom(91, 92, 93, 95)),
  tags: some(fc.constantFrom('sleep', 'Happy', 'daytime', 'multipack', 'none')),
};
const productSet: fc.Arbitrary<ProductSet> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.record({ skus: fc.array(fc.constantFrom(...SKUS), { minLength: 1, maxLength: 4 }) }) },
  {
    weight: 5,
    arbitrary: fc.record(
      { ...criteria, skus: some(fc.constantFrom(...SKUS), 2), exclude: fc.option(fc.record({ ...criteria, skus: some(fc.constantFrom(...SKUS), 2) }, { requiredKeys: [] }), { nil: undefined }) },
      { requiredKeys: [] },
    ),
  },
);
/** A condition's set may be absent (every product). */
const maybeSet = fc.option(productSet, { nil: undefined, freq: 6 });

const itemReward = fc.oneof(
  fc.record({ type: fc.constant('percent' as const), percent: fc.constantFrom(10, 15, 33.33, 50, 100) }),
  fc.record({ type: fc.constant('amount' as const), cents: fc.integer({ min: 1, max: 3000 }) }),
  fc.record({ type: fc.constant('price' as const), cents: fc.constantFrom(1, 100, 1500, 3000) }),
);
const stacking = fc.record({ deals: fc.boolean(), coupons: fc.boolean(), points: fc.boolean() });
const limits = fc.oneof(
  fc.constant({}),
  fc.record({ perOrder: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ perCustomer: fc.record({ max: fc.integer({ min: 1, max: 2 }), window: fc.constant({ type: 'day' as const }) }), budget: fc.integer({ min: 1, max: 5 }) }),
);
const schedule = fc.oneof(
  { weight: 4, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.record({ days: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ hours: fc.constantFrom({ from: '10:00', to: '14:00' }, { from: '22:00', to: '02:00' }, { from: '16:00', to: '18:00' }) }) },
  { weight: 1, arbitrary: fc.record({ startsAt: fc.constantFrom('2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z'), endsAt: fc.constantFrom('2026-06-18T00:00:00Z', '2026-12-31T00:00:00Z') }) },
);
const eligibility = fc.oneof(
  { weight: 4, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.record({ licence: fc.constantFrom('medical' as const, 'recreational' as const) }) },
  { weight: 1, arbitrary: fc.record({ customerGroups: fc.constant([1]), firstOrder: fc.boolean() }) },
);
const status = fc.constantFrom('active', 'active', 'active', 'active', 'paused', 'ended');
const common = { stacking, limits, schedule, eligibility, status };

const anyDeal = (id: string): fc.Arbitrary<Deal> =>
  fc
    .oneof(
      fc.record({ kind: fc.constant('set_discount' as const), set: productSet, reward: itemReward, ...common }),
      fc.record({
        kind: fc.constant('buy_get' as const),
        buy: fc.record({ set: productSet, qty: fc.integer({ min: 1, max: 2 }) }),
        get: fc.record({ set: productSet, qty: fc.integer({ min: 1, max: 2 }), reward: fc.oneof(fc.record({ type: fc.constant('percent' as const), percent: fc.constantFrom(50, 100) }), fc.record({ type: fc.constant('price' as const), cents: fc.constantFrom(1, 500) })) }),
        rewardNoPricierThanBuy: fc.boolean(),
        ...common,
      }),
      fc.record({ kind: fc.constant('mix_match' as const), set: productSet, qty: fc.integer({ min: 2, max: 4 }), priceCents: fc.integer({ min: 4, max: 12000 }), ...common }),
      fc.record({
        kind: fc.constant('bundle' as const),
        name: fc.constant('B'),
        items: fc.array(fc.record({ set: productSet, qty: fc.integer({ min: 1, max: 2 }) }), { minLength: 2, maxLength: 3 }),
        priceCents: fc.integer({ min: 6, max: 9000 }),
        ...common,
      }),
      fc.record({
        kind: fc.constant('threshold' as const),
        condition: fc.oneof(
          fc.record({ type: fc.constant('spend' as const), cents: fc.integer({ min: 1000, max: 15000 }), set: maybeSet }),
          fc.record({ type: fc.constant('items' as const), count: fc.integer({ min: 1, max: 6 }), set: maybeSet }),
          fc.record({ type: fc.constant('weight' as const), measure: fc.constantFrom('flower_g' as const, 'flower_equivalent_g' as const), amount: fc.constantFrom(3.5, 7, 28) }),
        ),
        reward: fc.oneof(
          fc.record({ target: fc.constant('set' as const), set: productSet, reward: fc.oneof(itemReward, fc.record({ type: fc.constant('amount' as const), cents: fc.integer({ min: 1, max: 3000 }) })), maxItems: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }) }),
          fc.record({ target: fc.constant('order' as const), reward: fc.oneof(fc.record({ type: fc.constant('percent' as const), percent: fc.constantFrom(5, 10, 100) }), fc.record({ type: fc.constant('amount' as const), cents: fc.integer({ min: 1, max: 20000 }) })) }),
        ),
        ...common,
      }),
    )
    .map((d) => dealSchema.parse(JSON.parse(JSON.stringify({ ...d, id, title: id })) as DealInput));

/** The answer without the engine's claim of exhaustiveness (see the header). */
const answer = ({ exact: _exact, ...rest }: ReturnType<typeof evaluateDeals>) => rest;

const dealList = (max: number) => fc.integer({ min: 0, max }).chain((k) => fc.tuple(...Array.from({ length: k }, (_, i) => anyDeal(`d${String(i).padStart(2, '0')}`))));

/** Up to 20 lines of demo products; the same sku may come back at another price; some lines are empty. */
const cartArb = (maxLines: number) =>
  fc.array(fc.record({ product: fc.constantFrom(...DEMO_DEAL_PRODUCTS), qty: fc.integer({ min: 0, max: 3 }), price: fc.option(fc.integer({ min: 0, max: 30000 }), { nil: undefined, freq: 5 }), cost: fc.option(fc.integer({ min: 0, max: 4000 }), { nil: undefined }) }), { minLength: 0, maxLength: maxLines }).map((ls) =>
    ls.map((l, i): DealCartLine => ({ id: `l${String(i).padStart(2, '0')}`, product: { ...l.product, costCents: l.cost ?? null }, unitPriceCents: l.price ?? l.product.priceCents, qty: l.qty })),
  );

const ctxArb: fc.Arbitrary<DealContext> = fc.record({
  now: fc.constantFrom(new Date('2026-06-17T19:00:00Z'), new Date('2026-06-18T06:30:00Z'), new Date('2026-06-20T23:30:00Z')),
  timeZone: fc.constant('America/Los_Angeles'),
  customer: fc.record({ licence: fc.constantFrom('medical' as const, 'recreational' as const), groupId: fc.constantFrom(1, 2, null), previousOrders: fc.constantFrom(0, 3, null) }),
  usage: fc.constantFrom(undefined, { d00: { customerRedemptions: 2, totalRedemptions: 5 }, d01: { totalRedemptions: 1 } }),
  couponApplied: fc.boolean(),
  pointsRedeemed: fc.boolean(),
  categoryParents: fc.constantFrom(DEMO_CATEGORY_PARENTS, undefined),
});
const floorArb: fc.Arbitrary<DealFloor> = fc.record({ minUnitCents: fc.constantFrom(1, 1, 50), useCost: fc.boolean() });

describe('the fast deals engine gives the same answer as the engine before the speed work', () => {
  it('random carts, random deal lists of every kind, random contexts: plain list and prepared list', () => {
    fc.assert(
      fc.property(cartArb(12), dealList(10), ctxArb, floorArb, fc.constantFrom(undefined, 0, 200, 20_000), (lines, deals, ctx, floor, exactLimit) => {
        const options = exactLimit === undefined ? {} : { exactLimit };
        const expected = answer(referenceEvaluateDeals(lines, deals, ctx, floor, options));
        expect(answer(evaluateDeals(lines, deals, ctx, floor, options))).toEqual(expected);
        expect(answer(evaluateDeals(lines, prepareDeals(deals), ctx, floor, options))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('one prepared list of random deals across many random carts (its memory of products is sound)', () => {
    fc.assert(
      fc.property(dealList(16), fc.array(fc.tuple(cartArb(20), ctxArb, floorArb), { minLength: 2, maxLength: 6 }), (deals, runs) => {
        const prepared = prepareDeals(deals);
        for (const [lines, ctx, floor] of runs) expect(answer(evaluateDeals(lines, prepared, ctx, floor))).toEqual(answer(referenceEvaluateDeals(lines, deals, ctx, floor)));
      }),
      { numRuns: 80 },
    );
  }, 120_000);

  it('200 synthetic deals and the demo deals on 20-line carts (the bench, both stores), prepared once, plain list reused', () => {
    const many = syntheticDeals(200, 7);
    const prepared = prepareDeals(many);
    const ctx: DealContext = { now: new Date('2026-06-17T19:00:00Z'), timeZone: 'America/Los_Angeles', customer: { licence: 'recreational', previousOrders: 3, groupId: 1 }, categoryParents: DEMO_CATEGORY_PARENTS };
    const medical: DealContext = { ...ctx, now: new Date('2026-06-20T00:30:00Z'), customer: { licence: 'medical', previousOrders: 0 } };
    for (let seed = 1; seed <= 16; seed++) {
      const lines = syntheticCart(20, seed);
      const c = seed % 2 ? ctx : medical;
      const expected = referenceEvaluateDeals(lines, many, c);
      expect(evaluateDeals(lines, prepared, c)).toEqual(expected);
      expect(evaluateDeals(lines, many, c)).toEqual(expected);
      expect(evaluateDeals(lines, DEMO_DEALS, c, { useCost: true })).toEqual(referenceEvaluateDeals(lines, DEMO_DEALS, c, { useCost: true }));
    }
    // The 2,000-product store of the bench: sku deals over the whole menu, carts that meet fewer deals.
    const store = syntheticStore(2000);
    const storeDeals = prepareDeals(syntheticDeals(200, 28, store));
    for (let seed = 1; seed <= 8; seed++) {
      const lines = syntheticCart(20, seed, store);
      expect(evaluateDeals(lines, storeDeals, ctx)).toEqual(referenceEvaluateDeals(lines, storeDeals.deals, ctx));
    }
  }, 120_000);

  it('a plain list changed in place is prepared again (the cache checks the deals it holds)', () => {
    const deals: Deal[] = [...DEMO_DEALS];
    const ctx: DealContext = { now: new Date('2026-06-17T19:00:00Z'), timeZone: 'America/Los_Angeles', customer: { licence: 'recreational', previousOrders: 3 }, categoryParents: DEMO_CATEGORY_PARENTS };
    const lines = syntheticCart(12, 3);
    expect(evaluateDeals(lines, deals, ctx)).toEqual(referenceEvaluateDeals(lines, deals, ctx));
    deals.splice(0, deals.length, ...syntheticDeals(40, 9));
    const after = evaluateDeals(lines, deals, ctx);
    expect(after).toEqual(referenceEvaluateDeals(lines, deals, ctx));
    expect(after.applied.length + after.notApplied.length).toBe(40);
  });
});
