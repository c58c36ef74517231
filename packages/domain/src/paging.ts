/**
 * "Load more" paging of category product lists (spec §4): stop when the last page's start is at
 * or beyond the total, or the total is less than the page size; otherwise fetch the page after.
 */
import { PAGE_SIZE } from './filters.ts';

export interface PageState {
  /** `start` of the last page fetched (the search result's start). */
  start: number;
  /** Total hits of the query. */
  total: number;
  /** Page size of the query; 0 or less means the default 50 (spec §5). */
  pageSize: number;
  /** Products in the list so far. */
  loaded: number;
}

function effectivePageSize(pageSize: number): number {
  return Number.isFinite(pageSize) && pageSize > 0 ? Math.floor(pageSize) : PAGE_SIZE;
}

/**
 * The spec's two stop rules, plus one the spec's loader lacks: stop once `loaded` reaches the
 * total, which saves the empty request the spec's rule alone makes after the last full page.
 */
export function hasMorePages({ start, total, pageSize, loaded }: PageState): boolean {
  if (![start, total, loaded].every(Number.isFinite)) return false;
  const size = effectivePageSize(pageSize);
  if (start >= total || total < size) return false;
  return loaded < total;
}

/** The start of the page after the last one fetched (a negative start counts as 0, spec §5). */
export function nextPageStart({ start, pageSize }: Pick<PageState, 'start' | 'pageSize'>): number {
  return Math.max(0, start) + effectivePageSize(pageSize);
}
