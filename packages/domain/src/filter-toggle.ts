/**
 * Filter and sort toggling of spec §5, and the one canonical URL form of a filter set: keys in
 * FILTER_KEYS order, values de-duplicated and sorted, sort last, the default sort left out.
 * The same filter set therefore always yields the same URL, so filtered category pages are
 * crawlable and the output cache gets one entry per page, not one per click order.
 */
import { FILTER_KEYS, PRICE_RANGES, DEFAULT_SORT, isFilterKey, isSortKey } from './filters.ts';
import type { ActiveFilters, FilterKey, SortKey } from './filters.ts';
import { isSizeId } from './sizes.ts';
import { isPotencyKey, isPotencyRangeKey, isRatingFloor } from './potency-rating.ts';

export interface ToggleFilterOptions {
  /** A single-choice variant: its value replaces the key's list. */
  single?: boolean;
}

/** Keys that clear each other when a value of one is chosen (spec §5). */
const EXCLUSIVE: Partial<Record<FilterKey, FilterKey>> = { sale: 'discount_group_id', discount_group_id: 'sale' };

function leadingNumber(value: string): number | null {
  const m = /^\d+(\.\d+)?/.exec(value);
  return m ? Number(m[0]) : null;
}

/**
 * Canonical value order: values starting with a number by that number (`92` < `100`,
 * `0-50` < `50-100` < `150-`), before other values; ties by code units. Locale-independent so
 * a server and a browser sort alike.
 */
export function compareFilterValues(a: string, b: string): number {
  const na = leadingNumber(a);
  const nb = leadingNumber(b);
  if (na != null && nb != null && na !== nb) return na - nb;
  if ((na == null) !== (nb == null)) return na == null ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function canonicalValues(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareFilterValues);
}

/**
 * Toggle one filter value (spec §5), returning a new object; `active` is never mutated.
 * - A value already chosen is removed; otherwise it is added (multi-valued filters).
 * - `single`: the value replaces the list.
 * - license_type with several values is narrowed to the clicked one.
 * - Choosing sale clears discount_group_id, choosing discount_group_id clears sale.
 * Lists come back de-duplicated in canonical order; empty lists are removed.
 */
export function toggleFilter(
  active: ActiveFilters,
  key: FilterKey,
  value: string,
  { single = false }: ToggleFilterOptions = {},
): ActiveFilters {
  const next: ActiveFilters = {};
  for (const k of Object.keys(active) as FilterKey[]) {
    const list = active[k];
    if (list && list.length > 0) next[k] = [...list];
  }
  const current = next[key] ?? [];
  let updated: string[];
  let chose = false;
  if (key === 'license_type' && current.length > 1) {
    updated = [value];
    chose = true;
  } else if (current.includes(value)) {
    updated = current.filter((v) => v !== value);
  } else {
    updated = single ? [value] : [...current, value];
    chose = true;
  }
  if (updated.length > 0) next[key] = canonicalValues(updated);
  else delete next[key];
  const other = EXCLUSIVE[key];
  if (chose && other) delete next[other];
  return next;
}

/** Sort is single-valued (spec §5): choosing the current sort again removes it. */
export function toggleSort(current: SortKey | undefined, next: SortKey): SortKey | undefined {
  return current === next ? undefined : next;
}

/** Whether `value` is a valid URL value of filter `key`. */
export function isValidFilterValue(key: FilterKey, value: string): boolean {
  switch (key) {
    case 'size':
      return /^\d+$/.test(value) && isSizeId(Number(value));
    case 'sale':
    case 'staff_pick':
    case 'best_seller':
      return value === '1';
    case 'price':
      return PRICE_RANGES.some((r) => r.key === value);
    case 'license_type':
      // 'both' is a product's own licence value and shows up as a facet bucket.
      return value === 'recreational' || value === 'medical' || value === 'both';
    case 'brand_id':
    case 'discount_group_id':
      return /^[1-9]\d{0,9}$/.test(value);
    case 'rating':
      return isRatingFloor(value);
    default:
      return isPotencyKey(key) && isPotencyRangeKey(key, value);
  }
}

/**
 * The canonical query of a filter set: `size=92&size=93&price=0-50&sort=price_asc`. Repeated
 * keys rather than comma lists, because URLSearchParams would escape commas as `%2C`. The
 * default sort is left out: it is the same page as no sort. Values are written as given.
 */
export function filtersToSearchParams(active: ActiveFilters, sort?: SortKey): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    for (const value of canonicalValues(active[key] ?? [])) params.append(key, value);
  }
  if (sort && sort !== DEFAULT_SORT) params.append('sort', sort);
  return params;
}

export interface ParsedFilters {
  filters: ActiveFilters;
  /** Undefined for no sort or the default sort. */
  sort?: SortKey;
  /** `key=value` of every parameter that is not a known filter/sort or has an invalid value. */
  invalid: string[];
}

export interface ParseFiltersOptions {
  /** Parameters that belong to someone else (`q`, `page`, tracking) and are neither read nor reported. */
  ignore?: readonly string[];
}

/**
 * Read a filter set from a URL query. Accepts repeated keys and, leniently, comma lists
 * (`size=92,93`; no valid value contains a comma). Unknown keys and invalid values are reported
 * in `invalid` rather than thrown, so a page can still render (and, say, canonicalise the URL).
 * A second sort is reported; the first valid one wins.
 */
export function filtersFromSearchParams(params: URLSearchParams, { ignore = [] }: ParseFiltersOptions = {}): ParsedFilters {
  const collected: Partial<Record<FilterKey, string[]>> = {};
  const invalid = new Set<string>();
  let sort: SortKey | undefined;
  let sawSort = false;
  for (const [key, raw] of params) {
    if (ignore.includes(key)) continue;
    if (key === 'sort') {
      if (!sawSort && isSortKey(raw)) {
        sawSort = true;
        sort = raw === DEFAULT_SORT ? undefined : raw;
      } else invalid.add(`${key}=${raw}`);
      continue;
    }
    if (!isFilterKey(key)) {
      invalid.add(`${key}=${raw}`);
      continue;
    }
    for (const value of raw.split(',')) {
      if (isValidFilterValue(key, value)) (collected[key] ??= []).push(value);
      else invalid.add(`${key}=${value}`);
    }
  }
  const filters: ActiveFilters = {};
  for (const key of FILTER_KEYS) {
    const list = collected[key];
    if (list && list.length > 0) filters[key] = canonicalValues(list);
  }
  return sort ? { filters, sort, invalid: [...invalid] } : { filters, invalid: [...invalid] };
}
