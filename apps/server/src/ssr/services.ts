import { buildCategoryTree, ROOT_CATEGORY_ID, toProductCard, type CatalogCategory, type HomeCollections, type Store, type TaxLine } from '@verdant/domain';
import type { ProductListResult, StorefrontServices } from '@verdant/web/context';
import { homeCollections, listedProducts } from '../catalog/home-collections.ts';
import type { CatalogIndexManager } from '../catalog/index-manager.ts';
import { plainCopy } from '../catalog/plain-copy.ts';
import { loadProduct, productsBySku } from '../catalog/product-lookup.ts';
import { searchProducts } from '../catalog/product-search.ts';
import { visibleCategoryIds } from '../catalog/visibility.ts';
import { cmsPage } from '../cms/pages.ts';
import { TtlCache, storeKey } from '../cache/ttl-cache.ts';
import { mapUrl } from '../urls/resolve.ts';
import { estimateCartDeals, estimateTaxFacts, liveDealWords, pageDeals, type PageDealsSource } from '../deals/page-deals.ts';

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
  /**
   * A store's active deals and display setting for the pages (issue 28): the deals repository's
   * 1 s cache on the server, the snapshot's copy offline. Absent: pages show no deal.
   */
  deals?: (store: Store) => Promise<PageDealsSource | null>;
  /** The store's named tax lines for an offline cart's estimate (the snapshot's copy). Absent: the estimate carries no tax lines. */
  taxLines?: (store: Store) => Promise<readonly TaxLine[]>;
}

export function createStorefrontServices({ manager, clock = () => new Date(), deals, taxLines }: StorefrontDeps) {
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
    // Never cached here: judged at this moment (deals have days and hours), from the 1 s cache of deals.
    productDeals: async (store, licenseType, skus) => {
      const source = deals ? await deals(store) : null;
      const cat = catalog(store.storeId);
      const products = [...new Set(skus)].flatMap((sku) => {
        const p = cat.productBySku(sku);
        return p ? [p] : [];
      });
      const lookup = { category: (id: number) => cat.categoryByIdOrNull(id), allCategories: () => cat.allCategories() };
      return pageDeals(store, licenseType, source, lookup, products, clock());
    },
    // An offline cart's estimate (issue 28; the browser's catalogue worker answers it from the snapshot).
    cartDeals: async (store, licenseType, lines) => {
      const source = deals ? await deals(store) : null;
      const cat = catalog(store.storeId);
      const lookup = {
        category: (id: number) => cat.categoryByIdOrNull(id),
        allCategories: () => cat.allCategories(),
        productBySku: (sku: string) => cat.productBySku(sku),
        parentOfChild: (sku: string) => cat.parentOfChild(sku),
      };
      const estimate = estimateCartDeals(store, licenseType, source, lookup, lines, clock());
      const tax = taxLines ? await taxLines(store) : [];
      return tax.length > 0 ? { ...estimate, tax: { lines: [...tax], facts: estimateTaxFacts(lookup, lines) } } : estimate;
    },
    // /sale and the home page (issue 28): what is on deal now; the products' views judged like productDeals.
    dealsOnNow: async (store, licenseType, limit) => {
      const source = deals ? await deals(store) : null;
      const cat = catalog(store.storeId);
      const lookup = { category: (id: number) => cat.categoryByIdOrNull(id), allCategories: () => cat.allCategories() };
      const now = clock();
      const live = liveDealWords(store, licenseType, source, lookup, now);
      if (live.length === 0) return { live, cards: [] };
      const listed = listedProducts(cat, store, licenseType);
      const views = pageDeals(store, licenseType, source, lookup, listed, now).bySku;
      const cards = listed
        .filter((p) => views[p.sku])
        .slice(0, limit)
        .map((p) => ({ ...toProductCard(p, now, store.tax.userGroupId), deal: views[p.sku] }));
      return { live, cards };
    },
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
