import { describe, expect, it } from 'vitest';
import {
  POTENCY_RANGES,
  isPotencyRangeKey,
  potencyRangeLabel,
  potencyRangeOf,
  ratingFloorsOf,
  ratingText,
  type PotencyKey,
} from './potency-rating.ts';
import { SORT_OPTIONS, sortNeedsReviews } from './filters.ts';
import { filtersFromSearchParams, filtersToSearchParams, isValidFilterValue } from './filter-toggle.ts';

describe('potency ranges (issue 30)', () => {
  // [filter, value, the range it falls in (null: none)]
  const cases: [PotencyKey, number | null, string | null][] = [
    ['thc', null, null],
    ['thc', 0, '0-15'],
    ['thc', 14.9, '0-15'],
    ['thc', 15, '15-20'],
    ['thc', 19.99, '15-20'],
    ['thc', 20, '20-25'],
    ['thc', 24.5, '20-25'],
    ['thc', 25, '25-30'],
    ['thc', 29.9, '25-30'],
    ['thc', 30, '30-60'],
    ['thc', 59.9, '30-60'],
    ['thc', 60, '60-80'],
    ['thc', 80, '80-'],
    ['thc', 99.5, '80-'],
    ['thc', -1, null],
    ['thc', Number.NaN, null],
    ['cbd', 0.1, '0-1'],
    ['cbd', 1, '1-5'],
    ['cbd', 5, '5-10'],
    ['cbd', 10, '10-20'],
    ['cbd', 20, '20-'],
    ['thc_mg', 0, '0-10'],
    ['thc_mg', 2.5, '0-10'],
    ['thc_mg', 10, '0-10'],
    ['thc_mg', 10.1, '10-100'],
    ['thc_mg', 100, '10-100'],
    ['thc_mg', 100.5, '100-'],
    ['thc_mg', 1000, '100-'],
    ['cbd_mg', 300, '100-'],
    ['cbd_mg', null, null],
  ];
  it.each(cases)('%s %s falls in %s', (key, value, range) => {
    expect(potencyRangeOf(key, value)).toBe(range);
  });

  it('every value from 0 to 1000 falls in exactly one range of each filter', () => {
    for (const key of ['thc', 'cbd', 'thc_mg', 'cbd_mg'] as const) {
      for (let v = 0; v <= 1000; v += 0.5) {
        const hits = POTENCY_RANGES[key].filter((r) => potencyRangeOf(key, v) === r.key);
        expect(hits.length, `${key} ${v}`).toBe(1);
      }
    }
  });

  it('labels: percent ranges and mg per package', () => {
    expect(POTENCY_RANGES.thc.map((r) => r.label)).toEqual(['Under 15%', '15–20%', '20–25%', '25–30%', '30–60%', '60–80%', '80% and up']);
    expect(POTENCY_RANGES.thc_mg.map((r) => r.label)).toEqual(['Up to 10 mg', '10–100 mg', 'Over 100 mg']);
    expect(potencyRangeLabel('cbd', '0-1')).toBe('Under 1%');
    expect(potencyRangeLabel('thc', 'nope')).toBe('nope');
  });

  it('URL values: only the ranges of the filter are valid, in canonical order', () => {
    expect(isPotencyRangeKey('thc', '20-25')).toBe(true);
    expect(isPotencyRangeKey('thc_mg', '20-25')).toBe(false);
    expect(isValidFilterValue('thc', '80-')).toBe(true);
    expect(isValidFilterValue('thc', '81-')).toBe(false);
    expect(isValidFilterValue('thc_mg', '10-100')).toBe(true);
    expect(isValidFilterValue('rating', '4')).toBe(true);
    expect(isValidFilterValue('rating', '5')).toBe(false);
    const parsed = filtersFromSearchParams(new URLSearchParams('thc=25-30&thc=0-15&rating=4&thc_mg=100-&sort=thc_desc&thc=99'));
    expect(parsed.filters).toEqual({ thc: ['0-15', '25-30'], thc_mg: ['100-'], rating: ['4'] });
    expect(parsed.sort).toBe('thc_desc');
    expect(parsed.invalid).toEqual(['thc=99']);
    expect(filtersToSearchParams(parsed.filters, parsed.sort).toString()).toBe('thc=0-15&thc=25-30&thc_mg=100-&rating=4&sort=thc_desc');
  });
});

describe('rating floors (issue 30)', () => {
  const cases: [{ average: number; count: number } | null, string[]][] = [
    [null, []],
    [{ average: 0, count: 0 }, []],
    [{ average: 5, count: 1 }, ['4', '3']],
    [{ average: 4, count: 3 }, ['4', '3']],
    [{ average: 3.9, count: 12 }, ['3']],
    [{ average: 3, count: 2 }, ['3']],
    [{ average: 2.9, count: 7 }, []],
  ];
  it.each(cases)('%j reaches %j', (rating, floors) => {
    expect(ratingFloorsOf(rating)).toEqual(floors);
  });

  it('reads as the spoken text of the stars', () => {
    expect(ratingText({ average: 4.5, count: 12 })).toBe('Rated 4.5 out of 5, 12 reviews');
    expect(ratingText({ average: 4, count: 1 })).toBe('Rated 4.0 out of 5, 1 review');
  });
});

describe('potency and rating sorts (issue 30)', () => {
  const fields = (key: string) => SORT_OPTIONS.find((o) => o.key === key)?.fields.map((f) => `${f.field} ${f.order}`);
  it.each([
    ['thc_desc', ['thc_percent desc', 'thc_mg desc', 'updated_at desc']],
    ['thc_asc', ['thc_percent asc', 'thc_mg asc', 'updated_at desc']],
    ['top_rated', ['rating.average desc', 'rating.count desc', 'updated_at desc']],
  ])('%s sorts by %j (ties: the default order, Latest)', (key, expected) => {
    expect(fields(key)).toEqual(expected);
    expect(fields('latest')).toEqual(['updated_at desc']);
  });
  it('only Top rated needs the store to show reviews', () => {
    expect(SORT_OPTIONS.filter((o) => sortNeedsReviews(o.key)).map((o) => o.key)).toEqual(['top_rated']);
  });
});
