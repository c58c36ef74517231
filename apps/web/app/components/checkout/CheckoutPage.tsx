import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { OrderPayload } from '../../api/order.ts';
import { CART_MESSAGES } from '../../lib/cart-messages.ts';
import { validateAddress, validatePersonal } from '../../lib/checkout-validation.ts';
import { formatDateTime } from '@verdant/domain';
import { useRootData, useStorePath } from '../../lib/root-data.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { placeOrder } from '../../state/place-order.ts';
import { SYNC_COPY } from '../../offline/sync-task.ts';
import { useAuth, useAuthApi, useSaveOrder } from '../../state/use-auth.ts';
import { personalPrefill, shippingPrefill } from '../../lib/checkout-prefill.ts';
import { offlineOrdersFor } from '../../state/use-offline-orders.ts';
import { markOfflineOrdersWaiting } from '../../offline/waiting-flag.ts';
import { useCart, useCartApi, useCartTotals, useCheckout, useCheckoutApi } from '../../state/use-cart.ts';
import { PageShell } from '../page/PageShell.tsx';
import { StoreLink } from '../store/StoreLink.tsx';
import { DeliveryFields, useDeliveryCheck, type AddressErrors } from './DeliveryFields.tsx';
import { PaymentFields } from './PaymentFields.tsx';
import { SlotField } from './SlotField.tsx';
import { LimitMeters } from '../cart/LimitMeters.tsx';
import { RESIDENCY_REQUIRED, ResidencyField, useNeedsResidency } from './ResidencyField.tsx';
import { PersonalFields, type PersonalErrors } from './PersonalFields.tsx';
import { ReviewBlock } from './ReviewBlock.tsx';
import { ThankYou } from './ThankYou.tsx';
import { BirthdayField, birthdayProblem, isAgeMessage } from './BirthdayField.tsx';

type Errors = PersonalErrors & AddressErrors & { birthday?: string; residency?: string };
const FIELD_ORDER: (keyof Errors)[] = ['firstName', 'lastName', 'emailAddress', 'phone', 'birthday', 'residency', 'address', 'city', 'zip'];
const FIELD_LABELS: Record<keyof Errors, string> = {
  firstName: 'First name', lastName: 'Last name', emailAddress: 'E-mail', phone: 'Phone', birthday: 'Date of birth', residency: 'Residency', address: 'Street address', city: 'City', zip: 'ZIP code',
};

/** Spec §2 /checkout: the cart must have lines; `?thank-you` shows the order the server confirmed. */
export function CheckoutPage() {
  const hydrated = useHydrated();
  const cartLoaded = useCart((s) => s.loaded);
  const itemCount = useCart((s) => s.items.length);
  const order = useCheckout((s) => s.order);
  const [params] = useSearchParams();
  if (!hydrated || !cartLoaded) {
    return (
      <PageShell title="Checkout">
        <p className="text-stone-700">Loading your cart…</p>
        <noscript>
          <p className="mt-2 text-stone-700">Checkout needs JavaScript. You can also reserve your order by phone.</p>
        </noscript>
      </PageShell>
    );
  }
  if (params.has('thank-you') && order) return <ThankYou order={order} />;
  if (itemCount === 0) {
    return (
      <PageShell title="Checkout">
        <p role="alert" className="text-lg text-stone-800">
          {CART_MESSAGES.emptyCartCheckout}
        </p>
        <p className="mt-6">
          <StoreLink to="/menu" className="inline-flex min-h-11 items-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90">
            Browse the menu
          </StoreLink>
        </p>
      </PageShell>
    );
  }
  return <CheckoutForm />;
}

function CheckoutForm() {
  const { shopper } = useRootData();
  const cart = useCartApi();
  const checkout = useCheckoutApi();
  const auth = useAuthApi();
  const saveOrder = useSaveOrder();
  const rootStore = useRootData().store;
  const offlineOrders = offlineOrdersFor(rootStore);
  const navigate = useNavigate();
  const storePath = useStorePath();
  const view = useCartTotals();
  const pending = useCheckout((s) => s.pendingOrder);
  const { check } = useDeliveryCheck();
  const [errors, setErrors] = useState<Errors>({});
  const [summary, setSummary] = useState<(keyof Errors)[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [placing, setPlacing] = useState(false);
  // Time slot (issue 14, SlotField.tsx): '' is as soon as possible (or the store's first free slot).
  const [slot, setSlot] = useState('');
  const orderType = useCheckout((s) => s.shipping.method);
  const summaryRef = useRef<HTMLDivElement>(null);

  // Entering checkout: sync with the client state authoritative, refresh stock, set the order type on the server.
  useEffect(() => {
    const c = checkout.getState();
    void cart.getState().syncStock();
    const d = c.delivery;
    const shipping =
      c.shipping.method === 'delivery' && d
        ? cart.getState().setShipping('delivery', { zip: d.zip, city: c.shipping.city, address: c.shipping.address })
        : cart.getState().setShipping('pickup');
    // A refusal here is asked again, and shown, when the order is placed.
    shipping.catch(() => null);
  }, [cart, checkout]);

  // A logged-in customer's details and default address fill the empty fields (never over what
  // the shopper typed): lib/checkout-prefill.ts.
  const user = useAuth((s) => s.user);
  // Age on every order (issue 14): asked unless the account has it (the server uses the account's).
  const [birthday, setBirthday] = useState('');
  const askBirthday = !user?.birthday;
  // Purchase limits (issue 14): residency where the store's limit model needs it (ResidencyField.tsx).
  const askResidency = useNeedsResidency();
  useEffect(() => {
    if (!user) return;
    const c = checkout.getState();
    const personal = personalPrefill(c.personal, user);
    if (Object.keys(personal).length) c.setPersonal(personal);
    const shipping = shippingPrefill(c.shipping, user);
    if (Object.keys(shipping).length) c.setShipping(shipping);
  }, [user, checkout]);

  // Redeemed points go to the server cart (debounced), so the review shows the server's totals with
  // them: exactly what the order, which sends the same points, will charge (issue 11).
  const burnCredits = useCheckout((s) => s.burnCredits);
  const [creditsError, setCreditsError] = useState<string | null>(null);
  // cart/update carries the points with a line the server knows: wait for the first sync.
  const synced = useCart((s) => s.items.some((i) => i.server_item_id != null));
  useEffect(() => {
    if (!user || !synced) return;
    const timer = setTimeout(() => void cart.getState().setCredits(burnCredits).then(setCreditsError), 300);
    return () => clearTimeout(timer);
  }, [user, synced, burnCredits, cart]);

  const clearError = (field: string) => setErrors((e) => (field in e ? { ...e, [field]: undefined } : e));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const c = checkout.getState();
    const found: Errors = { ...validatePersonal(c.personal), ...validateAddress(c.shipping) };
    if (askBirthday) {
      const { items, licenseType } = cart.getState();
      found.birthday = birthdayProblem(birthday, (items.length && licenseType) || shopper.licenseType, rootStore.placeInfo.timezone, rootStore.medicalMinimumAge);
    }
    if (askResidency && !cart.getState().residency) found.residency = RESIDENCY_REQUIRED;
    if (c.shipping.method === 'delivery' && !found.zip) {
      const zipProblem = await check();
      if (zipProblem) found.zip = zipProblem;
    }
    const invalid = FIELD_ORDER.filter((f) => found[f]);
    setErrors(found);
    setSummary(invalid);
    if (invalid.length) {
      queueMicrotask(() => document.getElementById(invalid[0])?.focus());
      return;
    }
    if (view.over) {
      setFormError(view.overMessage);
      queueMicrotask(() => summaryRef.current?.focus());
      return;
    }
    setPlacing(true);
    try {
      let orderKey = checkout.getState().pendingOrder?.payload.idempotency_key ?? null;
      const result = await placeOrder({
        checkout,
        build: (key) => {
          orderKey = key;
          return buildOrder(key);
        },
        send: saveOrder,
      });
      if (result.kind === 'placed') {
        // The same order may also wait in the offline queue (queued earlier): it is placed now.
        if (orderKey) void offlineOrders?.cancel(orderKey).catch(() => false);
        cart.getState().clearAfterOrder();
        // The order earned reward points: read the balance again (quietly; the order stands either way).
        if (auth.getState().user) void auth.getState().refreshUser().catch(() => null);
        navigate(`${storePath('/checkout')}?thank-you`, { replace: true });
        return;
      }
      if (result.kind === 'unsent') {
        // Offline (issue 6): kept with its key in the offline orders BEFORE the shopper is told it is queued.
        const pendingNow = checkout.getState().pendingOrder;
        const queued = pendingNow && offlineOrders ? await offlineOrders.queueOrder(pendingNow.payload).then(() => true, () => false) : false;
        // The notice that confirms it later loads on every page from now on (offline/waiting-flag.ts).
        if (queued) markOfflineOrdersWaiting(rootStore.storeCode);
        setFormError(
          queued
            ? `${SYNC_COPY.orderQueued} It will be sent only when you confirm it once you are back online, and it can never be placed twice.`
            : 'We couldn’t reach the store to confirm your order. It is saved on this device: press Place order again to send it. It will not be placed twice.',
        );
      } else if (result.kind === 'refused' && isAgeMessage(result.message)) {
        // The server's age check (its store's minimum): said on the field, which takes the focus.
        setErrors((e) => ({ ...e, birthday: result.message }));
        setSummary(['birthday']);
        queueMicrotask(() => document.getElementById('birthday')?.focus());
        return;
      } else setFormError(result.message);
      if (result.kind === 'refused') void cart.getState().syncStock();
      queueMicrotask(() => summaryRef.current?.focus());
    } finally {
      setPlacing(false);
    }
  };

  /** The order as the server takes it (spec §7 order/save); the server prices it again itself. */
  const buildOrder = (key: string): OrderPayload => {
    const { items, token, licenseType } = cart.getState();
    const { personal, shipping, delivery } = checkout.getState();
    return {
      idempotency_key: key,
      cart_id: token,
      order_type: shipping.method,
      license_type: (items.length && licenseType) || shopper.licenseType,
      personal_details: { firstName: personal.firstName.trim(), lastName: personal.lastName.trim(), emailAddress: personal.emailAddress.trim(), phone: personal.phone.trim() },
      ...(askBirthday ? { birthday } : {}),
      ...(cart.getState().residency ? { residency: cart.getState().residency } : {}),
      shipping_address:
        shipping.method === 'delivery' && delivery
          ? { city: shipping.city.trim(), zip: delivery.zip, address: shipping.address.trim(), apt_ste: shipping.apt_ste.trim() || null }
          : null,
      ...(slot ? { slot } : {}),
      payment_method: 'cashondelivery',
      coupon: view.couponCode,
      // Always said (0 too): an order without `credits` would redeem what the server cart was last asked for.
      credits: auth.getState().user ? checkout.getState().burnCredits : 0,
      products: items.map((i) => ({ sku: i.sku, qty: i.qty, size: i.size })),
    };
  };

  const shownSummary = summary.filter((f) => errors[f]);
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-10">
      <h1 className="font-display text-4xl font-bold tracking-tight text-stone-900">Checkout</h1>
      <div ref={summaryRef} tabIndex={-1} className="focus:outline-none">
        <div role="alert">
          {shownSummary.length > 0 ? (
            <div className="mt-4 rounded-xl border border-red-200 bg-red-50 p-4 text-red-900">
              <h2 className="font-semibold">
                {shownSummary.length === 1 ? 'One field needs your attention:' : `${shownSummary.length} fields need your attention:`}
              </h2>
              <ul className="mt-1 list-disc pl-5 text-sm">
                {shownSummary.map((f) => (
                  <li key={f}>
                    <a href={`#${f}`} className="inline-flex min-h-6 items-center py-0.5 underline" onClick={(e) => (e.preventDefault(), document.getElementById(f)?.focus())}>
                      {FIELD_LABELS[f]}: {errors[f]}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {creditsError ? <p className="mt-4 rounded-xl border border-red-200 bg-red-50 p-4 font-medium text-red-900">{creditsError}</p> : null}
          {formError ? <p className="mt-4 rounded-xl border border-red-200 bg-red-50 p-4 font-medium text-red-900">{formError}</p> : null}
        </div>
      </div>
      {pending ? (
        <p role="status" className="mt-4 rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
          An order from {formatDateTime(pending.createdAt, rootStore.placeInfo.timezone)} is waiting for the store’s
          confirmation. Place order sends that same order again; it will not be placed twice.
        </p>
      ) : null}
      <form onSubmit={submit} noValidate className="mt-6 space-y-6" aria-busy={placing}>
        <PersonalFields errors={errors} onEdit={clearError}>
          {askBirthday ? <BirthdayField value={birthday} onChange={(v) => (setBirthday(v), clearError('birthday'))} error={errors.birthday} /> : null}
        </PersonalFields>
        {askResidency ? <ResidencyField error={errors.residency} onEdit={() => clearError('residency')} /> : null}
        <DeliveryFields errors={errors} onEdit={clearError} onZipChecked={(message) => setErrors((e) => ({ ...e, zip: message ?? undefined }))} />
        <SlotField orderType={orderType} value={slot} onChange={setSlot} />
        <PaymentFields couponCode={view.couponCode} />
        <LimitMeters headingLevel={2} />
        <ReviewBlock view={view} zipError={errors.zip} />
        <button
          type="submit"
          disabled={placing}
          className="flex min-h-12 w-full items-center justify-center rounded-full bg-brand px-8 text-lg font-semibold text-on-brand hover:opacity-90 disabled:opacity-60 sm:w-auto"
        >
          {placing ? 'Placing your order…' : 'Place order'}
        </button>
      </form>
    </div>
  );
}
