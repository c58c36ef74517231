/**
 * Recently viewed products (spec §2 /my-account/recently-viewed): a client-owned list per store,
 * like the wishlist and compare lists (./saved-list.ts): persisted to IndexedDB under a key that
 * carries the store code, loaded once per page life, mirrored across tabs. Rules: a view puts the
 * product first (a product seen again moves up, never twice), and the list keeps the latest
 * RECENTLY_VIEWED_MAX products. It lives in the browser only, so guests have one too.
 */
import { useEffect } from 'react';
import { get as idbGet, set as idbSet } from 'idb-keyval';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { useRootData } from '../lib/root-data.ts';
import { createPersistedList, sanitizeList, type ListChannel, type ListedProduct, type ListStorage, type PersistedListState } from './persisted-list.ts';

export const RECENTLY_VIEWED_MAX = 12;

export interface ViewedProduct extends ListedProduct {
  /** When it was last viewed (ms since the epoch). */
  viewedAt: number;
}

export interface RecentlyViewedState extends PersistedListState<ViewedProduct> {
  record(item: Omit<ViewedProduct, 'viewedAt'>): void;
  clear(): void;
}

// ---- pure list rules ----

export function recordView(items: readonly ViewedProduct[], item: Omit<ViewedProduct, 'viewedAt'>, now: number, max = RECENTLY_VIEWED_MAX): ViewedProduct[] {
  return [{ ...item, viewedAt: now }, ...items.filter((i) => i.sku !== item.sku)].slice(0, max);
}

/** Two lists merged (this tab's early views and the stored ones): newest view of each sku first. */
export function mergeViews(a: readonly ViewedProduct[], b: readonly ViewedProduct[], max = RECENTLY_VIEWED_MAX): ViewedProduct[] {
  const bySku = new Map<string, ViewedProduct>();
  for (const v of [...a, ...b]) {
    const seen = bySku.get(v.sku);
    if (!seen || seen.viewedAt < v.viewedAt) bySku.set(v.sku, v);
  }
  return [...bySku.values()].sort((x, y) => y.viewedAt - x.viewedAt).slice(0, max);
}

/** Items stored by an older build or another tab, checked field by field; duplicates dropped. */
export function sanitizeViews(value: unknown): ViewedProduct[] {
  const views = sanitizeList(value, (product, raw) => ({
    ...product,
    viewedAt: typeof raw.viewedAt === 'number' && Number.isFinite(raw.viewedAt) ? raw.viewedAt : 0,
  }));
  return views.slice(0, RECENTLY_VIEWED_MAX);
}

export function recentlyViewedKey(storeCode: string): string {
  return `verdant:${storeCode}:recently-viewed`;
}

export interface RecentlyViewedOptions {
  storeCode: string;
  storage: ListStorage | null;
  channel: ListChannel | null;
  now?(): number;
}

export function createRecentlyViewedStore({ storeCode, storage, channel, now = Date.now }: RecentlyViewedOptions): StoreApi<RecentlyViewedState> {
  return createPersistedList<ViewedProduct, Omit<RecentlyViewedState, keyof PersistedListState<ViewedProduct>>>({
    key: recentlyViewedKey(storeCode),
    storage,
    channel,
    sanitize: sanitizeViews,
    merge: (early, stored) => mergeViews(early, stored),
    actions: (commit, items) => ({
      record: (item) => {
        const first = items()[0];
        // The same product again (a size change re-renders the page): nothing to write.
        if (first && first.sku === item.sku && first.name === item.name && first.path === item.path) return;
        commit(recordView(items(), item, now()));
      },
      clear: () => commit([]),
    }),
  });
}

// ---- the browser's store and hooks ----

const stores = new Map<string, StoreApi<RecentlyViewedState>>();
const isBrowser = typeof window !== 'undefined';

export function recentlyViewedStore(storeCode: string): StoreApi<RecentlyViewedState> {
  if (!isBrowser) return createRecentlyViewedStore({ storeCode, storage: null, channel: null });
  let store = stores.get(storeCode);
  if (!store) {
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`verdant-recently-viewed:${storeCode}`) : null;
    const storage = typeof indexedDB === 'undefined' ? null : { get: (k: string) => idbGet(k), set: (k: string, v: unknown) => idbSet(k, v) };
    store = createRecentlyViewedStore({ storeCode, storage, channel });
    stores.set(storeCode, store);
  }
  return store;
}

/** The list of the current store, loaded from IndexedDB after hydration. */
export function useRecentlyViewed<T>(selector: (state: RecentlyViewedState) => T): T {
  const store = recentlyViewedStore(useRootData().store.storeCode);
  useEffect(() => {
    void store.getState().load();
  }, [store]);
  return useStore(store, selector);
}

/** The product page's one call: remember this product as viewed (after hydration, never on the server). */
export function useRecordView(product: Omit<ViewedProduct, 'viewedAt'>): void {
  const store = recentlyViewedStore(useRootData().store.storeCode);
  const { sku, name, path, image, brand } = product;
  useEffect(() => {
    void store.getState().load();
    store.getState().record({ sku, name, path, image, brand });
  }, [store, sku, name, path, image, brand]);
}
