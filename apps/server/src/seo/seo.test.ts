/** Integration: /sitemap.xml and /robots.txt per store on both databases. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hostOf, seed, loadCatalogues, testApp } from '../../test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';

describeEachDatabase('sitemap and robots', (getDb) => {
  let app: FastifyInstance;
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

  beforeAll(async () => {
    await seed(getDb());
    // As deployed behind a TLS-terminating proxy (TRUST_PROXY): X-Forwarded-Proto is believed.
    app = await testApp(getDb(), { trustProxy: '127.0.0.1' });
    await loadCatalogues(app);
  });
  afterAll(async () => app?.close());

  it('ignores forwarded headers from a client nobody vouches for (TRUST_PROXY unset)', async () => {
    const direct = await testApp(getDb());
    try {
      const res = await direct.inject({ url: '/sitemap.xml', headers: { host: hostOf('downtown'), 'x-forwarded-proto': 'https', 'x-forwarded-host': hostOf('harbor') } });
      expect(locs(res.body).every((u) => u.startsWith('http://downtown.localhost:3000/'))).toBe(true);
    } finally {
      await direct.close();
    }
  });

  it("lists the store's pages as absolute URLs on the request's origin", async () => {
    const res = await app.inject({
      url: '/sitemap.xml',
      headers: { host: hostOf('downtown'), 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const urls = locs(res.body);
    const origin = 'https://downtown.localhost:3000';
    expect(urls.every((u) => u.startsWith(`${origin}/`))).toBe(true);
    expect(urls).toEqual(
      expect.arrayContaining([
        `${origin}/`,
        `${origin}/menu`,
        `${origin}/menu/flower/indica`,
        `${origin}/p/FL-BLUE-DREAM/blue-dream`,
        `${origin}/about-us`,
        `${origin}/contact`,
        `${origin}/legal`,
      ]),
    );
    expect(new Set(urls).size).toBe(urls.length);
    // Only what a shopper can open: no children, kit members or disabled products.
    const catalog = app.catalog.catalog(1);
    const openable = [...catalog.allProducts()].filter((p) => p.status <= 1 && p.visibility !== 1);
    expect(urls.filter((u) => u.includes('/p/'))).toHaveLength(openable.length);
    expect(urls.some((u) => u.includes('FL-BLUE-DREAM-8TH') || u.includes('BDL-NIGHT-IN-HEMP-WICK'))).toBe(false);
    expect(res.body).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);
  });

  it("leaves out a store's hidden categories and their products", async () => {
    const east = locs((await app.inject({ url: '/sitemap.xml', headers: { host: hostOf('eastside') } })).body);
    expect(east.some((u) => u.endsWith('/menu/tinctures'))).toBe(false);
    const tinctures = [...app.catalog.catalog(2).allProducts()]
      .filter((p) => p.category_ids.includes(8))
      .map((p) => `/p/${p.sku}/`);
    expect(east.some((u) => tinctures.some((t) => u.includes(t)))).toBe(false);
    const down = locs((await app.inject({ url: '/sitemap.xml', headers: { host: hostOf('downtown') } })).body);
    expect(down.some((u) => u.endsWith('/menu/tinctures'))).toBe(true);
  });

  it('keeps the store-code prefix when the sitemap is asked for behind it', async () => {
    const res = await app.inject({ url: '/wellness/sitemap.xml', headers: { host: 'localhost:3000' } });
    expect(res.statusCode).toBe(200);
    const urls = locs(res.body);
    expect(urls[0]).toBe('http://localhost:3000/wellness');
    expect(urls.slice(1).every((u) => u.startsWith('http://localhost:3000/wellness/'))).toBe(true);
    expect((await app.inject({ url: '/atlantis/sitemap.xml' })).statusCode).toBe(404);
  });

  it('allows crawling except checkout, account and API, and points to the sitemap', async () => {
    const res = await app.inject({
      url: '/robots.txt',
      headers: { host: hostOf('harbor'), 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe(
      [
        'User-agent: *',
        'Allow: /',
        'Disallow: /checkout',
        'Disallow: /my-account',
        'Disallow: /api/',
        '',
        'Sitemap: https://harbor.localhost:3000/sitemap.xml',
        '',
      ].join('\n'),
    );
  });
});
