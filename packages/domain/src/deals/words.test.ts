/**
 * The deals' words and the display rules (issue 28): never "free" (a $0.01 reward is a price), and
 * under the Massachusetts adult-use preset no "sale", no percent or amount off (the storefront shows
 * the resulting price only). Every demo deal's headline, every nudge and every reason is checked.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_DEALS } from './demo-deals.ts';
import type { DealReason } from './engine.ts';
import { dealSchema } from './model.ts';
import { DEAL_DISPLAY_PRESETS, dealDisplayTitle, dealHeadline, nudgeText, reasonText, wordsViolations } from './words.ts';

const REASONS: DealReason[] = [
  'paused', 'ended', 'not_started', 'not_today', 'outside_hours', 'medical_only', 'recreational_only', 'customer_group', 'first_order_only',
  'new_customers_only', 'birthday_month_only', 'limit_reached', 'budget_exhausted', 'not_combinable_with_coupon', 'not_combinable_with_points',
  'no_matching_items', 'not_enough_items', 'below_threshold', 'not_combinable', 'better_deal_chosen', 'no_saving',
];

describe('deal words', () => {
  it('headlines of the demo deals', () => {
    const ca = DEAL_DISPLAY_PRESETS.CA.rules;
    const byId = Object.fromEntries(DEMO_DEALS.map((d) => [d.id, dealHeadline(d, ca)]));
    expect(byId['any-3-eighths-90']).toBe('Any 3 eighths for $90.00');
    expect(byId['prerolls-2-get-1']).toBe('Buy 2, get 1 for $0.01');
    expect(byId['wax-wednesday']).toBe('20% off');
    expect(byId['night-in-bundle']).toBe('Night In: 2 items for $55.00');
    expect(byId['spend-100-10-off']).toBe('Spend $100.00, get 10% off your order');
    expect(byId['spend-75-preroll-1']).toBe('Spend $75.00, get 1 pre-roll for $1.00');
    expect(byId['edibles-bogo-half']).toBe('Buy 1, get 1 50% off');
  });

  it('never says "free", whatever the preset, in any headline, nudge or reason', () => {
    for (const preset of Object.values(DEAL_DISPLAY_PRESETS)) {
      for (const d of DEMO_DEALS) {
        const texts = [dealHeadline(d, preset.rules), dealDisplayTitle(d, preset.rules), nudgeText(d, { items: 1 }, preset.rules), nudgeText(d, { cents: 500 }, preset.rules), ...REASONS.map((r) => reasonText(d, r, { items: 1 }, preset.rules))];
        for (const t of texts) if (t) expect(t).not.toMatch(/\bfree\b/i);
      }
    }
  });

  it('Massachusetts adult use: no "sale", no percent or amount off; price-only deals keep their price words', () => {
    const ma = DEAL_DISPLAY_PRESETS.MA_ADULT_USE.rules;
    for (const d of DEMO_DEALS) {
      const texts = [dealHeadline(d, ma), dealDisplayTitle(d, ma), nudgeText(d, { items: 1 }, ma), nudgeText(d, { cents: 500 }, ma), ...REASONS.map((r) => reasonText(d, r, { cents: 500 }, ma))];
      for (const t of texts) if (t) expect(wordsViolations(t, ma)).toEqual([]);
    }
    const byId = Object.fromEntries(DEMO_DEALS.map((d) => [d.id, dealHeadline(d, ma)]));
    expect(byId['wax-wednesday']).toBeNull();
    expect(byId['spend-100-10-off']).toBeNull();
    expect(byId['any-3-eighths-90']).toBe('Any 3 eighths for $90.00');
    expect(nudgeText(DEMO_DEALS.find((d) => d.id === 'spend-100-10-off')!, { cents: 700 }, ma)).toBe('Spend $7.00 more to get this deal');
    expect(DEAL_DISPLAY_PRESETS.MA_ADULT_USE.rules.noStrikethrough).toBe(true);
    expect(DEAL_DISPLAY_PRESETS.MA_ADULT_USE.sources.join(' ')).toMatch(/935 CMR 500\.105/);
  });

  it('a manager’s title that breaks the rules is replaced by the generated words', () => {
    const d = dealSchema.parse({ id: 'x', title: 'FREE pre-roll sale!', status: 'active', kind: 'buy_get', buy: { set: { categories: [4] }, qty: 2 }, get: { set: { categories: [4] }, qty: 1, reward: { type: 'price', cents: 1 } }, stacking: { deals: true, coupons: true, points: true } });
    expect(wordsViolations(d.title, DEAL_DISPLAY_PRESETS.CA.rules)).toEqual(['noFreeWord']);
    expect(dealDisplayTitle(d, DEAL_DISPLAY_PRESETS.CA.rules)).toBe('Buy 2, get 1 for $0.01');
    expect(wordsViolations(d.title, DEAL_DISPLAY_PRESETS.MA_ADULT_USE.rules)).toEqual(['noFreeWord', 'noSaleWord']);
  });
});

describe('deal records', () => {
  const base = { id: 'x', title: 'x', status: 'active', stacking: { deals: true, coupons: true, points: true } };
  it('refuse what cannot be honoured, with the field named', () => {
    const bad = [
      { ...base, kind: 'mix_match', set: {}, qty: 3, priceCents: 2 },
      { ...base, kind: 'set_discount', set: {}, reward: { type: 'percent', percent: 120 } },
      { ...base, kind: 'set_discount', set: {}, reward: { type: 'percent', percent: 12.345 } },
      { ...base, kind: 'set_discount', set: {}, reward: { type: 'price', cents: 0 } },
      { ...base, kind: 'bundle', name: 'b', items: [{ set: {}, qty: 1 }], priceCents: 100 },
      { ...base, kind: 'set_discount', set: {}, reward: { type: 'amount', cents: 100 }, schedule: { hours: { from: '25:00', to: '18:00' } } },
      { ...base, kind: 'set_discount', set: { colour: ['red'] }, reward: { type: 'amount', cents: 100 } },
    ];
    for (const b of bad) expect(dealSchema.safeParse(b).success).toBe(false);
    const r = dealSchema.safeParse(bad[0]);
    expect(r.success ? [] : r.error.issues.map((i) => i.path.join('.'))).toEqual(['priceCents']);
  });
});
