/**
 * Cart, checkout and order copy of the spec (§4, §5, §8), word for word: the server answers with
 * it and the browser shows it before the server is asked, so each lives here once.
 */
export const CART_COPY = {
  productAdded: 'Product has been added to the cart!',
  quantityUpdated: 'Product quantity has been updated!',
  licenseMix: 'Medical and Recreational orders cannot be combined.',
  itemInStock: 'In stock!',
  itemOutOfStock: 'Out of stock!',
  incorrectCoupon: "You've entered an incorrect coupon code. Please try again.",
  emptyCartCheckout: 'Shopping cart is empty, so checkout cannot be entered.',
  productsNotAvailable: 'Some of the ordered products are not available!',
  pointsDecimals: 'Points to redeem cannot contain decimals',
  qtyPositiveInteger: 'Quantity must be positive integer',
  onlyAvailable: (maxQuantity: number) => `Only ${maxQuantity} products of this type are available.`,
  configureOptions: 'Please configure product bundle options and custom options.',
} as const;
