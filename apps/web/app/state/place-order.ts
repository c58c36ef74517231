/**
 * Placing an order (spec §4 Place order) without ever placing it twice. The idempotency key is
 * made when the order is created and the pending order is written to IndexedDB BEFORE it is sent;
 * when no answer comes (offline, timeout, a server fault), the very same payload and key are sent
 * again, now or after a reload. The server answers a repeat with the first order, so a lost
 * answer costs nothing. The thank-you page shows only the number the server gave.
 */
import type { StoreApi } from 'zustand/vanilla';
import { ApiError, NetworkError } from '../api/envelope.ts';
import type { OrderPayload, PlacedOrder, SaveOrder } from '../api/order.ts';
import { ORDER_RETRY_DELAY_MS, ORDER_SEND_ATTEMPTS } from '../lib/cart-config.ts';
import { CART_MESSAGES } from '../lib/cart-messages.ts';
import type { CheckoutState } from './checkout-store.ts';

export type PlaceOrderResult =
  | { kind: 'placed'; order: PlacedOrder }
  /** The store refused it (stock, limit, address…): nothing was placed; the cart stays. */
  | { kind: 'refused'; message: string }
  /** No answer after every attempt: the order is kept and sent again with the same key. */
  | { kind: 'unsent' };

/** A v4 UUID: crypto.randomUUID where the page is a secure context, else from getRandomValues. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** No answer, or an answer that says "not decided yet": the same request may be sent again. */
function isRetryable(e: unknown): boolean {
  if (e instanceof NetworkError) return true;
  if (!(e instanceof ApiError)) return false;
  if (e.status >= 500 || e.status === 0) return true;
  // 409 is both "still being placed" (retry) and "not available" (a refusal).
  return e.status === 409 && e.message !== CART_MESSAGES.productsNotAvailable;
}

export interface PlaceOrderOptions {
  checkout: StoreApi<CheckoutState>;
  /** Builds the order for a new key; not called when an order is already pending. */
  build(idempotencyKey: string): OrderPayload;
  send: SaveOrder;
  sleep?(ms: number): Promise<void>;
  attempts?: number;
  now?(): number;
}

export async function placeOrder({ checkout, build, send, sleep = (ms) => new Promise((r) => setTimeout(r, ms)), attempts = ORDER_SEND_ATTEMPTS, now = () => Date.now() }: PlaceOrderOptions): Promise<PlaceOrderResult> {
  let pending = checkout.getState().pendingOrder;
  if (!pending) {
    pending = { payload: build(newIdempotencyKey()), createdAt: now() };
    await checkout.getState().setPendingOrder(pending);
  }
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const order = await send(pending.payload);
      await checkout.getState().orderPlaced(order);
      return { kind: 'placed', order };
    } catch (e) {
      if (isRetryable(e)) {
        if (attempt < attempts) await sleep(ORDER_RETRY_DELAY_MS * attempt);
        continue;
      }
      // Refused: this order will never be placed; the next attempt is a new order with a new key.
      await checkout.getState().setPendingOrder(null);
      return { kind: 'refused', message: e instanceof ApiError ? e.message : String(e) };
    }
  }
  return { kind: 'unsent' };
}
