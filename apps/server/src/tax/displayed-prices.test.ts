/**
 * Displayed prices and the store's tax lines (issue 14), both databases: the price list's per-unit
 * taxes (GET /api/products/render-list) are exactly what a cart holding one unit pays — simple
 * products, a configurable's child and kits; the `taxrule` view that the browser's estimate and the
 * offline snapshot carry is the store's lines (with the demo default, the old seeded rates); and a
 * tax-line save reaches the price list, the `taxrule` view, the snapshot and the cached pages within
 * the catalogue's propagation promise (2 s; in one process, before the save answers).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { californiaTaxLines } from '@verdant/domain';
import { Shopper } from '../../test-support/cart/testing.ts';
import { EIGHTH, JAR, lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';

const SECTION = '/api/console/stores/1/settings/sections/tax';
const HOST = 'downtown.localhost';
/** The catalogue's propagation promise (issue 13, catalog/propagation.test.ts). */
const REACH_MS = 2000;
const SKUS = [EIGHTH, JAR, 'FL-BLUE-DREAM-QTR', 'KIT-PRE-ROLL-SAMPLER', 'BDL-NIGHT-IN'];

interface Rendered {
  sku: string;
  price: number | null;
  excise_tax: number;
  sales_tax: number;
}

describeEachDatabase('displayed prices by the store’s tax lines', (getDb) => {
  let h: LifecycleHarness;
  const invalidated: (number | undefined)[] = [];
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    h.app.onStoreInvalidated((storeId) => invalidated.push(storeId));
  });
  afterAll(async () => h?.app.close());

  const rendered = async (): Promise<Rendered[]> => {
    const r = await h.app.inject({
      url: `/api/products/render-list?skus=${SKUS.join(',')}&currencyCode=USD&storeId=1`,
      headers: { host: HOST },
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().result.items;
  };
  const cartOfOne = async (sku: string) => {
    const s = new Shopper(h.app);
    await s.createCart();
    const added = await s.update({ sku, qty: 1 });
    expect(added.code, JSON.stringify(added)).toBe(200);
    return (await s.totals()).result as { subtotal: number; excise_tax_amount: number; sales_tax_amount: number; grand_total: number };
  };
  const taxRules = async () => {
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/catalog/search',
      headers: { host: HOST },
      payload: { entity: 'taxrule', query: { size: 100 } },
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().result.items as { product_tax_class_ids: number[]; rates: { code: string; kind: string; rate: number }[] }[];
  };
  const snapshot = async () => {
    const r = await h.app.inject({ url: '/api/catalog/snapshot', headers: { host: HOST } });
    expect(r.statusCode).toBe(200);
    return { etag: String(r.headers.etag), taxRules: r.json().content.taxRules as { rates: { code: string; rate: number }[] }[] };
  };

  const expectSameAsCart = async () => {
    const items = await rendered();
    expect(items.map((i) => i.sku)).toEqual(SKUS);
    for (const item of items) {
      const cart = await cartOfOne(item.sku);
      expect([item.sku, item.excise_tax, item.sales_tax]).toEqual([item.sku, cart.excise_tax_amount, cart.sales_tax_amount]);
      expect(item.price! + item.excise_tax + item.sales_tax).toBe(cart.grand_total);
    }
    return items;
  };

  it('states per-unit taxes a cart of one unit pays, and the taxrule view is the demo’s old seeded rates', async () => {
    const items = await expectSameAsCart();
    // $52.00 eighth: excise 15 % = 780, sales 8.75 % of 5980 = 523.25 → 523; the jar: 8.75 % of 2699 → 236.
    expect(items.slice(0, 2).map((i) => [i.excise_tax, i.sales_tax])).toEqual([
      [780, 523],
      [0, 236],
    ]);
    const old = await h.db.selectFrom('tax_rates').select(['kind', 'rate']).where('store_id', '=', 1).orderBy('id').execute();
    const view = await taxRules();
    expect(view.map((r) => r.rates.map(({ kind, rate }) => ({ kind, rate })))).toEqual(old.map((r) => [r]));
    const oldClasses = await h.db
      .selectFrom('tax_rules')
      .select('product_tax_class_ids')
      .where('store_id', '=', 1)
      .orderBy('priority')
      .execute();
    expect(view.map((r) => r.product_tax_class_ids)).toEqual(oldClasses.map((r) => JSON.parse(r.product_tax_class_ids)));
  });

  it('a tax-line save reaches the price list, the taxrule view, the snapshot and the cached pages within the propagation bound', async () => {
    const before = await snapshot();
    invalidated.length = 0;
    const lines = californiaTaxLines({ city: 'Sacramento', salesPercent: 8.75, medicalCardExempt: false }).lines.map((l) =>
      l.code === 'ca-excise' ? { ...l, rate: 19 } : l,
    );
    const started = Date.now();
    const saved = await h.console('PUT', SECTION, { value: { lines }, version: 0 });
    expect(saved.status).toBe(200);
    // The store's cached pages were dropped, and the views below answer the new lines.
    expect(invalidated).toContain(1);
    const items = await expectSameAsCart();
    // 19 % of 5200 = 988; 8.75 % of 6188 = 541.45 → 541.
    expect([items[0].excise_tax, items[0].sales_tax]).toEqual([988, 541]);
    expect((await taxRules()).flatMap((r) => r.rates.map((x) => [x.code, x.rate]))).toEqual([
      ['ca-excise', 19],
      ['sales', 8.75],
    ]);
    const after = await snapshot();
    expect(after.etag).not.toBe(before.etag);
    expect(after.taxRules.flatMap((r) => r.rates.map((x) => x.rate))).toEqual([19, 8.75]);
    expect(Date.now() - started).toBeLessThan(REACH_MS);
  });
});
