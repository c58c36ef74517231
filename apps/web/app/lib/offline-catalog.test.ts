/**
 * The page's side of the offline catalogue (issues 6 and 15), over the real server's snapshot
 * endpoint and IndexedDB (fake-indexeddb); with no Worker in Node the engine runs in the page over
 * a MessageChannel, through the same protocol the worker uses. The copy is kept through the quota
 * purge and a reload, offline pages get a context answered from it, and a copy too large for the
 * quota is said so to the shopper, once.
 */
import type { FastifyInstance } from 'fastify';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { NOW, hostOf, loadCatalogues, seed, testApp } from '../../../server/test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../../server/test-support/databases.ts';
import { keyvalBackend } from '../offline/idb-store.ts';
import { createPersistentCache, PURGE_BELOW_ORDINAL } from '../offline/persistent-cache.ts';
import { quietLogger } from '../../test-support/offline/test-kit.ts';

describeEachDatabase('offline catalogue in the persistent cache', (getDb) => {
  let app: FastifyInstance;
  let idb: IDBFactory;
  let estimate: { usage: number; quota: number };
  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    await loadCatalogues(app);
  });
  afterAll(async () => app?.close());
  beforeEach(() => {
    idb = new IDBFactory();
    estimate = { usage: 0, quota: 1e9 };
    vi.stubGlobal('indexedDB', idb);
    vi.stubGlobal('window', { location: { href: 'http://downtown.localhost:3000/menu' } });
    vi.stubGlobal('navigator', { onLine: true, storage: { estimate: async () => estimate } });
    const session = new Map<string, string>();
    vi.stubGlobal('sessionStorage', {
      getItem: (k: string) => session.get(k) ?? null,
      setItem: (k: string, v: string) => session.set(k, v),
    });
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const url = new URL(input);
      const res = await app.inject({
        url: url.pathname + url.search,
        headers: { ...(init?.headers as Record<string, string>), host: hostOf('downtown') },
      });
      return new Response(res.statusCode === 304 ? null : new Uint8Array(res.rawPayload), {
        status: res.statusCode,
        headers: { etag: String(res.headers.etag) },
      });
    });
    vi.resetModules();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** A fresh page: the modules' memory is empty, IndexedDB is what the last page left. */
  const page = () => import('./offline-catalog.ts');
  const cacheEntries = () => keyvalBackend('verdant-cache-downtown', 'keyval', idb).entries();

  it('keeps the compact snapshot as kept entries that survive the quota purge and a reload; offline pages search it', async () => {
    const first = await page();
    expect(await first.refreshSnapshot('downtown')).toBe(true);
    const entries = (await cacheEntries()) as [string, { o: number }][];
    expect(entries.map(([k]) => k).sort()).toEqual(['verdant:downtown:catalog-snapshot', 'verdant:downtown:catalog-snapshot-data']);
    for (const [, entry] of entries) expect(entry.o).toBeGreaterThanOrEqual(PURGE_BELOW_ORDINAL);

    const purging = createPersistentCache({
      backend: keyvalBackend('verdant-cache-downtown', 'keyval', idb),
      estimate: async () => ({ usage: 2e9, quota: 1e9 }),
      logger: quietLogger,
    });
    expect(await purging.checkQuota()).toBe(0);

    vi.resetModules();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const reloaded = await page();
    expect(await reloaded.snapshotTime('downtown')).toBe(NOW.toISOString());
    const context = await reloaded.offlineContext('downtown', '');
    expect(context?.store.storeCode).toBe('downtown');
    const found = await context!.services.searchProducts(context!.store, {
      licenseType: 'recreational',
      text: 'blue drem',
      start: 0,
      size: 5,
    });
    expect(found.total).toBeGreaterThan(0);
  });

  it('a copy too large for the quota is not stored, and the shopper is told so once', async () => {
    estimate = { usage: 0, quota: 10_000 };
    const { refreshSnapshot, TOO_LARGE_TO_KEEP } = await page();
    const { notifications } = await import('../state/notifications.ts');
    expect(await refreshSnapshot('downtown')).toBe(true);
    expect(await refreshSnapshot('downtown', { force: true })).toBe(true);
    expect(await cacheEntries()).toEqual([]);
    expect(notifications.getState().items.filter((n) => n.message === TOO_LARGE_TO_KEEP)).toHaveLength(1);
  });
});
