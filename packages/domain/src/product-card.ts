/**
 * A catalogue document as a product tile (ProductCard, catalog.ts): the same card whether the
 * server renders it, the API returns it or the browser builds it from its offline copy.
 */
import type { ProductCard } from './catalog.ts';
import { isSpecialPriceActive } from './catalog.ts';
import type { CatalogProduct } from './product.ts';
import { cheapestAvailableChild, productPrice } from './pricing.ts';
import { infusedPotency } from './product-facts.ts';
import { isSizeId, sizeLongLabel } from './sizes.ts';
import { availableChildren } from './variants.ts';

/**
 * Prices come from productPrice (configurables: cheapest available child, `price_from` when the
 * available children differ in final price). `sale` is an active special on the product itself,
 * on any available child, or on a kit member that priced it. `no_selection` is no image (spec §5).
 */
export function toProductCard(product: CatalogProduct, now: Date, customerGroupId = 0): ProductCard {
  const priced = productPrice(product, now, customerGroupId);
  const sale =
    priced.sale ||
    isSpecialPriceActive(product, now) ||
    (product.type_id === 'configurable' && availableChildren(product).some((c) => isSpecialPriceActive(c, now)));
  return {
    id: product.id,
    sku: product.sku,
    type_id: product.type_id,
    name: product.name,
    slug: product.slug,
    url_path: product.url_path,
    brand: product.brand,
    image: product.image && product.image !== 'no_selection' ? product.image : null,
    strain_type: product.strain_type,
    thc_percent: product.thc_percent,
    cbd_percent: product.cbd_percent,
    potency: infusedPotency(product),
    license_type: product.license_type,
    price: priced.price,
    final_price: priced.final_price,
    price_from: priced.from,
    price_size: priceSize(product, now, customerGroupId),
    sale,
    new: product.new,
    staff_pick: product.staff_pick,
    best_seller: product.best_seller,
    updated_at: product.updated_at,
    // Part of the card (and so of its fragment-cache key): a new rating is a new card.
    ...(product.rating ? { rating: { average: product.rating.average, count: product.rating.count } } : {}),
  };
}

/** The size id the card's price is for: a configurable's cheapest available child's, a simple product's own (issue 30). */
function priceSize(product: CatalogProduct, now: Date, group: number): number | null {
  if (product.type_id === 'configurable') {
    const size = cheapestAvailableChild(product, now, group)?.child.size;
    return isSizeId(size) ? size : null;
  }
  if (product.type_id === 'grouped' || product.type_id === 'bundle') return null;
  return isSizeId(product.size) ? product.size : null;
}

/**
 * The weight of a sized item for display: `3.5 g (1/8 oz)`, `1 g`. Null when it has no known
 * size id: unit_weight_grams_equivelent is a THC-equivalent for purchase limits, not a package
 * weight, so it is never shown as one.
 */
export function productWeightLabel(item: { size: number | string | null | undefined }): string | null {
  const id = typeof item.size === 'string' ? Number(item.size) : item.size;
  return isSizeId(id) ? sizeLongLabel(id) : null;
}
