/**
 * Two real server processes on one PostgreSQL schema and one Redis, both running the outbox
 * dispatcher: orders placed through node A reach a console stream open on node B within 2 s, each
 * event once; the order messages (the store's e-mail, the shopper's SMS and e-mail) written from
 * those events are sent exactly once through real HTTP gateways on loopback, although both nodes
 * run the messages consumer and the sender. Issue 26: a member disabled, or logged out, through
 * node A has their stream on node B end within 500 ms (the access change crosses Redis; no event
 * is sent meanwhile, so no per-event check could have ended it) and no order reaches it after.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORES_FILE } from '../config.ts';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../db/index.ts';
import { freePort, freshSchema, order, PG_URL, REDIS_URL, startNode, within, type ServerNode } from '../../test-support/multinode/harness.ts';
import { moveOrderForTest } from '../../test-support/outbox/test-events.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { addStaff, TEST_STAFF_PASSWORD } from '../../test-support/staff/testing.ts';
import { openSse, type SseStream } from '../../test-support/realtime/sse-client.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const ORDERS = 6;

const needed = !PG_URL ? 'TEST_DATABASE_URL is not set' : null;
if (needed && process.env.CI !== 'true') console.warn(`[verdant tests] skipping the two-node console stream test: ${needed}`);

describe.skipIf(needed !== null && process.env.CI !== 'true')('console stream and messages on two nodes (PostgreSQL + Redis)', () => {
  const prefix = `verdant-rt-${process.pid}-${Math.random().toString(36).slice(2)}:`;
  const received: { path: string; body: any }[] = [];
  let gateway: Server;
  let gatewayUrl: string;
  let drop: () => Promise<void>;
  let handle: DatabaseHandle;
  let dataDir: string;
  let a: ServerNode;
  let b: ServerNode;
  let stream: SseStream | undefined;
  let budId: number;
  const others: SseStream[] = [];

  beforeAll(async () => {
    gateway = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: JSON.parse(raw) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;

    const schema = await freshSchema();
    drop = schema.drop;
    dataDir = mkdtempSync(join(tmpdir(), 'verdant-rt-'));
    handle = await createDatabase({ databaseUrl: schema.url, dataDir });
    await migrateToLatest(handle.db);
    await seedDemo(handle.db, readStoresFile(DEMO_STORES_FILE), { dataDir, referenceDate: new Date('2026-06-15T12:00:00Z') });
    await handle.db
      .updateTable('stock')
      .set({ qty: 1000, is_in_stock: 1 })
      .where('product_id', 'in', handle.db.selectFrom('products').select('id').where('sku', '=', JAR))
      .execute();
    await handle.db
      .insertInto('store_order_settings')
      .values({ store_id: 1, order_email: 'orders@downtown.test', updated_at: new Date().toISOString() })
      .execute();
    await addStaff(handle.db, { email: 'owner@two-nodes.test', role: 'owner' });
    budId = await addStaff(handle.db, { email: 'bud@two-nodes.test', role: 'budtender', storeIds: [1] });
    await addStaff(handle.db, { email: 'bud2@two-nodes.test', role: 'budtender', storeIds: [1] });

    const env = {
      DATABASE_URL: schema.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      SMS_PROVIDER: 'http',
      SMS_HTTP_URL: `${gatewayUrl}/sms`,
      MAIL_PROVIDER: 'http',
      MAIL_HTTP_URL: `${gatewayUrl}/mail`,
    };
    a = startNode(env, await freePort());
    b = startNode(env, await freePort());
    // Two processes compiling TypeScript at once on a busy machine took 35 s (load 18).
    await Promise.all([a.ready(90_000), b.ready(90_000)]);
  }, 180_000);

  afterAll(async () => {
    stream?.close();
    for (const s of others) s.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await handle?.destroy();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
    await new Promise((r) => gateway.close(r));
  });

  it('orders placed on node A reach a stream on node B within 2 s, once each; every message is sent exactly once', async () => {
    const login = await fetch(`${b.base}/api/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@two-nodes.test', password: TEST_STAFF_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = /^(verdant_staff=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1];
    stream = await openSse(`${b.base}/api/console/stores/1/events`, { cookie });
    expect(stream.status).toBe(200);
    await stream.waitFor((f) => f.event === 'ready', 2000);

    const placed: { id: number; number: string }[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const res = await order(a, JAR);
      expect(res.status, JSON.stringify(res.result)).toBe(200);
      const savedAt = performance.now();
      const frame = await stream.waitFor((f) => f.event === 'order' && f.data.order_id === res.result.order_id, 2000);
      expect(frame.at - savedAt).toBeLessThan(2000);
      expect(frame.data).toMatchObject({ type: 'order.created', increment_id: res.result.increment_id, store_code: 'downtown' });
      placed.push({ id: res.result.order_id, number: res.result.increment_id });
    }

    // Staff move each order (written as the lifecycle code writes it), then kick both nodes through Redis.
    const moved = new Set<string>();
    for (const o of placed) moved.add(await moveOrderForTest(handle.db, { orderId: o.id, to: 'ready_for_pickup' }));
    const redis = new Redis(REDIS_URL);
    try {
      await redis.publish(`${prefix}outbox-kick`, 'the-test');
    } finally {
      redis.disconnect();
    }
    await within(
      'status moves reach node B',
      3000,
      async () => stream!.frames.filter((f) => moved.has(f.data?.event_id)).length === ORDERS,
    );

    // 3 messages per order of this test: the store's e-mail, the shopper's SMS and e-mail (issue 30: this
    // gateway reports no deliveries, so the e-mail cannot wait as the SMS's fallback). The demo nodes
    // also place the demo sample trip's orders at start (issue 29, seed/demo-trip.ts): their messages
    // must be sent exactly once as well, so every row counts, and the test's own are counted apart.
    const mine = new Set(placed.map((o) => o.id));
    await within('every message sent', 10_000, async () => {
      const rows = await handle.db.selectFrom('message_deliveries').select(['status', 'order_id']).execute();
      return rows.filter((r) => r.order_id !== null && mine.has(r.order_id)).length === ORDERS * 3 && rows.every((r) => r.status === 'sent');
    });
    const rows = await handle.db.selectFrom('message_deliveries').select(['attempts', 'channel', 'recipient', 'template']).execute();
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    // Let a late duplicate (if there were one) arrive before counting.
    await new Promise((r) => setTimeout(r, 1500));
    const keys = received.map((r) => `${r.path} ${r.body.to} ${r.body.subject ?? ''} ${r.body.text}`);
    expect(keys).toHaveLength(rows.length);
    expect(new Set(keys).size).toBe(rows.length);
    const aboutMine = keys.filter((k) => placed.some((o) => k.includes(`#${o.number}`)));
    expect(aboutMine).toHaveLength(ORDERS * 3);
    for (const o of placed) {
      expect(received.filter((r) => r.path === '/sms' && r.body.text.includes(`#${o.number} is ready for pickup`))).toHaveLength(1);
      expect(
        received.filter((r) => r.path === '/mail' && r.body.to === 'orders@downtown.test' && r.body.subject.includes(`#${o.number}`)),
      ).toHaveLength(1);
    }

    // Each event reached the stream once (one node pushed it).
    const ids = stream.frames.filter((f) => f.event === 'order').map((f) => f.data.event_id);
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);

  const login = async (node: ServerNode, email: string) => {
    const res = await fetch(`${node.base}/api/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: TEST_STAFF_PASSWORD }),
    });
    expect(res.status).toBe(200);
    const cookie = /^(verdant_staff=[^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1];
    const { csrfToken } = ((await res.json()) as { result: { csrfToken: string } }).result;
    return { cookie, 'x-csrf-token': csrfToken };
  };
  const liveOn = async (node: ServerNode, headers: { cookie: string }) => {
    const s = await openSse(`${node.base}/api/console/stores/1/events`, { cookie: headers.cookie });
    others.push(s);
    expect(s.status).toBe(200);
    await s.waitFor((f) => f.event === 'ready', 2000);
    let endedAt: number | null = null;
    void s.ended.then(() => (endedAt = performance.now()));
    return { s, endedAt: () => endedAt };
  };
  const endsWithin = async (live: Awaited<ReturnType<typeof liveOn>>, since: number, ms: number) => {
    await Promise.race([live.s.ended, new Promise((r) => setTimeout(r, 3000))]);
    expect(live.endedAt(), 'the stream on node B ended').not.toBeNull();
    expect(live.endedAt()! - since).toBeLessThan(ms);
  };

  it('a member disabled or logged out through node A: their stream on node B ends within 500 ms, no order after', async () => {
    const owner = await login(a, 'owner@two-nodes.test');
    const bud = await login(b, 'bud@two-nodes.test');
    const bud2 = await login(b, 'bud2@two-nodes.test');
    const disabled = await liveOn(b, bud);
    const loggedOut = await liveOn(b, bud2);

    const patch = await fetch(`${a.base}/api/console/staff/${budId}`, {
      method: 'PATCH',
      headers: { ...owner, 'content-type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(patch.status, await patch.text()).toBe(200);
    await endsWithin(disabled, performance.now(), 500);
    expect(loggedOut.endedAt()).toBeNull();

    const logout = await fetch(`${a.base}/api/console/session`, { method: 'DELETE', headers: bud2 });
    expect(logout.status, await logout.text()).toBe(200);
    await endsWithin(loggedOut, performance.now(), 500);

    // An order placed afterwards reaches neither (they are closed) but does reach a fresh owner stream on B.
    const ownerStream = await liveOn(b, await login(b, 'owner@two-nodes.test'));
    const res = await order(a, JAR);
    expect(res.status).toBe(200);
    await ownerStream.s.waitFor((f) => f.event === 'order' && f.data.order_id === res.result.order_id, 2000);
    for (const live of [disabled, loggedOut]) expect(live.s.frames.some((f) => f.data?.order_id === res.result.order_id)).toBe(false);
  }, 30_000);
});
