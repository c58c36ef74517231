/**
 * Integration (both databases): a flower imported from a menu file with its THC on the sizes
 * (24.5 %) shows it on the product card and the product page, and the page shows the lab test date,
 * batch and certificate (COA) link the file gave; a product without lab facts shows none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toProductCard, type CatalogProduct } from '@verdant/domain';
import type { FastifyInstance } from 'fastify';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../../server/src/config.ts';
import { NOW, registry, seed, testApp, loadCatalogues } from '../../../../server/test-support/catalog/test-app.ts';
import { plainCopy } from '../../../../server/src/catalog/plain-copy.ts';
import { importMenu } from '../../../../server/src/menu-import/index.ts';
import { describeEachDatabase } from '../../../../server/test-support/databases.ts';
import type { RootData } from '../../lib/root-data.ts';
import { toPublicStore } from '../../lib/store-view.ts';
import { ProductCard } from './ProductCard.tsx';
import { ProductView } from './ProductView.tsx';

const HARBOR = registry.stores.find((s) => s.storeCode === 'harbor')!;

function render(product: CatalogProduct, element: React.ReactNode, path = `/p/${product.sku}/${product.slug}`): string {
  const publicStore = toPublicStore(HARBOR);
  const root: RootData = {
    store: publicStore,
    basePath: '',
    stores: [],
    shopper: { ageConfirmed: true, licenseType: publicStore.licenseTypes[0], licenseChosen: true },
    demoMode: true,
    renderedAt: NOW.toISOString(),
  };
  const router = createMemoryRouter([{ id: 'root', path: '/p/:parentSku/:slug/:childSku?', Component: () => element }], {
    initialEntries: [path],
    hydrationData: { loaderData: { root } },
  });
  return renderToString(<RouterProvider router={router} />);
}

describeEachDatabase('imported potency and lab facts on the storefront', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await seed(getDb());
    const report = await importMenu(getDb().db, {
      storeId: HARBOR.storeId,
      source: [readFileSync(join(REPO_ROOT, 'examples/menu/example-menu.csv'))],
      format: 'csv',
      clock: () => NOW,
    });
    expect(report.outcome).toBe('applied');
    app = await testApp(getDb());
    await loadCatalogues(app, [HARBOR]);
  });
  afterAll(async () => app?.close());

  const bySku = (sku: string) => plainCopy([...app.catalog.catalog(HARBOR.storeId).allProducts()].find((p) => p.sku === sku)!);

  it('the product with sizes carries the THC, CBD and lab facts its sizes agree on', () => {
    const glacier = bySku('GLC');
    expect(glacier.type_id).toBe('configurable');
    expect(glacier).toMatchObject({
      thc_percent: 24.5,
      cbd_percent: 0.1,
      lab_tested_at: '2026-05-02',
      batch_number: 'B-2405-17',
      coa_url: 'https://lab.example/coa/B-2405-17.pdf',
    });
    expect(toProductCard(glacier, NOW).thc_percent).toBe(24.5);
  });

  it('the card and the page show THC 24.5%; the page shows the lab date, batch and COA link', () => {
    const glacier = bySku('GLC');
    const card = render(glacier, <ProductCard product={toProductCard(glacier, NOW)} />);
    expect(card.replace(/<!-- -->/g, '')).toContain('<span>THC 24.5%</span>');
    const page = render(glacier, <ProductView product={glacier} now={NOW.toISOString()} crumbs={[{ name: 'Home', path: '/' }]} serverWarning={null} />);
    expect(page).toMatch(/<dt[^>]*>THC<\/dt><dd[^>]*>24\.5%<\/dd>/);
    expect(page).toMatch(/<dt>Lab tested<\/dt><dd[^>]*>5\/2\/2026<\/dd>/);
    expect(page).toMatch(/<dt>Batch<\/dt><dd[^>]*>B-2405-17<\/dd>/);
    expect(page).toContain('href="https://lab.example/coa/B-2405-17.pdf" target="_blank" rel="noopener noreferrer nofollow"');
    expect(page).toContain('Certificate of analysis (COA)');
  });

  it('a product without lab facts shows no lab section', () => {
    const plain = plainCopy([...app.catalog.catalog(HARBOR.storeId).allProducts()].find((p) => p.type_id === 'simple' && p.visibility > 1 && !p.coa_url && !p.batch_number && !p.lab_tested_at)!);
    const page = render(plain, <ProductView product={plain} now={NOW.toISOString()} crumbs={[{ name: 'Home', path: '/' }]} serverWarning={null} />);
    expect(page).not.toContain('data-testid="lab-facts"');
  });
});
