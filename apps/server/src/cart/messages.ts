/**
 * What the cart, stock and order endpoints answer, word for word where the spec gives the copy
 * (§5, §8). Clients show `result` as is, so one wording per situation.
 */
import { CART_COPY, CATALOG_MESSAGES } from '@verdant/domain';

export const CART_MESSAGES = {
  cartNotFound: 'Cart not found',
  cartIdRequired: 'cartId is required',
  quoteMismatch: 'quoteId does not match the cart',
  qtyPositiveInteger: CART_COPY.qtyPositiveInteger,
  qtyTooLarge: (max: number) => `Quantity must be below ${max}`,
  productNotFound: (sku: string) => `Product "${sku}" does not exist in this store.`,
  productUnavailable: 'The product is not available and cannot be added to the cart!',
  outOfStock: CATALOG_MESSAGES.outOfStock,
  onlyAvailable: CART_COPY.onlyAvailable,
  priceUnknown: CATALOG_MESSAGES.priceUnknown,
  noSuchConfiguration: CATALOG_MESSAGES.noSuchConfiguration,
  configureOptions: CART_COPY.configureOptions,
  licenseMix: CART_COPY.licenseMix,
  licenseNotOffered: (licenseType: string) => `This store does not offer ${licenseType} orders.`,
  incorrectCoupon: CART_COPY.incorrectCoupon,
  pointsDecimals: CART_COPY.pointsDecimals,
  pointsNegative: 'Points to redeem cannot be negative',
  notEnoughPoints: (balance: number) =>
    balance > 0
      ? `You cannot redeem more than your ${balance} reward points.`
      : 'You have no reward points to redeem.',
  tooManyLines: 'A cart can hold at most 100 different products.',
  itemIdentifierRequired: 'cartItem needs an item_id or a sku',
  productsNotAvailable: CART_COPY.productsNotAvailable,
  emptyCart: 'Shopping cart is empty, so the order cannot be placed.',
  deliveryAddressRequired: 'A delivery order needs a shipping address.',
  deliveryNotOffered: 'This store does not deliver.',
  idempotencyKeyRequired: 'idempotency_key (a UUID) is required',
  idempotencyKeyConflict: 'idempotency_key and the Idempotency-Key header differ',
  idempotencyKeyReused: 'This idempotency_key was already used for a different order.',
} as const;

/** Lines one cart may hold: every change re-reads them all, so the bound keeps changes cheap. */
export const MAX_CART_LINES = 100;

/** Upper bound of one line's quantity: a typo guard far above any purchase limit. */
export const MAX_LINE_QTY = 1000;
