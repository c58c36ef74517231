/**
 * Orders placed while offline (issue 6, spec §4 Offline and sync tasks), for React: one store of
 * waiting orders per store code (app/offline/offline-orders.ts, IndexedDB, one send across tabs
 * under a Web Lock), sent as the logged-in customer when there is one.
 *
 * The flow: checkout could not reach the store → the order (with its idempotency key) is stored
 * here before the shopper is told it was queued; the cart stays. When the network returns and
 * automatic transmission is off (the default, spec §9), the "Order waiting!" notice asks the
 * shopper to confirm; confirming sends it, the server re-checks stock and limits, and the shopper
 * sees the store's order number (thank-you page) or its reason for refusing, with the cart kept.
 */
import { useEffect, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { createOfflineOrders, type ConfirmResult, type OfflineOrder, type OfflineOrders } from '../offline/offline-orders.ts';
import { useRootData } from '../lib/root-data.ts';
import { apiStoreCodeParam } from '../api/store-scope.ts';
import { clearOfflineOrdersWaiting } from '../offline/waiting-flag.ts';
import type { AuthState } from './auth-types.ts';
import { browserLock } from './cart-queue.ts';
import type { CartState } from './cart-store.ts';
import type { CheckoutState } from './checkout-store.ts';
import { authStoreFor, cartStoreFor, checkoutStoreFor, type SessionStore } from './page-stores.ts';

const registry = new Map<string, OfflineOrders>();

export function offlineOrdersFor(store: SessionStore): OfflineOrders | null {
  if (typeof window === 'undefined' || typeof indexedDB === 'undefined') return null;
  let orders = registry.get(store.storeCode);
  if (!orders) {
    const authorized: AuthState['authorized'] = (call) => {
      const session = authStoreFor(store).getState();
      return session.user ? session.authorized(call) : call('');
    };
    orders = createOfflineOrders({
      name: store.storeCode,
      // A store opened by its path prefix is not the host's: the order names it (as every API call does).
      storeCode: () => apiStoreCodeParam(),
      lock: browserLock(),
      authorized,
      channel: typeof BroadcastChannel === 'function' ? new BroadcastChannel(`verdant-orders:${store.storeCode}`) : null,
    });
    registry.set(store.storeCode, orders);
  }
  return orders;
}

/** What confirming came to, applied to the page's stores: placed → cart emptied, thank-you data set. */
export async function settleConfirmation(result: ConfirmResult, cart: StoreApi<CartState>, checkout: StoreApi<CheckoutState>): Promise<void> {
  if (result.kind !== 'placed') return;
  await checkout.getState().orderPlaced(result.order);
  cart.getState().clearAfterOrder();
}

export function useOfflineOrders(): { orders: OfflineOrders | null; waiting: OfflineOrder[]; cart: StoreApi<CartState>; checkout: StoreApi<CheckoutState> } {
  const { store } = useRootData();
  const orders = offlineOrdersFor(store);
  const [waiting, setWaiting] = useState<OfflineOrder[]>([]);
  useEffect(() => {
    if (!orders) return;
    let live = true;
    const read = () =>
      void orders.waitingOrders().then((w) => {
        // Keep the hint that loads the notice true exactly while orders wait.
        if (w.length === 0) clearOfflineOrdersWaiting(store.storeCode);
        if (live) setWaiting(w);
      });
    read();
    const off = orders.subscribe(read);
    return () => {
      live = false;
      off();
    };
  }, [orders, store.storeCode]);
  return { orders, waiting, cart: cartStoreFor(store), checkout: checkoutStoreFor(store) };
}
