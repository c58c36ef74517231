import { describe, expect, it } from 'vitest';
import { TtlCache, storeKey } from './ttl-cache.ts';

describe('TtlCache', () => {
  it('shares one load between concurrent misses and expires after the TTL', async () => {
    let now = 0;
    let loads = 0;
    const cache = new TtlCache<number>(1000, 10, () => now);
    const load = async () => ++loads;
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    now = 999;
    expect(await cache.get('k', load)).toBe(1);
    now = 1000;
    expect(await cache.get('k', load)).toBe(2);
  });

  it('does not keep a failed load', async () => {
    const cache = new TtlCache<number>(1000);
    await expect(cache.get('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    await Promise.resolve();
    expect(await cache.get('k', async () => 7)).toBe(7);
  });

  it('evicts the oldest entries beyond its size', async () => {
    const cache = new TtlCache<number>(1000, 2);
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => 1);
    expect(cache.size).toBe(2);
    expect(cache.peek('a')).toBeUndefined();
  });

  it('invalidates by store', async () => {
    const cache = new TtlCache<string>(1000);
    await cache.get(storeKey(1, 'home', 'medical'), async () => 'one');
    await cache.get(storeKey(12, 'home', 'medical'), async () => 'twelve');
    cache.invalidate(1);
    expect(cache.peek(storeKey(1, 'home', 'medical'))).toBeUndefined();
    expect(await cache.peek(storeKey(12, 'home', 'medical'))).toBe('twelve');
  });
});
