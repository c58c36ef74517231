/**
 * The driver's offline queue (issue 29): kept in IndexedDB (fake-indexeddb here), sent in order,
 * kept on no answer and on 5xx, dropped with the server's words on a 4xx, a replayed answer counts
 * as sent, and the phone's reports say what waits. The network is a small server in this file that
 * keeps the first answer to each action_id, as the real one does (its own tests:
 * apps/server/src/delivery/); the browser journey is e2e/tests/driver-phone.spec.ts.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DriverActionBody } from './types.ts';
import { showTrip, type DriverTrip } from './driver-trips.ts';

type Mode = 'ok' | 'offline' | 'error500' | 'refuse' | 'lose-answer';
const server = {
  mode: 'ok' as Mode,
  applied: [] as string[],
  answers: new Map<string, unknown>(),
  reports: [] as { pending: number; oldest_pending_at: string | null }[],
  requests: [] as string[],
};

let q: typeof import('./driver-queue.ts');

beforeAll(async () => {
  (globalThis as { navigator?: unknown }).navigator = { onLine: true };
  globalThis.fetch = (async (input: string, init?: RequestInit) => {
    const body = init?.body ? JSON.parse(String(init.body)) : null;
    const reply = (status: number, result: unknown) =>
      new Response(JSON.stringify({ code: status, result }), { status, headers: { 'content-type': 'application/json' } });
    if (input.endsWith('/devices/report')) {
      if (server.mode === 'offline') throw new TypeError('Failed to fetch');
      server.reports.push(body);
      return reply(200, { ok: true });
    }
    server.requests.push(body.action_id);
    if (server.mode === 'offline') throw new TypeError('Failed to fetch');
    if (server.mode === 'error500') return reply(503, 'The database is busy.');
    if (server.mode === 'refuse') return reply(400, 'The customer is 19 on this day: the order cannot be handed over.');
    const kept = server.answers.get(body.action_id);
    if (kept) return reply(200, { ...(kept as object), replayed: true });
    server.applied.push(body.action_id);
    const answer = { action_id: body.action_id, replayed: false, trip: {} };
    server.answers.set(body.action_id, answer);
    if (server.mode === 'lose-answer') {
      server.mode = 'ok';
      throw new TypeError('Failed to fetch');
    }
    return reply(200, answer);
  }) as typeof fetch;
  q = await import('./driver-queue.ts');
});

afterEach(async () => {
  server.mode = 'ok';
  await q.clearQueue();
  server.applied = [];
  server.requests = [];
  server.reports = [];
});

const fail = (orderId: number): DriverActionBody => ({ kind: 'fail', action_id: q.newActionId(), trip_id: 7, order_id: orderId, reason: 'not_home' });

describe('the driver queue', () => {
  it('keeps actions through a dead zone and a 5xx, then sends them in order, each once', async () => {
    server.mode = 'offline';
    const a = fail(1);
    const b = fail(2);
    await q.enqueue(1, a);
    await q.enqueue(1, b);
    await q.flush();
    expect(q.getSnapshot().waiting.map((w) => w.action_id)).toEqual([a.action_id, b.action_id]);
    expect(q.getSnapshot().waiting[0].attempts).toBeGreaterThan(0);
    server.mode = 'error500';
    await q.flush();
    expect(q.getSnapshot().waiting).toHaveLength(2);
    expect(q.getSnapshot().waiting[0].last_error).toBe('The database is busy.');
    expect(server.applied).toEqual([]);
    server.mode = 'ok';
    await q.flush();
    expect(server.applied).toEqual([a.action_id, b.action_id]);
    expect(q.getSnapshot().waiting).toEqual([]);
  });

  it('an answer lost on the way back: the same action_id again, the replayed answer counts as sent, applied once', async () => {
    const a = fail(3);
    server.mode = 'lose-answer';
    await q.enqueue(1, a);
    await q.flush();
    expect(q.getSnapshot().waiting.map((w) => w.action_id)).toEqual([a.action_id]);
    await q.flush();
    expect(server.requests).toEqual([a.action_id, a.action_id]);
    expect(server.applied).toEqual([a.action_id]);
    expect(q.getSnapshot().waiting).toEqual([]);
    expect(q.getSnapshot().refused).toEqual([]);
  });

  it('a 4xx is the server refusing: dropped from the queue, kept with its words for the stop; the next action goes', async () => {
    const a = fail(4);
    server.mode = 'refuse';
    await q.enqueue(1, a);
    await q.flush();
    expect(q.getSnapshot().waiting).toEqual([]);
    expect(q.getSnapshot().refused.map((r) => [r.action_id, r.status, r.message])).toEqual([
      [a.action_id, 400, 'The customer is 19 on this day: the order cannot be handed over.'],
    ]);
    await q.dismissRefusal(a.action_id);
    await new Promise((r) => setTimeout(r, 20));
    expect(q.getSnapshot().refused).toEqual([]);
  });

  it('one action_id tapped twice is one action; many parallel flushes send each once', async () => {
    const a = fail(5);
    server.mode = 'offline';
    await Promise.all([q.enqueue(1, a), q.enqueue(1, a), q.enqueue(1, fail(6))]);
    expect(q.getSnapshot().waiting).toHaveLength(2);
    server.mode = 'ok';
    await Promise.all(Array.from({ length: 15 }, () => q.flush()));
    expect(server.applied).toHaveLength(2);
    expect(new Set(server.requests).size).toBe(server.requests.length);
  });

  it('reports what waits on the phone under its one device id', async () => {
    const id = await q.deviceIdOf();
    expect(await q.deviceIdOf()).toBe(id);
    server.mode = 'error500';
    await q.enqueue(1, fail(8));
    await new Promise((r) => setTimeout(r, 50));
    await q.report();
    expect(server.reports.at(-1)).toMatchObject({ device_id: id, pending: 1 });
    expect(server.reports.at(-1)!.oldest_pending_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});

describe('the trip as the phone shows it', () => {
  const trip = {
    id: 7,
    status: 'planned',
    stops: [
      { order_id: 1, position: 1, outcome: null, failed_reason: null, outcome_at: null },
      { order_id: 2, position: 2, outcome: null, failed_reason: null, outcome_at: null },
    ],
  } as unknown as DriverTrip;

  it('lays the unsent actions over the server trip, in order; a refusal lands on its stop', () => {
    const start: DriverActionBody = { kind: 'start', action_id: 'a', trip_id: 7 };
    const failed: DriverActionBody = { kind: 'fail', action_id: 'b', trip_id: 7, order_id: 2, reason: 'refused' };
    const other: DriverActionBody = { kind: 'fail', action_id: 'c', trip_id: 8, order_id: 1, reason: 'refused' };
    const shown = showTrip(trip, [start, failed, other], [
      { action_id: 'd', store_id: 1, body: { ...failed, action_id: 'd', order_id: 1 }, status: 400, message: 'No.', refused_at: 0 },
    ]);
    expect(shown.status).toBe('started');
    expect(shown.statusPending).toBe(true);
    expect(shown.stops.map((s) => [s.outcome, s.failed_reason, s.pending])).toEqual([
      [null, null, false],
      ['failed', 'refused', true],
    ]);
    expect(shown.stops[0].refusal?.message).toBe('No.');
    // The server's own outcome wins over a later local one.
    const served = { ...trip, stops: [{ ...trip.stops[0], outcome: 'delivered' }, trip.stops[1]] } as DriverTrip;
    expect(showTrip(served, [{ ...failed, order_id: 1 }], []).stops[0]).toMatchObject({ outcome: 'delivered', pending: false });
  });
});
