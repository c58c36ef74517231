/** `carts.updated_at` is the cart's last activity to the minute (update.ts CART_TOUCH_INTERVAL_MS). */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { REFERENCE_DATE, Shopper, commerceApp, pin } from '../../test-support/cart/testing.ts';
import { CART_TOUCH_INTERVAL_MS } from './update.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';

describeEachDatabase('cart last activity', (getDb) => {
  let app: FastifyInstance;
  let now = REFERENCE_DATE.getTime();
  beforeAll(async () => {
    app = await commerceApp(getDb(), () => new Date(now));
    await pin(getDb().db, 1, JAR, { price: 2699, stock: 500 });
  });
  afterAll(async () => app?.close());
  const touchedAt = async (token: string) =>
    (await getDb().db.selectFrom('carts').select('updated_at').where('token', '=', token).executeTakeFirstOrThrow()).updated_at;

  it('moves with line changes at most once a minute, and at once when the cart itself changes', async () => {
    const s = new Shopper(app);
    await s.createCart();
    const created = await touchedAt(s.token);
    now += 10_000;
    expect((await s.update({ sku: JAR, qty: 1 })).status).toBe(200);
    expect(await touchedAt(s.token)).toBe(created);
    now += CART_TOUCH_INTERVAL_MS;
    expect((await s.update({ sku: JAR, qty: 1 })).status).toBe(200);
    expect(await touchedAt(s.token)).toBe(new Date(now).toISOString());
    const minute = await touchedAt(s.token);
    now += 1_000;
    expect((await s.update({ sku: JAR, qty: 1 }, { order_type: 'pickup' })).status).toBe(200);
    expect(await touchedAt(s.token)).not.toBe(minute);
    expect(await touchedAt(s.token)).toBe(new Date(now).toISOString());
    // What a pull shows is what the table holds (the cart cache follows the same rule).
    expect((await s.pull()).result.map((l: { qty: number }) => l.qty)).toEqual([3]);
  });
});
