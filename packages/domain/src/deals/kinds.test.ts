/**
 * Table tests: every deal kind of the demo deals (./demo-deals.ts) on real demo products
 * (packages/domain/test-support/deals/demo-products.fixture.ts), with the cents worked out by hand in each row's comment, and the
 * reasons and nudges the shopper sees when a deal does not apply.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_DEALS } from './demo-deals.ts';
import { demoLine, DEMO_CATEGORY_PARENTS } from '../../test-support/deals/demo-products.fixture.ts';
import { evaluateDeals, type DealsResult } from './engine.ts';
import { dealSchema, type Deal, type DealCartLine, type DealContext } from './model.ts';
import { DEAL_DISPLAY_PRESETS, nudgeText, reasonText } from './words.ts';

const WEDNESDAY_NOON = new Date('2026-06-17T19:00:00Z'); // 12:00 in Los Angeles
const ctx = (over: Partial<DealContext> = {}): DealContext => ({
  now: WEDNESDAY_NOON,
  timeZone: 'America/Los_Angeles',
  customer: { licence: 'recreational', previousOrders: 2 },
  categoryParents: DEMO_CATEGORY_PARENTS,
  ...over,
});
const deal = (id: string): Deal => {
  const d = DEMO_DEALS.find((x) => x.id === id);
  if (!d) throw new Error(`no demo deal ${id}`);
  return d;
};
const lineDiscounts = (r: DealsResult) => Object.fromEntries(r.lines.map((l) => [l.lineId, l.discountCents]));
const reasonOf = (r: DealsResult, id: string) => r.notApplied.find((n) => n.dealId === id);
const CA = DEAL_DISPLAY_PRESETS.CA.rules;

function run(lines: DealCartLine[], ids: string[], c: DealContext = ctx()) {
  return evaluateDeals(lines, ids.map(deal), c);
}

describe('percent, amount and price off a product set', () => {
  it('Wax Wednesday: 20% off every concentrate on a Wednesday (3000 → 600, 7500 → 1500)', () => {
    const r = run([demoLine('a', 'CN-SOUR-DIESEL-SHATTER-1-G', 1), demoLine('b', 'CN-JACK-HERER-LIVE-ROSIN-1-G', 1), demoLine('c', 'VP-MIMOSA-DISPOSABLE-VAPE-0-3-G', 1)], ['wax-wednesday']);
    expect(lineDiscounts(r)).toEqual({ a: 600, b: 1500, c: 0 });
    expect(r.discountCents).toBe(2100);
    expect(r.applied).toEqual([{ dealId: 'wax-wednesday', kind: 'set_discount', discountCents: 2100, applications: 2, lineIds: ['a', 'b'] }]);
  });

  it('Wax Wednesday on a Thursday: not today, and says which day it runs', () => {
    const r = run([demoLine('a', 'CN-SOUR-DIESEL-SHATTER-1-G', 1)], ['wax-wednesday'], ctx({ now: new Date('2026-06-18T19:00:00Z') }));
    expect(r.discountCents).toBe(0);
    expect(reasonOf(r, 'wax-wednesday')).toEqual({ dealId: 'wax-wednesday', reason: 'not_today' });
    expect(reasonText(deal('wax-wednesday'), 'not_today', undefined, CA)).toBe('Not today: this deal runs on Wednesdays.');
  });

  it('the store’s time zone decides the day: 01:00 UTC Thursday is still Wednesday evening in Los Angeles', () => {
    const r = run([demoLine('a', 'CN-SOUR-DIESEL-SHATTER-1-G', 1)], ['wax-wednesday'], ctx({ now: new Date('2026-06-18T01:00:00Z') }));
    expect(r.discountCents).toBe(600);
  });

  it('$5 off each Verdant Labs vape (2 × 500), not on another brand’s cart', () => {
    const r = run([demoLine('a', 'VP-HARLEQUIN-LIVE-RESIN-CART-1-G', 2), demoLine('b', 'VP-BLUEBERRY-DISTILLATE-CART-0-5-G', 1)], ['verdant-labs-5-off']);
    expect(lineDiscounts(r)).toEqual({ a: 1000, b: 0 });
  });

  it('Humboldt eighths at $35: 3900 → 3500 each; an eighth already at $29 saves nothing', () => {
    const r = run([demoLine('a', 'FL-CHEMDAWG-8TH', 2)], ['humboldt-eighths-35']);
    expect(lineDiscounts(r)).toEqual({ a: 800 });
    const cheaper = run([demoLine('z', 'FL-ZKITTLEZ-8TH', 1)], ['humboldt-eighths-35']);
    expect(cheaper.discountCents).toBe(0);
    expect(reasonOf(cheaper, 'humboldt-eighths-35')?.reason).toBe('no_saving');
  });

  it('happy hour: 10% off pre-rolls from 4 to 6 pm only', () => {
    const lines = [demoLine('a', 'PR-GREEN-CRACK-PRE-ROLL-1-G', 1)];
    expect(reasonOf(run(lines, ['happy-hour-prerolls']), 'happy-hour-prerolls')?.reason).toBe('outside_hours');
    expect(run(lines, ['happy-hour-prerolls'], ctx({ now: new Date('2026-06-17T23:30:00Z') })).discountCents).toBe(130);
    expect(reasonText(deal('happy-hour-prerolls'), 'outside_hours', undefined, CA)).toBe('Not now: this deal runs from 4 PM to 6 PM.');
  });
});

describe('buy X get Y', () => {
  it('buy 2 pre-rolls, get 1 for $0.01: the reward is the cheapest (1200 → 1), never free', () => {
    const r = run([demoLine('gc', 'PR-GREEN-CRACK-PRE-ROLL-1-G', 1), demoLine('pp', 'PR-PURPLE-PUNCH-PRE-ROLL-1-G', 1), demoLine('wc', 'PR-WEDDING-CAKE-PRE-ROLL-1-G', 1)], ['prerolls-2-get-1']);
    expect(r.discountCents).toBe(1199);
    const rewarded = r.lines.filter((l) => l.discountCents > 0);
    expect(rewarded).toHaveLength(1);
    expect(rewarded[0].totalCents).toBe(1);
    expect(['pp', 'wc']).toContain(rewarded[0].lineId);
    // The buy items are named on their lines with no discount of their own.
    expect(r.applied[0].lineIds).toEqual(['gc', 'pp', 'wc']);
  });

  it('two pre-rolls: one short, with the nudge in the deal’s own words', () => {
    const r = run([demoLine('gc', 'PR-GREEN-CRACK-PRE-ROLL-1-G', 2)], ['prerolls-2-get-1']);
    expect(reasonOf(r, 'prerolls-2-get-1')).toEqual({ dealId: 'prerolls-2-get-1', reason: 'not_enough_items', missing: { items: 1 } });
    expect(nudgeText(deal('prerolls-2-get-1'), r.nudges[0].missing, CA)).toBe('Add 1 more pre-roll for this deal: Buy 2, get 1 for $0.01');
  });

  it('buy an edible, get one 50% off: the cheaper one is halved (1900 → 950)', () => {
    const r = run([demoLine('s', 'ED-STRAWBERRY-GUMMIES-100-MG', 1), demoLine('p', 'ED-SLEEP-PEACH-GUMMIES-100-MG', 1)], ['edibles-bogo-half']);
    expect(lineDiscounts(r)).toEqual({ s: 950, p: 0 });
  });

  it('buy a cart, get the 510 battery for $5 (1799 → 500) across different products', () => {
    const r = run([demoLine('v', 'VP-HARLEQUIN-LIVE-RESIN-CART-1-G', 1), demoLine('b', 'AC-510-VAPE-BATTERY', 1)], ['cart-battery-5']);
    expect(lineDiscounts(r)).toEqual({ v: 0, b: 1299 });
  });
});

describe('mix and match', () => {
  const three = [demoLine('bd', 'FL-BLUE-DREAM-8TH', 1), demoLine('wc', 'FL-WEDDING-CAKE-8TH', 1), demoLine('cd', 'FL-CHEMDAWG-8TH', 1)];

  it('any 3 eighths for $90: 5800 + 5200 + 3900 − 9000 = 5900, split by largest remainder (2297 / 2059 / 1544)', () => {
    const r = run(three, ['any-3-eighths-90']);
    expect(r.discountCents).toBe(5900);
    expect(lineDiscounts(r)).toEqual({ wc: 2297, bd: 2059, cd: 1544 });
    expect(r.totalCents).toBe(9000);
  });

  it('two eighths: “Add 1 more eighth to get 3 for $90.00”', () => {
    const r = run(three.slice(0, 2), ['any-3-eighths-90']);
    expect(r.discountCents).toBe(0);
    expect(r.nudges).toEqual([{ dealId: 'any-3-eighths-90', missing: { items: 1 } }]);
    expect(nudgeText(deal('any-3-eighths-90'), r.nudges[0].missing, CA)).toBe('Add 1 more eighth to get 3 for $90.00');
  });

  it('four eighths: the three dearest make the group, and the nudge offers another group', () => {
    const r = run([...three, demoLine('ck', 'FL-CHERRY-PIE-8TH', 1)], ['any-3-eighths-90']);
    expect(r.discountCents).toBe(5900);
    expect(lineDiscounts(r).ck).toBe(0);
    expect(r.nudges).toEqual([{ dealId: 'any-3-eighths-90', missing: { items: 2, again: true } }]);
    expect(nudgeText(deal('any-3-eighths-90'), r.nudges[0].missing, CA)).toBe('Add 2 more eighths to get another 3 for $90.00');
  });

  it('six eighths: applied twice', () => {
    const r = run([demoLine('bd', 'FL-BLUE-DREAM-8TH', 6)], ['any-3-eighths-90']);
    expect(r.applied[0].applications).toBe(2);
    expect(r.discountCents).toBe(2 * (3 * 5200 - 9000));
  });
});

describe('bundles', () => {
  it('Night In: an indica eighth and a chocolate bar for $55 (5800 + 2100 − 5500 = 2400 → 1762 / 638)', () => {
    const r = run([demoLine('wc', 'FL-WEDDING-CAKE-8TH', 1), demoLine('ch', 'ED-DARK-CHOCOLATE-MINT-BAR-100-MG', 1)], ['night-in-bundle']);
    expect(lineDiscounts(r)).toEqual({ wc: 1762, ch: 638 });
  });

  it('a hybrid eighth is not part of it: one part short', () => {
    const r = run([demoLine('bd', 'FL-BLUE-DREAM-8TH', 1), demoLine('ch', 'ED-DARK-CHOCOLATE-MINT-BAR-100-MG', 1)], ['night-in-bundle']);
    expect(reasonOf(r, 'night-in-bundle')).toEqual({ dealId: 'night-in-bundle', reason: 'not_enough_items', missing: { items: 1 } });
  });
});

describe('thresholds', () => {
  it('spend $100, get 10% off the order (14100 → 1410: 960 + 450)', () => {
    const r = run([demoLine('og', 'FL-OG-KUSH-8TH', 2), demoLine('rb', 'TP-ROSE-RELIEF-BALM-200-MG', 1)], ['spend-100-10-off']);
    expect(lineDiscounts(r)).toEqual({ og: 960, rb: 450 });
  });

  it('$93 in the cart: $7.00 short, said as a nudge', () => {
    const r = run([demoLine('og', 'FL-OG-KUSH-8TH', 1), demoLine('rb', 'TP-ROSE-RELIEF-BALM-200-MG', 1)], ['spend-100-10-off']);
    expect(reasonOf(r, 'spend-100-10-off')).toEqual({ dealId: 'spend-100-10-off', reason: 'below_threshold', missing: { cents: 700 } });
    expect(nudgeText(deal('spend-100-10-off'), { cents: 700 }, CA)).toBe('Spend $7.00 more to get 10% off your order');
  });

  it('a coupon on the order: the deal that does not combine with coupons stands aside', () => {
    const r = run([demoLine('og', 'FL-OG-KUSH-8TH', 3)], ['spend-100-10-off'], ctx({ couponApplied: true }));
    expect(reasonOf(r, 'spend-100-10-off')?.reason).toBe('not_combinable_with_coupon');
  });

  it('spend $75, get a pre-roll for $1 (1300 → 100)', () => {
    const r = run([demoLine('jh', 'CN-JACK-HERER-LIVE-ROSIN-1-G', 1), demoLine('gc', 'PR-GREEN-CRACK-PRE-ROLL-1-G', 2)], ['spend-75-preroll-1']);
    expect(lineDiscounts(r)).toEqual({ jh: 0, gc: 1200 });
  });

  it('an ounce of flower: $20 off the order', () => {
    const r = run([demoLine('oz', 'FL-OG-KUSH-OZ', 1)], ['ounce-20-off']);
    expect(r.discountCents).toBe(2000);
    const short = run([demoLine('e', 'FL-OG-KUSH-8TH', 4)], ['ounce-20-off']);
    expect(reasonOf(short, 'ounce-20-off')).toEqual({ dealId: 'ounce-20-off', reason: 'below_threshold', missing: { amount: 14, measure: 'flower_g' } });
    expect(nudgeText(deal('ounce-20-off'), { amount: 14, measure: 'flower_g' }, CA)).toBe('Add 14 g more to get $20.00 off your order');
  });

  it('5 edibles: 15% off the edibles (9500 → 1425)', () => {
    const r = run([demoLine('s', 'ED-STRAWBERRY-GUMMIES-100-MG', 5)], ['edibles-5-15-off']);
    expect(r.discountCents).toBe(1425);
  });
});

describe('eligibility and limits', () => {
  const cart = [demoLine('og', 'FL-OG-KUSH-8TH', 1)];
  const tuesday = new Date('2026-06-16T19:00:00Z');

  it('medical only: a recreational shopper is told why', () => {
    const r = run(cart, ['patient-tuesday'], ctx({ now: tuesday }));
    expect(reasonOf(r, 'patient-tuesday')?.reason).toBe('medical_only');
    expect(run(cart, ['patient-tuesday'], ctx({ now: tuesday, customer: { licence: 'medical' } })).discountCents).toBe(720);
  });

  it('birthday month, first order, budget and per-customer limit', () => {
    const june = { licence: 'recreational' as const, birthday: '1990-06-30' };
    expect(run(cart, ['birthday-month'], ctx({ customer: june })).discountCents).toBe(960);
    expect(reasonOf(run(cart, ['birthday-month'], ctx({ customer: { ...june, birthday: '1990-07-01' } })), 'birthday-month')?.reason).toBe('birthday_month_only');
    expect(reasonOf(run(cart, ['birthday-month'], ctx({ customer: june, usage: { 'birthday-month': { customerRedemptions: 1 } } })), 'birthday-month')?.reason).toBe('limit_reached');
    expect(reasonOf(run(cart, ['early-bird-reserve'], ctx({ usage: { 'early-bird-reserve': { totalRedemptions: 100 } } })), 'early-bird-reserve')?.reason).toBe('budget_exhausted');
    expect(run(cart, ['early-bird-reserve'], ctx({ usage: { 'early-bird-reserve': { totalRedemptions: 99 } } })).discountCents).toBe(720);
    expect(reasonOf(run(cart, ['first-order-10']), 'first-order-10')?.reason).toBe('first_order_only');
    expect(run(cart, ['first-order-10'], ctx({ customer: { licence: 'recreational', previousOrders: 0 } })).discountCents).toBe(1000);
  });

  it('birthday month: one item only (perOrder 1), the dearest', () => {
    const r = run([demoLine('og', 'FL-OG-KUSH-8TH', 1), demoLine('rb', 'TP-ROSE-RELIEF-BALM-200-MG', 1)], ['birthday-month'], ctx({ customer: { licence: 'recreational', birthday: '06-02' } }));
    expect(lineDiscounts(r)).toEqual({ og: 960, rb: 0 });
  });
});

describe('stacking and floors', () => {
  it('deals combine on different items; the one that does not combine wins only when it saves more', () => {
    const medical = { licence: 'medical' as const, previousOrders: 4 };
    const tuesday = new Date('2026-06-16T19:00:00Z');
    // Three eighths: 3 for $90 saves 5900; Patient Tuesday (alone) saves 15% of 14900 = 2235.
    const eighths = [demoLine('bd', 'FL-BLUE-DREAM-8TH', 1), demoLine('wc', 'FL-WEDDING-CAKE-8TH', 1), demoLine('cd', 'FL-CHEMDAWG-8TH', 1)];
    const a = run(eighths, ['any-3-eighths-90', 'patient-tuesday'], ctx({ now: tuesday, customer: medical }));
    expect(a.discountCents).toBe(5900);
    expect(reasonOf(a, 'patient-tuesday')?.reason).toBe('not_combinable');
    // A tincture and a balm: only Patient Tuesday applies (10500 × 15% = 1575).
    const b = run([demoLine('t', 'TN-ORANGE-SLEEP-TINCTURE-500-MG', 1), demoLine('rb', 'TP-ROSE-RELIEF-BALM-200-MG', 1)], ['any-3-eighths-90', 'patient-tuesday'], ctx({ now: tuesday, customer: medical }));
    expect(b.discountCents).toBe(1575);
    expect(b.allowsCoupons).toBe(false);
  });

  it('never below $0.01 a unit, nor below cost when the store says so', () => {
    const all100 = dealSchema.parse({ id: 'x', title: 'x', status: 'active', kind: 'set_discount', set: {}, reward: { type: 'percent', percent: 100 }, stacking: { deals: true, coupons: true, points: true } });
    const line = demoLine('a', 'AC-HUMIDITY-PACK-62', 3);
    expect(evaluateDeals([line], [all100], ctx()).lines[0].totalCents).toBe(3);
    const costed = { ...line, product: { ...line.product, costCents: 150 } };
    expect(evaluateDeals([costed], [all100], ctx(), { useCost: true }).lines[0].totalCents).toBe(450);
  });
});

describe('the demo deals', () => {
  it('include every kind, and every record parses', () => {
    const kinds = new Set(DEMO_DEALS.map((d) => d.kind));
    expect([...kinds].sort()).toEqual(['bundle', 'buy_get', 'mix_match', 'set_discount', 'threshold']);
    expect(DEMO_DEALS.length).toBeGreaterThanOrEqual(15);
  });

  it('a full cart against all of them: the line discounts add up and the result explains every deal', () => {
    const cart = [
      demoLine('1', 'FL-BLUE-DREAM-8TH', 2),
      demoLine('2', 'FL-CHERRY-PIE-8TH', 1),
      demoLine('3', 'PR-GREEN-CRACK-PRE-ROLL-1-G', 3),
      demoLine('4', 'CN-SOUR-DIESEL-SHATTER-1-G', 1),
      demoLine('5', 'ED-STRAWBERRY-GUMMIES-100-MG', 1),
    ];
    const r = evaluateDeals(cart, DEMO_DEALS, ctx());
    expect(r.lines.reduce((s, l) => s + l.discountCents, 0)).toBe(r.discountCents);
    expect(r.applied.reduce((s, a) => s + a.discountCents, 0)).toBe(r.discountCents);
    expect(r.applied.length + r.notApplied.length).toBe(DEMO_DEALS.length);
    // 3 for $90 (4300: 5200 + 5200 + 2900 − 9000), 2 pre-rolls + 1 at $0.01 (1299), Wax Wednesday (600), then 10% of the rest (1590).
    expect(Object.fromEntries(r.applied.map((a) => [a.dealId, a.discountCents]))).toEqual({ 'any-3-eighths-90': 4300, 'prerolls-2-get-1': 1299, 'wax-wednesday': 600, 'spend-100-10-off': 1590 });
  });
});
