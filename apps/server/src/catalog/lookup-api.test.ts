/**
 * Integration: categories, attributes and single-product lookups of the catalogue API, with the
 * spec §8 errors, on both databases.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { hostOf, seed, testApp } from '../../test-support/catalog/test-app.ts';

describeEachDatabase('catalogue lookup API', (getDb) => {
  let app: FastifyInstance;
  const get = async (url: string, store = 'downtown') => {
    const res = await app.inject({ url, headers: { host: hostOf(store) } });
    return { status: res.statusCode, body: res.json() as { code: number; result: any } };
  };

  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
  });
  afterAll(async () => app?.close());

  it('lists categories by parent, level, activity and product count, by position', async () => {
    const top = await get('/api/catalog/categories?parent_id=2&is_active=1&product_count_gt=0');
    expect(top.status).toBe(200);
    expect(top.body.result.items.map((c: { name: string }) => c.name)).toEqual([
      'Flower',
      'Pre-Rolls',
      'Vapes',
      'Concentrates',
      'Edibles',
      'Tinctures',
      'Topicals',
      'Accessories',
    ]);
    const level3 = await get('/api/catalog/categories?level=3');
    expect(level3.body.result.items.map((c: { id: number }) => c.id).sort()).toEqual([11, 12, 13, 14, 15]);
    expect((await get('/api/catalog/categories')).body.result.total).toBe(14);
    expect((await get('/api/catalog/categories?size=2')).body.result.items).toHaveLength(2);
    // Eastside's compliance settings hide Tinctures.
    const eastside = await get('/api/catalog/categories?parent_id=2', 'eastside');
    expect(eastside.body.result.items.map((c: { name: string }) => c.name)).not.toContain('Tinctures');
    expect((await get('/api/catalog/categories?is_active=0')).body.result.total).toBe(0);
  });

  it('refuses malformed category queries', async () => {
    expect(await get('/api/catalog/categories?parent_id=abc')).toEqual({
      status: 400,
      body: { code: 400, result: 'parent_id: expected a whole number' },
    });
    expect((await get('/api/catalog/categories?is_active=yes')).status).toBe(400);
    expect((await get('/api/catalog/categories?size=4001')).status).toBe(400);
    expect((await get('/api/catalog/categories?colour=red')).status).toBe(400);
    expect(await get('/api/catalog/categories?storeCode=atlantis')).toEqual({
      status: 404,
      body: { code: 404, result: 'Store "atlantis" does not exist' },
    });
  });

  it('finds attributes by code or id, refusing ids with a dot', async () => {
    const byCode = await get('/api/catalog/attributes?attribute_code=size,brand_id');
    expect(byCode.body.result.items.map((a: { attribute_code: string }) => a.attribute_code)).toEqual([
      'size',
      'brand_id',
    ]);
    expect(byCode.body.result.items[1].options.length).toBeGreaterThan(5);
    const byId = await get('/api/catalog/attributes?attribute_id=142,149');
    expect(byId.body.result.items.map((a: { attribute_code: string }) => a.attribute_code)).toEqual(['size', 'sale']);
    expect((await get('/api/catalog/attributes')).body.result.total).toBe(17);
    expect(await get('/api/catalog/attributes?attribute_id=142.5')).toEqual({
      status: 400,
      body: { code: 400, result: 'attribute_id must not contain a dot' },
    });
    expect((await get('/api/catalog/attributes?attribute_id=abc')).status).toBe(400);
    expect((await get('/api/catalog/attributes?size=151')).status).toBe(400);
  });

  it('loads a product by sku, by url_path and by a child sku', async () => {
    const bySku = await get('/api/catalog/product/FL-BLUE-DREAM');
    expect(bySku.status).toBe(200);
    expect(bySku.body.result).toMatchObject({ sku: 'FL-BLUE-DREAM', type_id: 'configurable', dispensaryID: 1 });
    expect(bySku.body.result.configurable_children).toHaveLength(5);
    const byQuery = await get('/api/catalog/product?sku=FL-BLUE-DREAM');
    expect(byQuery.body).toEqual(bySku.body);
    expect((await get('/api/catalog/product?url_path=blue-dream')).body).toEqual(bySku.body);
    expect((await get('/api/catalog/product?url_path=/blue-dream/')).body).toEqual(bySku.body);
    expect((await get('/api/catalog/product?child_sku=FL-BLUE-DREAM-8TH')).body).toEqual(bySku.body);
    // With direct access to children blocked (the default), a child's sku answers its parent.
    expect((await get('/api/catalog/product/FL-BLUE-DREAM-8TH')).body).toEqual(bySku.body);
    // Each store has its own copy of the product.
    expect((await get('/api/catalog/product/FL-BLUE-DREAM', 'harbor')).body.result.dispensaryID).toBe(4);
  });

  it('answers the spec §8 errors', async () => {
    const { db } = getDb();
    const disabled = await db
      .selectFrom('products')
      .select(['sku', 'status'])
      .where('store_id', '=', 1)
      .where('status', '>=', 2)
      .where('parent_id', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(await get(`/api/catalog/product/${disabled.sku}`)).toEqual({
      status: 404,
      body: { code: 404, result: `Product query returned empty result product status = ${disabled.status}` },
    });
    // A kit member is not visible individually and has no configurable parent.
    expect(await get('/api/catalog/product/BDL-NIGHT-IN-HEMP-WICK')).toEqual({
      status: 404,
      body: { code: 404, result: 'Product query returned empty result visibility = 1' },
    });
    expect(await get('/api/catalog/product?child_sku=BDL-NIGHT-IN-HEMP-WICK')).toEqual({
      status: 404,
      body: { code: 404, result: "Product doesn't have parentSku, please check if this is configurable product" },
    });
    expect(await get('/api/catalog/product/NO-SUCH-SKU')).toEqual({
      status: 404,
      body: { code: 404, result: 'Product query returned empty result sku = NO-SUCH-SKU' },
    });
    expect((await get('/api/catalog/product?child_sku=NO-SUCH-SKU')).status).toBe(404);
    expect((await get('/api/catalog/product?url_path=no-such-path')).status).toBe(404);
    expect(await get('/api/catalog/product')).toEqual({
      status: 400,
      body: { code: 400, result: 'Please provide the search key ...' },
    });
    expect((await get('/api/catalog/product?sku=A&url_path=b')).body.result).toBe('Please provide the search key ...');
    expect((await get('/api/catalog/product?sku=')).status).toBe(400);
    expect((await get('/api/catalog/product/FL-BLUE-DREAM?storeCode=atlantis')).status).toBe(404);
  });
});
