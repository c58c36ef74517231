/**
 * Orders placed without an answer from the store (spec §4 "Offline and sync tasks"; VSF #2740,
 * #3346: VSF1 showed the success page for an order it had only queued, then lost it silently).
 * Rules:
 *  - `queueOrder` resolves only once the order is in IndexedDB: the UI may say "queued" after it,
 *    never "placed". The order keeps the idempotency key it was made with, so however often it is
 *    sent, the store places it once (apps/server/src/orders/idempotency.ts).
 *  - An order is "placed" only when the store answered 200 with an order carrying its
 *    increment_id; a refusal (e.g. 'Some of the ordered products are not available!', stock is
 *    checked when the order is confirmed) is kept with the store's words; no answer leaves it
 *    waiting.
 *  - `confirm(id)` sends it once: a second call in the tab shares the first call's promise; other
 *    tabs wait on the Web Lock `verdant-orders-{name}` and then find it already placed or refused.
 *  - Automatic transmission is off by default (spec §9). When the network returns, waiting orders
 *    are sent without asking only when it is on (or the shopper is on the thank-you page, as VSF1
 *    did); otherwise the caller shows the confirmation ('Order waiting!').
 * Orders live in their own store, not in the sync queue: an order waiting for the shopper's
 * confirmation must not hold back the queue's strictly ordered tasks.
 */
import { MESSAGES } from '@verdant/domain';
import type { OrderPayload, PlacedOrder } from '../api/order.ts';
import { CART_MESSAGES } from '../lib/cart-messages.ts';
import { browserLock, type LockRequest } from '../state/cart-queue.ts';
import { notify as pageNotify } from '../state/notifications.ts';
import type { ListChannel } from '../state/persisted.ts';
import { keyvalBackend, type KeyValueBackend } from './idb-store.ts';
import type { Notifier } from './sync-queue.ts';
import { createTask, createTaskExecutor, serverMessage, type SyncTask, type TaskExecutor, type TaskExecutorOptions } from './sync-task.ts';

/** Spec §7 Orders. */
export const ORDER_SAVE_URL = '/api/order/save';
/** Spec §9: offline orders are not transmitted automatically unless the shopper turns it on. */
export const AUTOMATIC_TRANSMISSION_DEFAULT = false;
/** Emitted (callback_event) on the order task, for symmetry with the sync queue. */
export const ORDER_CALLBACK_EVENT = 'order-after-placed';

export const OFFLINE_ORDER_COPY = {
  /** Ours (the spec names the notice, not its words). */
  placed: (incrementId: string) => `Your order ${incrementId} has been placed.`,
} as const;

export type OfflineOrderState = 'waiting' | 'placed' | 'refused';

export interface OfflineOrder {
  /** The order's idempotency key. */
  id: string;
  /** The order task: POST /api/order/save with the payload, silent (the caller shows the outcome). */
  task: SyncTask;
  state: OfflineOrderState;
  /** The store's order, once placed. */
  order: PlacedOrder | null;
  /** The store's refusal, word for word. */
  message: string | null;
  created_at: number;
  updated_at: number;
  /** Sends that got no decision. */
  attempts: number;
}

export type ConfirmResult =
  | { kind: 'placed'; order: PlacedOrder }
  | { kind: 'refused'; message: string }
  /** No decision: the order stays waiting and may be confirmed again. */
  | { kind: 'unsent'; reason: 'network' | 'server' | 'in-progress' | 'unauthorized' }
  /** No such order (cancelled, or never stored here). */
  | { kind: 'unknown' };

export type NetworkReturnResult =
  | { kind: 'none' }
  /** Automatic transmission off: show the confirmation for these orders. */
  | { kind: 'needs-confirmation'; orders: OfflineOrder[] }
  | { kind: 'transmitted'; results: { id: string; result: ConfirmResult }[] };

export interface OfflineOrdersOptions extends Omit<TaskExecutorOptions, 'cartId'> {
  /** Names the database and the lock (use the store code). */
  name?: string;
  backend?: KeyValueBackend;
  lock?: LockRequest | null;
  /** Reuse the sync queue's executor; otherwise one is made from the executor options. */
  executor?: TaskExecutor;
  notify?: Notifier;
  /** Tells other tabs that the orders changed (BroadcastChannel's shape). */
  channel?: ListChannel | null;
  now?(): number;
}

export interface OfflineOrders {
  /** Store the order (resolves once stored; rejects when it could not be). The same key twice is one order. */
  queueOrder(payload: OrderPayload): Promise<OfflineOrder>;
  /** Orders not yet placed or refused, oldest first. */
  waitingOrders(): Promise<OfflineOrder[]>;
  /** Every stored order, oldest first (placed and refused ones too). */
  list(): Promise<OfflineOrder[]>;
  get(id: string): Promise<OfflineOrder | null>;
  /** Send the order (once); resolves with the store's order or its refusal, or `unsent`. */
  confirm(id: string): Promise<ConfirmResult>;
  /** Drop a waiting order (the shopper cancelled it). False when it was already sent. */
  cancel(id: string): Promise<boolean>;
  /** Forget placed and refused orders (after the UI showed them). */
  removeSettled(): Promise<void>;
  automaticTransmission(): Promise<boolean>;
  setAutomaticTransmission(on: boolean): Promise<void>;
  /** Call when the network returns (after the sync queue was processed and the cart reloaded). */
  networkReturned(context?: { onThankYouPage?: boolean }): Promise<NetworkReturnResult>;
  /** Listen to changes (this tab's and, with a channel, other tabs'). */
  subscribe(listener: () => void): () => void;
}

const orderKey = (id: string) => `order:${id}`;
const AUTO_KEY = 'setting:automatic_transmission';
const CHANNEL_KEY = 'verdant:offline-orders';

export function ordersLockName(name: string): string {
  return `verdant-orders-${name}`;
}

function isOfflineOrder(v: unknown): v is OfflineOrder {
  if (!v || typeof v !== 'object') return false;
  const r = v as Partial<OfflineOrder>;
  return typeof r.id === 'string' && !!r.task && (r.state === 'waiting' || r.state === 'placed' || r.state === 'refused') && typeof r.created_at === 'number';
}

function isPlacedOrder(v: unknown): v is PlacedOrder {
  return !!v && typeof v === 'object' && typeof (v as PlacedOrder).increment_id === 'string' && (v as PlacedOrder).increment_id !== '';
}

export function createOfflineOrders(o: OfflineOrdersOptions = {}): OfflineOrders {
  const name = o.name ?? 'default';
  const backend = o.backend ?? keyvalBackend(ordersLockName(name), 'orders');
  const lock = o.lock === undefined ? browserLock() : o.lock;
  const executor = o.executor ?? createTaskExecutor({ ...o, cartId: () => null });
  const notify = o.notify ?? pageNotify;
  const now = o.now ?? (() => Date.now());
  const logger = o.logger ?? console;
  const listeners = new Set<() => void>();
  const confirming = new Map<string, Promise<ConfirmResult>>();

  const locked = <T>(fn: () => Promise<T>): Promise<T> => (lock ? lock(ordersLockName(name), fn) : fn());

  function changed(broadcast = true) {
    for (const l of listeners) l();
    if (broadcast) {
      try {
        o.channel?.postMessage({ key: CHANNEL_KEY, name });
      } catch {
        /* a closed channel (page unloading) */
      }
    }
  }
  o.channel?.addEventListener('message', (event) => {
    const m = event.data as { key?: unknown; name?: unknown } | null;
    if (m?.key === CHANNEL_KEY && m.name === name) changed(false);
  });

  async function read(id: string): Promise<OfflineOrder | null> {
    const v = await backend.get(orderKey(id));
    return isOfflineOrder(v) ? v : null;
  }

  async function list(): Promise<OfflineOrder[]> {
    const all = await backend.entries();
    return all
      .filter(([k]) => k.startsWith('order:'))
      .map(([, v]) => v)
      .filter(isOfflineOrder)
      .sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
  }

  /** Write the new state; a failed write is logged (the outcome stands: the store decided it). */
  async function save(order: OfflineOrder): Promise<void> {
    try {
      await backend.set(orderKey(order.id), order);
    } catch (e) {
      logger.warn('Offline order: the outcome could not be stored', order.id, e);
    }
    changed();
  }

  async function send(id: string): Promise<ConfirmResult> {
    const current = await read(id);
    if (!current) return { kind: 'unknown' };
    if (current.state === 'placed' && current.order) return { kind: 'placed', order: current.order };
    if (current.state === 'refused') return { kind: 'refused', message: current.message ?? MESSAGES.somethingWentWrong };

    const outcome = await executor.run(current.task);
    const at = now();
    if (outcome.kind === 'answered') {
      const message = serverMessage(outcome.result, outcome.errorCode);
      /** The task as the store decided it (spec §3 fields). */
      const transmitted: SyncTask = { ...current.task, transmited: true, transmited_at: at, updated_at: at, result: outcome.result, resultCode: outcome.code, code: outcome.errorCode, meta: outcome.meta };
      if (outcome.code === 200) {
        if (isPlacedOrder(outcome.result)) {
          await save({ ...current, task: transmitted, state: 'placed', order: outcome.result, message: null, updated_at: at });
          return { kind: 'placed', order: outcome.result };
        }
        // A 200 without an order number is not a placement we can show; the same key asks again.
        await save({ ...current, attempts: current.attempts + 1, updated_at: at });
        return { kind: 'unsent', reason: 'server' };
      }
      // 409 is both "still being placed" (ask again) and "not available" (a refusal).
      const inProgress = outcome.code === 409 && message !== CART_MESSAGES.productsNotAvailable;
      if (outcome.code >= 500 || inProgress) {
        await save({ ...current, attempts: current.attempts + 1, updated_at: at });
        return { kind: 'unsent', reason: inProgress ? 'in-progress' : 'server' };
      }
      const refusal = message ?? MESSAGES.somethingWentWrong;
      await save({ ...current, task: transmitted, state: 'refused', message: refusal, updated_at: at });
      return { kind: 'refused', message: refusal };
    }
    await save({ ...current, attempts: current.attempts + 1, updated_at: at });
    return { kind: 'unsent', reason: outcome.kind === 'unauthorized' ? 'unauthorized' : 'network' };
  }

  const api: OfflineOrders = {
    async queueOrder(payload) {
      const id = payload?.idempotency_key;
      if (typeof id !== 'string' || !id) throw new Error('An order needs its idempotency key before it is queued');
      const at = now();
      const fresh: OfflineOrder = {
        id,
        task: createTask(
          { url: ORDER_SAVE_URL, payload: { method: 'POST', body: payload }, silent: true, idempotency_key: id, callback_event: ORDER_CALLBACK_EVENT },
          at,
        ),
        state: 'waiting',
        order: null,
        message: null,
        created_at: at,
        updated_at: at,
        attempts: 0,
      };
      // One readwrite transaction: a second tab queueing the same key keeps the first record.
      await backend.update(orderKey(id), (old) => (isOfflineOrder(old) ? old : fresh));
      const stored = await read(id);
      if (!stored) throw new Error('The order could not be stored on this device');
      changed();
      return stored;
    },

    async waitingOrders() {
      return (await list()).filter((r) => r.state === 'waiting');
    },
    list,
    get: read,

    confirm(id) {
      const inflight = confirming.get(id);
      if (inflight) return inflight;
      const p = locked(() => send(id)).finally(() => confirming.delete(id));
      confirming.set(id, p);
      return p;
    },

    cancel(id) {
      return locked(async () => {
        const current = await read(id);
        if (!current || current.state !== 'waiting') return false;
        await backend.del(orderKey(id));
        changed();
        return true;
      });
    },

    async removeSettled() {
      for (const r of await list()) if (r.state !== 'waiting') await backend.del(orderKey(r.id));
      changed();
    },

    async automaticTransmission() {
      try {
        const v = await backend.get(AUTO_KEY);
        return typeof v === 'boolean' ? v : AUTOMATIC_TRANSMISSION_DEFAULT;
      } catch {
        return AUTOMATIC_TRANSMISSION_DEFAULT;
      }
    },

    async setAutomaticTransmission(on) {
      await backend.set(AUTO_KEY, on);
      changed();
    },

    async networkReturned({ onThankYouPage = false } = {}) {
      const waiting = await api.waitingOrders();
      if (!waiting.length) return { kind: 'none' };
      if (!onThankYouPage && !(await api.automaticTransmission())) return { kind: 'needs-confirmation', orders: waiting };
      const results: { id: string; result: ConfirmResult }[] = [];
      for (const order of waiting) {
        const result = await api.confirm(order.id);
        results.push({ id: order.id, result });
        // Nobody clicked for these: say what became of each.
        if (result.kind === 'placed') notify({ type: 'success', message: OFFLINE_ORDER_COPY.placed(result.order.increment_id), action1: { label: 'OK' } });
        if (result.kind === 'refused') notify({ type: 'error', message: result.message, action1: { label: 'OK' } });
        // Orders go in the order they were made: no answer for one, none sent after it.
        if (result.kind === 'unsent') break;
      }
      return { kind: 'transmitted', results };
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return api;
}
