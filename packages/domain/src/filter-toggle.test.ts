import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { POTENCY_RANGES } from './potency-rating.ts';
import { FILTER_KEYS, PRICE_RANGES, SORT_OPTIONS, type ActiveFilters, type FilterKey, type SortKey } from './filters.ts';
import {
  compareFilterValues,
  filtersFromSearchParams,
  filtersToSearchParams,
  isValidFilterValue,
  toggleFilter,
  toggleSort,
} from './filter-toggle.ts';

describe('toggleFilter (spec §5)', () => {
  it('adds a value, and removes it when selected again', () => {
    const a = toggleFilter({}, 'size', '92');
    expect(a).toEqual({ size: ['92'] });
    expect(toggleFilter(a, 'size', '93')).toEqual({ size: ['92', '93'] });
    expect(toggleFilter(a, 'size', '92')).toEqual({});
  });

  it('keeps values in canonical order whatever the click order', () => {
    expect(toggleFilter({ size: ['95', '91'] }, 'size', '93')).toEqual({ size: ['91', '93', '95'] });
    expect(toggleFilter({ price: ['150-'] }, 'price', '0-50')).toEqual({ price: ['0-50', '150-'] });
  });

  it('single: the value replaces the list; the same value again removes it', () => {
    expect(toggleFilter({ price: ['0-50', '50-100'] }, 'price', '100-150', { single: true })).toEqual({ price: ['100-150'] });
    expect(toggleFilter({ price: ['100-150'] }, 'price', '100-150', { single: true })).toEqual({});
  });

  it('narrows a license_type filter with several values to the clicked one', () => {
    expect(toggleFilter({ license_type: ['medical', 'recreational'] }, 'license_type', 'medical')).toEqual({ license_type: ['medical'] });
    expect(toggleFilter({ license_type: ['medical'] }, 'license_type', 'recreational')).toEqual({ license_type: ['medical', 'recreational'] });
    expect(toggleFilter({ license_type: ['medical'] }, 'license_type', 'medical')).toEqual({});
  });

  it('choosing sale clears discount_group_id and vice versa; removing clears nothing', () => {
    expect(toggleFilter({ discount_group_id: ['3'], size: ['92'] }, 'sale', '1')).toEqual({ sale: ['1'], size: ['92'] });
    expect(toggleFilter({ sale: ['1'] }, 'discount_group_id', '4')).toEqual({ discount_group_id: ['4'] });
    expect(toggleFilter({ sale: ['1'], discount_group_id: ['4'] }, 'discount_group_id', '4')).toEqual({ sale: ['1'] });
  });

  it('never mutates its input and drops empty lists', () => {
    const input: ActiveFilters = Object.freeze({ size: Object.freeze(['92']) as string[], brand_id: [] });
    const out = toggleFilter(input, 'size', '93');
    expect(input).toEqual({ size: ['92'], brand_id: [] });
    expect(out).toEqual({ size: ['92', '93'] });
    expect(out.size).not.toBe(input.size);
  });
});

describe('toggleSort', () => {
  it('is single-valued: the same sort again removes it', () => {
    expect(toggleSort(undefined, 'price_asc')).toBe('price_asc');
    expect(toggleSort('price_asc', 'price_desc')).toBe('price_desc');
    expect(toggleSort('price_desc', 'price_desc')).toBeUndefined();
  });
});

describe('filter URLs', () => {
  it('writes keys in FILTER_KEYS order, values sorted, sort last', () => {
    const params = filtersToSearchParams({ brand_id: ['12', '3'], size: ['93', '92', '93'], price: ['0-50'] }, 'price_asc');
    expect(params.toString()).toBe('size=92&size=93&price=0-50&brand_id=3&brand_id=12&sort=price_asc');
  });

  it('leaves the default sort out (same page, same URL)', () => {
    expect(filtersToSearchParams({ sale: ['1'] }, 'latest').toString()).toBe('sale=1');
    expect(filtersFromSearchParams(new URLSearchParams('sort=latest'))).toEqual({ filters: {}, invalid: [] });
  });

  it('reads repeated keys and comma lists, reporting what it cannot use', () => {
    const r = filtersFromSearchParams(new URLSearchParams('size=93,92&size=92&colour=red&price=7-9&sort=cheap&sale=1&sale=yes&brand_id=007'));
    expect(r.filters).toEqual({ size: ['92', '93'], sale: ['1'] });
    expect(r.sort).toBeUndefined();
    expect(r.invalid).toEqual(['colour=red', 'price=7-9', 'sort=cheap', 'sale=yes', 'brand_id=007']);
  });

  it('skips parameters the page owns', () => {
    const r = filtersFromSearchParams(new URLSearchParams('q=blue&page=2&size=91&sort=price_desc&sort=latest'), { ignore: ['q', 'page'] });
    expect(r).toEqual({ filters: { size: ['91'] }, sort: 'price_desc', invalid: ['sort=latest'] });
  });

  it('validates each key’s values', () => {
    expect(isValidFilterValue('size', '92')).toBe(true);
    expect(isValidFilterValue('size', '90')).toBe(false);
    expect(isValidFilterValue('size', '92.0')).toBe(false);
    expect(isValidFilterValue('price', '150-')).toBe(true);
    expect(isValidFilterValue('license_type', 'both')).toBe(true);
    expect(isValidFilterValue('license_type', 'adult')).toBe(false);
    expect(isValidFilterValue('staff_pick', '0')).toBe(false);
    expect(isValidFilterValue('discount_group_id', '42')).toBe(true);
    expect(isValidFilterValue('discount_group_id', '0')).toBe(false);
  });

  it('orders values numerically before text', () => {
    expect(['b', '100', '0-50', 'a', '92', '150-', '50-100'].sort(compareFilterValues)).toEqual(['0-50', '50-100', '92', '100', '150-', 'a', 'b']);
  });
});

describe('filter properties', () => {
  const VALUES: Record<FilterKey, string[]> = {
    size: ['91', '92', '93', '94', '95'],
    sale: ['1'],
    staff_pick: ['1'],
    best_seller: ['1'],
    price: PRICE_RANGES.map((r) => r.key),
    thc: POTENCY_RANGES.thc.map((r) => r.key),
    cbd: POTENCY_RANGES.cbd.map((r) => r.key),
    thc_mg: POTENCY_RANGES.thc_mg.map((r) => r.key),
    cbd_mg: POTENCY_RANGES.cbd_mg.map((r) => r.key),
    rating: ['4', '3'],
    license_type: ['recreational', 'medical', 'both'],
    brand_id: ['1', '2', '10', '123'],
    discount_group_id: ['3', '4', '40'],
  };
  // Any subset of each key's values, in any order (the order a shopper clicked them).
  const filterSet = fc.tuple(...FILTER_KEYS.map((k) => fc.shuffledSubarray(VALUES[k]))).map((lists) => {
    const out: ActiveFilters = {};
    FILTER_KEYS.forEach((k, i) => {
      if (lists[i].length > 0) out[k] = lists[i];
    });
    return out;
  });
  const keyAndValue = fc.constantFrom(...FILTER_KEYS).chain((k) => fc.tuple(fc.constant(k), fc.constantFrom(...VALUES[k])));
  const sort = fc.option(fc.constantFrom(...SORT_OPTIONS.map((o) => o.key)), { nil: undefined });
  const canonical = (f: ActiveFilters) => filtersFromSearchParams(filtersToSearchParams(f)).filters;

  it('toggling the same value twice restores the filter set (outside the spec’s narrowing/clearing rules)', () => {
    fc.assert(
      fc.property(filterSet, keyAndValue, (active, [key, value]) => {
        const other = key === 'sale' ? 'discount_group_id' : key === 'discount_group_id' ? 'sale' : null;
        const once = toggleFilter(active, key, value);
        // Narrowing applies whenever license_type holds several values, before or after the first click.
        fc.pre(!(key === 'license_type' && Math.max(active.license_type?.length ?? 0, once.license_type?.length ?? 0) > 1));
        fc.pre(!(other && active[other]));
        const twice = toggleFilter(once, key, value);
        return JSON.stringify(canonical(twice)) === JSON.stringify(canonical(active));
      }),
    );
  });

  it('round-trips through the URL to the canonical form, and the URL is order-independent', () => {
    fc.assert(
      fc.property(filterSet, sort, (active, s) => {
        const params = filtersToSearchParams(active, s);
        const parsed = filtersFromSearchParams(params);
        const again = filtersToSearchParams(parsed.filters, parsed.sort);
        const reversed: ActiveFilters = {};
        for (const k of [...FILTER_KEYS].reverse()) if (active[k]) reversed[k] = [...active[k]].reverse();
        return (
          parsed.invalid.length === 0 &&
          parsed.sort === (s === 'latest' ? undefined : s) &&
          FILTER_KEYS.every((k) => (parsed.filters[k] ?? []).length === new Set(active[k] ?? []).size) &&
          again.toString() === params.toString() &&
          filtersToSearchParams(reversed, s as SortKey | undefined).toString() === params.toString()
        );
      }),
    );
  });
});
