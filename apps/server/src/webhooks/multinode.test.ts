/**
 * Two real server processes on one PostgreSQL database and one Redis, sharing one outbox, both
 * running the webhook engine against one real receiver on loopback: every event is accepted
 * exactly once, each attempt is made by one node only (no delivery sent twice at once), retries
 * pass between nodes without duplicates, and work left pending when both nodes stop is finished
 * by a node started afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { DEMO_STORES_FILE } from '../config.ts';
import { createDatabase, migrateToLatest } from '../db/index.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import type { Database } from '../db/schema.ts';
import { freePort, freshSchema, order, PG_URL, REDIS_URL, startNode, type ServerNode } from '../../test-support/multinode/harness.ts';
import { createEndpoint } from './endpoints.ts';
import { appendEvent, eventually, Receiver, type Behaviour } from '../../test-support/webhooks/testing.ts';

const needed = !PG_URL ? 'TEST_DATABASE_URL is not set' : null;
if (needed && process.env.CI !== 'true') console.warn(`[verdant tests] skipping multi-node webhook tests: ${needed}`);

describe.skipIf(needed !== null && process.env.CI !== 'true')('webhooks from two server nodes on PostgreSQL + Redis', () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  let db: Kysely<Database>;
  let destroy: () => Promise<void>;
  let dataDir: string;
  /** A product of store 1 with stock to order. */
  let sku: string;
  const nodes: ServerNode[] = [];
  const receivers: Receiver[] = [];

  const start = async () => {
    const n = startNode(
      {
        DATABASE_URL: schema.url,
        REDIS_URL,
        REDIS_PREFIX: `verdant-wh-${process.pid}:`,
        WEBHOOK_ALLOW_PRIVATE: '1',
        WEBHOOK_POLL_MS: '100',
        WEBHOOK_RETRY_SCHEDULE_MS: Array(20).fill(100).join(','),
      },
      await freePort(),
    );
    nodes.push(n);
    return n;
  };
  const receiver = async (behaviour?: Behaviour) => {
    const r = new Receiver([], behaviour);
    receivers.push(r);
    return r;
  };
  /** Node ids look like host:pid:random; which process made an attempt. */
  const pidOf = (node: string | null) => Number(node?.split(':')[1]);
  const deliveries = (endpointId: number) =>
    db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).execute();
  const attempts = (endpointId: number) =>
    db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['a.delivery_id', 'a.attempt', 'a.node', 'a.status_code', 'a.started_at', 'a.duration_ms', 'd.event_id'])
      .where('d.endpoint_id', '=', endpointId)
      .execute();

  beforeAll(async () => {
    schema = await freshSchema();
    dataDir = mkdtempSync(join(tmpdir(), 'verdant-wh-'));
    const handle = await createDatabase({ databaseUrl: schema.url, dataDir });
    db = handle.db;
    destroy = handle.destroy;
    await migrateToLatest(db);
    // A small catalogue: the nodes start faster on a busy machine.
    await seedDemo(db, readStoresFile(DEMO_STORES_FILE), {
      dataDir,
      referenceDate: new Date('2026-06-15T12:00:00Z'),
      productsPerStore: 10,
    });
    const product = await db
      .selectFrom('products')
      .select(['id', 'sku'])
      .where('store_id', '=', 1)
      .where('type_id', '=', 'simple')
      .where('visibility', '=', 4)
      .where('status', '=', 1)
      .orderBy('sku')
      .executeTakeFirstOrThrow();
    sku = product.sku;
    await db.updateTable('stock').set({ qty: 100, is_in_stock: 1, manage_stock: 1 }).where('product_id', '=', product.id).execute();
    const [a, b] = [await start(), await start()];
    await Promise.all([a.ready(150_000), b.ready(150_000)]);
  }, 180_000);
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.stop();
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await destroy?.();
    await schema?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('delivers each event once though both nodes fan out and send, one node per attempt', async () => {
    const r = await (await receiver()).start(0);
    const ep = await createEndpoint(db, 1, { url: r.url, events: ['order.created', 'order.status_changed'] }, new Date());
    r.secrets = [ep.secret];
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await appendEvent(db, 1, i % 2 ? 'order.status_changed' : 'order.created'));
    await eventually('40 delivered', 60_000, async () => (await deliveries(ep.id)).filter((d) => d.status === 'succeeded').length === 40);

    for (const id of ids) expect(r.accepted(id), id).toHaveLength(1);
    expect(r.received).toHaveLength(40);
    expect(r.received.every((x) => x.verifiedWith === ep.secret)).toBe(true);
    const log = await attempts(ep.id);
    expect(log).toHaveLength(40);
    expect(new Set(log.map((a) => a.delivery_id)).size).toBe(40);
    const pids = new Set(nodes.slice(0, 2).map((n) => n.process.pid));
    for (const a of log) expect(pids.has(pidOf(a.node)), a.node ?? 'no node').toBe(true);
  }, 120_000);

  it('tells the receiver of real orders placed through either node, once each', async () => {
    const r = await (await receiver()).start(0);
    const ep = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, new Date());
    r.secrets = [ep.secret];
    for (const node of [nodes[0], nodes[1], nodes[0], nodes[1]]) {
      const placed = await order(node, sku);
      expect(placed.status, JSON.stringify(placed.result)).toBe(200);
      const number = placed.result.increment_id as string;
      const arrived = () => r.received.filter((x) => x.status === 200 && JSON.parse(x.body).data.increment_id === number);
      await eventually(`order ${number} at the receiver`, 15_000, () => arrived().length === 1);
      expect(JSON.parse(arrived()[0].body)).toMatchObject({
        type: 'order.created',
        data: { increment_id: number, status: 'submitted', store_code: 'downtown' },
      });
    }
    await eventually('4 succeeded', 15_000, async () => (await deliveries(ep.id)).filter((d) => d.status === 'succeeded').length === 4);
    expect(r.received).toHaveLength(4);
    expect(new Set(r.received.map((x) => x.id)).size).toBe(4);
  }, 120_000);

  it('passes retries between nodes without ever sending one delivery twice at once', async () => {
    // Each event is refused twice before it is accepted.
    const r = await (await receiver(({ nthForId }) => (nthForId <= 2 ? { status: 503, body: 'later' } : { status: 200 }))).start(0);
    const ep = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, new Date());
    r.secrets = [ep.secret];
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await appendEvent(db, 1));
    await eventually('20 delivered', 60_000, async () => (await deliveries(ep.id)).filter((d) => d.status === 'succeeded').length === 20);

    const log = await attempts(ep.id);
    for (const id of ids) {
      expect(r.accepted(id), id).toHaveLength(1);
      const mine = log.filter((a) => a.event_id === id).sort((x, y) => x.attempt - y.attempt);
      // Every request the receiver saw is one logged attempt, numbered 1, 2, 3, none overlapping.
      expect(mine.map((a) => [a.attempt, a.status_code])).toEqual([
        [1, 503],
        [2, 503],
        [3, 200],
      ]);
      expect(r.received.filter((x) => x.id === id)).toHaveLength(3);
      for (let i = 1; i < mine.length; i++) {
        expect(Date.parse(mine[i].started_at)).toBeGreaterThanOrEqual(Date.parse(mine[i - 1].started_at) + mine[i - 1].duration_ms);
      }
    }
  }, 120_000);

  it('finishes what was pending when both nodes stopped on a node started afterwards', async () => {
    const r = await receiver();
    r.port = await freePort();
    const ep = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, new Date());
    r.secrets = [ep.secret];
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await appendEvent(db, 1));
    await eventually('refused attempts logged', 30_000, async () => {
      const ds = await deliveries(ep.id);
      return ds.length === 5 && ds.every((d) => d.attempts >= 1 && d.status === 'pending');
    });
    await Promise.all(nodes.map((n) => n.stop()));
    await r.start();
    const c = await start();
    await c.ready(150_000);
    await eventually('5 delivered by the new node', 60_000, async () => (await deliveries(ep.id)).every((d) => d.status === 'succeeded'));
    for (const id of ids) expect(r.accepted(id), id).toHaveLength(1);
    const successes = (await attempts(ep.id)).filter((a) => a.status_code === 200);
    expect(successes).toHaveLength(5);
    for (const a of successes) expect(pidOf(a.node)).toBe(c.process.pid);
  }, 180_000);
});
