/**
 * The per-store-code stores of the page (session, cart, checkout) and how they are wired together,
 * below the React hooks that read them (./use-auth.ts, ./use-cart.ts, ./use-offline-orders.ts).
 * The session and the cart need each other, so both registries live here:
 *  - login merges the guest cart into the customer's (cart `switchOwner`), adopts the customer's
 *    licence type and the age confirmation as cookies (the server renders by them) and
 *    revalidates the page, so lists, filters and prices follow the licence (spec §4, §6);
 *  - logout disconnects the cart (cleared, no sync) and the store logs in as a guest again;
 *  - cart and order calls carry the customer's token through `withUserToken` (the 401 refresh).
 * One of each per store and page life in the browser (IndexedDB via idb-keyval, BroadcastChannel,
 * Web Locks, the HTTP transport); on the server every render gets throwaway stores that never load,
 * so the server HTML is what the browser also renders before it has read IndexedDB (no hydration
 * mismatch).
 */
import type { StoreApi } from 'zustand/vanilla';
import { formatMoney, type LicenseType } from '@verdant/domain';
import { createHttpCartTransport, type Residency, type WithUserToken } from '../api/cart.ts';
import { userApi, type CurrentUser } from '../api/user.ts';
import { limitSettings } from '../lib/cart-view.ts';
import { ageConfirmedCookie, licenseTypeCookie } from '../lib/shopper.ts';
import type { PublicStore } from '../lib/store-view.ts';
import { createAuthStore } from './auth-store.ts';
import type { AuthState } from './auth-types.ts';
import { browserChannel, browserStorage } from './browser-storage.ts';
import { browserLock } from './cart-queue.ts';
import { createCartStore, type CartState } from './cart-store.ts';
import { createCheckoutStore, type CheckoutState } from './checkout-store.ts';
import { notify } from './notifications.ts';
import { clearAppSync } from './use-sync-boot.ts';

const isBrowser = typeof window !== 'undefined';
/** The shopper's licence type as the page last rendered it (./use-auth.ts sets it; a login sets the customer's). */
let sessionLicense: LicenseType = 'recreational';
/** The shopper's licence type as the page last rendered it (./use-cart.ts sets it; the cart creates its server cart for it). */
let cartLicense: LicenseType = 'recreational';
/** The router's revalidate, set by useAuthBoot (the store lives outside React). */
let revalidate: () => void = () => {};

/** The page rendered for this licence type (the session store's view of the shopper). */
export function setSessionLicense(licenseType: LicenseType): void {
  sessionLicense = licenseType;
}

/** The page rendered for this licence type (the cart's view of the shopper). */
export function setCartLicense(licenseType: LicenseType): void {
  cartLicense = licenseType;
}

/** How a login revalidates the page: the router's revalidate, once the router is there. */
export function setRevalidate(fn: () => void): void {
  revalidate = fn;
}

const sessions = new Map<string, StoreApi<AuthState>>();

export type SessionStore = Pick<PublicStore, 'storeCode' | 'storeId' | 'purchaseLimits' | 'licenseTypes'>;

/** The cookies the server renders by: the customer's licence (when this store offers it) and the age check. */
function adoptCustomerCookies(store: SessionStore, user: CurrentUser): boolean {
  const secure = location.protocol === 'https:';
  document.cookie = ageConfirmedCookie({ secure });
  if (!store.licenseTypes.includes(user.license_type) || user.license_type === sessionLicense) return false;
  document.cookie = licenseTypeCookie(user.license_type, { secure });
  sessionLicense = user.license_type;
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
        licenseType: () => sessionLicense,
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
      licenseType: () => sessionLicense,
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

const carts = new Map<string, StoreApi<CartState>>();
const checkouts = new Map<string, StoreApi<CheckoutState>>();

const serverCheckouts = new WeakMap<object, StoreApi<CheckoutState>>();

export function checkoutStoreFor(page: Pick<PublicStore, 'storeCode'>): StoreApi<CheckoutState> {
  const { storeCode } = page;
  if (!isBrowser) {
    // Server render: one empty checkout per render (not one per component that asks), keyed by the
    // root data's store object like the cart below.
    let checkout = serverCheckouts.get(page);
    if (!checkout) serverCheckouts.set(page, (checkout = createCheckoutStore({ storeCode, storage: null, channel: null })));
    return checkout;
  }
  let store = checkouts.get(storeCode);
  if (!store) {
    store = createCheckoutStore({ storeCode, storage: browserStorage(), channel: browserChannel(`verdant-checkout:${storeCode}`) });
    checkouts.set(storeCode, store);
  }
  return store;
}

const serverCarts = new WeakMap<object, StoreApi<CartState>>();

export function cartStoreFor(
  store: Pick<PublicStore, 'storeCode' | 'storeId' | 'purchaseLimits' | 'licenseTypes'> & Partial<Pick<PublicStore, 'money'>>,
): StoreApi<CartState> {
  const limits = limitSettings(store.purchaseLimits);
  if (!isBrowser) {
    // Server render (issue 15, SSR profile): one empty, never-changing cart per render rather than one
    // per component that asks (every product card's button did). Keyed by the root data's store
    // object, which is new for every request, so no render ever sees another's.
    let cart = serverCarts.get(store);
    if (!cart) {
      cart = createCartStore({
        storeCode: store.storeCode,
        transport: null,
        storage: null,
        channel: null,
        lock: null,
        licenseType: () => cartLicense,
        limits,
      });
      serverCarts.set(store, cart);
    }
    return cart;
  }
  let cart = carts.get(store.storeCode);
  if (!cart) {
    const checkout = checkoutStoreFor(store);
    const residency = sessionResidency(store.storeCode);
    let self: StoreApi<CartState> | null = null;
    cart = self = createCartStore({
      storeCode: store.storeCode,
      transport: createHttpCartTransport(withUserTokenFor(store), { residency: () => self?.getState().residency ?? null }),
      residency,
      storage: browserStorage(),
      channel: browserChannel(`verdant-cart:${store.storeCode}`),
      lock: browserLock(),
      licenseType: () => cartLicense,
      limits,
      inCheckout: () => checkout.getState().isInCheckout(),
      onRefused: (refusals) =>
        refusals.forEach((r) => notify({ type: 'error', message: `${r.name}: ${r.message}`, action1: { label: 'OK' } })),
      // Not in the spec's copy (it has no notice for a changed price); a shopper must not find out at the counter.
      onRepriced: (lines) =>
        lines.forEach((l) =>
          notify({
            type: 'info',
            message: `The price of ${l.name} changed from ${formatMoney(l.before, store.money)} to ${formatMoney(l.after, store.money)}.`,
            action1: { label: 'OK' },
          }),
        ),
    });
    carts.set(store.storeCode, cart);
  }
  return cart;
}

/**
 * The residency the shopper said at checkout (issue 14), remembered for the browser session per
 * store: asked once, sent with every cart update, limits question and order until the tab closes.
 */
function sessionResidency(storeCode: string): { initial: Residency | null; save(r: Residency | null): void } {
  const key = `verdant-residency:${storeCode}`;
  let initial: Residency | null = null;
  try {
    const v = window.sessionStorage.getItem(key);
    initial = v === 'resident' || v === 'non_resident' ? v : null;
  } catch {
    // Storage blocked: asked again on the next page load.
  }
  return {
    initial,
    save: (r) => {
      try {
        if (r) window.sessionStorage.setItem(key, r);
        else window.sessionStorage.removeItem(key);
      } catch {
        // Storage blocked: kept for this page only.
      }
    },
  };
}
