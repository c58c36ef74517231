/**
 * Property tests: the engine against a naive reference (filter every document with plain loops,
 * sort with Array#sort, count buckets by hand) on random documents and queries.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AggregationSpec, Filter, SearchQuery, SortSpec } from '../types.ts';
import { createIndex } from './create-index.ts';

interface Doc {
  id: number;
  a: number | null;
  n: number;
  tags: string[];
  nested: { b: boolean }[];
}

const TAGS = ['x', 'y', 'z', 'w'];
const docArb: fc.Arbitrary<Omit<Doc, 'id'>> = fc.record({
  a: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }),
  n: fc.integer({ min: -20, max: 20 }),
  tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
  nested: fc.array(fc.record({ b: fc.boolean() }), { maxLength: 2 }),
});
const docsArb = fc.array(docArb, { maxLength: 60 }).map((ds) => ds.map((d, i) => ({ ...d, id: i + 1 })));

const filterArb: fc.Arbitrary<Filter> = fc.oneof(
  fc.integer({ min: 0, max: 4 }).map((value): Filter => ({ field: 'a', op: 'eq', value })),
  fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }).map((values): Filter => ({ field: 'tags', op: 'in', values })),
  fc.boolean().map((value): Filter => ({ field: 'nested.b', op: 'eq', value })),
  fc.tuple(fc.integer({ min: -25, max: 25 }), fc.integer({ min: 0, max: 30 })).map(([gte, w]): Filter => ({ field: 'n', op: 'range', gte, lt: gte + w })),
);
const sortArb: fc.Arbitrary<SortSpec[]> = fc.array(
  fc.record({ field: fc.constantFrom('a', 'n', 'tags'), order: fc.constantFrom('asc' as const, 'desc' as const) }),
  { maxLength: 2 },
);

function values(doc: Doc, field: string): (number | string | boolean)[] {
  if (field === 'nested.b') return doc.nested.map((x) => x.b);
  if (field === 'tags') return doc.tags;
  const v = doc[field as 'a' | 'n'];
  return v === null ? [] : [v];
}

function matches(doc: Doc, f: Filter): boolean {
  const vs = values(doc, f.field);
  if (f.op === 'eq') return vs.includes(f.value);
  if (f.op === 'in') return vs.some((v) => f.values.includes(v));
  return vs.some((v) => typeof v === 'number' && (f.gte === undefined || v >= f.gte) && (f.lt === undefined || v < f.lt));
}

function sortKey(doc: Doc, s: SortSpec): number | string | undefined {
  const vs = values(doc, s.field) as (number | string)[];
  if (vs.length === 0) return undefined;
  return [...vs].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))[s.order === 'asc' ? 0 : vs.length - 1];
}

function referenceCompare(sort: SortSpec[]) {
  return (x: Doc, y: Doc): number => {
    for (const s of sort) {
      const a = sortKey(x, s);
      const b = sortKey(y, s);
      if (a === b) continue;
      if (a === undefined) return 1;
      if (b === undefined) return -1;
      return (a < b ? -1 : 1) * (s.order === 'desc' ? -1 : 1);
    }
    return x.id - y.id;
  };
}

function build(docs: Doc[]) {
  const idx = createIndex<Doc>({ name: 'doc' });
  idx.replaceAll(docs);
  return idx;
}

const pagingArb = fc.record({ start: fc.integer({ min: -5, max: 70 }), size: fc.integer({ min: -3, max: 70 }) });

describe('engine properties', () => {
  it('filters, total, paging and sort order match the reference', () => {
    fc.assert(
      fc.property(docsArb, fc.array(filterArb, { maxLength: 3 }), sortArb, pagingArb, (docs, filters, sort, { start, size }) => {
        const idx = build(docs);
        const r = idx.search({ filters, sort, start, size });
        const expected = docs.filter((d) => filters.every((f) => matches(d, f))).sort(referenceCompare(sort));
        const s = Math.max(0, start);
        const z = size > 0 ? size : 50;
        expect(r.total).toBe(expected.length);
        expect([r.start, r.perPage]).toEqual([s, z]);
        expect(r.items.length).toBeLessThanOrEqual(z);
        expect(r.items.map((d) => d.id)).toEqual(expected.slice(s, s + z).map((d) => d.id));
      }),
      { numRuns: 300 },
    );
  });

  it('total does not depend on paging, and pages concatenate to the full list', () => {
    fc.assert(
      fc.property(docsArb, fc.array(filterArb, { maxLength: 2 }), sortArb, fc.integer({ min: 1, max: 7 }), (docs, filters, sort, size) => {
        const idx = build(docs);
        const all = idx.search({ filters, sort, size: 1000 });
        const pages: number[] = [];
        for (let start = 0; start < all.total; start += size) {
          const page = idx.search({ filters, sort, start, size });
          expect(page.total).toBe(all.total);
          pages.push(...page.items.map((d) => d.id));
        }
        expect(pages).toEqual(all.items.map((d) => d.id));
      }),
      { numRuns: 100 },
    );
  });

  it('terms and range buckets match hand counts; disjunctive drops only its own field', () => {
    const aggs: AggregationSpec[] = [
      { name: 'a', type: 'terms', field: 'a' },
      { name: 'tags', type: 'terms', field: 'tags' },
      { name: 'tagsOr', type: 'terms', field: 'tags', disjunctive: true },
      { name: 'b', type: 'terms', field: 'nested.b' },
      { name: 'n', type: 'range', field: 'n', ranges: [{ key: 'neg', to: 0 }, { key: 'small', from: 0, to: 10 }, { key: 'big', from: 10 }] },
    ];
    fc.assert(
      fc.property(docsArb, fc.array(filterArb, { maxLength: 3 }), (docs, filters) => {
        const r = build(docs).search({ filters, aggregations: aggs, size: 1 });
        const hit = docs.filter((d) => filters.every((f) => matches(d, f)));
        const counts = (ds: Doc[], field: string) => {
          const m = new Map<string | number, number>();
          for (const d of ds) for (const v of new Set(values(d, field))) {
            const k = typeof v === 'boolean' ? Number(v) : v;
            m.set(k, (m.get(k) ?? 0) + 1);
          }
          return m;
        };
        const asMap = (name: string) => new Map(r.aggregations[name].buckets.map((b) => [b.key, b.doc_count]));
        expect(asMap('a')).toEqual(counts(hit, 'a'));
        expect(asMap('tags')).toEqual(counts(hit, 'tags'));
        expect(asMap('b')).toEqual(counts(hit, 'nested.b'));
        const sum = r.aggregations.tags.buckets.reduce((s, b) => s + b.doc_count, 0);
        expect(sum).toBe(hit.reduce((s, d) => s + d.tags.length, 0));
        // Buckets: most frequent first, then key.
        const order = r.aggregations.tags.buckets.map((b) => [b.doc_count, b.key] as const);
        expect(order).toEqual([...order].sort((x, y) => y[0] - x[0] || (x[1] < y[1] ? -1 : 1)));
        const withoutTags = docs.filter((d) => filters.every((f) => f.field === 'tags' || matches(d, f)));
        expect(asMap('tagsOr')).toEqual(counts(withoutTags, 'tags'));
        expect(r.aggregations.n.buckets.map((b) => b.doc_count)).toEqual([
          hit.filter((d) => d.n < 0).length,
          hit.filter((d) => d.n >= 0 && d.n < 10).length,
          hit.filter((d) => d.n >= 10).length,
        ]);
      }),
      { numRuns: 300 },
    );
  });

  it('after any upserts and removes, answers as an index built from the final documents', () => {
    const op = fc.oneof(
      fc.tuple(fc.constant('upsert' as const), fc.integer({ min: 1, max: 80 }), docArb),
      fc.tuple(fc.constant('remove' as const), fc.integer({ min: 1, max: 80 }), fc.constant(null)),
    );
    const query: SearchQuery = {
      sort: [{ field: 'n', order: 'desc' }],
      size: 200,
      filters: [{ field: 'nested.b', op: 'eq', value: true }],
      aggregations: [{ name: 't', type: 'terms', field: 'tags' }],
    };
    fc.assert(
      fc.property(docsArb, fc.array(op, { maxLength: 40 }), (docs, ops) => {
        const idx = build(docs);
        idx.search(query); // build the columns first, so the updates must maintain them
        const model = new Map(docs.map((d) => [d.id, d]));
        for (const [kind, id, doc] of ops) {
          if (kind === 'remove') {
            idx.remove(id);
            model.delete(id);
          } else {
            const full = { ...(doc as Omit<Doc, 'id'>), id };
            idx.upsert(full);
            model.set(id, full);
          }
        }
        expect(idx.size).toBe(model.size);
        const fresh = build([...model.values()]).search(query);
        const got = idx.search(query);
        expect(got.items.map((d) => d.id)).toEqual(fresh.items.map((d) => d.id));
        expect(got.aggregations).toEqual(fresh.aggregations);
      }),
      { numRuns: 200 },
    );
  });
});
