import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { CART_MESSAGES as M } from '../cart/messages.ts';
import { commerceApp, orderBody, pin, Shopper, stockQty } from '../../test-support/cart/testing.ts';

const ROSIN = 'CN-JACK-HERER-LIVE-ROSIN-1-G';
const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const EIGHTH = 'FL-BLUE-DREAM-8TH';
const NEAR = { lat: 38.5906, lng: -121.4944, city: 'Sacramento', zip: '95814', address: '900 J St', apt_ste: '2B' };

describeEachDatabase('POST /api/order/save', (getDb) => {
  let app: FastifyInstance;
  const db = () => getDb().db;
  const orderCount = async () => Number((await db().selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(db(), 1, ROSIN, { price: 3500, special: null, tiers: [], stock: 500 });
    await pin(db(), 1, JAR, { price: 2699, special: null, tiers: [], stock: 500 });
    await pin(db(), 1, EIGHTH, { price: 5200, special: null, tiers: [], stock: 350 });
  });
  afterAll(async () => app?.close());

  it('places the cart’s order with server totals, takes the stock, clears the cart', async () => {
    const s = new Shopper(app);
    await s.createCart();
    await s.update({ sku: EIGHTH, qty: 2 });
    await s.update({ sku: JAR, qty: 1 });
    await s.call('POST', `/api/cart/apply-coupon?cartId=${s.token}&coupon=WELCOME10`);
    const expected = (await s.totals()).result;
    const stockBefore = await stockQty(db(), 1, EIGHTH);
    const r = await s.saveOrder(orderBody({ cart_id: s.token }));
    expect(r.status).toBe(200);
    expect(r.code).toBe(200);
    expect(r.result).toMatchObject({ increment_id: expect.stringMatching(/^DO-1\d{5}$/), total: expected.grand_total, subtotal: expected.subtotal, discount: expected.discount_amount, excise_taxes: expected.excise_tax_amount, sales_taxes: expected.sales_tax_amount, coupon_code: 'WELCOME10', thc_equivalent_grams: 7 });
    expect(await stockQty(db(), 1, EIGHTH)).toBe(stockBefore - 7);
    const order = await db().selectFrom('orders').selectAll().where('id', '=', r.result.order_id).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ store_id: 1, increment_id: r.result.increment_id, total_cents: expected.grand_total, discount_cents: expected.discount_amount, license_type: 'recreational', order_type: 'pickup', status: 'submitted' });
    const items = await db().selectFrom('order_items').selectAll().where('order_id', '=', order.id).orderBy('id').execute();
    expect(items.map((i) => [i.sku, i.qty, i.price_cents, i.excise_tax_cents + i.sales_tax_cents])).toEqual(
      expected.items.map((i: { sku: string; qty: number; price: number; tax_amount: number }) => [i.sku, i.qty, i.price, i.tax_amount]),
    );
    expect((await s.pull()).result).toEqual([]);
    expect((await db().selectFrom('coupons').select('times_used').where('code', '=', 'WELCOME10').executeTakeFirstOrThrow()).times_used).toBe(1);
  });

  it('prices the cart from the in-memory catalogue and the order from the database', async () => {
    const s = new Shopper(app);
    await s.createCart();
    const added = await s.update({ sku: ROSIN, qty: 2 });
    expect(added.result).toMatchObject({ price: 3500, row_total: 7000 });
    // A price written but not yet announced: the cart still shows the catalogue's price…
    const id = (await db().selectFrom('products').select('id').where('store_id', '=', 1).where('sku', '=', ROSIN).executeTakeFirstOrThrow()).id;
    await db().updateTable('product_prices').set({ price_cents: 4000 }).where('product_id', '=', id).where('customer_group_id', '=', 0).execute();
    expect((await s.totals()).result).toMatchObject({ subtotal: 7000 });
    // …announced, the cart, its totals and its taxes follow at once (excise 15 %, then sales 8.75 %).
    await app.catalog.catalogChanged(1, [id]);
    expect((await s.update({ item_id: added.result.item_id, qty: 2 })).result).toMatchObject({ price: 4000, row_total: 8000 });
    const totals = (await s.totals()).result;
    expect(totals).toMatchObject({ subtotal: 8000, excise_tax_amount: 1200, sales_tax_amount: 805, grand_total: 10005 });
    // The order never trusts the memory: a price changed behind the catalogue's back is what it charges.
    await db().updateTable('product_prices').set({ price_cents: 4100 }).where('product_id', '=', id).where('customer_group_id', '=', 0).execute();
    expect((await s.totals()).result).toMatchObject({ subtotal: 8000 });
    const order = await s.saveOrder(orderBody({ cart_id: s.token }));
    expect(order).toMatchObject({ status: 200, result: { subtotal: 8200, items: [{ sku: ROSIN, price: 4100 }] } });
    await pin(db(), 1, ROSIN, { price: 3500, special: null, tiers: [] });
  });

  it('answers a repeated key with the first order, and refuses the key for another payload', async () => {
    const s = new Shopper(app);
    const body = orderBody({ products: [{ sku: JAR, qty: 1 }] });
    const first = await s.saveOrder(body);
    const again = await s.saveOrder(body);
    expect(again.status).toBe(200);
    expect(again.result.increment_id).toBe(first.result.increment_id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await db().selectFrom('orders').select('id').where('idempotency_key', '=', body.idempotency_key as string).execute()).toHaveLength(1);
    const other = await s.saveOrder({ ...body, products: [{ sku: JAR, qty: 2 }] });
    expect(other).toMatchObject({ status: 422, code: 422, result: M.idempotencyKeyReused });
    // The key as a header works the same; a price in the payload changes nothing.
    const { idempotency_key, ...rest } = body;
    const viaHeader = await s.saveOrder({ ...rest, products: [{ sku: JAR, qty: 1, price: 1 }] }, { 'idempotency-key': idempotency_key as string });
    expect(viaHeader.result.increment_id).toBe(first.result.increment_id);
  });

  it('refuses an order without a key, with two different keys, or with a malformed body', async () => {
    const s = new Shopper(app);
    const { idempotency_key: _k, ...noKey } = orderBody({ products: [{ sku: JAR, qty: 1 }] });
    expect(await s.saveOrder(noKey)).toMatchObject({ status: 400, result: M.idempotencyKeyRequired });
    expect(await s.saveOrder(orderBody({ idempotency_key: 'not-a-uuid' }))).toMatchObject({ status: 400 });
    expect(await s.saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }] }), { 'idempotency-key': randomUUID() })).toMatchObject({ status: 400, result: M.idempotencyKeyConflict });
    expect(await s.saveOrder(orderBody({ personal_details: { firstName: 'A' } }))).toMatchObject({ status: 400 });
    // The checkout form's field rules (packages/domain/src/forms.ts) hold on the server too.
    const person = { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' };
    expect(await s.saveOrder(orderBody({ personal_details: { ...person, lastName: 'R' } }))).toMatchObject({ status: 400, result: 'lastName: Name must have at least 2 letters' });
    expect(await s.saveOrder(orderBody({ personal_details: { ...person, firstName: 'Ana5' } }))).toMatchObject({ status: 400, result: 'firstName: Accepts only alphabet characters' });
    expect(await s.saveOrder(orderBody({ personal_details: { ...person, emailAddress: 'ana@' } }))).toMatchObject({ status: 400, result: 'emailAddress: Please provide valid e-mail address.' });
    expect(await s.saveOrder(orderBody({ order_type: 'delivery', products: [{ sku: JAR, qty: 1 }] }))).toMatchObject({ status: 400, result: M.deliveryAddressRequired });
    expect(await s.saveOrder(orderBody({ products: [] }))).toMatchObject({ status: 400, result: M.emptyCart });
    expect(await s.saveOrder(orderBody({ cart_id: 'DDDDDDDDDDDDDDDDDDDDDDDD' }))).toMatchObject({ status: 404 });
  });

  it('prices a tampered offline order from the server', async () => {
    const s = new Shopper(app);
    const r = await s.saveOrder(orderBody({ products: [{ sku: ROSIN, qty: 1, price: 1, price_incl_tax: 1, row_total: 1, name: 'free' }], cart_id: 'EEEEEEEEEEEEEEEEEEEEEEEE' }));
    expect(r.status).toBe(200);
    // $35.00 + $5.25 excise + $3.52 sales tax.
    expect(r.result).toMatchObject({ subtotal: 3500, excise_taxes: 525, sales_taxes: 352, total: 4377, items: [{ sku: ROSIN, price: 3500, qty: 1 }] });
    expect((await db().selectFrom('orders').select('total_cents').where('id', '=', r.result.order_id).executeTakeFirstOrThrow()).total_cents).toBe(4377);
  });

  it('re-checks licence mixing, the purchase limit, the coupon and the points', async () => {
    const s = new Shopper(app);
    expect(await s.saveOrder(orderBody({ products: [{ sku: 'ED-POMEGRANATE-GUMMIES-500-MG', qty: 1 }] }))).toMatchObject({ status: 400, result: M.licenseMix });
    await pin(db(), 1, 'FL-BLUE-DREAM-OZ', { price: 31400, stock: 280 });
    expect(await s.saveOrder(orderBody({ products: [{ sku: 'FL-BLUE-DREAM-OZ', qty: 1 }, { sku: 'FL-BLUE-DREAM', size: 91, qty: 1 }] }))).toMatchObject({
      status: 400,
      result: 'Your cart contains 0.5 g more cannabis than can be in a single order. Please remove 0.5 g from your cart.',
    });
    expect(await s.saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }], coupon: 'NOPE' }))).toMatchObject({ status: 400, result: M.incorrectCoupon });
    expect(await s.saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }], credits: 5 }))).toMatchObject({ status: 400, result: M.notEnoughPoints(0) });
    expect(await s.saveOrder(orderBody({ products: [{ sku: 'NO-SUCH-SKU', qty: 1 }] }))).toMatchObject({ status: 409, result: M.productsNotAvailable });
    const medical = await s.saveOrder(orderBody({ license_type: 'medical', products: [{ sku: 'ED-POMEGRANATE-GUMMIES-500-MG', qty: 1 }] }));
    // Accounts: a guest cannot order a medical-only product (users/accounts.test.ts covers the card path).
    expect(medical).toMatchObject({ status: 400, result: expect.stringMatching(/logged-in customers/) });
  });

  it('delivers within the radius for the delivery price, and refuses an address too far away', async () => {
    const s = new Shopper(app);
    // Measured from the ZIP code's centre (95814: 0.14 mi from the store), whatever lat/lng say.
    const near = await s.saveOrder(orderBody({ order_type: 'delivery', shipping_address: NEAR, products: [{ sku: ROSIN, qty: 1 }] }));
    expect(near).toMatchObject({ status: 200, result: { shipping: 500, total: 4877, delivery_distance: 0.14 } });
    const far = await s.saveOrder(orderBody({ order_type: 'delivery', shipping_address: { ...NEAR, city: 'Oakland', zip: '94607' }, products: [{ sku: ROSIN, qty: 1 }] }));
    expect(far).toMatchObject({ status: 400, result: expect.stringMatching(/^ZIP 94607 is \d+\.\d+ miles from the store, outside its 10-mile delivery area/) });
  });

  it('counts a coupon with a use limit only as often as allowed', async () => {
    const iso = new Date().toISOString();
    await db().insertInto('coupons').values({ code: 'TWICE', store_id: null, type: 'fixed', discount_percent: null, discount_cents: 100, description: null, active: 1, from_date: null, to_date: null, max_uses: 2, times_used: 0, created_at: iso, updated_at: iso }).execute();
    const s = new Shopper(app);
    const place = () => s.saveOrder(orderBody({ coupon: 'twice', products: [{ sku: JAR, qty: 1 }] }));
    const answers = await Promise.all([place(), place(), place(), place()]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 400).map((a) => a.result)).toEqual([M.incorrectCoupon, M.incorrectCoupon]);
    expect((await db().selectFrom('coupons').select('times_used').where('code', '=', 'TWICE').executeTakeFirstOrThrow()).times_used).toBe(2);
  });

  describe('concurrency', () => {
    it('sells the last unit exactly once to many concurrent orders', async () => {
      await pin(db(), 1, 'AC-BAMBOO-ROLLING-TRAY', { price: 1500, special: null, tiers: [], stock: 1 });
      const before = await orderCount();
      const s = new Shopper(app);
      const answers = await Promise.all(Array.from({ length: 12 }, () => s.saveOrder(orderBody({ products: [{ sku: 'AC-BAMBOO-ROLLING-TRAY', qty: 1 }] }))));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      const refused = answers.filter((a) => a.status !== 200);
      expect(refused).toHaveLength(11);
      for (const a of refused) expect(a).toMatchObject({ status: 409, code: 409, result: 'Some of the ordered products are not available!' });
      expect(await stockQty(db(), 1, 'AC-BAMBOO-ROLLING-TRAY')).toBe(0);
      expect(await orderCount()).toBe(before + 1);
      const stock = await db().selectFrom('stock').innerJoin('products', 'products.id', 'stock.product_id').select('stock.is_in_stock').where('products.sku', '=', 'AC-BAMBOO-ROLLING-TRAY').where('products.store_id', '=', 1).executeTakeFirstOrThrow();
      expect(stock.is_in_stock).toBe(0);
    });

    it('takes a sold-out product off the listings right after the order', async () => {
      const sku = 'AC-BLACK-CERAMIC-STASH-JAR';
      const id = await pin(db(), 1, sku, { stock: 1 });
      await app.catalog.catalogChanged(1, [id]);
      const listed = async () => {
        const res = await app.inject({ url: '/api/catalog/products?text=ceramic%20stash%20jar&size=50', headers: { host: 'downtown.localhost' } });
        return (res.json().result.items as { sku: string }[]).some((i) => i.sku === sku);
      };
      expect(await listed()).toBe(true);
      const placed = await new Shopper(app).saveOrder(orderBody({ products: [{ sku, qty: 1 }] }));
      expect(placed.status).toBe(200);
      const deadline = Date.now() + 1000;
      while ((await listed()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await listed()).toBe(false);
      await pin(db(), 1, sku, { stock: 500 });
      await app.catalog.catalogChanged(1, [id]);
    });

    it('never oversells gram stock: 7 g left, eight orders of 3.5 g × 1', async () => {
      await pin(db(), 1, EIGHTH, { stock: 7 });
      const s = new Shopper(app);
      const answers = await Promise.all(Array.from({ length: 8 }, () => s.saveOrder(orderBody({ products: [{ sku: 'FL-BLUE-DREAM', size: 92, qty: 1 }] }))));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
      expect(await stockQty(db(), 1, EIGHTH)).toBe(0);
      await pin(db(), 1, EIGHTH, { stock: 350 });
    });

    it('places one order for concurrent duplicates of one key', async () => {
      const before = await orderCount();
      const s = new Shopper(app);
      const body = orderBody({ products: [{ sku: JAR, qty: 1 }] });
      const answers = await Promise.all(Array.from({ length: 10 }, () => s.saveOrder(body)));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(new Set(answers.map((a) => a.result.increment_id)).size).toBe(1);
      expect(await orderCount()).toBe(before + 1);
      expect(await db().selectFrom('idempotency_keys').select('status').where('key', '=', body.idempotency_key as string).execute()).toEqual([{ status: 'completed' }]);
    });

    it('places one order for concurrent orders of one cart', async () => {
      const s = new Shopper(app);
      await s.createCart();
      await s.update({ sku: JAR, qty: 1 });
      const answers = await Promise.all(Array.from({ length: 5 }, () => s.saveOrder(orderBody({ cart_id: s.token }))));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 400).every((a) => a.result === M.emptyCart)).toBe(true);
    });
  });
});
