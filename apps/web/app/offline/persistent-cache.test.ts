import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keyvalBackend, type KeyValueBackend } from './idb-store.ts';
import {
  CACHE_QUOTA_CHECK_MS,
  createPersistentCache,
  isOverQuota,
  ORDINAL_KEEP,
  type PersistentCacheOptions,
} from './persistent-cache.ts';
import { quietLogger } from '../../test-support/offline/test-kit.ts';

const never = () => new Promise<never>(() => {});

/** A backend whose operations can be made to hang or fail. */
function controllable(base: KeyValueBackend = keyvalBackend('cache-test', 'keyval', new IDBFactory())) {
  const mode = { get: 'ok', set: 'ok', entries: 'ok' } as Record<'get' | 'set' | 'entries', 'ok' | 'hang' | 'fail'>;
  const calls = { get: 0, set: 0, entries: 0, clear: 0 };
  const wrap =
    <A extends unknown[], R>(name: 'get' | 'set' | 'entries', fn: (...a: A) => Promise<R>) =>
    (...a: A): Promise<R> => {
      calls[name]++;
      if (mode[name] === 'hang') return never();
      if (mode[name] === 'fail') return Promise.reject(new Error(`${name} failed`));
      return fn(...a);
    };
  const backend: KeyValueBackend = {
    ...base,
    get: wrap('get', base.get),
    set: wrap('set', base.set),
    entries: wrap('entries', base.entries),
    clear: () => {
      calls.clear++;
      return base.clear();
    },
  };
  return { backend, mode, calls };
}

const make = (o: PersistentCacheOptions) => createPersistentCache({ estimate: null, logger: quietLogger, ...o });

afterEach(() => {
  vi.useRealTimers();
});

describe('persistent cache (spec §4, §9)', () => {
  it('stores and reads values in IndexedDB, with their ordinal', async () => {
    const cache = make({ backend: keyvalBackend('c1', 'keyval', new IDBFactory()) });
    expect(await cache.get('missing')).toBeNull();
    expect(await cache.set('a', { n: 1 })).toBe(true);
    expect(await cache.set('b', 'kept', { ordinal: ORDINAL_KEEP })).toBe(true);
    expect(await cache.get('a')).toEqual({ n: 1 });
    const entries = await cache.entries();
    expect(entries.map(([k, e]) => [k, e.o])).toEqual([
      ['a', 0],
      ['b', 100],
    ]);
    expect(await cache.del('a')).toBe(true);
    expect(await cache.get('a')).toBeNull();
  });

  it('a read that takes over 800 ms resolves as a miss, not a hang, and is not an error', async () => {
    vi.useFakeTimers();
    const { backend, mode } = controllable();
    mode.get = 'hang';
    const cache = make({ backend });
    let value: unknown = 'pending';
    void cache.get('k').then((v) => (value = v));
    await vi.advanceTimersByTimeAsync(799);
    expect(value).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(value).toBeNull();
    expect(cache.stats).toMatchObject({ readTimeouts: 1, readErrors: 0, readsEnabled: true });
  });

  it('a write over 800 ms is a failed write; an iteration over 2000 ms is empty', async () => {
    vi.useFakeTimers();
    const { backend, mode } = controllable();
    mode.set = 'hang';
    mode.entries = 'hang';
    const cache = make({ backend });
    let written: unknown = 'pending';
    void cache.set('k', 1).then((v) => (written = v));
    await vi.advanceTimersByTimeAsync(800);
    expect(written).toBe(false);
    let listed: unknown = 'pending';
    void cache.entries().then((v) => (listed = v));
    await vi.advanceTimersByTimeAsync(1999);
    expect(listed).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(listed).toEqual([]);
    expect(cache.stats).toMatchObject({ writeTimeouts: 1, writeErrors: 0, writesEnabled: true, readTimeouts: 1 });
  });

  it('one read error switches reads off for good', async () => {
    const { backend, mode, calls } = controllable();
    const cache = make({ backend });
    await cache.set('k', 1);
    mode.get = 'fail';
    expect(await cache.get('k')).toBeNull();
    expect(cache.stats).toMatchObject({ readErrors: 1, readsEnabled: false });
    mode.get = 'ok';
    expect(await cache.get('k')).toBeNull();
    expect(calls.get).toBe(1);
    expect(await cache.entries()).toEqual([]);
  });

  it('writes are switched off after 30 write errors, not before', async () => {
    const { backend, mode, calls } = controllable();
    const cache = make({ backend });
    mode.set = 'fail';
    for (let i = 0; i < 29; i++) expect(await cache.set(`k${i}`, i)).toBe(false);
    expect(cache.stats).toMatchObject({ writeErrors: 29, writesEnabled: true });
    await cache.set('k29', 29);
    expect(cache.stats).toMatchObject({ writeErrors: 30, writesEnabled: false });
    mode.set = 'ok';
    expect(await cache.set('later', 1)).toBe(false);
    expect(calls.set).toBe(30);
    expect(cache.stats.readsEnabled).toBe(true);
  });

  it('over quota, entries with an ordinal under 100 are purged; kept ones stay', async () => {
    const usage = { usage: 10, quota: 1000 };
    const cache = make({ backend: keyvalBackend('c2', 'keyval', new IDBFactory()), estimate: async () => usage, quotaBytes: 500 });
    await cache.set('catalog', 1);
    await cache.set('search', 2, { ordinal: 50 });
    await cache.set('edge', 3, { ordinal: 99 });
    await cache.set('result', 4, { ordinal: 100 });
    await cache.set('precious', 5, { ordinal: 500 });
    expect(await cache.checkQuota()).toBe(0);
    usage.usage = 600;
    expect(await cache.checkQuota()).toBe(3);
    expect((await cache.entries()).map(([k]) => k).sort()).toEqual(['precious', 'result']);
  });

  it('checks the quota every 30 s once started, until stopped', async () => {
    vi.useFakeTimers();
    const estimate = vi.fn(async () => ({ usage: 1, quota: 100 }));
    const cache = make({ backend: controllable().backend, estimate });
    const stop = cache.startQuotaChecks();
    await vi.advanceTimersByTimeAsync(CACHE_QUOTA_CHECK_MS - 1);
    expect(estimate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(estimate).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(CACHE_QUOTA_CHECK_MS);
    expect(estimate).toHaveBeenCalledTimes(2);
    stop();
    await vi.advanceTimersByTimeAsync(CACHE_QUOTA_CHECK_MS * 3);
    expect(estimate).toHaveBeenCalledTimes(2);
  });

  it('is over quota past the configured bytes or 90% of the browser quota', () => {
    expect(isOverQuota({ usage: 101, quota: 10_000 }, 100)).toBe(true);
    expect(isOverQuota({ usage: 91, quota: 100 }, 1000)).toBe(true);
    expect(isOverQuota({ usage: 90, quota: 100 }, 1000)).toBe(false);
    expect(isOverQuota({}, 1)).toBe(false);
  });

  it('QuotaExceededError on write clears the caches and tries once more', async () => {
    const { backend, calls } = controllable();
    const cache = make({ backend });
    await cache.set('old', 'x', { ordinal: ORDINAL_KEEP });
    const realSet = backend.set;
    let refusals = 1;
    backend.set = (k, v) => (refusals-- > 0 ? Promise.reject(new DOMException('full', 'QuotaExceededError')) : realSet(k, v));
    expect(await cache.set('new', 'y')).toBe(true);
    expect(calls.clear).toBe(1);
    expect(await cache.get('old')).toBeNull();
    expect(await cache.get('new')).toBe('y');
    expect(cache.stats.writeErrors).toBe(0);
  });

  it('a second QuotaExceededError is a failed write (counted), with no further retry', async () => {
    const { backend, calls } = controllable();
    const clearOnQuotaExceeded = vi.fn(async () => {});
    const cache = make({ backend, clearOnQuotaExceeded });
    let attempts = 0;
    backend.set = () => {
      attempts++;
      return Promise.reject(new DOMException('full', 'QuotaExceededError'));
    };
    expect(await cache.set('k', 1)).toBe(false);
    expect(attempts).toBe(2);
    expect(clearOnQuotaExceeded).toHaveBeenCalledTimes(1);
    expect(calls.clear).toBe(0);
    expect(cache.stats.writeErrors).toBe(1);
  });
});
