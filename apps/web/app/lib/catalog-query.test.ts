import { describe, expect, it } from 'vitest';
import {
  canonicalSearch,
  catalogSearch,
  clearFiltersSearch,
  filterToggleSearch,
  isSearchTextTooShort,
  MAX_PAGES,
  parseCatalogQuery,
  productsApiUrl,
  shouldNoindex,
  sortSearch,
} from './catalog-query.ts';

const parse = (s: string) => parseCatalogQuery(new URLSearchParams(s));

describe('parseCatalogQuery', () => {
  it('reads filters, sort, search text and page', () => {
    expect(parse('size=93&size=92&price=0-50&sort=price_asc&q=%20blue%20%20dream&page=3')).toEqual({
      filters: { size: ['92', '93'], price: ['0-50'] },
      sort: 'price_asc',
      text: 'blue dream',
      page: 3,
      invalid: false,
    });
  });

  it('flags bad values of its own parameters but not foreign ones', () => {
    expect(parse('size=12').invalid).toBe(true);
    expect(parse('sort=cheapest').invalid).toBe(true);
    expect(parse('page=0').invalid).toBe(true);
    expect(parse('page=abc').invalid).toBe(true);
    expect(parse(`page=${MAX_PAGES + 5}`)).toMatchObject({ page: MAX_PAGES, invalid: true });
    expect(parse('utm_source=mail&fbclid=x').invalid).toBe(false);
  });

  it('drops the invalid values (the page redirects to this clean query)', () => {
    const q = parse('size=92&size=oops&utm_source=x&page=2');
    expect(catalogSearch(q)).toBe('?size=92&page=2');
  });
});

describe('URLs of the filter panel', () => {
  const q = parse('size=92&sale=1&sort=price_desc&q=kush&page=4');

  it('toggles a value and goes back to the first page', () => {
    expect(filterToggleSearch(q, 'size', '93')).toBe('?size=92&size=93&sale=1&sort=price_desc&q=kush');
    expect(filterToggleSearch(q, 'size', '92')).toBe('?sale=1&sort=price_desc&q=kush');
  });

  it('applies the spec §5 exclusivity of sale and deals', () => {
    expect(filterToggleSearch(q, 'discount_group_id', '4')).toBe('?size=92&discount_group_id=4&sort=price_desc&q=kush');
  });

  it('sorts single-valued; the default sort is no parameter', () => {
    expect(sortSearch(q, 'price_asc')).toBe('?size=92&sale=1&sort=price_asc&q=kush');
    expect(sortSearch(q, 'latest')).toBe('?size=92&sale=1&q=kush');
    expect(sortSearch(q, 'price_desc')).toBe('?size=92&sale=1&q=kush');
  });

  it('clears filters but keeps the search and sort', () => {
    expect(clearFiltersSearch(q)).toBe('?sort=price_desc&q=kush');
  });

  it('makes a canonical query without sort or page', () => {
    expect(canonicalSearch(q)).toBe('?size=92&sale=1&q=kush');
    expect(canonicalSearch(parse('page=2&sort=price_asc'))).toBe('');
  });
});

describe('indexing and search rules', () => {
  it('noindexes searches and lists with more than one filter value', () => {
    expect(shouldNoindex(parse(''))).toBe(false);
    expect(shouldNoindex(parse('size=92'))).toBe(false);
    expect(shouldNoindex(parse('size=92&sort=price_asc&page=2'))).toBe(false);
    expect(shouldNoindex(parse('size=92&size=93'))).toBe(true);
    expect(shouldNoindex(parse('size=92&price=0-50'))).toBe(true);
    expect(shouldNoindex(parse('q=blue'))).toBe(true);
  });

  it('refuses search text under 3 characters', () => {
    expect(isSearchTextTooShort('')).toBe(false);
    expect(isSearchTextTooShort('bl')).toBe(true);
    expect(isSearchTextTooShort('blu')).toBe(false);
  });
});

describe('productsApiUrl', () => {
  it('sends the size filter as `sizes` and the licence as license_type', () => {
    const url = productsApiUrl({
      categoryId: 3,
      filters: { size: ['92', '93'], price: ['0-50'], license_type: ['medical'] },
      sort: 'price_asc',
      start: 50,
      size: 50,
      licenseType: 'recreational',
      storeCode: 'downtown',
    });
    expect(url).toBe('/api/catalog/products?category=3&sizes=92&sizes=93&price=0-50&sort=price_asc&start=50&size=50&license_type=recreational&storeCode=downtown');
  });

  it('sends search text', () => {
    expect(productsApiUrl({ text: 'blu drem', size: 8 })).toBe('/api/catalog/products?text=blu+drem&start=0&size=8');
  });
});
