/**
 * Category pages, the search panel and the products API (spec §7 catalogue search): the query of
 * @verdant/search over the store's in-memory product index, with the store's own rules added —
 * the category and its descendants minus the compliance-hidden ones, the out-of-stock listing
 * setting, and prices judged at `now` — then cards, facets with labels and the metadata of the
 * attributes the filter panel uses.
 */
import {
  FILTER_KEYS,
  ROOT_CATEGORY_ID,
  toProductCard,
  type CatalogAttribute,
  type ProductSearchParams,
  type Store,
} from '@verdant/domain';
import { productSearchQuery } from '@verdant/search';
import type { ProductListResult } from '@verdant/web/context';
import { facetsFrom } from './facets.ts';
import type { StoreCatalog } from './store-catalog.ts';
import { hiddenCategoryIds, listingCategoryIds } from './visibility.ts';

/** The attributes behind the filter panel (spec §9 default filters), in panel order. */
export function filterAttributes(catalog: StoreCatalog): CatalogAttribute[] {
  const result = catalog.attributes.search({
    filters: [{ field: 'attribute_code', op: 'in', values: [...FILTER_KEYS] }],
    size: FILTER_KEYS.length,
  });
  return FILTER_KEYS.flatMap((code) => result.items.filter((a) => a.attribute_code === code));
}

/**
 * The categories a listing searches: the asked one and its descendants, minus hidden and
 * inactive ones. Undefined (no category filter) for an all-products search in a store that hides
 * nothing, so a product without a category still turns up in text search.
 */
function categoryScope(catalog: StoreCatalog, store: Store, categoryId: number | undefined): number[] | undefined {
  if (categoryId === undefined && hiddenCategoryIds(store, catalog.allCategories()).size === 0) return undefined;
  return listingCategoryIds(store, catalog.allCategories(), categoryId ?? ROOT_CATEGORY_ID);
}

/** Throws SearchTermTooShortError / InvalidQueryError for bad input (the API answers 400). */
export function searchProducts(
  catalog: StoreCatalog,
  store: Store,
  params: ProductSearchParams,
  now: Date,
): ProductListResult {
  const query = productSearchQuery({
    ...params,
    storeId: store.storeId,
    categoryIds: categoryScope(catalog, store, params.categoryId),
    includeOutOfStock: store.catalog.listOutOfStockProducts,
  });
  const result = catalog.products.search(query, { now });
  const attributes = filterAttributes(catalog);
  return {
    items: result.items.map((p) => toProductCard(p, now, store.tax.userGroupId)),
    total: result.total,
    start: result.start,
    perPage: result.perPage,
    facets: facetsFrom(result.aggregations, attributes, params.filters),
    attributeMetadata: attributes,
    suggestions: result.suggestions,
  };
}
