/**
 * Spec §7 queries for the other catalogue entities: category lists, attribute metadata, tax rules,
 * CMS pages and blocks. Each returns a SearchQuery for that entity's index.
 */
import { SEARCH_DEFAULTS } from '../constants.ts';
import { InvalidQueryError } from '../errors.ts';
import type { Filter, SearchQuery } from '../types.ts';

export interface CategoryQueryParams {
  parentId?: number;
  level?: number;
  ids?: number[];
  /** Default true: only active categories. */
  onlyActive?: boolean;
  /** Default true: only categories with products (product_count > 0). */
  onlyWithProducts?: boolean;
  size?: number;
}

/** Category lists: by parent, level or ids; active with products; position ascending; 4000. */
export function categoryQuery(params: CategoryQueryParams = {}): SearchQuery {
  const filters: Filter[] = [];
  if (params.parentId !== undefined) filters.push({ field: 'parent_id', op: 'eq', value: params.parentId });
  if (params.level !== undefined) filters.push({ field: 'level', op: 'eq', value: params.level });
  if (params.ids !== undefined) filters.push({ field: 'id', op: 'in', values: [...params.ids] });
  if (params.onlyActive ?? true) filters.push({ field: 'is_active', op: 'eq', value: true });
  if (params.onlyWithProducts ?? true) filters.push({ field: 'product_count', op: 'range', gt: 0 });
  return {
    filters,
    sort: [{ field: 'position', order: 'asc' }],
    size: params.size ?? SEARCH_DEFAULTS.categoryListSize,
  };
}

export interface AttributeQueryParams {
  attributeCodes?: string[];
  attributeIds?: number[];
  onlyUserDefined?: boolean;
  onlyVisible?: boolean;
  size?: number;
}

/** Attribute metadata by attribute_code or attribute_id (spec §7), 150 at most. Ids containing a
 *  dot are never requested (spec §5), so they are dropped here. */
export function attributeQuery(params: AttributeQueryParams): SearchQuery {
  const filters: Filter[] = [];
  if (params.attributeCodes !== undefined) {
    filters.push({ field: 'attribute_code', op: 'in', values: params.attributeCodes.filter((c) => !c.includes('.')) });
  }
  if (params.attributeIds !== undefined) filters.push({ field: 'attribute_id', op: 'in', values: [...params.attributeIds] });
  if (filters.length === 0) throw new InvalidQueryError('attribute search needs attributeCodes or attributeIds');
  if (params.onlyUserDefined) filters.push({ field: 'is_user_defined', op: 'eq', value: true });
  if (params.onlyVisible) filters.push({ field: 'is_visible', op: 'eq', value: true });
  return { filters, size: params.size ?? SEARCH_DEFAULTS.attributeListSize };
}

/** Tax rules, optionally those listing a product and/or customer tax class. */
export function taxRuleQuery(params: { productTaxClassId?: number; customerTaxClassId?: number } = {}): SearchQuery {
  const filters: Filter[] = [];
  if (params.productTaxClassId !== undefined) {
    filters.push({ field: 'product_tax_class_ids', op: 'eq', value: params.productTaxClassId });
  }
  if (params.customerTaxClassId !== undefined) {
    filters.push({ field: 'customer_tax_class_ids', op: 'eq', value: params.customerTaxClassId });
  }
  return { filters, size: SEARCH_DEFAULTS.maxFilterQuerySize };
}

/** CMS pages or blocks by identifier(s); active only unless told; block lists 150. */
export function cmsQuery(params: { identifiers?: string[]; onlyActive?: boolean; size?: number } = {}): SearchQuery {
  const filters: Filter[] = [];
  if (params.identifiers !== undefined) filters.push({ field: 'identifier', op: 'in', values: [...params.identifiers] });
  if (params.onlyActive ?? true) filters.push({ field: 'is_active', op: 'eq', value: true });
  return { filters, size: params.size ?? SEARCH_DEFAULTS.cmsBlockListSize };
}
