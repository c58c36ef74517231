/**
 * Contract, both databases: a customer's cart and orders belong to that customer (issue 10).
 * Every cart and order route is called on customer B's cart, as B (each must work: the calls are
 * well formed) and as everyone else — another customer, a guest session, no token, B's cart id as
 * a bare Bearer, a forged token — and everyone else is refused (401/403/404: zero successes), with
 * B's cart and orders untouched afterwards. Guest carts keep working by their id alone.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { bearer, commerceApp, guestToken, loginCustomer, orderBody, pin, Shopper } from '../../test-support/cart/testing.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const ADDRESS = { city: 'Sacramento', zip: '95814', address: '900 J St', apt_ste: null };

interface Route {
  name: string;
  method: 'GET' | 'POST';
  url: (cart: string) => string;
  body?: (cart: string) => Record<string, unknown>;
}

/** Every route that takes a cart id, with a request its owner may make. */
const CART_ROUTES: Route[] = [
  { name: 'cart/pull', method: 'GET', url: (c) => `/api/cart/pull?cartId=${c}` },
  { name: 'cart/update (one line)', method: 'POST', url: (c) => `/api/cart/update?cartId=${c}`, body: (c) => ({ cartItem: { quoteId: c, sku: JAR, qty: 1 } }) },
  { name: 'cart/update (all lines)', method: 'POST', url: (c) => `/api/cart/update?cartId=${c}`, body: (c) => ({ cartItems: [{ quoteId: c, sku: JAR, qty: 3 }] }) },
  { name: 'cart/update (burn points)', method: 'POST', url: (c) => `/api/cart/update?cartId=${c}`, body: (c) => ({ cartItems: [{ quoteId: c, sku: JAR, qty: 3 }], burnCredits: 0 }) },
  { name: 'cart/delete', method: 'POST', url: (c) => `/api/cart/delete?cartId=${c}`, body: (c) => ({ cartItem: { quoteId: c, sku: 'NOT-IN-CART' } }) },
  { name: 'cart/totals', method: 'GET', url: (c) => `/api/cart/totals?cartId=${c}` },
  { name: 'cart/payment-methods', method: 'GET', url: (c) => `/api/cart/payment-methods?cartId=${c}` },
  { name: 'cart/shipping-methods', method: 'GET', url: (c) => `/api/cart/shipping-methods?cartId=${c}` },
  {
    name: 'cart/shipping-information',
    method: 'POST',
    url: (c) => `/api/cart/shipping-information?cartId=${c}`,
    body: () => ({ addressInformation: { shippingAddress: ADDRESS, shipping_method_code: 'delivery' } }),
  },
  { name: 'cart/collect-totals', method: 'POST', url: (c) => `/api/cart/collect-totals?cartId=${c}`, body: () => ({ methods: { shippingMethodCode: 'pickup' } }) },
  { name: 'cart/apply-coupon', method: 'POST', url: (c) => `/api/cart/apply-coupon?cartId=${c}&coupon=WELCOME10` },
  { name: 'cart/delete-coupon', method: 'POST', url: (c) => `/api/cart/delete-coupon?cartId=${c}` },
];

describeEachDatabase('cart and order ownership', (getDb) => {
  let app: FastifyInstance;
  const db = () => getDb().db;
  let owner: { token: string; customerId: number };
  let other: { token: string; customerId: number };
  let guest: string;

  const call = async (method: 'GET' | 'POST', url: string, body: Record<string, unknown> | undefined, headers: Record<string, string>) => {
    const res = await app.inject({ method, url, headers: { host: 'downtown.localhost', ...headers }, ...(body ? { payload: body } : {}) });
    return { status: res.statusCode, body: res.json() as { code: number; result: unknown } };
  };

  /** Everyone who is not the cart's owner, as request headers; the cart id is added per route. */
  const strangers = (cart: string): [string, Record<string, string>][] => [
    ['another customer', bearer(other.token)],
    ['a guest session', bearer(guest)],
    ['no token', {}],
    ['the cart id as a bare Bearer', bearer(cart)],
    ['a forged token', bearer(`${owner.token.slice(0, -4)}AAAA`)],
  ];

  const cartState = async (token: string) => {
    const cart = await db().selectFrom('carts').select(['id', 'customer_id', 'order_type', 'coupon_code', 'credits', 'ordered_at']).where('token', '=', token).executeTakeFirstOrThrow();
    const lines = await db().selectFrom('cart_items').select(['sku', 'qty']).where('cart_id', '=', cart.id).orderBy('id').execute();
    return { cart, lines };
  };

  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(db(), 1, JAR, { price: 2699, stock: 500 });
    owner = await loginCustomer(app, '9165550401');
    other = await loginCustomer(app, '9165550402');
    guest = await guestToken(app);
  });
  afterAll(async () => app?.close());

  it('refuses every cart route on a customer’s cart to everyone but the customer (0 successes)', async () => {
    const cart = (await call('POST', '/api/cart/create', {}, bearer(owner.token))).body.result as string;
    expect((await call('POST', `/api/cart/update?cartId=${cart}`, { cartItem: { quoteId: cart, sku: JAR, qty: 2 } }, bearer(owner.token))).status).toBe(200);
    const before = await cartState(cart);
    expect(before.cart.customer_id).toBe(owner.customerId);

    const outcomes: string[] = [];
    for (const route of CART_ROUTES) {
      for (const [who, headers] of strangers(cart)) {
        const r = await call(route.method, route.url(cart), route.body?.(cart), headers);
        outcomes.push(`${route.name} as ${who}: ${r.status}`);
        // The envelope, and nothing of the cart in it.
        expect(r.body.code).toBe(r.status);
        expect(JSON.stringify(r.body)).not.toContain(JAR);
      }
    }
    const successes = outcomes.filter((o) => !/: (401|403|404)$/.test(o));
    expect(successes).toEqual([]);
    expect(outcomes).toHaveLength(CART_ROUTES.length * 5);
    // Nothing changed: lines, coupon, order type, points.
    expect(await cartState(cart)).toEqual(before);

    // The owner can make every one of these calls.
    for (const route of CART_ROUTES) {
      const r = await call(route.method, route.url(cart), route.body?.(cart), bearer(owner.token));
      expect(`${route.name}: ${r.status}`).toBe(`${route.name}: 200`);
    }
  });

  it('places no order from a customer’s cart for anyone else, and answers no one else the owner’s order', async () => {
    const cart = (await call('POST', '/api/cart/create', {}, bearer(owner.token))).body.result as string;
    expect((await call('POST', `/api/cart/update?cartId=${cart}`, { cartItem: { quoteId: cart, sku: JAR, qty: 2 } }, bearer(owner.token))).status).toBe(200);
    const before = await cartState(cart);
    const orders = async () => db().selectFrom('orders').select(['id', 'customer_id', 'total_cents']).orderBy('id').execute();
    const ordersBefore = await orders();

    for (const [who, headers] of strangers(cart)) {
      const r = await call('POST', '/api/order/save', orderBody({ cart_id: cart }), headers);
      expect(`${who}: ${r.status}`).toMatch(/: (401|404)$/);
    }
    // The offline path names the cart too: its own lines are ordered, the owner's cart is not read or emptied.
    const offline = await call('POST', '/api/order/save', orderBody({ cart_id: cart, products: [{ sku: JAR, qty: 1 }] }), bearer(other.token));
    expect(offline.status).toBe(200);
    expect(await cartState(cart)).toEqual(before);
    const placed = (await orders()).filter((o) => !ordersBefore.some((b) => b.id === o.id));
    expect(placed.map((o) => o.customer_id)).toEqual([other.customerId]);

    // The owner orders it; the order is theirs, and the answer under its key is theirs alone.
    const body = orderBody({ cart_id: cart });
    const mine = await call('POST', '/api/order/save', body, bearer(owner.token));
    expect(mine.status).toBe(200);
    const { increment_id: number } = mine.body.result as { increment_id: string };
    expect((await call('POST', '/api/order/save', body, bearer(owner.token))).status).toBe(200);
    for (const [who, headers] of strangers(cart)) {
      const replay = await call('POST', '/api/order/save', body, headers);
      expect(`${who}: ${replay.status}`).toMatch(/: (401|404|422)$/);
      expect(JSON.stringify(replay.body)).not.toContain(number);
    }

    // Order history and detail: the owner's only.
    expect((await call('GET', `/api/user/order/${number}`, undefined, bearer(owner.token))).status).toBe(200);
    for (const [who, headers] of strangers(cart)) {
      const detail = await call('GET', `/api/user/order/${number}`, undefined, headers);
      expect(`${who}: ${detail.status}`).toMatch(/: (401|403|404)$/);
      const history = await call('GET', '/api/user/order-history', undefined, headers);
      // Another customer sees their own history (200) — never the owner's order; everyone else 401.
      if (history.status === 200) expect(JSON.stringify(history.body)).not.toContain(number);
      else expect(`${who}: ${history.status}`).toMatch(/: (401|403|404)$/);
    }
  });

  it('keeps guest carts usable by their id, and a guest cart reaches no customer’s cart', async () => {
    const s = new Shopper(app);
    await s.createCart();
    expect((await s.update({ sku: JAR, qty: 1 })).status).toBe(200);
    expect((await s.pull()).result).toMatchObject([{ sku: JAR, qty: 1 }]);
    // A logged-in customer may take a guest cart over (the spec's guest → login journey).
    expect((await call('GET', `/api/cart/totals?cartId=${s.token}`, undefined, bearer(other.token))).status).toBe(200);

    const cart = (await call('POST', '/api/cart/create', {}, bearer(owner.token))).body.result as string;
    // A guest cart's id as the Bearer with the owner's cart as cartId, or the other way round: refused.
    expect((await call('GET', `/api/cart/pull?cartId=${cart}`, undefined, bearer(s.token))).status).toBe(404);
    const r = await call('POST', `/api/cart/update?cartId=${cart}`, { cartItem: { quoteId: s.token, sku: JAR, qty: 1 } }, bearer(s.token));
    expect(r.status).toBe(404);
    expect((await cartState(cart)).lines).toEqual([]);
  });

  it('asks a customer whose token failed to log in again (401) on their cart and on any order, so the browser refreshes', async () => {
    const cart = (await call('POST', '/api/cart/create', {}, bearer(owner.token))).body.result as string;
    const forgedToken = bearer(`${owner.token.slice(0, -4)}AAAA`);
    expect((await call('GET', `/api/cart/pull?cartId=${cart}`, undefined, forgedToken)).status).toBe(401);
    // Orders too, whatever the cart (a guest cart's order is not silently placed as a guest's).
    const s = new Shopper(app);
    await s.createCart();
    await s.update({ sku: JAR, qty: 1 });
    expect((await call('POST', '/api/order/save', orderBody({ cart_id: s.token }), forgedToken)).status).toBe(401);
    expect((await call('POST', '/api/order/save', orderBody({ cart_id: s.token }), {})).status).toBe(200);
  });
});
