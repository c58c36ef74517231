/** The search constants of spec §9, in one place so that nothing else redefines them. */
export const SEARCH_DEFAULTS = Object.freeze({
  pageSize: 50,
  categoryListSize: 4000,
  attributeListSize: 150,
  cmsBlockListSize: 150,
  aggregationSize: 300,
  sizeAggregationSize: 10,
  maxFilterQuerySize: 999,
  minScore: 0.02,
  /** Measured on the judged typo queries of bench/suites/search-precision.ts. */
  minRelativeScore: 0.4,
  fuzziness: 2,
  minimumShouldMatch: 0.75,
  minTermLength: 3,
  clientTimeoutMs: 5000,
  serverTimeoutMs: 1000,
});

/** Field boosts for text search (spec §9). */
export const SEARCH_BOOSTS: Readonly<Record<string, number>> = Object.freeze({
  name: 5,
  discovery_tags: 4,
  description: 3,
  brand: 3,
  discount_group: 3,
  'category.name': 2,
  sku: 1,
});

export const VISIBLE_IN_CATALOG = [2, 3, 4] as const;
export const ENABLED_STATUSES = [0, 1] as const;
