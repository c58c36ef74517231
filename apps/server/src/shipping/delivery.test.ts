/**
 * Integration, both databases: the server decides whether an address gets a delivery from its
 * ZIP code (issue 10: an order from a Sacramento store to ZIP 10001, New York, was accepted
 * because the browser sent Sacramento's coordinates). Checked at shipping-information and at
 * order save; coordinates and a distance the client sends change nothing.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DELIVERY_MESSAGES } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, orderBody, pin, Shopper } from '../../test-support/cart/testing.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
/** The downtown store's own coordinates (stores.demo.json), as a forging client would send them. */
const AT_THE_STORE = { lat: 38.5816, lng: -121.4944, distance: 0 };
const NEW_YORK = { ...AT_THE_STORE, city: 'New York', zip: '10001', address: '350 5th Ave', apt_ste: null };
const SACRAMENTO = { city: 'Sacramento', zip: '95816', address: '2801 J St', apt_ste: null };

describeEachDatabase('delivery decided from the address', (getDb) => {
  let app: FastifyInstance;
  const db = () => getDb().db;
  const orders = async () => Number((await db().selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(db(), 1, JAR, { price: 2699, stock: 500 });
  });
  afterAll(async () => app?.close());

  const shippingInformation = (s: Shopper, shippingAddress: Record<string, unknown>) =>
    s.call('POST', `/api/cart/shipping-information?cartId=${s.token}`, { addressInformation: { shippingAddress, shipping_method_code: 'delivery' } });

  it('refuses ZIP 10001 at shipping-information, whatever coordinates come with it, and keeps the cart on pickup', async () => {
    const s = new Shopper(app);
    await s.createCart();
    await s.update({ sku: JAR, qty: 1 });
    const r = await shippingInformation(s, NEW_YORK);
    expect(r).toMatchObject({ status: 400, code: 400, result: expect.stringMatching(/^ZIP 10001 is 2\d{3}\.\d+ miles from the store, outside its 10-mile delivery area\. Choose pickup/) });
    const cart = await db().selectFrom('carts').select('order_type').where('token', '=', s.token).executeTakeFirstOrThrow();
    expect(cart.order_type).toBe('pickup');
    expect((await s.totals()).result.shipping_incl_tax).toBe(0);
  });

  it('refuses ZIP 10001 at order save, from the cart and on the offline path', async () => {
    const before = await orders();
    const s = new Shopper(app);
    await s.createCart();
    await s.update({ sku: JAR, qty: 1 });
    const fromCart = await s.saveOrder(orderBody({ cart_id: s.token, order_type: 'delivery', shipping_address: NEW_YORK }));
    expect(fromCart).toMatchObject({ status: 400, result: expect.stringMatching(/^ZIP 10001 is .* outside its 10-mile delivery area/) });
    const offline = await s.saveOrder(orderBody({ order_type: 'delivery', shipping_address: NEW_YORK, products: [{ sku: JAR, qty: 1 }] }));
    expect(offline).toMatchObject({ status: 400, result: expect.stringMatching(/^ZIP 10001 is /) });
    expect(await orders()).toBe(before);
    expect((await s.pull()).result).toMatchObject([{ sku: JAR, qty: 1 }]);
  });

  it('accepts a Sacramento ZIP at both points and measures from the ZIP, not from what the client sent', async () => {
    const s = new Shopper(app);
    await s.createCart();
    await s.update({ sku: JAR, qty: 1 });
    // Oakland's coordinates and a made-up distance with a Sacramento ZIP: the ZIP decides.
    const forged = { ...SACRAMENTO, lat: 37.8044, lng: -122.2712, distance: 99 };
    const info = await shippingInformation(s, forged);
    expect(info).toMatchObject({ status: 200, result: { shipping_method: 'delivery', distance: 1.58, too_far: false } });
    const order = await s.saveOrder(orderBody({ cart_id: s.token, order_type: 'delivery', shipping_address: forged }));
    expect(order).toMatchObject({ status: 200, result: { shipping: 500, delivery_distance: 1.58 } });
    const row = await db().selectFrom('orders').select('shipping_address').where('id', '=', order.result.order_id).executeTakeFirstOrThrow();
    // Stored as the server placed it: the client's coordinates are not kept.
    expect(JSON.parse(row.shipping_address!)).toEqual({ ...SACRAMENTO, distance: 1.58 });
    // Without any coordinates at all (a browser that only has the address).
    const plain = await s.saveOrder(orderBody({ order_type: 'delivery', shipping_address: SACRAMENTO, products: [{ sku: JAR, qty: 1 }] }));
    expect(plain).toMatchObject({ status: 200, result: { delivery_distance: 1.58 } });
  });

  it('refuses an unknown or malformed ZIP with a clear message at both points', async () => {
    const s = new Shopper(app);
    await s.createCart();
    await s.update({ sku: JAR, qty: 1 });
    expect(await shippingInformation(s, { ...SACRAMENTO, zip: '00000' })).toMatchObject({ status: 400, result: DELIVERY_MESSAGES.unknownZip('00000') });
    expect(await shippingInformation(s, { ...SACRAMENTO, zip: 'nine' })).toMatchObject({ status: 400, result: DELIVERY_MESSAGES.zipRequired });
    const unknown = await s.saveOrder(orderBody({ order_type: 'delivery', shipping_address: { ...SACRAMENTO, zip: '00000' }, products: [{ sku: JAR, qty: 1 }] }));
    expect(unknown).toMatchObject({ status: 400, result: DELIVERY_MESSAGES.unknownZip('00000') });
  });

  it('measures from each store’s own place and radius (eastside: 8 miles from Folsom Boulevard)', async () => {
    const east = new Shopper(app, 'eastside.localhost');
    await east.createCart();
    const near = await east.call('POST', `/api/cart/shipping-information?cartId=${east.token}`, { addressInformation: { shippingAddress: SACRAMENTO, shipping_method_code: 'delivery' } });
    expect(near).toMatchObject({ status: 200, result: { too_far: false } });
    const oakland = await east.call('POST', `/api/cart/shipping-information?cartId=${east.token}`, {
      addressInformation: { shippingAddress: { ...SACRAMENTO, zip: '94607', lat: 38.5556, lng: -121.4383 }, shipping_method_code: 'delivery' },
    });
    expect(oakland).toMatchObject({ status: 400, result: expect.stringMatching(/^ZIP 94607 is \d+\.\d+ miles from the store, outside its 8-mile delivery area/) });
  });
});
