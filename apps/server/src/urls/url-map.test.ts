/**
 * Integration: the URL mapping — POST /api/url/map and the pages' mapUrl service — over the seeded
 * demo catalogue on both databases: every `_type`, rewrites, children, encoded paths, the mapping
 * options and bad input.
 */
import { CATALOG_MESSAGES, type CatalogProduct } from '@verdant/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hostOf, NOW, seed, storeByCode, loadCatalogues, testApp } from '../../test-support/catalog/test-app.ts';
import { createStorefrontServices } from '../ssr/services.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';

const available = (c: { status: number; stock: { is_in_stock: boolean } }) => c.status <= 1 && c.stock.is_in_stock;

describeEachDatabase('URL mapping', (getDb) => {
  let app: FastifyInstance;
  const map = async (payload: object, store = 'downtown') => {
    const res = await app.inject({ method: 'POST', url: '/api/url/map', payload, headers: { host: hostOf(store) } });
    return { status: res.statusCode, body: res.json() as { code: number; result: any } };
  };
  const services = () => createStorefrontServices({ manager: app.catalog, clock: () => NOW }).services;
  const products = (storeId = 1): CatalogProduct[] => [...app.catalog.catalog(storeId).allProducts()];

  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    await loadCatalogues(app);
  });
  afterAll(async () => app?.close());

  it('maps a product, a category and a CMS page url to their documents', async () => {
    const product = await map({ url: '/blue-dream' });
    expect(product.status).toBe(200);
    expect(product.body.result._type).toBe('product');
    expect(product.body.result._source).toMatchObject({ sku: 'FL-BLUE-DREAM', type_id: 'configurable' });
    const category = await map({ url: '/menu/flower/indica/' });
    expect(category.body.result).toMatchObject({
      _type: 'category',
      _source: { id: 11, url_path: 'menu/flower/indica' },
    });
    const page = await map({ url: 'about-us' });
    expect(page.body.result).toMatchObject({ _type: 'cms_page', _source: { identifier: 'about-us', is_active: true } });
  });

  it('answers page-not-found for unknown, disabled, inactive or hidden targets', async () => {
    const notFound = { status: 404, body: { code: 404, result: 'page-not-found' } };
    expect(await map({ url: '/no-such-thing' })).toEqual(notFound);
    expect(await map({ url: '/holiday-hours' })).toEqual(notFound);
    expect(await map({ url: '/' })).toEqual(notFound);
    const disabled = products().find((p) => p.status >= 2 && p.visibility !== 1)!;
    expect(await map({ url: `/${disabled.url_path}` })).toEqual(notFound);
    // Eastside hides Tinctures: neither the category nor its products resolve there.
    const tincture = products(2).find((p) => p.category_ids.includes(8) && p.visibility !== 1 && p.status <= 1)!;
    expect(await map({ url: `/${tincture.url_path}` }, 'eastside')).toEqual(notFound);
    expect(await map({ url: '/menu/tinctures' }, 'eastside')).toEqual(notFound);
    expect((await map({ url: '/menu/tinctures' })).status).toBe(200);
  });

  it('decodes URL-encoded paths safely (VSF #2614), ignores query, hash, case and the store prefix', async () => {
    for (const url of [
      '/menu/flower/%69ndica',
      '/menu%2Fflower%2Findica',
      '/MENU/Flower/Indica',
      '/menu/flower/indica?x=1#top',
      'http://downtown.localhost:3000/menu/flower/indica/',
      '/downtown/menu/flower/indica',
    ]) {
      expect((await map({ url })).body.result, url).toMatchObject({ _type: 'category', _source: { id: 11 } });
    }
    for (const url of ['/blue-dream%', '/%E0%A4%A', '/%zz/blue-dream', `/${'x'.repeat(2000)}`]) {
      expect(await map({ url }), url).toEqual({ status: 404, body: { code: 404, result: 'page-not-found' } });
    }
  });

  it('follows URL rewrites, to a product size, a category and a CMS page', async () => {
    const eighth = await map({ url: '/shop/blue-dream-eighth' });
    // Without separateSelectedVariant the chosen size is merged into the product (configured).
    expect(eighth.body.result._source).toMatchObject({
      sku: 'FL-BLUE-DREAM-8TH',
      parentSku: 'FL-BLUE-DREAM',
      is_configured: true,
      size: 92,
    });
    const separate = await map({ url: '/shop/blue-dream-eighth', options: { separateSelectedVariant: true } });
    expect(separate.body.result._source).toMatchObject({
      sku: 'FL-BLUE-DREAM',
      selectedVariant: { sku: 'FL-BLUE-DREAM-8TH', size: 92 },
    });
    expect((await map({ url: '/shop/flower' })).body.result).toMatchObject({ _type: 'category', _source: { id: 3 } });
    expect((await map({ url: '/deals' })).body.result).toMatchObject({
      _type: 'cms_page',
      _source: { identifier: 'sale' },
    });
  });

  it('maps a child to its parent with the child selected', async () => {
    const childPath = `/${app.catalog.catalog(1).productBySku('FL-BLUE-DREAM-8TH')!.url_path}`;
    expect(childPath).toBe('/blue-dream-8th');
    const child = await map({ url: childPath, options: { separateSelectedVariant: true } });
    expect(child.body.result._source).toMatchObject({
      sku: 'FL-BLUE-DREAM',
      selectedVariant: { sku: 'FL-BLUE-DREAM-8TH' },
    });
    const s = services();
    const store = storeByCode('downtown');
    // The pages redirect (301) to the parent's page with the size in the path.
    expect(await s.mapUrl(store, childPath)).toEqual({
      type: 'product',
      sku: 'FL-BLUE-DREAM',
      slug: 'blue-dream',
      childSku: 'FL-BLUE-DREAM-8TH',
      path: '/p/FL-BLUE-DREAM/blue-dream/FL-BLUE-DREAM-8TH',
      redirect: true,
    });
    const open = { ...store, catalog: { ...store.catalog, preventConfigurableChildrenDirectAccess: false } };
    expect(await s.mapUrl(open, childPath)).toMatchObject({ childSku: 'FL-BLUE-DREAM-8TH', redirect: false });
    // A kit member is nobody's child and not visible on its own.
    expect(await s.mapUrl(store, '/bdl-night-in-hemp-wick')).toEqual({ type: 'page-not-found' });
  });

  it('gives the pages the path to render or redirect to', async () => {
    const s = services();
    const store = storeByCode('downtown');
    expect(await s.mapUrl(store, '/blue-dream')).toEqual({
      type: 'product',
      sku: 'FL-BLUE-DREAM',
      slug: 'blue-dream',
      childSku: null,
      path: '/p/FL-BLUE-DREAM/blue-dream',
      redirect: false,
    });
    expect(await s.mapUrl(store, '/shop/blue-dream-eighth')).toMatchObject({
      path: '/p/FL-BLUE-DREAM/blue-dream/FL-BLUE-DREAM-8TH',
      redirect: true,
    });
    expect(await s.mapUrl(store, '/menu/flower/hybrid')).toEqual({
      type: 'category',
      urlPath: 'menu/flower/hybrid',
      path: '/menu/flower/hybrid',
      redirect: false,
    });
    expect(await s.mapUrl(store, '/edibles/gummies')).toEqual({
      type: 'category',
      urlPath: 'menu/edibles/gummies',
      path: '/menu/edibles/gummies',
      redirect: true,
    });
    expect(await s.mapUrl(store, '/about')).toEqual({
      type: 'cms_page',
      identifier: 'about-us',
      path: '/i/about-us',
      redirect: true,
    });
    expect(await s.mapUrl(store, '/deals')).toEqual({
      type: 'cms_page',
      identifier: 'sale',
      path: '/i/sale',
      redirect: false,
    });
    expect(await s.mapUrl(store, '/nope')).toEqual({ type: 'page-not-found' });
  });

  it('honours filterUnavailableVariants, setProductErrors and fallbackToDefaultWhenNoAvailable', async () => {
    const partial = products().find(
      (p) =>
        p.type_id === 'configurable' &&
        p.status <= 1 &&
        p.visibility !== 1 &&
        p.configurable_children.some((c) => !available(c)) &&
        p.configurable_children.some(available),
    )!;
    const full = await map({ url: partial.url_path });
    expect(full.body.result._source.configurable_children).toHaveLength(5);
    const filtered = await map({ url: partial.url_path, options: { filterUnavailableVariants: true } });
    const kept = partial.configurable_children.filter(available);
    expect(filtered.body.result._source.configurable_children.map((c: { sku: string }) => c.sku)).toEqual(
      kept.map((c) => c.sku),
    );
    expect(
      filtered.body.result._source.configurable_options[0].values.map((v: { value_index: number }) => v.value_index),
    ).toEqual(kept.map((c) => c.size));

    const gone = partial.configurable_children.find((c) => !available(c))!;
    const strict = await map({
      url: partial.url_path,
      filters: { sku: gone.sku },
      options: { setProductErrors: true, separateSelectedVariant: true },
    });
    expect(strict.body.result._source).toMatchObject({
      selectedVariant: null,
      errors: { variants: CATALOG_MESSAGES.noSuchConfiguration },
    });
    const fallback = await map({
      url: partial.url_path,
      filters: { sku: gone.sku },
      options: { fallbackToDefaultWhenNoAvailable: true, separateSelectedVariant: true },
    });
    expect(fallback.body.result._source.selectedVariant.sku).toBe(kept[0].sku);

    const soldOut = products().find(
      (p) =>
        p.type_id === 'configurable' && p.visibility !== 1 && p.status <= 1 && !p.configurable_children.some(available),
    )!;
    const errors = await map({ url: soldOut.url_path, options: { setProductErrors: true } });
    expect(errors.body.result._source.errors).toEqual({ variants: 'No available product variants' });
    expect((await map({ url: '/blue-dream', options: { setProductErrors: true } })).body.result._source.errors).toEqual(
      {},
    );
  });

  it('honours includeFields and excludeFields', async () => {
    const only = await map({ url: '/blue-dream', includeFields: ['sku', 'name', 'no_such_field'] });
    expect(only.body.result._source).toEqual({ sku: 'FL-BLUE-DREAM', name: 'Blue Dream' });
    const without = await map({ url: '/menu/flower', excludeFields: ['path', 'parent_ids'] });
    expect(without.body.result._source).not.toHaveProperty('path');
    expect(without.body.result._source).toHaveProperty('url_path', 'menu/flower');
  });

  it('refuses bad requests with 4xx and {code, result}', async () => {
    const bad = async (payload: unknown, status = 400) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/url/map',
        payload: payload as string,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json()).toMatchObject({ code: status, result: expect.any(String) });
    };
    await bad({});
    await bad({ url: '' });
    await bad({ url: 42 });
    await bad({ url: '/blue-dream', options: { filterUnavailableVariants: 'yes' } });
    await bad({ url: '/blue-dream', includeFields: 'sku' });
    await bad('{not json');
    const res = await app.inject({
      method: 'POST',
      url: '/api/url/map?storeCode=atlantis',
      payload: { url: '/blue-dream' },
    });
    expect(res.json()).toEqual({ code: 404, result: 'Store "atlantis" does not exist' });
  });
});
