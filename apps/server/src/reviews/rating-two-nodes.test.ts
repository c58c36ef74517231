/**
 * Issue 30, both databases: a product's approved-review rating lives in the catalogue (cards, the
 * Top rated sort, the "4 stars & up" filter), read from the database, and follows every change on
 * every node within the catalogue's 2 s: two apps over one database and one Redis; a manager approves
 * a pending review on one node and the other's products API answers the new average and count; a
 * buyer's edit of a published review on the other node takes it off (count and average follow on the
 * first node), and rejecting the edit leaves them; switching the store's reviews off takes every
 * rating out of the other node's answers, and a rating filter or sort there then matches no rating.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ProductCard } from '@verdant/domain';
import { bearer, loginCustomer, REFERENCE_DATE, registry } from '../../test-support/cart/testing.ts';
import type { StaffTestSession } from '../../test-support/staff/testing.ts';
import { twoSeededNodes, type TwoNodes } from '../../test-support/multinode/in-process.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { ensureDemoReviews } from '../seed/demo-reviews.ts';

const HOST = 'downtown.localhost';
const REACH_MS = 2000;

describeEachDatabase('product ratings in the catalogue on two nodes', (getDb) => {
  let nodes: TwoNodes;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let owner: StaffTestSession;
  let sku: string;
  let pendingId: number;

  beforeAll(async () => {
    nodes = await twoSeededNodes(getDb(), 'ratings', { clock: () => REFERENCE_DATE });
    ({ a, b, ownerA: owner } = nodes);
    // The demo's reviews: two approved (5 and 4 stars), one pending (5 stars), written through the
    // reviews module before either node loaded the store's catalogue (as main.ts does).
    expect(await ensureDemoReviews(getDb().db, registry.stores, REFERENCE_DATE)).toBe(6);
    const pending = await getDb()
      .db.selectFrom('reviews')
      .select(['id', 'sku'])
      .where('store_id', '=', 1)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    pendingId = pending.id;
    sku = pending.sku;
  });
  afterAll(() => nodes?.close());

  const list = async (app: FastifyInstance, query: string) => {
    const r = await app.inject({ url: `/api/catalog/products?${query}&size=200`, headers: { host: HOST } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().result as { items: ProductCard[]; total: number; aggregations: Record<string, { value: string; count: number }[]> };
  };
  const ratingOf = async (app: FastifyInstance) => (await list(app, 'sort=top_rated')).items.find((p) => p.sku === sku)?.rating ?? null;

  it('the rating read from the database is on the card, first in Top rated, and matched by 4 stars & up', async () => {
    for (const app of [a, b]) {
      const top = await list(app, 'sort=top_rated');
      expect(top.items[0]).toMatchObject({ sku, rating: { average: 4.5, count: 2 } });
      expect(top.items.filter((p) => p.rating)).toHaveLength(1);
      const four = await list(app, 'rating=4');
      expect(four.items.map((p) => p.sku)).toEqual([sku]);
      expect(four.aggregations.rating).toEqual(
        expect.arrayContaining([
          { value: '4', label: '4 stars & up', count: 1 },
          { value: '3', label: '3 stars & up', count: 1 },
        ]),
      );
      expect(four.aggregations.rating).toHaveLength(2);
    }
  });

  it('an approval on one node reaches the other’s cards within 2 s', async () => {
    const started = Date.now();
    const decided = await a.inject({
      method: 'POST',
      url: `/api/console/stores/1/reviews/${pendingId}/decision`,
      headers: owner.headers,
      payload: { decision: 'approve' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(await ratingOf(a)).toEqual({ average: 4.7, count: 3 });
    await expect.poll(() => ratingOf(b), { timeout: REACH_MS, interval: 20 }).toEqual({ average: 4.7, count: 3 });
    expect(Date.now() - started).toBeLessThan(REACH_MS);
  });

  it('a buyer’s edit on the other node takes the review off the rating; rejecting the edit leaves it off', async () => {
    // Maya Chen, the demo's 5-star buyer (seed/demo-reviews.ts), edits her published review on node b.
    const maya = await loginCustomer(b, '(916) 555-0711');
    const started = Date.now();
    const edited = await b.inject({
      method: 'POST',
      url: `/api/reviews/products/${encodeURIComponent(sku)}`,
      headers: { host: HOST, ...bearer(maya.token) },
      payload: { stars: 2, title: 'Changed my mind', text: 'The second jar was drier than the first one, sadly.', effects: [], flavours: [] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().result.status).toBe('pending');
    // 4 and 5 stars left published.
    expect(await ratingOf(b)).toEqual({ average: 4.5, count: 2 });
    await expect.poll(() => ratingOf(a), { timeout: REACH_MS, interval: 20 }).toEqual({ average: 4.5, count: 2 });
    expect(Date.now() - started).toBeLessThan(REACH_MS);
    const rejected = await a.inject({
      method: 'POST',
      url: `/api/console/stores/1/reviews/${edited.json().result.id}/decision`,
      headers: owner.headers,
      payload: { decision: 'reject', reason: 'Please keep to the product itself.' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    for (const app of [a, b]) expect(await ratingOf(app)).toEqual({ average: 4.5, count: 2 });
  });

  it('with reviews switched off, no node answers a rating; a rating filter matches nothing and Top rated is the default order', async () => {
    const latest = (await list(b, '')).items.map((p) => p.sku);
    const saved = await a.inject({
      method: 'PUT',
      url: '/api/console/stores/1/settings/sections/reviews',
      headers: owner.headers,
      payload: { value: { enabled: false }, version: 0 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await expect.poll(() => ratingOf(b), { timeout: REACH_MS, interval: 20 }).toBeNull();
    for (const app of [a, b]) {
      const top = await list(app, 'sort=top_rated');
      expect(top.items.some((p) => 'rating' in p)).toBe(false);
      expect(top.items.map((p) => p.sku)).toEqual(latest);
      expect((await list(app, 'rating=4')).total).toBe(0);
      // Not on the card, nor in the product's document (the product page's data), nor in the facets.
      const found = await list(app, `text=${encodeURIComponent(sku)}`);
      expect(found.items.map((p) => p.sku)).toContain(sku);
      expect(JSON.stringify(found)).not.toContain('"rating":{');
      expect(found.aggregations.rating).toEqual([]);
      const doc = await app.inject({ url: `/api/catalog/product/${encodeURIComponent(sku)}`, headers: { host: HOST } });
      expect(doc.statusCode, doc.body).toBe(200);
      expect(doc.body).not.toContain('"rating"');
    }
  });
});
