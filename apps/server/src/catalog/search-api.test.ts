/**
 * Integration: the catalogue search API (GET /api/catalog/products, POST /api/catalog/search) over
 * the seeded demo catalogue on both databases, through Fastify's inject.
 */
import { PRICE_RANGES, sizeLongLabel, type CatalogProduct, type ProductCard } from '@verdant/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { hostOf, seed, loadCatalogues, testApp } from '../../test-support/catalog/test-app.ts';

type Bucket = { value: string; label: string; count: number };
interface ListResult {
  items: ProductCard[];
  total: number;
  start: number;
  perPage: number;
  aggregations: Record<string, Bucket[]>;
  attributeMetadata: { attribute_code: string }[];
  suggestions: string[];
}

describeEachDatabase('catalogue search API', (getDb) => {
  let app: FastifyInstance;
  const list = async (query: string, store = 'downtown'): Promise<ListResult> => {
    const res = await app.inject({ url: `/api/catalog/products?${query}`, headers: { host: hostOf(store) } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().code).toBe(200);
    return res.json().result as ListResult;
  };
  const refused = async (query: string, status = 400) => {
    const res = await app.inject({ url: `/api/catalog/products?${query}` });
    expect(res.statusCode, query).toBe(status);
    expect(res.json()).toEqual({ code: status, result: expect.any(String) });
    return res.json().result as string;
  };
  const doc = (sku: string, storeId = 1): CatalogProduct => app.catalog.catalog(storeId).productBySku(sku)!;
  const descendantsOfFlower = [3, 11, 12, 13];

  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    await loadCatalogues(app);
  });
  afterAll(async () => app?.close());

  it('finds Blue Dream first for a misspelt "blu drem", and suggests the spelling', async () => {
    const r = await list('text=blu%20drem');
    expect(r.items[0].name).toBe('Blue Dream');
    expect(r.suggestions).toEqual(['blue dream']);
    expect(r.items[0]).toMatchObject({
      sku: 'FL-BLUE-DREAM',
      price_from: true,
      image: '/catalog/product/FL-BLUE-DREAM.svg',
    });
  });

  it('refuses search text under 3 characters with the spec message', async () => {
    expect(await refused('text=bl')).toBe('Searched term at least 3 characters.');
    expect(await refused('text=%20%20a%20')).toBe('Searched term at least 3 characters.');
  });

  it('lists a category with all its descendants, by id or url_path', async () => {
    const byPath = await list('category=menu/flower&size=200');
    const byId = await list('category=3&size=200');
    expect(byId.items.map((c) => c.sku)).toEqual(byPath.items.map((c) => c.sku));
    const categories = new Set(byPath.items.flatMap((c) => doc(c.sku).category_ids));
    expect([...categories].every((id) => descendantsOfFlower.includes(id))).toBe(true);
    // Products sit in the leaves (and CBD flower in Flower itself): all of them are listed.
    expect([...categories].filter((id) => id !== 3).length).toBe(3);
    const indica = await list('category=menu/flower/indica&size=200');
    expect(indica.total).toBeLessThan(byPath.total);
    expect(indica.items.every((c) => doc(c.sku).category_ids.includes(11))).toBe(true);
  });

  it("narrows to the shopper's licence type (products for it or for both)", async () => {
    const medical = await list('license_type=medical&size=500');
    const recreational = await list('license_type=recreational&size=500');
    const all = await list('size=500');
    expect(medical.items.some((c) => c.license_type === 'recreational')).toBe(false);
    expect(recreational.items.some((c) => c.license_type === 'medical')).toBe(false);
    expect(medical.items.some((c) => c.license_type === 'medical')).toBe(true);
    expect(all.total).toBeGreaterThan(Math.max(medical.total, recreational.total));
    expect(await refused('license_type=both')).toMatch(/license_type/);
  });

  it('filters by size (as `sizes`) and by price bucket', async () => {
    const eighths = await list('sizes=95&size=500');
    expect(eighths.total).toBeGreaterThan(0);
    for (const card of eighths.items) {
      const sizes = doc(card.sku)
        .configurable_children.filter((c) => c.status <= 1 && c.stock.is_in_stock)
        .map((c) => c.size);
      expect(sizes, card.sku).toContain(95);
    }
    for (const range of PRICE_RANGES) {
      const r = await list(`price=${range.key}&size=500`);
      for (const card of r.items) {
        expect(card.final_price, `${range.key} ${card.sku}`).toBeGreaterThanOrEqual(range.from);
        if (range.to != null) expect(card.final_price).toBeLessThan(range.to);
      }
    }
    const cheapOrDear = await list('price=0-50&price=150-&size=500');
    const cheap = await list('price=0-50&size=500');
    const dear = await list('price=150-&size=500');
    expect(cheapOrDear.total).toBe(cheap.total + dear.total);
  });

  it('sorts by price both ways and by latest', async () => {
    const finals = (r: ListResult) => r.items.map((c) => c.final_price);
    const asc = await list('sort=price_asc&size=500');
    const desc = await list('sort=price_desc&size=500');
    expect(finals(asc)).toEqual([...finals(asc)].sort((a, b) => a - b));
    expect(finals(desc)).toEqual([...finals(desc)].sort((a, b) => b - a));
    const latest = await list('size=500');
    const dates = latest.items.map((c) => c.updated_at);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(await list('sort=latest&size=500')).toEqual(latest);
  });

  it('pages with start and size, clamping a negative start and defaulting size 0 to 50', async () => {
    const all = await list('size=500');
    const first = await list('start=0&size=5');
    const second = await list('start=5&size=5');
    expect(first).toMatchObject({ start: 0, perPage: 5, total: all.total });
    expect([...first.items, ...second.items].map((c) => c.sku)).toEqual(all.items.slice(0, 10).map((c) => c.sku));
    expect((await list('start=-3&size=5')).start).toBe(0);
    const defaulted = await list('size=0');
    expect(defaulted.perPage).toBe(50);
    expect(defaulted.items).toHaveLength(50);
  });

  it('answers facets with labels and counts that match the filtered lists', async () => {
    const r = await list('category=menu/flower');
    const sizes = r.aggregations.size;
    expect(sizes.map((b) => b.label)).toEqual(sizes.map((b) => sizeLongLabel(Number(b.value))));
    for (const b of sizes.slice(0, 2))
      expect((await list(`category=menu/flower&sizes=${b.value}`)).total).toBe(b.count);
    const brands = r.aggregations.brand_id;
    expect(brands.length).toBeGreaterThan(1);
    expect(brands.reduce((sum, b) => sum + b.count, 0)).toBe(r.total);
    expect(brands.every((b) => b.label !== b.value)).toBe(true);
    expect((await list(`category=menu/flower&brand_id=${brands[0].value}`)).total).toBe(brands[0].count);
    // Disjunctive: choosing one brand keeps the others' counts.
    expect((await list(`category=menu/flower&brand_id=${brands[0].value}`)).aggregations.brand_id).toEqual(brands);

    const everything = await list('size=1');
    const priceLabels = { '0-50': '< $50', '50-100': '$50 - 100', '100-150': '$100 - 150', '150-': '> $150' };
    expect(everything.aggregations.price.length).toBeGreaterThan(1);
    for (const b of everything.aggregations.price)
      expect(b.label).toBe(priceLabels[b.value as keyof typeof priceLabels]);
    // Empty buckets are left out, unless chosen: a selected chip never disappears.
    const all4 = (await list('price=0-50&price=50-100&price=100-150&price=150-&size=1')).aggregations.price;
    expect(all4.map((b) => b.label)).toEqual(Object.values(priceLabels));
    expect(everything.aggregations.sale).toEqual([{ value: '1', label: 'On sale', count: expect.any(Number) }]);
    expect(everything.aggregations.staff_pick[0].label).toBe('Staff pick');
    expect(everything.aggregations.best_seller[0].label).toBe('Best seller');
    const licences = Object.fromEntries(everything.aggregations.license_type.map((b) => [b.value, b.label]));
    expect(licences).toMatchObject({ recreational: 'Recreational', medical: 'Medical' });
    const onSale = await list('sale=1&size=500');
    expect(onSale.total).toBe(everything.aggregations.sale[0].count);
    expect(onSale.items.every((c) => c.sale)).toBe(true);
    expect(everything.attributeMetadata.map((a) => a.attribute_code)).toEqual(
      expect.arrayContaining(['size', 'brand_id', 'discount_group_id', 'license_type']),
    );
  });

  it("leaves out the store's compliance-hidden categories", async () => {
    // Eastside hides Tinctures (category 8).
    const eastside = await list('size=500', 'eastside');
    expect(eastside.items.some((c) => doc(c.sku, 2).category_ids.includes(8))).toBe(false);
    const res = await app.inject({ url: '/api/catalog/products?category=8', headers: { host: hostOf('eastside') } });
    expect(res.json()).toEqual({ code: 404, result: 'Category query returned empty result id = 8' });
    const downtown = await list('category=8');
    expect(downtown.total).toBeGreaterThan(0);
  });

  it('refuses malformed parameters with 4xx and a reason', async () => {
    expect(await refused('brand_id=abc')).toMatch(/brand_id=abc/);
    expect(await refused('sort=cheapest')).toMatch(/sort=cheapest/);
    expect(await refused('colour=red')).toMatch(/colour=red/);
    expect(await refused('size=1000')).toBe('size must be at most 999');
    expect(await refused('start=abc')).toMatch(/start/);
    expect(await refused('size=5&size=6')).toMatch(/once/);
    expect(await refused('category=9999', 404)).toBe('Category query returned empty result id = 9999');
    expect(await refused('category=menu/nope', 404)).toBe('Category query returned empty result url_path = menu/nope');
    expect(await refused('storeCode=atlantis', 404)).toBe('Store "atlantis" does not exist');
  });

  it('serves another store by storeCode', async () => {
    const r = await list('storeCode=wellness&size=500');
    expect(r.items.length).toBeGreaterThan(0);
    expect(r.items.every((c) => app.catalog.catalog(3).productBySku(c.sku) !== undefined)).toBe(true);
  });

  it('runs raw queries for every entity with the store filters enforced', async () => {
    const search = async (body: unknown, store = 'downtown') => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/catalog/search',
        payload: body as object,
        headers: { host: hostOf(store) },
      });
      return { status: res.statusCode, body: res.json() };
    };
    const hidden = await search({
      entity: 'product',
      query: { filters: [{ field: 'visibility', op: 'eq', value: 1 }] },
    });
    expect(hidden).toMatchObject({ status: 200, body: { code: 200, result: { total: 0 } } });
    const otherStore = await search({
      entity: 'product',
      query: { filters: [{ field: 'dispensaryID', op: 'eq', value: 2 }] },
    });
    expect(otherStore.body.result.total).toBe(0);
    const projected = await search({
      entity: 'product',
      query: { text: 'gummies', size: 3, includeFields: ['sku', 'name'] },
    });
    expect(projected.body.result.items.length).toBeGreaterThan(0);
    for (const item of projected.body.result.items) expect(Object.keys(item).sort()).toEqual(['name', 'sku']);
    const excluded = await search({
      entity: 'product',
      query: { size: 1, excludeFields: ['description', 'media_gallery'] },
    });
    expect(excluded.body.result.items[0]).not.toHaveProperty('description');
    expect(excluded.body.result.items[0]).toHaveProperty('sku');

    const categories = await search(
      { entity: 'category', query: { filters: [{ field: 'parent_id', op: 'eq', value: 2 }] } },
      'eastside',
    );
    expect(categories.body.result.items.map((c: { id: number }) => c.id)).not.toContain(8);
    expect((await search({ entity: 'attribute', query: { text: 'brand' } })).body.result.items[0].attribute_code).toBe(
      'brand_id',
    );
    expect((await search({ entity: 'taxrule', query: {} })).body.result.total).toBeGreaterThan(0);
    const pages = await search({ entity: 'cms_page', query: { size: 100 } });
    expect(pages.body.result.items.map((p: { identifier: string }) => p.identifier)).not.toContain('holiday-hours');
    expect((await search({ entity: 'cms_block', query: { size: 150 } })).body.result.total).toBe(4);

    expect(await search({ entity: 'product', query: { size: 1000 } })).toEqual({
      status: 400,
      body: { code: 400, result: 'size must be at most 999' },
    });
    expect((await search({ entity: 'order', query: {} })).status).toBe(400);
    expect(
      (await search({ entity: 'product', query: { filters: [{ field: 'sku', op: 'like', value: 'x' }] } })).status,
    ).toBe(400);
    expect((await search({ entity: 'product', query: { text: 'ab' } })).body).toEqual({
      code: 400,
      result: 'Searched term at least 3 characters.',
    });
    expect((await search({ entity: 'product', query: { filters: 'x' } })).status).toBe(400);
  });
});
