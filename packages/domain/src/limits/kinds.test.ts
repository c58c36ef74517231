/**
 * Every product counts toward the right bucket whatever the menu says or omits (issue 26), table-driven
 * per preset over real products of the demo catalogue (test-support/limits/demo-catalogue.fixture.ts): what one package
 * counts toward each bucket of each preset, in the bucket's unit. A wax, a rosin or a vape cart whose
 * menu row gives no concentrate grams counts its net weight as concentrate (never as flower); a bundle
 * part with no net weight or potency counts what its kind and flower equivalent say; nothing cannabis
 * ever falls out of every bucket.
 */
import { describe, expect, it } from 'vitest';
import { deriveLimitFacts, LIMIT_PRODUCT_KINDS, packageContributions, type LimitProductFacts } from './amounts.ts';
import { DEMO } from '../../test-support/limits/demo-catalogue.fixture.ts';
import { evaluateLimits, type LimitCartLine, type LimitEarlierOrder } from './evaluate.ts';
import {
  isSpecPerOrderModel,
  LIMIT_PRESETS,
  limitFactsFromMenu,
  limitPreset,
  menuWeightGrams,
  transactionLimitModel,
  type LimitPresetId,
} from './presets.ts';

/** Per preset, per demo product: what one package counts toward each bucket (buckets it does not count toward left out). */
const EXPECTED: Record<LimitPresetId, Record<string, Record<string, number>>> = {
  CA: {
    'FL-BLUE-DREAM-1G': { flower: 1, medical: 1 },
    'FL-BLUE-DREAM-8TH': { flower: 3.5, medical: 3.5 },
    'FL-BLUE-DREAM-OZ': { flower: 28, medical: 28 },
    'PR-APPLE-FRITTER-MINI-PRE-ROLLS-5-PACK': { flower: 2.5, medical: 2.5 },
    'PR-GRANDDADDY-PURPLE-PRE-ROLL-2-PACK': { flower: 1.4, medical: 1.4 },
    'PR-BLUEBERRY-INFUSED-PRE-ROLL-1-G': { flower: 1, concentrate: 0.3, medical: 1.3 },
    'KIT-SAMPLER-BLUE-DREAM': { flower: 1, medical: 1 },
    'CN-DO-SI-DOS-SUGAR-WAX-1-G': { concentrate: 1, medical: 1 },
    'CN-SOUR-DIESEL-SHATTER-1-G': { concentrate: 1, medical: 1 },
    'CN-JACK-HERER-LIVE-ROSIN-1-G': { concentrate: 1, medical: 1 },
    'VP-ICE-CREAM-CAKE-DISTILLATE-CART-0-5-G': { concentrate: 0.5, medical: 0.5 },
    'VP-HARLEQUIN-LIVE-RESIN-CART-1-G': { concentrate: 1, medical: 1 },
    'VP-BLUE-DREAM-DISPOSABLE-VAPE-0-3-G': { concentrate: 0.3, medical: 0.3 },
    'BDL-NIGHT-IN-VAPE-CART': { concentrate: 0.5, medical: 0.5 },
    'ED-STRAWBERRY-GUMMIES-100-MG': { concentrate: 0.1, medical: 0.1 },
    'ED-POMEGRANATE-GUMMIES-500-MG': { concentrate: 0.5, medical: 0.5 },
    'ED-SPARKLING-POMEGRANATE-SODA-10-MG': { concentrate: 0.01, medical: 0.01 },
    'TN-UNFLAVORED-THC-TINCTURE-1000-MG': { concentrate: 1, medical: 1 },
    'TP-ROSE-RELIEF-BALM-200-MG': { concentrate: 0.2, medical: 0.2 },
    'BDL-NIGHT-IN-DARK-CHOCOLATE': { concentrate: 0.1, medical: 0.1 },
    'ED-CBD-GRAPE-GUMMIES-300-MG': {},
    'AC-510-VAPE-BATTERY': {},
  },
  CO: {
    'FL-BLUE-DREAM-1G': { equivalent: 1, 'medical-flower': 1 },
    'FL-BLUE-DREAM-8TH': { equivalent: 3.5, 'medical-flower': 3.5 },
    'FL-BLUE-DREAM-OZ': { equivalent: 28, 'medical-flower': 28 },
    'PR-APPLE-FRITTER-MINI-PRE-ROLLS-5-PACK': { equivalent: 2.5, 'medical-flower': 2.5 },
    'PR-GRANDDADDY-PURPLE-PRE-ROLL-2-PACK': { equivalent: 1.4, 'medical-flower': 1.4 },
    'PR-BLUEBERRY-INFUSED-PRE-ROLL-1-G': { equivalent: 2.05, 'medical-flower': 1, 'medical-concentrate': 0.3 },
    'KIT-SAMPLER-BLUE-DREAM': { equivalent: 1, 'medical-flower': 1 },
    'CN-DO-SI-DOS-SUGAR-WAX-1-G': { equivalent: 3.5, 'medical-concentrate': 1 },
    'CN-SOUR-DIESEL-SHATTER-1-G': { equivalent: 3.5, 'medical-concentrate': 1 },
    'CN-JACK-HERER-LIVE-ROSIN-1-G': { equivalent: 3.5, 'medical-concentrate': 1 },
    'VP-ICE-CREAM-CAKE-DISTILLATE-CART-0-5-G': { equivalent: 1.75, 'medical-concentrate': 0.5 },
    'VP-HARLEQUIN-LIVE-RESIN-CART-1-G': { equivalent: 3.5, 'medical-concentrate': 1 },
    'VP-BLUE-DREAM-DISPOSABLE-VAPE-0-3-G': { equivalent: 1.05, 'medical-concentrate': 0.3 },
    'BDL-NIGHT-IN-VAPE-CART': { equivalent: 1.75, 'medical-concentrate': 0.5 },
    'ED-STRAWBERRY-GUMMIES-100-MG': { equivalent: 3.5 },
    'ED-POMEGRANATE-GUMMIES-500-MG': { equivalent: 17.5 },
    'ED-SPARKLING-POMEGRANATE-SODA-10-MG': { equivalent: 0.35 },
    'TN-UNFLAVORED-THC-TINCTURE-1000-MG': { equivalent: 35 },
    'TP-ROSE-RELIEF-BALM-200-MG': { equivalent: 7 },
    'BDL-NIGHT-IN-DARK-CHOCOLATE': { equivalent: 3.5 },
    'ED-CBD-GRAPE-GUMMIES-300-MG': {},
    'AC-510-VAPE-BATTERY': {},
  },
  MI: {
    'FL-BLUE-DREAM-1G': { total: 1, medical: 1 },
    'FL-BLUE-DREAM-8TH': { total: 3.5, medical: 3.5 },
    'FL-BLUE-DREAM-OZ': { total: 28, medical: 28 },
    'PR-APPLE-FRITTER-MINI-PRE-ROLLS-5-PACK': { total: 2.5, medical: 2.5 },
    'PR-GRANDDADDY-PURPLE-PRE-ROLL-2-PACK': { total: 1.4, medical: 1.4 },
    'PR-BLUEBERRY-INFUSED-PRE-ROLL-1-G': { total: 2.05, concentrate: 0.3, medical: 2.05 },
    'KIT-SAMPLER-BLUE-DREAM': { total: 1, medical: 1 },
    'CN-DO-SI-DOS-SUGAR-WAX-1-G': { total: 3.5, concentrate: 1, medical: 3.5 },
    'CN-SOUR-DIESEL-SHATTER-1-G': { total: 3.5, concentrate: 1, medical: 3.5 },
    'CN-JACK-HERER-LIVE-ROSIN-1-G': { total: 3.5, concentrate: 1, medical: 3.5 },
    'VP-ICE-CREAM-CAKE-DISTILLATE-CART-0-5-G': { total: 1.75, concentrate: 0.5, medical: 1.75 },
    'VP-HARLEQUIN-LIVE-RESIN-CART-1-G': { total: 3.5, concentrate: 1, medical: 3.5 },
    'VP-BLUE-DREAM-DISPOSABLE-VAPE-0-3-G': { total: 1.05, concentrate: 0.3, medical: 1.05 },
    'BDL-NIGHT-IN-VAPE-CART': { total: 1.75, concentrate: 0.5, medical: 1.75 },
    'ED-STRAWBERRY-GUMMIES-100-MG': { total: 3.5, medical: 3.5 },
    'ED-POMEGRANATE-GUMMIES-500-MG': { total: 17.5, medical: 17.5 },
    'ED-SPARKLING-POMEGRANATE-SODA-10-MG': { total: 0.35, medical: 0.35 },
    'TN-UNFLAVORED-THC-TINCTURE-1000-MG': { total: 35, medical: 35 },
    'TP-ROSE-RELIEF-BALM-200-MG': { total: 7, medical: 7 },
    'BDL-NIGHT-IN-DARK-CHOCOLATE': { total: 3.5, medical: 3.5 },
    'ED-CBD-GRAPE-GUMMIES-300-MG': {},
    'AC-510-VAPE-BATTERY': {},
  },
  IL: {
    'FL-BLUE-DREAM-1G': { flower: 1, medical: 1 },
    'FL-BLUE-DREAM-8TH': { flower: 3.5, medical: 3.5 },
    'FL-BLUE-DREAM-OZ': { flower: 28, medical: 28 },
    'PR-APPLE-FRITTER-MINI-PRE-ROLLS-5-PACK': { flower: 2.5, medical: 2.5 },
    'PR-GRANDDADDY-PURPLE-PRE-ROLL-2-PACK': { flower: 1.4, medical: 1.4 },
    'PR-BLUEBERRY-INFUSED-PRE-ROLL-1-G': { flower: 1, concentrate: 0.3, medical: 1.3 },
    'KIT-SAMPLER-BLUE-DREAM': { flower: 1, medical: 1 },
    'CN-DO-SI-DOS-SUGAR-WAX-1-G': { concentrate: 1, medical: 1 },
    'CN-SOUR-DIESEL-SHATTER-1-G': { concentrate: 1, medical: 1 },
    'CN-JACK-HERER-LIVE-ROSIN-1-G': { concentrate: 1, medical: 1 },
    'VP-ICE-CREAM-CAKE-DISTILLATE-CART-0-5-G': { concentrate: 0.5, medical: 0.5 },
    'VP-HARLEQUIN-LIVE-RESIN-CART-1-G': { concentrate: 1, medical: 1 },
    'VP-BLUE-DREAM-DISPOSABLE-VAPE-0-3-G': { concentrate: 0.3, medical: 0.3 },
    'BDL-NIGHT-IN-VAPE-CART': { concentrate: 0.5, medical: 0.5 },
    'ED-STRAWBERRY-GUMMIES-100-MG': { infused: 100 },
    'ED-POMEGRANATE-GUMMIES-500-MG': { infused: 500 },
    'ED-SPARKLING-POMEGRANATE-SODA-10-MG': { infused: 10 },
    'TN-UNFLAVORED-THC-TINCTURE-1000-MG': { infused: 1000 },
    'TP-ROSE-RELIEF-BALM-200-MG': { infused: 200 },
    'BDL-NIGHT-IN-DARK-CHOCOLATE': { infused: 100 },
    'ED-CBD-GRAPE-GUMMIES-300-MG': {},
    'AC-510-VAPE-BATTERY': {},
  },
  MA: {
    'FL-BLUE-DREAM-1G': { equivalent: 1, medical: 1 },
    'FL-BLUE-DREAM-8TH': { equivalent: 3.5, medical: 3.5 },
    'FL-BLUE-DREAM-OZ': { equivalent: 28, medical: 28 },
    'PR-APPLE-FRITTER-MINI-PRE-ROLLS-5-PACK': { equivalent: 2.5, medical: 2.5 },
    'PR-GRANDDADDY-PURPLE-PRE-ROLL-2-PACK': { equivalent: 1.4, medical: 1.4 },
    'PR-BLUEBERRY-INFUSED-PRE-ROLL-1-G': { equivalent: 2.05, medical: 1.3 },
    'KIT-SAMPLER-BLUE-DREAM': { equivalent: 1, medical: 1 },
    'CN-DO-SI-DOS-SUGAR-WAX-1-G': { equivalent: 3.5, medical: 1 },
    'CN-SOUR-DIESEL-SHATTER-1-G': { equivalent: 3.5, medical: 1 },
    'CN-JACK-HERER-LIVE-ROSIN-1-G': { equivalent: 3.5, medical: 1 },
    'VP-ICE-CREAM-CAKE-DISTILLATE-CART-0-5-G': { equivalent: 1.75, medical: 0.5 },
    'VP-HARLEQUIN-LIVE-RESIN-CART-1-G': { equivalent: 3.5, medical: 1 },
    'VP-BLUE-DREAM-DISPOSABLE-VAPE-0-3-G': { equivalent: 1.05, medical: 0.3 },
    'BDL-NIGHT-IN-VAPE-CART': { equivalent: 1.75, medical: 0.5 },
    'ED-STRAWBERRY-GUMMIES-100-MG': { equivalent: 3.5 },
    'ED-POMEGRANATE-GUMMIES-500-MG': { equivalent: 17.5 },
    'ED-SPARKLING-POMEGRANATE-SODA-10-MG': { equivalent: 0.35 },
    'TN-UNFLAVORED-THC-TINCTURE-1000-MG': { equivalent: 35 },
    'TP-ROSE-RELIEF-BALM-200-MG': { equivalent: 7 },
    'BDL-NIGHT-IN-DARK-CHOCOLATE': { equivalent: 3.5 },
    'ED-CBD-GRAPE-GUMMIES-300-MG': {},
    'AC-510-VAPE-BATTERY': {},
  },
  NV: {
    'FL-BLUE-DREAM-1G': { flower: 1, medical: 1 },
    'FL-BLUE-DREAM-8TH': { flower: 3.5, medical: 3.5 },
    'FL-BLUE-DREAM-OZ': { flower: 28, medical: 28 },
    'PR-APPLE-FRITTER-MINI-PRE-ROLLS-5-PACK': { flower: 2.5, medical: 2.5 },
    'PR-GRANDDADDY-PURPLE-PRE-ROLL-2-PACK': { flower: 1.4, medical: 1.4 },
    'PR-BLUEBERRY-INFUSED-PRE-ROLL-1-G': { flower: 1, concentrate: 0.3, medical: 1.3 },
    'KIT-SAMPLER-BLUE-DREAM': { flower: 1, medical: 1 },
    'CN-DO-SI-DOS-SUGAR-WAX-1-G': { concentrate: 1, medical: 1 },
    'CN-SOUR-DIESEL-SHATTER-1-G': { concentrate: 1, medical: 1 },
    'CN-JACK-HERER-LIVE-ROSIN-1-G': { concentrate: 1, medical: 1 },
    'VP-ICE-CREAM-CAKE-DISTILLATE-CART-0-5-G': { concentrate: 0.5, medical: 0.5 },
    'VP-HARLEQUIN-LIVE-RESIN-CART-1-G': { concentrate: 1, medical: 1 },
    'VP-BLUE-DREAM-DISPOSABLE-VAPE-0-3-G': { concentrate: 0.3, medical: 0.3 },
    'BDL-NIGHT-IN-VAPE-CART': { concentrate: 0.5, medical: 0.5 },
    'ED-STRAWBERRY-GUMMIES-100-MG': { concentrate: 0.1, medical: 0.1 },
    'ED-POMEGRANATE-GUMMIES-500-MG': { concentrate: 0.5, medical: 0.5 },
    'ED-SPARKLING-POMEGRANATE-SODA-10-MG': { concentrate: 0.01, medical: 0.01 },
    'TN-UNFLAVORED-THC-TINCTURE-1000-MG': { concentrate: 1, medical: 1 },
    'TP-ROSE-RELIEF-BALM-200-MG': { concentrate: 0.2, medical: 0.2 },
    'BDL-NIGHT-IN-DARK-CHOCOLATE': { concentrate: 0.1, medical: 0.1 },
    'ED-CBD-GRAPE-GUMMIES-300-MG': {},
    'AC-510-VAPE-BATTERY': {},
  },
};

const facts = (sku: string): LimitProductFacts => {
  const d = DEMO.find((p) => p.sku === sku)!;
  return limitFactsFromMenu(d, d.attrs);
};

describe.each(Object.keys(LIMIT_PRESETS) as LimitPresetId[])('%s preset over the demo catalogue', (preset) => {
  const model = limitPreset(preset);
  it.each(DEMO.map((d) => [d.sku, d] as const))('%s', (sku, d) => {
    const got = Object.fromEntries(
      packageContributions(model.buckets, limitFactsFromMenu(d, d.attrs)).map((c) => [c.bucketId, c.amount / 1000]),
    );
    expect(got).toEqual(EXPECTED[preset][sku]);
  });
  it('a cannabis product with no facts at all counts toward a capped recreational bucket, whatever its kind', () => {
    for (const kind of [...LIMIT_PRODUCT_KINDS, null]) {
      const counted = packageContributions(
        model.buckets.filter((b) => b.caps.recreational.resident.kind === 'cap'),
        { unit: 'ea', kind },
      );
      expect(counted.length, `${preset}: a ${kind ?? 'kind-unknown'} product with no facts`).toBeGreaterThan(0);
    }
  });
});

describe('California, as the issue found it', () => {
  const ca = limitPreset('CA');
  const now = new Date('2026-06-16T19:00:00.000Z');
  const run = (cartLines: LimitCartLine[], earlierOrders: LimitEarlierOrder[] = []) =>
    evaluateLimits(ca, {
      customerType: 'recreational',
      residency: 'resident',
      now,
      timezone: 'America/Los_Angeles',
      cartLines,
      earlierOrders,
    });
  const WAX = 'CN-DO-SI-DOS-SUGAR-WAX-1-G';
  const CART = 'VP-ICE-CREAM-CAKE-DISTILLATE-CART-0-5-G';
  const OZ = 'FL-BLUE-DREAM-OZ';

  it('1 g of wax counts as concentrate, not flower: 28 g of flower + 1 g of wax is accepted', () => {
    const r = run([
      { id: 'oz', qty: 1, facts: facts(OZ) },
      { id: 'wax', qty: 1, facts: facts(WAX) },
    ]);
    expect(r.ok).toBe(true);
    expect(r.meters.filter((m) => m.cap.kind === 'cap').map((m) => m.text)).toEqual(['28 g of 28.5 g per day', '1 g of 8 g per day']);
  });

  it('8 g of wax + a 0.5 g vape cart in one order is refused: 8.5 g of concentrate', () => {
    const r = run([
      { id: 'wax', qty: 8, facts: facts(WAX) },
      { id: 'cart', qty: 1, facts: facts(CART) },
    ]);
    expect(r.violations.map((v) => [v.bucketId, v.excess])).toEqual([['concentrate', 500]]);
    expect(r.remove).toEqual([{ lineId: 'cart', qty: 1 }]);
  });

  it('6 g of wax, then 3 g the same day, is refused: 9 g of concentrate', () => {
    const earlier: LimitEarlierOrder[] = [
      { placedAt: '2026-06-16T17:00:00.000Z', cancelled: false, customerType: 'recreational', lines: [{ qty: 6, facts: facts(WAX) }] },
    ];
    const r = run([{ id: 'wax', qty: 3, facts: facts(WAX) }], earlier);
    expect(r.violations.map((v) => [v.bucketId, v.excess])).toEqual([['concentrate', 1000]]);
    expect(run([{ id: 'wax', qty: 2, facts: facts(WAX) }], earlier).ok).toBe(true);
  });
});

describe('deriving what the menu leaves out', () => {
  it('names every derivation, and none where the menu gave the facts', () => {
    expect(deriveLimitFacts(facts('CN-DO-SI-DOS-SUGAR-WAX-1-G')).derived).toEqual(['concentrate 1 g: its net weight']);
    expect(deriveLimitFacts(facts('BDL-NIGHT-IN-VAPE-CART')).derived).toEqual(['concentrate 0.5 g: from its flower equivalent of 1.75 g']);
    expect(deriveLimitFacts(facts('BDL-NIGHT-IN-DARK-CHOCOLATE')).derived).toEqual(['THC 100 mg: from its flower equivalent of 3.5 g']);
    expect(deriveLimitFacts(facts('ED-STRAWBERRY-GUMMIES-100-MG')).derived).toEqual([]);
    expect(deriveLimitFacts(facts('FL-BLUE-DREAM-8TH')).derived).toEqual([]);
    expect(deriveLimitFacts(facts('AC-510-VAPE-BATTERY')).derived).toEqual([]);
    // Explicit concentrate grams win over the net weight.
    const d = DEMO.find((p) => p.sku === 'CN-JACK-HERER-LIVE-ROSIN-1-G')!;
    const given = limitFactsFromMenu(d, { ...d.attrs, concentrate_grams: '0.9' });
    expect(deriveLimitFacts(given).derived).toEqual([]);
    expect(packageContributions(limitPreset('CA').buckets, given)).toEqual([
      { bucketId: 'concentrate', amount: 900 },
      { bucketId: 'medical', amount: 900 },
    ]);
  });

  it('reads net weights with their unit', () => {
    expect([
      menuWeightGrams('1 g'),
      menuWeightGrams('500 mg'),
      menuWeightGrams('0.5'),
      menuWeightGrams('1 oz'),
      menuWeightGrams('a lot'),
    ]).toEqual([1, 0.5, 0.5, 28.3495, null]);
  });

  it('the spec’s per-order model is recognised whatever its caps; a preset is not it', () => {
    expect(isSpecPerOrderModel(transactionLimitModel({ recreational: 28.5, medical: 226.8 }))).toBe(true);
    expect(isSpecPerOrderModel(transactionLimitModel({ recreational: 10 }))).toBe(true);
    for (const id of Object.keys(LIMIT_PRESETS) as LimitPresetId[]) expect(isSpecPerOrderModel(limitPreset(id))).toBe(false);
  });
});

describe('over-limit messages the shopper can act on (issue 26)', () => {
  const now = new Date('2026-06-16T19:00:00.000Z');
  const OZ = 'FL-BLUE-DREAM-OZ';
  const EIGHTH = 'FL-BLUE-DREAM-8TH';
  const input = (cartLines: LimitCartLine[]) => ({
    customerType: 'recreational' as const,
    residency: 'resident' as const,
    now,
    timezone: 'America/Los_Angeles',
    cartLines,
  });
  const line = (id: string, sku: string, qty: number): LimitCartLine => ({
    id,
    qty,
    facts: facts(sku),
    name: DEMO.find((p) => p.sku === sku)!.name,
  });

  it('a per-day limit never says "single order", and says which packages to take out, not a weight no package has', () => {
    const two = evaluateLimits(limitPreset('CA'), input([line('oz', OZ, 2)]));
    expect(two.message).toBe(
      'Your cart contains 27.5 g more flower than the flower limit of 28.5 g per day allows. To stay within it, remove 1 of the 2 Blue Dream 28 g (1 oz) from your cart.',
    );
    const mixed = evaluateLimits(limitPreset('CA'), input([line('oz', OZ, 1), line('eighth', EIGHTH, 1)]));
    expect(mixed.message).toBe(
      'Your cart contains 3 g more flower than the flower limit of 28.5 g per day allows. To stay within it, remove Blue Dream 3.5 g (1/8 oz) from your cart.',
    );
    for (const id of Object.keys(LIMIT_PRESETS) as LimitPresetId[]) {
      const model = limitPreset(id);
      for (const b of model.buckets.filter((x) => x.window.type !== 'transaction')) {
        const one = { ...model, buckets: [b] };
        for (const customerType of ['recreational', 'medical'] as const) {
          const r = evaluateLimits(one, { ...input([line('oz', OZ, 20), line('wax', 'CN-DO-SI-DOS-SUGAR-WAX-1-G', 300)]), customerType });
          for (const v of r.violations) expect(v.message, `${id} ${b.id}`).not.toContain('single order');
        }
      }
    }
  });

  it('the spec’s per-order model keeps spec §8’s message word for word; another per-order bucket names the packages', () => {
    const spec = evaluateLimits(transactionLimitModel({ recreational: 28.5 }), input([line('oz', OZ, 2)]));
    expect(spec.message).toBe(
      'Your cart contains 27.5 g more cannabis than can be in a single order. Please remove 27.5 g from your cart.',
    );
    const co = evaluateLimits(limitPreset('CO'), input([line('oz', OZ, 1), line('eighth', EIGHTH, 1)]));
    expect(co.message).toBe(
      'Your cart contains 3.151 g more flower equivalent than can be in a single order. To stay within it, remove Blue Dream 3.5 g (1/8 oz) from your cart.',
    );
  });
});
