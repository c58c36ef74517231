/**
 * The two payload forms of spec §7 `POST /api/cart/update`, both databases (issue 11):
 *   {cartItem (with quoteId), order_type}            — one line added or set
 *   {cartItems, order_type, burnCredits}              — all lines, the points to redeem
 * A wrong points value is answered in the spec's words (§5 "Points to redeem cannot contain
 * decimals") in either form, never as a complaint about the other form's missing key.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { CART_MESSAGES as M } from './messages.ts';
import { bearer, commerceApp, loginCustomer, pin, Shopper } from '../../test-support/cart/testing.ts';
import { adjustPoints } from '../loyalty/ledger.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const DECIMALS = 'Points to redeem cannot contain decimals';

describeEachDatabase('cart/update payload forms', (getDb) => {
  let app: FastifyInstance;
  const db = () => getDb().db;
  const grant = (customerId: number, points: number) => adjustPoints(db(), customerId, 1, points);

  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(db(), 1, JAR, { price: 2699, special: null, tiers: [], stock: 10_000 });
  });
  afterAll(async () => app?.close());

  async function customerCart(phone: string, points: number) {
    const c = await loginCustomer(app, phone);
    await grant(c.customerId, points);
    const s = new Shopper(app);
    s.token = (await s.call<string>('POST', '/api/cart/create', {}, bearer(c.token))).result;
    const update = (body: Record<string, unknown>) => s.call('POST', `/api/cart/update?cartId=${s.token}`, body, bearer(c.token));
    return { s, c, update };
  }

  describe('{cartItems, order_type, burnCredits}', () => {
    it('answers "Points to redeem cannot contain decimals" to 2.5 points, as a string or a number', async () => {
      const { s, update } = await customerCart('9165550611', 50);
      expect(M.pointsDecimals).toBe(DECIMALS);
      for (const burnCredits of ['2.5', 2.5]) {
        const r = await update({ cartItems: [{ quoteId: s.token, sku: JAR, qty: 1 }], order_type: 'pickup', burnCredits });
        expect(r).toMatchObject({ status: 400, result: DECIMALS });
      }
      expect(await update({ cartItems: [{ quoteId: s.token, sku: JAR, qty: 1 }], order_type: 'pickup', burnCredits: 'two' })).toMatchObject({ status: 400, result: DECIMALS });
      // Nothing was applied by the refused updates.
      expect((await s.call('GET', `/api/cart/pull?cartId=${s.token}`, undefined, bearer((await loginCustomer(app, '9165550611')).token))).result).toEqual([]);
    });

    it('sets the lines, the order type and the points to redeem', async () => {
      const { s, c, update } = await customerCart('9165550612', 50);
      const r = await update({ cartItems: [{ quoteId: s.token, sku: JAR, qty: 2 }], order_type: 'pickup', burnCredits: '2' });
      expect(r.status).toBe(200);
      expect(r.result.map((i: { sku: string; qty: number }) => [i.sku, i.qty])).toEqual([[JAR, 2]]);
      const totals = await s.call('GET', `/api/cart/totals?cartId=${s.token}`, undefined, bearer(c.token));
      expect(totals.result.credits_used).toBe(2);
      // The same form again replaces the lines (not added to them).
      expect((await update({ cartItems: [{ quoteId: s.token, sku: JAR, qty: 1 }], order_type: 'pickup', burnCredits: 0 })).result.map((i: { qty: number }) => i.qty)).toEqual([1]);
    });
  });

  describe('{cartItem, order_type}', () => {
    it('adds one line, and answers the same points message when points come with it', async () => {
      const { s, update } = await customerCart('9165550613', 50);
      expect(await update({ cartItem: { quoteId: s.token, sku: JAR, qty: 1 }, order_type: 'pickup', burnCredits: '2.5' })).toMatchObject({ status: 400, result: DECIMALS });
      const r = await update({ cartItem: { quoteId: s.token, sku: JAR, qty: 1 }, order_type: 'pickup' });
      expect(r.status).toBe(200);
      expect(r.result).toMatchObject({ sku: JAR, qty: 1 });
    });

    it('answers what is wrong with a line in either form, not the other form\'s key', async () => {
      const { s, update } = await customerCart('9165550614', 0);
      const bad = await update({ cartItems: [{ quoteId: s.token, sku: JAR, qty: 0 }], order_type: 'pickup', burnCredits: 0 });
      expect(bad.status).toBe(400);
      expect(bad.result).not.toMatch(/cartItem\b(?!s)/);
      expect(bad.result).toBe(M.qtyPositiveInteger);
    });
  });
});
