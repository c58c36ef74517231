import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeTotals } from '../cart/totals.ts';
import { taxOn, type TaxRate } from '../cart/tax.ts';
import { percentOf } from '../money.ts';
import { displayedTax } from './display.ts';
import { taxSettingsSchema } from './schema.ts';
import {
  computeTaxLines,
  lineApplies,
  RECREATIONAL_CUSTOMER,
  TAX_PRODUCT_KINDS,
  type TaxCustomer,
  type TaxItem,
  type TaxLine,
} from './lines.ts';
import {
  californiaTaxLines,
  coloradoTaxLines,
  DEMO_TAX_CLASS_CANNABIS,
  DEMO_TAX_CLASS_GENERAL,
  illinoisTaxLines,
  taxKindOf,
} from './presets.ts';

const MEDICAL: TaxCustomer = { medical: true, medicalCard: false };
const MEDICAL_CARD: TaxCustomer = { medical: true, medicalCard: true };
const sacramento = californiaTaxLines({ city: 'Sacramento', salesPercent: 8.75 }).lines;
const oakland = californiaTaxLines({ city: 'Oakland', salesPercent: 10.25 }).lines;
const illinois = illinoisTaxLines().lines;

const item = (over: Partial<TaxItem> & { net: number }): TaxItem => ({ id: 'a', taxClassId: DEMO_TAX_CLASS_CANNABIS, ...over });
const amounts = (b: ReturnType<typeof computeTaxLines>) => Object.fromEntries(b.lines.map((l) => [l.code, l.amount]));

describe('tax lines: California (demo stores, compounding base, MMIC exemption)', () => {
  it('states the excise and the sales tax on the excise-inclusive price (CDTFA $46.50 → $6.98 excise)', () => {
    const b = computeTaxLines([item({ net: 4650 })], sacramento, RECREATIONAL_CUSTOMER);
    expect(amounts(b)).toEqual({ 'ca-excise': 698, sales: 468 });
    expect(b.lines.find((l) => l.code === 'sales')!.taxable).toBe(4650 + 698);
    expect(b.items[0]).toEqual({
      id: 'a',
      lines: [
        { code: 'ca-excise', amount: 698 },
        { code: 'sales', amount: 468 },
      ],
      excise: 698,
      sales: 468,
    });
  });
  it('compounds: $100 at Oakland is $126.79', () => {
    const b = computeTaxLines([item({ net: 10000 })], oakland, RECREATIONAL_CUSTOMER);
    expect(10000 + b.excise + b.sales).toBe(12679);
  });
  it('charges only sales tax on general goods, nothing on a product without a tax class', () => {
    const b = computeTaxLines(
      [item({ id: 'g', net: 1000, taxClassId: DEMO_TAX_CLASS_GENERAL }), item({ id: 'z', net: 1000, taxClassId: null })],
      sacramento,
      RECREATIONAL_CUSTOMER,
    );
    expect(b.items[0].lines).toEqual([{ code: 'sales', amount: 88 }]);
    expect(b.items[1].lines).toEqual([]);
    expect(amounts(b)).toEqual({ 'ca-excise': 0, sales: 88 });
  });
  it('exempts a medical patient with a state medical ID card from sales tax only, not one without', () => {
    expect(amounts(computeTaxLines([item({ net: 10000 })], sacramento, MEDICAL_CARD))).toEqual({ 'ca-excise': 1500, sales: 0 });
    expect(amounts(computeTaxLines([item({ net: 10000 })], sacramento, MEDICAL))).toEqual({ 'ca-excise': 1500, sales: 1006 });
    // The card is a medical document: a recreational shopper flagged with one is not exempt.
    expect(amounts(computeTaxLines([item({ net: 10000 })], sacramento, { medical: false, medicalCard: true }))).toEqual({
      'ca-excise': 1500,
      sales: 1006,
    });
  });
});

describe('tax lines: Illinois potency tiers and medical', () => {
  const il = (over: Partial<TaxItem>, customer = RECREATIONAL_CUSTOMER) =>
    amounts(computeTaxLines([item({ net: 10000, ...over })], illinois, customer));
  it('10 % up to and including 35 % THC, 25 % above, 20 % for infused, on the full price, plus 6.25 %', () => {
    expect(il({ kind: 'flower', thcPercent: 22 })).toMatchObject({
      'il-excise-10': 1000,
      'il-excise-25': 0,
      'il-excise-20': 0,
      'il-rot': 625,
    });
    expect(il({ kind: 'concentrate', thcPercent: 35 })).toMatchObject({ 'il-excise-10': 1000, 'il-excise-25': 0 });
    expect(il({ kind: 'concentrate', thcPercent: 35.01 })).toMatchObject({ 'il-excise-10': 0, 'il-excise-25': 2500 });
    expect(il({ kind: 'infused', thcPercent: 80 })).toMatchObject({
      'il-excise-10': 0,
      'il-excise-25': 0,
      'il-excise-20': 2000,
      'il-rot': 625,
    });
  });
  it('counts an unknown potency as the highest tier, so tax is never under-collected', () => {
    expect(il({ kind: 'flower', thcPercent: null })).toMatchObject({ 'il-excise-10': 0, 'il-excise-25': 2500 });
  });
  it('charges medical cannabis 1 % and no purchaser excise or occupation tax', () => {
    expect(il({ kind: 'flower', thcPercent: 20 }, MEDICAL)).toEqual({
      'il-excise-10': 0,
      'il-excise-25': 0,
      'il-excise-20': 0,
      'il-rot': 0,
      'il-medical': 100,
    });
  });
  it('a non-cannabis item pays the occupation tax only', () => {
    expect(il({ kind: 'non_cannabis', thcPercent: 0 })).toEqual({
      'il-excise-10': 0,
      'il-excise-25': 0,
      'il-excise-20': 0,
      'il-rot': 625,
      'il-medical': 0,
    });
  });
});

describe('tax lines: Colorado (cumulative) and the research doc figures', () => {
  it('cumulative lines are each on the price: $100 → $117.90 in Colorado', () => {
    const b = computeTaxLines([item({ net: 10000, kind: 'flower' })], coloradoTaxLines().lines, RECREATIONAL_CUSTOMER);
    expect(amounts(b)).toEqual({ 'co-marijuana': 1500, 'co-sales': 290 });
  });
  it('Dutchie example: cumulative $100 → $122.75, compounding $100 → $123.91 (15 % + 7.75 %)', () => {
    const lines = (base: TaxLine['base']) =>
      taxSettingsSchema.parse({
        lines: [
          { code: 'ex', title: 'Excise', kind: 'excise', rate: 15 },
          { code: 'st', title: 'Sales', kind: 'sales', rate: 7.75, base },
        ],
      }).lines;
    const total = (base: TaxLine['base']) => {
      const b = computeTaxLines([item({ net: 10000 })], lines(base), RECREATIONAL_CUSTOMER);
      return 10000 + b.excise + b.sales;
    };
    expect(total('price')).toBe(12275);
    expect(total('price_plus_earlier')).toBe(12391);
  });
});

describe('tax settings validation', () => {
  it('names the field of a bad line', () => {
    const r = taxSettingsSchema.safeParse({ lines: [{ code: 'Bad Code', title: '', kind: 'vat', rate: 120 }] });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['lines.0.code', 'lines.0.title', 'lines.0.kind', 'lines.0.rate']));
  });
  it('refuses duplicate codes, an empty THC band, more than four decimals and unknown keys', () => {
    const ok = { code: 'a', title: 'A', kind: 'sales', rate: 1 };
    expect(taxSettingsSchema.safeParse({ lines: [ok, ok] }).error?.issues[0].message).toBe('The tax line code "a" is used twice');
    expect(
      taxSettingsSchema.safeParse({ lines: [{ ...ok, applies_to: { thc_percent_above: 35, thc_percent_at_most: 35 } }] }).success,
    ).toBe(false);
    expect(taxSettingsSchema.safeParse({ lines: [{ ...ok, rate: 8.12345 }] }).success).toBe(false);
    expect(taxSettingsSchema.safeParse({ lines: [{ ...ok, surprise: 1 }] }).success).toBe(false);
    expect(taxSettingsSchema.parse({ lines: [ok] }).lines[0]).toEqual({ ...ok, base: 'price', applies_to: {}, exempt: [] });
  });
});

// ——— property tests (fast-check) ———

const lineArb: fc.Arbitrary<TaxLine> = fc.record({
  code: fc.constant('x'),
  title: fc.constant('X'),
  kind: fc.constantFrom('excise' as const, 'sales' as const),
  rate: fc.integer({ min: 0, max: 400_000 }).map((v) => v / 10_000),
  base: fc.constantFrom('price' as const, 'price_plus_earlier' as const),
  applies_to: fc.record(
    {
      tax_class_ids: fc.subarray([1, 2, 3, 4], { minLength: 1 }),
      kinds: fc.subarray([...TAX_PRODUCT_KINDS], { minLength: 1 }),
      thc_percent_above: fc.integer({ min: 0, max: 50 }),
    },
    { requiredKeys: [] },
  ),
  exempt: fc.subarray(['medical' as const, 'medical_card' as const, 'recreational' as const]),
});
const linesArb = fc.array(lineArb, { maxLength: 6 }).map((ls) => ls.map((l, i) => ({ ...l, code: `l${i}` })));
const itemsArb = fc
  .array(
    fc.record({
      net: fc.nat(2_000_000),
      taxClassId: fc.constantFrom(1, 2, 3, 4, null),
      kind: fc.constantFrom(...TAX_PRODUCT_KINDS, null),
      thcPercent: fc.option(fc.integer({ min: 0, max: 1000 }).map((v) => v / 10)),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((xs) => xs.map((x, i) => ({ ...x, id: `i${i}` })));
const customerArb = fc.record({ medical: fc.boolean(), medicalCard: fc.boolean() });

describe('tax lines: properties', () => {
  it('every amount is whole cents ≥ 0; items add up exactly to each line and to the kind totals', () => {
    fc.assert(
      fc.property(itemsArb, linesArb, customerArb, (items, lines, customer) => {
        const b = computeTaxLines(items, lines, customer);
        for (const l of b.lines) {
          if (!Number.isInteger(l.amount) || l.amount < 0) return false;
          const sum = b.items.reduce((a, it) => a + (it.lines.find((x) => x.code === l.code)?.amount ?? 0), 0);
          if (sum !== l.amount) return false;
        }
        const ex = b.lines.filter((l) => l.kind === 'excise').reduce((a, l) => a + l.amount, 0);
        return ex === b.excise && b.items.reduce((a, it) => a + it.excise + it.sales, 0) === b.excise + b.sales;
      }),
    );
  });
  it('rounds each line once per group of items with the same lines: a lone item pays exactly the rounded rate of its base', () => {
    fc.assert(
      fc.property(itemsArb, linesArb, customerArb, (items, lines, customer) => {
        const one = items[0];
        const b = computeTaxLines([one], lines, customer);
        let earlier = 0;
        return lines.every((l, k) => {
          const applies = lineApplies(l, one, customer);
          const expected = applies ? percentOf(l.base === 'price_plus_earlier' ? one.net + earlier : one.net, l.rate) : 0;
          if (applies) earlier += expected;
          return b.lines[k].amount === expected;
        });
      }),
    );
  });
  it('a compounding line is never less than the same line on the price alone', () => {
    fc.assert(
      fc.property(itemsArb, linesArb, customerArb, (items, lines, customer) => {
        const flat = computeTaxLines(
          items,
          lines.map((l) => ({ ...l, base: 'price' as const })),
          customer,
        );
        const compounding = computeTaxLines(
          items,
          lines.map((l) => ({ ...l, base: 'price_plus_earlier' as const })),
          customer,
        );
        return compounding.lines.every((l, k) => l.amount >= flat.lines[k].amount);
      }),
    );
  });
  it('an exempt customer pays none of the lines they are exempt from', () => {
    fc.assert(
      fc.property(itemsArb, linesArb, (items, lines) => {
        const exemptAll = lines.map((l) => ({ ...l, exempt: ['medical_card' as const] }));
        return computeTaxLines(items, exemptAll, MEDICAL_CARD).lines.every((l) => l.amount === 0);
      }),
    );
  });
  it('potency tiers: an item falls in exactly one Illinois excise tier (recreational cannabis) and pays 10, 20 or 25 %', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'flower' as const,
          'pre_roll' as const,
          'concentrate' as const,
          'vape' as const,
          'infused' as const,
          'topical' as const,
        ),
        fc.option(fc.integer({ min: 0, max: 1000 }).map((v) => v / 10)),
        fc.nat(1_000_000),
        (kind, thcPercent, net) => {
          const b = computeTaxLines([item({ net, kind, thcPercent })], illinois, RECREATIONAL_CUSTOMER);
          const tiers = b.items[0].lines.filter((l) => l.code.startsWith('il-excise'));
          const rate = kind === 'infused' || kind === 'topical' ? 20 : (thcPercent ?? 100) > 35 ? 25 : 10;
          return tiers.length === 1 && tiers[0].amount === percentOf(net, rate) && b.items[0].lines.some((l) => l.code === 'il-rot');
        },
      ),
    );
  });
  it('a displayed price incl. tax is exactly what a cart holding the product (one unit, kits by component) pays', () => {
    const componentArb = fc.record({
      unitPrice: fc.nat(200_000),
      qtyPerUnit: fc.integer({ min: 1, max: 3 }),
      taxClassId: fc.constantFrom(1, 2, 3, 4, null),
      kind: fc.constantFrom(...TAX_PRODUCT_KINDS, null),
      thcPercent: fc.option(fc.integer({ min: 0, max: 1000 }).map((v) => v / 10)),
    });
    fc.assert(
      fc.property(fc.array(componentArb, { minLength: 1, maxLength: 5 }), linesArb, customerArb, (components, lines, customer) => {
        const shown = displayedTax(
          components.map((c) => ({
            net: Math.round(c.unitPrice * c.qtyPerUnit),
            taxClassId: c.taxClassId,
            kind: c.kind,
            thcPercent: c.thcPercent,
          })),
          lines,
          customer,
        );
        const cart = computeTotals({
          lines: components.map((c, i) => ({
            id: `${i}`,
            qty: c.qtyPerUnit,
            unitPrice: c.unitPrice,
            rates: [],
            tax: { taxClassId: c.taxClassId, kind: c.kind, thcPercent: c.thcPercent },
          })),
          taxLines: { lines, customer },
        });
        expect(shown.inclTax).toBe(cart.segments.total);
        expect([shown.excise, shown.sales]).toEqual([cart.segments.excise_taxes, cart.segments.sales_taxes]);
        expect(shown.lines).toEqual(
          cart
            .taxLines!.filter((l) => cart.lines.some((x) => x.taxLines!.some((y) => y.code === l.code)))
            .map(({ code, amount }) => ({ code, amount })),
        );
      }),
    );
  });
  it('the demo stores’ lines give exactly the totals of the old per-rate computation (taxOn per rate group)', () => {
    const rates = (pct: number): Record<number, TaxRate[]> => ({
      [DEMO_TAX_CLASS_CANNABIS]: [
        { code: 'ex', kind: 'excise', rate: 15, tax_country_id: 'US', region_name: null, tax_region_id: 0 },
        { code: 'st', kind: 'sales', rate: pct, tax_country_id: 'US', region_name: null, tax_region_id: 0 },
      ],
      [DEMO_TAX_CLASS_GENERAL]: [{ code: 'st', kind: 'sales', rate: pct, tax_country_id: 'US', region_name: null, tax_region_id: 0 }],
    });
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            qty: fc.integer({ min: 1, max: 9 }),
            unitPrice: fc.nat(50_000),
            taxClassId: fc.constantFrom(DEMO_TAX_CLASS_CANNABIS, DEMO_TAX_CLASS_GENERAL, 0),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        fc.constantFrom(['Sacramento', 8.75] as const, ['Oakland', 10.25] as const, ['Fresno', 7.25] as const),
        fc.option(
          fc.record({
            code: fc.constant('C'),
            type: fc.constantFrom('percent' as const, 'fixed' as const),
            value: fc.integer({ min: 0, max: 5000 }),
          }),
        ),
        (rows, [city, pct], coupon) => {
          const old = computeTotals({
            lines: rows.map((r, i) => ({ id: `${i}`, qty: r.qty, unitPrice: r.unitPrice, rates: rates(pct)[r.taxClassId] ?? [] })),
            coupon,
          });
          const lines = californiaTaxLines({ city, salesPercent: pct }).lines;
          const viaLines = computeTotals({
            lines: rows.map((r, i) => ({ id: `${i}`, qty: r.qty, unitPrice: r.unitPrice, rates: [], tax: { taxClassId: r.taxClassId } })),
            coupon,
            taxLines: { lines, customer: RECREATIONAL_CUSTOMER },
          });
          expect(viaLines.segments).toEqual(old.segments);
          expect(viaLines.lines.map(({ excise, sales }) => ({ excise, sales }))).toEqual(
            old.lines.map(({ excise, sales }) => ({ excise, sales })),
          );
          expect(viaLines.taxLines!.map((l) => l.amount)).toEqual([old.segments.excise_taxes, old.segments.sales_taxes]);
        },
      ),
    );
    // and taxOn itself, the old one place of rounding, per group
    expect(computeTaxLines([item({ net: 4650 })], sacramento, RECREATIONAL_CUSTOMER).excise).toBe(taxOn(4650, rates(8.75)[2]).excise);
  });
});

describe('taxKindOf and the demo default', () => {
  it('maps top categories to kinds, non-cannabis by canna type first, unknown to null', () => {
    expect(taxKindOf('pre-rolls', true)).toBe('pre_roll');
    expect(taxKindOf('Edibles', true)).toBe('infused');
    expect(taxKindOf('flower', false)).toBe('non_cannabis');
    expect(taxKindOf('mystery', true)).toBeNull();
    expect(taxKindOf(null, true)).toBeNull();
  });
  it('the demo default has no medical-card exemption (today’s totals), the preset has it', () => {
    const demo = californiaTaxLines({ city: 'Sacramento', salesPercent: 8.75, medicalCardExempt: false }).lines;
    expect(amounts(computeTaxLines([item({ net: 10000 })], demo, MEDICAL_CARD))).toEqual({ 'ca-excise': 1500, sales: 1006 });
    expect(sacramento[1].exempt).toEqual(['medical_card']);
  });
});
