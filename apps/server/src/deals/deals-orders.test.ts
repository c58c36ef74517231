/**
 * Deals applied by the server (issue 28) on SQLite and PostgreSQL: the cart's totals and the order
 * run the engine on the server's prices; each line carries its deal discount and reason; every tax
 * is on the price after deals, to the cent (the same as a product that costs the deal price); the
 * order charges what /totals said and keeps each deal's share per line; a budget of N holds under a
 * burst of 100 parallel orders; a per-customer limit holds under a burst of one customer's orders;
 * a cancelled order gives its redemption back exactly once under 20 parallel cancels.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DealInput } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { bearer, commerceApp, loginCustomer, orderBody, pin, REFERENCE_DATE } from '../../test-support/cart/testing.ts';
import { applyTransition, SYSTEM_ACTOR } from '../orders/lifecycle/transitions.ts';
import { orderViews } from '../integration/orders.ts';
import { orderView } from '../users/orders.ts';
import { detailOf } from '../orders/console/detail.ts';
import { storeFacts } from '../orders/lifecycle/store-facts.ts';
import { dailyDealColumns, dailyReport, dailyReportCsv, dailyTaxLineColumns } from '../orders/report.ts';

const SHATTER = 'CN-SOUR-DIESEL-SHATTER-1-G';
const ROSIN = 'CN-JACK-HERER-LIVE-ROSIN-1-G';
const DIAMONDS = 'CN-DO-SI-DOS-THCA-DIAMONDS-1-G';
const GUMMIES = 'ED-STRAWBERRY-GUMMIES-100-MG';
const PEACH = 'ED-SLEEP-PEACH-GUMMIES-100-MG';
const PAPERS = 'AC-KING-SIZE-ROLLING-PAPERS';
const ACTOR = { type: 'system' as const, name: 'deals test' };
const stack = { deals: true, coupons: true, points: true };

describeEachDatabase('deals on totals and orders', (getDb) => {
  let app: FastifyInstance;
  let dealOrderId = 0;
  const db = () => getDb().db;

  async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await app.inject({ method, url, headers: { host: 'downtown.localhost' }, ...(body !== undefined ? { payload: body as object } : {}) });
    return { status: res.statusCode, ...(res.json() as { code: number; result: any; errorCode?: string }) };
  }

  async function cartWith(lines: [string, number][]) {
    const id = (await call('POST', '/api/cart/create', { license_type: 'recreational' })).result as string;
    for (const [sku, qty] of lines) expect((await call('POST', `/api/cart/update?cartId=${id}`, { cartItem: { quoteId: id, sku, qty } })).status).toBe(200);
    return id;
  }

  async function addDeal(input: DealInput) {
    return app.deals.create(1, input, ACTOR, { source: 'console' });
  }

  beforeAll(async () => {
    app = await commerceApp(getDb());
    for (const sku of [SHATTER, ROSIN, DIAMONDS, GUMMIES, PEACH, PAPERS]) await pin(db(), 1, sku, { price: 3000, stock: 10_000, manageStock: true });
    await pin(db(), 1, ROSIN, { price: 2400 });
    await addDeal({ id: 'shatter-20', title: 'Shatter: 20% off', status: 'active', kind: 'set_discount', set: { skus: [SHATTER] }, reward: { type: 'percent', percent: 20 }, stacking: stack });
  });
  afterAll(async () => app?.close());

  it('totals: the line carries its deal discount and reason; taxes are those of a product at the deal price', async () => {
    const cart = await cartWith([[SHATTER, 2]]);
    const t = (await call('GET', `/api/cart/totals?cartId=${cart}`)).result;
    expect(t.subtotal).toBe(6000);
    expect(t.discount_amount).toBe(1200);
    expect(t.deal_discount).toBe(1200);
    expect(t.items[0]).toMatchObject({
      sku: SHATTER,
      row_total: 6000,
      discount_amount: 1200,
      deal_discount_amount: 1200,
      discount_reason: 'Shatter: 20% off',
      global_discount: { type: 2, value: 1200, reason: 'Shatter: 20% off' },
      deals: [{ id: 'shatter-20', title: 'Shatter: 20% off', discount: 1200 }],
    });
    expect(t.deals.applied).toEqual([{ id: 'shatter-20', title: 'Shatter: 20% off', discount: 1200 }]);
    expect(t.total_segments.find((s: { code: string }) => s.code === 'discount').value).toBe(1200);
    // Rosin costs $24.00 (the shatter's price after the deal), same tax kind, no deal: the same taxes, cent for cent.
    const plain = (await call('GET', `/api/cart/totals?cartId=${await cartWith([[ROSIN, 2]])}`)).result;
    expect(plain.discount_amount).toBe(0);
    expect(plain.items[0].deals).toEqual([]);
    expect(t.excise_tax_amount).toBe(plain.excise_tax_amount);
    expect(t.sales_tax_amount).toBe(plain.sales_tax_amount);
    expect(t.tax_lines).toEqual(plain.tax_lines);
    expect(t.grand_total).toBe(plain.grand_total);
    expect(t.excise_tax_amount + t.sales_tax_amount).toBeGreaterThan(0);
  });

  it('the order charges what /totals said and keeps each deal’s share per line', async () => {
    const cart = await cartWith([[SHATTER, 3], [ROSIN, 1]]);
    const t = (await call('GET', `/api/cart/totals?cartId=${cart}`)).result;
    expect(t.deal_discount).toBe(1800);
    const placed = await call('POST', '/api/order/save', orderBody({ cart_id: cart, license_type: 'recreational' }));
    expect(placed.status).toBe(200);
    const o = placed.result;
    dealOrderId = o.order_id;
    expect(o).toMatchObject({ total: t.grand_total, subtotal: t.subtotal, discount: t.discount_amount, deal_discount: 1800, excise_taxes: t.excise_tax_amount, sales_taxes: t.sales_tax_amount });
    expect(o.deals).toEqual([{ id: 'shatter-20', title: 'Shatter: 20% off', words: 'Shatter: 20% off', discount: 1800 }]);
    const shatter = o.items.find((i: { sku: string }) => i.sku === SHATTER);
    expect(shatter).toMatchObject({ discount: 1800, deal_discount: 1800, deals: [{ id: 'shatter-20', discount: 1800 }] });
    expect(o.items.find((i: { sku: string }) => i.sku === ROSIN)).toMatchObject({ deal_discount: 0, deals: [] });
    const row = await db().selectFrom('orders').select(['deal_discount_cents', 'discount_cents', 'total_cents']).where('id', '=', o.order_id).executeTakeFirstOrThrow();
    expect(row).toEqual({ deal_discount_cents: 1800, discount_cents: t.discount_amount, total_cents: t.grand_total });
    const item = await db().selectFrom('order_items').select(['deal_discount_cents', 'deal_discounts']).where('order_id', '=', o.order_id).where('sku', '=', SHATTER).executeTakeFirstOrThrow();
    expect(item.deal_discount_cents).toBe(1800);
    expect(JSON.parse(item.deal_discounts!)).toEqual([{ code: 'shatter-20', title: 'Shatter: 20% off', words: 'Shatter: 20% off', discount_cents: 1800 }]);
    const redemptions = await db().selectFrom('deal_redemptions').selectAll().where('order_id', '=', o.order_id).execute();
    expect(redemptions).toHaveLength(1);
    expect(redemptions[0]).toMatchObject({ store_id: 1, discount_cents: 1800, customer_key: '19165550101', released_at: null });
  });

  it('the receipt, the console, the integration API, the webhook and the daily report show each deal’s discount per line', async () => {
    expect(dealOrderId).toBeGreaterThan(0);
    const share = { id: 'shatter-20', title: 'Shatter: 20% off', discount_cents: 1800 };
    // Integration API order view.
    const view = (await orderViews(db(), 1, [dealOrderId])).get(dealOrderId)!;
    expect(view.totals.deal_discount_cents).toBe(1800);
    expect(view.items.find((i) => i.sku === SHATTER)).toMatchObject({ deal_discount_cents: 1800, discount_cents: 1800, deals: [{ ...share, words: 'Shatter: 20% off' }] });
    expect(view.items.find((i) => i.sku === ROSIN)).toMatchObject({ deal_discount_cents: 0, deals: [] });
    // The order.created event (webhooks and console pushes carry its payload).
    const event = await db().selectFrom('outbox_events').select('payload').where('order_id', '=', dealOrderId).where('type', '=', 'order.created').executeTakeFirstOrThrow();
    expect(JSON.parse(event.payload)).toMatchObject({ deal_discount_cents: 1800, deal_lines: [{ sku: SHATTER, deal_discount_cents: 1800, deals: [share] }] });
    // The shopper's receipt (account order history).
    const row = await db().selectFrom('orders').selectAll().where('id', '=', dealOrderId).executeTakeFirstOrThrow();
    const [receipt] = await orderView(db(), [row]);
    expect(receipt).toMatchObject({ deal_discount: 1800 });
    expect(receipt!.items.find((i) => i.sku === SHATTER)).toMatchObject({ deal_discount: 1800, deals: [{ id: 'shatter-20', title: 'Shatter: 20% off', words: 'Shatter: 20% off', discount: 1800 }] });
    // The console's order detail.
    const facts = (await storeFacts(db(), 1))!;
    const detail = await detailOf(db(), facts, row, REFERENCE_DATE);
    expect(detail.totals.deal_discount).toBe(1800);
    expect(detail.items.find((i) => i.sku === SHATTER)).toMatchObject({ deal_discount_cents: 1800, deals: [{ ...share, words: 'Shatter: 20% off' }] });
    // The daily report counts completed orders: complete it (as staff would), then read the day.
    await db().updateTable('orders').set({ status: 'completed', status_changed_at: REFERENCE_DATE.toISOString() }).where('id', '=', dealOrderId).execute();
    const day = '2026-06-15';
    const deals = await dailyDealColumns(db(), facts, day, day);
    expect(deals).toEqual([{ id: 'shatter-20', title: 'Shatter: 20% off', orders: 1, discount_cents: 1800, cents_by_day: new Map([[day, 1800]]) }]);
    const rows = await dailyReport(db(), facts, day, day);
    expect(rows[0]!.discount_cents).toBeGreaterThanOrEqual(1800);
    const csv = dailyReportCsv(rows, await dailyTaxLineColumns(db(), facts, day, day), deals).trim().split(/\r?\n/);
    expect(csv[0]).toMatch(/,Deal: Shatter: 20% off$/);
    expect(csv[1]).toMatch(/,-18\.00$/);
    expect(csv[2]).toMatch(/^Total,.*,-18\.00$/);
  });

  it('a coupon stands a deal aside when the deal does not combine with coupons', async () => {
    await addDeal({ id: 'diamonds-5-off', title: '$5 off diamonds', status: 'active', kind: 'set_discount', set: { skus: [DIAMONDS] }, reward: { type: 'amount', cents: 500 }, stacking: { deals: true, coupons: false, points: true } });
    const cart = await cartWith([[DIAMONDS, 1]]);
    expect((await call('GET', `/api/cart/totals?cartId=${cart}`)).result.deal_discount).toBe(500);
    expect((await call('POST', `/api/cart/apply-coupon?cartId=${cart}&coupon=WELCOME10`)).status).toBe(200);
    const t = (await call('GET', `/api/cart/totals?cartId=${cart}`)).result;
    expect(t.deal_discount).toBe(0);
    expect(t.coupon_discount).toBeGreaterThan(0);
    expect(t.deals.not_applied).toContainEqual(expect.objectContaining({ id: 'diamonds-5-off', reason: 'not_combinable_with_coupon' }));
    const placed = await call('POST', '/api/order/save', orderBody({ cart_id: cart, license_type: 'recreational' }));
    expect(placed.result).toMatchObject({ deal_discount: 0, total: t.grand_total });
  });

  // 100 + 20 whole orders on a 2-core machine shared with other suites (about 25 s on PostgreSQL alone).
  it('a budget of 5 holds under 100 parallel orders: exactly 5 get the deal, the others pay the full price', { timeout: 180_000 }, async () => {
    const deal = await addDeal({ id: 'gummies-budget-5', title: '$1 off strawberry gummies, first 5 orders', status: 'active', kind: 'set_discount', set: { skus: [GUMMIES] }, reward: { type: 'amount', cents: 100 }, limits: { budget: 5 }, stacking: stack });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call('POST', '/api/order/save', orderBody({ license_type: 'recreational', products: [{ sku: GUMMIES, qty: 1 }], personal_details: { firstName: 'Bo', lastName: 'Burst', emailAddress: 'bo@example.com', phone: `(916) 555-${String(2000 + i)}` } })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    const withDeal = answers.filter((a) => a.result.deal_discount === 100);
    expect(withDeal).toHaveLength(5);
    expect(answers.filter((a) => a.result.deal_discount === 0)).toHaveLength(95);
    expect(withDeal.every((a) => a.result.items[0].price - a.result.items[0].discount === 2900)).toBe(true);
    const rows = await db().selectFrom('deal_redemptions').select(['order_id']).where('deal_id', '=', deal.id).execute();
    expect(rows).toHaveLength(5);
    expect((await app.deals.get(1, deal.id))!.redeemed).toBe(5);
    // The cart says so too: the deal is used up.
    const t = (await call('GET', `/api/cart/totals?cartId=${await cartWith([[GUMMIES, 1]])}`)).result;
    expect(t.deal_discount).toBe(0);
    expect(t.deals.not_applied).toContainEqual(expect.objectContaining({ id: 'gummies-budget-5', reason: 'budget_exhausted' }));

    // A cancelled order gives its redemption back exactly once, under 20 parallel cancels.
    const orderId = withDeal[0]!.result.order_id as number;
    const cancels = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        applyTransition(db(), { storeId: 1, orderId, action: 'cancel', input: { reason: 'customer_request' }, actor: SYSTEM_ACTOR, now: REFERENCE_DATE }),
      ),
    );
    expect(cancels.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    expect((await app.deals.get(1, deal.id))!.redeemed).toBe(4);
    const released = await db().selectFrom('deal_redemptions').select(['released_at']).where('order_id', '=', orderId).execute();
    expect(released).toEqual([{ released_at: REFERENCE_DATE.toISOString() }]);
    // The place it gave back is taken by exactly one of another burst.
    const again = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', '/api/order/save', orderBody({ license_type: 'recreational', products: [{ sku: GUMMIES, qty: 1 }], personal_details: { firstName: 'Bo', lastName: 'Again', emailAddress: 'bo@example.com', phone: `(916) 555-${String(3000 + i)}` } })),
      ),
    );
    expect(again.filter((a) => a.result.deal_discount === 100)).toHaveLength(1);
    expect((await app.deals.get(1, deal.id))!.redeemed).toBe(5);
  });

  it('eligibility from the server’s facts: a first-order deal for a customer’s first order only, never a guest; a medical-only deal stands aside on a recreational cart', async () => {
    await addDeal({ id: 'papers-first', title: 'Papers $1 on your first order', status: 'active', kind: 'set_discount', set: { skus: [PAPERS] }, reward: { type: 'price', cents: 100 }, eligibility: { firstOrder: true }, stacking: stack });
    await addDeal({ id: 'papers-patients', title: 'Papers 10% off for patients', status: 'active', kind: 'set_discount', set: { skus: [PAPERS] }, reward: { type: 'percent', percent: 10 }, eligibility: { licence: 'medical' }, stacking: stack });
    const { token } = await loginCustomer(app, '(916) 555-7070');
    const auth = { host: 'downtown.localhost', ...bearer(token) };
    const as = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await app.inject({ method, url, headers: auth, ...(body !== undefined ? { payload: body as object } : {}) });
      return res.json() as { code: number; result: any };
    };
    const customerCart = async () => {
      const id = (await as('POST', '/api/cart/create', { license_type: 'recreational' })).result as string;
      expect((await as('POST', `/api/cart/update?cartId=${id}`, { cartItem: { quoteId: id, sku: PAPERS, qty: 1 } })).code).toBe(200);
      return id;
    };
    const first = await customerCart();
    const t1 = (await as('GET', `/api/cart/totals?cartId=${first}`)).result;
    expect(t1.deals.applied.map((d: { id: string }) => d.id)).toEqual(['papers-first']);
    expect(t1.deals.not_applied).toContainEqual(expect.objectContaining({ id: 'papers-patients', reason: 'medical_only' }));
    const o1 = await as('POST', '/api/order/save', orderBody({ cart_id: first, license_type: 'recreational', personal_details: { firstName: 'Fi', lastName: 'Rst', emailAddress: 'fi@example.com', phone: '(916) 555-7070' } }));
    expect(o1.result.deals.map((d: { id: string }) => d.id)).toEqual(['papers-first']);
    // The second order of that customer: not a first order any more.
    const t2 = (await as('GET', `/api/cart/totals?cartId=${await customerCart()}`)).result;
    expect(t2.deals.applied).toEqual([]);
    expect(t2.deals.not_applied).toContainEqual(expect.objectContaining({ id: 'papers-first', reason: 'first_order_only' }));
    // A guest is never a first order (nothing to tell it by).
    const guest = (await call('GET', `/api/cart/totals?cartId=${await cartWith([[PAPERS, 1]])}`)).result;
    expect(guest.deals.applied).toEqual([]);
  });

  it('a per-customer limit of 2 a day holds under 30 parallel orders of one phone', async () => {
    await addDeal({ id: 'peach-2-a-day', title: 'Peach gummies $25, twice a day', status: 'active', kind: 'set_discount', set: { skus: [PEACH] }, reward: { type: 'price', cents: 2500 }, limits: { perCustomer: { max: 2, window: { type: 'day' } } }, stacking: stack });
    const one = { firstName: 'Cy', lastName: 'Same', emailAddress: 'cy@example.com', phone: '(916) 555-4444' };
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => call('POST', '/api/order/save', orderBody({ license_type: 'recreational', products: [{ sku: PEACH, qty: 1 }], personal_details: one }))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    expect(answers.filter((a) => a.result.deal_discount === 500)).toHaveLength(2);
    // The same phone written another way is the same shopper.
    const other = await call('POST', '/api/order/save', orderBody({ license_type: 'recreational', products: [{ sku: PEACH, qty: 1 }], personal_details: { ...one, phone: '916-555-4444' } }));
    expect(other.result.deal_discount).toBe(0);
    // Another shopper still gets it.
    const next = await call('POST', '/api/order/save', orderBody({ license_type: 'recreational', products: [{ sku: PEACH, qty: 1 }], personal_details: { ...one, phone: '(916) 555-4445' } }));
    expect(next.result.deal_discount).toBe(500);
  });
});
