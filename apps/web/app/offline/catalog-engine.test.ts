/**
 * The offline catalogue engine and its worker protocol (issue 15), against the real server's
 * snapshot endpoint (app.inject) and IndexedDB (fake-indexeddb): the compact copy is stored
 * compressed as a kept entry, a reload answers search from it through the protocol, a 304 keeps
 * it, a copy over quota is not written (and said so), an older storefront's record is dropped.
 */
import type { FastifyInstance } from 'fastify';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NOW, hostOf, loadCatalogues, seed, storeByCode, testApp } from '../../../server/test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../../server/test-support/databases.ts';
import { createCatalogEngine, quotaDecision, snapshotDataKey, snapshotMetaKey, cacheDatabase, SNAPSHOT_ORDINAL } from './catalog-engine.ts';
import { connectCatalog, fromWireError, serveCatalog, toWireError, type MessageEnd } from './catalog-protocol.ts';
import { keyvalBackend } from './idb-store.ts';
import { PURGE_BELOW_ORDINAL } from './persistent-cache.ts';

const URL_V2 = 'http://downtown.localhost:3000/api/catalog/snapshot?format=2';

describe('quota decision', () => {
  it('fits under the persistent cache quota or 90% of the browser quota, whichever is lower, counting the copy it replaces', () => {
    expect(quotaDecision({ usage: 10e6, quota: 1e9 }, 5e6, 0, 100e6)).toEqual({ fits: true, usageAfter: 15e6, limit: 100e6 });
    expect(quotaDecision({ usage: 98e6, quota: 1e9 }, 5e6, 0, 100e6).fits).toBe(false);
    expect(quotaDecision({ usage: 98e6, quota: 1e9 }, 5e6, 4e6, 100e6).fits).toBe(true);
    expect(quotaDecision({ usage: 1e6, quota: 10e6 }, 8.5e6, 0, 100e6)).toEqual({ fits: false, usageAfter: 9.5e6, limit: 9e6 });
    expect(quotaDecision(null, 50e6, 0, 100e6).fits).toBe(true);
  });
});

describe('worker protocol', () => {
  it('keeps the name, message and HTTP status of an error across the message boundary', () => {
    const notFound = Object.assign(new Error('Product query returned empty result'), { name: 'CatalogNotFoundError', statusCode: 404 });
    const back = fromWireError(structuredClone(toWireError(notFound)));
    expect([back.name, back.message, (back as Error & { statusCode?: number }).statusCode]).toEqual([
      'CatalogNotFoundError',
      notFound.message,
      404,
    ]);
  });
});

describeEachDatabase('offline catalogue engine', (getDb) => {
  let app: FastifyInstance;
  let idb: IDBFactory;
  let requests: { ifNoneMatch: string | null }[];
  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    await loadCatalogues(app);
  });
  afterAll(async () => app?.close());
  beforeEach(() => {
    idb = new IDBFactory();
    requests = [];
  });

  /** The browser's fetch, answered by the real server. */
  const serverFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers: Record<string, string> = {
      ...(init?.headers as Record<string, string>),
      host: hostOf('downtown'),
      'accept-encoding': 'identity',
    };
    requests.push({ ifNoneMatch: headers['if-none-match'] ?? null });
    const res = await app.inject({ url: url.pathname + url.search, headers });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
    return new Response(res.statusCode === 304 ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: out });
  }) as typeof fetch;
  const backend = () => keyvalBackend(cacheDatabase('downtown'), 'keyval', idb);
  const engine = (over: Partial<Parameters<typeof createCatalogEngine>[0]> = {}) =>
    createCatalogEngine({
      storeCode: 'downtown',
      fetch: serverFetch,
      backend: backend(),
      estimate: async () => ({ usage: 0, quota: 1e9 }),
      clock: () => NOW,
      ...over,
    });
  /** A page and its worker, talking over a MessageChannel. */
  const overChannel = (make: () => ReturnType<typeof engine>) => {
    const channel = new MessageChannel();
    const end = (port: MessagePort): MessageEnd => {
      port.start();
      return { postMessage: (m) => port.postMessage(m), addEventListener: (t, l) => port.addEventListener(t, l) };
    };
    serveCatalog(end(channel.port2), make);
    return { conn: connectCatalog(end(channel.port1)), close: () => (channel.port1.close(), channel.port2.close()) };
  };

  it('stores the copy compressed as kept entries; a reloaded page answers search and products from it through the worker protocol', async () => {
    const first = await engine().refresh(URL_V2, { now: 1_000 });
    expect(first).toMatchObject({ asked: true, changed: true });
    expect(first.tooLarge).toBeUndefined();
    expect(first.meta).toMatchObject({ format: 2, stored: true, encoding: 'gzip', generatedAt: NOW.toISOString() });
    expect(first.meta!.storedBytes).toBeLessThan(first.meta!.textLength / 4);
    const entries = new Map(await backend().entries()) as Map<string, { o: number; v: unknown }>;
    expect([...entries.keys()].sort()).toEqual([snapshotMetaKey('downtown'), snapshotDataKey('downtown')].sort());
    for (const e of entries.values()) expect(e.o).toBe(SNAPSHOT_ORDINAL);
    expect(SNAPSHOT_ORDINAL).toBeGreaterThanOrEqual(PURGE_BELOW_ORDINAL);

    // A new page: nothing in memory, the copy read back from IndexedDB by the worker.
    const { conn, close } = overChannel(() => engine({ fetch: () => Promise.reject(new TypeError('Failed to fetch')) }));
    try {
      const meta = await conn.meta('downtown');
      expect(meta?.generatedAt).toBe(NOW.toISOString());
      const store = storeByCode('downtown');
      const services = conn.services('downtown');
      const offline = await services.searchProducts(meta!.store, { licenseType: 'recreational', text: 'blue drem', start: 0, size: 20 });
      const online = (
        await app.inject({ url: '/api/catalog/products?text=blue%20drem&size=20', headers: { host: hostOf('downtown') } })
      ).json();
      expect(offline.total).toBeGreaterThan(0);
      expect(offline.items.map((i) => i.sku)).toEqual(online.result.items.map((i: { sku: string }) => i.sku));
      expect(store.storeCode).toBe(meta!.store.storeCode);
      await expect(services.product(meta!.store, 'NO-SUCH-SKU')).resolves.toBeNull();
      // Every service the loaders call is answered through the protocol (a listing page's loader asks
      // for the deals on its cards: a proxy without productDeals failed every offline category page).
      const deals = await services.productDeals(meta!.store, 'recreational', offline.items.map((i) => i.sku));
      expect(deals).toMatchObject({ display: expect.any(String), bySku: expect.any(Object) });
      const onNow = await services.dealsOnNow(meta!.store, 'recreational', 4);
      expect(onNow).toMatchObject({ live: expect.any(Array), cards: expect.any(Array) });
      const first = offline.items[0]!;
      const estimate = await services.cartDeals(meta!.store, 'recreational', [{ key: 'a', sku: first.sku, qty: 1, unitPrice: 1000 }]);
      expect(estimate).toMatchObject({ discounts: expect.any(Object), nudges: expect.any(Array) });
    } finally {
      close();
    }
  });

  it('revalidates with the ETag: a 304 keeps the copy; within 10 minutes it does not ask at all', async () => {
    const e = engine();
    await e.refresh(URL_V2, { now: 1_000 });
    expect((await e.refresh(URL_V2, { now: 2_000 })).asked).toBe(false);
    const again = await e.refresh(URL_V2, { now: 1_000 + 11 * 60_000 });
    expect(again).toMatchObject({ asked: true, changed: false });
    expect(requests.map((r) => r.ifNoneMatch)).toEqual([null, again.meta!.etag]);
  });

  it('a copy over quota is not written, says so, and still answers this page', async () => {
    const e = engine({ estimate: async () => ({ usage: 0, quota: 10_000 }) });
    const outcome = await e.refresh(URL_V2, { now: 1_000 });
    expect(outcome.tooLarge).toMatchObject({ fits: false, limit: 9_000 });
    expect(outcome.meta?.stored).toBe(false);
    expect(await backend().entries()).toEqual([]);
    const found = (await e.call('searchProducts', [
      outcome.meta!.store,
      { licenseType: 'recreational', text: 'blue drem', start: 0, size: 5 },
    ])) as {
      total: number;
    };
    expect(found.total).toBeGreaterThan(0);
  });

  it("drops an older storefront's format-1 record instead of reading it", async () => {
    await backend().set(snapshotMetaKey('downtown'), {
      v: { etag: '"v1"', checkedAt: 1, snapshot: { store: {}, content: { products: [] } } },
      o: 100,
      t: 1,
    });
    expect(await engine().meta()).toBeNull();
    expect(await backend().entries()).toEqual([]);
  });
});
