/**
 * The app's sync-task queue (./sync-queue.ts, spec §4 "Offline and sync tasks", "Token refresh"):
 * ONE per store code for the whole page, created on first use in the browser and never during
 * SSR; loaded by dynamic import only (../state/use-sync-boot.ts, the account page), so it never
 * enters the first-paint bundle. It is wired to:
 *  - the session (../state/auth-store.ts): every task is sent through the session's
 *    `authorized(call)`, so a 401 refreshes the token ONCE under the same refresh lock the rest of
 *    the page uses (0 / above 0 / -1) and the task is sent again; a refused refresh is the
 *    session lost: the auth store's `onSessionLost` hook clears the untransmitted tasks (use-auth).
 *    A task queued by one customer is never sent with another's token: with no customer logged in
 *    the task answers 401 at once (the queue then clears), and tasks of another customer id are
 *    dropped before a pass.
 *  - the store's persistent cache (./app-cache.ts): cacheable task results are kept there.
 *  - the network: `process()` on start and when the browser is back online (use-sync-boot).
 *  - the page: after a pass the customer is read again (their addresses, e-mail) and every tab
 *    hears that the queue changed (BroadcastChannel), so account blocks re-read what is waiting.
 */
import type { StoreApi } from 'zustand/vanilla';
import { ApiError, NetworkError } from '../api/envelope.ts';
import { AUTH_COPY, type AuthState } from '../state/auth-types.ts';
import { browserLock, type LockRequest } from '../state/cart-queue.ts';
import { notify as pageNotify } from '../state/notifications.ts';
import { accountMetaOf, accountTask, ACCOUNT_EVENTS, OFFLINE_WRITE_COPY, pendingWritesOf, type AccountWrite, type PendingWrite } from './account-writes.ts';
import { appCacheFor } from './app-cache.ts';
import { keyvalBackend, type KeyValueBackend } from './idb-store.ts';
import type { PersistentCache } from './persistent-cache.ts';
import { createSyncQueue, syncLockName, type Notifier, type ProcessReport, type SyncQueue } from './sync-queue.ts';
import { serverMessage, type SyncTask } from './sync-task.ts';

/** Spec §8 success copy of the account writes, once the store took them. */
export const SENT_COPY = {
  accountUpdated: AUTH_COPY.accountUpdated,
  subscribed: 'Newsletter preferences updated: you have subscribed.',
  unsubscribed: 'Newsletter preferences updated: you have unsubscribed.',
} as const;

/** Prefix of the cache keys of task results (sync-queue.ts writes `sync-result:{method} {url}`). */
const RESULT_KEY_PREFIX = 'sync-result:';

export interface TabChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

export interface AppSyncOptions {
  /** The store code: names the IndexedDB database, the Web Lock and the channel. */
  name: string;
  auth: StoreApi<AuthState>;
  cache: PersistentCache | null;
  /** Multistore mode: the store code added as `storeCode` to every task URL (spec §7). */
  storeCode?: string | null;
  backend?: KeyValueBackend;
  lock?: LockRequest | null;
  channel?: TabChannel | null;
  fetch?: typeof fetch;
  notify?: Notifier;
  /** False while the browser says it is offline (no pass is tried then; the 'online' event starts one). */
  online?: () => boolean;
  logger?: Pick<Console, 'warn'>;
}

export interface AppSync {
  readonly queue: SyncQueue;
  /** Keep an account write (resolves once it is in IndexedDB), tell the shopper, and try to send it. */
  queueWrite(write: AccountWrite): Promise<SyncTask>;
  /** The logged-in customer's waiting writes, in order. */
  pendingWrites(): Promise<PendingWrite[]>;
  /** Send what waits (after the session was read), then refresh the page's data. */
  process(): Promise<ProcessReport | null>;
  /** The newsletter state: from the store, or offline the last answer kept in the cache. */
  newsletterStatus(email: string): Promise<{ isSubscribed: boolean; cachedAt: number | null }>;
  /** Drop every untransmitted task and the kept task results (session lost, logout). */
  clear(): Promise<void>;
  /**
   * Called when the queue changed in this tab or another. `sent` lists the tasks this tab just had
   * answered: it arrives in the same tick as the customer read again after them, so a page can drop
   * them from what it shows as waiting in the same render (never both the saved and the waiting copy).
   */
  subscribe(listener: (sent?: readonly string[]) => void): () => void;
}

export function createAppSync(o: AppSyncOptions): AppSync {
  const notify = o.notify ?? pageNotify;
  const logger = o.logger ?? console;
  const lock = o.lock === undefined ? browserLock() : o.lock;
  const backend = o.backend ?? keyvalBackend(syncLockName(o.name), 'tasks');
  const online = o.online ?? (() => typeof navigator === 'undefined' || navigator.onLine !== false);
  const listeners = new Set<(sent?: readonly string[]) => void>();
  const changedHere = (sent?: readonly string[]) => listeners.forEach((l) => l(sent));
  const changed = (sent?: readonly string[]) => {
    changedHere(sent);
    o.channel?.postMessage({ type: 'sync-changed' });
  };
  o.channel?.addEventListener('message', (e) => {
    if ((e.data as { type?: unknown } | null)?.type === 'sync-changed') changedHere();
  });

  const session = () => o.auth.getState();
  /** Tasks are the customer's: sent only while a customer is logged in, through the session's 401 lock. */
  const authorized: AuthState['authorized'] = async (call) => {
    await session().load();
    if (!session().user) throw new ApiError(401, AUTH_COPY.refreshUnauthorized);
    return session().authorized(call);
  };

  const queue = createSyncQueue({
    name: o.name,
    backend,
    lock,
    cache: o.cache,
    fetch: o.fetch,
    authorized,
    cartId: () => null,
    storeCode: () => o.storeCode ?? null,
    notify,
    autoProcess: false,
    logger,
  });

  /** Tasks of another customer than the one logged in now: never sent (their token is gone). */
  async function dropForeignTasks(customerId: number): Promise<void> {
    const run = async () => {
      for (const task of await queue.pending()) {
        const meta = accountMetaOf(task);
        if (meta && meta.customerId !== customerId) await backend.del(task.task_id);
      }
    };
    await (lock ? lock(syncLockName(o.name), run) : run());
  }

  /**
   * What the page hears once the store answered: the spec's success notice, the customer read
   * again. Read from `callback_event` and the answer (an answered task's `meta` is the store's).
   */
  async function settle(sent: SyncTask[]): Promise<void> {
    let userChanged = false;
    for (const task of sent) {
      const isUser = task.callback_event === ACCOUNT_EVENTS.user;
      if (!isUser && task.callback_event !== ACCOUNT_EVENTS.newsletter) continue;
      userChanged ||= isUser;
      // Refusals were shown by the queue (the server's message, spec §8).
      if (task.resultCode !== 200) continue;
      const subscribed = (task.result as { isSubscribed?: unknown } | null)?.isSubscribed === true;
      notify({ type: 'success', message: isUser ? SENT_COPY.accountUpdated : subscribed ? SENT_COPY.subscribed : SENT_COPY.unsubscribed });
    }
    const sentIds = sent.map((t) => t.task_id);
    if (userChanged && session().user) {
      // The page hears of the sent tasks inside the auth store's update of the customer (same tick,
      // one render): the saved address replaces its waiting copy instead of showing beside it.
      let heard = false;
      const off = o.auth.subscribe((next, prev) => {
        if (next.user === prev.user || heard) return;
        heard = true;
        changedHere(sentIds);
      });
      try {
        await session().refreshUser();
      } catch (e) {
        logger.warn('Could not read the customer again after sending their changes', e);
      } finally {
        off();
      }
    }
    changed(sentIds);
  }

  const app: AppSync = {
    queue,

    async queueWrite(write) {
      await session().load();
      const user = session().user;
      if (!user) throw new ApiError(401, AUTH_COPY.loginRequired);
      const task = await queue.queue(accountTask(write, user.id));
      if (!online()) notify({ type: 'info', message: OFFLINE_WRITE_COPY.queued });
      changed();
      void app.process();
      return task;
    },

    async pendingWrites() {
      await session().load();
      return pendingWritesOf(await queue.pending(), session().user?.id ?? null);
    },

    async process() {
      if (!online()) return null;
      await session().load();
      const user = session().user;
      if (!user) return null;
      try {
        await dropForeignTasks(user.id);
      } catch (e) {
        logger.warn('Sync queue could not read its tasks', e);
      }
      const report = await queue.process();
      if (report.sent.length || report.stopped === 'unauthorized') await settle(report.sent);
      return report;
    },

    async newsletterStatus(email) {
      const r = await queue.execute({ url: `/api/newsletter?email=${encodeURIComponent(email)}`, payload: { method: 'GET' }, is_result_cacheable: true, silent: true });
      const isSubscribed = (result: unknown) => (result as { isSubscribed?: unknown } | null)?.isSubscribed === true;
      if (r.outcome.kind === 'answered') {
        if (r.outcome.code === 200) return { isSubscribed: isSubscribed(r.outcome.result), cachedAt: null };
        throw new ApiError(r.outcome.code, serverMessage(r.outcome.result, r.outcome.errorCode) ?? `HTTP ${r.outcome.code}`);
      }
      if (r.cached) return { isSubscribed: isSubscribed(r.cached.result), cachedAt: r.cached.at };
      if (r.outcome.kind === 'unauthorized') throw new ApiError(401, r.outcome.message);
      throw new NetworkError();
    },

    async clear() {
      await queue.clearNotTransmitted();
      if (o.cache) {
        for (const [key] of await o.cache.entries()) if (key.startsWith(RESULT_KEY_PREFIX)) await o.cache.del(key);
      }
      changed();
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return app;
}

const registry = new Map<string, AppSync>();

/** The store's queue for this page (null during SSR or without IndexedDB). */
export function appSyncFor(storeCode: string, auth: StoreApi<AuthState>): AppSync | null {
  if (typeof window === 'undefined' || typeof indexedDB === 'undefined') return null;
  let app = registry.get(storeCode);
  if (!app) {
    app = createAppSync({
      name: storeCode,
      auth,
      cache: appCacheFor(storeCode),
      storeCode,
      channel: typeof BroadcastChannel === 'function' ? new BroadcastChannel(`verdant-sync:${storeCode}`) : null,
    });
    registry.set(storeCode, app);
  }
  return app;
}
