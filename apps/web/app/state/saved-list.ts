/**
 * Wishlist and compare (spec §3, §4): client-owned lists of products, one per store, persisted to
 * IndexedDB (idb-keyval) under a key that carries the store code, loaded once per page life and
 * mirrored across tabs with a BroadcastChannel. Rules: add is ignored when the sku is present,
 * remove by sku, clear all; the persisted copy is rewritten on every change.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

export type SavedListKind = 'wishlist' | 'compare';

/** What a list keeps of a product: enough to show and link it without asking the server. */
export interface SavedProduct {
  sku: string;
  name: string;
  /** Store-relative product path (`/p/{sku}/{slug}`). */
  path: string;
  image: string | null;
  brand: string | null;
  /** Wishlist items are always added with quantity 1 (spec §3). */
  qty: 1;
}

export interface SavedListState {
  /** True once the persisted copy was read (or reading it failed). */
  loaded: boolean;
  items: SavedProduct[];
  add(item: Omit<SavedProduct, 'qty'>): void;
  remove(sku: string): void;
  /** Add when absent, remove when present; returns true when the item is now in the list. */
  toggle(item: Omit<SavedProduct, 'qty'>): boolean;
  clear(): void;
  /** Read the persisted copy once (later calls return the same promise). */
  load(): Promise<void>;
}

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

// ---- pure list rules (spec §4) ----

export function addSaved(items: readonly SavedProduct[], item: Omit<SavedProduct, 'qty'>): SavedProduct[] {
  if (items.some((i) => i.sku === item.sku)) return items as SavedProduct[];
  return [...items, { ...item, qty: 1 }];
}

export function removeSaved(items: readonly SavedProduct[], sku: string): SavedProduct[] {
  return items.some((i) => i.sku === sku) ? items.filter((i) => i.sku !== sku) : (items as SavedProduct[]);
}

/** Items persisted by an older build or another tab, checked field by field; duplicates dropped. */
export function sanitizeSaved(value: unknown): SavedProduct[] {
  if (!Array.isArray(value)) return [];
  const out: SavedProduct[] = [];
  for (const v of value) {
    if (!v || typeof v !== 'object') continue;
    const r = v as Record<string, unknown>;
    if (typeof r.sku !== 'string' || !r.sku || typeof r.name !== 'string' || typeof r.path !== 'string') continue;
    if (!r.path.startsWith('/') || r.path.startsWith('//')) continue;
    if (out.some((i) => i.sku === r.sku)) continue;
    out.push({
      sku: r.sku,
      name: r.name,
      path: r.path,
      image: typeof r.image === 'string' ? r.image : null,
      brand: typeof r.brand === 'string' ? r.brand : null,
      qty: 1,
    });
  }
  return out;
}

export function savedListKey(kind: SavedListKind, storeCode: string): string {
  return `verdant:${storeCode}:${kind}`;
}

export interface SavedListOptions {
  kind: SavedListKind;
  storeCode: string;
  storage: ListStorage | null;
  channel: ListChannel | null;
}

export function createSavedListStore({ kind, storeCode, storage, channel }: SavedListOptions): StoreApi<SavedListState> {
  const key = savedListKey(kind, storeCode);
  let loading: Promise<void> | null = null;

  const store = createStore<SavedListState>()((set, get) => {
    const commit = (items: SavedProduct[]) => {
      if (items === get().items) return;
      set({ items });
      // Persist and tell other tabs only after the stored copy was read, so an early click never
      // overwrites what is stored; load() merges such clicks and then persists.
      if (get().loaded) persist(items);
    };
    return {
      loaded: false,
      items: [],
      add: (item) => commit(addSaved(get().items, item)),
      remove: (sku) => commit(removeSaved(get().items, sku)),
      toggle: (item) => {
        const present = get().items.some((i) => i.sku === item.sku);
        commit(present ? removeSaved(get().items, item.sku) : addSaved(get().items, item));
        return !present;
      },
      clear: () => commit([]),
      load: () => {
        loading ??= (async () => {
          let stored: SavedProduct[] = [];
          try {
            stored = sanitizeSaved(storage ? await storage.get(key) : undefined);
          } catch {
            /* IndexedDB unavailable (private mode, quota): the list lives in memory only */
          }
          const early = get().items;
          const merged = early.reduce(addSaved, stored);
          set({ items: merged, loaded: true });
          if (early.length) persist(merged);
        })();
        return loading;
      },
    };
  });

  function persist(items: SavedProduct[]) {
    storage?.set(key, items).catch(() => {
      /* a failed write keeps the in-memory list; the next change tries again */
    });
    channel?.postMessage({ key, items });
  }

  channel?.addEventListener('message', (event) => {
    const data = event.data as { key?: unknown; items?: unknown } | null;
    if (!data || data.key !== key) return;
    // Another tab changed the list and persisted it: mirror it here without writing back.
    store.setState({ items: sanitizeSaved(data.items), loaded: true });
  });

  return store;
}
