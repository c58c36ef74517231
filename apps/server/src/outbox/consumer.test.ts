/**
 * The outbox consumer runner on both databases: every event handled and marked, oldest first; a
 * kick starts a pass at once; a failing event waits while the others go on; `claim: 'before'`
 * hands each event to exactly one of two consumers racing on one database; stop() waits for the
 * pass in flight and nothing runs after it.
 */
import { afterEach, beforeAll, expect, it } from 'vitest';
import type { OrderEventPayload } from './append.ts';
import { appendOutboxEvent } from './append.ts';
import { createOutboxConsumer, type OutboxConsumer, type OutboxEvent } from './consumer.ts';
import { createOutboxSignal } from './signal.ts';
import { describeEachDatabase, type TestDatabase } from '../../test-support/databases.ts';
import { syncStores } from '../db/index.ts';
import { storesFile } from '../../test-support/catalog/test-app.ts';

const payload = (orderId: number): OrderEventPayload => ({
  order_id: orderId,
  increment_id: `T${orderId}`,
  store_code: 'downtown',
  status: 'submitted',
  previous_status: null,
  order_type: 'pickup',
  version: 1,
});

async function until(what: string, ms: number, check: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describeEachDatabase('outbox consumer runner', (getDb) => {
  const running: OutboxConsumer[] = [];
  beforeAll(async () => {
    await syncStores(getDb().db, storesFile);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((c) => c.stop()));
    await getDb().db.deleteFrom('outbox_events').execute();
  });

  async function addEvents(t: TestDatabase, n: number, first = 1): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      ids.push(
        await appendOutboxEvent(t.db, {
          storeId: 1,
          type: 'order.created',
          orderId: first + i,
          payload: payload(first + i),
          at: new Date().toISOString(),
        }),
      );
    }
    return ids;
  }
  const unmarked = async (column: 'pushed_at' | 'messages_at') =>
    (await getDb().db.selectFrom('outbox_events').select('event_id').where(column, 'is', null).execute()).map((r) => r.event_id);

  it('handles every event once, oldest first, in batches, and marks only its own column', async () => {
    const t = getDb();
    const ids = await addEvents(t, 7);
    const seen: string[] = [];
    const consumer = createOutboxConsumer({
      name: 't',
      db: t.db,
      signal: createOutboxSignal(),
      column: 'messages_at',
      batchSize: 3,
      handle: async (e) => void seen.push(e.event_id),
    });
    expect(await consumer.drain()).toBe(7);
    expect(seen).toEqual(ids);
    expect(await unmarked('messages_at')).toEqual([]);
    expect(await unmarked('pushed_at')).toEqual(ids);
    expect(await consumer.drain()).toBe(0);
    expect(seen).toHaveLength(7);
  });

  it('a kick starts a pass at once (the poll is a minute away)', async () => {
    const t = getDb();
    const signal = createOutboxSignal();
    const seen: OutboxEvent[] = [];
    const consumer = createOutboxConsumer({
      name: 't',
      db: t.db,
      signal,
      column: 'pushed_at',
      pollMs: 60_000,
      handle: async (e) => void seen.push(e),
    });
    running.push(consumer);
    consumer.start();
    await until('first (empty) pass', 2000, async () => (await consumer.drain()) === 0);
    const [id] = await addEvents(t, 1, 100);
    const started = Date.now();
    signal.kick();
    await until('kicked event handled', 2000, () => seen.length === 1);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(seen[0]).toMatchObject({ event_id: id, store_id: 1, type: 'order.created', order_id: 100, payload: payload(100) });
    await until('marked', 2000, async () => (await unmarked('pushed_at')).length === 0);
  });

  it('polls without kicks', async () => {
    const t = getDb();
    const seen: string[] = [];
    const consumer = createOutboxConsumer({
      name: 't',
      db: t.db,
      signal: createOutboxSignal(),
      column: 'pushed_at',
      pollMs: 50,
      handle: async (e) => void seen.push(e.event_id),
    });
    running.push(consumer);
    consumer.start();
    const ids = await addEvents(t, 2, 200);
    await until('polled', 3000, () => seen.length === 2);
    expect(seen).toEqual(ids);
  });

  it('an event whose handler throws stays unmarked and waits; the others go on; it is retried later', async () => {
    const t = getDb();
    const ids = await addEvents(t, 3, 300);
    let failBad = true;
    const errors: string[] = [];
    const seen: string[] = [];
    const consumer = createOutboxConsumer({
      name: 't',
      db: t.db,
      signal: createOutboxSignal(),
      column: 'messages_at',
      retryFailedAfterMs: 100,
      handle: async (e) => {
        if (e.event_id === ids[1] && failBad) throw new Error('provider down');
        seen.push(e.event_id);
      },
      onError: (err, e) => errors.push(`${e?.event_id}: ${(err as Error).message}`),
    });
    expect(await consumer.drain()).toBe(3);
    expect(seen).toEqual([ids[0], ids[2]]);
    expect(errors).toEqual([`${ids[1]}: provider down`]);
    expect(await unmarked('messages_at')).toEqual([ids[1]]);
    // Within the retry window the failed event is left alone.
    expect(await consumer.drain()).toBe(0);
    failBad = false;
    await new Promise((r) => setTimeout(r, 120));
    expect(await consumer.drain()).toBe(1);
    expect(seen).toEqual([ids[0], ids[2], ids[1]]);
    expect(await unmarked('messages_at')).toEqual([]);
  });

  it("claim 'before': two consumers racing on one database hand each event to exactly one of them", async () => {
    const t = getDb();
    const ids = await addEvents(t, 40, 400);
    const seen = new Map<string, number>();
    const make = () =>
      createOutboxConsumer({
        name: 't',
        db: t.db,
        signal: createOutboxSignal(),
        column: 'pushed_at',
        claim: 'before',
        batchSize: 5,
        handle: async (e) => {
          seen.set(e.event_id, (seen.get(e.event_id) ?? 0) + 1);
          await new Promise((r) => setImmediate(r));
        },
      });
    const [a, b] = [make(), make()];
    const [na, nb] = await Promise.all([a.drain(), b.drain()]);
    expect(na + nb).toBe(40);
    expect([...seen.keys()].sort()).toEqual([...ids].sort());
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(await unmarked('pushed_at')).toEqual([]);
  });

  it('stop() waits for the pass in flight; nothing runs after it, kicks included', async () => {
    const t = getDb();
    await addEvents(t, 1, 500);
    const signal = createOutboxSignal();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let handling = false;
    let handled = 0;
    const consumer = createOutboxConsumer({
      name: 't',
      db: t.db,
      signal,
      column: 'pushed_at',
      pollMs: 10,
      handle: async () => {
        handling = true;
        await gate;
        handled++;
      },
    });
    consumer.start();
    await until('handler entered', 2000, () => handling);
    let stoppedAt = 0;
    const stopping = consumer.stop().then(() => (stoppedAt = handled));
    await new Promise((r) => setTimeout(r, 30));
    expect(stoppedAt).toBe(0);
    release();
    await stopping;
    expect(stoppedAt).toBe(1);
    await addEvents(t, 1, 501);
    signal.kick();
    await new Promise((r) => setTimeout(r, 100));
    expect(handled).toBe(1);
    expect(await unmarked('pushed_at')).toHaveLength(1);
  });
});
