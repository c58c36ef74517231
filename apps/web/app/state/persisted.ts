/**
 * A persisted, tab-mirrored copy of client state (ARCHITECTURE: Zustand persisted to IndexedDB,
 * mirrored across tabs). The same storage and channel shapes as the wishlist and compare lists
 * (./saved-list.ts). Each copy carries a revision: a tab adopts what it reads or hears only when
 * the revision is newer than its own, so a late message never rolls a tab back.
 */
import type { ListChannel, ListStorage } from './saved-list.ts';

export type { ListChannel, ListStorage };

export interface Revisioned {
  rev: number;
}

export interface Mirror<D extends Revisioned> {
  /** The stored copy, or null (nothing stored, unreadable, or IndexedDB unavailable). */
  read(): Promise<D | null>;
  /** Store the copy, then tell the other tabs. Never rejects: a failed write keeps the state in memory. */
  write(data: D): Promise<void>;
  /** Listen to copies written by other tabs. */
  subscribe(listener: (data: D) => void): void;
}

export interface MirrorOptions<D> {
  key: string;
  storage: ListStorage | null;
  channel: ListChannel | null;
  /** Check a stored or received value field by field (another build may have written it). */
  sanitize(value: unknown): D | null;
}

export function createMirror<D extends Revisioned>({ key, storage, channel, sanitize }: MirrorOptions<D>): Mirror<D> {
  return {
    async read() {
      if (!storage) return null;
      try {
        return sanitize(await storage.get(key));
      } catch {
        return null;
      }
    },
    async write(data) {
      try {
        await storage?.set(key, data);
      } catch {
        /* quota or private mode: the other tabs still hear about it below */
      }
      try {
        channel?.postMessage({ key, data });
      } catch {
        /* a closed channel (page unloading) */
      }
    },
    subscribe(listener) {
      channel?.addEventListener('message', (event) => {
        const message = event.data as { key?: unknown; data?: unknown } | null;
        if (!message || message.key !== key) return;
        const data = sanitize(message.data);
        if (data) listener(data);
      });
    },
  };
}

/** `verdant:{storeCode}:{name}`: one copy per store, like the saved lists. */
export function stateKey(storeCode: string, name: string): string {
  return `verdant:${storeCode}:${name}`;
}
