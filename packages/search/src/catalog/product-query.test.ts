import { describe, expect, it } from 'vitest';
import { FILTER_KEYS, type ActiveFilters, type CatalogProduct } from '@verdant/domain';
import { InvalidQueryError, SearchTermTooShortError } from '../errors.ts';
import { OUT_OF_STOCK, makeChild, makeProduct } from '../../test-support/fixtures.ts';
import { createProductIndex } from './schemas.ts';
import { type ProductQueryParams, productBySkuQuery, productByUrlPathQuery, productSearchQuery } from './product-query.ts';

const now = new Date('2026-05-01T12:00:00.000Z');
const products: CatalogProduct[] = [
  makeProduct({ id: 1, name: 'Blue Dream', license_type: 'both', brand_id: 101, price: 4000, staff_pick: true, updated_at: '2026-04-01T00:00:00Z' }),
  makeProduct({ id: 2, name: 'Medical Tincture', license_type: 'medical', brand_id: 102, price: 8000, updated_at: '2026-04-02T00:00:00Z' }),
  makeProduct({ id: 3, name: 'Rec Gummies', license_type: 'recreational', brand_id: 101, price: 1500, best_seller: true, updated_at: '2026-04-03T00:00:00Z' }),
  makeProduct({ id: 4, name: 'Sold Out Kush', stock: OUT_OF_STOCK, brand_id: 103, price: 2000, updated_at: '2026-04-04T00:00:00Z' }),
  makeProduct({ id: 5, name: 'Other Store Dream', dispensaryID: 2, price: 1000, updated_at: '2026-04-05T00:00:00Z' }),
  makeProduct({ id: 6, name: 'Hidden Child', visibility: 1, updated_at: '2026-04-06T00:00:00Z' }),
  makeProduct({ id: 7, name: 'Disabled Vape', status: 2, updated_at: '2026-04-07T00:00:00Z' }),
  makeProduct({
    id: 8,
    name: 'Gelato',
    type_id: 'configurable',
    price: 9000,
    discount_group_id: 1,
    category_ids: [20],
    updated_at: '2026-04-08T00:00:00Z',
    configurable_children: [
      makeChild({ id: 81, size: 92, price: 3500, special_price: 3000, special_from_date: '2026-04-01', special_to_date: '2026-05-30' }),
      makeChild({ id: 82, size: 95, price: 16000 }),
      makeChild({ id: 83, size: 91, price: 1000, stock: OUT_OF_STOCK }),
    ],
  }),
  makeProduct({ id: 9, name: 'Pre-Roll', size: 91, price: 16000, category_ids: [21], updated_at: '2026-04-09T00:00:00Z' }),
];
const idx = createProductIndex();
idx.replaceAll(products);

const run = (params: Partial<ProductQueryParams> = {}) => idx.search(productSearchQuery({ storeId: 1, ...params }), { now });
const ids = (params: Partial<ProductQueryParams> = {}) => run(params).items.map((p) => p.id).sort((a, b) => a - b);

describe('always-applied product filters (spec §7)', () => {
  it('store, visibility, status, stock and licence', () => {
    expect(ids()).toEqual([1, 2, 3, 8, 9]);
    expect(ids({ licenseType: 'recreational' })).toEqual([1, 3, 8, 9]);
    expect(ids({ licenseType: 'medical' })).toEqual([1, 2, 8, 9]);
    expect(ids({ includeOutOfStock: true })).toEqual([1, 2, 3, 4, 8, 9]);
    expect(ids({ storeId: 2 })).toEqual([5]);
  });

  it('a medical-only product never reaches a recreational shopper, whatever the filters or text', () => {
    expect(ids({ licenseType: 'recreational', filters: { license_type: ['medical'] } })).toEqual([]);
    expect(ids({ licenseType: 'recreational', text: 'medical tincture', includeOutOfStock: true })).toEqual([]);
  });

  it('other stores never, even when the text matches only them', () => {
    expect(ids({ text: 'other store' })).toEqual([]);
    expect(ids({ text: 'dream' })).toEqual([1]);
  });

  it('categoryIds (the category and its descendants), or the single categoryId', () => {
    expect(ids({ categoryIds: [20, 21] })).toEqual([8, 9]);
    expect(ids({ categoryId: 21 })).toEqual([9]);
    expect(ids({ categoryIds: [] })).toEqual([]);
  });
});

describe("the shopper's filters", () => {
  const f = (filters: ActiveFilters) => ids({ filters });
  it('size matches the own size or a sellable child size', () => {
    expect(f({ size: ['92'] })).toEqual([8]);
    expect(f({ size: ['91'] })).toEqual([9]); // Gelato's 1 g child is out of stock
    expect(f({ size: ['92', '91'] })).toEqual([8, 9]);
  });

  it('flags, brand, discount group and licence', () => {
    expect(f({ staff_pick: ['1'] })).toEqual([1]);
    expect(f({ best_seller: ['1'] })).toEqual([3]);
    expect(f({ sale: ['1'] })).toEqual([8]);
    expect(f({ brand_id: ['101', '102'] })).toEqual([1, 2, 3]);
    expect(f({ discount_group_id: ['1'] })).toEqual([8]);
    expect(f({ license_type: ['both'] })).toEqual([1, 8, 9]);
    expect(f({ brand_id: [] })).toEqual([1, 2, 3, 8, 9]);
  });

  it('price buckets on the final price in cents, ORed', () => {
    expect(f({ price: ['0-50'] })).toEqual([1, 3, 8]); // Gelato from 30.00
    expect(f({ price: ['50-100'] })).toEqual([2]);
    expect(f({ price: ['150-'] })).toEqual([9]);
    expect(f({ price: ['0-50', '150-'] })).toEqual([1, 3, 8, 9]);
  });
});

describe('sort, paging and facets', () => {
  it('latest by default, relevance when searching, price options', () => {
    expect(run().items.map((p) => p.id)).toEqual([9, 8, 3, 2, 1]);
    expect(run({ text: 'gelato' }).items[0].id).toBe(8);
    expect(productSearchQuery({ storeId: 1, text: 'gelato' }).sort).toBeUndefined();
    expect(run({ sort: 'price_asc' }).items.map((p) => p.id)).toEqual([3, 8, 1, 2, 9]);
    expect(run({ sort: 'price_desc', start: 1, size: 2 }).items.map((p) => p.id)).toEqual([2, 1]);
  });

  it('an empty search box is no search; one or two characters are refused', () => {
    expect(productSearchQuery({ storeId: 1, text: '   ' }).text).toBeUndefined();
    expect(() => run({ text: 'ge' })).toThrow(SearchTermTooShortError);
  });

  it('facets for every default filter, disjunctive where multi-select', () => {
    const r = run({ filters: { brand_id: ['101'] } });
    expect(Object.keys(r.aggregations)).toEqual([...FILTER_KEYS]);
    expect(r.total).toBe(2);
    // Brand counts ignore the brand filter: the panel shows what else there is.
    expect(r.aggregations.brand_id.buckets).toEqual([
      { key: 101, doc_count: 2 },
      { key: 102, doc_count: 1 },
    ]);
    expect(r.aggregations.staff_pick.buckets).toEqual([
      { key: 0, doc_count: 1 },
      { key: 1, doc_count: 1 },
    ]);
    expect(r.aggregations.price.buckets.map((b) => [b.key, b.doc_count])).toEqual([
      ['0-50', 2],
      ['50-100', 0],
      ['100-150', 0],
      ['150-', 0],
    ]);
    const sized = run({ filters: { size: ['92'] } });
    expect(sized.aggregations.size.buckets).toEqual([
      { key: 91, doc_count: 1 },
      { key: 92, doc_count: 1 },
      { key: 95, doc_count: 1 },
    ]);
  });

  it('the licence facet never counts products the shopper may not buy', () => {
    const r = run({ licenseType: 'recreational', filters: { license_type: ['both'] } });
    expect(r.aggregations.license_type.buckets).toEqual([{ key: 'both', doc_count: 3 }]);
  });
});

describe('InvalidQueryError', () => {
  const cases: [string, Partial<ProductQueryParams> | Record<string, unknown>][] = [
    ['unknown filter key', { filters: { colour: ['red'] } }],
    ['non-numeric size', { filters: { size: ['eighth'] } }],
    ['non-numeric brand id', { filters: { brand_id: ['abc'] } }],
    ['negative discount group', { filters: { discount_group_id: ['-1'] } }],
    ['unknown price bucket', { filters: { price: ['10-20'] } }],
    ['flag other than 1', { filters: { sale: ['yes'] } }],
    ['unknown licence value', { filters: { license_type: ['adult'] } }],
    ['values not strings', { filters: { brand_id: [101] } }],
    ['unknown sort', { sort: 'name_asc' }],
    ['bad licence type', { licenseType: 'adult' }],
    ['non-integer store', { storeId: 1.5 }],
    ['bad category ids', { categoryIds: ['x'] }],
  ];
  it.each(cases)('%s', (_, params) => {
    expect(() => productSearchQuery({ storeId: 1, ...(params as Partial<ProductQueryParams>) })).toThrow(InvalidQueryError);
  });

  it('says what was wrong', () => {
    expect(() => productSearchQuery({ storeId: 1, filters: { price: ['10-20'] } })).toThrow(/price: unknown range "10-20"/);
    expect(() => productSearchQuery({ storeId: 1, filters: { colour: ['red'] } as ActiveFilters })).toThrow(/unknown filter "colour"/);
  });
});

describe('text over product fields', () => {
  it("a configurable child's sku finds its parent", () => {
    expect(run({ text: 'CHILD-82' }).items.map((p) => p.id)).toEqual([8]);
  });
});

describe('lookups', () => {
  it('by the product sku or a child sku, and by url_path, in one store', () => {
    const bySku = (skus: string[]) => idx.search(productBySkuQuery(1, skus), { now }).items.map((p) => p.id);
    expect(bySku(['SKU-1', 'CHILD-82'])).toEqual([8, 1]);
    expect(bySku(['SKU-5'])).toEqual([]);
    expect(idx.search(productByUrlPathQuery(1, 'p/gelato'), { now }).items.map((p) => p.id)).toEqual([8]);
  });
});
