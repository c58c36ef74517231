import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applicableRates, rateLookup, storeTaxContext, taxOn, type TaxRate, type TaxRule } from './tax.ts';
import { allocateCents } from './allocate.ts';

const rate = (over: Partial<TaxRate>): TaxRate => ({
  code: 'r',
  kind: 'sales',
  rate: 10,
  tax_country_id: 'US',
  region_name: null,
  tax_region_id: 0,
  ...over,
});

// The "General Taxes" rule of vue-storefront-api's catalog_taxrule.json fixture: 23 % for
// DE, US, IT and PL, product tax class 2, customer tax class 3.
const general: TaxRule = {
  code: 'General Taxes',
  priority: 0,
  product_tax_class_ids: [2],
  customer_tax_class_ids: [3],
  rates: ['DE', 'US', 'IT', 'PL'].map((c) => rate({ code: `VAT23-${c}`, rate: 23, tax_country_id: c })),
};

describe('applicableRates (spec §5 tax rules)', () => {
  const ctx = { countryId: 'US', regionName: 'CA', groupedTax: false, customerTaxClassId: 3 };
  it('applies a rule only to a positive, listed product tax class', () => {
    expect(applicableRates(2, [general], ctx).map((r) => r.code)).toEqual(['VAT23-US']);
    expect(applicableRates(4, [general], ctx)).toEqual([]);
    expect(applicableRates(0, [{ ...general, product_tax_class_ids: [0] }], ctx)).toEqual([]);
  });
  it('requires the customer class only with grouped tax', () => {
    expect(applicableRates(2, [general], { ...ctx, customerTaxClassId: 9 })).toHaveLength(1);
    expect(applicableRates(2, [general], { ...ctx, customerTaxClassId: 9, groupedTax: true })).toEqual([]);
    expect(applicableRates(2, [general], { ...ctx, groupedTax: true })).toHaveLength(1);
  });
  it('matches the country, and the region by name, region id 0 or no region name', () => {
    expect(applicableRates(2, [general], { ...ctx, countryId: 'FR' })).toEqual([]);
    const byRegion: TaxRule = {
      ...general,
      rates: [rate({ code: 'NV', region_name: 'Nevada', tax_region_id: 39 }), rate({ code: 'CA', region_name: 'California', tax_region_id: 12 })],
    };
    expect(applicableRates(2, [byRegion], { ...ctx, regionName: 'california' }).map((r) => r.code)).toEqual(['CA']);
    expect(applicableRates(2, [byRegion], { ...ctx, regionName: 'Oregon' })).toEqual([]);
    const anyRegion: TaxRule = { ...general, rates: [rate({ code: 'ANY', region_name: 'Texas', tax_region_id: 0 })] };
    expect(applicableRates(2, [anyRegion], { ...ctx, regionName: 'Oregon' }).map((r) => r.code)).toEqual(['ANY']);
  });
  it('orders rates by rule priority', () => {
    const excise: TaxRule = { ...general, code: 'excise', priority: 0, rates: [rate({ code: 'EX', kind: 'excise', rate: 15 })] };
    const sales: TaxRule = { ...general, code: 'sales', priority: 1, rates: [rate({ code: 'ST', rate: 8.75 })] };
    expect(applicableRates(2, [sales, excise], ctx).map((r) => r.code)).toEqual(['EX', 'ST']);
  });
});

describe('taxOn', () => {
  const excise = rate({ kind: 'excise', rate: 15 });
  const sacramento = rate({ kind: 'sales', rate: 8.75 });
  it('charges sales tax on the excise-inclusive amount (CDTFA example: $46.50 → $6.98 excise)', () => {
    expect(taxOn(4650, [excise, sacramento])).toEqual({ excise: 698, sales: 468 });
  });
  it('is sales tax only for non-cannabis goods', () => {
    expect(taxOn(1000, [sacramento])).toEqual({ excise: 0, sales: 88 });
    expect(taxOn(1000, [])).toEqual({ excise: 0, sales: 0 });
  });
  it('compounds: $100 with 15 % excise and 10.25 % sales tax is $126.79', () => {
    const t = taxOn(10000, [excise, rate({ rate: 10.25 })]);
    expect(10000 + t.excise + t.sales).toBe(12679);
  });
  it('never yields fractional or negative cents', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.double({ min: 0, max: 40, noNaN: true }), fc.double({ min: 0, max: 15, noNaN: true }), (net, ex, st) => {
        const t = taxOn(net, [excise, sacramento].map((r, i) => ({ ...r, rate: i ? st : ex })));
        return Number.isInteger(t.excise) && Number.isInteger(t.sales) && t.excise >= 0 && t.sales >= 0;
      }),
    );
  });
});

describe('allocateCents', () => {
  it('splits exactly in proportion', () => {
    expect(allocateCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateCents(698, [3500, 1150])).toEqual([525, 173]);
    expect(allocateCents(-10, [1, 3])).toEqual([-3, -7]);
    expect(allocateCents(5, [0, 0])).toEqual([5, 0]);
    expect(allocateCents(5, [])).toEqual([]);
  });
  it('always adds up to the total, each part within a cent of its share', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e7, max: 1e7 }), fc.array(fc.nat(1e6), { minLength: 1, maxLength: 30 }), (total, weights) => {
        const parts = allocateCents(total, weights);
        const sum = weights.reduce((a, b) => a + b, 0);
        return (
          parts.reduce((a, b) => a + b, 0) === total &&
          (sum === 0 || parts.every((p, i) => Math.abs(p - (weights[i] / sum) * total) < 1 + 1e-9))
        );
      }),
    );
  });
});

describe('storeTaxContext and rateLookup (one context for the browser estimate and the server)', () => {
  it('uses the store tax defaults, else its address, with the guest class and grouped tax', () => {
    expect(storeTaxContext({ country_id: 'US', region_code: 'CA' })).toEqual({ countryId: 'US', regionName: 'CA', groupedTax: true, customerTaxClassId: 3 });
    expect(storeTaxContext({ country_id: 'US', region_code: 'CA' }, { defaultCountry: 'US', defaultRegion: 'NV' }, 5)).toEqual({ countryId: 'US', regionName: 'NV', groupedTax: true, customerTaxClassId: 5 });
  });
  it('looks rates up per product tax class like applicableRates, a missing class as 0', () => {
    const ctx = storeTaxContext({ country_id: 'US', region_code: 'CA' });
    const lookup = rateLookup([general], ctx);
    expect(lookup(2)).toEqual(applicableRates(2, [general], ctx));
    expect(lookup(2)).toBe(lookup(2));
    expect(lookup(null)).toEqual([]);
  });
});
