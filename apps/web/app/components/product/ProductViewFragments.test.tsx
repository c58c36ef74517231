/**
 * Integration: the product page's parts from the server's fragment cache (`pageFragments`:
 * breadcrumbs, facts, the size group, description, tags) are the same bytes as the page body React
 * renders in full, for every product of every seeded store (both databases, own host and store-code
 * prefix, the default size and another one chosen in the URL), and a change of what a key covers
 * renders anew.
 */
import type { CatalogProduct } from '@verdant/domain';
import type { FastifyInstance } from 'fastify';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { NOW, registry, seed, testApp, loadCatalogues } from '../../../../server/test-support/catalog/test-app.ts';
import { plainCopy } from '../../../../server/src/catalog/plain-copy.ts';
import { describeEachDatabase } from '../../../../server/test-support/databases.ts';
import type { BreadcrumbItem } from '../../lib/category-tree.ts';
import { pageFragments } from '../../lib/fragment-cache.ts';
import type { RootData } from '../../lib/root-data.ts';
import { toPublicStore } from '../../lib/store-view.ts';
import { kitPartsReady, ProductView } from './ProductView.tsx';

function renderProduct(root: RootData, product: CatalogProduct, url: string, crumbs: BreadcrumbItem[]): string {
  const router = createMemoryRouter(
    [
      {
        id: 'root',
        path: `${root.basePath}/p/:parentSku/:slug/:childSku?`,
        Component: () => <ProductView product={product} now={NOW.toISOString()} crumbs={crumbs} serverWarning={null} />,
      },
    ],
    { initialEntries: [url], hydrationData: { loaderData: { root } } },
  );
  return renderToString(<RouterProvider router={router} />);
}

function threeRenders(render: () => string): { full: string; first: string; fromCache: string } {
  pageFragments.setRenderer(undefined);
  const full = render();
  pageFragments.setRenderer(renderToString);
  const first = render();
  pageFragments.flush();
  const fromCache = render();
  pageFragments.setRenderer(undefined);
  return { full, first, fromCache };
}

afterEach(() => {
  pageFragments.setRenderer(undefined);
  pageFragments.clear();
});

describeEachDatabase('product page parts from the fragment cache', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    await loadCatalogues(app);
  });
  afterAll(async () => app?.close());

  const productsOf = (storeId: number) => [...app.catalog.catalog(storeId).allProducts()].map((p) => plainCopy(p));
  const rootOf = (storeCode: string, basePath: string): RootData => {
    const store = registry.stores.find((s) => s.storeCode === storeCode)!;
    const publicStore = toPublicStore(store);
    return {
      store: publicStore,
      basePath,
      stores: [],
      shopper: { ageConfirmed: true, licenseType: publicStore.licenseTypes[0], licenseChosen: true },
      demoMode: true,
      renderedAt: NOW.toISOString(),
    };
  };
  const crumbsOf = (p: CatalogProduct): BreadcrumbItem[] => [
    { name: 'Home', path: '/' },
    { name: 'Menu', path: '/menu' },
    ...(p.category[0] ? [{ name: p.category[0].name, path: `/${p.category[0].url_path}` }] : []),
    { name: p.name },
  ];

  it('writes every seeded product’s page body byte for byte as React renders it in full', async () => {
    let pages = 0;
    let withSizes = 0;
    for (const store of registry.stores) {
      const products = productsOf(store.storeId);
      expect(products.length, store.storeCode).toBeGreaterThan(20);
      for (const basePath of ['', `/${store.storeCode}`]) {
        const root = rootOf(store.storeCode, basePath);
        for (const product of products) {
          await kitPartsReady(product);
          const crumbs = crumbsOf(product);
          // The default size, and (for a configurable) the last size chosen in the URL.
          const last = product.configurable_children.at(-1);
          const urls = [
            `${basePath}/p/${product.sku}/${product.slug}`,
            ...(last ? [`${basePath}/p/${product.sku}/${product.slug}/${last.sku}`] : []),
          ];
          for (const url of urls) {
            const { full, first, fromCache } = threeRenders(() => renderProduct(root, product, url, crumbs));
            expect(full).toContain(`>${product.name.replace(/&/g, '&amp;')}</h1>`);
            expect(full).toContain(`href="${basePath}/menu" data-discover="true">Menu</a>`);
            if (full.includes('name="size"')) withSizes++;
            expect(first, `${store.storeCode} ${url}: first render`).toBe(full);
            expect(fromCache, `${store.storeCode} ${url}: from the cache`).toBe(full);
            pages++;
          }
        }
      }
    }
    expect(pages).toBeGreaterThan(400);
    expect(withSizes).toBeGreaterThan(50);
    // Breadcrumbs on every page, facts, sizes, description and tags on most.
    expect(pageFragments.hits).toBeGreaterThan(pages * 2);
    // ~1,000 pages × 3 renders each, on a shared 2-core machine.
  }, 180_000);

  it('renders a changed product (price, stock, description, tags, facts, crumbs) anew', () => {
    const root = rootOf('downtown', '');
    const product = productsOf(1).find((p) => p.type_id === 'configurable' && p.description && p.discovery_tags.length > 0)!;
    const url = `/p/${product.sku}/${product.slug}`;
    const crumbs = crumbsOf(product);
    const { fromCache: before } = threeRenders(() => renderProduct(root, product, url, crumbs));
    const children = product.configurable_children;
    const changes: { what: string; product: CatalogProduct; crumbs?: BreadcrumbItem[]; expect: string }[] = [
      {
        what: 'a size’s price',
        product: {
          ...product,
          configurable_children: children.map((c, i) =>
            i === 1 ? { ...c, price: c.price + 100, special_price: null, tier_prices: [] } : c,
          ),
        },
        expect: 'name="size"',
      },
      {
        what: 'a size sold out',
        product: {
          ...product,
          configurable_children: children.map((c, i) => (i === 1 ? { ...c, stock: { ...c.stock, is_in_stock: false, qty: 0 } } : c)),
        },
        expect: 'name="size"',
      },
      {
        what: 'the description',
        product: { ...product, description: `${product.description}\n\nNew batch.` },
        expect: '<p>New batch.</p>',
      },
      { what: 'the tags', product: { ...product, discovery_tags: [...product.discovery_tags].slice(1) }, expect: 'Good to know' },
      { what: 'the facts', product: { ...product, thc_percent: 33.3 }, expect: '33.3%' },
      {
        what: 'the crumbs',
        product,
        crumbs: [{ name: 'Home', path: '/' }, { name: 'Deals', path: '/sale' }, { name: product.name }],
        expect: '>Deals</a>',
      },
    ];
    for (const c of changes) {
      const { full, first, fromCache } = threeRenders(() => renderProduct(root, c.product, url, c.crumbs ?? crumbs));
      expect(full, c.what).not.toBe(before);
      expect(full, c.what).toContain(c.expect);
      expect(first, `${c.what}: first render`).toBe(full);
      expect(fromCache, `${c.what}: from the cache`).toBe(full);
    }
  });
});
