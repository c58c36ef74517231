/**
 * The state of a category or search-results page as it lives in the URL query (spec §5):
 * `?size=92&price=0-50&sort=price_asc&q=blue&page=2`. Filters and sort are read and written by
 * the domain rules (`filtersFromSearchParams`, `filtersToSearchParams`, `toggleFilter`,
 * `toggleSort`); this module adds what only pages have: the search text `q` and `page`, the
 * number of pages of products shown (the "Load more" count, so a shared or restored URL shows
 * as many products as the shopper had loaded).
 */
import { apiStoreCodeParam } from '../api/store-scope.ts';
import {
  filtersFromSearchParams,
  filtersToSearchParams,
  isFilterKey,
  PAGE_SIZE,
  toggleFilter,
  toggleSort,
  type ActiveFilters,
  type FilterKey,
  type LicenseType,
  type ProductSearchParams,
  type SortKey,
} from '@verdant/domain';

/** At most this many pages render at once (`?page=` is capped): 10 × 50 = 500 products. */
export const MAX_PAGES = 10;
/** Search text shorter than this is refused (spec §5, §9). */
export const MIN_SEARCH_LENGTH = 3;

export interface CatalogQuery {
  filters: ActiveFilters;
  sort?: SortKey;
  /** Trimmed search text ('' when none). */
  text: string;
  /** Pages shown, 1-based. */
  page: number;
}

export interface ParsedCatalogQuery extends CatalogQuery {
  /** True when the URL carried values that were ignored (the page then redirects to the clean URL). */
  invalid: boolean;
}

/** Parameters of the page itself (not filters). */
const PAGE_PARAMS = ['q', 'page'] as const;

/**
 * Only bad values of our own parameters (`size=abc`, `sort=cheap`) count as invalid; unknown
 * parameters (`utm_source`, `fbclid`) are left alone: they are not ours to strip, and the
 * canonical link already leaves them out.
 */
function isOwnParameter(entry: string): boolean {
  const key = entry.slice(0, Math.max(0, entry.indexOf('=')));
  return key === 'sort' || isFilterKey(key);
}

function parsePage(raw: string | null): { page: number; invalid: boolean } {
  if (raw == null) return { page: 1, invalid: false };
  if (!/^\d{1,4}$/.test(raw)) return { page: 1, invalid: true };
  const n = Number(raw);
  if (n < 1) return { page: 1, invalid: true };
  if (n > MAX_PAGES) return { page: MAX_PAGES, invalid: true };
  return { page: n, invalid: false };
}

export function parseCatalogQuery(params: URLSearchParams): ParsedCatalogQuery {
  const { filters, sort, invalid } = filtersFromSearchParams(params, { ignore: PAGE_PARAMS });
  const page = parsePage(params.get('page'));
  const text = (params.get('q') ?? '').trim().replace(/\s+/g, ' ').slice(0, 100);
  return {
    filters,
    sort,
    text,
    page: page.page,
    invalid: page.invalid || invalid.some(isOwnParameter),
  };
}

/** `?…` for a query (empty string when there is nothing to say). `page` 1 is implied. */
export function catalogSearch(q: Partial<CatalogQuery>): string {
  const params = filtersToSearchParams(q.filters ?? {}, q.sort);
  if (q.text) params.set('q', q.text);
  if (q.page && q.page > 1) params.set('page', String(q.page));
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The link a filter checkbox stands for: the spec §5 toggle applied, back to the first page. */
export function filterToggleSearch(q: CatalogQuery, key: FilterKey, value: string): string {
  return catalogSearch({ ...q, filters: toggleFilter(q.filters, key, value), page: 1 });
}

/** Choosing a sort: single-valued; choosing the current one again (or the default) removes it. */
export function sortSearch(q: CatalogQuery, next: SortKey): string {
  return catalogSearch({ ...q, sort: toggleSort(q.sort, next), page: 1 });
}

/** Every filter removed; the search text and sort stay. */
export function clearFiltersSearch(q: CatalogQuery): string {
  return catalogSearch({ text: q.text, sort: q.sort });
}

/** The canonical query: filters and search text, never sort or page. */
export function canonicalSearch(q: CatalogQuery): string {
  return catalogSearch({ filters: q.filters, text: q.text });
}

export function activeFilterCount(filters: ActiveFilters): number {
  return Object.values(filters).reduce((n, values) => n + (values?.length ?? 0), 0);
}

export function hasActiveFilters(filters: ActiveFilters): boolean {
  return activeFilterCount(filters) > 0;
}

/**
 * Search results and lists narrowed by more than one filter value are `noindex, follow`: there
 * are combinatorially many of them, each mostly a subset of its category. A single filter value
 * (`/menu/flower?size=92`, "3.5 g flower") is a page people search for, so it stays indexable.
 */
export function shouldNoindex(q: CatalogQuery): boolean {
  return Boolean(q.text) || activeFilterCount(q.filters) > 1;
}

export function isSearchTextTooShort(text: string): boolean {
  return text.length > 0 && text.length < MIN_SEARCH_LENGTH;
}

/** What the products API takes: the catalogue's search parameters, plus the store. */
export interface ProductsApiParams extends ProductSearchParams {
  /** The store (the API resolves the host's store otherwise, which a `/{storeCode}` prefix is not). */
  storeCode?: string;
}

/**
 * `GET /api/catalog/products?…` for the browser (search panel, "Load more"). The API's `size` is
 * the page size and its `license_type` the shopper's licence, so the size filter travels as
 * `sizes`; a license_type *filter* cannot be expressed there and is left to the shopper's licence.
 */
export function productsApiUrl(p: ProductsApiParams): string {
  const params = new URLSearchParams();
  if (p.text) params.set('text', p.text);
  if (p.categoryId != null) params.set('category', String(p.categoryId));
  const filterParams = filtersToSearchParams(p.filters ?? {}, p.sort);
  for (const [k, v] of filterParams) {
    if (k === 'license_type') continue;
    params.append(k === 'size' ? 'sizes' : k, v);
  }
  params.set('start', String(p.start ?? 0));
  params.set('size', String(p.size ?? PAGE_SIZE));
  if (p.licenseType) params.set('license_type', p.licenseType);
  const storeCode = p.storeCode ?? apiStoreCodeParam();
  if (storeCode) params.set('storeCode', storeCode);
  return `/api/catalog/products?${params}`;
}
