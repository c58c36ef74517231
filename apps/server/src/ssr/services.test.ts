/**
 * Integration: the storefront services the page loaders call (the AppContext contract), answered
 * from the in-memory catalogue of the seeded demo on both databases.
 */
import { MESSAGES, type Store } from '@verdant/domain';
import type { StorefrontServices } from '@verdant/web/context';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CatalogIndexManager } from '../catalog/index-manager.ts';
import { NOW, seed, storeByCode, storesFile } from '../../test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { createStorefrontServices } from './services.ts';

const downtown = storeByCode('downtown');
const eastside = storeByCode('eastside');
const childrenOpen = (store: Store): Store => ({
  ...store,
  catalog: { ...store.catalog, preventConfigurableChildrenDirectAccess: false },
});

describeEachDatabase('storefront services', (getDb) => {
  let manager: CatalogIndexManager;
  let services: StorefrontServices;
  let invalidate: (storeId?: number) => void;

  beforeAll(async () => {
    await seed(getDb());
    manager = new CatalogIndexManager({ db: getDb().db, stores: storesFile.stores, clock: () => NOW });
    await manager.start();
    await Promise.all(storesFile.stores.map((s) => manager.ensure(s.storeId)));
    ({ services, invalidate } = createStorefrontServices({ manager, clock: () => NOW }));
  });
  afterAll(async () => manager?.close());

  it('builds the menu tree from the root, hidden categories removed', async () => {
    const [root] = await services.categoryTree(downtown);
    expect(root).toMatchObject({ id: 2, url_path: 'menu' });
    expect(root.children_data!.map((c) => c.name)).toEqual([
      'Flower',
      'Pre-Rolls',
      'Vapes',
      'Concentrates',
      'Edibles',
      'Tinctures',
      'Topicals',
      'Accessories',
    ]);
    expect(root.children_data![0].children_data!.map((c) => c.url_path)).toEqual([
      'menu/flower/indica',
      'menu/flower/sativa',
      'menu/flower/hybrid',
    ]);
    const [eastRoot] = await services.categoryTree(eastside);
    expect(eastRoot.children_data!.map((c) => c.name)).not.toContain('Tinctures');
  });

  it('finds categories by url_path, not hidden ones', async () => {
    expect(await services.categoryByPath(downtown, 'menu/flower/indica')).toMatchObject({ id: 11, parent_ids: [2, 3] });
    expect(await services.categoryByPath(downtown, 'menu')).toMatchObject({ id: 2 });
    expect(await services.categoryByPath(downtown, 'menu/nope')).toBeNull();
    expect(await services.categoryByPath(eastside, 'menu/tinctures')).toBeNull();
    expect(await services.categoryByPath(downtown, 'menu/tinctures')).toMatchObject({ id: 8 });
  });

  it('searches products with labelled facets and the text rule', async () => {
    const list = await services.searchProducts(downtown, { categoryId: 3, licenseType: 'recreational', size: 10 });
    expect(list.items).toHaveLength(10);
    expect(list.total).toBeGreaterThan(10);
    expect(list.facets.size!.map((b) => b.label)).toEqual(expect.arrayContaining(['1 g', '28 g (1 oz)']));
    expect(list.facets.brand_id!.every((b) => b.label.length > 0 && b.count > 0)).toBe(true);
    expect(list.attributeMetadata.map((a) => a.attribute_code)).toContain('size');
    await expect(services.searchProducts(downtown, { text: 'ab' })).rejects.toThrow(MESSAGES.searchTermTooShort);
  });

  it('loads a product page product, with the spec §4 rules', async () => {
    expect(await services.product(downtown, 'FL-BLUE-DREAM')).toMatchObject({ sku: 'FL-BLUE-DREAM' });
    // A child opens its parent (the page redirects) while direct access is blocked (the default) …
    expect(await services.product(downtown, 'FL-BLUE-DREAM-OZ')).toMatchObject({ sku: 'FL-BLUE-DREAM' });
    // … and is refused when the store lets children be opened directly (they are not visible).
    await expect(services.product(childrenOpen(downtown), 'FL-BLUE-DREAM-OZ')).rejects.toThrow(
      'Product query returned empty result visibility = 1',
    );
    const disabled = [...manager.catalog(1).allProducts()].find((p) => p.status >= 2 && p.visibility !== 1)!;
    await expect(services.product(downtown, disabled.sku)).rejects.toThrow(
      `Product query returned empty result product status = ${disabled.status}`,
    );
    expect(await services.product(downtown, 'NO-SUCH-SKU')).toBeNull();
    const tincture = [...manager.catalog(2).allProducts()].find(
      (p) => p.category_ids.includes(8) && p.status <= 1 && p.visibility !== 1,
    )!;
    expect(await services.product(eastside, tincture.sku)).toBeNull();
  });

  it('returns products by sku in the order asked, children as their parent, once', async () => {
    const found = await services.productsBySku(downtown, [
      'BDL-NIGHT-IN',
      'NO-SUCH',
      'FL-BLUE-DREAM-8TH',
      'FL-BLUE-DREAM',
      'BDL-NIGHT-IN-HEMP-WICK',
    ]);
    expect(found.map((p) => p.sku)).toEqual(['BDL-NIGHT-IN', 'FL-BLUE-DREAM']);
  });

  it('serves CMS pages and home lists from memory, and recomputes lists after invalidate', async () => {
    expect(await services.cmsPage(downtown, 'about-us')).toMatchObject({ identifier: 'about-us', title: 'About us' });
    expect(await services.cmsPage(downtown, 'holiday-hours')).toBeNull();
    const first = await services.homeCollections(downtown, 'recreational');
    expect(await services.homeCollections(downtown, 'recreational')).toBe(first);
    invalidate(1);
    const again = await services.homeCollections(downtown, 'recreational');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    const list = await services.searchProducts(downtown, { size: 5 });
    expect(await services.searchProducts(downtown, { size: 5 })).toBe(list);
    invalidate(2);
    expect(await services.searchProducts(downtown, { size: 5 })).toBe(list);
  });
});
