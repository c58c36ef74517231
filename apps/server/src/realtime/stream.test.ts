/**
 * The console's live stream over a real HTTP server on loopback (both databases): a staff member's
 * open stream receives an order placed through the real order API within 2 s, and status moves;
 * a store's stream carries only that store's events; the guard refuses strangers and foreign
 * stores; a closed client leaves no listener behind; closing the app ends open streams.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seed, storeByCode, storesFile, testApp } from '../../test-support/catalog/test-app.ts';
import { moveOrderForTest } from '../../test-support/outbox/test-events.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { openSse, type SseStream } from '../../test-support/realtime/sse-client.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const downtown = storeByCode('downtown');
const other = storesFile.stores.find((s) => s.storeCode !== 'downtown')!;

describeEachDatabase('console live stream (SSE)', (getDb) => {
  let app: FastifyInstance;
  let base: string;
  let owner: StaffTestSession;
  let budtender: StaffTestSession;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    const t = getDb();
    await seed(t);
    app = await testApp(t);
    await addStaff(t.db, { email: 'owner@stream.test', role: 'owner' });
    await addStaff(t.db, { email: 'bud@stream.test', role: 'budtender', storeIds: [downtown.storeId] });
    owner = await loginStaff(app, 'owner@stream.test');
    budtender = await loginStaff(app, 'bud@stream.test');
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await app?.close();
  });

  const open = async (storeId: number, session?: StaffTestSession) => {
    const s = await openSse(`${base}/api/console/stores/${storeId}/events`, session ? { cookie: session.cookie } : {});
    streams.push(s);
    return s;
  };
  const placeOrder = async () => {
    const res = await fetch(`${base}/api/order/save`, {
      method: 'POST',
      headers: { host: 'downtown.localhost', 'content-type': 'application/json' },
      body: JSON.stringify({
        idempotency_key: randomUUID(),
        products: [{ sku: JAR, qty: 1 }],
        order_type: 'pickup',
        personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' },
        // Age on every order (issue 14): a guest gives a date of birth.
        birthday: '1990-01-01',
        payment_method: 'cashondelivery',
      }),
    });
    const body = (await res.json()) as { code: number; result: { order_id: number; increment_id: string } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    return { ...body.result, savedAt: performance.now() };
  };

  it('answers text/event-stream, uncached and unbuffered, and says ready', async () => {
    const s = await open(downtown.storeId, budtender);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toBe('text/event-stream');
    expect(s.headers['cache-control']).toBe('no-store');
    expect(s.headers['x-accel-buffering']).toBe('no');
    expect(s.headers['content-encoding']).toBeUndefined();
    const ready = await s.waitFor((f) => f.event === 'ready', 2000);
    expect(ready.data).toEqual({ store_id: downtown.storeId });
    s.close();
  });

  it('an order placed through the API reaches the open stream within 2 s; status moves follow', async () => {
    const s = await open(downtown.storeId, budtender);
    await s.waitFor((f) => f.event === 'ready', 2000);
    const placed = await placeOrder();
    const created = await s.waitFor((f) => f.event === 'order' && f.data.order_id === placed.order_id, 2000);
    expect(created.at - placed.savedAt).toBeLessThan(2000);
    expect(created.data).toMatchObject({
      type: 'order.created',
      order_id: placed.order_id,
      increment_id: placed.increment_id,
      store_code: 'downtown',
      order_type: 'pickup',
    });
    expect(created.data.event_id).toMatch(/^evt_/);
    expect(created.id).toBe(created.data.event_id);

    const readyBy = new Date(Date.now() + 3600_000).toISOString();
    const eventId = await moveOrderForTest(getDb().db, { orderId: placed.order_id, to: 'confirmed', readyBy });
    app.outbox.kick();
    const moved = await s.waitFor((f) => f.data?.event_id === eventId, 2000);
    expect(moved.data).toMatchObject({
      type: 'order.status_changed',
      status: 'confirmed',
      previous_status: created.data.status,
      ready_by: readyBy,
    });
    s.close();
  });

  it("a store's stream carries only that store's events", async () => {
    const mine = await open(downtown.storeId, owner);
    const theirs = await open(other.storeId, owner);
    await Promise.all([mine.waitFor((f) => f.event === 'ready', 2000), theirs.waitFor((f) => f.event === 'ready', 2000)]);
    const placed = await placeOrder();
    await mine.waitFor((f) => f.data?.order_id === placed.order_id, 2000);
    // Pushes go out in outbox order: an event of the other store committed after this one is a fence.
    const last = await placeOrder();
    await mine.waitFor((f) => f.data?.order_id === last.order_id, 2000);
    expect(theirs.frames.filter((f) => f.event === 'order')).toEqual([]);
    mine.close();
    theirs.close();
  });

  it('refuses a stream without a session (401) and a store the member is not assigned (403)', async () => {
    const anonymous = await fetch(`${base}/api/console/stores/${downtown.storeId}/events`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ errorCode: 'login_required' });
    const foreign = await fetch(`${base}/api/console/stores/${other.storeId}/events`, { headers: { cookie: budtender.cookie } });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ errorCode: 'store_forbidden' });
  });

  it('a client that goes away leaves no listener behind', async () => {
    const hub = app.outboxDispatcher.hub;
    const before = hub.listeners(downtown.storeId);
    const s = await open(downtown.storeId, budtender);
    await s.waitFor((f) => f.event === 'ready', 2000);
    expect(hub.listeners(downtown.storeId)).toBe(before + 1);
    s.close();
    const deadline = Date.now() + 2000;
    while (hub.listeners(downtown.storeId) !== before) {
      if (Date.now() > deadline) throw new Error('listener still registered 2 s after the client left');
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(hub.listeners(downtown.storeId)).toBe(before);
  });

  it('a stream reopened with Last-Event-ID gets what was pushed meanwhile, after ready; an unknown id replays nothing', async () => {
    const first = await open(downtown.storeId, budtender);
    await first.waitFor((f) => f.event === 'ready', 2000);
    const seen = await placeOrder();
    const lastFrame = await first.waitFor((f) => f.data?.order_id === seen.order_id, 2000);
    first.close();

    // Two orders while no console is connected; wait until the push consumer took them.
    const missed = [await placeOrder(), await placeOrder()];
    const db = getDb().db;
    const deadline = Date.now() + 5000;
    for (;;) {
      const pending = await db
        .selectFrom('outbox_events')
        .select('id')
        .where(
          'order_id',
          'in',
          missed.map((o) => o.order_id),
        )
        .where('pushed_at', 'is', null)
        .execute();
      if (pending.length === 0) break;
      if (Date.now() > deadline) throw new Error('the missed orders were not pushed within 5 s');
      await new Promise((r) => setTimeout(r, 20));
    }

    const replayed = await openSse(`${base}/api/console/stores/${downtown.storeId}/events`, {
      cookie: budtender.cookie,
      'last-event-id': lastFrame.id!,
    });
    streams.push(replayed);
    for (const order of missed)
      await replayed.waitFor((f) => f.data?.order_id === order.order_id && f.data?.type === 'order.created', 2000);
    const orderFrames = replayed.frames.filter((f) => f.event === 'order');
    expect(replayed.frames[0].event).toBe('ready');
    expect(orderFrames.map((f) => f.data.order_id)).toEqual(missed.map((o) => o.order_id));
    expect(orderFrames.every((f) => f.id === f.data.event_id)).toBe(true);
    replayed.close();

    // An id the store does not have (or another store's) replays nothing: the next live order is the first frame.
    const unknown = await openSse(`${base}/api/console/stores/${downtown.storeId}/events`, {
      cookie: budtender.cookie,
      'last-event-id': 'evt_notAnEventOfThisStore',
    });
    streams.push(unknown);
    await unknown.waitFor((f) => f.event === 'ready', 2000);
    const next = await placeOrder();
    await unknown.waitFor((f) => f.data?.order_id === next.order_id, 2000);
    expect(unknown.frames.filter((f) => f.event === 'order').map((f) => f.data.order_id)).toEqual([next.order_id]);
    unknown.close();
  });

  it('closing the app ends the open streams (close does not hang)', async () => {
    const s = await open(downtown.storeId, owner);
    await s.waitFor((f) => f.event === 'ready', 2000);
    const started = performance.now();
    await app.close();
    await s.ended;
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
