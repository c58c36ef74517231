/**
 * The server-side funnel (issue 31): which requests count as which step (bots never), and counts
 * batched in memory that reach the database exactly once, from several nodes at once, both
 * databases — through the app's own hook on the real cart API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, pin, Shopper } from '../../test-support/cart/testing.ts';
import type { FastifyInstance } from 'fastify';
import { createFunnelCounter, isBot, stepsOf, type PageRequest } from './funnel.ts';

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const page = (over: Partial<PageRequest>): PageRequest => ({
  method: 'GET',
  path: '/',
  status: 200,
  contentType: 'text/html; charset=utf-8',
  host: 'downtown.example',
  userAgent: BROWSER,
  ...over,
});

describe('funnel steps of a request', () => {
  it('counts arrivals, product pages, checkout and cart adds; not bots, errors, APIs or own-site referers', () => {
    expect(stepsOf(page({}))).toEqual(['visit']);
    expect(stepsOf(page({ referer: 'https://downtown.example/menu' }))).toEqual([]);
    expect(stepsOf(page({ referer: 'https://www.google.com/' }))).toEqual(['visit']);
    expect(stepsOf(page({ path: '/p/BD/blue-dream', referer: 'https://downtown.example/' }))).toEqual(['product_view']);
    expect(stepsOf(page({ path: '/p/BD/blue-dream/BD-8TH' }))).toEqual(['visit', 'product_view']);
    expect(stepsOf(page({ path: '/p/BD/blue-dream.data', contentType: 'text/x-script' }))).toEqual(['product_view']);
    expect(stepsOf(page({ path: '/checkout.data', contentType: 'text/x-script' }))).toEqual(['checkout_started']);
    expect(stepsOf(page({ path: '/checkout', referer: 'https://downtown.example/p/x/y' }))).toEqual(['checkout_started']);
    expect(stepsOf(page({ status: 404 }))).toEqual([]);
    expect(stepsOf(page({ path: '/assets/app.js', contentType: 'text/javascript' }))).toEqual([]);
    expect(stepsOf(page({ path: '/api/catalog/products', contentType: 'application/json' }))).toEqual([]);
    expect(stepsOf(page({ method: 'POST', path: '/api/cart/update', contentType: 'application/json', body: { cartItem: { sku: 'x' } } }))).toEqual(['add_to_cart']);
    expect(stepsOf(page({ method: 'POST', path: '/api/cart/update', contentType: 'application/json', body: { cartItems: [] } }))).toEqual([]);
    for (const ua of ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Mozilla/5.0 (compatible; bingbot/2.0)', 'facebookexternalhit/1.1', 'curl/8.5.0', 'Mozilla/5.0 HeadlessChrome/131.0', '', undefined]) {
      expect(isBot(ua), String(ua)).toBe(true);
      expect(stepsOf(page({ userAgent: ua }))).toEqual([]);
    }
    expect(isBot(BROWSER)).toBe(false);
  });
});

describeEachDatabase('funnel counts', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await commerceApp(getDb(), () => new Date('2026-06-22T19:00:00.000Z'));
    await app.ready();
  });
  afterAll(async () => app?.close());

  const read = async (day: string) =>
    Object.fromEntries(
      (await getDb().db.selectFrom('analytics_funnel').select(['step', 'count']).where('store_id', '=', 1).where('day', '=', day).execute()).map((r) => [r.step, Number(r.count)]),
    );

  it('adds the counts of two nodes flushing at once, each count once', async () => {
    const nodes = [createFunnelCounter(getDb().db, { flushMs: 60_000 }), createFunnelCounter(getDb().db, { flushMs: 60_000 })];
    const at = new Date('2026-03-10T20:00:00.000Z');
    for (let i = 0; i < 50; i++) for (const n of nodes) n.count(1, 'America/Los_Angeles', i % 2 ? 'visit' : 'product_view', at);
    expect(nodes[0].pending()).toBe(50);
    // A burst: both nodes flush several times in parallel; what was counted is written once.
    await Promise.all(nodes.flatMap((n) => [n.flush(), n.flush(), n.flush()]));
    expect(nodes.map((n) => n.pending())).toEqual([0, 0]);
    expect(await read('2026-03-10')).toEqual({ visit: 50, product_view: 50 });
    await Promise.all(nodes.map((n) => n.stop()));
  });

  it("counts a shopper's cart add through the app's hook, and a bot's not at all, by the store's day", async () => {
    await pin(getDb().db, 1, 'FL-BLUE-DREAM-8TH', { price: 5200, special: null, tiers: [], stock: 1000 });
    const shopper = new Shopper(app);
    await shopper.createCart();
    const add = (ua: string) => shopper.call('POST', `/api/cart/update?cartId=${shopper.token}`, { cartItem: { quoteId: shopper.token, sku: 'FL-BLUE-DREAM-8TH', qty: 1 } }, { 'user-agent': ua });
    expect((await add(BROWSER)).status).toBe(200);
    expect((await add('Mozilla/5.0 (compatible; Googlebot/2.1)')).status).toBe(200);
    await app.analytics.funnel.flush();
    expect(await read('2026-06-22')).toEqual({ add_to_cart: 1 });
  });
});
