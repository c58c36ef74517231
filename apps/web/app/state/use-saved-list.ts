import { useEffect } from 'react';
import { get as idbGet, set as idbSet } from 'idb-keyval';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { useRootData } from '../lib/root-data.ts';
import { createSavedListStore, type SavedListKind, type SavedListState } from './saved-list.ts';

const stores = new Map<string, StoreApi<SavedListState>>();
const isBrowser = typeof window !== 'undefined';

/**
 * The list store of a kind for a store code, made once per page life. On the server every render
 * gets a throwaway empty list (nothing is persisted there, and no state may leak between shoppers).
 */
export function savedListStore(kind: SavedListKind, storeCode: string): StoreApi<SavedListState> {
  if (!isBrowser) return createSavedListStore({ kind, storeCode, storage: null, channel: null });
  const id = `${kind}:${storeCode}`;
  let store = stores.get(id);
  if (!store) {
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`verdant-${id}`) : null;
    const storage = typeof indexedDB === 'undefined' ? null : { get: (k: string) => idbGet(k), set: (k: string, v: unknown) => idbSet(k, v) };
    store = createSavedListStore({ kind, storeCode, storage, channel });
    stores.set(id, store);
  }
  return store;
}

/** A saved list of the current store, loaded from IndexedDB after hydration. */
export function useSavedList<T>(kind: SavedListKind, selector: (state: SavedListState) => T): T {
  const { store: shopStore } = useRootData();
  const store = savedListStore(kind, shopStore.storeCode);
  useEffect(() => {
    void store.getState().load();
  }, [store]);
  return useStore(store, selector);
}

export function useSavedListApi(kind: SavedListKind): StoreApi<SavedListState> {
  const { store: shopStore } = useRootData();
  return savedListStore(kind, shopStore.storeCode);
}
