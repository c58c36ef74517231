/**
 * Back-in-stock alerts from stock a cancelled order returns (issue 30: "when stock returns from any
 * source … each watcher gets one message with a link, once"), both databases, through the real
 * console route: a watcher of a sold-out size gets exactly one message when an order holding the
 * last units is cancelled (a second cancel adds none); a burst of parallel cancels of several orders
 * of that size → one message; a cancel that rolls back marks nothing; "Sold out" puts nothing back
 * and tells no one. (A failed delivery's goods come back through the same cancel: delivery/driver-routes.test.ts.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '@verdant/domain';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile } from '../seed/index.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { pin } from '../../test-support/cart/testing.ts';
import { EIGHTH, lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { applyTransition, SYSTEM_ACTOR } from '../orders/lifecycle/transitions.ts';
import { BACK_IN_STOCK, createAlertPlanner } from './planner.ts';
import { watch } from './watches.ts';

const stores = readStoresFile(DEMO_STORES_FILE).stores as unknown as Store[];
const store = stores.find((s) => s.storeId === 1)!;

describeEachDatabase('back-in-stock alerts from cancelled orders', (getDb) => {
  let h: LifecycleHarness;
  let size = { id: 0, parentId: 0 };
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    const row = await h.db.selectFrom('products').select(['id', 'parent_id']).where('store_id', '=', 1).where('sku', '=', EIGHTH).executeTakeFirstOrThrow();
    expect(row.parent_id).not.toBeNull();
    size = { id: row.id, parentId: row.parent_id! };
  });
  afterAll(async () => h?.app.close());

  const stock = () => h.db.selectFrom('stock').select(['qty', 'is_in_stock']).where('product_id', '=', size.id).executeTakeFirstOrThrow();
  /** Orders placed while the size was on the shelf, then the shelf empty: the orders hold the last units. */
  async function ordersHoldingTheLast(n: number): Promise<number[]> {
    await pin(h.db, 1, EIGHTH, { stock: 100_000 });
    const ids: number[] = [];
    for (let i = 0; i < n; i++) ids.push((await h.place({ sku: EIGHTH, qty: 1 })).id);
    await h.db.updateTable('stock').set({ qty: 0, is_in_stock: 0 }).where('product_id', '=', size.id).execute();
    return ids;
  }
  const watchSize = (contact: string) =>
    watch(h.db, { storeId: 1, storeName: store.name, productId: size.parentId, variantId: size.id, guest: { channel: 'email', contact }, consent: true, at: h.clock.now });
  const watchRow = (contact: string) => h.db.selectFrom('stock_watches').selectAll().where('subscriber_key', '=', `email:${contact}`).executeTakeFirstOrThrow();
  const planned = async (contact: string) => {
    await createAlertPlanner({ db: h.db, stores, secret: 'returned-stock-secret', now: () => h.clock.now }).drain();
    return h.db.selectFrom('message_deliveries').selectAll().where('template', '=', BACK_IN_STOCK).where('recipient', '=', contact).execute();
  };

  it('a cancelled order holding the last units tells the watcher of the size once, with the link', async () => {
    const [first, second] = await ordersHoldingTheLast(2);
    await watchSize('one@returned.test');
    expect((await h.move(first!, { action: 'cancel', reason: 'customer_request' })).status).toBe(200);
    expect(Number((await stock()).qty)).toBeGreaterThan(0);
    expect((await watchRow('one@returned.test')).restocked_at).not.toBeNull();
    const [message, ...more] = await planned('one@returned.test');
    expect(more).toEqual([]);
    expect(message).toMatchObject({ channel: 'email', purpose: 'marketing' });
    expect(message!.body).toContain(EIGHTH);
    expect(message!.body).toMatch(/\/unsubscribe\/\d+\.[A-Za-z0-9_-]{43}/);
    // More stock coming back (not from sold out) tells no one again.
    expect((await h.move(second!, { action: 'cancel', reason: 'other' })).status).toBe(200);
    expect(await planned('one@returned.test')).toHaveLength(1);
  });

  it('a burst of parallel cancels of several orders of the size: one message', async () => {
    const orders = await ordersHoldingTheLast(6);
    await watchSize('burst@returned.test');
    // Each order cancelled twice at once, all twelve moves together: six win, and the size comes back once.
    const answers = await Promise.all(orders.flatMap((id) => [h.move(id, { action: 'cancel', reason: 'customer_request' }), h.move(id, { action: 'cancel', reason: 'other' })]));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(6);
    expect(await stock()).toMatchObject({ is_in_stock: 1 });
    expect(await planned('burst@returned.test')).toHaveLength(1);
    expect(await planned('burst@returned.test')).toHaveLength(1);
  });

  it('a cancel that rolls back marks nothing; a “Sold out” cancel puts nothing back and tells no one', async () => {
    const [order, soldOut] = await ordersHoldingTheLast(2);
    await watchSize('rollback@returned.test');
    await expect(
      applyTransition(
        h.db,
        { storeId: 1, orderId: order!, action: 'cancel', input: { reason: 'other' }, actor: SYSTEM_ACTOR, now: h.clock.now },
        {
          afterRelease: () => {
            throw new Error('power cut');
          },
        },
      ),
    ).rejects.toThrow('power cut');
    expect(await stock()).toMatchObject({ is_in_stock: 0 });
    expect(Number((await stock()).qty)).toBe(0);
    expect((await watchRow('rollback@returned.test')).restocked_at).toBeNull();
    expect((await h.move(soldOut!, { action: 'cancel', reason: 'sold_out' })).status).toBe(200);
    expect((await watchRow('rollback@returned.test')).restocked_at).toBeNull();
    expect(await planned('rollback@returned.test')).toEqual([]);
    // The same order cancelled for real: now it is told.
    expect((await h.move(order!, { action: 'cancel', reason: 'other' })).status).toBe(200);
    expect(await planned('rollback@returned.test')).toHaveLength(1);
  });
});
