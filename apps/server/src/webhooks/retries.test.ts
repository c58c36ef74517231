/**
 * Webhooks out when receivers misbehave, on SQLite and PostgreSQL with real receivers on
 * loopback: down (connection refused), then failing (500), then up — every event arrives and is
 * accepted exactly once, every attempt logged; 410 Gone disables the endpoint; Retry-After is
 * honoured; the schedule runs out into `failed`; a hanging receiver times out; a delivery left
 * leased by a node that died is sent by the next one. The retry schedule is shrunk (never slept).
 */
import { afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { createEndpoint } from './endpoints.ts';
import { createWebhookEngine, type WebhookEngine } from './engine.ts';
import { fanOutWebhookEvents } from './fanout.ts';
import { appendEvent, attemptsOf, deliveriesOf, eventually, Receiver, resetWebhooks, syncDemoStores, type Behaviour } from '../../test-support/webhooks/testing.ts';
import { freePort } from '../../test-support/multinode/harness.ts';

describeEachDatabase('webhook retries', (getDb) => {
  const receivers: Receiver[] = [];
  const engines: WebhookEngine[] = [];
  const engine = (options: Partial<Parameters<typeof createWebhookEngine>[0]> = {}) => {
    const e = createWebhookEngine({
      db: getDb().db,
      node: 'node-a',
      pollMs: 50,
      retrySchedule: [30, 30, 30, 30, 30, 30, 30, 30],
      ...options,
    });
    engines.push(e);
    return e;
  };
  /** An endpoint whose receiver is not started yet (its port refuses connections). */
  const setUp = async (behaviour?: Behaviour) => {
    const r = new Receiver([], behaviour);
    receivers.push(r);
    r.port = await freePort();
    const ep = await createEndpoint(getDb().db, 1, { url: r.url, events: ['order.created', 'order.status_changed'] }, new Date());
    r.secrets = [ep.secret];
    return { r, ep };
  };
  beforeAll(async () => syncDemoStores(getDb().db));
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.close();
    for (const r of receivers.splice(0)) await r.stop();
    await resetWebhooks(getDb().db);
  });

  it('gets every event through a receiver that is down, then failing, then up: each accepted once, all attempts logged', async () => {
    const { db } = getDb();
    // Up after being down, it answers 500 twice per event before accepting.
    const { r, ep } = await setUp(({ nthForId }) => (nthForId <= 2 ? { status: 500, body: 'busy' } : { status: 204 }));
    const ids = [await appendEvent(db, 1), await appendEvent(db, 1, 'order.status_changed'), await appendEvent(db, 1)];
    // Room for however many refused attempts happen before the receiver is up.
    const e = engine({ retrySchedule: Array(30).fill(30) });
    e.start();
    await eventually('two refused attempts each', 15_000, async () => {
      const ds = await deliveriesOf(db, ep.id);
      return ds.length === 3 && ds.every((d) => d.attempts >= 2);
    });
    expect(r.received).toHaveLength(0);
    await r.start();
    await eventually('all delivered', 15_000, async () => (await deliveriesOf(db, ep.id)).every((d) => d.status === 'succeeded'));

    for (const id of ids) {
      expect(r.accepted(id)).toHaveLength(1);
      expect(r.received.filter((x) => x.id === id).map((x) => x.status)).toEqual([500, 500, 204]);
    }
    for (const d of await deliveriesOf(db, ep.id)) {
      const attempts = await attemptsOf(db, d.id);
      expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));
      expect(d.attempts).toBe(attempts.length);
      expect(d.last_status_code).toBe(204);
      const refused = attempts.filter((a) => a.status_code === null);
      expect(refused.length).toBeGreaterThanOrEqual(2);
      for (const a of refused) expect(a.error).toMatch(/ECONNREFUSED/);
      expect(attempts.slice(refused.length).map((a) => [a.status_code, a.response_excerpt])).toEqual([
        [500, 'busy'],
        [500, 'busy'],
        [204, null],
      ]);
      expect(attempts.every((a) => a.node === 'node-a')).toBe(true);
    }
  });

  it('disables the endpoint on 410 Gone and sends it nothing more', async () => {
    const { db } = getDb();
    const { r, ep } = await setUp(() => ({ status: 410, body: 'gone for good' }));
    await r.start();
    const first = await appendEvent(db, 1);
    await engine().runOnce();
    expect(r.received.map((x) => x.id)).toEqual([first]);
    const endpoint = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', ep.id).executeTakeFirstOrThrow();
    expect(endpoint.disabled_at).not.toBeNull();
    expect(endpoint.disabled_reason).toMatch(/410/);
    const [delivery] = await deliveriesOf(db, ep.id);
    expect(delivery).toMatchObject({ status: 'disabled', attempts: 1, last_status_code: 410, next_attempt_at: null });
    expect((await attemptsOf(db, delivery.id))[0]).toMatchObject({ status_code: 410, response_excerpt: 'gone for good' });

    await appendEvent(db, 1);
    await engines[0].runOnce();
    expect(r.received).toHaveLength(1);
    expect(await deliveriesOf(db, ep.id)).toHaveLength(1);
  });

  it('waits as long as Retry-After says (seconds) before the next attempt', async () => {
    const { db } = getDb();
    const { r, ep } = await setUp(({ nthForId }) => (nthForId === 1 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 }));
    await r.start();
    const id = await appendEvent(db, 1);
    engine().start();
    await eventually('delivered', 15_000, async () => (await deliveriesOf(db, ep.id))[0]?.status === 'succeeded');
    expect(r.accepted(id)).toHaveLength(1);
    const [d] = await deliveriesOf(db, ep.id);
    const [a1, a2] = await attemptsOf(db, d.id);
    expect(a1.status_code).toBe(503);
    // The schedule alone would have retried after 30 ms.
    expect(Date.parse(a2.started_at) - (Date.parse(a1.started_at) + a1.duration_ms)).toBeGreaterThanOrEqual(950);
    expect(r.received[1].at - r.received[0].at).toBeGreaterThanOrEqual(950);
  });

  it('fails a delivery once the schedule is spent', async () => {
    const { db } = getDb();
    const { r, ep } = await setUp(() => ({ status: 500, body: 'x'.repeat(2000) }));
    await r.start();
    const id = await appendEvent(db, 1);
    const e = engine({ retrySchedule: [10, 10] });
    e.start();
    await eventually('failed', 15_000, async () => (await deliveriesOf(db, ep.id))[0]?.status === 'failed');
    await e.runOnce();
    expect(r.received.filter((x) => x.id === id)).toHaveLength(3);
    const [d] = await deliveriesOf(db, ep.id);
    expect(d).toMatchObject({ attempts: 3, last_status_code: 500, next_attempt_at: null, delivered_at: null });
    const attempts = await attemptsOf(db, d.id);
    expect(attempts).toHaveLength(3);
    expect(attempts[0].response_excerpt).toBe('x'.repeat(500));
  });

  it('ends an attempt the receiver never answers at the timeout and retries it', async () => {
    const { db } = getDb();
    const { r, ep } = await setUp(({ nthForId }) => (nthForId === 1 ? { status: 200, hang: true } : { status: 200 }));
    await r.start();
    const id = await appendEvent(db, 1);
    engine({ timeoutMs: 300 }).start();
    await eventually('delivered', 15_000, async () => (await deliveriesOf(db, ep.id))[0]?.status === 'succeeded');
    // The receiver saw the first request too (it just never answered it).
    expect(r.received.filter((x) => x.id === id)).toHaveLength(2);
    const [d] = await deliveriesOf(db, ep.id);
    const [a1, a2] = await attemptsOf(db, d.id);
    expect(a1).toMatchObject({ status_code: null, error: 'Timed out.' });
    expect(a1.duration_ms).toBeGreaterThanOrEqual(290);
    expect(a2.status_code).toBe(200);
    expect(d.status).toBe('succeeded');
  });

  it('sends a delivery whose node died holding it once the lease ran out, and picks up pending work after a restart', async () => {
    const { db } = getDb();
    const { r, ep } = await setUp();
    await r.start();
    const held = await appendEvent(db, 1);
    const waiting = await appendEvent(db, 1);
    await fanOutWebhookEvents(db, new Date());
    const [d1] = (await deliveriesOf(db, ep.id)).filter((d) => d.event_id === held);
    // A node claimed it and died; its lease is still running, then it runs out.
    await db
      .updateTable('webhook_deliveries')
      .set({ leased_by: 'dead-node', lease_until: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', d1.id)
      .execute();
    const e = engine({ node: 'node-b' });
    await e.runOnce();
    expect(r.accepted(held)).toHaveLength(0);
    expect(r.accepted(waiting)).toHaveLength(1);
    await db
      .updateTable('webhook_deliveries')
      .set({ lease_until: new Date(Date.now() - 1).toISOString() })
      .where('id', '=', d1.id)
      .execute();
    await e.close();
    const restarted = engine({ node: 'node-c' });
    await restarted.runOnce();
    expect(r.accepted(held)).toHaveLength(1);
    expect((await attemptsOf(db, d1.id)).map((a) => a.node)).toEqual(['node-c']);
  });
});
