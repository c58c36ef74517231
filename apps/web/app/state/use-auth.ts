/**
 * The session store of the current store code, for React. The store itself and its wiring to the
 * cart (login merges the guest cart, logout disconnects it, cart and order calls carry the
 * customer's token) are in ./page-stores.ts; here the hooks, and the boot that starts the sync-task
 * queue (app/offline/app-sync.ts, loaded on demand), which sends the customer's waiting account
 * writes through the same 401 lock; a lost session or a logout drops what is left.
 * On the server every render gets a throwaway store that never loads (no hydration mismatch).
 */
import { useEffect } from 'react';
import { useRevalidator } from 'react-router';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { createSaveOrder, type SaveOrder } from '../api/order.ts';
import { useRootData } from '../lib/root-data.ts';
import type { AuthState } from './auth-types.ts';
import { authStoreFor, setRevalidate, setSessionLicense, withUserTokenFor } from './page-stores.ts';
import { useSyncQueueBoot } from './use-sync-boot.ts';

export function useAuthApi(): StoreApi<AuthState> {
  const { store, shopper } = useRootData();
  setSessionLicense(shopper.licenseType);
  return authStoreFor(store);
}

export function useAuth<T>(selector: (state: AuthState) => T): T {
  return useStore(useAuthApi(), selector);
}

/** The order call of the checkout, sent as the logged-in customer when there is one. */
export function useSaveOrder(): SaveOrder {
  const { store } = useRootData();
  return createSaveOrder(withUserTokenFor(store));
}

/** Loads the session once after hydration; keeps the router's revalidate at hand for logins; starts the sync queue. */
export function useAuthBoot(): void {
  const auth = useAuthApi();
  const { store } = useRootData();
  useSyncQueueBoot(store.storeCode, auth);
  const revalidator = useRevalidator();
  useEffect(() => {
    setRevalidate(() => void revalidator.revalidate());
  }, [revalidator]);
  useEffect(() => {
    void auth.getState().load();
  }, [auth]);
}
