/** The browser's IndexedDB (idb-keyval) and BroadcastChannel for the persisted stores; null where absent (SSR, old browsers). */
import { get as idbGet, set as idbSet } from 'idb-keyval';
import type { ListChannel, ListStorage } from './persisted.ts';

export function browserStorage(): ListStorage | null {
  return typeof indexedDB === 'undefined' ? null : { get: (k) => idbGet(k), set: (k, v) => idbSet(k, v) };
}

export function browserChannel(name: string): ListChannel | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : null;
}
