/**
 * A read-only exact-key lookup held as two arrays sorted by key, answered by binary search (issue
 * 15, memory per product). A Map of a store's 4,799 products costs ~48 bytes an entry (its hash
 * table doubles in steps, so up to half of it is room); these two arrays cost 16. A store's
 * lookups (by id, sku, child sku, url_path, and the cart's by id and sku) are rebuilt whole after
 * a change that adds, removes or re-keys a product, so nothing is lost by not being able to insert;
 * a change that keeps the keys (stock, prices, text: every order's) replaces values in place
 * (`replace`). Same answers as a Map: exact match, a number key never matches a string and back.
 */
const derivedKeys =
  <K, V>(values: V[], keyOf: (value: V) => K) =>
  (i: number): K =>
    keyOf(values[i]);
const storedKeys =
  <K>(keys: K[]) =>
  (i: number): K =>
    keys[i];

export class SortedLookup<K extends string | number, V> {
  /** Null when every value carries its own key (`keyOf`): 8 bytes an entry instead of 16. */
  private readonly keys: K[] | null;
  private readonly values: V[];
  private readonly keyAt: (i: number) => K;
  private readonly keyOf: ((value: V) => K) | undefined;

  /** `keyOf`, when given, is checked against every entry; the keys are kept only if it does not hold. */
  constructor(entries: ReadonlyMap<K, V> = new Map(), keyOf?: (value: V) => K) {
    const keys = [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const values = keys.map((k) => entries.get(k) as V);
    this.values = values;
    this.keyOf = keyOf;
    // The closures are made apart from this scope so that the derived one does not keep `keys` alive.
    if (keyOf && keys.every((k, i) => keyOf(values[i]) === k)) {
      this.keys = null;
      this.keyAt = derivedKeys(values, keyOf);
    } else {
      this.keys = keys;
      this.keyAt = storedKeys(keys);
    }
  }

  get size(): number {
    return this.values.length;
  }

  get(key: K): V | undefined {
    const at = this.indexOf(key);
    return at < 0 ? undefined : this.values[at];
  }

  /**
   * Hold `value` for a key already here, in place: the keys and their order do not change (a change
   * that keeps a product's keys needs no rebuild). False, and nothing changed, when the key is absent
   * or the value would carry another key than the one it is held by.
   */
  replace(key: K, value: V): boolean {
    const at = this.indexOf(key);
    if (at < 0 || (this.keys === null && this.keyOf!(value) !== key)) return false;
    this.values[at] = value;
    return true;
  }

  private indexOf(key: K): number {
    const n = this.values.length;
    if (n === 0 || typeof key !== typeof this.keyAt(0)) return -1;
    let lo = 0;
    let hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keyAt(mid);
      if (k === key) return mid;
      if (k < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** Values in key order. */
  valuesInKeyOrder(): readonly V[] {
    return this.values;
  }
}
