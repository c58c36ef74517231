/**
 * A small in-process cache with a time-to-live and a size bound (oldest entries evicted first).
 * Concurrent misses for one key share a single load. Keys are built with `storeKey` so that every
 * entry carries its store: two stores can never read each other's data from the cache.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const t = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > t) return hit.value;
    const value = load();
    this.entries.delete(key);
    this.entries.set(key, { value, expires: t + this.ttlMs });
    // A failed load must not be cached.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    this.evict();
    return value;
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** The live value for a key, if any, without loading. */
  peek(key: string): Promise<V> | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expires > this.now() ? hit.value : undefined;
  }

  /** Put a value that was computed elsewhere. */
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value: Promise.resolve(value), expires: this.now() + this.ttlMs });
    this.evict();
  }

  /** Drop every entry of one store (after its catalogue changed), or everything. */
  invalidate(storeId?: number): void {
    if (storeId === undefined) return this.entries.clear();
    const prefix = `${storeId}|`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

export function storeKey(storeId: number, ...parts: (string | number)[]): string {
  return [storeId, ...parts].join('|');
}
