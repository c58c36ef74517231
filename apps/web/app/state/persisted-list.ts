/**
 * What the browser-owned product lists share (wishlist and compare in ./saved-list.ts, recently
 * viewed in ./recently-viewed.ts): one list per store key, persisted to an async key-value store
 * (IndexedDB via idb-keyval in the browser, a Map in tests), read once per page life, mirrored
 * across tabs over a channel. The lists differ only in their rules (the actions) and in how an
 * item is checked and merged.
 *
 * Persistence rules:
 *  - Changes made before the stored copy was read stay in memory; load() merges them with the
 *    stored copy (the list's `merge`) and writes the result, so an early click never overwrites
 *    what was stored.
 *  - After that, every change is written and posted to the other tabs; a tab that hears one takes
 *    it over without writing it back.
 *  - Storage that fails (private mode, quota) leaves the list working in memory.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

/** The async key-value store behind a list (idb-keyval in the browser, a Map in tests). */
export interface ListStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

/** A cross-tab channel (BroadcastChannel's shape). */
export interface ListChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** What every list keeps of a product: enough to show and link it without asking the server. */
export interface ListedProduct {
  sku: string;
  name: string;
  /** Store-relative product path (`/p/{sku}/{slug}`). */
  path: string;
  image: string | null;
  brand: string | null;
}

/**
 * The product fields of one stored item, checked field by field (an older build or another tab
 * wrote it); null when it is not a product this list can show. Paths must stay inside the store.
 */
export function listedProductOf(value: unknown): (ListedProduct & { raw: Record<string, unknown> }) | null {
  if (!value || typeof value !== 'object') return null;
  const r = value as Record<string, unknown>;
  if (typeof r.sku !== 'string' || !r.sku || typeof r.name !== 'string' || typeof r.path !== 'string') return null;
  if (!r.path.startsWith('/') || r.path.startsWith('//')) return null;
  return {
    sku: r.sku,
    name: r.name,
    path: r.path,
    image: typeof r.image === 'string' ? r.image : null,
    brand: typeof r.brand === 'string' ? r.brand : null,
    raw: r,
  };
}

/** Stored items checked one by one, each sku once (the first wins). */
export function sanitizeList<T extends ListedProduct>(value: unknown, toItem: (product: ListedProduct, raw: Record<string, unknown>) => T): T[] {
  if (!Array.isArray(value)) return [];
  const out: T[] = [];
  for (const v of value) {
    const product = listedProductOf(v);
    if (!product || out.some((i) => i.sku === product.sku)) continue;
    const { raw, ...fields } = product;
    out.push(toItem(fields, raw));
  }
  return out;
}

export interface PersistedListState<T> {
  /** True once the persisted copy was read (or reading it failed). */
  loaded: boolean;
  items: T[];
  /** Read the persisted copy once (later calls return the same promise). */
  load(): Promise<void>;
}

export interface PersistedListOptions<T, A> {
  key: string;
  storage: ListStorage | null;
  channel: ListChannel | null;
  sanitize(value: unknown): T[];
  /** The list after load(): changes made before it (`early`) merged into the stored copy. */
  merge(early: T[], stored: T[]): T[];
  /** The list's own actions; `commit` sets (and, once loaded, persists) the new items. */
  actions(commit: (items: T[]) => void, items: () => T[]): A;
}

export function createPersistedList<T, A extends object>(o: PersistedListOptions<T, A>): StoreApi<PersistedListState<T> & A> {
  const { key, storage, channel } = o;
  let loading: Promise<void> | null = null;

  const persist = (items: T[]) => {
    storage?.set(key, items).catch(() => {
      /* a failed write keeps the in-memory list; the next change tries again */
    });
    channel?.postMessage({ key, items });
  };

  const store = createStore<PersistedListState<T> & A>()((set, get) => {
    const commit = (items: T[]) => {
      if (items === get().items) return;
      set({ items } as Partial<PersistedListState<T> & A>);
      if (get().loaded) persist(items);
    };
    return {
      loaded: false,
      items: [],
      load: () => {
        loading ??= (async () => {
          let stored: T[] = [];
          try {
            stored = o.sanitize(storage ? await storage.get(key) : undefined);
          } catch {
            /* IndexedDB unavailable (private mode, quota): the list lives in memory only */
          }
          const early = get().items;
          const merged = o.merge(early, stored);
          set({ items: merged, loaded: true } as Partial<PersistedListState<T> & A>);
          if (early.length) persist(merged);
        })();
        return loading;
      },
      ...o.actions(commit, () => get().items),
    };
  });

  channel?.addEventListener('message', (event) => {
    const data = event.data as { key?: unknown; items?: unknown } | null;
    if (!data || data.key !== key) return;
    // Another tab changed the list and persisted it: mirror it here without writing back.
    store.setState({ items: o.sanitize(data.items), loaded: true } as Partial<PersistedListState<T> & A>);
  });

  return store;
}
