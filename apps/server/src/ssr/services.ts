import { buildCategoryTree, ROOT_CATEGORY_ID, type CatalogCategory, type HomeCollections } from '@verdant/domain';
import type { ProductListResult, StorefrontServices } from '@verdant/web/context';
import { homeCollections } from '../catalog/home-collections.ts';
import type { CatalogIndexManager } from '../catalog/index-manager.ts';
import { plainCopy } from '../catalog/plain-copy.ts';
import { loadProduct, productsBySku } from '../catalog/product-lookup.ts';
import { searchProducts } from '../catalog/product-search.ts';
import { visibleCategoryIds } from '../catalog/visibility.ts';
import { cmsPage } from '../cms/pages.ts';
import { TtlCache, storeKey } from '../cache/ttl-cache.ts';
import { mapUrl } from '../urls/resolve.ts';

/**
 * The server modules that route loaders may call (the AppContext contract), answered from each
 * store's in-memory catalogue (catalog/index-manager.ts), never by SQL per request. Results that
 * cost more than a lookup (home lists, product lists with facets, the menu tree) are cached per
 * store for a minute — short enough to keep special-price windows honest — and dropped when the
 * store's catalogue changes (`invalidate`, called through app.invalidateStore).
 */
export const HOME_CACHE_TTL_MS = 60_000;

export interface StorefrontDeps {
  /** Where each store's catalogue is: the index manager on the server, one snapshot's catalogue offline. */
  manager: Pick<CatalogIndexManager, 'catalog'>;
  /** The time prices and specials are judged at (tests pin it). */
  clock?: () => Date;
}

export function createStorefrontServices({ manager, clock = () => new Date() }: StorefrontDeps) {
  const homeCache = new TtlCache<HomeCollections>(HOME_CACHE_TTL_MS);
  const listCache = new TtlCache<ProductListResult>(HOME_CACHE_TTL_MS);
  const treeCache = new TtlCache<CatalogCategory[]>(HOME_CACHE_TTL_MS);
  const catalog = (storeId: number) => manager.catalog(storeId);

  const services: StorefrontServices = {
    homeCollections: (store, licenseType) =>
      homeCache.get(storeKey(store.storeId, 'home', licenseType), async () =>
        homeCollections(catalog(store.storeId), store, licenseType, clock()),
      ),
    cmsPage: async (store, identifier) => cmsPage(catalog(store.storeId), identifier),
    categoryTree: (store) =>
      treeCache.get(storeKey(store.storeId, 'tree'), async () => {
        const all = [...catalog(store.storeId).allCategories()];
        const visible = visibleCategoryIds(store, all);
        const menu = all.filter((c) => visible.has(c.id) && (c.include_in_menu || c.id === ROOT_CATEGORY_ID));
        // The root ("Menu", /menu) on top, its menu categories nested below by position.
        const root = menu.find((c) => c.id === ROOT_CATEGORY_ID);
        return root ? [{ ...root, children_data: buildCategoryTree(menu, { rootId: ROOT_CATEGORY_ID }) }] : [];
      }),
    categoryByPath: async (store, urlPath) => {
      const c = catalog(store.storeId).categoryByPath(urlPath.replace(/^\/+|\/+$/g, ''));
      return c && visibleCategoryIds(store, catalog(store.storeId).allCategories()).has(c.id) ? c : null;
    },
    searchProducts: (store, params) =>
      listCache.get(storeKey(store.storeId, 'products', JSON.stringify(params)), async () =>
        searchProducts(catalog(store.storeId), store, params, clock()),
      ),
    // Documents share objects in memory; loader data gets a copy of its own (./catalog/plain-copy.ts).
    product: async (store, sku) => plainCopy(loadProduct(catalog(store.storeId), store, sku)),
    productsBySku: async (store, skus) => productsBySku(catalog(store.storeId), store, skus).map(plainCopy),
    mapUrl: async (store, path) => mapUrl(catalog(store.storeId), store, path),
  };
  return {
    services,
    /** Call after a store's catalogue or CMS content changed. */
    invalidate(storeId?: number) {
      homeCache.invalidate(storeId);
      listCache.invalidate(storeId);
      treeCache.invalidate(storeId);
    },
  };
}
