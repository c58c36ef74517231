/**
 * The outbox consumer runner every consumer (console push, messages, webhooks) runs on. Each
 * consumer owns one `outbox_events` column (`pushed_at`, `messages_at`, `webhooks_at`) and hands
 * each event on once that column is set.
 *
 * Delivery semantics, with several nodes each running the same consumer:
 *  - `claim: 'after'` (default) — AT LEAST ONCE. A pass reads events whose column is null (oldest
 *    first), handles each, then marks them `UPDATE … SET col = now WHERE id IN (…) AND col IS NULL`.
 *    Two nodes may both handle one event (both read it before either marked it), and a crash
 *    between handling and marking handles it again after the restart, so handlers MUST be
 *    idempotent: write rows behind a unique key (`ON CONFLICT DO NOTHING`), never count on being
 *    the only one. No event is ever marked before it was handled, so none is lost.
 *  - `claim: 'before'` — AT MOST ONCE. A pass first marks the batch `… AND col IS NULL RETURNING
 *    id` and handles only the events its own update took: no two nodes handle one event, but a
 *    crash between the mark and the handling loses it. For hints that have another way to catch
 *    up (console pushes: a console refetches on (re)connect).
 *
 * A pass runs at once when `app.outbox` is kicked (this node's commits, or other nodes' through the
 * Redis relay), and every `pollMs` otherwise, so a lost kick only delays. An event whose handler
 * throws is left unmarked and skipped by this node for `retryFailedAfterMs` (the rest go on);
 * it is tried again after that, forever (a handler that can fail for good must record the
 * failure itself and return). `stop()` ends the loop and waits for the pass in flight; no timer
 * is left behind.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { OrderEventPayload } from './append.ts';
import type { OutboxSignal } from './signal.ts';
import { pollLoop, type PollTurn } from '../jobs/poll-loop.ts';

export type OutboxColumn = 'pushed_at' | 'messages_at' | 'webhooks_at' | 'analytics_at';

/** An `outbox_events` row with its payload parsed. */
export interface OutboxEvent {
  id: number;
  event_id: string;
  store_id: number;
  type: string;
  order_id: number | null;
  payload: OrderEventPayload;
  created_at: string;
}

export interface OutboxConsumerOptions {
  /** For log lines ("push", "messages", "webhooks"). */
  name: string;
  db: Kysely<Database>;
  /** `app.outbox`: passes start when it is kicked. */
  signal: Pick<OutboxSignal, 'onKick'>;
  column: OutboxColumn;
  /** Hand one event on. Must be idempotent with `claim: 'after'` (see the header). */
  handle: (event: OutboxEvent) => Promise<void>;
  claim?: 'after' | 'before';
  batchSize?: number;
  pollMs?: number;
  /** How long this node leaves an event alone after its handler threw. */
  retryFailedAfterMs?: number;
  /** The time written into the column (default: the wall clock). */
  now?: () => Date;
  onError?: (err: unknown, event?: OutboxEvent) => void;
}

export interface OutboxConsumer {
  /** Start polling and listening for kicks (idempotent). */
  start(): void;
  /** Run passes now until nothing is left; resolves with how many events were handled. */
  drain(): Promise<number>;
  /** Stop the loop; resolves once the pass in flight finished. */
  stop(): Promise<void>;
}

export const DEFAULT_POLL_MS = 1000;
export const DEFAULT_BATCH_SIZE = 50;
const MAX_REMEMBERED_FAILURES = 500;

export function createOutboxConsumer(options: OutboxConsumerOptions): OutboxConsumer {
  const { db, column, handle } = options;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const retryFailedAfterMs = options.retryFailedAfterMs ?? 5000;
  const now = options.now ?? (() => new Date());
  const claimBefore = options.claim === 'before';
  // Events this node's handler failed on: id → when to try again (wall clock; in memory only).
  const failing = new Map<number, number>();


  const report = (err: unknown, event?: OutboxEvent) => options.onError?.(err, event);

  async function readBatch(): Promise<OutboxEvent[]> {
    const skip = [...failing.entries()].filter(([, until]) => until > Date.now()).map(([id]) => id);
    let query = db
      .selectFrom('outbox_events')
      .select(['id', 'event_id', 'store_id', 'type', 'order_id', 'payload', 'created_at'])
      .where(column, 'is', null);
    if (skip.length) query = query.where('id', 'not in', skip);
    const rows = await query.orderBy('id').limit(batchSize).execute();
    return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as OrderEventPayload }));
  }

  async function mark(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const base = db
      .updateTable('outbox_events')
      .set({ [column]: now().toISOString() })
      .where('id', 'in', ids)
      .where(column, 'is', null);
    if (!claimBefore) {
      await base.execute();
      return ids;
    }
    // Both dialects support RETURNING (SQLite ≥ 3.35): the ids this node's update took.
    return (await base.returning('id').execute()).map((r) => r.id);
  }

  /** One batch; returns how many events it read. */
  async function passOnce(): Promise<{ read: number; handled: number }> {
    const events = await readBatch();
    if (!events.length) return { read: 0, handled: 0 };
    let mine = events;
    if (claimBefore) {
      const taken = new Set(await mark(events.map((e) => e.id)));
      mine = events.filter((e) => taken.has(e.id));
    }
    const done: number[] = [];
    for (const event of mine) {
      try {
        await handle(event);
        done.push(event.id);
        failing.delete(event.id);
      } catch (err) {
        report(err, event);
        if (failing.size >= MAX_REMEMBERED_FAILURES) failing.delete(failing.keys().next().value!);
        failing.set(event.id, Date.now() + retryFailedAfterMs);
      }
    }
    if (!claimBefore) await mark(done);
    return { read: events.length, handled: mine.length };
  }

  async function pass(turn: PollTurn): Promise<number> {
    let handled = 0;
    for (;;) {
      const r = await passOnce();
      handled += r.handled;
      // A full batch means more may wait; a kick during the pass means new rows were committed.
      if (!turn.more(r.read >= batchSize)) return handled;
    }
  }

  // The database unreachable or the mark failed: reported, and the next poll tries again (../jobs/poll-loop.ts).
  return pollLoop({ pass, pollMs, onError: (err) => report(err), wakeOn: options.signal });
}

/** Create, start, and stop it when the app closes. */
export function runOutboxConsumer(
  app: FastifyInstance,
  options: Omit<OutboxConsumerOptions, 'signal'> & { signal?: OutboxConsumerOptions['signal'] },
): OutboxConsumer {
  const consumer = createOutboxConsumer({
    ...options,
    signal: options.signal ?? app.outbox,
    onError:
      options.onError ??
      ((err, event) => app.log.warn({ err, consumer: options.name, eventId: event?.event_id }, 'outbox consumer failed')),
  });
  consumer.start();
  app.addHook('onClose', async () => consumer.stop());
  return consumer;
}
