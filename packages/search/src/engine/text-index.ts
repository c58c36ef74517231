/**
 * Full-text part of the engine. MiniSearch supplies the tokenizer and its radix tree
 * (SearchableMap), whose `fuzzyGet` / `atPrefix` do the Levenshtein and prefix term lookups; the
 * postings and the BM25+ scoring (MiniSearch's formula and weights) are kept here because
 * `MiniSearch#search` cannot tell which query term matched which document term (needed for
 * minimum_should_match and for suggestions), allocates a result object per hit and sorts every
 * hit — too slow for "text + filters + facets" under 2 ms on 10,000 products. Scores accumulate
 * in typed arrays reused across queries; the match comes back as a bitset.
 */
import MiniSearch from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { type Bits, setBit, popcount32, wordsFor } from './bitset.ts';
import { splitPath, valuesAt } from './values.ts';
import type { TextOptions } from './schema.ts';

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
const NON_ASCII = /[^\u0000-\u007f]/;
const MARKS = /\p{M}/gu;
/** More terms than this are ignored: each term is one bit of a per-document match mask. */
const MAX_QUERY_TERMS = 32;
// MiniSearch's BM25+ parameters.
const K = 1.2;
const B = 0.7;
const D = 0.5;

/** Lower-case and fold accents so "creme brulee" finds "Crème Brûlée". */
export function processTerm(term: string): string {
  const lower = term.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(MARKS, '') : lower;
}

/** The distinct terms of a text, in order. */
export function textTerms(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    const term = processTerm(token);
    if (term && !out.includes(term)) out.push(term);
    if (out.length === MAX_QUERY_TERMS) break;
  }
  return out;
}

// A posting entry packs (slot, field, term frequency) into one small integer (a V8 Smi): a third
// of the memory of three parallel arrays. Term frequency saturates in BM25 long before 63.
const FIELD_BITS = 4;
const TF_BITS = 6;
const MAX_FIELDS = 1 << FIELD_BITS;
const MAX_TF = (1 << TF_BITS) - 1;
/** 2^21 slots: two million documents per index. */
export const MAX_TEXT_SLOTS = 1 << (31 - FIELD_BITS - TF_BITS);
const pack = (slot: number, field: number, tf: number) => (slot << (FIELD_BITS + TF_BITS)) | (field << TF_BITS) | Math.min(tf, MAX_TF);

/** Postings at least this long are packed into an Int32Array by compact(); shorter ones only trimmed. */
const TYPED_MIN_ENTRIES = 16;

/**
 * One term's occurrences, one packed entry per (document, field). While an index is being built
 * (and after an upsert or remove touched the term) the entries are a growable array; compact()
 * then packs long ones into an Int32Array (4 bytes an entry instead of 8, no spare capacity) and
 * trims short ones, most of a store's terms (a sku, a rare word: one or two entries in an array
 * that push() grew to 17). Issue 15: postings were a quarter of a product index.
 */
interface Posting {
  entries: number[] | Int32Array;
  /** Documents containing the term, per field (for the IDF). */
  df: number[];
}

export interface TextMatch {
  /** Documents that matched enough terms and scored at least the minimum. */
  bits: Bits;
  /** Score by slot; meaningful only where `bits` is set, until the next search. */
  scores: Float64Array;
  suggestions: string[];
}

interface Expansion {
  term: string;
  posting: Posting;
  distance: number;
}

/** The posting's entries as a growable array (unpacking a compacted one first). */
function growable(posting: Posting): number[] {
  if (!Array.isArray(posting.entries)) posting.entries = Array.from(posting.entries);
  return posting.entries as number[];
}

/**
 * Scratch of every search, shared by all indices (searches are synchronous, so never interleaved):
 * scores, matched-term masks and stamps by slot, sized to the largest index searched, and the
 * per-field IDF and average lengths. One set per process, not per store (issue 15).
 */
const scratch = {
  acc: new Float64Array(0),
  hits: new Uint32Array(0),
  stamp: new Uint32Array(0),
  generation: 0,
  touched: [] as number[],
  idf: new Float64Array(MAX_FIELDS),
  avg: new Float64Array(MAX_FIELDS),
};

function ensureScratch(capacity: number): void {
  if (scratch.acc.length >= capacity) return;
  scratch.acc = new Float64Array(capacity);
  scratch.hits = new Uint32Array(capacity);
  scratch.stamp = new Uint32Array(capacity);
  scratch.generation = 0;
}

export class TextIndex {
  private readonly paths: string[][];
  private readonly boosts: number[];
  private readonly terms = new Map<string, Posting>();
  /** Radix trees by first letter, holding the rest of each term: fuzzy and prefix lookups walk
   *  one letter's tree only (Elasticsearch's prefix_length 1, see search()). */
  private trees = new Map<string, SearchableMap<Posting>>();
  /** Tokens per field and slot: 2 bytes a value (4 once a field holds a longer text), not 8. */
  private fieldLength: (Uint16Array | Uint32Array)[];
  private totalLength: number[];
  private fieldDocs: number[];
  private docCount = 0;
  /** One past the highest slot added (compact() trims the field lengths to it). */
  private slots = 0;

  constructor(fields: Readonly<Record<string, number>>, private readonly options: TextOptions) {
    if (Object.keys(fields).length > MAX_FIELDS) throw new RangeError(`at most ${MAX_FIELDS} text fields`);
    this.paths = Object.keys(fields).map(splitPath);
    this.boosts = Object.values(fields);
    this.fieldLength = this.paths.map(() => new Uint16Array(0));
    this.totalLength = this.paths.map(() => 0);
    this.fieldDocs = this.paths.map(() => 0);
  }

  /** Records a slot's token count in a field, growing (or widening) the field's lengths as needed. */
  private setLength(field: number, slot: number, length: number): void {
    let lengths = this.fieldLength[field];
    const wide = length > 0xffff && lengths instanceof Uint16Array;
    if (slot >= lengths.length || wide) {
      const grown = new (wide || lengths instanceof Uint32Array ? Uint32Array : Uint16Array)(Math.max(64, lengths.length * 2, slot + 1));
      grown.set(lengths);
      this.fieldLength[field] = lengths = grown;
    }
    lengths[slot] = length;
  }

  clear(): void {
    this.terms.clear();
    this.trees = new Map();
    this.fieldLength = this.paths.map(() => new Uint16Array(0));
    this.totalLength = this.paths.map(() => 0);
    this.fieldDocs = this.paths.map(() => 0);
    this.docCount = 0;
    this.slots = 0;
  }

  private tokens(doc: unknown, field: number): string[] {
    const out: string[] = [];
    for (const value of valuesAt(doc, this.paths[field])) {
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      for (const token of tokenize(String(value))) {
        const term = processTerm(token);
        if (term) out.push(term);
      }
    }
    return out;
  }

  /**
   * Whether two versions of a document index the same text (every text field holds the same values):
   * an update that only changes other fields (stock, prices) then leaves the postings as they are.
   */
  sameText(a: unknown, b: unknown): boolean {
    for (const path of this.paths) {
      const va = valuesAt(a, path);
      const vb = valuesAt(b, path);
      if (va.length !== vb.length) return false;
      for (let i = 0; i < va.length; i++) if (va[i] !== vb[i]) return false;
    }
    return true;
  }

  add(slot: number, doc: unknown): void {
    if (slot >= MAX_TEXT_SLOTS) throw new RangeError(`at most ${MAX_TEXT_SLOTS} documents per index`);
    this.docCount++;
    this.slots = Math.max(this.slots, slot + 1);
    for (let f = 0; f < this.paths.length; f++) {
      const tokens = this.tokens(doc, f);
      this.setLength(f, slot, tokens.length);
      if (tokens.length === 0) continue;
      this.totalLength[f] += tokens.length;
      this.fieldDocs[f]++;
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, freq] of tf) {
        let posting = this.terms.get(term);
        if (!posting) {
          posting = { entries: [], df: this.paths.map(() => 0) };
          this.terms.set(term, posting);
          let tree = this.trees.get(term[0]);
          if (!tree) this.trees.set(term[0], (tree = new SearchableMap<Posting>()));
          tree.set(term.slice(1), posting);
        }
        growable(posting).push(pack(slot, f, freq));
        posting.df[f]++;
      }
    }
  }

  /** `doc` must be the document that was added at `slot` (its terms locate its postings). */
  remove(slot: number, doc: unknown): void {
    this.docCount--;
    for (let f = 0; f < this.paths.length; f++) {
      const tokens = this.tokens(doc, f);
      this.setLength(f, slot, 0);
      if (tokens.length === 0) continue;
      this.totalLength[f] -= tokens.length;
      this.fieldDocs[f]--;
      for (const term of new Set(tokens)) {
        const posting = this.terms.get(term);
        if (!posting) continue;
        const entries = growable(posting);
        const key = pack(slot, f, 0) >> TF_BITS;
        let w = 0;
        for (let r = 0; r < entries.length; r++) if (entries[r] >> TF_BITS !== key) entries[w++] = entries[r];
        entries.length = w;
        posting.df[f]--;
        if (w === 0) {
          this.terms.delete(term);
          this.trees.get(term[0])?.delete(term.slice(1));
        }
      }
    }
  }

  /** Pack every posting (see Posting); called once a bulk load is done. Search results are unchanged. */
  compact(): void {
    this.fieldLength = this.fieldLength.map((lengths) => lengths.slice(0, this.slots));
    for (const posting of this.terms.values()) {
      const entries = posting.entries;
      if (!Array.isArray(entries)) continue;
      posting.entries = entries.length >= TYPED_MIN_ENTRIES ? Int32Array.from(entries) : entries.slice();
    }
  }


  /**
   * Score `terms` (from `textTerms`) against the index. Each term matches exactly, by prefix when
   * it is the last one and `prefixLast` (instant search while typing), and within the fuzziness
   * when it is long enough. Fuzzy expansions keep the first letter (Elasticsearch's prefix_length
   * 1; VSF1 used 2, which would lose "deisel" → "diesel"): with distance 2 on short words, "drem"
   * would otherwise match "from" in every description and "blu" every "fl-" sku. A document needs
   * floor(n × minimumShouldMatch) (at least 1) distinct terms — matched in any field, not per
   * field as Elasticsearch's best_fields does — and a score of at least minScore and of at least
   * minRelativeScore × the best match's.
   */
  search(terms: readonly string[], prefixLast: boolean, capacity: number): TextMatch {
    ensureScratch(capacity);
    if (++scratch.generation === 0xffffffff) {
      scratch.stamp.fill(0);
      scratch.generation = 1;
    }
    const avg = scratch.avg;
    for (let f = 0; f < this.paths.length; f++) avg[f] = this.totalLength[f] / Math.max(1, this.fieldDocs[f]);
    const touched = scratch.touched;
    touched.length = 0;
    const { acc, hits } = scratch;
    const o = this.options;
    const corrections: string[] = [];
    let corrected = false;
    terms.forEach((q, i) => {
      const bit = 1 << i;
      const exact = this.terms.get(q);
      if (exact) this.score(exact, 1, bit, touched);
      const seen = new Set<string>();
      const first = q[0];
      const tree = this.trees.get(first);
      if (tree && prefixLast && i === terms.length - 1) {
        const expansions: Expansion[] = [];
        for (const [rest, posting] of tree.atPrefix(q.slice(1))) {
          const term = first + rest;
          if (term !== q) expansions.push({ term, posting, distance: term.length - q.length });
        }
        for (const e of this.cap(expansions)) {
          seen.add(e.term);
          this.score(e.posting, (o.prefixWeight * e.term.length) / (e.term.length + 0.3 * e.distance), bit, touched);
        }
      }
      let best: string | undefined;
      if (tree && q.length >= o.fuzzyMinLength && o.fuzziness > 0) {
        const expansions: Expansion[] = [];
        const common = Math.max(this.docCount * o.commonTermCutoff, o.commonTermMinDocs - 1);
        const maxDistance = q.length >= o.fullFuzzinessMinLength ? o.fuzziness : Math.min(1, o.fuzziness);
        for (const [rest, [posting, distance]] of tree.fuzzyGet(q.slice(1), maxDistance)) {
          const term = first + rest;
          if (distance === 0 || seen.has(term)) continue;
          if (distance >= maxDistance && distance > 1 && Math.max(...posting.df) > common) continue;
          expansions.push({ term, posting, distance });
        }
        const kept = this.cap(expansions);
        best = kept[0]?.term;
        for (const e of kept) {
          this.score(e.posting, (o.fuzzyWeight * e.term.length) / (e.term.length + e.distance), bit, touched);
        }
      }
      // A term with no exact (or, while typing, prefix) match that matched fuzzily is a typo.
      const typo = !exact && seen.size === 0 && best !== undefined;
      corrections.push(typo ? (best as string) : q);
      corrected ||= typo;
    });

    const bits = new Uint32Array(wordsFor(capacity));
    const required = Math.max(1, Math.floor(terms.length * o.minimumShouldMatch));
    let best = 0;
    for (const slot of touched) {
      const matched = popcount32(hits[slot]);
      // MiniSearch's "quality": documents matching more of the query rank higher. Too few terms: -1.
      const score = matched < required ? -1 : acc[slot] * matched;
      acc[slot] = score;
      if (score > best) best = score;
    }
    const min = Math.max(o.minScore, best * o.minRelativeScore);
    for (const slot of touched) if (acc[slot] >= min) setBit(bits, slot);
    return { bits, scores: scratch.acc, suggestions: corrected ? [corrections.join(' ')] : [] };
  }

  /** Closest first (edit distance), then the most frequent, at most maxExpansions. */
  private cap(expansions: Expansion[]): Expansion[] {
    expansions.sort(
      (a, b) => a.distance - b.distance || b.posting.entries.length - a.posting.entries.length || (a.term < b.term ? -1 : 1),
    );
    return expansions.length > this.options.maxExpansions ? expansions.slice(0, this.options.maxExpansions) : expansions;
  }

  private score(posting: Posting, weight: number, bit: number, touched: number[]): void {
    const n = this.docCount;
    const { idf, avg, acc, hits, stamp } = scratch;
    for (let f = 0; f < posting.df.length; f++) idf[f] = Math.log(1 + (n - posting.df[f] + 0.5) / (posting.df[f] + 0.5));
    const entries = posting.entries;
    const gen = scratch.generation;
    for (let j = 0; j < entries.length; j++) {
      const e = entries[j];
      const slot = e >>> (FIELD_BITS + TF_BITS);
      const f = (e >>> TF_BITS) & (MAX_FIELDS - 1);
      const tf = e & MAX_TF;
      const norm = (tf * (K + 1)) / (tf + K * (1 - B + (B * this.fieldLength[f][slot]) / avg[f]));
      const add = weight * this.boosts[f] * idf[f] * (D + norm);
      if (stamp[slot] !== gen) {
        stamp[slot] = gen;
        acc[slot] = add;
        hits[slot] = bit;
        touched.push(slot);
      } else {
        acc[slot] += add;
        hits[slot] |= bit;
      }
    }
  }
}
