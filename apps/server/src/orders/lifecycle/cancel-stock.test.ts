/**
 * Issue 26 "Cancelling with reason Sold out restocks the items", both databases, through the real
 * console route: a "Sold out" cancel leaves the stock as the order left it (a sold-out product stays
 * off sale) while points, coupon use and the slot still go back; every other reason and a no-show
 * put the stock back. 20 parallel "Sold out" cancels change the stock by nothing, once.
 */
import { CANCEL_REASONS, cancelRestocks } from '@verdant/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test-support/databases.ts';
import { loginCustomer, pin, stockQty } from '../../../test-support/cart/testing.ts';
import { JAR, lifecycleHarness, type LifecycleHarness } from '../../../test-support/orders/lifecycle/testing.ts';

describeEachDatabase('what cancelling does to stock', (getDb) => {
  let h: LifecycleHarness;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  const stockRow = () =>
    h.db
      .selectFrom('stock')
      .innerJoin('products', 'products.id', 'stock.product_id')
      .select(['stock.qty', 'stock.is_in_stock'])
      .where('products.sku', '=', JAR)
      .where('products.store_id', '=', 1)
      .executeTakeFirstOrThrow();

  it('keeps the stock out for “Sold out” only', () => {
    expect(CANCEL_REASONS.filter((r) => !cancelRestocks(r))).toEqual(['sold_out']);
  });

  it('“Sold out” puts nothing back, under 20 parallel cancels; points and coupon use still come back', async () => {
    const c = await loginCustomer(h.app, '9165550781');
    const uses = async () =>
      (await h.db.selectFrom('coupons').select('times_used').where('code', '=', 'WELCOME10').executeTakeFirstOrThrow()).times_used;
    const couponBefore = await uses();
    const start = await stockQty(h.db, 1, JAR);
    const o = await h.place({ token: c.token, qty: 3, body: { coupon: 'WELCOME10' } });
    expect(await stockQty(h.db, 1, JAR)).toBe(start - 3);
    const answers = await Promise.all(Array.from({ length: 20 }, () => h.move(o.id, { action: 'cancel', reason: 'sold_out' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect(await stockQty(h.db, 1, JAR)).toBe(start - 3);
    expect(await uses()).toBe(couponBefore);
    const points = await h.db.selectFrom('loyalty_ledger').select(['kind', 'points']).where('order_id', '=', o.id).execute();
    expect(points.reduce((s, p) => s + Number(p.points), 0)).toBe(0);
    const row = await h.db.selectFrom('orders').select(['status', 'cancel_reason', 'released_at']).where('id', '=', o.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'cancelled', cancel_reason: 'sold_out' });
    expect(row.released_at).not.toBeNull();
  });

  it('a product the order sold out stays sold out after a “Sold out” cancel, and comes back for any other reason', async () => {
    await pin(h.db, 1, JAR, { stock: 2 });
    const first = await h.place({ qty: 2 });
    expect(await stockRow()).toEqual({ qty: 0, is_in_stock: 0 });
    expect((await h.move(first.id, { action: 'cancel', reason: 'sold_out' })).status).toBe(200);
    expect(await stockRow()).toEqual({ qty: 0, is_in_stock: 0 });

    await pin(h.db, 1, JAR, { stock: 2 });
    for (const reason of CANCEL_REASONS.filter((r) => r !== 'sold_out')) {
      const o = await h.place({ qty: 2 });
      expect(await stockRow()).toEqual({ qty: 0, is_in_stock: 0 });
      expect((await h.move(o.id, { action: 'cancel', reason })).status).toBe(200);
      expect(await stockRow()).toEqual({ qty: 2, is_in_stock: 1 });
    }
    await pin(h.db, 1, JAR, { stock: 100_000 });
  });
});
