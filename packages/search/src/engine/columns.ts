/**
 * Column store: the values of one field path for every slot, built the first time a query
 * filters, aggregates or sorts on the path and kept up to date by upsert/remove. Keyword lookups
 * use an inverted index from key to bitset (few distinct keys: brand, size, flags) or to a slot
 * list (many: sku, url_path), so an `in` filter or a terms bucket costs word operations, not a scan.
 */
import { type Bits, andCount, forEachBit, hasBit, orInto, setBit, clearBit } from './bitset.ts';
import type { DocStore } from './doc-store.ts';
import type { IndexSchema } from './schema.ts';
import { type Key, splitPath, toKey, toNumber, valuesAt } from './values.ts';

/** Above this many distinct keys a bitset per key costs more memory than it saves time. */
const BITSET_MAX_KEYS = 512;

type KeyIndex = { kind: 'bits'; words: number; map: Map<Key, Bits> } | { kind: 'lists'; map: Map<Key, number[]> };

function eachKey(value: Key | Key[] | undefined, fn: (k: Key) => void): void {
  if (value === undefined) return;
  if (Array.isArray(value)) value.forEach(fn);
  else fn(value);
}

export class Column {
  /** Distinct keys per slot (a scalar when there is one). */
  keys: (Key | Key[] | undefined)[] = [];
  /** Finite numbers per slot, for ranges and sorting (ISO timestamps as epoch ms). */
  nums: (number | number[] | undefined)[] = [];
  private docsPerKey = new Map<Key, number>();
  private postings = 0;
  private index: KeyIndex | null = null;

  set(slot: number, values: readonly unknown[]): void {
    this.clear(slot);
    const keys: Key[] = [];
    const nums: number[] = [];
    for (const v of values) {
      const k = toKey(v);
      if (k !== undefined && !keys.includes(k)) keys.push(k);
      const n = toNumber(v);
      if (Number.isFinite(n)) nums.push(n);
    }
    this.keys[slot] = keys.length === 0 ? undefined : keys.length === 1 ? keys[0] : keys;
    this.nums[slot] = nums.length === 0 ? undefined : nums.length === 1 ? nums[0] : nums;
    for (const k of keys) this.link(slot, k);
  }

  clear(slot: number): void {
    eachKey(this.keys[slot], (k) => this.unlink(slot, k));
    this.keys[slot] = undefined;
    this.nums[slot] = undefined;
  }

  /** Called when the slot capacity changes: bitsets of the old size are dropped, rebuilt lazily. */
  dropIndex(): void {
    this.index = null;
  }

  private link(slot: number, k: Key): void {
    this.docsPerKey.set(k, (this.docsPerKey.get(k) ?? 0) + 1);
    this.postings++;
    const index = this.index;
    if (!index) return;
    if (index.kind === 'bits') {
      let bits = index.map.get(k);
      if (!bits) index.map.set(k, (bits = new Uint32Array(index.words)));
      setBit(bits, slot);
    } else {
      const list = index.map.get(k);
      if (list) list.push(slot);
      else index.map.set(k, [slot]);
    }
  }

  private unlink(slot: number, k: Key): void {
    const n = (this.docsPerKey.get(k) ?? 1) - 1;
    if (n === 0) this.docsPerKey.delete(k);
    else this.docsPerKey.set(k, n);
    this.postings--;
    const index = this.index;
    if (!index) return;
    if (index.kind === 'bits') {
      const bits = index.map.get(k);
      if (bits) clearBit(bits, slot);
      if (n === 0) index.map.delete(k);
    } else {
      const list = index.map.get(k);
      if (!list) return;
      const at = list.indexOf(slot);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) index.map.delete(k);
    }
  }

  private ensureIndex(words: number): KeyIndex {
    if (this.index && (this.index.kind === 'lists' || this.index.words === words)) return this.index;
    const index: KeyIndex =
      this.docsPerKey.size <= BITSET_MAX_KEYS ? { kind: 'bits', words, map: new Map() } : { kind: 'lists', map: new Map() };
    this.index = index;
    this.keys.forEach((value, slot) =>
      eachKey(value, (k) => {
        if (index.kind === 'bits') {
          let bits = index.map.get(k);
          if (!bits) index.map.set(k, (bits = new Uint32Array(words)));
          setBit(bits, slot);
        } else {
          const list = index.map.get(k);
          if (list) list.push(slot);
          else index.map.set(k, [slot]);
        }
      }),
    );
    return index;
  }

  /** Slots holding any of `keys`. */
  matchBits(keys: readonly Key[], words: number): Bits {
    const out = new Uint32Array(words);
    const index = this.ensureIndex(words);
    for (const k of keys) {
      if (index.kind === 'bits') {
        const bits = index.map.get(k);
        if (bits) orInto(out, bits);
      } else {
        for (const slot of index.map.get(k) ?? []) setBit(out, slot);
      }
    }
    return out;
  }

  /** Documents per key among the slots of `mask` (`maskCount` of them); zero counts left out. */
  countKeys(mask: Bits, maskCount: number): Map<Key, number> {
    const counts = new Map<Key, number>();
    // Few masked documents: visit them (a Map update each, ~16× a word AND). Otherwise intersect
    // each key's postings with the mask.
    const intersectCost = this.docsPerKey.size <= BITSET_MAX_KEYS ? this.docsPerKey.size * mask.length : this.postings;
    if (maskCount * 16 < intersectCost) {
      forEachBit(mask, (slot) => eachKey(this.keys[slot], (k) => counts.set(k, (counts.get(k) ?? 0) + 1)));
      return counts;
    }
    const index = this.ensureIndex(mask.length);
    for (const [k, posting] of index.map) {
      let n = 0;
      if (index.kind === 'bits') n = andCount(posting as Bits, mask);
      else for (const slot of posting as number[]) if (hasBit(mask, slot)) n++;
      if (n > 0) counts.set(k, n);
    }
    return counts;
  }
}

/** All columns of one index, including derived (index-time) and computed (query-time) fields. */
export class ColumnSet<T, P> {
  private columns = new Map<string, Column>();
  private paths = new Map<string, string[]>();
  private prepared: (P | undefined)[] = [];
  // Computed values: each slot's are valid on [validFrom[slot], validUntil[slot]) (between two of
  // its own change instants); the index-wide interval is their intersection, so a query whose
  // `now` falls inside it touches nothing, and one outside reprices only the slots it left.
  private computedBuilt = false;
  private lastNow = Number.NaN;
  private validFrom: number[] = [];
  private validUntil: number[] = [];
  private allFrom = Number.POSITIVE_INFINITY;
  private allUntil = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly schema: IndexSchema<T, P>,
    private readonly store: DocStore<T>,
  ) {}

  isComputed(path: string): boolean {
    return !!this.schema.computed && Object.hasOwn(this.schema.computed.fields, path);
  }

  private extract(doc: T, path: string): unknown[] {
    let parts = this.paths.get(path);
    if (!parts) this.paths.set(path, (parts = splitPath(path)));
    const derive = this.schema.derived && Object.hasOwn(this.schema.derived, parts[0]) ? this.schema.derived[parts[0]] : undefined;
    return derive ? valuesAt(derive(doc), parts, [], 1) : valuesAt(doc, parts);
  }

  onAdd(slot: number, doc: T): void {
    const computed = this.schema.computed;
    if (computed) {
      this.prepared[slot] = computed.prepare(doc);
      if (this.computedBuilt) this.computeSlot(slot, this.lastNow);
    }
    for (const [path, column] of this.columns) if (!this.isComputed(path)) column.set(slot, this.extract(doc, path));
  }

  onRemove(slot: number): void {
    for (const column of this.columns.values()) column.clear(slot);
    this.prepared[slot] = undefined;
  }

  onGrow(): void {
    for (const column of this.columns.values()) column.dropIndex();
  }

  /** The column of `path`, built on first use; computed columns as of `nowMs`. */
  column(path: string, nowMs: number): Column {
    if (this.isComputed(path)) {
      this.ensureComputed(nowMs);
      return this.columns.get(path) as Column;
    }
    let column = this.columns.get(path);
    if (!column) {
      const built = (column = new Column());
      const { docs } = this.store;
      forEachBit(this.store.live, (slot) => built.set(slot, this.extract(docs[slot] as T, path)));
      this.columns.set(path, column);
    }
    return column;
  }

  /** Computes every slot's computed fields at `nowMs` and the interval they stay valid for. */
  private computeSlot(slot: number, nowMs: number): void {
    const computed = this.schema.computed as NonNullable<IndexSchema<T, P>['computed']>;
    const p = this.prepared[slot] as P;
    const doc = this.store.docs[slot] as T;
    for (const [name, fn] of Object.entries(computed.fields)) {
      (this.columns.get(name) as Column).set(slot, valuesAt(fn(p, nowMs, doc), []));
    }
    let from = Number.NEGATIVE_INFINITY;
    let until = Number.POSITIVE_INFINITY;
    for (const t of computed.changesAt(p)) {
      if (t <= nowMs) from = Math.max(from, t);
      else until = Math.min(until, t);
    }
    this.validFrom[slot] = from;
    this.validUntil[slot] = until;
    this.allFrom = Math.max(this.allFrom, from);
    this.allUntil = Math.min(this.allUntil, until);
  }

  /** Brings computed columns to `nowMs` (also called eagerly after a rebuild, off the query path). */
  ensureComputed(nowMs: number): void {
    const computed = this.schema.computed;
    if (!computed || (nowMs >= this.allFrom && nowMs < this.allUntil)) return;
    this.allFrom = Number.NEGATIVE_INFINITY;
    this.allUntil = Number.POSITIVE_INFINITY;
    this.lastNow = nowMs;
    if (!this.computedBuilt) {
      for (const name of Object.keys(computed.fields)) this.columns.set(name, new Column());
      this.computedBuilt = true;
      forEachBit(this.store.live, (slot) => this.computeSlot(slot, nowMs));
      return;
    }
    forEachBit(this.store.live, (slot) => {
      const from = this.validFrom[slot];
      const until = this.validUntil[slot];
      if (nowMs >= from && nowMs < until) {
        this.allFrom = Math.max(this.allFrom, from);
        this.allUntil = Math.min(this.allUntil, until);
      } else {
        this.computeSlot(slot, nowMs);
      }
    });
  }
}
