import { describe, expect, it } from 'vitest';
import { cartItemsHash, overLimitMessage, type TaxRate } from '@verdant/domain';
import type { CartLimitMeter, CartLimits, ServerTotals } from '../api/cart.ts';
import type { CartItem } from '../state/cart-items.ts';
import { gramsOfLimit, isOwnLimitModel, limitSettings, totalsView } from './cart-view.ts';

const line = (sku: string, size: number, qty: number, price: number, id: number | null = null): CartItem => ({
  sku, qty, size, price, prev_qty: null, type_id: 'configurable', parentSku: 'FL', server_item_id: id, server_cart_id: id ? 'tok' : null,
  name: sku, image: null, path: null, tax_class_id: 2, uom: 'g', canna_type: 1, unit_weight_grams_equivelent: null, license_type: 'both',
});
const rates: TaxRate[] = [
  { code: 'EXCISE', kind: 'excise', rate: 15, tax_country_id: 'US', region_name: 'CA', tax_region_id: 12 },
  { code: 'SALES', kind: 'sales', rate: 8.75, tax_country_id: 'US', region_name: 'CA', tax_region_id: 12 },
];
const options = { ratesOf: () => rates, limits: limitSettings({ recreational: 28.5 }), licenseType: 'recreational' as const, shippingInclTax: 0 };

describe('totals view', () => {
  it('estimates with the domain totals until the server answers for these very lines', () => {
    const items = [line('FL-8TH', 92, 2, 5200, 1)];
    const v = totalsView({ items, token: 'tok', totals: null, totalsHash: null }, options);
    // The demo store's numbers: $104.00, excise 15 % = $15.60, sales 8.75 % of $119.60 = $10.47.
    expect(v).toMatchObject({ source: 'estimate', subtotal: 10400, excise: 1560, sales: 1047, total: 13007, grams: 7, limit: 28.5, over: false });
    const server = { subtotal: 10400, discount_amount: 1040, excise_tax_amount: 1404, sales_tax_amount: 942, shipping_incl_tax: 500, grand_total: 12206,
      coupon_code: 'WELCOME10', over_limit: false, over_limit_message: null, items: [{ item_id: 1, row_total: 10400 }],
      total_segments: [{ code: 'thc_equivalent_grams', title: '', value: 7 }] } as unknown as ServerTotals;
    const fresh = totalsView({ items, token: 'tok', totals: server, totalsHash: cartItemsHash(items, 'tok') }, options);
    expect(fresh).toMatchObject({ source: 'server', discount: 1040, shipping: 500, total: 12206, couponCode: 'WELCOME10' });
    // The store's named tax lines (issue 14) come from the server's answer; an estimate has none.
    expect(fresh.taxLines).toBeUndefined();
    const named = { ...server, tax_lines: [{ code: 'ca-excise', title: 'CA cannabis excise', kind: 'excise', rate: 15, amount: 1404 }, { code: 'sales', title: 'Sacramento sales tax', kind: 'sales', rate: 8.75, amount: 942 }] } as ServerTotals;
    expect(totalsView({ items, token: 'tok', totals: named, totalsHash: cartItemsHash(items, 'tok') }, options).taxLines).toEqual([
      { title: 'CA cannabis excise', rate: 15, amount: 1404 },
      { title: 'Sacramento sales tax', rate: 8.75, amount: 942 },
    ]);
    expect(v.taxLines).toBeUndefined();
    const grown = [{ ...items[0], qty: 3 }];
    expect(totalsView({ items: grown, token: 'tok', totals: server, totalsHash: cartItemsHash(items, 'tok') }, options)).toMatchObject({ source: 'estimate', subtotal: 15600, couponCode: 'WELCOME10' });
  });

  it('flags the purchase limit with the exact message', () => {
    const v = totalsView({ items: [line('FL-OZ', 95, 1, 30000), line('FL-8TH', 92, 1, 5200)], token: null, totals: null, totalsHash: null }, options);
    expect(v).toMatchObject({ grams: 31.5, over: true, overMessage: overLimitMessage(3) });
    expect(gramsOfLimit(7, 28.5)).toBe('7 g of 28.5 g');
    expect(gramsOfLimit(3.5, null)).toBe('3.5 g');
  });

  it('a store with its own limit model (issue 14): the server’s limits answer for these lines decides, and names the bucket', () => {
    // 28 g + 3.5 g of flower: over today's 28.5 g per order, within a model of its own (say 40 g per day).
    const items = [line('FL-OZ', 95, 1, 30000, 1), line('FL-8TH', 92, 1, 5200, 2)];
    const meter = (bucket: string, window: CartLimitMeter['window'], over = false): CartLimitMeter => ({
      bucket, label: bucket, unit: 'flower_g', window, cap: 40, used: 0, in_cart: 31.5, remaining: 8.5, over, text: '31.5 g of 40 g per day',
    });
    const answer = (ok: boolean): CartLimits => ({
      ok, needs_residency: false, meters: [meter('flower', { type: 'day' }, !ok), meter('concentrate', { type: 'day' })],
      violations: ok ? [] : [{ bucket: 'flower', label: 'Flower', unit: 'flower_g', excess: 1, reason: 'over_cap', message: 'Your cart contains 1 g more flower than the flower limit of 30.5 g per day allows. Please remove 1 g from your cart.' }],
      remove: ok ? [] : [{ sku: 'FL-8TH', name: 'FL-8TH', qty: 1 }],
      message: ok ? null : 'Your cart contains 1 g more flower than the flower limit of 30.5 g per day allows. Please remove 1 g from your cart.',
      guest_notice: null,
    });
    const hash = cartItemsHash(items, 'tok');
    const base = { items, token: 'tok', totals: null, totalsHash: null };
    expect(totalsView(base, options)).toMatchObject({ over: true, limit: 28.5, overMessage: overLimitMessage(3) });
    expect(totalsView({ ...base, limits: answer(true), limitsHash: hash }, options)).toMatchObject({ grams: 31.5, limit: null, over: false, overMessage: null, limitMeters: true });
    expect(totalsView({ ...base, limits: answer(false), limitsHash: hash }, options)).toMatchObject({ over: true, overMessage: answer(false).message });
    // An answer for other lines is stale: until the server answers again, today's per-order figure is not this store's rule.
    expect(totalsView({ ...base, limits: answer(false), limitsHash: 'older' }, options)).toMatchObject({ over: false, limit: null });
    // Today's single per-order bucket is the THC-equivalent line's own figure: not a model of its own.
    const perOrder = { ...answer(true), meters: [{ ...meter('cannabis', { type: 'transaction' }), cap: 28.5 }] };
    expect(isOwnLimitModel(perOrder)).toBe(false);
    expect(isOwnLimitModel(answer(true))).toBe(true);
    expect(isOwnLimitModel(null)).toBe(false);
    expect(totalsView({ ...base, limits: { ...perOrder, ok: false, message: overLimitMessage(3) }, limitsHash: hash }, options).limitMeters).toBeUndefined();
    expect(totalsView({ ...base, limits: { ...perOrder, ok: false, message: overLimitMessage(3) }, limitsHash: hash }, options)).toMatchObject({
      limit: 28.5,
      over: true,
      overMessage: overLimitMessage(3),
    });
  });
});
