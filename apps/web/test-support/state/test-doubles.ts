/**
 * In-process stand-ins for the browser's storage, tab channel and Web Locks, for the state
 * stores' unit tests (the Playwright journeys run the real ones). Copies are structured-cloned,
 * as IndexedDB and BroadcastChannel do, so a test never shares objects between "tabs".
 */
import type { LockRequest } from '../../app/state/cart-queue.ts';
import type { ListChannel, ListStorage } from '../../app/state/persisted.ts';

export function memoryStorage(): ListStorage & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: async (k) => structuredClone(data.get(k)), set: async (k, v) => void data.set(k, structuredClone(v)) };
}

/** Two ends of one BroadcastChannel: what one posts, the other hears (never itself). */
export function channelPair(): [ListChannel, ListChannel] {
  const listeners: ((e: { data: unknown }) => void)[][] = [[], []];
  const end = (i: 0 | 1): ListChannel => ({
    postMessage: (data) => queueMicrotask(() => listeners[1 - i].forEach((l) => l({ data: structuredClone(data) }))),
    addEventListener: (_t, l) => listeners[i].push(l),
  });
  return [end(0), end(1)];
}

/** Web Locks in one process: one holder per name at a time, waiters in order. */
export function sharedLock(): LockRequest {
  const tails = new Map<string, Promise<unknown>>();
  return (name, fn) => {
    const prev = tails.get(name) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    tails.set(name, run.catch(() => undefined));
    return run;
  };
}
