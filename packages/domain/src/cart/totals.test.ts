import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeTotals, type TotalsLine } from './totals.ts';
import type { TaxRate } from './tax.ts';

const r = (kind: 'excise' | 'sales', rate: number): TaxRate => ({ code: `${kind}${rate}`, kind, rate, tax_country_id: 'US', region_name: 'CA', tax_region_id: 12 });
const cannabis = [r('excise', 15), r('sales', 8.75)];
const general = [r('sales', 8.75)];

describe('computeTotals', () => {
  it('itemises excise and sales tax, sales tax on top of excise', () => {
    const t = computeTotals({
      lines: [{ id: 'flower', qty: 2, unitPrice: 3500, rates: cannabis, limit: { size: 92 } }],
    });
    // $70.00; excise 15 % = $10.50; sales 8.75 % of $80.50 = $7.04 (7.04375)
    expect(t.segments).toEqual({ subtotal: 7000, discount: 0, excise_taxes: 1050, sales_taxes: 704, shipping: 0, total: 8754, thc_equivalent_grams: 7 });
    expect(t.lines[0]).toMatchObject({ rowTotal: 7000, excise: 1050, sales: 704, rowTotalInclTax: 8754 });
  });

  it('applies a 10 % coupon before tax and shows it per line', () => {
    const t = computeTotals({
      lines: [
        { id: 'a', qty: 1, unitPrice: 4000, rates: cannabis },
        { id: 'pipe', qty: 1, unitPrice: 1000, rates: general, limit: { canna_type: 4 } },
      ],
      coupon: { code: 'WELCOME10', type: 'percent', value: 10 },
      shippingInclTax: 500,
    });
    expect(t.couponDiscount).toBe(500);
    expect(t.lines.map((l) => l.discount)).toEqual([400, 100]);
    // a: 3600 → excise 540, sales 8.75 % of 4140 = 362.25 → 362; pipe: 900 → sales 78.75 → 79
    expect(t.segments).toMatchObject({ subtotal: 5000, discount: 500, excise_taxes: 540, sales_taxes: 441, shipping: 500, total: 5981 });
    expect(t.segments.thc_equivalent_grams).toBe(1);
  });

  it('caps a fixed coupon, per-line discounts and credits at what is left', () => {
    const t = computeTotals({
      lines: [{ id: 'a', qty: 1, unitPrice: 1000, rates: cannabis, globalDiscount: { type: 2, value: 300 } }],
      coupon: { code: 'GREEN5', type: 'fixed', value: 500 },
      credits: 10_000,
    });
    expect(t.lines[0].discount).toBe(1000);
    expect(t.creditsUsed).toBe(200);
    expect(t.segments).toMatchObject({ subtotal: 1000, discount: 1000, excise_taxes: 0, sales_taxes: 0, total: 0 });
  });

  it('treats global_discount type 1 as a percentage', () => {
    const t = computeTotals({ lines: [{ id: 'a', qty: 2, unitPrice: 1250, rates: [], globalDiscount: { type: 1, value: 15 } }] });
    expect(t.segments).toMatchObject({ subtotal: 2500, discount: 375, total: 2125 });
  });

  it('refuses fractional prices and non-positive quantities', () => {
    expect(() => computeTotals({ lines: [{ id: 'a', qty: 1, unitPrice: 10.5, rates: [] }] })).toThrow(RangeError);
    expect(() => computeTotals({ lines: [{ id: 'a', qty: 0, unitPrice: 100, rates: [] }] })).toThrow(RangeError);
  });

  const lineArb: fc.Arbitrary<TotalsLine> = fc.record({
    id: fc.uuid(),
    qty: fc.integer({ min: 1, max: 20 }),
    unitPrice: fc.integer({ min: 0, max: 50_000 }),
    rates: fc.constantFrom(cannabis, general, [] as TaxRate[], [r('excise', 15), r('sales', 10.25)]),
    globalDiscount: fc.option(fc.record({ type: fc.constantFrom(1, 2), value: fc.integer({ min: 0, max: 5000 }) }), { nil: null }),
  });

  it('total = subtotal − discount + taxes + shipping, never negative, cents exact (property)', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 15 }),
        fc.option(fc.record({ code: fc.constant('C'), type: fc.constantFrom('percent', 'fixed') as fc.Arbitrary<'percent' | 'fixed'>, value: fc.integer({ min: 0, max: 20_000 }) }), { nil: null }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.constantFrom(0, 500),
        (lines, coupon, credits, shipping) => {
          const t = computeTotals({ lines, coupon, credits, shippingInclTax: shipping });
          const s = t.segments;
          const ints = [s.subtotal, s.discount, s.excise_taxes, s.sales_taxes, s.shipping, s.total].every(Number.isInteger);
          const identity = s.total === s.subtotal - s.discount + s.excise_taxes + s.sales_taxes + s.shipping;
          const lineSums =
            t.lines.reduce((a, l) => a + l.discount, 0) === s.discount &&
            t.lines.reduce((a, l) => a + l.excise, 0) === s.excise_taxes &&
            t.lines.reduce((a, l) => a + l.sales, 0) === s.sales_taxes;
          const bounds = s.total >= 0 && s.discount <= s.subtotal && t.lines.every((l) => l.discount <= l.rowTotal && l.rowTotalInclTax >= 0);
          return ints && identity && lineSums && bounds;
        },
      ),
    );
  });
});
