/**
 * Balances under real concurrency, both databases (issue 10): reward points, a coupon's use limit
 * and the stock of kit members are each spent at most as far as they go, whatever the number of
 * orders that arrive together. Every race sends its orders as parallel requests (`app.inject` +
 * `Promise.all`: on SQLite they meet in group commits, on PostgreSQL in parallel transactions of
 * the pool) and counts the successes exactly.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { CART_MESSAGES as M } from '../cart/messages.ts';
import { bearer, commerceApp, loginCustomer, orderBody, pin, Shopper, stockQty } from '../../test-support/cart/testing.ts';
import { adjustPoints, balanceOf } from '../loyalty/ledger.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR'; // $26.99, sales tax only
const BUNDLE = 'BDL-NIGHT-IN'; // defaults: GDP 1/8 oz, sleep gummies, 2 × hemp wick
const WICK = 'BDL-NIGHT-IN-HEMP-WICK';
const GROUPED = 'KIT-PRE-ROLL-SAMPLER'; // one of each of three pre-rolls
const OG = 'KIT-SAMPLER-OG-KUSH';

/** Requests sent together in each race. */
const PARALLEL = 12;

describeEachDatabase('balances under concurrent orders', (getDb) => {
  let app: FastifyInstance;
  const db = () => getDb().db;
  const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

  const balance = (customerId: number) => balanceOf(db(), customerId, 1);
  const grant = (customerId: number, points: number) => adjustPoints(db(), customerId, 1, points);
  const burnt = async (customerId: number) =>
    (await db().selectFrom('orders').select('credits_used_cents').where('customer_id', '=', customerId).execute()).reduce((sum, o) => sum + o.credits_used_cents, 0);

  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(db(), 1, JAR, { price: 2699, special: null, tiers: [], stock: 10_000 });
  });
  afterAll(async () => app?.close());

  it(`spends 1,000 reward points once when ${PARALLEL} orders redeem all of them together`, async () => {
    const c = await loginCustomer(app, '9165550501');
    await grant(c.customerId, 1000);
    // What the account had before (the demo store's sign-up bonus, issue 30).
    const bonus = (await balance(c.customerId)) - 1000;
    const s = new Shopper(app);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, () => s.saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }], credits: 1000 }), bearer(c.token))),
    );
    expect(statuses(answers)).toEqual([200, ...Array(PARALLEL - 1).fill(400)]);
    const won = answers.find((a) => a.status === 200)!;
    expect(won.result.credits_used).toBe(1000);
    // Points are earned when an order is completed (issue 30): only what was there before is left.
    for (const lost of answers.filter((a) => a.status === 400)) expect(lost.result).toBe(M.notEnoughPoints(bonus));
    expect(await burnt(c.customerId)).toBe(1000);
    expect(await balance(c.customerId)).toBe(bonus);
  });

  it('spends points set on the cart (burnCredits) at most once against orders redeeming them at the same time', async () => {
    const c = await loginCustomer(app, '9165550502');
    await grant(c.customerId, 1000);
    const s = new Shopper(app);
    s.token = (await s.call<string>('POST', '/api/cart/create', {}, bearer(c.token))).result;
    const set = await s.call('POST', `/api/cart/update?cartId=${s.token}`, { cartItems: [{ quoteId: s.token, sku: JAR, qty: 1 }], burnCredits: 1000 }, bearer(c.token));
    expect(set.status).toBe(200);
    expect((await s.call('GET', `/api/cart/totals?cartId=${s.token}`, undefined, bearer(c.token))).result.credits_used).toBe(1000);
    const fromCart = () => s.saveOrder(orderBody({ cart_id: s.token }), bearer(c.token));
    const offline = () => s.saveOrder(orderBody({ products: [{ sku: JAR, qty: 2 }], credits: 1000 }), bearer(c.token));
    const answers = await Promise.all([fromCart(), ...Array.from({ length: PARALLEL - 2 }, offline), fromCart()]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await burnt(c.customerId)).toBe(1000);
    expect(await balance(c.customerId)).toBeGreaterThanOrEqual(0);
    // The cart cannot be set to burn more than is left either.
    const s2 = new Shopper(app);
    s2.token = (await s2.call<string>('POST', '/api/cart/create', {}, bearer(c.token))).result;
    const left = await balance(c.customerId);
    const over = await s2.call('POST', `/api/cart/update?cartId=${s2.token}`, { cartItems: [{ quoteId: s2.token, sku: JAR, qty: 1 }], burnCredits: left + 1 }, bearer(c.token));
    expect(over).toMatchObject({ status: 400, result: M.notEnoughPoints(left) });
  });

  it(`mixes orders that spend points with orders that only earn them: ${PARALLEL} at once, no deadlock, one spend`, async () => {
    const c = await loginCustomer(app, '9165550503');
    await grant(c.customerId, 1000);
    const s = new Shopper(app);
    const place = (i: number) => s.saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }], ...(i % 2 ? { credits: 1000 } : {}) }), bearer(c.token));
    const answers = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => place(i)));
    const spenders = answers.filter((_, i) => i % 2);
    expect(answers.filter((_, i) => i % 2 === 0).map((a) => a.status)).toEqual(Array(PARALLEL / 2).fill(200));
    expect(statuses(spenders)).toEqual([200, ...Array(PARALLEL / 2 - 1).fill(400)]);
    expect(await burnt(c.customerId)).toBe(1000);
    expect(await balance(c.customerId)).toBeGreaterThanOrEqual(0);
  });

  it(`counts a coupon limited to 3 uses exactly 3 times among ${PARALLEL} concurrent orders`, async () => {
    const iso = new Date().toISOString();
    await db()
      .insertInto('coupons')
      .values({ code: 'THRICE', store_id: null, type: 'fixed', discount_percent: null, discount_cents: 100, description: null, active: 1, from_date: null, to_date: null, max_uses: 3, times_used: 0, created_at: iso, updated_at: iso })
      .execute();
    const s = new Shopper(app);
    const answers = await Promise.all(Array.from({ length: PARALLEL }, () => s.saveOrder(orderBody({ coupon: 'thrice', products: [{ sku: JAR, qty: 1 }] }))));
    expect(statuses(answers)).toEqual([...Array(3).fill(200), ...Array(PARALLEL - 3).fill(400)]);
    for (const lost of answers.filter((a) => a.status === 400)) expect(lost.result).toBe(M.incorrectCoupon);
    expect((await db().selectFrom('coupons').select('times_used').where('code', '=', 'THRICE').executeTakeFirstOrThrow()).times_used).toBe(3);
    expect(Number((await db().selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('coupon_code', '=', 'THRICE').executeTakeFirstOrThrow()).n)).toBe(3);
  });

  it(`sells a bundle only while its members last: 2 wicks each, 6 in stock, ${PARALLEL} concurrent orders → 3`, async () => {
    for (const member of ['BDL-NIGHT-IN-GDP-8TH', 'BDL-NIGHT-IN-SLEEP-GUMMIES']) await pin(db(), 1, member, { stock: 1000 });
    await pin(db(), 1, WICK, { stock: 6 });
    // The shopper's chosen selections (as the product page sends them): without a choice a bundle
    // falls back to an available member, or leaves out an optional extra that sold out.
    const bundle = await db().selectFrom('products').select('id').where('store_id', '=', 1).where('sku', '=', BUNDLE).executeTakeFirstOrThrow();
    const links = await db().selectFrom('product_links').select(['id', 'bundle_option_id', 'linked_product_sku']).where('product_id', '=', bundle.id).where('link_type', '=', 'bundle').execute();
    const chosen = ['BDL-NIGHT-IN-GDP-8TH', 'BDL-NIGHT-IN-SLEEP-GUMMIES', WICK].map((sku) => links.find((l) => l.linked_product_sku === sku)!);
    const product_option = {
      extension_attributes: { bundle_options: chosen.map((l) => ({ option_id: l.bundle_option_id!, option_qty: 1, option_selections: [l.id] })) },
    };
    const s = new Shopper(app);
    const answers = await Promise.all(Array.from({ length: PARALLEL }, () => s.saveOrder(orderBody({ products: [{ sku: BUNDLE, qty: 1, product_option }] }))));
    expect(statuses(answers)).toEqual([...Array(3).fill(200), ...Array(PARALLEL - 3).fill(409)]);
    for (const lost of answers.filter((a) => a.status === 409)) expect(lost.result).toBe(M.productsNotAvailable);
    expect(await stockQty(db(), 1, WICK)).toBe(0);
    // Each sold bundle took its flower (3.5 g) and gummies from their own stock too.
    expect(await stockQty(db(), 1, 'BDL-NIGHT-IN-GDP-8TH')).toBe(1000 - 3 * 3.5);
    expect(await stockQty(db(), 1, 'BDL-NIGHT-IN-SLEEP-GUMMIES')).toBe(1000 - 3);
  });

  it(`shares a kit member's stock between kits and the member sold alone: 5 in stock, ${PARALLEL} concurrent orders → 5 units`, async () => {
    for (const member of ['KIT-SAMPLER-BLUE-DREAM', 'KIT-SAMPLER-SOUR-DIESEL']) await pin(db(), 1, member, { stock: 1000 });
    await pin(db(), 1, OG, { stock: 5 });
    const s = new Shopper(app);
    // Half order the grouped kit (one OG Kush each), half the OG Kush pre-roll alone.
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => s.saveOrder(orderBody({ products: [{ sku: i % 2 ? OG : GROUPED, qty: 1 }] }))),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(PARALLEL - 5);
    expect(await stockQty(db(), 1, OG)).toBe(0);
    const kits = answers.filter((a) => a.status === 200 && a.result.items.length === 3).length;
    expect(await stockQty(db(), 1, 'KIT-SAMPLER-BLUE-DREAM')).toBe(1000 - kits);
  });
});
