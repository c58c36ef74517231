/**
 * The many-store deployment (issue 15): the generated stores file, and the seed that writes every
 * store's catalogue one store at a time, on both databases; the app built over it (as `npm start`
 * does with STORES_FILE) serves each store's menu by its host.
 */
import { parseStoresFile } from '@verdant/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { StoreRegistry } from '../stores/registry.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { generateStoreCatalog, prepareMasters } from './catalog.ts';
import { DEPLOYMENT_CITIES, deploymentStoresFile, seedDeployment } from './deployment.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');

describe('deploymentStoresFile', () => {
  it('is a valid stores file of n stores with codes, ids and hosts in order, the same on every call', () => {
    const file = deploymentStoresFile(150);
    expect(file.stores).toHaveLength(150);
    expect(file.stores.map((s) => s.storeId)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    expect(file.stores.slice(0, 3).map((s) => s.storeCode)).toEqual(['store-001', 'store-002', 'store-003']);
    expect(file.stores[149]).toMatchObject({ storeCode: 'store-150', url: 'http://store-150.localhost:3000' });
    expect(file.defaultStoreCode).toBe('store-001');
    // What the server's own validation makes of it is what was generated (JSON round trip included).
    expect(parseStoresFile(JSON.parse(JSON.stringify(file)))).toEqual(file);
    expect(deploymentStoresFile(150)).toEqual(file);
    expect(deploymentStoresFile(1000).stores[999].storeCode).toBe('store-1000');
  });

  it('spreads the stores over the six preset states, their time zones and the three licence mixes', () => {
    const stores = deploymentStoresFile(150).stores;
    const states = new Set(stores.map((s) => s.dispensarySettings.place_info.address.region_code));
    expect([...states].sort()).toEqual(['CA', 'CO', 'IL', 'MA', 'MI', 'NV']);
    const zones = new Set(stores.map((s) => s.dispensarySettings.place_info.timezone));
    expect([...zones].sort()).toEqual(['America/Chicago', 'America/Denver', 'America/Detroit', 'America/Los_Angeles', 'America/New_York']);
    const mix = (i: number) => [stores[i].dispensarySettings.license_recreational, stores[i].dispensarySettings.license_medical];
    expect([mix(0), mix(1), mix(2)]).toEqual([
      [true, true],
      [true, false],
      [false, true],
    ]);
    // Every store its own address and licence number.
    expect(new Set(stores.map((s) => s.dispensarySettings.place_info.address.street)).size).toBe(150);
    expect(new Set(stores.map((s) => s.dispensarySettings.place_info.license_number)).size).toBe(150);
    expect(stores[0].dispensarySettings.place_info.address.city).toBe(DEPLOYMENT_CITIES[0].city);
  });

  it('opens each store by its host label', () => {
    const registry = new StoreRegistry(deploymentStoresFile(150));
    const opened = registry.resolve('store-077.localhost:3000', '/');
    expect(opened.store.storeId).toBe(77);
    expect(registry.resolve('localhost:3000', '/').store.storeCode).toBe('store-001');
  });

  it('refuses a count out of range', () => {
    expect(() => deploymentStoresFile(0)).toThrow(/1 to 9999 stores, got 0/);
    expect(() => deploymentStoresFile(10_000)).toThrow(RangeError);
    expect(() => deploymentStoresFile(2.5)).toThrow(RangeError);
  });
});

describeEachDatabase('many-store seed (3 stores × 60 products)', (getDb) => {
  const file = deploymentStoresFile(3);
  const registry = new StoreRegistry(file);
  const masters = prepareMasters(60);
  const expected = file.stores.map((s) => generateStoreCatalog(s, masters, NOW));
  const host = (code: string) => `${code}.localhost:3000`;
  let app: FastifyInstance;
  const progress: string[] = [];

  beforeAll(async () => {
    const { db, dataDir } = getDb();
    const summary = await seedDeployment(db, file, {
      dataDir,
      productsPerStore: 60,
      referenceDate: NOW,
      onStore: (s) => progress.push(`${s.index}:${s.storeCode}:${s.products}`),
    });
    expect(summary).toMatchObject({ stores: 3, productsPerStore: 60, referenceDate: NOW.toISOString() });
    expect(summary.productRows).toBe(expected.reduce((n, c) => n + c.rows.products.length, 0));
    app = await buildApp({
      config: { dataDir, demoMode: false, production: true, logLevel: 'silent' },
      registry,
      db,
      logger: false,
      clock: () => NOW,
    });
  });
  afterAll(async () => app?.close());

  it('writes every store the generator makes, one store after the other', async () => {
    const { db } = getDb();
    expect(progress).toEqual(expected.map((c, i) => `${i}:${c.storeCode}:${c.rows.products.length}`));
    for (const c of expected) {
      const ids = await db.selectFrom('products').select('id').where('store_id', '=', c.storeId).orderBy('id').execute();
      expect(ids.map((r) => r.id)).toEqual(c.rows.products.map((p) => p.id).sort((a, b) => a - b));
    }
    const stores = await db.selectFrom('stores').select(['id', 'code']).orderBy('id').execute();
    expect(stores).toEqual([
      { id: 1, code: 'store-001' },
      { id: 2, code: 'store-002' },
      { id: 3, code: 'store-003' },
    ]);
    const sources = await db.selectFrom('catalog_sources').select(['store_id', 'source']).orderBy('store_id').execute();
    expect(sources.map((s) => `${s.store_id}:${s.source}`)).toEqual(['1:demo', '2:demo', '3:demo']);
  });

  it("serves each store's menu and categories by its host, within the store's licence types", async () => {
    for (const store of file.stores) {
      const res = await app.inject({ url: '/api/catalog/products?size=100', headers: { host: host(store.storeCode) } });
      expect(res.statusCode, res.body).toBe(200);
      const { items, total } = res.json().result as { items: { sku: string; license_type: string }[]; total: number };
      expect(total).toBeGreaterThan(20);
      const onlyMedical = !store.dispensarySettings.license_recreational;
      const onlyRecreational = !store.dispensarySettings.license_medical;
      for (const p of items) {
        if (onlyMedical) expect(p.license_type, p.sku).not.toBe('recreational');
        if (onlyRecreational) expect(p.license_type, p.sku).not.toBe('medical');
      }
      const cats = await app.inject({
        url: '/api/catalog/categories?is_active=1&product_count_gt=0',
        headers: { host: host(store.storeCode) },
      });
      expect(cats.statusCode).toBe(200);
      expect((cats.json().result.items as unknown[]).length).toBeGreaterThan(3);
    }
    const search = await app.inject({ url: '/api/catalog/products?text=blu%20drem&size=5', headers: { host: host('store-001') } });
    expect((search.json().result.items as { name: string }[])[0].name).toBe('Blue Dream');
  });

  it('rewrites the same rows when run again, and refuses a menu it did not write unless forced', async () => {
    const { db, dataDir } = getDb();
    const rows = async () => ({
      products: await db.selectFrom('products').selectAll().orderBy('id').execute(),
      stock: await db.selectFrom('stock').selectAll().orderBy('product_id').execute(),
    });
    const before = await rows();
    expect(before.products.length).toBe(expected.reduce((n, c) => n + c.rows.products.length, 0));
    await seedDeployment(db, file, { dataDir, productsPerStore: 60, referenceDate: NOW });
    expect(await rows()).toEqual(before);

    await db.updateTable('catalog_sources').set({ source: 'import' }).where('store_id', '=', 2).execute();
    await expect(seedDeployment(db, file, { dataDir, productsPerStore: 60, referenceDate: NOW })).rejects.toThrow(
      /Refusing to replace the catalogue of store-002/,
    );
    await seedDeployment(db, file, { dataDir, productsPerStore: 60, referenceDate: NOW, force: true });
    const sources = await db.selectFrom('catalog_sources').select('source').where('store_id', '=', 2).executeTakeFirstOrThrow();
    expect(sources.source).toBe('demo');
  });
});
