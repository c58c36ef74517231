/**
 * Cart configuration (spec §9 config flags and constants). The spec leaves some values open;
 * the choices are ours and stated here once.
 */
import { DEFAULT_SYNC_FLAGS, type SyncFlags } from '@verdant/domain';

/** `cart.synchronize` / `synchronize_totals`: the cart lives on the server as well. */
export const CART_SYNCHRONIZE = true;

/**
 * `queues.maxCartBypassAttempts` (value not in the spec; VSF's default is 1): after a token or
 * pull answered non-200, a new guest cart is tried this many times; then cart sync is disabled
 * for the page's life and the cart keeps working on this device.
 */
export const MAX_CART_BYPASS_ATTEMPTS = 1;

/** serverSyncCanRemoveLocalItems / serverSyncCanModifyLocalItems: both off, so the server never drops or shrinks a local line. */
export const CART_SYNC_FLAGS: SyncFlags = DEFAULT_SYNC_FLAGS;

/** `stock.allowOutOfStockInCart`: off — an out-of-stock product is not added. */
export const ALLOW_OUT_OF_STOCK_IN_CART = false;

/**
 * `minicartCountType`: what the header's cart count counts — `lines` (one per product and size)
 * or `quantities` (the sum of quantities). We count quantities: "2 × Blue Dream 3.5 g" is 2 items,
 * which is what a shopper counts in a bag.
 */
export type MinicartCountType = 'lines' | 'quantities';
export const MINICART_COUNT_TYPE: MinicartCountType = 'quantities';

/** Spec §9: a notification shows 5000 ms unless it has no timeout or its own time to live. */
export const NOTIFICATION_TTL_MS = 5000;

/** Spec §9: the shopper is "in checkout" while the last checkout change is at most 30 minutes old. */
export const CHECKOUT_WINDOW_MS = 1_800_000;

/** Order saves are retried this many times on no answer, with the same idempotency key. */
export const ORDER_SEND_ATTEMPTS = 3;
export const ORDER_RETRY_DELAY_MS = 1000;

