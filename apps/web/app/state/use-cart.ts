/**
 * The cart and checkout stores of the current store code, for React (the stores themselves, one of
 * each per store and page life in the browser and a throwaway empty one per server render, are in
 * ./page-stores.ts).
 */
import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { medicalCardProblem, type TaxRate, type TaxRule } from '@verdant/domain';
import { loadTaxRules, taxRatesLookup } from '../api/tax-rules.ts';
import { limitSettings, totalsView, type TotalsView } from '../lib/cart-view.ts';
import { useRootData } from '../lib/root-data.ts';
import { useDealEstimate } from '../lib/deal-estimate.ts';
import { usePageChange } from '../lib/use-page-change.ts';
import type { PublicStore } from '../lib/store-view.ts';
import type { CartState } from './cart-store.ts';
import type { CheckoutState } from './checkout-store.ts';
import { cartStoreFor, checkoutStoreFor, setCartLicense } from './page-stores.ts';
import { useAuth } from './use-auth.ts';

export function useCartApi(): StoreApi<CartState> {
  const { store, shopper } = useRootData();
  setCartLicense(shopper.licenseType);
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
  usePageChange(() => cart.getState().setMicrocart(false));
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
  const { store, shopper, basePath } = useRootData();
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
  // Issue 28: offline (the store does not answer), the snapshot's deals estimate the discounts.
  const sync = useCart((s) => s.sync);
  // A tax line may exempt a medical customer whose card is valid today (as the server's cartTaxLines).
  const user = useAuth((s) => s.user);
  const medicalCard =
    (cartLicense ?? shopper.licenseType) === 'medical' &&
    user != null &&
    medicalCardProblem({ medcardNumber: user.medcard_number, medcardExpiry: user.medcard_expiry, timeZone: store.placeInfo.timezone }, 'medical', new Date()) === null;
  const dealEstimate = useDealEstimate({ items, token, storeCode: store.storeCode, basePath, licenseType: cartLicense ?? shopper.licenseType, wanted: sync !== 'idle' });
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
          dealEstimate,
          medicalCard,
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
      dealEstimate,
      medicalCard,
    ],
  );
}
