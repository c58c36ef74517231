/**
 * The webhooks consumer of the outbox, one per node: a loop that fans new events out into
 * deliveries and sends the deliveries that are due. It wakes on an outbox kick (this node's
 * commits, other nodes' through the relay), when the next retry is due, and every `pollMs`
 * regardless, so nothing depends on a kick arriving. Every node may run it: fan-out is idempotent
 * and sending is claimed per delivery with a lease (./sender.ts). All state is in rows, so a
 * restart carries on where the last process stopped (its leases simply run out).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { fanOutWebhookEvents } from './fanout.ts';
import { STANDARD_RETRY_SCHEDULE_MS } from './schedule.ts';
import { attemptDelivery, claimDelivery, dueDeliveries, nextDueAt, type SenderOptions } from './sender.ts';
import type { UrlPolicy } from './url-policy.ts';

export interface WebhookEngineOptions {
  db: Kysely<Database>;
  /** Default: host:pid:random. */
  node?: string;
  /** Delays before each retry (ms); default the Standard Webhooks schedule. Tests shrink it. */
  retrySchedule?: readonly number[];
  /** Default: loopback and private receivers allowed (tests, demo); production passes its policy. */
  urlPolicy?: UrlPolicy;
  /** Default 15 s per attempt. */
  timeoutMs?: number;
  /** Longest sleep between passes when nothing is due (default 1 s). */
  pollMs?: number;
  /** Deliveries sent at once per pass (default 16). */
  concurrency?: number;
  /** Real time by default: signatures carry it and receivers check it against their clock. */
  now?: () => Date;
  random?: () => number;
  onError?: (err: unknown) => void;
}

export interface WebhookEngine {
  readonly node: string;
  /** Begin the loop (a first pass at once). */
  start(): void;
  /** Run a pass soon (coalesced with one in progress). */
  kick(): void;
  /** One full pass now, awaited (tests drive the engine with it instead of the loop). */
  runOnce(): Promise<void>;
  /** Stop the loop; waits for the attempts in flight. */
  close(): Promise<void>;
}

export function newNodeId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

export function createWebhookEngine(options: WebhookEngineOptions): WebhookEngine {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const pollMs = options.pollMs ?? 1000;
  const concurrency = options.concurrency ?? 16;
  const now = options.now ?? (() => new Date());
  const sender: SenderOptions = {
    db: options.db,
    node: options.node ?? newNodeId(),
    retrySchedule: options.retrySchedule ?? STANDARD_RETRY_SCHEDULE_MS,
    urlPolicy: options.urlPolicy ?? { refusePrivate: false },
    now,
    timeoutMs,
    leaseMs: timeoutMs + 30_000,
    random: options.random,
  };
  const FANOUT_BATCH = 100;

  let started = false;
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

  async function pass(): Promise<void> {
    for (;;) {
      const fanned = await fanOutWebhookEvents(options.db, now(), FANOUT_BATCH);
      const due = await dueDeliveries(sender, concurrency);
      await Promise.all(
        due.map(async (id) => {
          if (await claimDelivery(sender, id)) await attemptDelivery(sender, id);
        }),
      );
      if (closed || (fanned < FANOUT_BATCH && due.length < concurrency)) return;
    }
  }

  /** Sleep until the next retry is due, but no longer than pollMs. */
  async function scheduleNext(): Promise<void> {
    let delay = pollMs;
    const next = await nextDueAt(options.db, now());
    if (next) delay = Math.min(delay, Math.max(5, Date.parse(next) - now().getTime()));
    if (closed || !started) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, delay);
  }

  function run(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    running = (async () => {
      try {
        do {
          again = false;
          await pass();
        } while (again && !closed);
        await scheduleNext();
      } catch (err) {
        options.onError?.(err);
        if (!closed && started) timer = setTimeout(run, pollMs);
      }
    })().finally(() => {
      running = null;
      // A kick that came while the last pass was scheduling its sleep.
      if (again && !closed) run();
    });
  }

  return {
    node: sender.node,
    start() {
      if (started || closed) return;
      started = true;
      run();
    },
    kick() {
      if (started) run();
    },
    async runOnce() {
      while (running) await running;
      await pass();
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      while (running) await running;
    },
  };
}
