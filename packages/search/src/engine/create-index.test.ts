import { describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../errors.ts';
import type { SearchQuery } from '../types.ts';
import { createIndex } from './create-index.ts';
import type { IndexSchema } from './schema.ts';

interface Item {
  id: number;
  name: string;
  brand_id: number | null;
  flag: boolean | number;
  price: number;
  updated_at: string;
  stock: { is_in_stock: boolean };
  children: { size: number | null; sku: string }[];
  tags: string[];
  /** A sale window, to exercise computed fields. */
  sale_from?: number;
  sale_to?: number;
}

const item = (id: number, over: Partial<Item> = {}): Item => ({
  id,
  name: `Item ${id}`,
  brand_id: 100 + (id % 3),
  flag: id % 2 === 0,
  price: id * 100,
  updated_at: `2026-01-${String(id).padStart(2, '0')}T00:00:00.000Z`,
  stock: { is_in_stock: id !== 3 },
  children: [{ size: 91 + (id % 5), sku: `C${id}a` }, { size: 92, sku: `C${id}b` }],
  tags: id % 2 ? ['odd'] : ['even'],
  ...over,
});

const schema: IndexSchema<Item, Item> = {
  name: 'item',
  text: { name: 1 },
  defaultSort: [{ field: 'updated_at', order: 'desc' }],
  derived: { all_sizes: (d) => d.children.map((c) => c.size) },
  computed: {
    prepare: (d) => d,
    changesAt: (d) => (d.sale_from !== undefined && d.sale_to !== undefined ? [d.sale_from, d.sale_to] : []),
    fields: {
      on_sale: (d, now) => d.sale_from !== undefined && d.sale_to !== undefined && now >= d.sale_from && now < d.sale_to,
      live_price: (d, now) => (d.sale_from !== undefined && d.sale_to !== undefined && now >= d.sale_from && now < d.sale_to ? d.price / 2 : d.price),
    },
  },
};

function build(items: Item[] = Array.from({ length: 10 }, (_, i) => item(i + 1))) {
  const idx = createIndex(schema);
  idx.replaceAll(items);
  return idx;
}
const ids = (r: { items: Item[] }) => r.items.map((d) => d.id);
const search = (q: SearchQuery, now?: Date) => build().search(q, now ? { now } : undefined);

describe('filters', () => {
  it('eq and in on top-level fields', () => {
    expect(ids(search({ filters: [{ field: 'brand_id', op: 'eq', value: 101 }], sort: [{ field: 'id', order: 'asc' }] }))).toEqual([1, 4, 7, 10]);
    expect(search({ filters: [{ field: 'brand_id', op: 'in', values: [100, 102] }] }).total).toBe(6);
    expect(search({ filters: [{ field: 'brand_id', op: 'in', values: [] }] }).total).toBe(0);
  });

  it('matches URL strings against numbers, and booleans against true/1', () => {
    expect(search({ filters: [{ field: 'brand_id', op: 'eq', value: '101' }] }).total).toBe(4);
    const mixed = build([item(1, { flag: true }), item(2, { flag: 1 }), item(3, { flag: false }), item(4, { flag: 0 })]);
    for (const value of [true, 1, '1', 'true']) {
      expect(ids(mixed.search({ filters: [{ field: 'flag', op: 'eq', value }], sort: [{ field: 'id', order: 'asc' }] }))).toEqual([1, 2]);
    }
    expect(mixed.search({ filters: [{ field: 'flag', op: 'eq', value: false }] }).total).toBe(2);
  });

  it('follows dotted paths, and an array element matching is enough', () => {
    expect(ids(search({ filters: [{ field: 'stock.is_in_stock', op: 'eq', value: false }] }))).toEqual([3]);
    // Every item has a size-92 child; size 95 only where id % 5 === 4.
    expect(search({ filters: [{ field: 'children.size', op: 'eq', value: 92 }] }).total).toBe(10);
    expect(ids(search({ filters: [{ field: 'children.size', op: 'eq', value: 95 }], sort: [{ field: 'id', order: 'asc' }] }))).toEqual([4, 9]);
    expect(ids(search({ filters: [{ field: 'children.sku', op: 'in', values: ['C7b', 'nope'] }] }))).toEqual([7]);
    expect(search({ filters: [{ field: 'tags', op: 'eq', value: 'odd' }] }).total).toBe(5);
  });

  it('filters on derived fields', () => {
    expect(ids(search({ filters: [{ field: 'all_sizes', op: 'eq', value: 95 }], sort: [{ field: 'id', order: 'asc' }] }))).toEqual([4, 9]);
  });

  it('range with each bound, ISO timestamps, and anyOf', () => {
    const f = (r: object) => search({ filters: [{ field: 'price', op: 'range', ...r }] }).total;
    expect(f({ gte: 300, lte: 500 })).toBe(3);
    expect(f({ gt: 300, lt: 500 })).toBe(1);
    expect(f({ gte: 900 })).toBe(2);
    expect(f({ anyOf: [{ lt: 200 }, { gte: 900 }] })).toBe(3);
    expect(f({ gte: 200, anyOf: [{ lt: 300 }, { gte: 1000 }] })).toBe(2);
    const jan5 = Date.parse('2026-01-05T00:00:00.000Z');
    expect(search({ filters: [{ field: 'updated_at', op: 'range', gte: jan5 }] }).total).toBe(6);
  });

  it('a missing field matches nothing, and filters AND together', () => {
    expect(search({ filters: [{ field: 'nope', op: 'eq', value: 1 }] }).total).toBe(0);
    const r = search({
      filters: [
        { field: 'brand_id', op: 'in', values: [100, 101] },
        { field: 'flag', op: 'eq', value: true },
      ],
      sort: [{ field: 'id', order: 'asc' }],
    });
    expect(ids(r)).toEqual([4, 6, 10]);
  });
});

describe('sorting and paging', () => {
  it('uses the default sort without text and relevance with text', () => {
    expect(ids(search({}))).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const idx = build([item(1, { name: 'kush' }), item(2, { name: 'kush kush kush' }), item(3, { name: 'other' })]);
    expect(ids(idx.search({ text: 'kush' }))[0]).toBe(2);
  });

  it('sorts by several keys, missing values last, ties by id', () => {
    const idx = build([item(1, { brand_id: 5 }), item(2, { brand_id: null }), item(3, { brand_id: 5 }), item(4, { brand_id: 1 })]);
    expect(ids(idx.search({ sort: [{ field: 'brand_id', order: 'asc' }] }))).toEqual([4, 1, 3, 2]);
    expect(ids(idx.search({ sort: [{ field: 'brand_id', order: 'desc' }] }))).toEqual([1, 3, 4, 2]);
    expect(ids(idx.search({ sort: [{ field: 'brand_id', order: 'desc' }, { field: 'price', order: 'desc' }] }))).toEqual([3, 1, 4, 2]);
  });

  it('sorts arrays by their smallest (asc) or largest (desc) element', () => {
    const idx = build([item(1, { tags: ['b', 'z'] }), item(2, { tags: ['a'] }), item(3, { tags: ['c'] })]);
    expect(ids(idx.search({ sort: [{ field: 'tags', order: 'asc' }] }))).toEqual([2, 1, 3]);
    expect(ids(idx.search({ sort: [{ field: 'tags', order: 'desc' }] }))).toEqual([1, 3, 2]);
  });

  it('normalises start and size (spec §5)', () => {
    const r = search({ start: -5, size: 0 });
    expect([r.start, r.perPage, r.items.length]).toEqual([0, 50, 10]);
    const page = search({ start: 8, size: 5, sort: [{ field: 'id', order: 'asc' }] });
    expect([page.start, page.perPage, page.total, ids(page)]).toEqual([8, 5, 10, [9, 10]]);
    expect(search({ start: 20 }).items).toEqual([]);
    expect(search({ size: -1 }).perPage).toBe(50);
  });
});

describe('aggregations', () => {
  it('terms: most frequent first, then key; size caps the buckets', () => {
    const r = search({ aggregations: [{ name: 'brands', type: 'terms', field: 'brand_id' }, { name: 'top', type: 'terms', field: 'brand_id', size: 1 }] });
    expect(r.aggregations.brands.buckets).toEqual([
      { key: 101, doc_count: 4 },
      { key: 100, doc_count: 3 },
      { key: 102, doc_count: 3 },
    ]);
    expect(r.aggregations.top.buckets).toEqual([{ key: 101, doc_count: 4 }]);
  });

  it('terms over an array path count a document once per distinct value', () => {
    const r = search({ aggregations: [{ name: 'sizes', type: 'terms', field: 'children.size' }] });
    expect(r.aggregations.sizes.buckets[0]).toEqual({ key: 92, doc_count: 10 });
    expect(r.aggregations.sizes.buckets.reduce((s, b) => s + b.doc_count, 0)).toBe(10 + 8); // id%5 = 1 gives 92 twice
  });

  it('range buckets: from inclusive, to exclusive, zero counts kept', () => {
    const r = search({
      aggregations: [{ name: 'p', type: 'range', field: 'price', ranges: [{ key: 'lo', to: 300 }, { key: 'mid', from: 300, to: 600 }, { key: 'none', from: 5000 }] }],
    });
    expect(r.aggregations.p.buckets).toEqual([
      { key: 'lo', doc_count: 2, to: 300 },
      { key: 'mid', doc_count: 3, from: 300, to: 600 },
      { key: 'none', doc_count: 0, from: 5000 },
    ]);
  });

  it('disjunctive ignores the filters on its own field only', () => {
    const q: SearchQuery = {
      filters: [
        { field: 'brand_id', op: 'eq', value: 101 },
        { field: 'flag', op: 'eq', value: true },
      ],
      aggregations: [
        { name: 'or', type: 'terms', field: 'brand_id', disjunctive: true },
        { name: 'and', type: 'terms', field: 'brand_id' },
      ],
    };
    const r = search(q);
    expect(r.total).toBe(2); // 4 and 10
    expect(r.aggregations.and.buckets).toEqual([{ key: 101, doc_count: 2 }]);
    // flag=true still applies: even ids 2,4,6,8,10 → brands 102,101,100,102,101
    expect(r.aggregations.or.buckets).toEqual([
      { key: 101, doc_count: 2 },
      { key: 102, doc_count: 2 },
      { key: 100, doc_count: 1 },
    ]);
  });
});

describe('projection, lookups and updates', () => {
  it('includeFields / excludeFields project copies, stored documents untouched', () => {
    const idx = build();
    const r = idx.search({ includeFields: ['id', 'name', 'missing'], size: 1 });
    expect(r.items[0]).toEqual({ id: 10, name: 'Item 10' });
    const ex = idx.search({ excludeFields: ['children', 'tags', 'stock'], size: 1 });
    expect(Object.keys(ex.items[0]).sort()).toEqual(['brand_id', 'flag', 'id', 'name', 'price', 'updated_at']);
    const both = idx.search({ includeFields: ['id', 'name'], excludeFields: ['name'], size: 1 });
    expect(both.items[0]).toEqual({ id: 10 });
    expect(idx.get(10)?.children).toHaveLength(2);
  });

  it('upsert and remove are visible to the next search, text included', () => {
    const idx = build();
    idx.upsert(item(11, { name: 'Gelato', brand_id: 7 }));
    expect(idx.size).toBe(11);
    expect(ids(idx.search({ text: 'gelato' }))).toEqual([11]);
    expect(idx.search({ aggregations: [{ name: 'b', type: 'terms', field: 'brand_id' }] }).aggregations.b.buckets).toContainEqual({ key: 7, doc_count: 1 });
    idx.upsert(item(11, { name: 'Runtz', brand_id: 8 }));
    expect(idx.size).toBe(11);
    expect(idx.search({ text: 'gelato' }).total).toBe(0);
    expect(ids(idx.search({ text: 'runtz' }))).toEqual([11]);
    expect(idx.search({ filters: [{ field: 'brand_id', op: 'eq', value: 7 }] }).total).toBe(0);
    idx.remove(11);
    idx.remove(999);
    expect(idx.size).toBe(10);
    expect(idx.get(11)).toBeUndefined();
    expect(idx.search({ text: 'runtz' }).total).toBe(0);
    expect(idx.search({ filters: [{ field: 'brand_id', op: 'eq', value: 8 }] }).total).toBe(0);
  });

  it('grows past its initial capacity with columns already built', () => {
    const idx = build();
    idx.search({ filters: [{ field: 'flag', op: 'eq', value: true }] }); // builds the column index
    for (let id = 11; id <= 300; id++) idx.upsert(item(id));
    expect(idx.search({ filters: [{ field: 'flag', op: 'eq', value: true }] }).total).toBe(150);
    // ("item" alone is in every document: BM25 gives it no weight, so ask for a number too.)
    expect(ids(idx.search({ text: 'item 299', size: 1 }))).toEqual([299]);
  });

  it('finds ids given as strings', () => {
    const idx = build();
    expect(idx.get('4')?.id).toBe(4);
    idx.remove('4');
    expect(idx.get(4)).toBeUndefined();
  });

  it('replaceAll drops what was there', () => {
    const idx = build();
    idx.replaceAll([item(42, { name: 'Solo' })]);
    expect(idx.size).toBe(1);
    expect(idx.search({ text: 'item 1' }).total).toBe(0);
    expect(idx.search({ text: 'solo' }).total).toBe(1);
  });
});

describe('computed fields', () => {
  const from = Date.parse('2026-03-01T00:00:00Z');
  const to = Date.parse('2026-03-10T00:00:00Z');
  const items = [item(1, { price: 1000, sale_from: from, sale_to: to }), item(2, { price: 800 })];
  const before = new Date(from - 1);
  const during = new Date(from + 1000);
  const after = new Date(to);

  it('are judged at the query time, on the same index', () => {
    const idx = build(items);
    const onSale = (now: Date) => ids(idx.search({ filters: [{ field: 'on_sale', op: 'eq', value: true }] }, { now }));
    const byPrice = (now: Date) => ids(idx.search({ sort: [{ field: 'live_price', order: 'asc' }] }, { now }));
    expect(onSale(before)).toEqual([]);
    expect(byPrice(before)).toEqual([2, 1]);
    expect(onSale(during)).toEqual([1]);
    expect(byPrice(during)).toEqual([1, 2]);
    expect(onSale(after)).toEqual([]);
    expect(byPrice(after)).toEqual([2, 1]);
    expect(onSale(during)).toEqual([1]);
  });

  it('stay right after an upsert that adds an earlier window edge', () => {
    const idx = build(items);
    expect(idx.search({ filters: [{ field: 'on_sale', op: 'eq', value: true }] }, { now: during }).total).toBe(1);
    idx.upsert(item(3, { price: 900, sale_from: from + 500, sale_to: from + 2000 }));
    const agg = (now: Date) => idx.search({ aggregations: [{ name: 's', type: 'terms', field: 'on_sale' }] }, { now }).aggregations.s.buckets;
    expect(agg(during)).toEqual([{ key: 1, doc_count: 2 }, { key: 0, doc_count: 1 }]);
    expect(agg(new Date(from + 2000))).toEqual([{ key: 0, doc_count: 2 }, { key: 1, doc_count: 1 }]);
  });
});

describe('invalid queries', () => {
  const idx = build();
  const bad: unknown[] = [
    { filters: {} },
    { filters: [{ field: '', op: 'eq', value: 1 }] },
    { filters: [{ field: 'x', op: 'like', value: 1 }] },
    { filters: [{ field: 'x', op: 'eq', value: { a: 1 } }] },
    { filters: [{ field: 'x', op: 'in', values: 'a' }] },
    { filters: [{ field: 'x', op: 'range', gte: '5' }] },
    { filters: [{ field: 'x', op: 'range', anyOf: [{ lt: Number.NaN }] }] },
    { sort: [{ field: 'x', order: 'up' }] },
    { aggregations: [{ name: 'a', type: 'avg', field: 'x' }] },
    { aggregations: [{ name: 'a', type: 'terms', field: 'x', size: 0 }] },
    { aggregations: [{ name: 'a', type: 'range', field: 'x', ranges: [{ key: 'k', from: 'a' }] }] },
    { includeFields: 'id' },
    { text: 42 },
  ];
  it.each(bad.map((q) => [JSON.stringify(q), q]))('%s → InvalidQueryError', (_, q) => {
    expect(() => idx.search(q as SearchQuery)).toThrow(InvalidQueryError);
  });

  it('refuses text on an index without text fields, and documents without ids', () => {
    const plain = createIndex<{ id: number }>({ name: 'plain' });
    plain.replaceAll([{ id: 1 }]);
    expect(() => plain.search({ text: 'abc' })).toThrow(InvalidQueryError);
    expect(() => plain.upsert({} as { id: number })).toThrow(InvalidQueryError);
  });
});

describe('packed postings (issue 15: compacted after replaceAll)', () => {
  // Many documents share "common" (a posting long enough to be packed into an Int32Array), each
  // has a rare word of its own (a short posting, only trimmed): upserts and removals after the
  // bulk load must reach both kinds, and every answer must equal a fresh index's over the result.
  const textSchema: IndexSchema<Item> = { name: 'item', text: { name: 2, tags: 1 } };
  const doc = (id: number, extra = '') => item(id, { name: `common word${id} ${extra}`.trim(), tags: [`tag${id % 4}`] });
  const queries: SearchQuery[] = ['common', 'word7', 'word12 common', 'fresh', 'tag1', 'comon', 'wor'].map((text) => ({ text, size: 100 }));
  const answers = (idx: ReturnType<typeof createIndex<Item>>) =>
    queries.map((q) => {
      const r = idx.search(q);
      return { ids: r.items.map((d) => d.id), total: r.total, suggestions: r.suggestions };
    });

  it('upserts and removals after the bulk load answer as a fresh index over the same documents', () => {
    const packed = createIndex(textSchema);
    packed.replaceAll(Array.from({ length: 40 }, (_, i) => doc(i + 1)));
    const final = new Map(Array.from({ length: 40 }, (_, i) => [i + 1, doc(i + 1)]));
    for (const id of [3, 7, 20]) {
      packed.remove(id);
      final.delete(id);
    }
    for (const d of [doc(12, 'fresh'), doc(41, 'fresh'), doc(7, 'back')]) {
      packed.upsert(d);
      final.set(d.id, d);
    }
    const fresh = createIndex(textSchema);
    fresh.replaceAll([...final.values()].sort((a, b) => a.id - b.id));
    expect(answers(packed).map((a) => a.total)).toEqual(answers(fresh).map((a) => a.total));
    expect(answers(packed).map((a) => [...a.ids].sort((x, y) => x - y))).toEqual(answers(fresh).map((a) => [...a.ids].sort((x, y) => x - y)));
    expect(answers(packed)[0].total).toBe(39);
    expect(answers(packed)[3].ids).toEqual(expect.arrayContaining([12, 41]));
  });
});

describe('upserts that keep the text (issue 15: a stock change per order, on every node)', () => {
  const textSchema: IndexSchema<Item> = {
    name: 'item',
    text: { name: 2, tags: 1, 'children.sku': 1 },
    defaultSort: [{ field: 'price', order: 'asc' }],
  };
  const doc = (id: number) => item(id, { name: `common word${id}`, tags: [`tag${id % 4}`] });
  const queries: SearchQuery[] = [
    { text: 'common', size: 100 },
    { text: 'word7', size: 100 },
    { text: 'common', size: 100, filters: [{ field: 'stock.is_in_stock', op: 'eq', value: true }] },
    { size: 100, filters: [{ field: 'stock.is_in_stock', op: 'eq', value: false }] },
    { size: 100, sort: [{ field: 'price', order: 'desc' }] },
    { text: 'tag2 c12a', size: 100 },
  ];
  const answers = (idx: ReturnType<typeof createIndex<Item>>) =>
    queries.map((q) => {
      const r = idx.search(q);
      return { ids: r.items.map((d) => d.id), total: r.total };
    });

  it('change stock and price in place and answer as a fresh index over the same documents, in the same order', () => {
    const live = createIndex(textSchema);
    live.replaceAll(Array.from({ length: 40 }, (_, i) => doc(i + 1)));
    const final = new Map(Array.from({ length: 40 }, (_, i) => [i + 1, doc(i + 1)]));
    for (const [id, over] of [
      [5, { stock: { is_in_stock: false } }],
      [12, { price: 1 }],
      [7, { price: 99_999, stock: { is_in_stock: false } }],
      [5, { stock: { is_in_stock: true }, price: 7 }],
    ] as const) {
      const next = { ...final.get(id)!, ...over };
      live.upsert(next);
      final.set(id, next);
    }
    const fresh = createIndex(textSchema);
    fresh.replaceAll([...final.values()]);
    expect(answers(live)).toEqual(answers(fresh));
    expect(answers(live)[3].ids).toEqual([3, 7]);
    expect(answers(live)[4].ids[0]).toBe(7);
    expect(live.get(12)!.price).toBe(1);
  });

  it('still reindexes the text when it changes, a child sku included', () => {
    const live = createIndex(textSchema);
    live.replaceAll(Array.from({ length: 20 }, (_, i) => doc(i + 1)));
    live.upsert({ ...doc(4), name: 'renamed thing' });
    live.upsert({ ...doc(9), children: [{ size: 92, sku: 'ZZTOP' }] });
    expect(ids(live.search({ text: 'renamed' }))).toEqual([4]);
    expect(ids(live.search({ text: 'word4', size: 100 }))).not.toContain(4);
    expect(ids(live.search({ text: 'zztop' }))).toEqual([9]);
    expect(ids(live.search({ text: 'c9a', size: 100 }))).not.toContain(9);
  });
});
