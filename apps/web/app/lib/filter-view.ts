/**
 * The filter panel as data: one group per default filter of spec §9 (FILTER_KEYS order), each
 * option with its label and count from the search facets, and whether it is chosen.
 */
import {
  compareFilterValues,
  FILTER_KEYS,
  isLicenseType,
  isPotencyKey,
  LICENSE_LABELS,
  POTENCY_TITLES,
  potencyRangeLabel,
  priceRangeLabel,
  ratingFloorLabel,
  sizeLongLabel,
  type ActiveFilters,
  type CatalogAttribute,
  type FilterKey,
  type MoneyLocale,
} from '@verdant/domain';
import type { FacetBucket } from './context.ts';

export const FILTER_TITLES: Readonly<Record<FilterKey, string>> = {
  size: 'Size',
  sale: 'Sale',
  staff_pick: 'Staff picks',
  best_seller: 'Best sellers',
  price: 'Price',
  ...POTENCY_TITLES,
  rating: 'Customer rating',
  license_type: 'License type',
  brand_id: 'Brand',
  discount_group_id: 'Deals',
};

/** Labels for flag filters (`sale=1`) when the facet brings none of its own. */
const FLAG_LABELS: Partial<Record<FilterKey, string>> = {
  sale: 'On sale',
  staff_pick: 'Staff pick',
  best_seller: 'Best seller',
};

export interface FilterOption {
  value: string;
  label: string;
  count: number;
  checked: boolean;
}

export interface FilterGroup {
  key: FilterKey;
  title: string;
  options: FilterOption[];
}

/** A label for a value no facet described (a chosen value that now matches nothing). */
export function fallbackFilterLabel(key: FilterKey, value: string, money?: MoneyLocale): string {
  switch (key) {
    case 'size':
      return /^\d+$/.test(value) ? sizeLongLabel(Number(value)) : value;
    case 'price':
      return priceRangeLabel(value, money);
    case 'license_type':
      return isLicenseType(value) ? LICENSE_LABELS[value] : value === 'both' ? 'Both' : value;
    case 'sale':
    case 'staff_pick':
    case 'best_seller':
      return FLAG_LABELS[key] ?? value;
    case 'rating':
      return ratingFloorLabel(value);
    default:
      return isPotencyKey(key) ? potencyRangeLabel(key, value) : value;
  }
}

/** What the list is, for leaving out filters that cannot change it. */
export interface FilterScope {
  /** Products in the list as it is (with the chosen filters). */
  total: number;
  /** The list holds only the shopper's licence's products (always, once the gate was passed). */
  licenseScoped: boolean;
}

/**
 * Groups to show: options with products, plus every chosen option (so it can be unchosen even
 * when nothing matches). A group without options is left out. Titles come from the attribute
 * metadata when the catalogue names the attribute, else from FILTER_TITLES.
 *
 * Filters that cannot change the list are not offered (a group with something chosen always is):
 *  - a group whose every option holds the whole list (one brand only, everything on sale);
 *  - the licence type when the list is scoped to the shopper's licence: every product listed is
 *    sold to them under it, so "Recreational" against "Recreational and medical" is the store's
 *    bookkeeping, not a choice the shopper has.
 */
export function filterGroups(
  facets: Partial<Record<FilterKey, FacetBucket[]>>,
  active: ActiveFilters,
  attributes: readonly CatalogAttribute[] = [],
  money?: MoneyLocale,
  scope?: FilterScope,
): FilterGroup[] {
  const groups: FilterGroup[] = [];
  for (const key of FILTER_KEYS) {
    const chosen = new Set(active[key] ?? []);
    const options: FilterOption[] = [];
    for (const bucket of facets[key] ?? []) {
      const checked = chosen.has(bucket.value);
      if (bucket.count <= 0 && !checked) continue;
      const flag = FLAG_LABELS[key];
      // A flag facet's own label is often just "Yes"/"1": the group title says it better.
      const label = flag && (!bucket.label || /^(1|yes|true)$/i.test(bucket.label)) ? flag : bucket.label || fallbackFilterLabel(key, bucket.value, money);
      options.push({ value: bucket.value, label, count: bucket.count, checked });
      chosen.delete(bucket.value);
    }
    for (const value of chosen) options.push({ value, label: fallbackFilterLabel(key, value, money), count: 0, checked: true });
    if (options.length === 0) continue;
    const anyChosen = options.some((o) => o.checked);
    if (scope && !anyChosen) {
      if (key === 'license_type' && scope.licenseScoped) continue;
      if (options.every((o) => o.count >= scope.total)) continue;
    }
    // Sizes, price and potency ranges read best in their natural order (1 g … 28 g, < $50 … > $150,
    // Under 15% … 80% and up); rating floors best first (4 stars & up, 3 stars & up).
    if (key === 'size' || key === 'price' || isPotencyKey(key)) options.sort((a, b) => compareFilterValues(a.value, b.value));
    if (key === 'rating') options.sort((a, b) => compareFilterValues(b.value, a.value));
    // Potency and rating are ours, not catalogue attributes (an attribute `thc_mg` labels the value, not the filter).
    const meta = isPotencyKey(key) || key === 'rating' ? undefined : attributes.find((a) => a.attribute_code === key);
    groups.push({ key, title: meta?.frontend_label || FILTER_TITLES[key], options });
  }
  return groups;
}

/** Chosen filters as removable chips: `Size: 3.5 g (1/8 oz)`. */
export function activeFilterChips(groups: readonly FilterGroup[]): { key: FilterKey; value: string; label: string }[] {
  return groups.flatMap((g) => g.options.filter((o) => o.checked).map((o) => ({ key: g.key, value: o.value, label: `${g.title}: ${o.label}` })));
}
