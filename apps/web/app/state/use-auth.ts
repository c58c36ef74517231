/**
 * The session store of the current store code, for React, and its wiring to the rest of the page:
 *  - login merges the guest cart into the customer's (cart `switchOwner`), adopts the customer's
 *    licence type and the age confirmation as cookies (the server renders by them) and
 *    revalidates the page, so lists, filters and prices follow the licence (spec §4, §6);
 *  - logout disconnects the cart (cleared, no sync) and the store logs in as a guest again;
 *  - cart and order calls carry the customer's token through `withUserToken` (the 401 refresh);
 *  - the sync-task queue (app/offline/app-sync.ts, loaded on demand) sends the customer's waiting
 *    account writes through the same 401 lock; a lost session or a logout drops what is left.
 * On the server every render gets a throwaway store that never loads (no hydration mismatch).
 */
import { useEffect } from 'react';
import { useRevalidator } from 'react-router';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { LicenseType } from '@verdant/domain';
import type { WithUserToken } from '../api/cart.ts';
import { createSaveOrder, type SaveOrder } from '../api/order.ts';
import { userApi, type CurrentUser } from '../api/user.ts';
import { useRootData } from '../lib/root-data.ts';
import { ageConfirmedCookie, licenseTypeCookie } from '../lib/shopper.ts';
import type { PublicStore } from '../lib/store-view.ts';
import { createAuthStore } from './auth-store.ts';
import type { AuthState } from './auth-types.ts';
import { browserLock } from './cart-queue.ts';
import { notify } from './notifications.ts';
import { browserChannel, browserStorage } from './browser-storage.ts';
import { cartStoreFor } from './use-cart.ts';
import { clearAppSync, useSyncQueueBoot } from './use-sync-boot.ts';

const isBrowser = typeof window !== 'undefined';
const sessions = new Map<string, StoreApi<AuthState>>();
let shopperLicense: LicenseType = 'recreational';
/** The router's revalidate, set by useAuthBoot (the store lives outside React). */
let revalidate: () => void = () => {};

export type SessionStore = Pick<PublicStore, 'storeCode' | 'storeId' | 'purchaseLimits' | 'licenseTypes'>;

/** The cookies the server renders by: the customer's licence (when this store offers it) and the age check. */
function adoptCustomerCookies(store: SessionStore, user: CurrentUser): boolean {
  const secure = location.protocol === 'https:';
  document.cookie = ageConfirmedCookie({ secure });
  if (!store.licenseTypes.includes(user.license_type) || user.license_type === shopperLicense) return false;
  document.cookie = licenseTypeCookie(user.license_type, { secure });
  shopperLicense = user.license_type;
  return true;
}

const serverSessions = new WeakMap<object, StoreApi<AuthState>>();

export function authStoreFor(store: SessionStore): StoreApi<AuthState> {
  if (!isBrowser) {
    // Server render: one signed-out session per render (keyed by the request's own store object), as for the cart.
    let session = serverSessions.get(store);
    if (!session) {
      session = createAuthStore({
        storeCode: store.storeCode,
        api: userApi,
        storage: null,
        channel: null,
        lock: null,
        licenseType: () => shopperLicense,
      });
      serverSessions.set(store, session);
    }
    return session;
  }
  let session = sessions.get(store.storeCode);
  if (!session) {
    session = createAuthStore({
      storeCode: store.storeCode,
      storeId: store.storeId,
      api: userApi,
      storage: browserStorage(),
      channel: browserChannel(`verdant-auth:${store.storeCode}`),
      lock: browserLock(),
      licenseType: () => shopperLicense,
      hooks: {
        onLogin: async (user) => {
          adoptCustomerCookies(store, user);
          await cartStoreFor(store).getState().switchOwner(user.license_type);
          revalidate();
        },
        onLogout: async () => {
          await cartStoreFor(store).getState().disconnect();
          // The customer's waiting writes must never go out with the next session's token.
          await clearAppSync(store.storeCode, authStoreFor(store));
        },
        // Spec §4 Token refresh: the refresh was refused; untransmitted tasks are cleared.
        onSessionLost: () => clearAppSync(store.storeCode, authStoreFor(store)),
        notify: (n) => void notify(n),
      },
    });
    sessions.set(store.storeCode, session);
  }
  return session;
}

/**
 * Cart and order calls: with the customer's token (refreshed under the lock when needed) while a
 * customer is logged in; as a guest otherwise (the cart needs no guest token).
 */
export function withUserTokenFor(store: SessionStore): WithUserToken {
  return async (call) => {
    const auth = authStoreFor(store);
    // A customer's server cart answers only with the customer's token: a call made while the
    // stored session is still being read (page start) would be refused as a stranger's.
    if (!auth.getState().loaded) await sessionRead(auth);
    const session = auth.getState();
    return session.user ? session.authorized((token) => call(token)) : call(null);
  };
}

/** Resolves once the stored session has been read (not waiting for its refresh over the network). */
function sessionRead(auth: StoreApi<AuthState>): Promise<void> {
  return new Promise((resolve) => {
    const stop = auth.subscribe((s) => {
      if (s.loaded) {
        stop();
        resolve();
      }
    });
    if (auth.getState().loaded) {
      stop();
      resolve();
      return;
    }
    void auth.getState().load();
  });
}

export function useAuthApi(): StoreApi<AuthState> {
  const { store, shopper } = useRootData();
  shopperLicense = shopper.licenseType;
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
    revalidate = () => void revalidator.revalidate();
  }, [revalidator]);
  useEffect(() => {
    void auth.getState().load();
  }, [auth]);
}
