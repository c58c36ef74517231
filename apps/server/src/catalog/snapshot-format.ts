/**
 * The compact offline snapshot (issue 15, format version 2): the same documents as version 1
 * (`CatalogSnapshot`, ./offline-services.ts) laid out as COLUMNS with ONE STRING TABLE, so a store
 * of 40,000 products is small on the wire and in IndexedDB, and decodes into objects that share
 * their repeated strings (a brand, a category name, a unit, an attribute code is one string in
 * memory, not one per product).
 *
 * Lossless on purpose: every field of every document survives the round trip (a test checks the
 * whole content with toEqual, prices to the cent), so the offline pages and offline search run the
 * server's own catalogue code on exactly what the server holds — no list of "fields the offline
 * pages use" to keep in step with the pages.
 *
 * How a list of documents is encoded (`encodeColumn`), by what its values are:
 *  - strings (or null)           { t: 's', v: [index in the string table | -1 for null] }
 *  - numbers (or null)           { t: 'n', v: [number | null] }           (integers: cents stay exact)
 *  - booleans (or null)          { t: 'b', v: [1 | 0 | null] }
 *  - arrays (or null)            { t: 'a', len: [length | -1], items: <column of every element, concatenated> }
 *  - objects (or null)           { t: 'o', nul: [row indices that are null], keys, cols: [one column per key, absent keys listed in `abs`] }
 *  - anything else (mixed)       { t: 'j', v: [the values as they are] }
 * A property that is absent (or undefined, which JSON drops anyway) stays absent.
 *
 * Browser-safe (no import at run time): the offline worker decodes it.
 */
import type { CatalogSnapshot } from './offline-services.ts';

export const COMPACT_SNAPSHOT_VERSION = 2;

export type Column =
  | { t: 's'; v: number[] }
  | { t: 'n'; v: (number | null)[] }
  | { t: 'b'; v: (0 | 1 | null)[] }
  | { t: 'a'; len: number[]; items: Column }
  | { t: 'o'; n: number; nul?: number[]; keys: string[]; cols: Column[]; abs?: (number[] | 0)[] }
  | { t: 'j'; v: unknown[] };

export interface CompactSnapshot {
  version: typeof COMPACT_SNAPSHOT_VERSION;
  generatedAt: string;
  /** Every distinct string of the encoded documents, once. */
  strings: string[];
  /** `{ store, attributes, content }` of the version-1 snapshot as one object column of one row. */
  body: Column;
  /** Issue 28: the store's deals as they are (a few records: no columns). */
  deals?: CatalogSnapshot['deals'];
  /** The store's named tax lines (a few records: no columns). */
  tax?: CatalogSnapshot['tax'];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class StringTable {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  of(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.index.set(s, i);
    }
    return i;
  }
}

function encodeColumn(values: readonly unknown[], strings: StringTable): Column {
  let kind: 's' | 'n' | 'b' | 'a' | 'o' | null = null;
  for (const v of values) {
    if (v === null) continue;
    const k =
      typeof v === 'string'
        ? 's'
        : typeof v === 'number' && Number.isFinite(v)
          ? 'n'
          : typeof v === 'boolean'
            ? 'b'
            : Array.isArray(v)
              ? 'a'
              : isPlainObject(v)
                ? 'o'
                : 'j';
    if (k === 'j' || (kind !== null && kind !== k)) return { t: 'j', v: values.map((x) => (x === undefined ? null : x)) };
    kind = k;
  }
  switch (kind) {
    case null:
    case 'n':
      return { t: 'n', v: values as (number | null)[] };
    case 's':
      return { t: 's', v: values.map((v) => (v === null ? -1 : strings.of(v as string))) };
    case 'b':
      return { t: 'b', v: values.map((v) => (v === null ? null : v ? 1 : 0)) };
    case 'a': {
      const len: number[] = [];
      const items: unknown[] = [];
      for (const v of values) {
        if (v === null) len.push(-1);
        else {
          const arr = v as unknown[];
          len.push(arr.length);
          for (const x of arr) items.push(x === undefined ? null : x);
        }
      }
      return { t: 'a', len, items: encodeColumn(items, strings) };
    }
    case 'o': {
      const rows = values as (Record<string, unknown> | null)[];
      const keys: string[] = [];
      const seen = new Set<string>();
      const nul: number[] = [];
      rows.forEach((row, i) => {
        if (row === null) nul.push(i);
        else for (const k of Object.keys(row)) if (!seen.has(k) && row[k] !== undefined) (seen.add(k), keys.push(k));
      });
      const cols: Column[] = [];
      const abs: (number[] | 0)[] = [];
      let anyAbsent = false;
      for (const key of keys) {
        const present: unknown[] = [];
        const absent: number[] = [];
        rows.forEach((row, i) => {
          if (row === null) return;
          const v = row[key];
          if (v === undefined) absent.push(i);
          else present.push(v);
        });
        cols.push(encodeColumn(present, strings));
        abs.push(absent.length ? absent : 0);
        if (absent.length) anyAbsent = true;
      }
      const column: Column = { t: 'o', n: rows.length, keys, cols };
      if (nul.length) column.nul = nul;
      if (anyAbsent) column.abs = abs;
      return column;
    }
  }
}

/** What a column is replaced by once decoded, when the caller lets the decoder release the compact form. */
const RELEASED: Column = { t: 'n', v: [] };

function decodeColumn(column: Column, n: number, strings: readonly string[], release: boolean): unknown[] {
  switch (column.t) {
    case 's':
      return column.v.map((i) => (i < 0 ? null : strings[i]));
    case 'n':
    case 'j':
      return column.v;
    case 'b':
      return column.v.map((b) => (b === null ? null : b === 1));
    case 'a': {
      const total = column.len.reduce((sum, l) => sum + Math.max(l, 0), 0);
      const items = decodeColumn(column.items, total, strings, release);
      if (release) column.items = RELEASED;
      const out: unknown[] = new Array(column.len.length);
      let at = 0;
      column.len.forEach((l, i) => {
        if (l < 0) out[i] = null;
        else {
          out[i] = items.slice(at, at + l);
          at += l;
        }
      });
      return out;
    }
    case 'o': {
      // Each row starts as a copy of a template holding the row's keys in order (made once per set of
      // keys by JSON.parse, so it has fast properties), then gets its values. Adding dozens of keys
      // one by one to `{}` (computed names) would turn every product into a dictionary-mode object:
      // several times the memory (issue 15: the offline worker held ~400 MB of documents at 40,000).
      const rows: (Record<string, unknown> | null)[] = new Array(column.n);
      const nulls = new Set(column.nul ?? []);
      const absent = column.keys.map((_, k) => (column.abs?.[k] ? new Set(column.abs[k] as number[]) : null));
      const templates = new Map<string, Record<string, unknown>>();
      const templateOf = (present: string[], signature: string) => {
        let template = templates.get(signature);
        if (!template) {
          template = JSON.parse(`{${present.map((key) => `${JSON.stringify(key)}:null`).join(',')}}`) as Record<string, unknown>;
          templates.set(signature, template);
        }
        return template;
      };
      const all = templateOf(column.keys, '');
      for (let i = 0; i < column.n; i++) {
        if (nulls.has(i)) rows[i] = null;
        else if (!column.abs) rows[i] = { ...all };
        else {
          const present: string[] = [];
          let signature = '';
          column.keys.forEach((key, k) => {
            if (absent[k]?.has(i)) signature += `${k},`;
            else present.push(key);
          });
          rows[i] = { ...templateOf(present, signature) };
        }
      }
      column.keys.forEach((key, k) => {
        const child = column.cols[k];
        const count = column.n - nulls.size - (absent[k]?.size ?? 0);
        // Strings, numbers and booleans go straight from the column into the rows (no array in between).
        const scalars = child.t === 's' || child.t === 'n' || child.t === 'b' || child.t === 'j';
        const values = scalars ? child.v : decodeColumn(child, count, strings, release);
        let at = 0;
        for (let i = 0; i < column.n; i++) {
          const row = rows[i];
          if (row === null || absent[k]?.has(i)) continue;
          const v = values[at++];
          row[key] =
            child.t === 's' ? ((v as number) < 0 ? null : strings[v as number]) : child.t === 'b' ? (v === null ? null : v === 1) : v;
        }
        if (release) column.cols[k] = RELEASED;
      });
      return rows;
    }
  }
  void n;
}

/** The compact form of a version-1 snapshot. */
export function encodeSnapshot(snapshot: Omit<CatalogSnapshot, 'version'>): CompactSnapshot {
  const strings = new StringTable();
  const body = encodeColumn([{ store: snapshot.store, attributes: snapshot.attributes, content: snapshot.content }], strings);
  return { version: COMPACT_SNAPSHOT_VERSION, generatedAt: snapshot.generatedAt, strings: strings.list, body, ...(snapshot.deals ? { deals: snapshot.deals } : {}), ...(snapshot.tax ? { tax: snapshot.tax } : {}) };
}

/**
 * The version-1 snapshot back, every document as the server had it. `release`: the compact form is
 * only a step (the offline worker): each column is dropped from it as soon as its values are in the
 * documents, so the columns and the documents are never both whole in memory. The compact object
 * is then left emptied.
 */
export function decodeSnapshot(compact: CompactSnapshot, { release = false }: { release?: boolean } = {}): CatalogSnapshot {
  if (compact?.version !== COMPACT_SNAPSHOT_VERSION) throw new Error(`Unknown offline snapshot format ${String(compact?.version)}`);
  const [body] = decodeColumn(compact.body, 1, compact.strings, release) as Pick<CatalogSnapshot, 'store' | 'attributes' | 'content'>[];
  return { version: 1, generatedAt: compact.generatedAt, ...body, ...(compact.deals ? { deals: compact.deals } : {}), ...(compact.tax ? { tax: compact.tax } : {}) };
}
