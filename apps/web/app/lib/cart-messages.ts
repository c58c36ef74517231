import { CART_COPY } from '@verdant/domain';

/**
 * What the cart and checkout say: the spec's copy (CART_COPY, shared with the server, which
 * words its own refusals and the browser shows them as they come) plus our own lines.
 */
export const CART_MESSAGES = {
  productAdded: CART_COPY.productAdded,
  quantityUpdated: CART_COPY.quantityUpdated,
  licenseMix: CART_COPY.licenseMix,
  inStock: CART_COPY.itemInStock,
  outOfStock: CART_COPY.itemOutOfStock,
  incorrectCoupon: CART_COPY.incorrectCoupon,
  emptyCartCheckout: CART_COPY.emptyCartCheckout,
  productsNotAvailable: CART_COPY.productsNotAvailable,
  pointsDecimals: CART_COPY.pointsDecimals,
  /** Ours: the microcart's line when cart sync is disabled or the store cannot be reached. */
  syncDisabled: 'We couldn’t reach the store, so this cart is kept on this device only. Prices and taxes are estimates until the store answers.',
  unreachable: 'We couldn’t reach the store just now. Your cart is saved on this device and will be sent when the connection is back.',
  couponNeedsSync: 'Coupons can be applied once the store can be reached.',
  /** Issue 30: buying an order again asks the store for today's prices and stock, so it needs a connection. */
  buyAgainOffline: 'Buy again needs a connection: it asks the store for today’s prices and stock. Your cart is unchanged; try again when you are back online.',
  buyAgainNothing: 'Nothing from this order could be added to your cart.',
} as const;

/** Notice actions (spec §8: each notice has OK; success notices also Proceed to checkout). */
export const NOTICE_ACTIONS = { ok: 'OK', checkout: 'Proceed to checkout' } as const;
