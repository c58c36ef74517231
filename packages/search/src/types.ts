/**
 * The catalogue query model (spec §7): one shape for products, categories, attributes, tax rules,
 * CMS pages and blocks. The server answers it from each store's in-memory index; the browser
 * answers the same query offline from the cached catalogue with the same engine.
 */
export type FilterValue = string | number | boolean;

/** Filters are ANDed; `in` is an OR within its field. Fields may be dotted paths into the document
 *  (`stock.is_in_stock`, `configurable_children.sku`); an array along the path matches if any element does. */
export type Filter =
  | { field: string; op: 'eq'; value: FilterValue }
  | { field: string; op: 'in'; values: FilterValue[] }
  | {
      field: string;
      op: 'range';
      gte?: number;
      gt?: number;
      lte?: number;
      lt?: number;
      /** Added: the value must also fall in at least one of these ranges (when non-empty), so several
       *  price buckets (`0-50` and `150-`) are one filter on one field and a disjunctive aggregation
       *  on that field can leave them out. */
      anyOf?: RangeBounds[];
    };

export interface RangeBounds {
  gte?: number;
  gt?: number;
  lte?: number;
  lt?: number;
}

export interface SortSpec {
  field: string;
  order: 'asc' | 'desc';
}

export type AggregationSpec =
  | {
      name: string;
      type: 'terms';
      field: string;
      /** Most frequent first; default 300 (spec §9). */
      size?: number;
      /** Count as if this field's own filters were not applied (multi-select filter panels). */
      disjunctive?: boolean;
    }
  | {
      name: string;
      type: 'range';
      field: string;
      ranges: { key: string; from?: number; to?: number }[];
      disjunctive?: boolean;
    };

export interface SearchQuery {
  /** Free text; fewer than 3 characters (after trimming) is refused with SearchTermTooShortError. */
  text?: string;
  filters?: Filter[];
  /** Default: relevance when there is text, else the index's default sort. */
  sort?: SortSpec[];
  /** Negative becomes 0 (spec §5). */
  start?: number;
  /** 0 or less becomes 50 (spec §5). */
  size?: number;
  aggregations?: AggregationSpec[];
  /** Top-level field names to keep in returned items (all when absent). */
  includeFields?: string[];
  /** Top-level field names to drop from returned items. */
  excludeFields?: string[];
}

export interface Bucket {
  key: string | number;
  doc_count: number;
  from?: number;
  to?: number;
}

export interface SearchResult<T> {
  items: T[];
  total: number;
  start: number;
  perPage: number;
  aggregations: Record<string, { buckets: Bucket[] }>;
  /** Corrected spellings of the text's terms when they matched only fuzzily (e.g. "blue dream"). */
  suggestions: string[];
}

export interface SearchOptions {
  /** The time that special-price windows are judged at (default: now). */
  now?: Date;
}

/** One store's index of one entity type. Synchronous: it lives in memory. */
export interface SearchIndex<T> {
  readonly size: number;
  /** Replace the whole content (a rebuild from the database). */
  replaceAll(docs: readonly T[]): void;
  /** Add or replace one document by id (a change made through the API). */
  upsert(doc: T): void;
  remove(id: number | string): void;
  get(id: number | string): T | undefined;
  search(query: SearchQuery, options?: SearchOptions): SearchResult<T>;
}
