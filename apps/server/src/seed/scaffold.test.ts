/**
 * The frame a deployment with its own stores file starts with (scaffold.ts), on both databases:
 * written once for stores without categories, never a product; an app over it shows an empty menu
 * (no product, no category in navigation), and the first import fills it without a restart.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseStoresFile, type StoresFile } from '@verdant/domain';
import { buildApp } from '../app.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { syncStores } from '../db/index.ts';
import { importMenu } from '../menu-import/index.ts';
import { StoreRegistry } from '../stores/registry.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { readStoresFile } from './index.ts';
import { ensureStoreScaffold } from './scaffold.ts';

const demo = readStoresFile(DEMO_STORES_FILE);
/** Two stores of our own (the demo's first two under other codes). */
const own: StoresFile = parseStoresFile({
  defaultStoreCode: 'greenleaf',
  hostRules: {},
  stores: [
    { ...demo.stores[0], storeCode: 'greenleaf', name: 'Green Leaf' },
    { ...demo.stores[1], storeCode: 'riverside', name: 'Riverside' },
  ],
});
const HOST = 'greenleaf.localhost';

describeEachDatabase('a deployment of its own: the empty-menu frame', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const { db } = getDb();
    await syncStores(db, own);
    expect(await ensureStoreScaffold(db, own)).toEqual([1, 2]);
    // Every later start leaves it alone.
    expect(await ensureStoreScaffold(db, own)).toEqual([]);
    app = await buildApp({
      config: { dataDir: getDb().dataDir, demoMode: false, production: true, logLevel: 'silent' },
      registry: new StoreRegistry(own),
      db,
      logger: false,
    });
  });
  afterAll(async () => app?.close());

  const get = async (url: string) => (await app.inject({ url, headers: { host: HOST } })).json().result;

  it('writes categories, tax lines and pages but no product; navigation is empty', async () => {
    const { db } = getDb();
    const count = async (table: 'products' | 'categories' | 'tax_rules' | 'cms_pages' | 'coupons') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('products')).toBe(0);
    expect(await count('coupons')).toBe(0);
    expect(await count('categories')).toBeGreaterThan(10);
    expect(await count('tax_rules')).toBeGreaterThan(0);
    expect(await count('cms_pages')).toBeGreaterThan(0);
    expect((await get('/api/catalog/products?size=10')).total).toBe(0);
    expect((await get('/api/catalog/categories?product_count_gt=0')).items).toEqual([]);
  });

  it('the first import is searchable, and its categories join the navigation', async () => {
    const report = await importMenu(getDb().db, {
      storeId: 1,
      source: [
        Buffer.from(
          'external_id,sku,name,brand,category,unit,weight_g,price,stock\nGL-1,GL-GLACIER-8TH,Glacier Cake,North Ridge,Flower > Indica,g,3.5,35.00,12\n',
        ),
      ],
      format: 'csv',
      onChanged: (s, ids) => app.catalog.catalogChanged(s, ids),
    });
    expect(report.problems).toEqual([]);
    expect(report.outcome).toBe('applied');
    expect(((await get('/api/catalog/products?text=glacier%20cake')).items as { sku: string }[]).map((i) => i.sku)).toEqual(['GL-GLACIER-8TH']);
    expect(
      ((await get('/api/catalog/categories?product_count_gt=0')).items as { url_path: string }[]).map((c) => c.url_path).sort(),
    ).toEqual(['menu', 'menu/flower', 'menu/flower/indica']);
    // The other store is still empty.
    expect((await app.inject({ url: '/api/catalog/products?size=10', headers: { host: 'riverside.localhost' } })).json().result.total).toBe(
      0,
    );
  });
});
