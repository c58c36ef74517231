/**
 * Integration, both databases: POST /api/cart/buy-again (issue 30) puts a past order's lines back
 * in the customer's cart at today's prices, through the cart's own checks, and says what changed:
 * a new price, a sold-out product (with similar products in stock), a product no longer sold, a
 * purchase limit (what fits goes in). Another customer's order is 404 like no order at all; a burst
 * of retries with one idempotency key adds the order once.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, orderBody, pin, Shopper } from '../../test-support/cart/testing.ts';
import { BUY_AGAIN_MESSAGES as B, type BuyAgainAnswer } from './buy-again.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const GUMMIES = 'ED-SLEEP-PEACH-GUMMIES-100-MG';
const VAPE = 'VP-DURBAN-POISON-DISPOSABLE-VAPE-0-3-G';
const EIGHTH = 'FL-BLUE-DREAM-8TH';
const GRAM = 'FL-OG-KUSH-1G';

describeEachDatabase('buy again', (getDb) => {
  let app: FastifyInstance;
  const db = () => getDb().db;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function login(phone: string): Promise<string> {
    const send = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/user/login', headers: { host: 'downtown.localhost' }, payload }).then((r) => r.json());
    await send({ phone });
    const code = app.accounts!.sms.lastCode!(phone.replace(/\D/g, ''));
    let body = await send({ phone, code });
    if (body.result?.needs) body = await send({ phone, license_type: 'recreational', birthday: '1990-01-01', pendingToken: body.meta.pendingToken });
    return body.meta.token;
  }

  /** A customer's shopper: their open cart (cart/create with their token) and their calls. */
  async function customer(phone: string): Promise<{ s: Shopper; auth: Record<string, string> }> {
    const auth = bearer(await login(phone));
    const s = new Shopper(app);
    s.token = (await s.call<string>('POST', '/api/cart/create', {}, auth)).result;
    return { s, auth };
  }

  async function order(c: { s: Shopper; auth: Record<string, string> }, lines: { sku: string; qty: number }[]): Promise<string> {
    for (const l of lines) {
      const r = await c.s.call('POST', `/api/cart/update?cartId=${c.s.token}`, { cartItem: { quoteId: c.s.token, ...l } }, c.auth);
      expect(r.status, `${l.sku}: ${JSON.stringify(r.result)}`).toBe(200);
    }
    const placed = await c.s.saveOrder(orderBody({ cart_id: c.s.token }), c.auth);
    expect(placed.status, JSON.stringify(placed.result)).toBe(200);
    // The ordered cart is closed: the next cart/create answers a new, empty one.
    c.s.token = (await c.s.call<string>('POST', '/api/cart/create', {}, c.auth)).result;
    return (placed.result as { increment_id: string }).increment_id;
  }

  const buyAgain = (c: { s: Shopper; auth: Record<string, string> }, orderId: string, key = randomUUID()) =>
    c.s.call<BuyAgainAnswer | string>('POST', `/api/cart/buy-again?cartId=${c.s.token}`, { order_id: orderId }, { ...c.auth, 'idempotency-key': key });
  const pulled = async (c: { s: Shopper; auth: Record<string, string> }) =>
    ((await c.s.call<{ sku: string; qty: number; price: number }[]>('GET', `/api/cart/pull?cartId=${c.s.token}`, undefined, c.auth)).result).map((i) => ({ sku: i.sku, qty: i.qty, price: i.price }));

  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(db(), 1, JAR, { price: 3500, stock: 500 });
    await pin(db(), 1, GUMMIES, { price: 2000, stock: 500 });
    await pin(db(), 1, VAPE, { price: 3000, stock: 500 });
    await pin(db(), 1, EIGHTH, { stock: 500 });
    await pin(db(), 1, GRAM, { stock: 500, status: 1 });
  });
  afterAll(async () => app?.close());

  describe('a past order of three products, one re-priced, one sold out, one no longer sold', () => {
    let c: Awaited<ReturnType<typeof customer>>;
    let orderId: string;
    let answer: BuyAgainAnswer;
    beforeAll(async () => {
      c = await customer('9165550401');
      orderId = await order(c, [
        { sku: JAR, qty: 2 },
        { sku: GUMMIES, qty: 1 },
        { sku: VAPE, qty: 1 },
      ]);
      await pin(db(), 1, JAR, { price: 3200 });
      await pin(db(), 1, GUMMIES, { stock: 0, inStock: false });
      await pin(db(), 1, VAPE, { status: 2 });
      const r = await buyAgain(c, orderId);
      expect(r.status, JSON.stringify(r.result)).toBe(200);
      answer = r.result as BuyAgainAnswer;
    });
    afterAll(async () => {
      await pin(db(), 1, GUMMIES, { stock: 500 });
      await pin(db(), 1, VAPE, { status: 1 });
    });

    it('adds the re-priced line at today’s price and says now and then', () => {
      expect(answer.lines[0]).toMatchObject({ sku: JAR, qty: 2, added: 2, status: 'price_changed', price_then: 3500, price_now: 3200 });
      expect(answer.lines[0].message).toBe(B.priceChanged(answer.lines[0].name, '$32.00', '$35.00'));
      expect(answer.added).toBe(2);
    });

    it('says the sold-out line is sold out and offers up to 2 similar products in stock', async () => {
      const line = answer.lines[1];
      expect(line).toMatchObject({ sku: GUMMIES, added: 0, status: 'sold_out', message: B.soldOut(line.name) });
      expect(line.similar.length).toBeGreaterThan(0);
      expect(line.similar.length).toBeLessThanOrEqual(2);
      for (const s of line.similar) {
        expect(s.sku).not.toBe(GUMMIES);
        expect(s.url).toMatch(/^\/p\//);
        const kind = await db().selectFrom('products').select(['canna_type', 'status']).where('store_id', '=', 1).where('sku', '=', s.sku).executeTakeFirstOrThrow();
        const own = await db().selectFrom('products').select('canna_type').where('store_id', '=', 1).where('sku', '=', GUMMIES).executeTakeFirstOrThrow();
        expect(kind).toEqual({ canna_type: own.canna_type, status: 1 });
      }
    });

    it('says the disabled product is no longer sold', () => {
      expect(answer.lines[2]).toMatchObject({ sku: VAPE, added: 0, status: 'not_sold', price_now: null, message: B.notSold(answer.lines[2].name) });
    });

    it('leaves the cart with what could be had, at today’s prices', async () => {
      expect(await pulled(c)).toEqual([{ sku: JAR, qty: 2, price: 3200 }]);
    });
  });

  it('adds what fits under the purchase limit and says what was left out with the limit’s words', async () => {
    const c = await customer('9165550402');
    // 5 × 3.5 g = 17.5 g ordered; the cart holds 14 g already; the cap is 28.5 g: 4 eighths fit.
    const orderId = await order(c, [{ sku: EIGHTH, qty: 5 }]);
    const gram = await c.s.call('POST', `/api/cart/update?cartId=${c.s.token}`, { cartItem: { quoteId: c.s.token, sku: GRAM, qty: 14 } }, c.auth);
    expect(gram.status, JSON.stringify(gram.result)).toBe(200);
    const over = await c.s.call<string>('POST', `/api/cart/update?cartId=${c.s.token}`, { cartItem: { quoteId: c.s.token, sku: EIGHTH, qty: 5 } }, c.auth);
    expect(over.status).toBe(400);
    const r = await buyAgain(c, orderId);
    expect(r.status).toBe(200);
    const line = (r.result as BuyAgainAnswer).lines[0];
    expect(line).toMatchObject({ sku: EIGHTH, qty: 5, added: 4, status: 'limited' });
    // The cart's own refusal of the whole quantity, word for word.
    expect(line.message).toBe(B.partly(line.name, 4, 5, over.result));
    expect((await pulled(c)).map(({ sku, qty }) => ({ sku, qty }))).toEqual([
      { sku: GRAM, qty: 14 },
      { sku: EIGHTH, qty: 4 },
    ]);
  });

  it('answers 404 for another customer’s order exactly as for no order, and adds nothing', async () => {
    const owner = await customer('9165550403');
    const orderId = await order(owner, [{ sku: JAR, qty: 1 }]);
    const other = await customer('9165550404');
    const foreign = await buyAgain(other, orderId);
    const none = await buyAgain(other, 'NO-SUCH-ORDER');
    expect(foreign).toMatchObject({ status: 404, result: B.orderNotFound });
    expect(none).toMatchObject({ status: 404, result: B.orderNotFound });
    expect(await pulled(other)).toEqual([]);
    // The owner without an Idempotency-Key: refused before anything is read or added.
    const keyless = await owner.s.call('POST', `/api/cart/buy-again?cartId=${owner.s.token}`, { order_id: orderId }, owner.auth);
    expect(keyless.status).toBe(400);
    expect(await pulled(owner)).toEqual([]);
    // A guest (no customer token) is told to log in; the other store does not know the order either.
    const guest = new Shopper(app);
    await guest.createCart();
    expect(await guest.call('POST', `/api/cart/buy-again?cartId=${guest.token}`, { order_id: orderId }, { 'idempotency-key': randomUUID() })).toMatchObject({ status: 401, result: B.loginRequired });
  });

  it('adds the order once under a burst of retries with one idempotency key', async () => {
    const c = await customer('9165550405');
    const orderId = await order(c, [
      { sku: JAR, qty: 1 },
      { sku: GUMMIES, qty: 2 },
    ]);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 12 }, () => buyAgain(c, orderId, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    for (const a of answers) expect(a.result).toEqual(answers[0].result);
    expect((answers[0].result as BuyAgainAnswer).added).toBe(3);
    expect((await pulled(c)).map(({ sku, qty }) => ({ sku, qty }))).toEqual([
      { sku: JAR, qty: 1 },
      { sku: GUMMIES, qty: 2 },
    ]);
    // A new key is a new request: the order goes in again (and the lines grow).
    expect((await buyAgain(c, orderId)).status).toBe(200);
    expect((await pulled(c)).map(({ qty }) => qty)).toEqual([2, 4]);
    // The key with another request is refused.
    expect(await buyAgain(c, 'NO-SUCH-ORDER', key)).toMatchObject({ status: 404 });
    const second = await order(c, [{ sku: JAR, qty: 1 }]);
    expect(await buyAgain(c, second, key)).toMatchObject({ status: 422, result: B.keyReused });
  });
});
