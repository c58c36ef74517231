/**
 * The compact offline snapshot (issue 15, format 2): lossless against version 1 (every field the
 * offline pages read, prices to the cent), smaller, served compressed with an ETag, and the
 * browser's services built from the decoded copy answer as the server's.
 */
import v8 from 'node:v8';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorefrontServices } from '../ssr/services.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { offlineServices, type CatalogSnapshot } from './offline-services.ts';
import { COMPACT_SNAPSHOT_VERSION, decodeSnapshot, encodeSnapshot, type CompactSnapshot } from './snapshot-format.ts';
import { NOW, hostOf, loadCatalogues, seed, storeByCode, testApp } from '../../test-support/catalog/test-app.ts';

describe('compact snapshot format', () => {
  it('round-trips nulls, absent keys, empty and nested arrays, mixed values and numbers exactly', () => {
    const content = {
      products: [
        { id: 1, sku: 'A', price: 2699, special_price: null, tags: ['x', 'y'], stock: { qty: 3, is_in_stock: true }, extra: 'only here' },
        { id: 2, sku: 'B', price: 0.1 + 0.2, special_price: 1999, tags: [], stock: null, mixed: 1 },
        { id: 3, sku: 'A', price: -5, special_price: null, tags: null, stock: { qty: 0, is_in_stock: false }, mixed: 'one' },
      ],
      categories: [],
      cmsPages: [],
      cmsBlocks: [],
      taxRules: [
        {
          rates: [
            { code: 'excise', rate: 0.15 },
            { code: 'sales', rate: 0.0725 },
          ],
        },
      ],
      rewrites: [],
    };
    const snapshot = {
      generatedAt: NOW.toISOString(),
      store: { storeCode: 'downtown' },
      attributes: [],
      content,
    } as unknown as CatalogSnapshot;
    const compact = encodeSnapshot(snapshot);
    expect(compact.version).toBe(COMPACT_SNAPSHOT_VERSION);
    // Through JSON, as on the wire.
    const back = decodeSnapshot(JSON.parse(JSON.stringify(compact)) as CompactSnapshot);
    expect(back).toEqual({ ...snapshot, version: 1 });
    expect(Object.keys(back.content.products[1])).not.toContain('extra');
    expect(back.content.products[1].price).toBe(0.1 + 0.2);
    // Repeated strings are stored once.
    expect(compact.strings.filter((s) => s === 'A')).toHaveLength(1);
  });

  it('decodes documents of many keys, some absent, into fast-property objects in the same key order', () => {
    // Product documents have ~50 keys. Added one by one under computed names they became
    // dictionary-mode objects in V8: ~400 MB for 40,000 products in the offline worker (issue 15).
    v8.setFlagsFromString('--allow-natives-syntax');
    const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;
    v8.setFlagsFromString('--no-allow-natives-syntax');
    const keys = Array.from({ length: 60 }, (_, k) => (k % 7 === 3 ? `${k}` : `field_${k}`));
    const products = Array.from({ length: 50 }, (_, i) => {
      const doc: Record<string, unknown> = {};
      keys.forEach((key, k) => {
        // The first has every key (the format keeps keys in the order first seen).
        if (i === 0 || (i + k) % 11 !== 0) doc[key] = k % 3 === 0 ? `v${(i * k) % 5}` : k % 3 === 1 ? i * k + 0.5 : { n: i, tags: [k, i] };
      });
      return doc;
    });
    const snapshot = {
      generatedAt: NOW.toISOString(),
      store: { storeCode: 'downtown' },
      attributes: [],
      content: { products, categories: [], cmsPages: [], cmsBlocks: [], taxRules: [], rewrites: [] },
    } as unknown as Omit<CatalogSnapshot, 'version'>;
    const back = decodeSnapshot(JSON.parse(JSON.stringify(encodeSnapshot(snapshot))) as CompactSnapshot);
    expect(JSON.stringify(back)).toBe(JSON.stringify({ version: 1, ...snapshot }));
    for (const product of back.content.products) expect(hasFastProperties(product)).toBe(true);
    // Releasing the columns while decoding (the offline worker) gives the same documents, and leaves no column behind.
    const consumed = JSON.parse(JSON.stringify(encodeSnapshot(snapshot))) as CompactSnapshot;
    const released = decodeSnapshot(consumed, { release: true });
    expect(JSON.stringify(released)).toBe(JSON.stringify(back));
    expect(JSON.stringify(consumed.body).length).toBeLessThan(200);
  });

  it('refuses a format it does not know', () => {
    expect(() => decodeSnapshot({ version: 3 } as unknown as CompactSnapshot)).toThrow(/format 3/);
  });
});

describeEachDatabase('compact snapshot endpoint', (getDb) => {
  let app: FastifyInstance;
  let v1: CatalogSnapshot;
  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    await loadCatalogues(app);
    v1 = (await app.inject({ url: '/api/catalog/snapshot', headers: { host: hostOf('downtown') } })).json();
  });
  afterAll(async () => app?.close());

  const compact = async (headers: Record<string, string> = {}) =>
    app.inject({ url: '/api/catalog/snapshot?format=2', headers: { host: hostOf('downtown'), ...headers } });

  it('decodes to exactly the version-1 snapshot: every product field, prices to the cent, categories, CMS, taxes, rewrites', async () => {
    const res = await compact();
    expect(res.statusCode).toBe(200);
    const decoded = decodeSnapshot(res.json());
    expect(decoded).toEqual(v1);
    // Every key in the server's order too (what a page iterating a document would see).
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(v1));
    const jar = v1.content.products.find((p) => p.price % 100 !== 0)!;
    expect(decoded.content.products.find((p) => p.id === jar.id)!.price).toBe(jar.price);
    expect(Buffer.byteLength(res.body)).toBeLessThan(Buffer.byteLength(JSON.stringify(v1)) / 2);
  });

  it('is served gzip or brotli, with its own ETag and 304 when unchanged; version 1 stays for older pages', async () => {
    const gz = await compact({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decodeSnapshot(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).store.storeCode).toBe('downtown');
    const br = await compact({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(gunzipSync(gz.rawPayload).toString('utf8'));
    const etag = gz.headers.etag as string;
    const old = await app.inject({ url: '/api/catalog/snapshot', headers: { host: hostOf('downtown') } });
    expect(old.headers.etag).not.toBe(etag);
    expect(old.json().version).toBe(1);
    expect((await compact({ 'if-none-match': etag })).statusCode).toBe(304);
    expect(
      (await app.inject({ url: '/api/catalog/snapshot', headers: { host: hostOf('downtown'), 'if-none-match': etag } })).statusCode,
    ).toBe(200);
  });

  it("services built from the decoded copy answer search, categories and products as the server's", async () => {
    const store = storeByCode('downtown');
    const server = createStorefrontServices({ manager: app.catalog, clock: () => NOW }).services;
    const offline = offlineServices(decodeSnapshot((await compact()).json()), () => NOW);
    const q = { licenseType: 'recreational' as const, text: 'blue drem', start: 0, size: 20 };
    expect(await offline.searchProducts(store, q)).toEqual(await server.searchProducts(store, q));
    expect(await offline.categoryTree(store)).toEqual(await server.categoryTree(store));
    const sku = v1.content.products.find((p) => p.type_id === 'configurable')!.sku;
    expect(await offline.product(store, sku)).toEqual(await server.product(store, sku));
  });
});
