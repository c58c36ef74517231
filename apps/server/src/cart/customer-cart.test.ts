/**
 * Integration, both databases: POST /api/cart/create with a logged-in customer's access token
 * answers that customer's most recent open cart in the store for the licence type (so the cart
 * follows them across devices and logins); a cart an order was placed from is never handed out
 * again; guests, guest sessions and no token always get a new cart.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, orderBody, pin, REFERENCE_DATE, Shopper } from '../../test-support/cart/testing.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';

describeEachDatabase('cart/create for a logged-in customer', (getDb) => {
  let app: FastifyInstance;
  const db = () => getDb().db;

  /** Log a phone in through the SMS steps (users/accounts.test.ts does the same); answers the access token. */
  async function login(phone: string, host = 'downtown.localhost'): Promise<{ token: string; customerId: number }> {
    const send = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/user/login', headers: { host }, payload }).then((r) => r.json());
    await send({ phone });
    const code = app.accounts!.sms.lastCode!(phone.replace(/\D/g, ''));
    let body = await send({ phone, code });
    if (body.result?.needs) body = await send({ phone, license_type: 'recreational', birthday: '1990-01-01', pendingToken: body.meta.pendingToken });
    return { token: body.meta.token, customerId: body.meta.customer_id };
  }

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /** cart/create from a new device (a new client, no cart id), with the given headers. */
  async function create(headers: Record<string, string> = {}, body: Record<string, unknown> = {}, host = 'downtown.localhost'): Promise<string> {
    const r = await new Shopper(app, host).call<string>('POST', '/api/cart/create', body, headers);
    expect(r.status).toBe(200);
    return r.result;
  }

  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(db(), 1, JAR, { price: 2699, stock: 500 });
  });
  afterAll(async () => app?.close());

  it('answers the customer’s open cart on every device, with its lines', async () => {
    const a = await login('9165550301');
    const first = await create(bearer(a.token));
    const phone = new Shopper(app);
    phone.token = first;
    expect((await phone.call('POST', `/api/cart/update?cartId=${first}`, { cartItem: { quoteId: first, sku: JAR, qty: 2 } }, bearer(a.token))).status).toBe(200);

    // Another device, another login of the same customer: the same cart, lines and all.
    const again = await login('9165550301');
    const laptop = new Shopper(app);
    laptop.token = await create(bearer(again.token));
    expect(laptop.token).toBe(first);
    // A customer's cart answers its owner's token only (cart-ownership.test.ts covers everyone else).
    expect((await laptop.call('GET', `/api/cart/pull?cartId=${laptop.token}`, undefined, bearer(again.token))).result).toMatchObject([{ sku: JAR, qty: 2 }]);
    const row = await db().selectFrom('carts').selectAll().where('token', '=', first).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ customer_id: a.customerId, store_id: 1, license_type: 'recreational', ordered_at: null });
  });

  it('keeps one open cart per licence type', async () => {
    const a = await login('9165550302');
    const rec = await create(bearer(a.token), { license_type: 'recreational' });
    const med = await create(bearer(a.token), { license_type: 'medical' });
    expect(med).not.toBe(rec);
    expect(await create(bearer(a.token), { license_type: 'medical' })).toBe(med);
    expect(await create(bearer(a.token))).toBe(rec);
  });

  it('never hands out a cart an order was placed from', async () => {
    const a = await login('9165550303');
    const s = new Shopper(app);
    s.token = await create(bearer(a.token));
    expect((await s.call('POST', `/api/cart/update?cartId=${s.token}`, { cartItem: { quoteId: s.token, sku: JAR, qty: 1 } }, bearer(a.token))).status).toBe(200);
    const order = await s.saveOrder(orderBody({ cart_id: s.token }), bearer(a.token));
    expect(order.status).toBe(200);
    const ordered = await db().selectFrom('carts').select(['ordered_at', 'coupon_code', 'credits']).where('token', '=', s.token).executeTakeFirstOrThrow();
    expect(ordered).toEqual({ ordered_at: REFERENCE_DATE.toISOString(), coupon_code: null, credits: 0 });

    const next = await create(bearer(a.token));
    expect(next).not.toBe(s.token);
    expect(await create(bearer(a.token))).toBe(next);
    const fresh = new Shopper(app);
    fresh.token = next;
    expect((await fresh.call('GET', `/api/cart/pull?cartId=${next}`, undefined, bearer(a.token))).result).toEqual([]);
  });

  it('answers the most recently changed of several open carts', async () => {
    const a = await login('9165550304');
    const current = await create(bearer(a.token));
    const at = (iso: string) => ({ token: `older-cart-${a.customerId}-${iso.slice(0, 10)}-xyz`, store_id: 1, customer_id: a.customerId, license_type: 'recreational' as const, coupon_code: null, created_at: iso, updated_at: iso });
    await db().insertInto('carts').values(at('2026-06-01T00:00:00.000Z')).execute();
    expect(await create(bearer(a.token))).toBe(current);
    const later = at('2026-06-20T00:00:00.000Z');
    await db().insertInto('carts').values(later).execute();
    expect(await create(bearer(a.token))).toBe(later.token);
  });

  it('creates a new cart for guests, guest sessions, other customers and other stores', async () => {
    const a = await login('9165550305');
    const mine = await create(bearer(a.token));
    const guest = (await app.inject({ method: 'POST', url: '/api/user/login-guest', headers: { host: 'downtown.localhost' }, payload: { license_type: 'recreational', storeId: 1 } })).json().meta.token as string;
    const b = await login('9165550306');
    const tokens = [await create(), await create(), await create(bearer(guest)), await create(bearer(guest)), await create(bearer(b.token))];
    expect(new Set([mine, ...tokens]).size).toBe(6);
    // A token of another store is no login there: a new cart of that store.
    const elsewhere = await create(bearer(a.token), {}, 'eastside.localhost');
    expect(elsewhere).not.toBe(mine);
    expect((await db().selectFrom('carts').select(['store_id', 'customer_id']).where('token', '=', elsewhere).executeTakeFirstOrThrow())).toEqual({ store_id: 2, customer_id: null });
  });
});
