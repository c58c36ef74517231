import type { SortSpec } from '../types.ts';
import type { Id } from './values.ts';

/**
 * Values that depend on the time a query is judged at (a special price inside its window). The
 * document is prepared once at index time (dates parsed to epoch ms); at query time each field is
 * read from the prepared form. `changesAt` lists the instants at which the document's values may
 * change: between two of them they are constant, so a document is recomputed only when a query's
 * `now` leaves its current interval, and a query inside every document's interval recomputes none.
 */
export interface ComputedFields<T, P> {
  prepare(doc: T): P;
  /** Epoch ms where a value may change: constant on [t_i, t_{i+1}). */
  changesAt(prepared: P): readonly number[];
  /** Each field from the prepared form, `now` and the document itself (what `prepare` need not copy). */
  fields: Readonly<Record<string, (prepared: P, nowMs: number, doc: T) => unknown>>;
}

export interface IndexSchema<T, P = unknown> {
  /** For messages: `product`, `category`, … */
  name: string;
  /** The document id; default `doc.id`. */
  id?: (doc: T) => Id;
  /** Text fields (dotted paths) and their boosts; an index without text fields refuses `text`. */
  text?: Readonly<Record<string, number>>;
  /** The order when the query has no sort and no text; ties always fall back to id ascending. */
  defaultSort?: readonly SortSpec[];
  /** Fields computed from the document alone at index time (`sizes`), addressable like fields. */
  derived?: Readonly<Record<string, (doc: T) => unknown>>;
  /** Fields computed at query time from the document and `now` (`final_price`, `sale`). */
  computed?: ComputedFields<T, P>;
  /** Text tuning; defaults follow spec §9 (see DEFAULT_TEXT_OPTIONS). */
  textOptions?: Partial<TextOptions>;
}

export interface TextOptions {
  /** Results scoring below this are dropped (spec §9: 0.02). */
  minScore: number;
  /** Results scoring below this share of the best match are dropped: a typo search ("blu drem")
   *  answers what was meant, not every product one far-fetched correction reaches. Relative, so a
   *  query with no close match still answers its nearest products. 0 turns it off. */
  minRelativeScore: number;
  /** Max edit distance for fuzzy terms (spec §9: 2). */
  fuzziness: number;
  /** Shorter query terms match exactly (a 2-letter term with distance 2 would match anything). */
  fuzzyMinLength: number;
  /** Shorter query terms get one edit at most: two edits change half of "blu" ("bag") or "drem"
   *  ("does"), a different word rather than a typo (Elasticsearch's AUTO fuzziness has the same
   *  idea). The spec's fuzziness 2 applies from this length on ("deesl" → "diesel"). */
  fullFuzzinessMinLength: number;
  /** Share of query terms a document must match, floored, at least 1 (spec §9: 75%). */
  minimumShouldMatch: number;
  /** A fuzzy expansion at the full edit distance onto a term found in more than this share of
   *  documents is ignored ("lava" → "lab", "acdc" → "and"): such words carry no ranking weight
   *  (IDF ≈ 0) but would let one far-fetched correction admit every product. VSF1 had
   *  cutoff_frequency 0.01 for the same reason. */
  commonTermCutoff: number;
  /** …and in at least this many documents: in a small index no word is "common". */
  commonTermMinDocs: number;
  /** Cap on terms a fuzzy or prefix term expands to, like Elasticsearch's max_expansions. */
  maxExpansions: number;
  /** Weights of prefix and fuzzy expansions against an exact match (1), scaled down with the
   *  length of the completion / the edit distance as MiniSearch does. */
  prefixWeight: number;
  fuzzyWeight: number;
}
