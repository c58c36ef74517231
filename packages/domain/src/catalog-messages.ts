/**
 * Catalogue copy of the spec (§4, §8), word for word. Kept apart from messages.ts so that the
 * catalogue rules (variants, stock, category loading) own their strings beside their code.
 */
export const CATALOG_MESSAGES = {
  /** Variant choice found no child for the chosen attributes (spec §4). */
  noSuchConfiguration: 'No such configuration for the product. Please do choose another combination of attributes.',
  /** Product errors: the product's stock says not in stock, or no child is available (spec §4, §8). */
  noAvailableVariants: 'No available product variants',
  /** Category product search failed or came back empty (spec §8). */
  noProductsSynchronized: 'No products synchronized for this category. Please come back while online!',
  /** Cart notices of spec §8 that product pages show before adding. */
  outOfStock: 'The product is out of stock and cannot be added to the cart!',
  unsafeQuantity: 'The system is not sure about the stock quantity (volatile). Product has been added to the cart for pre-reservation.',
  priceUnknown: 'Product price is unknown, product cannot be added to the cart!',
} as const;
