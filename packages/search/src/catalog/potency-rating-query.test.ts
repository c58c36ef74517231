/**
 * Issue 30: the potency filters (THC/CBD % ranges, mg per package ranges), the rating filter
 * ("4 stars & up") and the THC and Top rated sorts over the product index, with their facets. A
 * product matches by the potency its card shows; unknown potency and unrated products match no
 * such filter and sort last; ties keep the default order (Latest).
 */
import { describe, expect, it } from 'vitest';
import type { ActiveFilters, CatalogProduct } from '@verdant/domain';
import { makeChild, makeProduct } from '../../test-support/fixtures.ts';
import { createProductIndex } from './schemas.ts';
import { type ProductQueryParams, productSearchQuery } from './product-query.ts';

const now = new Date('2026-05-01T12:00:00.000Z');
const mg = (thc: number, cbd = 0) => [
  { attribute_code: 'cbd_mg', value: String(cbd) },
  { attribute_code: 'thc_mg', value: String(thc) },
];
const day = (d: number) => `2026-04-${String(d).padStart(2, '0')}T00:00:00Z`;
const products: CatalogProduct[] = [
  makeProduct({ id: 1, name: 'Low Flower', thc_percent: 12, cbd_percent: 0.5, updated_at: day(1) }),
  makeProduct({ id: 2, name: 'Mid Flower', thc_percent: 22, updated_at: day(2), rating: { average: 4.5, count: 12 } }),
  makeProduct({ id: 3, name: 'Also Mid Flower', thc_percent: 22, updated_at: day(3), rating: { average: 4.5, count: 3 } }),
  makeProduct({ id: 4, name: 'Strong Flower', thc_percent: 29.5, updated_at: day(4), rating: { average: 3.2, count: 40 } }),
  makeProduct({ id: 5, name: 'Unknown Flower', updated_at: day(5) }),
  makeProduct({ id: 6, name: 'Gummies 10', custom_attributes: mg(10), updated_at: day(6), rating: { average: 5, count: 1 } }),
  makeProduct({ id: 7, name: 'Gummies 100', custom_attributes: mg(100, 100), updated_at: day(7) }),
  makeProduct({ id: 8, name: 'Patient Gummies', custom_attributes: mg(500), updated_at: day(8), rating: { average: 4, count: 2 } }),
  // Sizes of one batch: the product carries their THC (documents.ts), as its card does.
  makeProduct({
    id: 9,
    name: 'Imported Flower',
    type_id: 'configurable',
    thc_percent: 24.5,
    updated_at: day(9),
    configurable_children: [makeChild({ id: 91, size: 92, price: 3000 }), makeChild({ id: 92, size: 95, price: 9000 })],
  }),
  makeProduct({ id: 10, name: 'Live Resin', thc_percent: 78, updated_at: day(10) }),
];
const idx = createProductIndex();
idx.replaceAll(products);
const run = (params: Partial<ProductQueryParams>) => idx.search(productSearchQuery({ storeId: 1, ...params }), { now });
const ids = (params: Partial<ProductQueryParams>) => run(params).items.map((p) => p.id);
const sorted = (params: Partial<ProductQueryParams>) => ids(params).sort((a, b) => a - b);

describe('potency filters', () => {
  const cases: [ActiveFilters, number[]][] = [
    [{ thc: ['0-15'] }, [1]],
    [{ thc: ['20-25'] }, [2, 3, 9]],
    [{ thc: ['20-25', '25-30'] }, [2, 3, 4, 9]],
    [{ thc: ['60-80'] }, [10]],
    [{ thc: ['80-'] }, []],
    [{ cbd: ['0-1'] }, [1]],
    [{ thc_mg: ['0-10'] }, [6]],
    [{ thc_mg: ['10-100'] }, [7]],
    [{ thc_mg: ['100-'] }, [8]],
    [{ cbd_mg: ['10-100'] }, [7]],
    [{ thc: ['20-25'], thc_mg: ['0-10'] }, []],
  ];
  it.each(cases)('%j matches %j (unknown potency never)', (filters, expected) => {
    expect(sorted({ filters })).toEqual(expected);
  });

  it('facets count each range of the list, disjunctively; a list of edibles has no % buckets', () => {
    const all = run({});
    const counts = (name: string) => all.aggregations[name].buckets.map((b) => [String(b.key), b.doc_count]).sort();
    expect(counts('thc')).toEqual([['0-15', 1], ['20-25', 3], ['25-30', 1], ['60-80', 1]]);
    expect(counts('thc_mg')).toEqual([['0-10', 1], ['10-100', 1], ['100-', 1]]);
    const chosen = run({ filters: { thc: ['20-25'] } });
    expect(chosen.aggregations.thc.buckets.find((b) => b.key === '0-15')?.doc_count).toBe(1);
    expect(chosen.aggregations.thc_mg.buckets).toEqual([]);
    expect(chosen.aggregations.rating.buckets.map((b) => [String(b.key), b.doc_count]).sort()).toEqual([['3', 2], ['4', 2]]);
  });
});

describe('rating filter', () => {
  it.each([
    [['4'], [2, 3, 6, 8]],
    [['3'], [2, 3, 4, 6, 8]],
    [['3', '4'], [2, 3, 4, 6, 8]],
  ])('rating %j matches %j (unrated never)', (rating, expected) => {
    expect(sorted({ filters: { rating } })).toEqual(expected);
  });
});

describe('THC and Top rated sorts', () => {
  it('THC high to low: % products by %, then mg products by mg, unknown last in the default order; ties by Latest', () => {
    expect(ids({ sort: 'thc_desc' })).toEqual([10, 4, 9, 3, 2, 1, 8, 7, 6, 5]);
  });
  it('THC low to high: unknown still last', () => {
    expect(ids({ sort: 'thc_asc' })).toEqual([1, 3, 2, 9, 4, 10, 6, 7, 8, 5]);
  });
  it('within a list of edibles it is the mg; within flower the %', () => {
    expect(ids({ sort: 'thc_desc', filters: { thc_mg: ['0-10', '10-100', '100-'] } })).toEqual([8, 7, 6]);
    expect(ids({ sort: 'thc_desc', filters: { thc: ['0-15', '20-25', '25-30'] } })).toEqual([4, 9, 3, 2, 1]);
  });
  it('Top rated: average, then count; unrated last in the default order', () => {
    expect(ids({ sort: 'top_rated' })).toEqual([6, 2, 3, 8, 4, 10, 9, 7, 5, 1]);
  });
});
