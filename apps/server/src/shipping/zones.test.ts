/**
 * Integration, both databases: delivery zones (issue 14). A store's zones (a ZIP list, a GeoJSON
 * polygon, a distance tier) decide from the address's ZIP code which fee the cart and the order
 * charge, refuse a cart under the zone's minimum with how much more it needs, make delivery free
 * from the zone's threshold, and refuse an address outside every zone with pickup offered.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZONE_MESSAGES, type DeliveryZones } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { CART_MESSAGES } from '../cart/messages.ts';
import { commerceApp, orderBody, pin, Shopper } from '../../test-support/cart/testing.ts';
import { ZONES_SECTION } from './zones.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR'; // 26.99, no cannabis tax
const address = (zip: string, city = 'Sacramento') => ({ city, zip, address: '2801 J St', apt_ste: null });
const fees = (fee: number, fee_incl_tax: number) => ({ fee, fee_incl_tax, eta_minutes: 45 });

/** Downtown (store 1, at 38.5816, -121.4944): Midtown by ZIP, West Sacramento by polygon, 10 miles around. */
const ZONES: DeliveryZones = {
  zones: [
    { type: 'zips', name: 'Midtown', ...fees(200, 250), minimum_order: 5000, free_over: 10000, zips: ['95816'] },
    {
      type: 'polygon',
      name: 'West Sacramento',
      ...fees(300, 350),
      minimum_order: 0,
      free_over: null,
      // ZIP centres 95691 (-121.5516, 38.5673) and 95605 (-121.5325, 38.5927) are inside; downtown is east of it.
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-121.6, 38.54],
            [-121.515, 38.54],
            [-121.515, 38.62],
            [-121.6, 38.62],
            [-121.6, 38.54],
          ],
        ],
      },
    },
    { type: 'distance', name: 'Metro', ...fees(400, 500), minimum_order: 0, free_over: null, min_miles: 0, max_miles: 10 },
  ],
};

describeEachDatabase('delivery zones', (getDb) => {
  let app: FastifyInstance;
  const db = () => getDb().db;
  const orders = async () =>
    Number(
      (
        await db()
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(db(), 1, JAR, { price: 2699, stock: 500 });
    await app.storeSettings.save(1, ZONES_SECTION, ZONES, 0, { type: 'cli', name: 'zones test' });
  });
  afterAll(async () => app?.close());

  const shopper = async (jars: number) => {
    const s = new Shopper(app);
    await s.createCart();
    await s.update({ sku: JAR, qty: jars });
    return s;
  };
  const shippingInformation = (s: Shopper, zip: string, city?: string) =>
    s.call('POST', `/api/cart/shipping-information?cartId=${s.token}`, {
      addressInformation: { shippingAddress: address(zip, city), shipping_method_code: 'delivery' },
    });
  const cartRow = (s: Shopper) =>
    db().selectFrom('carts').select(['order_type', 'delivery_zip']).where('token', '=', s.token).executeTakeFirstOrThrow();

  it('a ZIP-list zone: under its minimum refused with how much more is needed, at both points; the cart stays on pickup', async () => {
    const before = await orders();
    const s = await shopper(1);
    const r = await shippingInformation(s, '95816');
    expect(r).toMatchObject({
      status: 400,
      result: 'Delivery to Midtown needs an order of at least $50.00: add $23.01 more, or choose pickup.',
    });
    expect(await cartRow(s)).toEqual({ order_type: 'pickup', delivery_zip: null });
    expect((await s.totals()).result.shipping_incl_tax).toBe(0);
    const saved = await s.saveOrder(orderBody({ cart_id: s.token, order_type: 'delivery', shipping_address: address('95816') }));
    expect(saved).toMatchObject({ status: 400, result: ZONE_MESSAGES.belowMinimum(ZONES.zones[0], 2301) });
    const offline = await s.saveOrder(
      orderBody({ order_type: 'delivery', shipping_address: address('95816'), products: [{ sku: JAR, qty: 1 }] }),
    );
    expect(offline).toMatchObject({ status: 400, result: ZONE_MESSAGES.belowMinimum(ZONES.zones[0], 2301) });
    expect(await orders()).toBe(before);
  });

  it('a ZIP-list zone at its minimum: its fee in the cart totals and on the order', async () => {
    const s = await shopper(2); // 53.98 before tax
    const asPickup = (await s.totals()).result.grand_total;
    const r = await shippingInformation(s, '95816');
    expect(r).toMatchObject({
      status: 200,
      result: {
        shipping_method: 'delivery',
        too_far: false,
        zone: { name: 'Midtown', fee_incl_tax: 250, free: false, minimum_order: 5000, free_over: 10000, eta: 'about 45 min' },
      },
    });
    expect(r.result.totals.shipping_incl_tax).toBe(250);
    expect(await cartRow(s)).toEqual({ order_type: 'delivery', delivery_zip: '95816' });
    const totals = (await s.totals()).result;
    expect(totals.shipping_incl_tax).toBe(250);
    expect(totals.grand_total).toBe(asPickup + 250);
    const order = await s.saveOrder(orderBody({ cart_id: s.token, order_type: 'delivery', shipping_address: address('95816') }));
    expect(order).toMatchObject({ status: 200, result: { shipping: 250, total: asPickup + 250 } });
    const row = await db()
      .selectFrom('orders')
      .select(['shipping_cents', 'total_cents'])
      .where('id', '=', order.result.order_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ shipping_cents: 250, total_cents: asPickup + 250 });
  });

  it('free from the zone’s threshold, in the cart and on the order', async () => {
    const s = await shopper(4); // 107.96 before tax
    const asPickup = (await s.totals()).result.grand_total;
    const r = await shippingInformation(s, '95816');
    expect(r).toMatchObject({ status: 200, result: { zone: { name: 'Midtown', fee_incl_tax: 0, free: true } } });
    expect((await s.totals()).result.shipping_incl_tax).toBe(0);
    const order = await s.saveOrder(orderBody({ cart_id: s.token, order_type: 'delivery', shipping_address: address('95816') }));
    expect(order).toMatchObject({ status: 200, result: { shipping: 0, total: asPickup } });
  });

  it('a polygon zone contains its ZIP centres and is tried before the wider distance tier', async () => {
    const s = await shopper(1);
    const r = await shippingInformation(s, '95691', 'West Sacramento');
    expect(r).toMatchObject({ status: 200, result: { zone: { name: 'West Sacramento', fee_incl_tax: 350 } } });
    expect((await s.totals()).result.shipping_incl_tax).toBe(350);
    const order = await s.saveOrder(
      orderBody({ order_type: 'delivery', shipping_address: address('95605', 'West Sacramento'), products: [{ sku: JAR, qty: 1 }] }),
    );
    expect(order).toMatchObject({ status: 200, result: { shipping: 350 } });
    // Downtown's own ZIP: not in the list nor the polygon, within the 10-mile tier.
    const metro = await shippingInformation(s, '95818');
    expect(metro).toMatchObject({ status: 200, result: { zone: { name: 'Metro', fee_incl_tax: 500 } } });
    expect(await cartRow(s)).toEqual({ order_type: 'delivery', delivery_zip: '95818' });
    expect((await s.totals()).result.shipping_incl_tax).toBe(500);
  });

  it('an address outside every zone is refused with pickup offered, and the cart keeps its order type', async () => {
    const before = await orders();
    const s = await shopper(1);
    const r = await shippingInformation(s, '95670', 'Rancho Cordova');
    expect(r).toMatchObject({
      status: 400,
      result: 'We don’t deliver to ZIP 95670: it is outside this store’s delivery zones. Choose pickup or another address.',
    });
    expect(await cartRow(s)).toEqual({ order_type: 'pickup', delivery_zip: null });
    const methods = await s.call('GET', `/api/cart/shipping-methods?cartId=${s.token}`);
    expect(methods.result.map((m: { method_code: string; selected: boolean }) => [m.method_code, m.selected])).toEqual([
      ['pickup', true],
      ['delivery', false],
    ]);
    const saved = await s.saveOrder(orderBody({ cart_id: s.token, order_type: 'delivery', shipping_address: address('95670') }));
    expect(saved).toMatchObject({ status: 400, result: ZONE_MESSAGES.outsideZones('95670') });
    expect(await orders()).toBe(before);
    // Pickup, as offered: placed.
    const pickup = await s.saveOrder(orderBody({ cart_id: s.token, order_type: 'pickup' }));
    expect(pickup).toMatchObject({ status: 200, result: { shipping: 0 } });
  });

  it('no zones: the store offers pickup only and refuses delivery', async () => {
    // Wellness (store 3) delivers by its radius until its zones are emptied.
    const w = new Shopper(app, 'wellness.localhost');
    await w.createCart();
    const listed = async () =>
      (await w.call('GET', `/api/cart/shipping-methods?cartId=${w.token}`)).result.map((m: { method_code: string }) => m.method_code);
    expect(await listed()).toEqual(['pickup', 'delivery']);
    await app.storeSettings.save(3, ZONES_SECTION, { zones: [] }, 0, { type: 'cli', name: 'zones test' });
    expect(await listed()).toEqual(['pickup']);
    const r = await w.call('POST', `/api/cart/shipping-information?cartId=${w.token}`, {
      addressInformation: { shippingAddress: address('95816'), shipping_method_code: 'delivery' },
    });
    expect(r).toMatchObject({ status: 400, result: CART_MESSAGES.deliveryNotOffered });
  });
});
