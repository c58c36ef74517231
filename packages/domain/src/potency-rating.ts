/**
 * Potency and rating filters of the catalogue (issue 30). A product's THC and CBD are shown as a
 * percentage (flower, pre-rolls, vapes, concentrates: `thc_percent`) or in mg per package (edibles,
 * tinctures, topicals: the `thc_mg` / `cbd_mg` attributes, product-facts.ts); each has its own
 * filter with fixed ranges, so a list of edibles offers mg ranges and a list of flower % ranges
 * (the filter panel shows only ranges that hold products of the list). A product matches a range
 * by the value its card shows; a product without one is matched by no potency range.
 *
 * Percent ranges include their lower bound and exclude the upper one (20 % is "20–25%"). Mg ranges
 * include their upper bound: the usual packages, 10 mg and 100 mg, are "up to 10 mg" and "10–100 mg".
 *
 * Ratings: the average of a product's approved reviews (one decimal, as the page shows it) and their
 * count. "4 stars & up" matches an average of 4.0 or more; unrated products match no rating filter.
 */

/** The potency filter keys: `thc`/`cbd` in %, `thc_mg`/`cbd_mg` in mg per package. */
export const POTENCY_KEYS = ['thc', 'cbd', 'thc_mg', 'cbd_mg'] as const;
export type PotencyKey = (typeof POTENCY_KEYS)[number];

export interface PotencyRange {
  /** The URL value (`20-25`, `80-`, `0-10`). */
  key: string;
  label: string;
  /** Lower bound; inclusive unless `lowerOpen`. */
  from: number;
  /** Upper bound, null for open-ended; exclusive unless `upperClosed`. */
  to: number | null;
  lowerOpen?: true;
  upperClosed?: true;
}

const percent = (bounds: [number, number | null][]): PotencyRange[] =>
  bounds.map(([from, to], i) => ({
    key: `${from}-${to ?? ''}`,
    label: to == null ? `${from}% and up` : i === 0 ? `Under ${to}%` : `${from}–${to}%`,
    from,
    to,
  }));

const MG_RANGES: readonly PotencyRange[] = [
  { key: '0-10', label: 'Up to 10 mg', from: 0, to: 10, upperClosed: true },
  { key: '10-100', label: '10–100 mg', from: 10, to: 100, lowerOpen: true, upperClosed: true },
  { key: '100-', label: 'Over 100 mg', from: 100, to: null, lowerOpen: true },
];

/** The ranges of each potency filter, in the order the panel shows them. */
export const POTENCY_RANGES: Readonly<Record<PotencyKey, readonly PotencyRange[]>> = {
  thc: percent([
    [0, 15],
    [15, 20],
    [20, 25],
    [25, 30],
    [30, 60],
    [60, 80],
    [80, null],
  ]),
  cbd: percent([
    [0, 1],
    [1, 5],
    [5, 10],
    [10, 20],
    [20, null],
  ]),
  thc_mg: MG_RANGES,
  cbd_mg: MG_RANGES,
};

export const POTENCY_TITLES: Readonly<Record<PotencyKey, string>> = {
  thc: 'THC',
  cbd: 'CBD',
  thc_mg: 'THC per package',
  cbd_mg: 'CBD per package',
};

export function isPotencyKey(value: string): value is PotencyKey {
  return (POTENCY_KEYS as readonly string[]).includes(value);
}

export function inPotencyRange(value: number, range: PotencyRange): boolean {
  if (!Number.isFinite(value)) return false;
  if (range.lowerOpen ? value <= range.from : value < range.from) return false;
  if (range.to == null) return true;
  return range.upperClosed ? value <= range.to : value < range.to;
}

/** The range key a value falls in; null for no value (unknown potency) or a negative one. */
export function potencyRangeOf(key: PotencyKey, value: number | null | undefined): string | null {
  if (value == null) return null;
  return POTENCY_RANGES[key].find((r) => inPotencyRange(value, r))?.key ?? null;
}

export function isPotencyRangeKey(key: PotencyKey, value: string): boolean {
  return POTENCY_RANGES[key].some((r) => r.key === value);
}

/** "20–25%", "Up to 10 mg"; an unknown value is returned as is. */
export function potencyRangeLabel(key: PotencyKey, value: string): string {
  return POTENCY_RANGES[key].find((r) => r.key === value)?.label ?? value;
}

/** The rating filter's thresholds, best first: "4 stars & up", "3 stars & up". */
export const RATING_FLOORS = [4, 3] as const;

export function isRatingFloor(value: string): boolean {
  return (RATING_FLOORS as readonly number[]).map(String).includes(value);
}

/** `4` → "4 stars & up". */
export function ratingFloorLabel(value: string): string {
  return `${value} stars & up`;
}

/** The thresholds an average reaches (`4.3` → `['4', '3']`); none for an unrated product. */
export function ratingFloorsOf(rating: { average: number; count: number } | null | undefined): string[] {
  if (!rating || rating.count <= 0) return [];
  return RATING_FLOORS.filter((f) => rating.average >= f).map(String);
}

/** A product's approved-review rating as cards and documents carry it. */
export interface ProductRating {
  /** Average stars, one decimal (reviews' roundAverage). */
  average: number;
  count: number;
}

/** "Rated 4.5 out of 5, 12 reviews" (what a screen reader hears for a card's stars). */
export function ratingText(rating: ProductRating): string {
  return `Rated ${rating.average.toFixed(1)} out of 5, ${rating.count} ${rating.count === 1 ? 'review' : 'reviews'}`;
}
