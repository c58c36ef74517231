/**
 * What the shopper is shown of the deals (issue 28): the preset a store follows, the price after a
 * per-item deal (the engine's answer for one unit), group deals as words only, and the display rules
 * (Massachusetts adult use: no "sale", no percent, no strike-through; California: never "free").
 */
import { describe, expect, it } from 'vitest';
import { DEMO_DEALS } from './demo-deals.ts';
import type { Deal, DealContext, DealProductFacts } from './model.ts';
import { liveDealsForPages, productDealView } from './shopper-view.ts';
import { dealDisplaySettingsSchema } from './schema.ts';
import { dealDisplayPresetFor, priceDisplay, saleBadgeWord } from './price-display.ts';
import { DEAL_DISPLAY_PRESETS, wordsViolations } from './words.ts';

const byId = (id: string): Deal => DEMO_DEALS.find((d) => d.id === id)!;
// Wednesday 2026-12-02 12:00 in Los Angeles: Wax Wednesday runs, happy hour (4–6 pm) does not.
const wednesdayNoon: DealContext = { now: new Date('2026-12-02T20:00:00Z'), timeZone: 'America/Los_Angeles', customer: { licence: 'recreational', previousOrders: null }, categoryParents: { 2: null, 3: 2, 11: 3, 6: 2, 4: 2, 5: 2, 7: 2, 14: 7 } };

const product = (over: Partial<DealProductFacts>): DealProductFacts => ({ sku: 'X', categoryIds: [], brandId: null, kind: null, strainType: null, size: null, tags: [], ...over });
const concentrate = product({ sku: 'CO-1', categoryIds: [6], kind: 'concentrate' });
const eighth = product({ sku: 'FL-1-92', categoryIds: [11], kind: 'flower', size: 92 });
const preroll = product({ sku: 'PR-1', categoryIds: [4], kind: 'preroll' });
const def = DEAL_DISPLAY_PRESETS.default.rules;
const ma = DEAL_DISPLAY_PRESETS.MA_ADULT_USE.rules;

describe('the preset a store follows', () => {
  it('auto follows the state; MA adult use only on recreational pages; a choice wins over the state', () => {
    expect(dealDisplayPresetFor({ preset: 'auto' }, 'ma', 'recreational').id).toBe('MA_ADULT_USE');
    expect(dealDisplayPresetFor({ preset: 'auto' }, 'MA', 'medical').id).toBe('default');
    expect(dealDisplayPresetFor({ preset: 'auto' }, 'CA', 'recreational').id).toBe('CA');
    expect(dealDisplayPresetFor({ preset: 'auto' }, 'CO', 'recreational').id).toBe('default');
    expect(dealDisplayPresetFor(null, 'CA', 'medical').id).toBe('CA');
    expect(dealDisplayPresetFor({ preset: 'MA_ADULT_USE' }, 'CA', 'recreational').id).toBe('MA_ADULT_USE');
    expect(dealDisplayPresetFor({ preset: 'default' }, 'MA', 'recreational').id).toBe('default');
    expect(dealDisplaySettingsSchema.parse({})).toEqual({ preset: 'auto' });
    expect(dealDisplaySettingsSchema.safeParse({ preset: 'NY' }).success).toBe(false);
  });
});

describe('a product card or page', () => {
  const live = liveDealsForPages(DEMO_DEALS, wednesdayNoon);

  it('live deals: today and now only, for the page licence; nothing personal (birthday, first order)', () => {
    const ids = live.map((d) => d.id);
    expect(ids).toContain('wax-wednesday');
    expect(ids).not.toContain('happy-hour-prerolls');
    expect(ids).not.toContain('patient-tuesday');
    expect(ids).not.toContain('birthday-month');
    expect(ids).not.toContain('first-order-10');
    expect(liveDealsForPages(DEMO_DEALS, { ...wednesdayNoon, now: new Date('2026-12-03T20:00:00Z') }).map((d) => d.id)).not.toContain('wax-wednesday');
  });

  it('a per-item percent deal: the price after it, cent-exact, with its words', () => {
    const view = productDealView(concentrate, 4999, live, wednesdayNoon, def)!;
    // 20% of $49.99 = $9.998 → $10.00 (half up): $39.99.
    expect(view.priceCents).toBe(3999);
    expect(view.ids).toEqual(['wax-wednesday']);
    expect(view.words).toEqual(['Wax Wednesday: 20% off concentrates']);
  });

  it('Massachusetts adult use: the same price, no percent words (the price alone)', () => {
    const view = productDealView(concentrate, 4999, live, wednesdayNoon, ma)!;
    expect(view.priceCents).toBe(3999);
    expect(view.words).toEqual([]);
  });

  it('a group deal shows its words and no price after (one unit cannot earn it)', () => {
    const view = productDealView(eighth, 4000, live, wednesdayNoon, def)!;
    expect(view.priceCents).toBeNull();
    expect(view.words).toContain('Any 3 eighths for $90');
    expect(view.ids).toContain('any-3-eighths-90');
  });

  it('never the word "free" under any preset, and never "sale" or a percent under MA adult use', () => {
    const items = [concentrate, eighth, preroll, product({ sku: 'ED-1', categoryIds: [14], kind: 'edible' })];
    for (const preset of Object.values(DEAL_DISPLAY_PRESETS)) {
      for (const p of items) {
        const view = productDealView(p, 2500, live, wednesdayNoon, preset.rules);
        for (const w of view?.words ?? []) {
          expect(w).not.toMatch(/\bfree\b/i);
          expect(wordsViolations(w, preset.rules)).toEqual([]);
        }
      }
    }
  });

  it('nothing related: no view', () => {
    expect(productDealView(product({ sku: 'TOP-1', categoryIds: [9], kind: 'topical' }), 2000, live.filter((d) => d.kind !== 'threshold'), wednesdayNoon, def)).toBeNull();
  });

  it('a price never goes under $0.01 on the page either', () => {
    const deep: Deal = { ...byId('humboldt-eighths-35'), id: 'deep', set: { kinds: ['concentrate'] }, reward: { type: 'amount', cents: 10_000 } } as Deal;
    expect(productDealView(concentrate, 500, [deep], wednesdayNoon, def)!.priceCents).toBe(1);
  });
});

describe('how a price is drawn', () => {
  it('default: the lower price with the regular one struck through', () => {
    expect(priceDisplay(5000, 4500, null, def)).toEqual({ shown: 4500, struck: 5000, label: 'Sale price' });
    expect(priceDisplay(5000, 4500, 4000, def)).toEqual({ shown: 4000, struck: 5000, label: 'Deal price' });
    expect(priceDisplay(5000, 5000, null, def)).toEqual({ shown: 5000, struck: null, label: null });
    expect(saleBadgeWord(def)).toBe('Sale');
  });

  it('Massachusetts adult use: the resulting price only, never "sale"', () => {
    expect(priceDisplay(5000, 4500, null, ma)).toEqual({ shown: 4500, struck: null, label: 'Special price' });
    expect(priceDisplay(5000, 5000, 4000, ma)).toEqual({ shown: 4000, struck: null, label: 'Deal price' });
    expect(saleBadgeWord(ma)).toBe('Special');
  });
});
