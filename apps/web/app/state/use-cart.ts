/**
 * The cart and checkout stores of the current store code, for React. One of each per store and
 * page life in the browser (IndexedDB via idb-keyval, BroadcastChannel, Web Locks, the HTTP
 * transport); on the server every render gets a throwaway empty store that never loads, so the
 * server HTML is the empty cart the browser also renders before it has read IndexedDB (no
 * hydration mismatch).
 */
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { formatMoney, type LicenseType, type TaxRate, type TaxRule } from '@verdant/domain';
import { createHttpCartTransport, type Residency } from '../api/cart.ts';
import { loadTaxRules, taxRatesLookup } from '../api/tax-rules.ts';
import { limitSettings, totalsView, type TotalsView } from '../lib/cart-view.ts';
import { useRootData } from '../lib/root-data.ts';
import type { PublicStore } from '../lib/store-view.ts';
import { createCartStore, type CartState } from './cart-store.ts';
import { createCheckoutStore, type CheckoutState } from './checkout-store.ts';
import { browserLock } from './cart-queue.ts';
import { notify } from './notifications.ts';
import { useAuth, withUserTokenFor } from './use-auth.ts';
import { browserChannel, browserStorage } from './browser-storage.ts';

const isBrowser = typeof window !== 'undefined';
const carts = new Map<string, StoreApi<CartState>>();
const checkouts = new Map<string, StoreApi<CheckoutState>>();
/** The shopper's licence type as the page last rendered it (the cart creates its server cart for it). */
let shopperLicense: LicenseType = 'recreational';

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
        licenseType: () => shopperLicense,
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
      licenseType: () => shopperLicense,
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

export function useCartApi(): StoreApi<CartState> {
  const { store, shopper } = useRootData();
  shopperLicense = shopper.licenseType;
  return cartStoreFor(store);
}

export function useCart<T>(selector: (state: CartState) => T): T {
  return useStore(useCartApi(), selector);
}

export function useCheckoutApi(): StoreApi<CheckoutState> {
  return checkoutStoreFor(useRootData().store);
}

export function useCheckout<T>(selector: (state: CheckoutState) => T): T {
  return useStore(useCheckoutApi(), selector);
}

/**
 * Loads the cart and checkout once, after hydration; syncs again when the browser is back online;
 * closes the microcart on navigation (here, because checkout mode has no cart button to do it).
 */
export function useCartBoot(): void {
  const cart = useCartApi();
  const checkout = useCheckoutApi();
  const location = useLocation();
  useEffect(() => cart.getState().setMicrocart(false), [cart, location.key]);
  useEffect(() => {
    void checkout
      .getState()
      .load()
      .then(() => cart.getState().load());
    const online = () => {
      if (cart.getState().sync === 'unreachable') void cart.getState().syncNow({ force: true });
    };
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [cart, checkout]);
}

/** The store's tax rules, read once when a totals view first needs them (the estimate only). */
function useTaxRates(place: PublicStore['placeInfo']['address']): (taxClassId: number | null) => readonly TaxRate[] {
  const [rules, setRules] = useState<TaxRule[]>([]);
  useEffect(() => {
    let live = true;
    void loadTaxRules().then((r) => live && setRules(r));
    return () => {
      live = false;
    };
  }, []);
  return useMemo(() => taxRatesLookup(rules, place), [rules, place]);
}

/** Totals and limit as the microcart and checkout show them (server figures, else the estimate). */
export function useCartTotals(): TotalsView {
  const { store, shopper } = useRootData();
  const items = useCart((s) => s.items);
  const token = useCart((s) => s.token);
  const totals = useCart((s) => s.totals);
  const totalsHash = useCart((s) => s.totalsHash);
  const cartLimits = useCart((s) => s.limits);
  const limitsHash = useCart((s) => s.limitsHash);
  const cartLicense = useCart((s) => (s.items.length > 0 ? s.licenseType : null));
  const method = useCheckout((s) => s.shipping.method);
  // The fee of the address's delivery zone once the server named it (issue 14), else the store's first zone's fee (as the server estimates).
  const deliveryFee = useCheckout((s) => s.delivery?.zone?.fee_incl_tax) ?? store.delivery.zones[0]?.fee_incl_tax ?? 0;
  // Points count only for a logged-in customer (the order sends them only then).
  const credits = useCheckout((s) => s.burnCredits) * (useAuth((s) => s.user) ? 1 : 0);
  const ratesOf = useTaxRates(store.placeInfo.address);
  const limits = useMemo(() => limitSettings(store.purchaseLimits), [store.purchaseLimits]);
  return useMemo(
    () =>
      totalsView(
        { items, token, totals, totalsHash, limits: cartLimits, limitsHash },
        {
          ratesOf,
          limits,
          licenseType: cartLicense ?? shopper.licenseType,
          shippingInclTax: method === 'delivery' ? deliveryFee : 0,
          credits,
        },
      ),
    [
      items,
      token,
      totals,
      totalsHash,
      cartLimits,
      limitsHash,
      ratesOf,
      limits,
      cartLicense,
      shopper.licenseType,
      method,
      deliveryFee,
      credits,
    ],
  );
}
