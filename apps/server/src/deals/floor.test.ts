/**
 * The store setting `deal-floor` (issue 28 "No line is ever below $0.01 (a store setting)"), on
 * SQLite and PostgreSQL: by default a deal may take a unit down to one cent and no further; a manager
 * raises the floor in the console (a wrong amount is refused naming the field, nothing saved), and
 * then the cart's totals, the order, the product page's price after the deal and the offline
 * estimate all stop at the new floor — the same number everywhere.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StorefrontServices } from '@verdant/web/context';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, orderBody, pin, REFERENCE_DATE, registry } from '../../test-support/cart/testing.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { createStorefrontServices } from '../ssr/services.ts';
import { pageDealsSourceOf } from './page-source.ts';

const PAPERS = 'AC-KING-SIZE-ROLLING-PAPERS';
const URL = '/api/console/stores/1/settings/sections/deal-floor';

describeEachDatabase('the lowest price a deal may leave (deal-floor)', (getDb) => {
  let app: FastifyInstance;
  let manager: StaffTestSession;
  let services: StorefrontServices;

  async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await app.inject({ method, url, headers: { host: 'downtown.localhost' }, ...(body !== undefined ? { payload: body as object } : {}) });
    return { status: res.statusCode, ...(res.json() as { code: number; result: any; errorCode?: string }) };
  }
  const consoleCall = (method: 'GET' | 'PUT', payload?: object) =>
    app.inject({ method, url: URL, remoteAddress: '10.242.0.1', headers: { host: 'downtown.localhost', ...manager.headers }, ...(payload ? { payload } : {}) });

  async function papersTotals(qty: number) {
    const id = (await call('POST', '/api/cart/create', { license_type: 'recreational' })).result as string;
    expect((await call('POST', `/api/cart/update?cartId=${id}`, { cartItem: { quoteId: id, sku: PAPERS, qty } })).status).toBe(200);
    return { id, totals: (await call('GET', `/api/cart/totals?cartId=${id}`)).result };
  }
  const pagePrice = async () => {
    const store = registry.stores.find((s) => s.storeId === 1)!;
    return (await services.productDeals(store, 'recreational', [PAPERS])).bySku[PAPERS]?.priceCents;
  };
  const offlineEstimate = async () => {
    const store = registry.stores.find((s) => s.storeId === 1)!;
    return (await services.cartDeals(store, 'recreational', [{ key: 'p', sku: PAPERS, qty: 2, unitPrice: 300 }])).discounts.p;
  };

  beforeAll(async () => {
    app = await commerceApp(getDb());
    await app.catalog.ensure(1);
    services = createStorefrontServices({ manager: app.catalog, clock: () => REFERENCE_DATE, deals: (store) => pageDealsSourceOf(app, store) }).services;
    await pin(getDb().db, 1, PAPERS, { price: 300, stock: 10_000, manageStock: true });
    await app.deals.create(
      1,
      { id: 'papers-penny', title: 'Papers for a penny', status: 'active', kind: 'set_discount', set: { skus: [PAPERS] }, reward: { type: 'price', cents: 1 }, stacking: { deals: true, coupons: true, points: true } },
      { type: 'system', name: 'floor test' },
      { source: 'console' },
    );
    await addStaff(getDb().db, { email: 'floor-manager@x.test', role: 'manager', storeIds: [1] });
    manager = await loginStaff(app, 'floor-manager@x.test', { ip: '10.242.0.1' });
  });
  afterAll(async () => app?.close());

  it('by default a unit goes down to $0.01 and no further, on the cart, the page and the offline estimate', async () => {
    const { totals } = await papersTotals(2);
    expect(totals.deal_discount).toBe(2 * 299);
    expect(await pagePrice()).toBe(1);
    expect(await offlineEstimate()).toBe(2 * 299);
    const read = (await consoleCall('GET')).json().result;
    expect(read).toMatchObject({ section: 'deal-floor', source: 'default', value: { minUnitCents: 1 } });
  });

  it('a wrong floor is refused naming the field, and nothing is saved', async () => {
    const { version } = (await consoleCall('GET')).json().result as { version: number };
    for (const value of [{ minUnitCents: 0 }, { minUnitCents: -100 }, { minUnitCents: 1.5 }, { minUnitCents: '1.00' }, { minUnitCents: 100_001 }, { minUnitCents: 100, extra: 1 }]) {
      const res = await consoleCall('PUT', { value, version });
      expect(res.statusCode, JSON.stringify(value)).toBe(400);
      expect(res.json(), JSON.stringify(value)).toMatchObject({ errorCode: 'invalid_settings' });
    }
    expect((await consoleCall('PUT', { value: { minUnitCents: 0 }, version })).json().result).toContain('minUnitCents must be at least 1 ($0.01)');
    expect((await consoleCall('GET')).json().result).toMatchObject({ version, value: { minUnitCents: 1 } });
  });

  it('a floor of $1.00: totals, order, page price and offline estimate all stop at $1.00 a unit', async () => {
    const { version } = (await consoleCall('GET')).json().result as { version: number };
    const saved = await consoleCall('PUT', { value: { minUnitCents: 100 }, version });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().result).toMatchObject({ source: 'saved', value: { minUnitCents: 100 } });

    const { id, totals } = await papersTotals(2);
    expect(totals.deal_discount).toBe(2 * 200);
    expect(totals.items[0]).toMatchObject({ sku: PAPERS, row_total: 600, deal_discount_amount: 400 });
    expect(await pagePrice()).toBe(100);
    expect(await offlineEstimate()).toBe(2 * 200);

    const placed = await call('POST', '/api/order/save', orderBody({ cart_id: id, license_type: 'recreational' }));
    expect(placed.status).toBe(200);
    expect(placed.result).toMatchObject({ deal_discount: 400, total: totals.grand_total });

    // A floor above the item's price leaves it at its price: the deal gives nothing, never a rise.
    const v2 = (await consoleCall('GET')).json().result.version as number;
    expect((await consoleCall('PUT', { value: { minUnitCents: 500 }, version: v2 })).statusCode).toBe(200);
    const over = await papersTotals(1);
    expect(over.totals.deal_discount ?? 0).toBe(0);
    expect(over.totals.subtotal).toBe(300);
  });
});
