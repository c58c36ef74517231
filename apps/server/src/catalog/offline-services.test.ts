/**
 * The offline catalogue (issue 6): the snapshot endpoint, and the browser's services built from a
 * snapshot answering exactly as the server's own services do.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductSearchParams } from '@verdant/domain';
import { createStorefrontServices } from '../ssr/services.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { offlineServices, type CatalogSnapshot } from './offline-services.ts';
import { NOW, hostOf, seed, storeByCode, loadCatalogues, testApp } from '../../test-support/catalog/test-app.ts';

describeEachDatabase('catalogue snapshot', (getDb) => {
  let app: FastifyInstance;
  let snapshot: CatalogSnapshot;
  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    await loadCatalogues(app);
    const res = await app.inject({ url: '/api/catalog/snapshot', headers: { host: hostOf('downtown') } });
    snapshot = res.json();
  });
  afterAll(async () => app?.close());

  it('carries the store, its time, and every product, category and attribute the server holds', async () => {
    expect(snapshot.version).toBe(1);
    expect(snapshot.generatedAt).toBe(NOW.toISOString());
    expect(snapshot.store.storeCode).toBe('downtown');
    const catalog = app.catalog.catalog(snapshot.store.storeId);
    expect(snapshot.content.products.length).toBe([...catalog.allProducts()].length);
    expect(snapshot.content.products.length).toBeGreaterThan(100);
    expect(snapshot.content.categories.length).toBe([...catalog.allCategories()].length);
    expect(snapshot.attributes.length).toBeGreaterThan(0);
    expect(snapshot.content.taxRules.length).toBeGreaterThan(0);
  });

  it('is made per store, compressed when asked, and answers 304 to an unchanged copy', async () => {
    const east = await app.inject({ url: '/api/catalog/snapshot', headers: { host: hostOf('eastside') } });
    expect(east.json().store.storeCode).toBe('eastside');
    const gz = await app.inject({ url: '/api/catalog/snapshot', headers: { host: hostOf('downtown'), 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8')).store.storeCode).toBe('downtown');
    const etag = gz.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const again = await app.inject({ url: '/api/catalog/snapshot', headers: { host: hostOf('downtown'), 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('a catalogue change makes a new copy (new ETag, new content)', async () => {
    const store = storeByCode('harbor');
    const first = await app.inject({ url: '/api/catalog/snapshot', headers: { host: hostOf('harbor') } });
    const product = (first.json() as CatalogSnapshot).content.products[0];
    await getDb().db.updateTable('products').set({ name: 'Renamed Offline Test' }).where('id', '=', product.id).execute();
    await app.catalog.catalogChanged(store.storeId, [product.id]);
    app.invalidateStore(store.storeId);
    const res = await app.inject({ url: '/api/catalog/snapshot', headers: { host: hostOf('harbor'), 'if-none-match': first.headers.etag as string } });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).not.toBe(first.headers.etag);
    expect((res.json() as CatalogSnapshot).content.products.find((p) => p.id === product.id)?.name).toBe('Renamed Offline Test');
  });

  it("offline services answer category lists, typo search, filters, sorts, products, the menu and URL mapping as the server's", async () => {
    const store = storeByCode('downtown');
    const server = createStorefrontServices({ manager: app.catalog, clock: () => NOW }).services;
    const offline = offlineServices(structuredClone(snapshot), () => NOW);
    const queries: ProductSearchParams[] = [
      { licenseType: 'recreational', start: 0, size: 50 },
      { licenseType: 'recreational', text: 'blue drem', start: 0, size: 20 },
      { licenseType: 'recreational', categoryId: 3, sort: 'price_asc', start: 0, size: 50 },
      { licenseType: 'medical', filters: { price: ['0-50'] }, sort: 'price_desc', start: 0, size: 50 },
    ];
    for (const q of queries) {
      const [a, b] = await Promise.all([server.searchProducts(store, q), offline.searchProducts(store, q)]);
      expect(b).toEqual(a);
    }
    expect((await server.searchProducts(store, queries[1])).total).toBeGreaterThan(0);
    expect(await offline.categoryTree(store)).toEqual(await server.categoryTree(store));
    expect(await offline.homeCollections(store, 'recreational')).toEqual(await server.homeCollections(store, 'recreational'));
    const sku = snapshot.content.products.find((p) => p.type_id === 'configurable')!.sku;
    expect(await offline.product(store, sku)).toEqual(await server.product(store, sku));
    expect(await offline.mapUrl(store, '/menu/flower')).toEqual(await server.mapUrl(store, '/menu/flower'));
    expect(await offline.cmsPage(store, 'about-us')).toEqual(await server.cmsPage(store, 'about-us'));
  });
});

describe('offline-services import graph', () => {
  it('uses no Node API or server-only package at run time (the browser bundles it)', () => {
    const seen = new Set<string>();
    const runtimeImports: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(/^import\s+(?!type\b)[^'"]*?from\s+'([^']+)'/gm)) {
        const spec = m[1];
        if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
        else runtimeImports.push(spec);
      }
    };
    visit(path.join(import.meta.dirname, 'offline-services.ts'));
    expect(seen.size).toBeGreaterThan(5);
    expect(runtimeImports.filter((s) => !/^@verdant\/(domain|search)$/.test(s))).toEqual([]);
  });
});
