/**
 * `createIndex(schema)`: the in-memory SearchIndex of one entity type for one store. A search is
 * text match (bitset + scores) ∧ each filter (bitset) → total, top `start + size` by the sort, and
 * aggregations over the same bitsets. Everything is synchronous and allocation-light so that it
 * answers in well under the server's 1,000 ms budget — in practice in about a millisecond.
 */
import { InvalidQueryError } from '../errors.ts';
import { SEARCH_DEFAULTS } from '../constants.ts';
import type { AggregationSpec, Bucket, SearchIndex, SearchOptions, SearchQuery, SearchResult, SortSpec } from '../types.ts';
import { type Bits, andInto, count, slotsOf } from './bitset.ts';
import { ColumnSet } from './columns.ts';
import { DocStore } from './doc-store.ts';
import { filterBits } from './filters.ts';
import { DEFAULT_TERMS_SIZE, rangeBuckets, termsBuckets } from './aggregations.ts';
import { normalizeQuery } from './query.ts';
import type { IndexSchema, TextOptions } from './schema.ts';
import { SCORE_FIELD, topSlots } from './sort.ts';
import { TextIndex, textTerms } from './text-index.ts';
import type { Id } from './values.ts';

export const DEFAULT_TEXT_OPTIONS: Readonly<TextOptions> = Object.freeze({
  minScore: SEARCH_DEFAULTS.minScore,
  minRelativeScore: SEARCH_DEFAULTS.minRelativeScore,
  fuzziness: SEARCH_DEFAULTS.fuzziness,
  fuzzyMinLength: 3,
  fullFuzzinessMinLength: 5,
  minimumShouldMatch: SEARCH_DEFAULTS.minimumShouldMatch,
  commonTermCutoff: 0.2,
  commonTermMinDocs: 100,
  maxExpansions: 50,
  // MiniSearch weighs a fuzzy match (0.45) above a prefix completion (0.375); while a shopper
  // types "blueb", completing the word is the stronger signal than correcting it to "blue".
  prefixWeight: 0.5,
  fuzzyWeight: 0.45,
});

const RELEVANCE: readonly SortSpec[] = [{ field: SCORE_FIELD, order: 'desc' }];
/** Text that ends in a separator has a finished last word: no prefix expansion for it. */
const ENDS_WITH_SEPARATOR = /[\s\p{P}]$/u;

function defaultId(doc: unknown): Id {
  return (doc as { id: Id }).id;
}

/** A shallow copy with only the requested top-level fields; the stored document is never touched. */
function project<T>(doc: T, include: readonly string[] | undefined, exclude: readonly string[] | undefined): T {
  if (!include && !exclude) return doc;
  const source = doc as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of include ?? Object.keys(source)) {
    if (Object.hasOwn(source, key) && !exclude?.includes(key)) out[key] = source[key];
  }
  return out as T;
}

export function createIndex<T, P = unknown>(schema: IndexSchema<T, P>): SearchIndex<T> {
  const getId = schema.id ?? defaultId;
  const textOptions: TextOptions = { ...DEFAULT_TEXT_OPTIONS, ...schema.textOptions };
  const hasText = !!schema.text && Object.keys(schema.text).length > 0;
  const text = hasText ? new TextIndex(schema.text ?? {}, textOptions) : null;
  let store = new DocStore<T>();
  let columns = new ColumnSet<T, P>(schema, store);

  function checkedId(doc: T): Id {
    const id = getId(doc);
    if (!((typeof id === 'number' && Number.isFinite(id)) || (typeof id === 'string' && id !== ''))) {
      throw new InvalidQueryError(`${schema.name}: a document needs a number or string id`);
    }
    return id;
  }

  function add(doc: T): void {
    const id = checkedId(doc);
    const existing = store.slotOf(id);
    if (existing !== undefined) {
      // Same slot, new content: postings and column entries of the old version go first. Postings
      // stay when the text is the same (a stock or price change: every order's, on every node).
      const reindexText = text !== null && !text.sameText(store.docs[existing], doc);
      if (reindexText) text.remove(existing, store.docs[existing]);
      columns.onRemove(existing);
      store.docs[existing] = doc;
      if (reindexText) text.add(existing, doc);
      columns.onAdd(existing, doc);
      return;
    }
    const { slot, grew } = store.allocate(id, doc);
    if (grew) columns.onGrow();
    text?.add(slot, doc);
    columns.onAdd(slot, doc);
  }

  function aggregate(
    specs: readonly AggregationSpec[],
    base: Bits,
    filters: readonly { field: string; bits: Bits }[],
    matched: Bits,
    total: number,
    nowMs: number,
  ): SearchResult<T>['aggregations'] {
    const out: Record<string, { buckets: Bucket[] }> = {};
    // Disjunctive masks by field, shared by aggregations on the same field.
    const masks = new Map<string, { mask: Bits; size: number }>();
    const maskFor = (field: string) => {
      let entry = masks.get(field);
      if (!entry) {
        const mask = base.slice();
        for (const f of filters) if (f.field !== field) andInto(mask, f.bits);
        masks.set(field, (entry = { mask, size: count(mask) }));
      }
      return entry;
    };
    for (const spec of specs) {
      const { mask, size } =
        spec.disjunctive && filters.some((f) => f.field === spec.field) ? maskFor(spec.field) : { mask: matched, size: total };
      const column = columns.column(spec.field, nowMs);
      const buckets =
        spec.type === 'terms'
          ? termsBuckets(column, mask, size, spec.size ?? DEFAULT_TERMS_SIZE)
          : rangeBuckets(column, mask, spec.ranges);
      out[spec.name] = { buckets };
    }
    return out;
  }

  return {
    get size() {
      return store.size;
    },

    replaceAll(docs) {
      store = new DocStore<T>(docs.length);
      columns = new ColumnSet<T, P>(schema, store);
      text?.clear();
      for (const doc of docs) add(doc);
      store.seal();
      text?.compact();
      // Time-dependent fields are computed now, during the rebuild, not by the first search.
      columns.ensureComputed(Date.now());
    },

    upsert(doc) {
      add(doc);
    },

    remove(id) {
      const slot = store.slotOf(id);
      if (slot === undefined) return;
      text?.remove(slot, store.docs[slot]);
      columns.onRemove(slot);
      store.release(slot);
    },

    get(id) {
      const slot = store.slotOf(id);
      return slot === undefined ? undefined : store.docs[slot];
    },

    search(query: SearchQuery, options?: SearchOptions): SearchResult<T> {
      const q = normalizeQuery(query);
      const nowMs = (options?.now ?? new Date()).getTime();
      if (!Number.isFinite(nowMs)) throw new InvalidQueryError('now must be a valid date');
      if (q.text !== undefined && !text) throw new InvalidQueryError(`${schema.name}: this index has no text fields`);

      let base: Bits;
      let scores: Float64Array | null = null;
      let suggestions: string[] = [];
      if (q.text !== undefined && text) {
        // The raw text: a trailing space (trimmed away in q.text) means the last word is finished.
        const match = text.search(textTerms(q.text), !ENDS_WITH_SEPARATOR.test(query.text as string), store.capacity);
        base = match.bits;
        scores = match.scores;
        suggestions = match.suggestions;
      } else {
        base = store.live.slice();
      }

      const filters = q.filters.map((f) => ({ field: f.field, bits: filterBits(f, columns.column(f.field, nowMs), store.live) }));
      const matched = base.slice();
      for (const f of filters) andInto(matched, f.bits);
      const total = count(matched);

      const sort = q.sort ?? (q.text !== undefined ? RELEVANCE : (schema.defaultSort ?? []));
      const end = q.start + q.size;
      const page =
        q.start >= total
          ? []
          : topSlots(slotsOf(matched), sort, end, {
              column: (field) => columns.column(field, nowMs),
              scores,
              ids: store.ids,
            }).slice(q.start, end);

      return {
        items: page.map((slot) => project(store.docs[slot] as T, query.includeFields, query.excludeFields)),
        total,
        start: q.start,
        perPage: q.size,
        aggregations: aggregate(q.aggregations, base, filters, matched, total, nowMs),
        suggestions,
      };
    },
  };
}
