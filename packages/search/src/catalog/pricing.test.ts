import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CatalogProduct, isSpecialPriceActive, productPrice } from '@verdant/domain';
import { GENERATOR_NOW, generateProducts } from '../../test-support/generator.ts';
import { OUT_OF_STOCK, makeChild, makeLinked, makeProduct } from '../../test-support/fixtures.ts';
import { createProductIndex } from './schemas.ts';
import { pricedAt, specialWindowEdges } from './pricing.ts';

const productFinalPrice = (p: CatalogProduct, now: Date) => pricedAt(p, now.getTime(), 0).final_price;
const productOnSale = (p: CatalogProduct, now: Date) => pricedAt(p, now.getTime(), 0).sale;

const before = new Date('2026-03-31T23:59:59.999Z');
const inside = new Date('2026-04-10T12:00:00.000Z');
const lastMoment = new Date('2026-04-20T23:59:59.999Z');
const after = new Date('2026-04-21T00:00:00.000Z');
const window = { special_from_date: '2026-04-01T00:00:00.000Z', special_to_date: '2026-04-20' };

describe('special window edges', () => {
  const iso = fc.date({ min: new Date('2025-01-01'), max: new Date('2027-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  const dateish = fc.option(fc.oneof(iso, iso.map((s) => s.slice(0, 10)), fc.constant('not a date')), { nil: null });
  it('the domain rule never changes between two consecutive edges', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20000 }),
        fc.option(fc.integer({ min: -100, max: 25000 }), { nil: null }),
        dateish,
        dateish,
        fc.date({ min: new Date('2024-12-01'), max: new Date('2027-02-01'), noInvalidDate: true }),
        (price, special_price, special_from_date, special_to_date, now) => {
          const p = { price, special_price, special_from_date, special_to_date };
          const t = now.getTime();
          const edges = specialWindowEdges(p);
          const from = Math.max(-8.64e15, ...edges.filter((e) => e <= t));
          const until = Math.min(8.64e15, ...edges.filter((e) => e > t));
          const active = isSpecialPriceActive(p, now);
          expect(isSpecialPriceActive(p, new Date(from))).toBe(active);
          expect(isSpecialPriceActive(p, new Date(until - 1))).toBe(active);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('final price and sale by product type', () => {
  it('simple: the special inside its window only (a bare to-date runs through that day)', () => {
    const p = makeProduct({ id: 1, price: 3000, special_price: 2000, ...window });
    expect([before, inside, lastMoment, after].map((d) => productFinalPrice(p, d))).toEqual([3000, 2000, 2000, 3000]);
    expect([before, inside, lastMoment, after].map((d) => productOnSale(p, d))).toEqual([false, true, true, false]);
  });

  it('configurable: the cheapest available child; on sale when any available child is', () => {
    const p = makeProduct({
      id: 1,
      type_id: 'configurable',
      price: 9999,
      configurable_children: [
        makeChild({ id: 11, price: 4000, size: 92 }),
        makeChild({ id: 12, price: 6000, special_price: 3500, ...window, size: 93 }),
        makeChild({ id: 13, price: 100, status: 2, size: 91 }),
        makeChild({ id: 14, price: 200, stock: OUT_OF_STOCK, size: 94 }),
      ],
    });
    expect(productFinalPrice(p, before)).toBe(4000);
    expect(productFinalPrice(p, inside)).toBe(3500);
    expect(productOnSale(p, before)).toBe(false);
    expect(productOnSale(p, inside)).toBe(true);
    const none = makeProduct({ id: 2, type_id: 'configurable', price: 5000, configurable_children: [makeChild({ id: 21, status: 2 })] });
    expect(productFinalPrice(none, inside)).toBe(5000);
  });

  it('grouped: the sum of available associated members at qty 1, from 0 (domain rule)', () => {
    const link = (product: ReturnType<typeof makeLinked>, link_type: 'associated' | 'related' = 'associated') => ({
      link_type,
      linked_product_sku: product.sku,
      linked_product_type: product.type_id,
      qty: 3,
      position: 0,
      is_default: false,
      product,
    });
    const p = makeProduct({
      id: 1,
      type_id: 'grouped',
      price: 99999,
      product_links: [
        link(makeLinked({ id: 2, price: 1000 })),
        link(makeLinked({ id: 3, price: 2500, special_price: 2000, ...window })),
        link(makeLinked({ id: 4, price: 700, status: 2 })),
        link(makeLinked({ id: 5, price: 800 }), 'related'),
      ],
    });
    expect(productFinalPrice(p, before)).toBe(3500);
    expect(productFinalPrice(p, inside)).toBe(3000);
    expect(productOnSale(p, inside)).toBe(true);
    expect(productFinalPrice(makeProduct({ id: 6, type_id: 'grouped', price: 500 }), inside)).toBe(0);
  });

  it('bundle: each option’s default link (else the first) × its qty', () => {
    const link = (id: number, price: number, qty: number, is_default: boolean, extra = {}) => {
      const product = makeLinked({ id, price, ...extra });
      return { link_type: 'bundle' as const, linked_product_sku: product.sku, linked_product_type: product.type_id, qty, position: id, is_default, product };
    };
    const p = makeProduct({
      id: 1,
      type_id: 'bundle',
      price: 1,
      bundle_options: [
        { option_id: 1, title: 'A', type: 'radio', required: true, position: 1, product_links: [link(10, 500, 1, false), link(11, 800, 2, true)] },
        { option_id: 2, title: 'B', type: 'select', required: true, position: 2, product_links: [link(12, 300, 0, false, { special_price: 100, ...window }), link(13, 900, 1, false)] },
      ],
    });
    // 800×2 + 300×1 (qty 0 counts as 1)
    expect(productFinalPrice(p, before)).toBe(1900);
    expect(productFinalPrice(p, inside)).toBe(1700);
  });
});

describe('computed final_price and sale in the product index', () => {
  const products = [
    makeProduct({ id: 1, name: 'Blue Dream', price: 6000, special_price: 4000, ...window }),
    makeProduct({ id: 2, name: 'Sour Diesel', price: 4500 }),
  ];
  const idx = createProductIndex();
  idx.replaceAll(products);
  const priceOrder = (now: Date) => idx.search({ sort: [{ field: 'final_price', order: 'asc' }] }, { now }).items.map((p) => p.id);
  const saleIds = (now: Date) => idx.search({ filters: [{ field: 'sale', op: 'eq', value: true }] }, { now }).items.map((p) => p.id);
  const priceBuckets = (now: Date) =>
    idx.search({ aggregations: [{ name: 'p', type: 'range', field: 'final_price', ranges: [{ key: 'lt50', to: 5000 }, { key: 'ge50', from: 5000 }] }] }, { now }).aggregations.p.buckets.map((b) => b.doc_count);

  it('the same index answers differently on either side of the window', () => {
    expect(priceOrder(before)).toEqual([2, 1]);
    expect(saleIds(before)).toEqual([]);
    expect(priceBuckets(before)).toEqual([1, 1]);
    expect(priceOrder(inside)).toEqual([1, 2]);
    expect(saleIds(inside)).toEqual([1]);
    expect(priceBuckets(inside)).toEqual([2, 0]);
    expect(saleIds(lastMoment)).toEqual([1]);
    expect(saleIds(after)).toEqual([]);
    expect(priceOrder(after)).toEqual([2, 1]);
  });
});

describe('the index prices as the domain does, whatever the order of query times', () => {
  it('final_price and sale per product equal productPrice / the sale rule at each now', () => {
    const DAY = 86_400_000;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.integer({ min: -40 * DAY, max: 40 * DAY }), { minLength: 1, maxLength: 6 }),
        (seed, offsets) => {
          const docs = generateProducts({ count: 60, seed });
          const idx = createProductIndex();
          idx.replaceAll(docs);
          for (const offset of offsets) {
            const now = new Date(GENERATOR_NOW.getTime() + offset);
            const r = idx.search({ sort: [{ field: 'final_price', order: 'asc' }], size: 100 }, { now });
            const expected = [...docs].sort((a, b) => productPrice(a, now).final_price - productPrice(b, now).final_price || a.id - b.id);
            expect(r.items.map((p) => p.id)).toEqual(expected.map((p) => p.id));
            const sale = idx.search({ filters: [{ field: 'sale', op: 'eq', value: true }], sort: [{ field: 'id', order: 'asc' }], size: 100 }, { now });
            expect(sale.items.map((p) => p.id)).toEqual(docs.filter((d) => productOnSale(d, now)).map((d) => d.id));
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
