/**
 * The product query of category pages, the search panel and the offline cache (spec §7, §9): the
 * store's always-applied filters, then the shopper's filter panel, sort, paging and facets. URL
 * values are checked here, so a hand-edited `?brand_id=abc` is a 400 with a reason, not a 500.
 */
import {
  type ActiveFilters,
  FILTER_KEYS,
  type FilterKey,
  PRICE_RANGES,
  type ProductSearchParams,
  SORT_OPTIONS,
  aggregationSize,
  isFilterKey,
  isLicenseType,
  isPotencyKey,
  isPotencyRangeKey,
  isRatingFloor,
  isSortKey,
} from '@verdant/domain';
import { ENABLED_STATUSES, VISIBLE_IN_CATALOG } from '../constants.ts';
import { InvalidQueryError } from '../errors.ts';
import type { AggregationSpec, Filter, RangeBounds, SearchQuery } from '../types.ts';
import { PRODUCT_FIELDS } from './schemas.ts';

export interface ProductQueryParams extends ProductSearchParams {
  storeId: number;
  /** The category and all its descendants (the caller walks the tree); default [categoryId]. */
  categoryIds?: number[];
  /** List out-of-stock products too (the store's out-of-stock listing setting). */
  includeOutOfStock?: boolean;
}

/** Where each filter-panel key looks in the product index. */
export const PRODUCT_FILTER_FIELDS: Readonly<Record<FilterKey, string>> = Object.freeze({
  size: PRODUCT_FIELDS.sizes,
  sale: PRODUCT_FIELDS.sale,
  staff_pick: 'staff_pick',
  best_seller: 'best_seller',
  price: PRODUCT_FIELDS.finalPrice,
  thc: PRODUCT_FIELDS.thcRange,
  cbd: PRODUCT_FIELDS.cbdRange,
  thc_mg: PRODUCT_FIELDS.thcMgRange,
  cbd_mg: PRODUCT_FIELDS.cbdMgRange,
  rating: PRODUCT_FIELDS.ratingFloors,
  license_type: 'license_type',
  brand_id: 'brand_id',
  discount_group_id: 'discount_group_id',
});

const LICENSE_VALUES = ['recreational', 'medical', 'both'];
const INTEGER = /^\d+$/;
const FLAG_TRUE = ['1', 'true'];

function checkInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new InvalidQueryError(`${name} must be an integer`);
  return value;
}

/** Spec §7: the filters every product list applies, whatever the shopper picked. */
export function productScopeFilters(params: Pick<ProductQueryParams, 'storeId' | 'licenseType' | 'categoryId' | 'categoryIds' | 'includeOutOfStock'>): Filter[] {
  const filters: Filter[] = [
    { field: 'dispensaryID', op: 'eq', value: checkInteger('storeId', params.storeId) },
    { field: 'visibility', op: 'in', values: [...VISIBLE_IN_CATALOG] },
    { field: 'status', op: 'in', values: [...ENABLED_STATUSES] },
  ];
  if (params.licenseType !== undefined) {
    if (!isLicenseType(params.licenseType)) throw new InvalidQueryError(`licenseType must be recreational or medical`);
    filters.push({ field: 'license_type', op: 'in', values: [params.licenseType, 'both'] });
  }
  if (!params.includeOutOfStock) filters.push({ field: 'stock.is_in_stock', op: 'eq', value: true });
  const categoryIds = params.categoryIds ?? (params.categoryId !== undefined ? [params.categoryId] : undefined);
  if (categoryIds !== undefined) {
    if (!Array.isArray(categoryIds)) throw new InvalidQueryError('categoryIds must be an array');
    filters.push({ field: 'category_ids', op: 'in', values: categoryIds.map((id) => checkInteger('categoryIds[]', id)) });
  }
  return filters;
}

function priceBounds(key: string): RangeBounds {
  const range = PRICE_RANGES.find((r) => r.key === key);
  if (!range) throw new InvalidQueryError(`price: unknown range "${key}" (expected one of ${PRICE_RANGES.map((r) => r.key).join(', ')})`);
  return range.to === null ? { gte: range.from } : { gte: range.from, lt: range.to };
}

/** One filter-panel key and its URL values as a filter; undefined when no value is selected. */
export function productPanelFilter(key: string, raw: unknown): Filter | undefined {
  if (!isFilterKey(key)) throw new InvalidQueryError(`unknown filter "${key}" (expected one of ${FILTER_KEYS.join(', ')})`);
  const values = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
    throw new InvalidQueryError(`${key}: values must be strings`);
  }
  if (values.length === 0) return undefined;
  const field = PRODUCT_FILTER_FIELDS[key];
  switch (key) {
    case 'size':
    case 'brand_id':
    case 'discount_group_id':
      for (const v of values) if (!INTEGER.test(v)) throw new InvalidQueryError(`${key}: "${v}" is not a numeric id`);
      return { field, op: 'in', values: [...new Set(values.map(Number))] };
    case 'sale':
    case 'staff_pick':
    case 'best_seller':
      for (const v of values) if (!FLAG_TRUE.includes(v)) throw new InvalidQueryError(`${key}: only "1" is allowed, got "${v}"`);
      return { field, op: 'eq', value: true };
    case 'license_type':
      for (const v of values) if (!LICENSE_VALUES.includes(v)) throw new InvalidQueryError(`license_type: unknown value "${v}"`);
      return { field, op: 'in', values: [...new Set(values)] };
    case 'price':
      // Several buckets are ORed on the one field, so the disjunctive price facet can skip them.
      return { field, op: 'range', anyOf: [...new Set(values)].map(priceBounds) };
    case 'rating':
      for (const v of values) if (!isRatingFloor(v)) throw new InvalidQueryError(`rating: unknown value "${v}" (expected 4 or 3)`);
      return { field, op: 'in', values: [...new Set(values)] };
    default:
      // Potency: the product's range key (schemas.ts) is one of the chosen ranges.
      if (!isPotencyKey(key)) throw new InvalidQueryError(`unknown filter "${key}"`);
      for (const v of values) if (!isPotencyRangeKey(key, v)) throw new InvalidQueryError(`${key}: unknown range "${v}"`);
      return { field, op: 'in', values: [...new Set(values)] };
  }
}

/** The filter panel's facets (spec §9): counts for every default filter. Disjunctive, so a
 *  selected brand still shows how many products the other brands would add — except licence
 *  type, whose field is also scoped by the shopper's licence and which the panel narrows to one
 *  value anyway (spec §5); dropping its filters would count products the shopper may not buy. */
export function productAggregations(): AggregationSpec[] {
  return FILTER_KEYS.map((key): AggregationSpec => {
    const field = PRODUCT_FILTER_FIELDS[key];
    if (key === 'price') {
      const ranges = PRICE_RANGES.map((r) => (r.to === null ? { key: r.key, from: r.from } : { key: r.key, from: r.from, to: r.to }));
      return { name: key, type: 'range', field, ranges, disjunctive: true };
    }
    return { name: key, type: 'terms', field, size: aggregationSize(key), disjunctive: key !== 'license_type' };
  });
}

export function productSearchQuery(params: ProductQueryParams): SearchQuery {
  const filters = productScopeFilters(params);
  const active: ActiveFilters = params.filters ?? {};
  if (typeof active !== 'object' || active === null || Array.isArray(active)) throw new InvalidQueryError('filters must be an object');
  for (const [key, values] of Object.entries(active)) {
    const filter = productPanelFilter(key, values);
    if (filter) filters.push(filter);
  }
  if (params.text !== undefined && typeof params.text !== 'string') throw new InvalidQueryError('text must be a string');
  // An empty search box is no search; 1–2 characters reach the engine, which refuses them.
  const text = params.text?.trim() ? params.text : undefined;
  if (params.sort !== undefined && !isSortKey(params.sort)) {
    throw new InvalidQueryError(`sort: unknown option "${String(params.sort)}" (expected one of ${SORT_OPTIONS.map((o) => o.key).join(', ')})`);
  }
  // No sort chosen: relevance when searching, else the default option (Latest).
  const option = params.sort !== undefined ? SORT_OPTIONS.find((o) => o.key === params.sort) : text ? undefined : SORT_OPTIONS[0];
  const query: SearchQuery = { filters, aggregations: productAggregations() };
  if (text !== undefined) query.text = text;
  if (option) query.sort = option.fields.map((f) => ({ field: f.field, order: f.order }));
  if (params.start !== undefined) query.start = params.start;
  if (params.size !== undefined) query.size = params.size;
  return query;
}

/** Spec §7 product lookups: by the product's or a configurable child's sku, in one store. */
export function productBySkuQuery(storeId: number, skus: readonly string[]): SearchQuery {
  return {
    filters: [
      { field: 'dispensaryID', op: 'eq', value: checkInteger('storeId', storeId) },
      { field: PRODUCT_FIELDS.skus, op: 'in', values: [...skus] },
    ],
    size: Math.max(1, skus.length),
  };
}

/** Spec §7 product lookup by url_path (URL mapping). */
export function productByUrlPathQuery(storeId: number, urlPath: string): SearchQuery {
  return {
    filters: [
      { field: 'dispensaryID', op: 'eq', value: checkInteger('storeId', storeId) },
      { field: 'url_path', op: 'eq', value: urlPath },
    ],
    size: 1,
  };
}
