/**
 * Cart and checkout copy of the spec (§4, §5, §8), word for word where the spec gives it. The
 * cart notices that product pages show before adding are in @verdant/domain (CATALOG_MESSAGES);
 * these are the rest. The server words its own refusals (apps/server/src/cart/messages.ts) and
 * the browser shows them as they come; the two it must also know ahead of the server (licence
 * mixing, checked before adding) are repeated here with the same words.
 *
 * Missing in packages/domain: this file, and the checkout field rules of ./checkout-validation.ts,
 * belong there once (shared with apps/server/src/cart/messages.ts and orders/schema.ts).
 */
export const CART_MESSAGES = {
  productAdded: 'Product has been added to the cart!',
  quantityUpdated: 'Product quantity has been updated!',
  licenseMix: 'Medical and Recreational orders cannot be combined.',
  inStock: 'In stock!',
  outOfStock: 'Out of stock!',
  incorrectCoupon: "You've entered an incorrect coupon code. Please try again.",
  emptyCartCheckout: 'Shopping cart is empty, so checkout cannot be entered.',
  productsNotAvailable: 'Some of the ordered products are not available!',
  pointsDecimals: 'Points to redeem cannot contain decimals',
  /** Ours: the microcart's line when cart sync is disabled or the store cannot be reached. */
  syncDisabled: 'We couldn’t reach the store, so this cart is kept on this device only. Prices and taxes are estimates until the store answers.',
  unreachable: 'We couldn’t reach the store just now. Your cart is saved on this device and will be sent when the connection is back.',
  couponNeedsSync: 'Coupons can be applied once the store can be reached.',
} as const;

/** Notice actions (spec §8: each notice has OK; success notices also Proceed to checkout). */
export const NOTICE_ACTIONS = { ok: 'OK', checkout: 'Proceed to checkout' } as const;
