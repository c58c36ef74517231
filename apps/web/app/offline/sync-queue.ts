/**
 * The sync-task queue (spec §4 "Offline and sync tasks"): a task is stored untransmitted in
 * IndexedDB BEFORE `queue()` resolves, then sent, strictly in creation order and one at a time,
 * and removed once the store answered — its result kept in the persistent cache when it is
 * cacheable. VSF1 kept its queue in localStorage and ran it per tab (VSF #2729 quota, #5743 races);
 * here:
 *  - One at a time across tabs: each step ("read the queue, send its first task, record the
 *    answer") holds the Web Lock `verdant-sync-{name}` and reads the queue again inside it, so a
 *    task another tab just sent is gone before this tab looks. Within a tab, one pass at a time.
 *    (Without Web Locks — very old browsers — the guarantee is per tab; the Idempotency-Key header
 *    every task carries lets the server recognise a repeat.)
 *  - No answer (offline, timeout, gateway error) keeps the task and ends the pass: later tasks never
 *    overtake it. It is sent again on the next `process()` (the integrator calls it when the
 *    network returns). A task is never dropped without an answer, except by
 *    `clearNotTransmitted()` when the session is lost (spec §4 Token refresh).
 *  - A task whose URL needs `{{cartId}}` waits while there is no cart (the spec's message is
 *    logged and `onMissingCartId` asked to re-create the cart); tasks that need no cart are not
 *    held back by it, and cart tasks keep their order among themselves.
 *  - Any answer other than 200 shows the server's message as an error notice, unless the task is
 *    silent or the error code is ENOTFOUND (spec §8); the task is then done (the store decided).
 */
import { browserLock, type LockRequest } from '../state/cart-queue.ts';
import { notify as pageNotify, type NotificationInput } from '../state/notifications.ts';
import { keyvalBackend, type KeyValueBackend } from './idb-store.ts';
import { ORDINAL_KEEP, type PersistentCache } from './persistent-cache.ts';
import {
  compareTasks,
  createTask,
  createTaskExecutor,
  isSyncTask,
  needsCartId,
  serverMessage,
  type SyncTask,
  type SyncTaskInput,
  type TaskExecutor,
  type TaskExecutorOptions,
  type TaskOutcome,
} from './sync-task.ts';

export type Notifier = (notice: NotificationInput) => unknown;

export interface SyncQueueOptions extends TaskExecutorOptions {
  /** Names the database and the lock (use the store code: one queue per store). */
  name?: string;
  /** Where tasks live; default IndexedDB database `verdant-sync-{name}`. */
  backend?: KeyValueBackend;
  /** Cross-tab lock; default `navigator.locks` (null: per-tab only). */
  lock?: LockRequest | null;
  /** Where cacheable results are kept. */
  cache?: PersistentCache | null;
  notify?: Notifier;
  /** Asked once per pass when cart tasks wait for a cart id (re-create the cart sync). */
  onMissingCartId?(task: SyncTask): void;
  /** Start a pass after each `queue()` (default true). */
  autoProcess?: boolean;
  now?(): number;
  /** Reuse an executor (the offline orders share one with the queue). */
  executor?: TaskExecutor;
}

export interface ProcessReport {
  /** Tasks the store answered during the pass, in order (transmitted copies). */
  sent: SyncTask[];
  /** Why the pass ended early (null: nothing left to send). */
  stopped: 'network' | 'unauthorized' | 'storage' | null;
  /** Tasks left waiting for a cart id. */
  waitingForCart: SyncTask[];
}

export interface ExecuteResult {
  task: SyncTask;
  outcome: TaskOutcome;
  /** Offline: the last cached result of a cacheable task. */
  cached: CachedTaskResult | null;
}

export interface CachedTaskResult {
  code: number;
  result: unknown;
  at: number;
}

export interface SyncQueue {
  /** Store the task (resolves once it is in IndexedDB; rejects when it could not be stored), then process. */
  queue(input: SyncTaskInput): Promise<SyncTask>;
  /** Send what is queued, in order, until the queue is empty or the network fails. */
  process(): Promise<ProcessReport>;
  /** Send a task now without queueing it; offline, a cacheable task answers from the cache. */
  execute(input: SyncTaskInput): Promise<ExecuteResult>;
  /** Untransmitted tasks, in order. */
  pending(): Promise<SyncTask[]>;
  /** Drop every untransmitted task (the session was lost). Takes no lock: safe from inside a task's 401. */
  clearNotTransmitted(): Promise<void>;
  /** The kept result of a cacheable task with this method and URL (cart id filled, token not). */
  cachedResult(input: SyncTaskInput | SyncTask): Promise<CachedTaskResult | null>;
  /** Listen to answered tasks with this callback_event. */
  on(event: string, listener: (task: SyncTask) => void): () => void;
}

export function syncLockName(name: string): string {
  return `verdant-sync-${name}`;
}

type Step =
  | { kind: 'sent'; task: SyncTask; waiting: SyncTask[] }
  | { kind: 'idle' | 'network' | 'unauthorized'; waiting: SyncTask[] };

export function createSyncQueue(o: SyncQueueOptions): SyncQueue {
  const name = o.name ?? 'default';
  const backend = o.backend ?? keyvalBackend(syncLockName(name), 'tasks');
  const lock = o.lock === undefined ? browserLock() : o.lock;
  const notify = o.notify ?? pageNotify;
  const now = o.now ?? (() => Date.now());
  const executor = o.executor ?? createTaskExecutor(o);
  const logger = o.logger ?? console;
  const listeners = new Map<string, Set<(task: SyncTask) => void>>();
  /** Tasks answered in this tab: never sent again even if removing them from storage failed. */
  const answered = new Set<string>();
  let running: Promise<ProcessReport> | null = null;
  let again = false;

  const locked = <T>(fn: () => Promise<T>): Promise<T> => (lock ? lock(syncLockName(name), fn) : fn());

  async function readPending(): Promise<SyncTask[]> {
    const all = await backend.entries();
    return all
      .map(([, v]) => v)
      .filter((v): v is SyncTask => isSyncTask(v) && !v.transmited && !answered.has(v.task_id))
      .sort(compareTasks);
  }

  async function cacheKey(task: SyncTask): Promise<string | null> {
    const url = await executor.publicUrl(task);
    return url == null ? null : `sync-result:${task.payload.method} ${url}`;
  }

  /** The answered copy of the task; its result cached when cacheable and successful. */
  async function record(task: SyncTask, outcome: Extract<TaskOutcome, { kind: 'answered' }>): Promise<SyncTask> {
    const at = now();
    const done: SyncTask = { ...task, transmited: true, transmited_at: at, updated_at: at, result: outcome.result, resultCode: outcome.code, code: outcome.errorCode, meta: outcome.meta };
    if (task.is_result_cacheable && outcome.code === 200 && o.cache) {
      const key = await cacheKey(task);
      if (key) await o.cache.set(key, { code: outcome.code, result: outcome.result, at } satisfies CachedTaskResult, { ordinal: ORDINAL_KEEP });
    }
    return done;
  }

  /** What the page hears about an answered task: the server's message, the callback event. */
  function announce(task: SyncTask) {
    if (task.resultCode !== 200 && !task.silent) {
      const message = serverMessage(task.result, task.code);
      if (message) notify({ type: 'error', message, action1: { label: 'OK' } });
    }
    if (task.callback_event) {
      for (const l of listeners.get(task.callback_event) ?? []) {
        try {
          l(task);
        } catch (e) {
          logger.warn('Sync task listener failed', e);
        }
      }
    }
  }

  /** One step under the lock: read the queue, send the first task that can go, record the answer. */
  async function step(cartBlocked: boolean): Promise<Step> {
    const waiting: SyncTask[] = [];
    for (const task of await readPending()) {
      if (needsCartId(task.url) && (cartBlocked || waiting.length > 0)) {
        waiting.push(task);
        continue;
      }
      const outcome = await executor.run(task);
      if (outcome.kind === 'no-cart') {
        waiting.push(task);
        continue;
      }
      if (outcome.kind !== 'answered') return { kind: outcome.kind, waiting };
      answered.add(task.task_id);
      const done = await record(task, outcome);
      try {
        await backend.del(task.task_id);
      } catch (e) {
        logger.warn('Sync task answered but could not be removed from storage', task.task_id, e);
      }
      return { kind: 'sent', task: done, waiting };
    }
    return { kind: 'idle', waiting };
  }

  async function pass(): Promise<ProcessReport> {
    const report: ProcessReport = { sent: [], stopped: null, waitingForCart: [] };
    for (;;) {
      let s: Step;
      try {
        s = await locked(() => step(report.waitingForCart.length > 0));
      } catch (e) {
        logger.warn('Sync queue could not read its tasks', e);
        report.stopped = 'storage';
        break;
      }
      report.waitingForCart = s.waiting;
      if (s.kind === 'sent') {
        report.sent.push(s.task);
        announce(s.task);
        continue;
      }
      if (s.kind === 'unauthorized') {
        // Spec §4: the refresh failed; the session is gone and untransmitted tasks are cleared.
        report.stopped = 'unauthorized';
        await queue.clearNotTransmitted();
      } else if (s.kind === 'network') report.stopped = 'network';
      break;
    }
    if (report.waitingForCart.length) o.onMissingCartId?.(report.waitingForCart[0]);
    return report;
  }

  const queue: SyncQueue = {
    async queue(input) {
      const task = createTask(input, now());
      await backend.set(task.task_id, task);
      if (o.autoProcess !== false) void queue.process();
      return task;
    },

    process() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        const sent: SyncTask[] = [];
        let report: ProcessReport;
        do {
          again = false;
          report = await pass();
          sent.push(...report.sent);
        } while (again && report.stopped === null);
        return { ...report, sent };
      })().finally(() => {
        running = null;
      });
      return running;
    },

    async execute(input) {
      const task = createTask(input, now());
      const outcome = await executor.run(task);
      if (outcome.kind === 'answered') {
        const done = await record(task, outcome);
        announce(done);
        return { task: done, outcome, cached: null };
      }
      const cached = outcome.kind === 'network' && task.is_result_cacheable ? await queue.cachedResult(task) : null;
      return { task, outcome, cached };
    },

    pending: readPending,

    async clearNotTransmitted() {
      for (const task of await readPending()) {
        try {
          await backend.del(task.task_id);
        } catch (e) {
          logger.warn('Sync task could not be removed', task.task_id, e);
        }
      }
    },

    async cachedResult(input) {
      if (!o.cache) return null;
      const task = isSyncTask(input) ? input : createTask(input, now());
      const key = await cacheKey(task);
      return key ? o.cache.get<CachedTaskResult>(key) : null;
    },

    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  return queue;
}
