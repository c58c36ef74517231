/**
 * Catalogue filters and sorting as the shopper sets them (spec §5, §9). The active filters live in
 * the page URL (`?size=92&brand_id=3&price=0-50&sort=price_asc`), so a filtered page can be shared
 * and crawled; `packages/search` turns them into a query.
 */

/**
 * The default filters of spec §9, in the order the filter panel shows them, with issue 30's potency
 * ranges (`thc`, `cbd` in %, `thc_mg`, `cbd_mg` per package) and rating floor (`rating=4`: 4 stars
 * and up) after the price (potency-rating.ts).
 */
export const FILTER_KEYS = [
  'size',
  'sale',
  'staff_pick',
  'best_seller',
  'price',
  'thc',
  'cbd',
  'thc_mg',
  'cbd_mg',
  'rating',
  'license_type',
  'brand_id',
  'discount_group_id',
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** Active filter values by key; values are URL strings (`92`, `0-50`, `1`, `medical`). */
export type ActiveFilters = Partial<Record<FilterKey, string[]>>;

export function isFilterKey(value: string): value is FilterKey {
  return (FILTER_KEYS as readonly string[]).includes(value);
}

/** Price buckets of spec §9, in cents; `to` is exclusive, the last bucket is open-ended. */
export const PRICE_RANGES: readonly { key: string; from: number; to: number | null }[] = [
  { key: '0-50', from: 0, to: 5000 },
  { key: '50-100', from: 5000, to: 10000 },
  { key: '100-150', from: 10000, to: 15000 },
  { key: '150-', from: 15000, to: null },
];

/**
 * Sort options of spec §9 and issue 30: label → the fields and directions the catalogue index sorts
 * by. The first is the default. Products without a value of a field come after those with one; ties
 * keep the default order (Latest). THC sorts by the percentage a card shows, then by the mg per
 * package (edibles, which show mg): on a list of flower it is the %, on a list of edibles the mg, and
 * a mixed list has the % products first. Top rated: the average (one decimal) then the number of
 * reviews; unrated products last. `reviews: true`: only offered when the store shows reviews.
 */
export const SORT_OPTIONS = [
  { key: 'latest', label: 'Latest', fields: [{ field: 'updated_at', order: 'desc' }] },
  { key: 'price_asc', label: 'Price: Low to high', fields: [{ field: 'final_price', order: 'asc' }] },
  { key: 'price_desc', label: 'Price: High to low', fields: [{ field: 'final_price', order: 'desc' }] },
  {
    key: 'thc_desc',
    label: 'THC: High to low',
    fields: [
      { field: 'thc_percent', order: 'desc' },
      { field: 'thc_mg', order: 'desc' },
      { field: 'updated_at', order: 'desc' },
    ],
  },
  {
    key: 'thc_asc',
    label: 'THC: Low to high',
    fields: [
      { field: 'thc_percent', order: 'asc' },
      { field: 'thc_mg', order: 'asc' },
      { field: 'updated_at', order: 'desc' },
    ],
  },
  {
    key: 'top_rated',
    label: 'Top rated',
    reviews: true,
    fields: [
      { field: 'rating.average', order: 'desc' },
      { field: 'rating.count', order: 'desc' },
      { field: 'updated_at', order: 'desc' },
    ],
  },
] as const satisfies readonly { key: string; label: string; reviews?: true; fields: readonly { field: string; order: 'asc' | 'desc' }[] }[];
export type SortKey = (typeof SORT_OPTIONS)[number]['key'];
export const DEFAULT_SORT: SortKey = 'latest';

export function isSortKey(value: unknown): value is SortKey {
  return SORT_OPTIONS.some((o) => o.key === value);
}

/** Filters and sorts that read reviews: left out (and ignored in a URL) when the store shows no reviews. */
export const RATING_FILTER_KEY = 'rating' satisfies FilterKey;
export function sortNeedsReviews(key: SortKey | undefined): boolean {
  return SORT_OPTIONS.some((o) => o.key === key && 'reviews' in o && o.reviews);
}

/** Aggregation size for a filter (spec §9: 300 by default, 10 for size). */
export function aggregationSize(key: FilterKey): number {
  return key === 'size' ? 10 : 300;
}

/** Default page size for catalogue lists (spec §9). */
export const PAGE_SIZE = 50;

/** What a category page, the search panel or the offline cache asks the catalogue for. */
export interface ProductSearchParams {
  /** The shopper's licence type: only products for it (or for both) are listed. */
  licenseType?: import('./license.ts').LicenseType;
  /** Free text (at least 3 characters). */
  text?: string;
  /** A category id; the search includes all its descendants. */
  categoryId?: number;
  filters?: ActiveFilters;
  sort?: SortKey;
  start?: number;
  size?: number;
}
