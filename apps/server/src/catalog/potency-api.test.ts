/**
 * Issue 30, both databases: the potency filters and the THC sort over the seeded demo catalogue read
 * from the database, through GET /api/catalog/products. Flower offers % ranges (no mg), edibles mg
 * per package (no %); every product a range lists shows a potency in that range; the counts are the
 * lists' sizes; THC high to low is in the card's THC order with unknown potency last; a range the
 * filter does not have is a 400.
 */
import { inPotencyRange, POTENCY_RANGES, type ProductCard } from '@verdant/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { hostOf, seed, loadCatalogues, testApp } from '../../test-support/catalog/test-app.ts';

type Bucket = { value: string; label: string; count: number };
interface ListResult {
  items: ProductCard[];
  total: number;
  aggregations: Record<string, Bucket[]>;
}

describeEachDatabase('potency filters and sort over the database’s catalogue', (getDb) => {
  let app: FastifyInstance;
  const list = async (query: string): Promise<ListResult> => {
    const res = await app.inject({ url: `/api/catalog/products?${query}&size=500`, headers: { host: hostOf('downtown') } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as ListResult;
  };
  const categoryId = (urlPath: string) => [...app.catalog.catalog(1).allCategories()].find((c) => c.url_path === urlPath)!.id;

  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    await loadCatalogues(app);
  });
  afterAll(async () => app?.close());

  it('flower: % ranges with counts, no mg; each range lists exactly the products whose THC is in it', async () => {
    const flower = categoryId('menu/flower');
    const all = await list(`category=${flower}`);
    expect(all.aggregations.thc_mg).toEqual([]);
    const buckets = all.aggregations.thc;
    expect(buckets.length).toBeGreaterThan(1);
    const known = all.items.filter((p) => p.thc_percent != null);
    for (const b of buckets) {
      const range = POTENCY_RANGES.thc.find((r) => r.key === b.value)!;
      expect(b.label).toBe(range.label);
      const r = await list(`category=${flower}&thc=${b.value}`);
      expect(r.total, b.value).toBe(b.count);
      expect(r.items.every((p) => p.thc_percent != null && inPotencyRange(p.thc_percent, range)), b.value).toBe(true);
      expect(r.total).toBe(known.filter((p) => inPotencyRange(p.thc_percent!, range)).length);
    }
    const two = await list(`category=${flower}&thc=${buckets[0].value}&thc=${buckets[1].value}`);
    expect(two.total).toBe(buckets[0].count + buckets[1].count);
  });

  it('edibles: mg per package ranges, no %', async () => {
    const edibles = categoryId('menu/edibles');
    const all = await list(`category=${edibles}`);
    expect(all.aggregations.thc).toEqual([]);
    expect(all.aggregations.thc_mg.map((b) => b.value).sort()).toEqual(expect.arrayContaining(['10-100']));
    const mid = await list(`category=${edibles}&thc_mg=10-100`);
    expect(mid.total).toBeGreaterThan(0);
    expect(mid.items.every((p) => p.potency?.thcMg != null && p.potency.thcMg > 10 && p.potency.thcMg <= 100)).toBe(true);
  });

  it('THC high to low and low to high follow the card’s THC; unknown potency last', async () => {
    const flower = categoryId('menu/flower');
    for (const [sort, dir] of [['thc_desc', -1], ['thc_asc', 1]] as const) {
      const items = (await list(`category=${flower}&sort=${sort}`)).items;
      const values = items.map((p) => p.thc_percent);
      const firstUnknown = values.indexOf(null);
      const known = (firstUnknown < 0 ? values : values.slice(0, firstUnknown)) as number[];
      expect(known.length).toBeGreaterThan(1);
      for (let i = 1; i < known.length; i++) expect((known[i] - known[i - 1]) * dir, sort).toBeGreaterThanOrEqual(0);
      if (firstUnknown >= 0) expect(values.slice(firstUnknown).every((v) => v == null)).toBe(true);
    }
  });

  it('refuses a range the filter does not have', async () => {
    for (const q of ['thc=21-22', 'thc_mg=20-25', 'rating=5', 'sort=thc']) {
      const res = await app.inject({ url: `/api/catalog/products?${q}`, headers: { host: hostOf('downtown') } });
      expect(res.statusCode, q).toBe(400);
    }
  });
});
