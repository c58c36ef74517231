import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DELIVERY_MESSAGES } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { CART_MESSAGES as M } from './messages.ts';
import { catalogChanged, commerceApp, pin, REFERENCE_DATE, Shopper } from '../../test-support/cart/testing.ts';

const ROSIN = 'CN-JACK-HERER-LIVE-ROSIN-1-G'; // cannabis: tax class 2 (excise + sales)
const JAR = 'AC-BLACK-CERAMIC-STASH-JAR'; // accessory: tax class 4 (sales only), canna_type 4

const segments = (r: { total_segments: { code: string; value: number }[] }) => Object.fromEntries(r.total_segments.map((s) => [s.code, s.value]));

describeEachDatabase('cart totals, shipping, payment and coupons', (getDb) => {
  let app: FastifyInstance;
  const db = () => getDb().db;
  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(db(), 1, ROSIN, { price: 3500, special: null, tiers: [], stock: 100 });
    await pin(db(), 1, JAR, { price: 2699, special: null, tiers: [], stock: 100 });
    const iso = REFERENCE_DATE.toISOString();
    const coupon = { type: 'percent' as const, discount_percent: 10, discount_cents: null, description: null, active: 1 as const, from_date: null, to_date: null, max_uses: null, times_used: 0, created_at: iso, updated_at: iso };
    await db().insertInto('coupons').values([
      { ...coupon, code: 'OFFLINE', store_id: null, active: 0 },
      { ...coupon, code: 'SOON', store_id: null, from_date: '2026-07-01T00:00:00.000Z' },
      { ...coupon, code: 'GONE', store_id: null, to_date: '2026-06-14' },
      { ...coupon, code: 'EASTONLY', store_id: 2 },
      { ...coupon, code: 'ONCE', store_id: null, max_uses: 1, times_used: 1 },
    ]).execute();
  });
  afterAll(async () => app?.close());

  it('itemises excise and sales tax, sales tax on top of excise (checked by hand)', async () => {
    const s = new Shopper(app);
    await s.createCart();
    await s.update({ sku: ROSIN, qty: 1 });
    // $35.00: excise 15 % = $5.25; sales 8.75 % of $40.25 = $3.521875 → $3.52; total $43.77.
    let t = (await s.totals()).result;
    expect(segments(t)).toEqual({ subtotal: 3500, discount: 0, excise_taxes: 525, sales_taxes: 352, shipping: 0, total: 4377, thc_equivalent_grams: 3.5 });
    expect(t).toMatchObject({ grand_total: 4377, base_currency_code: 'USD', amounts_in: 'cents', over_limit: false, over_limit_message: null });
    expect(t.items[0]).toMatchObject({ sku: ROSIN, price: 3500, row_total: 3500, excise_tax_amount: 525, sales_tax_amount: 352, row_total_incl_tax: 4377 });

    // An accessory pays sales tax only: 8.75 % of $26.99 = $2.3616… → $2.36.
    await s.update({ sku: JAR, qty: 1 });
    t = (await s.totals()).result;
    expect(segments(t)).toMatchObject({ subtotal: 6199, excise_taxes: 525, sales_taxes: 588, total: 7312, thc_equivalent_grams: 3.5 });
    expect(t.items[1]).toMatchObject({ sku: JAR, excise_tax_amount: 0, sales_tax_amount: 236, thc_equivalent_grams: 0 });

    // WELCOME10: $6.199 → $6.20 off, spread 350 / 270; taxes on what is left:
    // rosin 3150 → excise 472.5 → 473, sales 8.75 % of 3623 = 317.01 → 317; jar 2429 → sales 212.54 → 213.
    expect(await s.call('POST', `/api/cart/apply-coupon?cartId=${s.token}&coupon=welcome10`)).toMatchObject({ status: 200, result: true });
    t = (await s.totals()).result;
    expect(segments(t)).toMatchObject({ subtotal: 6199, discount: 620, excise_taxes: 473, sales_taxes: 530, total: 6582 });
    expect(t.coupon_code).toBe('WELCOME10');
    expect(t.items.map((i: { discount_amount: number }) => i.discount_amount)).toEqual([350, 270]);

    // Delivery adds its price including tax.
    const delivery = await s.call('POST', `/api/cart/collect-totals?cartId=${s.token}`, { methods: { shippingMethodCode: 'delivery', shippingCarrierCode: 'delivery', paymentMethod: { method: 'cashondelivery' } } });
    expect(segments(delivery.result)).toMatchObject({ shipping: 500, total: 7082 });
    expect(await s.call('POST', `/api/cart/delete-coupon?cartId=${s.token}`)).toMatchObject({ status: 200, result: true });
    expect((await s.totals()).result).toMatchObject({ coupon_code: null, grand_total: 7812 });
  });

  it('uses the store’s own rates (Oakland 10.25 %)', async () => {
    const row = await db()
      .selectFrom('products')
      .select('sku')
      .where('store_id', '=', 4)
      .where('type_id', '=', 'simple')
      .where('parent_id', 'is', null)
      .where('tax_class_id', '=', 2)
      .where('license_type', '=', 'both')
      .where('canna_type', 'in', [3, 5])
      .orderBy('sku')
      .executeTakeFirstOrThrow();
    await pin(db(), 4, row.sku, { price: 3500, special: null, tiers: [], stock: 100, status: 1 });
    const s = new Shopper(app, 'harbor.localhost');
    await s.createCart();
    expect((await s.update({ sku: row.sku, qty: 2 })).status).toBe(200);
    // $70: excise $10.50; sales 10.25 % of $80.50 = $8.25125 → $8.25.
    expect(segments((await s.totals()).result)).toMatchObject({ subtotal: 7000, excise_taxes: 1050, sales_taxes: 825, total: 8875 });
  });

  it('flags a cart that is over the limit (the store lowered it after the items were added)', async () => {
    const s = new Shopper(app);
    await s.createCart();
    await pin(db(), 1, 'FL-BLUE-DREAM-OZ', { price: 31400, stock: 280 });
    const cart = await db().selectFrom('carts').select('id').where('token', '=', s.token).executeTakeFirstOrThrow();
    const iso = REFERENCE_DATE.toISOString();
    await db().insertInto('cart_items').values({ cart_id: cart.id, sku: 'FL-BLUE-DREAM-OZ', parent_sku: 'FL-BLUE-DREAM', qty: 2, size: 95, product_option: null, created_at: iso, updated_at: iso }).execute();
    const t = (await s.totals()).result;
    expect(t).toMatchObject({ over_limit: true, over_limit_message: 'Your cart contains 27.5 g more cannabis than can be in a single order. Please remove 27.5 g from your cart.' });
    expect(segments(t).thc_equivalent_grams).toBe(56);
    // Making it smaller is always allowed, even while still over.
    const [line] = (await s.pull()).result;
    expect((await s.update({ item_id: line.item_id, qty: 1 })).status).toBe(200);
    expect((await s.totals()).result.over_limit).toBe(false);
  });

  it('lists pickup (default, free) and delivery (4, 5 incl. tax), and cash on delivery', async () => {
    const s = new Shopper(app);
    await s.createCart();
    const methods = await s.call('GET', `/api/cart/shipping-methods?cartId=${s.token}`);
    expect(methods.result).toEqual([
      expect.objectContaining({ method_code: 'pickup', method_title: 'Pickup', fees: 0, price_incl_tax: 0, default: true, selected: true }),
      expect.objectContaining({ method_code: 'delivery', method_title: 'Delivery', fees: 400, price_incl_tax: 500, default: false, selected: false }),
    ]);
    await s.update({ sku: JAR, qty: 1 });
    expect((await s.call('GET', `/api/cart/payment-methods?cartId=${s.token}`)).result).toEqual([
      expect.objectContaining({ code: 'cashondelivery', cost: 0, cost_incl_tax: 0 }),
    ]);
    expect(await s.call('GET', '/api/cart/shipping-methods?cartId=CCCCCCCCCCCCCCCCCCCCCCCC')).toMatchObject({ status: 404 });
  });

  it('hides cash on delivery when every item is virtual', async () => {
    const id = await pin(db(), 1, 'AC-BAMBOO-ROLLING-TRAY', { price: 1500, stock: 10 });
    await db().updateTable('products').set({ type_id: 'virtual' }).where('id', '=', id).execute();
    await catalogChanged(db(), 1, [id]);
    const s = new Shopper(app);
    await s.createCart();
    await s.update({ sku: 'AC-BAMBOO-ROLLING-TRAY', qty: 1 });
    expect((await s.call('GET', `/api/cart/payment-methods?cartId=${s.token}`)).result).toEqual([]);
    await s.update({ sku: JAR, qty: 1 });
    expect((await s.call('GET', `/api/cart/payment-methods?cartId=${s.token}`)).result).toHaveLength(1);
    await db().updateTable('products').set({ type_id: 'simple' }).where('id', '=', id).execute();
    await catalogChanged(db(), 1, [id]);
  });

  it('measures the delivery distance from the ZIP code and refuses an address beyond the radius', async () => {
    const s = new Shopper(app);
    await s.createCart();
    await s.update({ sku: ROSIN, qty: 1 });
    const info = (zip: string, code = 'delivery') =>
      s.call('POST', `/api/cart/shipping-information?cartId=${s.token}`, {
        addressInformation: { shippingAddress: { lat: 38.5906, lng: -121.4944, city: 'Sacramento', zip, address: '1 J St', apt_ste: '' }, shipping_method_code: code },
      });
    const near = await info('95814'); // the ZIP's centre is 0.14 mi from the store
    expect(near.result).toMatchObject({ shipping_method: 'delivery', distance: 0.14, too_far: false });
    expect(segments(near.result.totals)).toMatchObject({ shipping: 500, total: 4877 });
    const oakland = await info('94607');
    expect(oakland).toMatchObject({ status: 400, result: expect.stringMatching(/^ZIP 94607 is (6\d|7\d)\.\d+ miles from the store, outside its 10-mile delivery area/) });
    const pickup = await info('94607', 'pickup');
    expect(pickup.result).toMatchObject({ shipping_method: 'pickup', too_far: false });
    expect(segments(pickup.result.totals).shipping).toBe(0);
    const noPlace = await s.call('POST', `/api/cart/shipping-information?cartId=${s.token}`, { addressInformation: { shipping_method_code: 'delivery' } });
    expect(noPlace).toMatchObject({ status: 400, result: DELIVERY_MESSAGES.zipRequired });
    expect(await s.call('POST', `/api/cart/shipping-information?cartId=${s.token}`, { addressInformation: { shipping_method_code: 'drone' } })).toMatchObject({ status: 400 });
  });

  it.each([
    ['an unknown code', 'NOPE', 'downtown'],
    ['an inactive coupon', 'OFFLINE', 'downtown'],
    ['a coupon before its window', 'SOON', 'downtown'],
    ['a coupon after its window', 'GONE', 'downtown'],
    ['a coupon of another store', 'EASTONLY', 'downtown'],
    ['a used-up coupon', 'ONCE', 'downtown'],
    ['an empty code', '', 'downtown'],
  ])('refuses %s with the spec’s message', async (_what, code, store) => {
    const s = new Shopper(app, `${store}.localhost`);
    await s.createCart();
    const r = await s.call('POST', `/api/cart/apply-coupon?cartId=${s.token}&coupon=${code}`);
    expect(r).toMatchObject({ status: 400, code: 400, result: "You've entered an incorrect coupon code. Please try again." });
    expect((await s.totals()).result.coupon_code).toBeNull();
  });

  it('accepts a store coupon in its own store and a fixed coupon', async () => {
    const east = new Shopper(app, 'eastside.localhost');
    await east.createCart();
    expect((await east.call('POST', `/api/cart/apply-coupon?cartId=${east.token}&coupon=EASTONLY`)).status).toBe(200);
    const s = new Shopper(app);
    await s.createCart();
    await s.update({ sku: JAR, qty: 1 });
    await s.call('POST', `/api/cart/apply-coupon?cartId=${s.token}&coupon=GREEN5`);
    // $26.99 − $5 = $21.99; sales 8.75 % = $1.924… → $1.92.
    expect(segments((await s.totals()).result)).toMatchObject({ subtotal: 2699, discount: 500, sales_taxes: 192, total: 2391 });
  });
});
