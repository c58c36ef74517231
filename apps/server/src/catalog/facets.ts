/**
 * The filter panel of spec §9 from the engine's aggregations: one bucket list per default filter,
 * with the value as the URL carries it and a label a shopper reads — sizes by their long label
 * (`3.5 g (1/8 oz)`), brands and deals by their attribute option, price buckets as '< $50',
 * '$50 - 100', '$100 - 150', '> $150', flags as 'On sale', 'Staff pick', 'Best seller', licences
 * as 'Recreational' / 'Medical', potency ranges as '20–25%' / 'Up to 10 mg', ratings as '4 stars & up'. Empty buckets are left out unless selected (so a chosen chip
 * never disappears).
 */
import {
  FILTER_KEYS,
  LICENSE_LABELS,
  isLicenseType,
  isPotencyKey,
  potencyRangeLabel,
  priceRangeLabel,
  ratingFloorLabel,
  sizeLongLabel,
  type ActiveFilters,
  type CatalogAttribute,
  type FilterKey,
} from '@verdant/domain';
import type { Bucket, SearchResult } from '@verdant/search';
import type { FacetBucket } from '@verdant/web/context';

const FLAG_LABELS: Partial<Record<FilterKey, string>> = {
  sale: 'On sale',
  staff_pick: 'Staff pick',
  best_seller: 'Best seller',
};

function optionLabels(attributes: readonly CatalogAttribute[], code: string): Map<string, string> {
  return new Map((attributes.find((a) => a.attribute_code === code)?.options ?? []).map((o) => [o.value, o.label]));
}

export function facetsFrom(
  aggregations: SearchResult<unknown>['aggregations'],
  attributes: readonly CatalogAttribute[],
  selected: ActiveFilters = {},
): Partial<Record<FilterKey, FacetBucket[]>> {
  const out: Partial<Record<FilterKey, FacetBucket[]>> = {};
  for (const key of FILTER_KEYS) {
    const buckets: Bucket[] = aggregations[key]?.buckets ?? [];
    const options = optionLabels(attributes, key);
    const chosen = new Set(selected[key] ?? []);
    const list: FacetBucket[] = [];
    for (const b of buckets) {
      const value = String(b.key);
      if (b.doc_count === 0 && !chosen.has(value)) continue;
      let label: string;
      if (key in FLAG_LABELS) {
        // A flag filter only has the "yes" value (`?sale=1`); the "no" bucket is not a choice.
        if (value !== '1') continue;
        label = FLAG_LABELS[key] as string;
      } else if (key === 'size') label = sizeLongLabel(Number(value));
      else if (key === 'price') label = priceRangeLabel(value);
      else if (isPotencyKey(key)) label = potencyRangeLabel(key, value);
      else if (key === 'rating') label = ratingFloorLabel(value);
      else if (key === 'license_type')
        label = isLicenseType(value) ? LICENSE_LABELS[value] : (options.get(value) ?? value);
      else label = options.get(value) ?? value;
      list.push({ value, label, count: b.doc_count });
    }
    out[key] = list;
  }
  return out;
}
