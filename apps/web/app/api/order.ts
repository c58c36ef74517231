/**
 * `POST /api/order/save` (spec §7 Orders). The idempotency key travels in the body and in the
 * `Idempotency-Key` header; the server answers a repeat of a placed order with the first order,
 * so sending the same payload again after a lost answer can never place a second order.
 */
import type { LicenseType } from '@verdant/domain';
import type { TotalsTaxLine, WithUserToken } from './cart.ts';
import { callApi } from './envelope.ts';

export interface OrderPayload {
  idempotency_key: string;
  cart_id: string | null;
  order_type: 'pickup' | 'delivery';
  license_type: LicenseType;
  personal_details: { firstName: string; lastName: string; emailAddress: string; phone: string };
  /** Age on every order (issue 14): a guest's date of birth (YYYY-MM-DD); a customer's comes from the account. */
  birthday?: string | null;
  shipping_address?: { city: string; zip: string; address: string; apt_ste?: string | null } | null;
  payment_method: 'cashondelivery';
  /** Time slot (issue 14): the start of a slot from GET /api/order/slots; absent: as soon as possible. */
  slot?: string | null;
  /** Purchase-limit buckets (issue 14): the shopper's residency where the store's model needs it. */
  residency?: 'resident' | 'non_resident' | null;
  coupon?: string | null;
  credits?: number;
  products: { sku: string; qty: number; size?: number | null }[];
}

/** What the server answers for a placed order (apps/server/src/orders/place.ts), cents. */
export interface PlacedOrder {
  order_id: number;
  increment_id: string;
  status: string;
  /** The documents the order waits for (issue 26): a held order's thank-you page says so at once. */
  hold?: ('id' | 'medcard')[];
  created_at: string;
  order_type: 'pickup' | 'delivery';
  subtotal: number;
  discount: number;
  excise_taxes: number;
  sales_taxes: number;
  /** Each of the store's named tax lines charged on the order (issue 14); absent from answers stored before it existed. */
  tax_lines?: TotalsTaxLine[];
  shipping: number;
  total: number;
  /** Reward points redeemed (cents), part of `discount`. Absent from answers stored before it existed. */
  credits_used?: number;
  items: { sku: string; name: string; qty: number; size: number | null; price?: number; row_total?: number; row_total_incl_tax: number }[];
  /** The delivery address as the server stored it (delivery orders). */
  shipping_address?: { address: string; apt_ste?: string | null; city: string; zip: string } | null;
  /** Where a pickup order is collected, with the store's hours (pickup orders). */
  pickup?: PickupPlace | null;
  /** The booked time slot (issue 14), label in the store zone; null: as soon as possible. Absent from older answers. */
  slot?: { start: string; end: string; label: string } | null;
}

export interface PickupPlace {
  name: string;
  street: string;
  city: string;
  region_code: string;
  postcode: string;
  phone: string;
  hours: { days: string; hours: string }[];
}

export type SaveOrder = (payload: OrderPayload) => Promise<PlacedOrder>;

/** Placing an order can take longer than a cart call (one transaction over stock, coupon, points). */
const ORDER_TIMEOUT_MS = 15_000;

/** Sends the order with the customer's token when logged in (the order then shows in their history). */
export function createSaveOrder(withUser: WithUserToken = (call) => call(null)): SaveOrder {
  return (payload) =>
    withUser((userToken) =>
      callApi<PlacedOrder>('/api/order/save', {
        method: 'POST',
        body: payload,
        headers: { 'idempotency-key': payload.idempotency_key, ...(userToken ? { authorization: `Bearer ${userToken}` } : {}) },
        timeoutMs: ORDER_TIMEOUT_MS,
      }),
    );
}

export const saveOrder: SaveOrder = createSaveOrder();
