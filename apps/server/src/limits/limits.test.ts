/**
 * Purchase-limit buckets on the server (issue 14) on SQLite and PostgreSQL: the California preset
 * (28.5 g of flower and 8 g of concentrate per customer per day) enforced at cart update and again at
 * order save with the bucket named; a day window across midnight in the store's time zone; a
 * medical and a recreational order of one customer on the same day; a guest counted per order; the
 * licence holder's stores sharing the count; cancelled orders not counted; a non-resident held to
 * the non-resident caps (Illinois); and today's per-order limit unchanged for a store without a model.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMIT_PRESETS } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { bearer, catalogChanged, commerceApp, loginCustomer, orderBody, pin, REFERENCE_DATE } from '../../test-support/cart/testing.ts';
import { LIMITS } from './section.ts';

const ROSIN = 'CN-JACK-HERER-LIVE-ROSIN-1-G';
const EIGHTH = 'FL-BLUE-DREAM-8TH';
const QUARTER = 'FL-BLUE-DREAM-QTR';
const ACTOR = { type: 'cli' as const, name: 'limits test' };

describeEachDatabase('purchase-limit buckets', (getDb) => {
  let app: FastifyInstance;
  let now = REFERENCE_DATE;
  const db = () => getDb().db;

  async function call(
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
    host = 'downtown.localhost',
  ) {
    const res = await app.inject({
      method,
      url,
      headers: { host, ...headers },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    return { status: res.statusCode, ...(res.json() as { code: number; result: any; errorCode?: string; meta?: any }) };
  }

  /** A shopper (guest, or a customer's token) with a fresh cart of `license`. */
  async function shopper(token: string | null, license: 'recreational' | 'medical' = 'recreational', host = 'downtown.localhost') {
    const auth = token ? bearer(token) : {};
    const cart = await call('POST', '/api/cart/create', { license_type: license }, auth, host);
    expect(cart.status).toBe(200);
    const id = cart.result as string;
    return {
      add: (sku: string, qty: number, extra: Record<string, unknown> = {}) =>
        call('POST', `/api/cart/update?cartId=${id}`, { cartItem: { quoteId: id, sku, qty }, ...extra }, auth, host),
      order: (extra: Record<string, unknown> = {}) =>
        call('POST', '/api/order/save', orderBody({ cart_id: id, license_type: license, ...extra }), auth, host),
    };
  }

  async function setLimits(storeId: number, value: unknown) {
    const current = await app.storeSettings.get(storeId, LIMITS);
    await app.storeSettings.save(storeId, LIMITS, value, current.version, ACTOR);
  }

  async function productIds(storeId: number, skus: string[]) {
    const rows = await db().selectFrom('products').select(['id', 'sku']).where('store_id', '=', storeId).where('sku', 'in', skus).execute();
    return new Map(rows.map((r) => [r.sku, r.id]));
  }

  beforeAll(async () => {
    app = await commerceApp(getDb(), () => now);
    for (const storeId of [1, 2, 4]) {
      // Eastside (2) is only used for today's per-order limit, on flower.
      const skus = storeId === 2 ? [EIGHTH] : [ROSIN, EIGHTH, QUARTER];
      const ids = await productIds(storeId, skus);
      expect([...ids.keys()].sort()).toEqual(skus.sort());
      for (const sku of ids.keys())
        await pin(db(), storeId, sku, { price: 1000, special: null, tiers: [], stock: 5000, manageStock: true });
      // The menu's fields: one gram of concentrate per rosin package; every product for both licence types.
      if (ids.has(ROSIN)) {
        await db()
          .deleteFrom('product_attribute_values')
          .where('product_id', '=', ids.get(ROSIN)!)
          .where('attribute_code', '=', 'concentrate_grams')
          .execute();
        await db()
          .insertInto('product_attribute_values')
          .values({ product_id: ids.get(ROSIN)!, attribute_code: 'concentrate_grams', value: '1' })
          .execute();
      }
      await db()
        .updateTable('products')
        .set({ license_type: 'both' })
        .where('id', 'in', [...ids.values()])
        .execute();
      const parents = await db()
        .selectFrom('products')
        .select('id')
        .where('store_id', '=', storeId)
        .where('sku', '=', 'FL-BLUE-DREAM')
        .execute();
      await db()
        .updateTable('products')
        .set({ license_type: 'both' })
        .where(
          'id',
          'in',
          parents.map((p) => p.id),
        )
        .execute();
      await catalogChanged(db(), storeId, [...ids.values(), ...parents.map((p) => p.id)]);
    }
    await setLimits(1, { preset: 'CA', model: LIMIT_PRESETS.CA.model, licence_holder: 'Verdant Holdings' });
  });
  afterAll(async () => app?.close());

  it('keeps today’s per-order limit where the store has no model of its own (spec §8 message)', async () => {
    now = new Date('2026-06-20T19:00:00.000Z');
    const s = await shopper(null, 'recreational', 'eastside.localhost');
    expect((await app.storeSettings.get(2, LIMITS)).source).toBe('stores-file');
    // Eastside: 28.5 g per order; 8 eighths are 28 g, a ninth makes 31.5 g: 3 g over.
    expect(await s.add(EIGHTH, 8)).toMatchObject({ status: 200 });
    const over = await s.add(EIGHTH, 1);
    expect(over).toMatchObject({
      status: 400,
      result: 'Your cart contains 3 g more cannabis than can be in a single order. Please remove 3 g from your cart.',
    });
  });

  it('California: 8 g of concentrate is accepted, one gram more is refused at cart update and at order save, naming the bucket', async () => {
    now = new Date('2026-06-16T19:00:00.000Z');
    const { token } = await loginCustomer(app, '(916) 555-3101');
    const s = await shopper(token);
    expect(await s.add(QUARTER, 1)).toMatchObject({ status: 200 });
    expect(await s.add(EIGHTH, 1)).toMatchObject({ status: 200 });
    expect(await s.add(ROSIN, 8)).toMatchObject({ status: 200 });
    const over = await s.add(ROSIN, 1);
    expect(over).toMatchObject({
      status: 400,
      errorCode: 'purchase_limit',
      result:
        'Your cart contains 1 g more concentrate than the concentrate limit of 8 g per day allows. To stay within it, remove 1 of the 9 Jack Herer Live Rosin 1 g from your cart.',
      meta: { violations: [{ bucket: 'concentrate', label: 'Concentrate', excess: 1 }], remove: [{ sku: ROSIN, qty: 1 }] },
    });
    // The offline path (lines in the order itself) meets the same check inside the order's transaction.
    const offline = await call(
      'POST',
      '/api/order/save',
      orderBody({
        license_type: 'recreational',
        products: [
          { sku: ROSIN, qty: 9 },
          { sku: QUARTER, qty: 1 },
        ],
      }),
      bearer(token),
    );
    expect(offline).toMatchObject({ status: 400, errorCode: 'purchase_limit', meta: { violations: [{ bucket: 'concentrate' }] } });
    expect(await s.order()).toMatchObject({ status: 200 });
    // The day's 8 g are used: one more gram today is refused, naming what earlier orders used.
    const again = await shopper(token);
    expect(await again.add(ROSIN, 1)).toMatchObject({
      status: 400,
      result:
        'Your earlier orders today already reach the concentrate limit of 8 g per day. Please remove the 1 g of concentrate from your cart.',
    });
    // Flower: 10.5 g ordered, 18 g more is exactly the 28.5 g cap.
    expect(await again.add(QUARTER, 2)).toMatchObject({ status: 200 });
    expect(await again.add(EIGHTH, 1)).toMatchObject({ status: 200 });
    expect(await again.add(EIGHTH, 1)).toMatchObject({
      status: 400,
      result: expect.stringContaining('the flower limit of 28.5 g per day'),
    });
  });

  it('a day window ends at midnight in the store’s time zone, not UTC', async () => {
    const phone = '(916) 555-3102';
    now = new Date('2026-06-18T06:30:00.000Z'); // 23:30 on 17 June in Los Angeles
    const first = await shopper((await loginCustomer(app, phone)).token);
    expect(await first.add(ROSIN, 5)).toMatchObject({ status: 200 });
    expect(await first.order()).toMatchObject({ status: 200 });
    now = new Date('2026-06-18T06:50:00.000Z'); // 23:50, still 17 June there (already 18 June in UTC)
    const token = (await loginCustomer(app, phone)).token;
    const late = await shopper(token);
    expect(await late.add(ROSIN, 4)).toMatchObject({ status: 400, meta: { violations: [{ bucket: 'concentrate', excess: 1 }] } });
    expect(await late.add(ROSIN, 3)).toMatchObject({ status: 200 });
    now = new Date('2026-06-18T07:10:00.000Z'); // 00:10 on 18 June there: a new day
    const next = await shopper((await loginCustomer(app, phone)).token);
    // The same open cart (3 g): 5 g more make the new day's 8 g.
    expect(await next.add(ROSIN, 5)).toMatchObject({ status: 200 });
    expect(await next.add(ROSIN, 1)).toMatchObject({ status: 400, meta: { violations: [{ bucket: 'concentrate', excess: 1 }] } });
    expect(await next.order()).toMatchObject({ status: 200 });
  });

  it('the order save counts an order placed after the cart was filled (checked again in the transaction)', async () => {
    now = new Date('2026-06-19T18:00:00.000Z');
    const { token } = await loginCustomer(app, '(916) 555-3103');
    const a = await shopper(token);
    expect(await a.add(ROSIN, 5)).toMatchObject({ status: 200 });
    // Meanwhile an order of 5 g from another device (its lines in the order itself).
    const other = await call(
      'POST',
      '/api/order/save',
      orderBody({ license_type: 'recreational', products: [{ sku: ROSIN, qty: 5 }] }),
      bearer(token),
    );
    expect(other).toMatchObject({ status: 200 });
    expect(await a.order()).toMatchObject({
      status: 400,
      errorCode: 'purchase_limit',
      meta: { violations: [{ bucket: 'concentrate', excess: 2 }] },
    });
  });

  it('a burst of parallel orders from one customer can’t together pass a per-day limit (lock before the check)', async () => {
    now = new Date('2026-06-21T18:00:00.000Z');
    const { token, customerId } = await loginCustomer(app, '(916) 555-3110');
    // 3 g of concentrate each: two fit in the day's 8 g, a third would make 9 g.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('POST', '/api/order/save', orderBody({ license_type: 'recreational', products: [{ sku: ROSIN, qty: 3 }] }), bearer(token)),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 400 && a.errorCode === 'purchase_limit')).toBe(true);
    const placed = await db().selectFrom('orders').select('id').where('customer_id', '=', customerId).execute();
    expect(placed).toHaveLength(2);
  });

  it('a medical and a recreational order of one customer on the same day count toward each other', async () => {
    now = new Date('2026-06-21T17:00:00.000Z');
    const { token } = await loginCustomer(app, '(916) 555-3104');
    // Medical: no recreational caps, so 20 g of concentrate is fine (the medical bucket is 8 oz).
    const med = await shopper(token, 'medical');
    expect(await med.add(ROSIN, 20)).toMatchObject({ status: 200 });
    expect(await med.order()).toMatchObject({ status: 200 });
    // The same day, recreational: the medical order's concentrate already passes the 8 g.
    const rec = await shopper(token, 'recreational');
    expect(await rec.add(ROSIN, 1)).toMatchObject({
      status: 400,
      result:
        'Your earlier orders today already reach the concentrate limit of 8 g per day. Please remove the 1 g of concentrate from your cart.',
    });
    expect(await rec.add(EIGHTH, 1)).toMatchObject({ status: 200 });
    expect(await rec.order()).toMatchObject({ status: 200 });
  });

  it('cancelled orders count toward nothing', async () => {
    now = new Date('2026-06-22T17:00:00.000Z');
    const { token, customerId } = await loginCustomer(app, '(916) 555-3105');
    const s = await shopper(token);
    await s.add(ROSIN, 8);
    const placed = await s.order();
    expect(placed).toMatchObject({ status: 200 });
    await db().updateTable('orders').set({ status: 'cancelled' }).where('customer_id', '=', customerId).execute();
    const again = await shopper(token);
    expect(await again.add(ROSIN, 8)).toMatchObject({ status: 200 });
  });

  it('a guest is counted per order only', async () => {
    now = new Date('2026-06-23T17:00:00.000Z');
    for (let i = 0; i < 2; i++) {
      const g = await shopper(null);
      expect(await g.add(ROSIN, 8)).toMatchObject({ status: 200 });
      expect(await g.add(ROSIN, 1)).toMatchObject({ status: 400, meta: { violations: [{ bucket: 'concentrate', excess: 1 }] } });
      expect(await g.order()).toMatchObject({ status: 200 });
    }
  });

  it('GET /api/cart/limits: a meter per bucket, the guest notice, and when over which bucket, by how much and what to remove', async () => {
    now = new Date('2026-06-23T18:00:00.000Z');
    const cart = await call('POST', '/api/cart/create', { license_type: 'recreational' });
    const id = cart.result as string;
    const add = (sku: string, qty: number) => call('POST', `/api/cart/update?cartId=${id}`, { cartItem: { quoteId: id, sku, qty } });
    expect(await add(QUARTER, 1)).toMatchObject({ status: 200 });
    expect(await add(EIGHTH, 1)).toMatchObject({ status: 200 });
    expect(await add(ROSIN, 8)).toMatchObject({ status: 200 });
    const read = await call('GET', `/api/cart/limits?cartId=${id}`);
    expect(read).toMatchObject({
      status: 200,
      result: {
        ok: true,
        needs_residency: false,
        meters: [
          { bucket: 'flower', label: 'Flower', cap: 28.5, used: 0, in_cart: 10.5, remaining: 18, over: false },
          { bucket: 'concentrate', label: 'Concentrate', cap: 8, used: 0, in_cart: 8, remaining: 0, over: false },
        ],
        violations: [],
        guest_notice: expect.stringContaining('counted for this order only'),
      },
    });
    // Over (the store lowered the cap after the cart was filled): named, by how much, what to remove.
    await setLimits(1, {
      preset: null,
      model: {
        ...LIMIT_PRESETS.CA.model,
        buckets: LIMIT_PRESETS.CA.model.buckets.map((b) => (b.id === 'concentrate' ? { ...b, caps: { ...b.caps, recreational: 6 } } : b)),
      },
      licence_holder: 'Verdant Holdings',
    });
    const over = await call('GET', `/api/cart/limits?cartId=${id}`);
    expect(over.result).toMatchObject({
      ok: false,
      violations: [{ bucket: 'concentrate', label: 'Concentrate', excess: 2 }],
      remove: [{ sku: ROSIN, qty: 2 }],
      message:
        'Your cart contains 2 g more concentrate than the concentrate limit of 6 g per day allows. To stay within it, remove 2 of the 8 Jack Herer Live Rosin 1 g from your cart.',
    });
    // Adding more to a cart that is over is refused.
    expect(await add(ROSIN, 1)).toMatchObject({ status: 400, errorCode: 'purchase_limit' });
    await setLimits(1, { preset: 'CA', model: LIMIT_PRESETS.CA.model, licence_holder: 'Verdant Holdings' });
    expect(await call('GET', '/api/cart/limits?cartId=' + id + '&residency=martian')).toMatchObject({ status: 400 });
  });

  it('GET /api/cart/totals: over_limit is the store’s model’s verdict, earlier orders counted', async () => {
    now = new Date('2026-06-26T17:00:00.000Z');
    const { token } = await loginCustomer(app, '(916) 555-3109');
    const cart = await call('POST', '/api/cart/create', { license_type: 'recreational' }, bearer(token));
    const id = cart.result as string;
    const totals = () => call('GET', `/api/cart/totals?cartId=${id}`, undefined, bearer(token));
    expect(
      await call('POST', `/api/cart/update?cartId=${id}`, { cartItem: { quoteId: id, sku: ROSIN, qty: 2 } }, bearer(token)),
    ).toMatchObject({
      status: 200,
    });
    expect((await totals()).result).toMatchObject({ over_limit: false, over_limit_message: null });
    // An order sent with its lines (the offline path) takes the day's 8 g: the cart is now over by its 2 g.
    const offline = await call(
      'POST',
      '/api/order/save',
      orderBody({ license_type: 'recreational', products: [{ sku: ROSIN, qty: 8 }] }),
      bearer(token),
    );
    expect(offline).toMatchObject({ status: 200 });
    expect((await totals()).result).toMatchObject({
      over_limit: true,
      over_limit_message:
        'Your earlier orders today already reach the concentrate limit of 8 g per day. Please remove the 2 g of concentrate from your cart.',
    });
  });

  it('stores of the same licence holder share the count when the model says so', async () => {
    now = new Date('2026-06-24T17:00:00.000Z');
    const phone = '(916) 555-3106';
    const downtown = await loginCustomer(app, phone);
    const harbor = await loginCustomer(app, phone, 'harbor.localhost');
    const s = await shopper(downtown.token);
    await s.add(ROSIN, 6);
    expect(await s.order()).toMatchObject({ status: 200 });
    // Harbor, not sharing (its own model, no holder): its own count.
    await setLimits(4, { preset: 'CA', model: LIMIT_PRESETS.CA.model, licence_holder: null });
    const h1 = await shopper(harbor.token, 'recreational', 'harbor.localhost');
    expect(await h1.add(ROSIN, 8)).toMatchObject({ status: 200 });
    // Both stores name the holder and share: the 6 g ordered downtown count at Harbor.
    const shared = {
      preset: 'CA',
      model: { ...LIMIT_PRESETS.CA.model, share_with_licence_holder: true },
      licence_holder: 'Verdant Holdings',
    };
    await setLimits(1, shared);
    await setLimits(4, shared);
    // Harbor's cart of 8 g is now 6 g over: more is refused, and so is the order.
    expect(await h1.add(ROSIN, 1)).toMatchObject({ status: 400, meta: { violations: [{ bucket: 'concentrate', excess: 7 }] } });
    expect(await h1.order()).toMatchObject({ status: 400, meta: { violations: [{ bucket: 'concentrate', excess: 6 }] } });
    await setLimits(1, { preset: 'CA', model: LIMIT_PRESETS.CA.model, licence_holder: 'Verdant Holdings' });
  });

  it('a burst of parallel orders for one person split across two stores that share a licence holder saves exactly what the shared limit allows (lock on holder + person)', async () => {
    now = new Date('2026-06-24T19:00:00.000Z');
    const phone = '(916) 555-3111';
    const downtown = await loginCustomer(app, phone);
    const harbor = await loginCustomer(app, phone, 'harbor.localhost');
    const shared = {
      preset: 'CA',
      model: { ...LIMIT_PRESETS.CA.model, share_with_licence_holder: true },
      licence_holder: 'Verdant Holdings',
    };
    await setLimits(1, shared);
    await setLimits(4, shared);
    try {
      // 5 g of concentrate each against the shared 8 g a day: one order fits, wherever it is placed (each
      // store's first order runs beside the other store's: without a lock across the stores both pass).
      const order = (host: string, token: string) =>
        call(
          'POST',
          '/api/order/save',
          orderBody({ license_type: 'recreational', products: [{ sku: ROSIN, qty: 5 }] }),
          bearer(token),
          host,
        );
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? order('downtown.localhost', downtown.token) : order('harbor.localhost', harbor.token))),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 400 && a.errorCode === 'purchase_limit')).toBe(true);
      const placed = await db()
        .selectFrom('orders')
        .select('id')
        .where('customer_id', 'in', [downtown.customerId, harbor.customerId])
        .execute();
      expect(placed).toHaveLength(1);
    } finally {
      await setLimits(4, { preset: 'CA', model: LIMIT_PRESETS.CA.model, licence_holder: null });
      await setLimits(1, { preset: 'CA', model: LIMIT_PRESETS.CA.model, licence_holder: 'Verdant Holdings' });
    }
  });

  describe('Illinois (residency)', () => {
    it('holds a non-resident to the non-resident caps and a resident to the resident caps', async () => {
      now = new Date('2026-06-25T17:00:00.000Z');
      await setLimits(4, { preset: 'IL', model: LIMIT_PRESETS.IL.model, licence_holder: null });
      const g = await shopper(null, 'recreational', 'harbor.localhost');
      // Concentrate: 5 g resident, 2.5 g non-resident. Residency not yet said: the stricter cap.
      expect(await g.add(ROSIN, 3)).toMatchObject({ status: 400, meta: { violations: [{ bucket: 'concentrate' }] } });
      expect(await g.add(ROSIN, 2)).toMatchObject({ status: 200 });
      expect(await g.order({ residency: 'non_resident' })).toMatchObject({ status: 200 });
      const r = await shopper(null, 'recreational', 'harbor.localhost');
      expect(await r.add(ROSIN, 2)).toMatchObject({ status: 200 });
      const offline = await call(
        'POST',
        '/api/order/save',
        orderBody({ license_type: 'recreational', residency: 'non_resident', products: [{ sku: ROSIN, qty: 3 }] }),
        {},
        'harbor.localhost',
      );
      expect(offline).toMatchObject({ status: 400, meta: { violations: [{ bucket: 'concentrate', excess: 0.5 }] } });
      const resident = await call(
        'POST',
        '/api/order/save',
        orderBody({ license_type: 'recreational', residency: 'resident', products: [{ sku: ROSIN, qty: 5 }] }),
        {},
        'harbor.localhost',
      );
      expect(resident).toMatchObject({ status: 200 });
      expect(
        await call(
          'POST',
          '/api/order/save',
          orderBody({ residency: 'martian', products: [{ sku: ROSIN, qty: 1 }] }),
          {},
          'harbor.localhost',
        ),
      ).toMatchObject({
        status: 400,
      });
    });
  });
});
