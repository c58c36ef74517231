/** Integration: the CMS API (pages and blocks by id, by identifier, as lists) on both databases. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hostOf, seed, testApp } from '../../test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';

const EMPTY = { code: 404, result: 'CMS query returned empty result' };

describeEachDatabase('CMS API', (getDb) => {
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

  it('finds a page by identifier and by id, in the store of the request', async () => {
    const byIdentifier = await get('/api/cms/page?identifier=about-us');
    expect(byIdentifier.status).toBe(200);
    expect(byIdentifier.body.result).toMatchObject({ identifier: 'about-us', title: 'About us', is_active: true });
    expect(byIdentifier.body.result.content).toContain('Verdant Downtown');
    expect((await get(`/api/cms/page/${byIdentifier.body.result.id}`)).body).toEqual(byIdentifier.body);
    const eastside = await get('/api/cms/page?identifier=about-us', 'eastside');
    expect(eastside.body.result.content).toContain('Verdant Eastside');
    // Another store's page id is not this store's page.
    expect(await get(`/api/cms/page/${eastside.body.result.id}`)).toEqual({ status: 404, body: EMPTY });
    expect((await get(`/api/cms/page/${eastside.body.result.id}?storeCode=eastside`)).status).toBe(200);
  });

  it('hides inactive and unknown pages with the spec message', async () => {
    expect(await get('/api/cms/page?identifier=holiday-hours')).toEqual({ status: 404, body: EMPTY });
    expect(await get('/api/cms/page?identifier=nope')).toEqual({ status: 404, body: EMPTY });
    expect(await get('/api/cms/page/999999')).toEqual({ status: 404, body: EMPTY });
  });

  it('lists active pages and blocks, at most 150', async () => {
    const pages = await get('/api/cms/page');
    expect(pages.body.result.total).toBe(14);
    expect(pages.body.result.items.map((p: { identifier: string }) => p.identifier)).not.toContain('holiday-hours');
    const blocks = await get('/api/cms/block');
    expect(blocks.body.result.items.map((b: { identifier: string }) => b.identifier).sort()).toEqual([
      'age-notice',
      'delivery-banner',
      'footer-about',
      'license-notice',
    ]);
    expect((await get('/api/cms/block?size=2')).body.result.items).toHaveLength(2);
    const block = await get('/api/cms/block?identifier=license-notice');
    expect(block.body.result.content).toContain('license');
    expect((await get(`/api/cms/block/${block.body.result.id}`)).body).toEqual(block.body);
  });

  it('refuses malformed requests', async () => {
    expect(await get('/api/cms/page/abc')).toEqual({
      status: 400,
      body: { code: 400, result: 'id must be a whole number' },
    });
    expect((await get('/api/cms/block?size=151')).status).toBe(400);
    expect((await get('/api/cms/page?identifier=')).status).toBe(400);
    expect((await get('/api/cms/page?title=x')).status).toBe(400);
    expect(await get('/api/cms/page?identifier=about-us&storeCode=atlantis')).toEqual({
      status: 404,
      body: { code: 404, result: 'Store "atlantis" does not exist' },
    });
  });
});
