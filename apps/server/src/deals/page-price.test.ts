/**
 * Issue 28 "the price a page or the cart shows is what the order charges", on SQLite and PostgreSQL:
 * the price after a per-item deal that the storefront's services give a product card or page (the
 * same services every page and the offline copy use) is what an order of that unit alone charges,
 * for every listed product under a per-item deal (demo deals and a few more: a percent that rounds,
 * an amount off, a fixed price); deals that are not live now (other day, outside the hours, medical
 * only) are never shown on a recreational page; the output cache's deal state changes when a deal
 * leaves its hours.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StorefrontServices } from '@verdant/web/context';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, orderBody, REFERENCE_DATE, registry } from '../../test-support/cart/testing.ts';
import { createStorefrontServices } from '../ssr/services.ts';
import { listedProducts } from '../catalog/home-collections.ts';
import { pageDealState, pageDealsSourceOf } from './page-source.ts';

const ACTOR = { type: 'system' as const, name: 'page price test' };
const stack = { deals: true, coupons: true, points: true };

describeEachDatabase('deal prices on pages = what the order charges', (getDb) => {
  let app: FastifyInstance;
  let services: StorefrontServices;
  let clock = REFERENCE_DATE;

  async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await app.inject({ method, url, headers: { host: 'downtown.localhost' }, ...(body !== undefined ? { payload: body as object } : {}) });
    return { status: res.statusCode, ...(res.json() as { code: number; result: any }) };
  }

  beforeAll(async () => {
    app = await commerceApp(getDb(), () => clock);
    await app.catalog.ensure(1);
    services = createStorefrontServices({ manager: app.catalog, clock: () => clock, deals: (store) => pageDealsSourceOf(app, store) }).services;
    // Beside the demo deals: a percent that rounds (33% of odd prices), an amount off, a fixed price,
    // and three never live on a recreational page at noon on Monday 15 June.
    const deals = [
      { id: 'tinctures-33', title: 'Tinctures: 33% off', kind: 'set_discount', set: { categories: [8] }, reward: { type: 'percent', percent: 33 } },
      { id: 'topicals-3-off', title: '$3 off topicals', kind: 'set_discount', set: { categories: [9] }, reward: { type: 'amount', cents: 300 } },
      { id: 'sativa-29', title: 'Sativa at $29', kind: 'set_discount', set: { categories: [12] }, reward: { type: 'price', cents: 2900 } },
      { id: 'saturday-edibles', title: 'Saturday edibles 40% off', kind: 'set_discount', set: { categories: [7] }, reward: { type: 'percent', percent: 40 }, schedule: { days: [6] } },
      { id: 'late-vapes', title: 'Late vapes 40% off', kind: 'set_discount', set: { categories: [5] }, reward: { type: 'percent', percent: 40 }, schedule: { hours: { from: '23:00', to: '23:30' } } },
      { id: 'medical-flower', title: 'Patients: 40% off flower', kind: 'set_discount', set: { categories: [3] }, reward: { type: 'percent', percent: 40 }, eligibility: { licence: 'medical' } },
    ];
    for (const d of deals) await app.deals.create(1, { status: 'active', stacking: stack, ...d } as never, ACTOR, { source: 'console' });
  });
  afterAll(async () => app?.close());

  it('every listed unit under a per-item deal: the page price after it is what an order of that unit charges', async () => {
    const store = registry.stores.find((s) => s.storeId === 1)!;
    const listed = listedProducts(app.catalog.catalog(1), store, 'recreational');
    const views = await services.productDeals(store, 'recreational', listed.map((p) => p.sku));
    // Each size of a configurable and each simple product with a price after a deal, under $75 (no
    // spend threshold reached: the order then holds the per-item deals alone).
    const units = listed.flatMap((p) => {
      const skus = p.type_id === 'configurable' ? p.configurable_children.map((c) => c.sku) : [p.sku];
      return skus.flatMap((sku) => {
        const v = views.bySku[sku];
        return v && v.priceCents != null && v.basePriceCents < 7500 && (p.type_id !== 'configurable' || sku !== p.sku) ? [{ sku, view: v }] : [];
      });
    });
    const ids = new Set(units.flatMap((u) => u.view.ids));
    for (const id of ['tinctures-33', 'topicals-3-off', 'sativa-29']) expect(ids).toContain(id);
    for (const id of ['saturday-edibles', 'late-vapes', 'medical-flower']) expect(ids).not.toContain(id);
    expect(units.length).toBeGreaterThanOrEqual(6);
    // A sample across the deals (orders take a while on PostgreSQL): up to 3 units per deal.
    const perDeal = new Map<string, number>();
    const sample = units.filter((u) => {
      const n = perDeal.get(u.view.ids[0]) ?? 0;
      perDeal.set(u.view.ids[0], n + 1);
      return n < 3;
    });
    for (const { sku, view } of sample) {
      const cart = (await call('POST', '/api/cart/create', { license_type: 'recreational' })).result as string;
      expect((await call('POST', `/api/cart/update?cartId=${cart}`, { cartItem: { quoteId: cart, sku, qty: 1 } })).status).toBe(200);
      const totals = (await call('GET', `/api/cart/totals?cartId=${cart}`)).result;
      expect({ sku, price: totals.items[0].price }).toEqual({ sku, price: view.basePriceCents });
      expect({ sku, after: totals.subtotal - totals.discount_amount }).toEqual({ sku, after: view.priceCents });
      const placed = await call('POST', '/api/order/save', orderBody({ cart_id: cart, license_type: 'recreational' }));
      expect(placed.status).toBe(200);
      const line = placed.result.items[0];
      expect({ sku, charged: placed.result.subtotal - placed.result.discount, line: line.deal_discount }).toEqual({ sku, charged: view.priceCents, line: view.basePriceCents - view.priceCents! });
      expect(placed.result.total).toBe(totals.grand_total);
    }
  });

  it('the output cache’s deal state moves when a deal enters its hours', async () => {
    const store = registry.stores.find((s) => s.storeId === 1)!;
    const tz = store.dispensarySettings.place_info.timezone;
    // 23:10 in the store's zone on the reference day is inside late-vapes' hours; noon is not.
    const at = (hhmm: string) => new Date(new Date(`2026-06-15T${hhmm}:00Z`).getTime() - offsetMs(tz, REFERENCE_DATE));
    const noon = await pageDealState(app, store, at('12:00'));
    const late = await pageDealState(app, store, at('23:10'));
    expect(noon).not.toBe('');
    expect(late).not.toBe(noon);
    expect(await pageDealState(app, store, at('12:00'))).toBe(noon);
    clock = at('23:10');
    const views = await services.productDeals(store, 'recreational', listedProducts(app.catalog.catalog(1), store, 'recreational').map((p) => p.sku));
    clock = REFERENCE_DATE;
    expect(Object.values(views.bySku).some((v) => v.ids.includes('late-vapes'))).toBe(true);
  });
});

/** The zone's offset from UTC at an instant (ms; negative west of Greenwich). */
function offsetMs(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - at.getTime();
}
