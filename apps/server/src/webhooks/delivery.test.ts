/**
 * Webhooks out on SQLite and PostgreSQL, against real receivers on loopback that verify each
 * request with `standardwebhooks`: fan-out (subscribed types, enabled endpoints, idempotent),
 * the signed body and headers, secret rotation (two signatures during the overlap, one after),
 * replay, and two engines on one database sending each delivery once.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { createEndpoint, listDeliveries, replayDelivery, rotateSecret, updateEndpoint } from './endpoints.ts';
import { createWebhookEngine, type WebhookEngine } from './engine.ts';
import { fanOutWebhookEvents } from './fanout.ts';
import { claimDelivery, nextDueAt } from './sender.ts';
import { newWebhookSecret } from './signing.ts';
import { appendEvent, attemptsOf, deliveriesOf, eventually, Receiver, resetWebhooks, syncDemoStores } from '../../test-support/webhooks/testing.ts';

describeEachDatabase('webhook delivery', (getDb) => {
  const receivers: Receiver[] = [];
  const engines: WebhookEngine[] = [];
  const receiver = async (...args: ConstructorParameters<typeof Receiver>) => {
    const r = await new Receiver(...args).start(0);
    receivers.push(r);
    return r;
  };
  const engine = (node: string, options: Partial<Parameters<typeof createWebhookEngine>[0]> = {}) => {
    const e = createWebhookEngine({ db: getDb().db, node, pollMs: 50, retrySchedule: [20, 20, 20], ...options });
    engines.push(e);
    return e;
  };
  beforeAll(async () => syncDemoStores(getDb().db));
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.close();
    for (const r of receivers.splice(0)) await r.stop();
    await resetWebhooks(getDb().db);
  });

  it('delivers each subscribed event once, signed, to enabled endpoints of its store only', async () => {
    const { db } = getDb();
    const now = new Date();
    const r = await receiver();
    const all = await createEndpoint(db, 1, { url: r.url, events: ['order.created', 'order.status_changed'] }, now);
    const createdOnly = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, now);
    const off = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, now);
    await updateEndpoint(db, 1, off.id, { disabled: true }, now);
    const otherStore = await createEndpoint(db, 2, { url: r.url, events: ['order.created'] }, now);
    r.secrets = [all.secret, createdOnly.secret, off.secret, otherStore.secret];

    const created = await appendEvent(db, 1, 'order.created');
    const moved = await appendEvent(db, 1, 'order.status_changed');
    const updated = await appendEvent(db, 1, 'order.updated');
    await engine('node-a').runOnce();

    // created → both subscribed endpoints; moved → one; order.updated is console-only; nothing for off / store 2.
    expect(r.received).toHaveLength(3);
    expect(r.received.every((x) => x.status === 200)).toBe(true);
    expect(
      r.received
        .filter((x) => x.id === created)
        .map((x) => x.verifiedWith)
        .sort(),
    ).toEqual([all.secret, createdOnly.secret].sort());
    expect(r.received.filter((x) => x.id === moved).map((x) => x.verifiedWith)).toEqual([all.secret]);
    expect(r.received.some((x) => x.id === updated)).toBe(false);
    expect(await deliveriesOf(db, off.id)).toEqual([]);
    expect(await deliveriesOf(db, otherStore.id)).toEqual([]);

    const first = r.received.find((x) => x.id === moved)!;
    expect(first.headers['content-type']).toBe('application/json');
    expect(Number(first.timestamp)).toBeGreaterThanOrEqual(Math.floor(now.getTime() / 1000) - 1);
    expect(first.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const body = JSON.parse(first.body);
    expect(body).toMatchObject({
      type: 'order.status_changed',
      data: { status: 'confirmed', previous_status: 'submitted', store_code: 'downtown' },
    });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    // What the receiver verified, another secret does not.
    expect(() => new Webhook(newWebhookSecret()).verify(first.body, first.headers as Record<string, string>)).toThrow(
      /No matching signature/,
    );

    const [delivery] = await deliveriesOf(db, all.id).then((ds) => ds.filter((d) => d.event_id === moved));
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 200, lease_until: null });
    expect(delivery.delivered_at).not.toBeNull();
    const attempts = await attemptsOf(db, delivery.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, status_code: 200, error: null, response_excerpt: 'ok', node: 'node-a' });
    expect(attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
    const marked = await db
      .selectFrom('outbox_events')
      .select(['event_id', 'webhooks_at'])
      .where('event_id', 'in', [created, moved, updated])
      .execute();
    expect(marked.every((e) => e.webhooks_at !== null)).toBe(true);
  });

  it('fans an event out once however often and by however many it is handled', async () => {
    const { db } = getDb();
    const r = await receiver();
    const ep = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, new Date());
    const ids = [await appendEvent(db, 1), await appendEvent(db, 1)];
    await Promise.all([fanOutWebhookEvents(db, new Date()), fanOutWebhookEvents(db, new Date()), fanOutWebhookEvents(db, new Date())]);
    // A crash between the insert and the mark: the event is handed on again.
    await db.updateTable('outbox_events').set({ webhooks_at: null }).where('event_id', 'in', ids).execute();
    await fanOutWebhookEvents(db, new Date());
    const rows = await deliveriesOf(db, ep.id);
    expect(rows.map((d) => d.event_id).sort()).toEqual([...ids].sort());
    expect(rows.every((d) => d.status === 'pending')).toBe(true);
  });

  it('signs with both secrets during a rotation and with the new one only after it', async () => {
    const { db } = getDb();
    const r = await receiver();
    const ep = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, new Date());
    const rotated = await rotateSecret(db, 1, ep.id, new Date());
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(rotated.secret).not.toBe(ep.secret);
    expect(Date.parse(rotated.previous_secret_until!) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    r.secrets = [ep.secret];
    const during = await appendEvent(db, 1);
    const e = engine('node-a');
    await e.runOnce();
    const got = r.received.find((x) => x.id === during)!;
    expect(got.signature.split(' ')).toHaveLength(2);
    const headers = got.headers as Record<string, string>;
    expect(() => new Webhook(ep.secret).verify(got.body, headers)).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(got.body, headers)).not.toThrow();

    // The overlap is over (as 24 h later): the old secret no longer signs.
    await db
      .updateTable('webhook_endpoints')
      .set({ previous_secret_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', ep.id)
      .execute();
    r.secrets = [ep.secret, rotated.secret];
    const after = await appendEvent(db, 1);
    await e.runOnce();
    const later = r.received.find((x) => x.id === after)!;
    expect(later.signature.split(' ')).toHaveLength(1);
    expect(later.verifiedWith).toBe(rotated.secret);
    expect(() => new Webhook(ep.secret).verify(later.body, later.headers as Record<string, string>)).toThrow(/No matching signature/);
  });

  it('replays a delivery: one more attempt now, in the log', async () => {
    const { db } = getDb();
    const r = await receiver();
    const ep = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, new Date());
    r.secrets = [ep.secret];
    const id = await appendEvent(db, 1);
    const e = engine('node-a');
    await e.runOnce();
    const [delivery] = await deliveriesOf(db, ep.id);
    const replayed = await replayDelivery(db, 1, delivery.id, new Date());
    expect(replayed).toMatchObject({ id: delivery.id, status: 'pending', attempts: 1 });
    await expect(replayDelivery(db, 2, delivery.id, new Date())).rejects.toMatchObject({ statusCode: 404 });
    await e.runOnce();
    expect(r.accepted(id)).toHaveLength(2);
    const page = await listDeliveries(db, 1, ep.id, { limit: 10 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ status: 'succeeded', attempts: 2, event_type: 'order.created' });
    expect(page.items[0].attempt_log.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 200],
      [2, 200],
    ]);
  });

  it('sends at once when kicked, not at the next poll', async () => {
    const { db } = getDb();
    const r = await receiver();
    const ep = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, new Date());
    r.secrets = [ep.secret];
    const e = engine('node-a', { pollMs: 60_000 });
    e.start();
    // The first pass (at start) found nothing; the loop now sleeps for a minute.
    await e.runOnce();
    const id = await appendEvent(db, 1);
    const kicked = Date.now();
    e.kick();
    await eventually('delivered after the kick', 10_000, async () => (await deliveriesOf(db, ep.id))[0]?.status === 'succeeded');
    // Far sooner than the minute-long poll (a margin for a busy machine).
    expect(Date.now() - kicked).toBeLessThan(10_000);
    expect(r.accepted(id)).toHaveLength(1);
  });

  it('on an outbox kick, sends what its fan-out wrote at once and leaves deliveries it did not write to the timer', async () => {
    const { db } = getDb();
    const r = await receiver();
    const ep = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, new Date());
    r.secrets = [ep.secret];
    // What the engine asks the database, by table (a plugin sees every query it builds).
    const tables: string[][] = [];
    const watched = db.withPlugin({
      transformQuery: ({ node }) => {
        tables.push([...new Set([...JSON.stringify(node).matchAll(/"name":"(\w+)"/g)].map((m) => m[1]))]);
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const e = engine('node-a', { db: watched, pollMs: 60_000 });
    e.start();
    await e.runOnce();
    // A delivery due now that another node's fan-out wrote (and would send itself).
    const earlier = await appendEvent(db, 1);
    await fanOutWebhookEvents(db, new Date());
    expect(await deliveriesOf(db, ep.id)).toMatchObject([{ status: 'pending', attempts: 0 }]);

    // An order of a store with no endpoint: the kick's pass marks it and reads no delivery.
    tables.length = 0;
    await appendEvent(db, 2);
    e.kickEvents();
    await eventually(
      'store 2 event handed on',
      10_000,
      async () => (await db.selectFrom('outbox_events').select('id').where('webhooks_at', 'is', null).execute()).length === 0,
    );
    // Marking the event is the pass's last query.
    const kickPass = [...tables];
    expect(kickPass.some((t) => t.includes('outbox_events'))).toBe(true);
    expect(kickPass.filter((t) => t.includes('webhook_deliveries'))).toEqual([]);
    expect(r.accepted(earlier)).toHaveLength(0);
    await e.runOnce(); // a full pass, as the timer's: sends it
    expect(r.accepted(earlier)).toHaveLength(1);

    // An order of store 1: the kick's own fan-out wrote a delivery, sent at once (the poll is a minute away).
    const id = await appendEvent(db, 1);
    const kicked = Date.now();
    e.kickEvents();
    await eventually('delivered after the kick', 10_000, async () => {
      const ds = await deliveriesOf(db, ep.id);
      return ds.length === 2 && ds.every((d) => d.status === 'succeeded');
    });
    expect(Date.now() - kicked).toBeLessThan(10_000);
    expect(r.accepted(id)).toHaveLength(1);
  });

  it('sends nothing to an endpoint disabled after its deliveries were written, and leaves deliveries others hold to them', async () => {
    const { db } = getDb();
    const r = await receiver();
    const ep = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, new Date());
    r.secrets = [ep.secret];
    await appendEvent(db, 1);
    await fanOutWebhookEvents(db, new Date());
    const [d] = await deliveriesOf(db, ep.id);
    // Due, but held by another node: not this node's next wake-up.
    await db
      .updateTable('webhook_deliveries')
      .set({ lease_until: new Date(Date.now() + 60_000).toISOString(), leased_by: 'other' })
      .where('id', '=', d.id)
      .execute();
    expect(await nextDueAt(db, new Date())).toBeNull();
    await db.updateTable('webhook_deliveries').set({ lease_until: null }).where('id', '=', d.id).execute();
    expect(await nextDueAt(db, new Date())).toBe(d.next_attempt_at);

    await updateEndpoint(db, 1, ep.id, { disabled: true }, new Date());
    await engine('node-a').runOnce();
    expect(r.received).toHaveLength(0);
    expect((await deliveriesOf(db, ep.id))[0]).toMatchObject({ status: 'disabled', attempts: 0 });
  });

  it('lets one node only claim a delivery, and two engines send each delivery once', async () => {
    const { db } = getDb();
    const r = await receiver();
    const ep = await createEndpoint(db, 1, { url: r.url, events: ['order.created'] }, new Date());
    r.secrets = [ep.secret];
    await appendEvent(db, 1);
    await fanOutWebhookEvents(db, new Date());
    const [one] = await deliveriesOf(db, ep.id);
    const opts = (node: string) => ({
      db,
      node,
      retrySchedule: [],
      urlPolicy: { refusePrivate: false },
      now: () => new Date(),
      timeoutMs: 1000,
      leaseMs: 60_000,
    });
    const claims = await Promise.all(['n1', 'n2', 'n3', 'n4'].map((n) => claimDelivery(opts(n), one.id)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    await db.updateTable('webhook_deliveries').set({ lease_until: null }).where('id', '=', one.id).execute();

    const ids = [];
    for (let i = 0; i < 30; i++) ids.push(await appendEvent(db, 1));
    const a = engine('node-a', { concurrency: 4 });
    const b = engine('node-b', { concurrency: 4 });
    a.start();
    b.start();
    await eventually(
      'all 31 delivered',
      30_000,
      async () => (await deliveriesOf(db, ep.id)).filter((d) => d.status === 'succeeded').length === 31,
    );
    for (const id of ids) expect(r.received.filter((x) => x.id === id)).toHaveLength(1);
    const attempts = await db.selectFrom('webhook_attempts').select(['delivery_id', 'node']).execute();
    expect(attempts).toHaveLength(31);
    expect(new Set(attempts.map((x) => x.delivery_id)).size).toBe(31);
  });
});

describe('Receiver (test support)', () => {
  it('refuses a request signed with another secret', async () => {
    const r = await new Receiver([newWebhookSecret()]).start(0);
    try {
      const body = '{"type":"order.created"}';
      const secret = newWebhookSecret();
      const res = await fetch(r.url, {
        method: 'POST',
        headers: {
          'webhook-id': 'evt_x',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': new Webhook(secret).sign('evt_x', new Date(), body),
        },
        body,
      });
      expect(res.status).toBe(401);
      expect(r.received[0].verifiedWith).toBeNull();
    } finally {
      await r.stop();
    }
  });
});
