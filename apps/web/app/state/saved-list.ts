/**
 * Wishlist and compare (spec §3, §4): client-owned lists of products, one per store, persisted to
 * IndexedDB (idb-keyval) under a key that carries the store code, loaded once per page life and
 * mirrored across tabs with a BroadcastChannel. Rules: add is ignored when the sku is present,
 * remove by sku, clear all; the persisted copy is rewritten on every change.
 */
import type { StoreApi } from 'zustand/vanilla';
import { createPersistedList, sanitizeList, type ListChannel, type ListedProduct, type ListStorage, type PersistedListState } from './persisted-list.ts';

export type SavedListKind = 'wishlist' | 'compare';

/** What a list keeps of a product: enough to show and link it without asking the server. */
export interface SavedProduct extends ListedProduct {
  /** Wishlist items are always added with quantity 1 (spec §3). */
  qty: 1;
}

export interface SavedListState extends PersistedListState<SavedProduct> {
  add(item: Omit<SavedProduct, 'qty'>): void;
  remove(sku: string): void;
  /** Add when absent, remove when present; returns true when the item is now in the list. */
  toggle(item: Omit<SavedProduct, 'qty'>): boolean;
  clear(): void;
}

export type { ListChannel, ListStorage } from './persisted-list.ts';

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
  return sanitizeList(value, (product) => ({ ...product, qty: 1 }));
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
  return createPersistedList<SavedProduct, Omit<SavedListState, keyof PersistedListState<SavedProduct>>>({
    key: savedListKey(kind, storeCode),
    storage,
    channel,
    sanitize: sanitizeSaved,
    merge: (early, stored) => early.reduce(addSaved, stored),
    actions: (commit, items) => ({
      add: (item) => commit(addSaved(items(), item)),
      remove: (sku) => commit(removeSaved(items(), sku)),
      toggle: (item) => {
        const present = items().some((i) => i.sku === item.sku);
        commit(present ? removeSaved(items(), item.sku) : addSaved(items(), item));
        return !present;
      },
      clear: () => commit([]),
    }),
  });
}
