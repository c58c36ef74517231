/**
 * The driver's offline queue (issue 29 "The driver's phone"; contract:
 * packages/domain/src/console-api/driver.ts). The shopper's offline orders
 * (apps/web/app/offline/offline-orders.ts) are the pattern: an action is stored in IndexedDB
 * (idb-keyval) before the page shows it as done, with the id it was made with, so however often it
 * is sent, the server applies it once.
 *
 * Rules:
 *  - Every action gets its `action_id` (a UUID) when the driver taps, and keeps it on every retry.
 *  - `enqueue` resolves once the action is stored: it survives a reload and a closed tab.
 *  - Actions are sent strictly in order (a trip is started before its first stop is delivered), one
 *    sender at a time across tabs (a Web Lock), when the browser is online.
 *  - No answer (a dead zone), a 5xx, a 401 (signed out: sign in again and it goes) or a 408/429:
 *    the action stays first in the queue and nothing after it is sent (a 403 `csrf` too: the page
 *    was out of date, not the action).
 *  - A 2xx (first time or `replayed`, the server's kept answer to a retry) counts as sent: removed.
 *  - Any other 4xx is the server refusing the action (e.g. the customer is under age on the
 *    store's date): removed, and kept as a refusal with the server's words, shown on that stop.
 *  - After every change, and whenever the browser comes back online, the phone reports what still
 *    waits (POST /delivery/devices/report, per store) under its device id, kept on the phone.
 */
import { createStore, del, get, set, update, type UseStore } from 'idb-keyval';
import type { DriverActionAnswer, DriverActionBody } from './types.ts';
import { api, ApiFailure } from './api.ts';

export interface QueuedAction {
  action_id: string;
  store_id: number;
  body: DriverActionBody;
  /** When it was tapped (ms). */
  queued_at: number;
  /** Sends that got no decision. */
  attempts: number;
  /** The last reason it was not sent (no network, server error), for the banner. */
  last_error: string | null;
}

export interface RefusedAction {
  action_id: string;
  store_id: number;
  body: DriverActionBody;
  status: number;
  message: string;
  refused_at: number;
}

export interface QueueSnapshot {
  waiting: QueuedAction[];
  refused: RefusedAction[];
  sending: boolean;
  online: boolean;
  /** Bumped whenever the server decided something: pages read the trips again. */
  sentCount: number;
  /** Accepted by the server but maybe not in the trips the page read last: still laid over them until read back. */
  sent: { body: DriverActionBody; at: number }[];
}

const WAITING_KEY = 'waiting';
const REFUSED_KEY = 'refused';
const DEVICE_KEY = 'device_id';
const LOCK_NAME = 'verdant-driver-queue';

let store: UseStore | null = null;
const db = () => (store ??= createStore('verdant-driver', 'queue'));

/** A UUID (crypto.randomUUID where the browser has it; every secure page does). */
export function newActionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

let deviceId: Promise<string> | null = null;
/** This phone's id (random, kept in IndexedDB; one per browser profile). */
export function deviceIdOf(): Promise<string> {
  deviceId ??= (async () => {
    let kept: string | undefined;
    await update<string>(DEVICE_KEY, (old) => (kept = typeof old === 'string' && old.length >= 8 ? old : newActionId()), db());
    return kept!;
  })();
  return deviceId;
}

const asList = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

let snapshot: QueueSnapshot = { waiting: [], refused: [], sending: false, online: typeof navigator === 'undefined' ? true : navigator.onLine, sentCount: 0, sent: [] };
const listeners = new Set<() => void>();
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('verdant-driver-queue') : null;

function publish(next: Partial<QueueSnapshot>) {
  snapshot = { ...snapshot, ...next };
  for (const l of listeners) l();
}

/** Read the stored queue into the snapshot (and tell listeners). */
async function reload(): Promise<void> {
  const [waiting, refused] = await Promise.all([get(WAITING_KEY, db()), get(REFUSED_KEY, db())]);
  publish({ waiting: asList<QueuedAction>(waiting), refused: asList<RefusedAction>(refused) });
}

/** After a write: the snapshot read again (awaited, so callers see it), other tabs told, the server told. */
async function changed(): Promise<void> {
  try {
    channel?.postMessage('changed');
  } catch {
    /* a closed channel while the page unloads */
  }
  await reload();
  void report();
}

export function getSnapshot(): QueueSnapshot {
  return snapshot;
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Store the action (resolves once it is in IndexedDB), then try to send the queue. */
export async function enqueue(storeId: number, body: DriverActionBody): Promise<QueuedAction> {
  const action: QueuedAction = { action_id: body.action_id, store_id: storeId, body, queued_at: Date.now(), attempts: 0, last_error: null };
  await update<QueuedAction[]>(
    WAITING_KEY,
    (old) => {
      const list = asList<QueuedAction>(old);
      // The same action_id twice (a double tap that got through): one action.
      return list.some((a) => a.action_id === action.action_id) ? list : [...list, action];
    },
    db(),
  );
  await changed();
  void flush();
  return action;
}

/** The trips were read afresh (a read that started at `startedAt`): what was sent before it is in them. */
export function readBack(startedAt: number): void {
  const sent = snapshot.sent.filter((s) => s.at >= startedAt);
  if (sent.length !== snapshot.sent.length) publish({ sent });
}

/** Forget a refusal once the driver has read it. */
export async function dismissRefusal(actionId: string): Promise<void> {
  await update<RefusedAction[]>(REFUSED_KEY, (old) => asList<RefusedAction>(old).filter((r) => r.action_id !== actionId), db());
  await changed();
}

/** An answer that means "not decided, keep it and try later". */
function keepsIt(err: ApiFailure): boolean {
  return err.status === 0 || err.status >= 500 || err.status === 401 || err.status === 408 || err.status === 429 || err.errorCode === 'csrf' || err.errorCode === 'action_in_progress';
}

let flushing: Promise<void> | null = null;

/** Send what waits, in order; one run at a time in this tab and across tabs. */
export function flush(): Promise<void> {
  if (flushing) return flushing;
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  const run = () => sendAll();
  flushing = (locks?.request ? (locks.request(LOCK_NAME, run) as unknown as Promise<void>) : run()).finally(() => {
    flushing = null;
    publish({ sending: false });
  });
  return flushing;
}

async function sendAll(): Promise<void> {
  for (;;) {
    if (!navigator.onLine) return;
    const head = asList<QueuedAction>(await get(WAITING_KEY, db()))[0];
    if (!head) return;
    publish({ sending: true });
    try {
      await api<DriverActionAnswer>('POST', `/stores/${head.store_id}/delivery/actions`, head.body);
      await removeHead(head.action_id);
      publish({ sentCount: snapshot.sentCount + 1, sent: [...snapshot.sent, { body: head.body, at: Date.now() }] });
      await changed();
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : new ApiFailure(0, 'The server could not be reached.');
      if (keepsIt(failure)) {
        await update<QueuedAction[]>(
          WAITING_KEY,
          (old) => asList<QueuedAction>(old).map((a) => (a.action_id === head.action_id ? { ...a, attempts: a.attempts + 1, last_error: failure.message } : a)),
          db(),
        );
        await changed();
        return;
      }
      // The server refused it: it will never apply; keep its words for the stop.
      await removeHead(head.action_id);
      await update<RefusedAction[]>(
        REFUSED_KEY,
        (old) => [
          ...asList<RefusedAction>(old).filter((r) => r.action_id !== head.action_id),
          { action_id: head.action_id, store_id: head.store_id, body: head.body, status: failure.status, message: failure.message, refused_at: Date.now() },
        ],
        db(),
      );
      publish({ sentCount: snapshot.sentCount + 1 });
      await changed();
    }
  }
}

async function removeHead(actionId: string): Promise<void> {
  await update<QueuedAction[]>(WAITING_KEY, (old) => asList<QueuedAction>(old).filter((a) => a.action_id !== actionId), db());
}

/** The stores to report for: every store with waiting actions, and the one on screen. */
const reportStores = new Set<number>();
let lastReported = new Map<number, string>();

/** Tell the server what still waits on this phone, per store (best effort: a failed report is sent again at the next change). */
export async function report(): Promise<void> {
  if (!navigator.onLine) return;
  const device_id = await deviceIdOf();
  const byStore = new Map<number, QueuedAction[]>();
  for (const id of reportStores) byStore.set(id, []);
  for (const a of snapshot.waiting) byStore.set(a.store_id, [...(byStore.get(a.store_id) ?? []), a]);
  for (const [storeId, actions] of byStore) {
    const oldest = actions.length ? new Date(Math.min(...actions.map((a) => a.queued_at))).toISOString() : null;
    const key = `${actions.length}|${oldest}`;
    if (lastReported.get(storeId) === key) continue;
    try {
      await api('POST', `/stores/${storeId}/delivery/devices/report`, { device_id, pending: actions.length, oldest_pending_at: oldest });
      lastReported.set(storeId, key);
    } catch {
      lastReported.delete(storeId);
    }
  }
}

let started = false;
/** Start the queue on this page: read what is stored, send it when online, report to `storeId`. */
export function startQueue(storeId: number): () => void {
  reportStores.add(storeId);
  if (!started) {
    started = true;
    const online = () => {
      publish({ online: true });
      // Online again: every store hears the state afresh.
      lastReported = new Map();
      void flush().then(() => report());
    };
    const offline = () => publish({ online: false });
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    channel?.addEventListener('message', () => void reload());
    // A phone that stayed online through a flaky zone: try again every 20 s while anything waits.
    setInterval(() => {
      if (snapshot.waiting.length > 0 && navigator.onLine) void flush();
    }, 20_000);
  }
  void reload().then(() => {
    void report();
    void flush();
  });
  return () => reportStores.delete(storeId);
}

/** For tests and sign-out: forget everything stored on the phone. */
export async function clearQueue(): Promise<void> {
  await Promise.all([del(WAITING_KEY, db()), del(REFUSED_KEY, db())]);
  await set(DEVICE_KEY, await deviceIdOf(), db());
  await changed();
}
