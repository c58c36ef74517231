/**
 * A read-only exact-key lookup held as two arrays sorted by key, answered by binary search (issue
 * 15, memory per product). A Map of a store's 4,799 products costs ~48 bytes an entry (its hash
 * table doubles in steps, so up to half of it is room); these two arrays cost 16. A store's
 * lookups (by id, sku, child sku, url_path, and the cart's by id and sku) are rebuilt whole after
 * a change that adds, removes or re-keys a product, so nothing is lost by not being able to insert;
 * a change that keeps the keys (stock, price, text) replaces values in place (`replace`). Same answers as a Map:
 * exact match, a number key never matches a string and back.
 */
export class SortedLookup<K extends string | number, V> {
  private readonly keys: K[];
  private readonly values: V[];

  constructor(entries: ReadonlyMap<K, V> = new Map()) {
    const keys = [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.keys = keys;
    this.values = keys.map((k) => entries.get(k) as V);
  }

  get size(): number {
    return this.keys.length;
  }

  get(key: K): V | undefined {
    const at = this.indexOf(key);
    return at < 0 ? undefined : this.values[at];
  }

  /**
   * Hold `value` for a key already here, in place (the keys and their order do not change: a change
   * that keeps a product's keys, such as a stock change, needs no rebuild). False when the key is absent.
   */
  replace(key: K, value: V): boolean {
    const at = this.indexOf(key);
    if (at < 0) return false;
    this.values[at] = value;
    return true;
  }

  private indexOf(key: K): number {
    const keys = this.keys;
    if (keys.length === 0 || typeof key !== typeof keys[0]) return -1;
    let lo = 0;
    let hi = keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid];
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
