/**
 * Issue 28 "The offline catalogue carries the active deals so an offline cart's estimate matches what
 * the server charges when the order is sent", on SQLite and PostgreSQL: the snapshot the browser keeps
 * (GET /api/catalog/snapshot?format=2, decoded as the catalogue worker decodes it) answers the offline
 * cart's estimate (services.cartDeals: the deals and the store's named tax lines with each line's
 * facts), the storefront's own totals view (apps/web/app/lib/cart-view.ts) prices the cart from it,
 * and every figure — subtotal, deal discount, excise, sales, total — is what /api/cart/totals says
 * for the same lines, for a recreational and a medical cart (the medical exemptions of the store's
 * tax lines included).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cartItemsHash, type LicenseType } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, pin, REFERENCE_DATE } from '../../test-support/cart/testing.ts';
import { decodeSnapshot, type CompactSnapshot } from '../catalog/snapshot-format.ts';
import { offlineServices } from '../catalog/offline-services.ts';
import { totalsView } from '../../../web/app/lib/cart-view.ts';
import { lineKey, type CartItem } from '../../../web/app/state/cart-items.ts';

const EIGHTH = 'FL-BLUE-DREAM-8TH';
const SHATTER = 'CN-SOUR-DIESEL-SHATTER-1-G';
const GUMMIES = 'ED-STRAWBERRY-GUMMIES-100-MG';
const PAPERS = 'AC-KING-SIZE-ROLLING-PAPERS';
const stack = { deals: true, coupons: true, points: true };

describeEachDatabase('an offline cart’s estimate = what the server charges', (getDb) => {
  let app: FastifyInstance;

  async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await app.inject({ method, url, headers: { host: 'downtown.localhost' }, ...(body !== undefined ? { payload: body as object } : {}) });
    return { status: res.statusCode, ...(res.json() as { code: number; result: any }) };
  }

  beforeAll(async () => {
    app = await commerceApp(getDb());
    for (const sku of [EIGHTH, SHATTER, GUMMIES, PAPERS]) await pin(getDb().db, 1, sku, { stock: 10_000, manageStock: true });
    const actor = { type: 'system' as const, name: 'offline estimate test' };
    await app.deals.create(1, { id: 'eighths-20', title: 'Eighths: 20% off', status: 'active', kind: 'set_discount', set: { skus: [EIGHTH] }, reward: { type: 'percent', percent: 20 }, stacking: stack }, actor, { source: 'console' });
    await app.deals.create(1, { id: 'shatter-5', title: '$5 off shatter', status: 'active', kind: 'set_discount', set: { skus: [SHATTER] }, reward: { type: 'amount', cents: 500 }, stacking: stack }, actor, { source: 'console' });
    await app.catalog.ensure(1);
  });
  afterAll(async () => app?.close());

  for (const licence of ['recreational', 'medical'] as const satisfies readonly LicenseType[]) {
    it(`${licence}: subtotal, deals, excise, sales and total of the estimate are the server's, to the cent`, async () => {
      const lines: [string, number][] = [
        [EIGHTH, 2],
        [SHATTER, 1],
        [GUMMIES, 3],
        [PAPERS, 1],
      ];
      const cart = (await call('POST', '/api/cart/create', { license_type: licence })).result as string;
      for (const [sku, qty] of lines) expect((await call('POST', `/api/cart/update?cartId=${cart}`, { cartItem: { quoteId: cart, sku, qty } })).status).toBe(200);
      const server = (await call('GET', `/api/cart/totals?cartId=${cart}`)).result;
      expect(server.deal_discount).toBeGreaterThan(0);
      expect(server.excise_tax_amount + server.sales_tax_amount).toBeGreaterThan(0);

      // The browser's copy, as the catalogue worker reads it.
      const res = await app.inject({ url: '/api/catalog/snapshot?format=2', headers: { host: 'downtown.localhost', 'accept-encoding': 'identity' } });
      expect(res.statusCode).toBe(200);
      const snapshot = decodeSnapshot(res.json() as CompactSnapshot);
      expect(snapshot.tax?.lines.length).toBeGreaterThan(0);
      const services = offlineServices(snapshot, () => REFERENCE_DATE);
      const catalog = app.catalog.catalog(1);

      // The cart as the browser holds it: the server's unit prices, each product's tax class.
      const items: CartItem[] = server.items.map((i: { sku: string; qty: number; price: number }) => {
        const product = catalog.parentOfChild(i.sku) ?? catalog.productBySku(i.sku)!;
        return {
          sku: i.sku,
          qty: i.qty,
          prev_qty: null,
          type_id: 'simple',
          parentSku: null,
          size: null,
          server_item_id: null,
          server_cart_id: null,
          name: i.sku,
          image: null,
          path: null,
          price: i.price,
          tax_class_id: product.tax_class_id,
          uom: null,
          canna_type: product.canna_type,
          unit_weight_grams_equivelent: null,
          license_type: null,
        } as CartItem;
      });
      const estimate = await services.cartDeals(snapshot.store, licence, items.map((i) => ({ key: lineKey(i), sku: i.sku, qty: i.qty, unitPrice: i.price })));
      expect(estimate.tax?.lines.length).toBeGreaterThan(0);
      const view = totalsView(
        { items, token: null, totals: null, totalsHash: null },
        { ratesOf: () => [], limits: null, licenseType: licence, shippingInclTax: 0, dealEstimate: { hash: cartItemsHash(items, null), ...estimate } },
      );
      expect(view.source).toBe('estimate');
      expect({ subtotal: view.subtotal, deals: view.dealDiscount, excise: view.excise, sales: view.sales, total: view.total }).toEqual({
        subtotal: server.subtotal,
        deals: server.deal_discount,
        excise: server.excise_tax_amount,
        sales: server.sales_tax_amount,
        total: server.grand_total,
      });
    });
  }
});
