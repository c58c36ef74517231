/**
 * Checkout state (spec §3 Personal details, Shipping details, Checkout state: order, burnCredits,
 * modifiedAt, isThankYouPage): persisted per store and mirrored across tabs like the cart, so a
 * reload keeps what the shopper typed, an order waiting to be sent, and the thank-you page.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { OrderPayload, PlacedOrder } from '../api/order.ts';
import { CHECKOUT_WINDOW_MS } from '../lib/cart-config.ts';
import { createMirror, stateKey, type ListChannel, type ListStorage } from './persisted.ts';

export interface PersonalDetails {
  firstName: string;
  lastName: string;
  emailAddress: string;
  phone: string;
  /** Spec §3: dropped once the order is placed (accounts are not there yet). */
  createAccount: boolean;
}

export type OrderType = 'pickup' | 'delivery';

export interface ShippingDetails {
  method: OrderType;
  address: string;
  apt_ste: string;
  city: string;
  zip: string;
}

/** The server's answer about a delivery address (shipping-information), for the ZIP it was asked for. */
export interface DeliveryCheck {
  zip: string;
  distance: number | null;
  too_far: boolean;
  /** The address's delivery zone (issue 14), as the server answered; not kept across visits. */
  zone?: { name: string; eta: string; fee_incl_tax: number; free: boolean } | null;
}

/** An order created but not yet confirmed by the server: persisted before it is sent. */
export interface PendingOrder {
  payload: OrderPayload;
  createdAt: number;
}

export interface CheckoutData {
  rev: number;
  personal: PersonalDetails;
  shipping: ShippingDetails;
  delivery: DeliveryCheck | null;
  /** Reward points to redeem (guests have none until accounts land). */
  burnCredits: number;
  /** Spec §4 Checkout: last change to the checkout, for the 30-minute "in checkout" window. */
  modifiedAt: number | null;
  pendingOrder: PendingOrder | null;
  /** The last order the server confirmed (the thank-you page shows its number). */
  order: PlacedOrder | null;
}

export interface CheckoutState extends CheckoutData {
  loaded: boolean;
  load(): Promise<void>;
  setPersonal(patch: Partial<PersonalDetails>): void;
  setShipping(patch: Partial<ShippingDetails>): void;
  setDelivery(check: DeliveryCheck | null): void;
  /** Store the pending order; resolves once it is written (it must be, before it is sent). */
  setPendingOrder(pending: PendingOrder | null): Promise<void>;
  orderPlaced(order: PlacedOrder): Promise<void>;
  /** Reward points to redeem (whole points; the server checks the balance again). */
  setBurnCredits(points: number): void;
  isInCheckout(now?: number): boolean;
}

export const EMPTY_CHECKOUT: CheckoutData = {
  rev: 0,
  personal: { firstName: '', lastName: '', emailAddress: '', phone: '', createAccount: false },
  shipping: { method: 'pickup', address: '', apt_ste: '', city: '', zip: '' },
  delivery: null,
  burnCredits: 0,
  modifiedAt: null,
  pendingOrder: null,
  order: null,
};

const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 300) : '');

export function sanitizeCheckout(value: unknown): CheckoutData | null {
  if (!value || typeof value !== 'object') return null;
  const r = value as Partial<Record<keyof CheckoutData, unknown>>;
  const p = (r.personal ?? {}) as Record<string, unknown>;
  const s = (r.shipping ?? {}) as Record<string, unknown>;
  const d = r.delivery as DeliveryCheck | null;
  const pending = r.pendingOrder as PendingOrder | null;
  const order = r.order as PlacedOrder | null;
  return {
    rev: typeof r.rev === 'number' ? r.rev : 0,
    personal: { firstName: text(p.firstName), lastName: text(p.lastName), emailAddress: text(p.emailAddress), phone: text(p.phone), createAccount: p.createAccount === true },
    shipping: { method: s.method === 'delivery' ? 'delivery' : 'pickup', address: text(s.address), apt_ste: text(s.apt_ste), city: text(s.city), zip: text(s.zip) },
    delivery: d && typeof d.zip === 'string' && typeof d.too_far === 'boolean' ? { zip: d.zip, distance: typeof d.distance === 'number' ? d.distance : null, too_far: d.too_far } : null,
    burnCredits: typeof r.burnCredits === 'number' && Number.isInteger(r.burnCredits) && r.burnCredits >= 0 ? r.burnCredits : 0,
    modifiedAt: typeof r.modifiedAt === 'number' ? r.modifiedAt : null,
    pendingOrder: pending && typeof pending.payload?.idempotency_key === 'string' ? pending : null,
    order: order && typeof order.increment_id === 'string' ? order : null,
  };
}

export interface CheckoutStoreOptions {
  storeCode: string;
  storage: ListStorage | null;
  channel: ListChannel | null;
  now?(): number;
}

export function createCheckoutStore({ storeCode, storage, channel, now = () => Date.now() }: CheckoutStoreOptions): StoreApi<CheckoutState> {
  const mirror = createMirror<CheckoutData>({ key: stateKey(storeCode, 'checkout'), storage, channel, sanitize: sanitizeCheckout });
  let loading: Promise<void> | null = null;
  const store = createStore<CheckoutState>()((set, get) => {
    const save = (patch: Partial<CheckoutData>) => {
      set({ ...patch, rev: get().rev + 1 });
      const c = get();
      return mirror.write({
        rev: c.rev, personal: c.personal, shipping: c.shipping, delivery: c.delivery, burnCredits: c.burnCredits,
        modifiedAt: c.modifiedAt, pendingOrder: c.pendingOrder, order: c.order,
      });
    };
    return {
      ...EMPTY_CHECKOUT,
      loaded: false,
      load: () => {
        loading ??= mirror.read().then((stored) => set({ ...(stored ?? {}), loaded: true }));
        return loading;
      },
      setPersonal: (patch) => void save({ personal: { ...get().personal, ...patch }, modifiedAt: now() }),
      setShipping: (patch) => {
        const shipping = { ...get().shipping, ...patch };
        // A changed ZIP needs a new answer from the server about delivery.
        const delivery = get().delivery && get().delivery!.zip === shipping.zip.trim() ? get().delivery : null;
        void save({ shipping, delivery, modifiedAt: now() });
      },
      setDelivery: (delivery) => void save({ delivery, modifiedAt: now() }),
      setPendingOrder: (pendingOrder) => save({ pendingOrder, modifiedAt: now() }),
      setBurnCredits: (points) => void save({ burnCredits: Number.isInteger(points) && points >= 0 ? points : 0 }),
      orderPlaced: (order) =>
        save({ order, pendingOrder: null, modifiedAt: null, personal: { ...get().personal, createAccount: false }, burnCredits: 0 }),
      isInCheckout: (at = now()) => {
        const m = get().modifiedAt;
        return m != null && at - m <= CHECKOUT_WINDOW_MS;
      },
    };
  });
  mirror.subscribe((data) => {
    if (data.rev > store.getState().rev) store.setState(data);
  });
  return store;
}
