/**
 * "1,000 watchers of one product are told once each, on every node" (issue 30), both databases:
 * two apps over one database and one Redis (two nodes of a deployment). 1,000 shoppers with a
 * marketing grant watch a sold-out product; staff restock its sizes through the console on BOTH
 * nodes at once (a parallel burst of edits, each size twice); both nodes' alert planners run at
 * once. Every watcher has exactly one message, every watch is closed once.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StaffTestSession } from '../../test-support/staff/testing.ts';
import { twoSeededNodes, type TwoNodes } from '../../test-support/multinode/in-process.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { BACK_IN_STOCK } from './planner.ts';

const HOST = 'downtown.localhost';
const WATCHERS = 1000;

describeEachDatabase('back-in-stock alerts on two nodes', (getDb) => {
  let nodes: TwoNodes;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let staffA: StaffTestSession;
  let staffB: StaffTestSession;

  beforeAll(async () => {
    nodes = await twoSeededNodes(getDb(), 'alerts');
    ({ a, b, ownerA: staffA, ownerB: staffB } = nodes);
  }, 60_000);
  afterAll(() => nodes?.close());

  it('1,000 watchers, a burst of restocks on both nodes: each watcher told once', async () => {
    const { db } = getDb();
    const product = await db.selectFrom('products').select('id').where('store_id', '=', 1).where('sku', '=', 'FL-GELATO').executeTakeFirst()
      ?? (await db.selectFrom('products').select('id').where('store_id', '=', 1).where('type_id', '=', 'configurable').orderBy('id').executeTakeFirstOrThrow());
    const sizes = (await db.selectFrom('products').select('id').where('parent_id', '=', product.id).execute()).map((s) => s.id);
    expect(sizes.length).toBeGreaterThan(1);
    const edit = (app: FastifyInstance, staff: StaffTestSession, id: number, stock: number) =>
      app.inject({
        method: 'POST',
        url: '/api/console/stores/1/menu/bulk',
        headers: { host: HOST, ...staff.headers },
        payload: stock > 0 ? { productIds: [id], action: 'in_stock', qty: stock } : { productIds: [id], action: 'sold_out' },
      });
    for (const id of sizes) expect((await edit(a, staffA, id, 0)).statusCode).toBe(200);

    // 1,000 guests with a marketing grant watch the product (written in bulk: the watch path is tested elsewhere).
    const at = new Date().toISOString();
    const emails = Array.from({ length: WATCHERS }, (_, i) => `w${i}-${process.pid}@two-nodes.test`);
    for (let i = 0; i < WATCHERS; i += 200) {
      const chunk = emails.slice(i, i + 200);
      await db
        .insertInto('consent_events')
        .values(chunk.map((e) => ({ store_id: 1, customer_id: null, contact: e, channel: 'email' as const, purpose: 'marketing' as const, action: 'granted' as const, source: 'stock_alert_form', words: 'test', at })))
        .execute();
      await db
        .insertInto('stock_watches')
        .values(chunk.map((e) => ({ store_id: 1, product_id: product.id, variant_id: null, target_key: `p${product.id}`, customer_id: null, contact: e, channel: 'email' as const, subscriber_key: `email:${e}`, created_at: at })))
        .execute();
    }

    // The burst: every size restocked twice, on both nodes at once.
    const answers = await Promise.all(sizes.flatMap((id) => [edit(a, staffA, id, 5), edit(b, staffB, id, 7)]));
    expect(answers.filter((r) => r.statusCode === 200).length).toBeGreaterThan(0);
    await Promise.all([a.outboxDispatcher.alerts.drain(), b.outboxDispatcher.alerts.drain()]);

    const rows = await db
      .selectFrom('message_deliveries')
      .select(['recipient', 'event_id'])
      .where('template', '=', BACK_IN_STOCK)
      .where('recipient', 'like', `%-${process.pid}@two-nodes.test`)
      .execute();
    expect(rows).toHaveLength(WATCHERS);
    expect(new Set(rows.map((r) => r.recipient)).size).toBe(WATCHERS);
    const open = await db
      .selectFrom('stock_watches')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .where('product_id', '=', product.id)
      .where('notified_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(open.n)).toBe(0);
  }, 120_000);
});
