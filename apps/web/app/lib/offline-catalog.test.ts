/**
 * The offline catalogue snapshot lives in the store's persistent cache as a KEPT entry (issue 6):
 * the quota purge leaves it, a reload reads it back.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keyvalBackend } from '../offline/idb-store.ts';
import { createPersistentCache, PURGE_BELOW_ORDINAL } from '../offline/persistent-cache.ts';
import { quietLogger } from '../offline/test-kit.ts';

const snapshot = (generatedAt: string) => ({ generatedAt, store: { storeCode: 'downtown' }, content: { products: [{ sku: 'FL-1' }] } });
const KEY = 'verdant:downtown:catalog-snapshot';

let idb: IDBFactory;
beforeEach(() => {
  idb = new IDBFactory();
  vi.stubGlobal('indexedDB', idb);
  vi.stubGlobal('window', globalThis);
  vi.resetModules();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A fresh page: the module's memory is empty, IndexedDB is what the last page left. */
const page = () => import('./offline-catalog.ts');
const cacheEntries = () => keyvalBackend('verdant-cache-downtown', 'keyval', idb).entries();

describe('offline catalogue in the persistent cache', () => {
  it('keeps the snapshot as a kept entry that survives the quota purge and a reload', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(snapshot('2026-11-21T12:00:00.000Z')), { status: 200, headers: { etag: '"v1"', 'content-type': 'application/json' } }));
    const first = await page();
    expect(await first.refreshSnapshot('downtown')).toBe(true);
    const [[key, entry]] = (await cacheEntries()) as [string, { o: number }][];
    expect(key).toBe(KEY);
    expect(entry.o).toBeGreaterThanOrEqual(PURGE_BELOW_ORDINAL);

    const purging = createPersistentCache({ backend: keyvalBackend('verdant-cache-downtown', 'keyval', idb), estimate: async () => ({ usage: 2e9, quota: 1e9 }), logger: quietLogger });
    expect(await purging.checkQuota()).toBe(0);

    vi.resetModules();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const reloaded = await page();
    expect(await reloaded.snapshotTime('downtown')).toBe('2026-11-21T12:00:00.000Z');
  });
});
