/**
 * The webhooks consumer of the outbox, one per node: a loop that fans new events out into
 * deliveries and sends the deliveries that are due. It wakes on an outbox kick (this node's
 * commits, other nodes' through the relay), when the next retry is due, and every `pollMs`
 * regardless, so nothing depends on a kick arriving. A pass woken by an outbox kick looks for due
 * deliveries only when its fan-out wrote some (every order kicks every node; most stores have no
 * endpoint, and what was due before the kick is the timer's): the console's kick and the timer
 * always look. Every node may run it: fan-out is idempotent
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
  /** One info line per attempt (issue 32: with the event's request id). */
  log?: SenderOptions['log'];
}

export interface WebhookEngine {
  readonly node: string;
  /** Begin the loop (a first pass at once). */
  start(): void;
  /** Run a pass soon (coalesced with one in progress): deliveries made due now (the console's "send again"). */
  kick(): void;
  /** New outbox events (every commit that wrote one): fan them out; deliveries only if that wrote some. */
  kickEvents(): void;
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
    log: options.log,
  };
  const FANOUT_BATCH = 100;

  let started = false;
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;
  /** The next pass must look for due deliveries (the timer fired, the console asked, the first pass). */
  let lookAgain = true;
  let timer: NodeJS.Timeout | null = null;

  /** One pass; true when it looked at the deliveries (and the timer must be set again from them). */
  async function pass(lookForDue: boolean): Promise<boolean> {
    let looked = false;
    for (;;) {
      const fanned = await fanOutWebhookEvents(options.db, now(), FANOUT_BATCH);
      let due: number[] = [];
      if (lookForDue || fanned.deliveries > 0) {
        looked = true;
        due = await dueDeliveries(sender, concurrency);
        await Promise.all(
          due.map(async (id) => {
            if (await claimDelivery(sender, id)) await attemptDelivery(sender, id);
          }),
        );
      }
      if (closed || (fanned.events < FANOUT_BATCH && due.length < concurrency)) return looked;
    }
  }

  /** Sleep until the next retry is due, but no longer than pollMs. */
  async function scheduleNext(): Promise<void> {
    let delay = pollMs;
    const next = await nextDueAt(options.db, now());
    if (next) delay = Math.min(delay, Math.max(5, Date.parse(next) - now().getTime()));
    if (closed || !started) return;
    arm(delay);
  }

  function arm(delay: number): void {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      run(true);
    }, delay);
  }

  function run(lookForDue: boolean): void {
    if (closed) return;
    lookAgain ||= lookForDue;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        let looked = false;
        do {
          again = false;
          const look = lookAgain;
          lookAgain = false;
          if (await pass(look)) looked = true;
        } while (again && !closed);
        // A pass that left the deliveries alone leaves the timer as it was (set from them).
        if (looked || !timer) await scheduleNext();
      } catch (err) {
        options.onError?.(err);
        if (!closed && started) arm(pollMs);
      }
    })().finally(() => {
      running = null;
      // A kick that came while the last pass was scheduling its sleep.
      if (again && !closed) run(false);
    });
  }

  return {
    node: sender.node,
    start() {
      if (started || closed) return;
      started = true;
      run(true);
    },
    kick() {
      if (started) run(true);
    },
    kickEvents() {
      if (started) run(false);
    },
    async runOnce() {
      while (running) await running;
      await pass(true);
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      while (running) await running;
    },
  };
}
