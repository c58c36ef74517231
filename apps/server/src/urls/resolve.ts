/**
 * The URL mapping (spec §2 route behaviour, §7 URL mapping): a path no route matched resolves,
 * in this order, through the store's URL rewrites (legacy and vanity paths, in place or 301/302),
 * a product url_path, a category url_path, then a CMS page identifier — or to nothing
 * (page-not-found). Only what a shopper may open resolves: enabled, individually visible
 * products (a child stands for its parent), active categories and pages, nothing hidden by the
 * store's compliance settings. Everything is read from the store's in-memory catalogue.
 */
import {
  categoryPath,
  productPath,
  type CatalogCategory,
  type CatalogProduct,
  type ConfigurableChild,
  type Store,
} from '@verdant/domain';
import type { UrlMapResult } from '@verdant/web/context';
import type { CmsPageDocument } from '../cms/documents.ts';
import type { StoreCatalog, UrlRewrite } from '../catalog/store-catalog.ts';
import {
  hiddenCategoryIds,
  inHiddenCategory,
  isCatalogVisible,
  isEnabled,
  visibleCategoryIds,
} from '../catalog/visibility.ts';
import { normalizeUrlPath } from './normalize.ts';

export type UrlResolution =
  | { type: 'product'; product: CatalogProduct; child: ConfigurableChild | null; redirect: boolean }
  | { type: 'category'; category: CatalogCategory; redirect: boolean }
  | { type: 'cms_page'; page: CmsPageDocument; redirect: boolean };

const isRedirect = (r: UrlRewrite) => r.redirect_type === 301 || r.redirect_type === 302;

/** A product as the mapping may answer it: the parent of a child, null when not openable. */
function openableProduct(
  catalog: StoreCatalog,
  store: Store,
  product: CatalogProduct | undefined,
  hidden: ReadonlySet<number>,
): { product: CatalogProduct; child: ConfigurableChild | null } | null {
  if (!product || !isEnabled(product)) return null;
  let parent = product;
  let child: ConfigurableChild | null = null;
  if (!isCatalogVisible(product)) {
    const owner = catalog.parentOfChild(product.sku);
    if (!owner || !isEnabled(owner) || !isCatalogVisible(owner)) return null;
    parent = owner;
    child = owner.configurable_children.find((c) => c.sku === product.sku) ?? null;
  }
  return inHiddenCategory(parent, hidden) ? null : { product: parent, child };
}

function childOf(product: CatalogProduct, sku: string | null | undefined): ConfigurableChild | null {
  return sku ? (product.configurable_children.find((c) => c.sku === sku) ?? null) : null;
}

export function resolveUrl(catalog: StoreCatalog, store: Store, rawPath: string): UrlResolution | null {
  const { keys } = normalizeUrlPath(rawPath, store.storeCode);
  const hidden = hiddenCategoryIds(store, catalog.allCategories());
  const visible = visibleCategoryIds(store, catalog.allCategories());
  const category = (c: CatalogCategory | undefined) => (c && visible.has(c.id) ? c : null);
  const page = (p: CmsPageDocument | undefined) => (p && p.is_active ? p : null);

  for (const key of keys) {
    if (key === '') return null;
    const rewrite = catalog.rewrite(key) ?? catalog.rewrite(key.toLowerCase());
    if (rewrite) {
      const redirect = isRedirect(rewrite);
      if (rewrite.target_type === 'product') {
        const target =
          (rewrite.target_id != null ? catalog.productById(rewrite.target_id) : undefined) ??
          (rewrite.target_sku ? catalog.productBySku(rewrite.target_sku) : undefined);
        const found = openableProduct(catalog, store, target, hidden);
        if (found)
          return {
            type: 'product',
            product: found.product,
            child: childOf(found.product, rewrite.target_sku) ?? found.child,
            redirect,
          };
      } else if (rewrite.target_type === 'category') {
        const c = category(rewrite.target_id != null ? catalog.categoryByIdOrNull(rewrite.target_id) : undefined);
        if (c) return { type: 'category', category: c, redirect };
      } else {
        const p = page(catalog.cmsPageById(rewrite.target_id));
        if (p) return { type: 'cms_page', page: p, redirect };
      }
      // A rewrite to something gone falls through to the other lookups.
    }
    for (const candidate of [key, key.toLowerCase()]) {
      const found = openableProduct(catalog, store, catalog.productByUrlPath(candidate), hidden);
      // Opening a child's own path lands on its parent's page: a redirect when children are blocked.
      if (found) {
        const redirect = found.child != null && store.catalog.preventConfigurableChildrenDirectAccess;
        return { type: 'product', ...found, redirect };
      }
      const c = category(catalog.categoryByPath(candidate));
      if (c) return { type: 'category', category: c, redirect: false };
      const p = page(catalog.cmsPage(candidate));
      if (p) return { type: 'cms_page', page: p, redirect: false };
    }
  }
  return null;
}

/** The page path for a resolution (spec §2 routes), without the store prefix. */
export function resolutionPath(r: UrlResolution): string {
  if (r.type === 'product') return productPath(r.product, r.child?.sku);
  if (r.type === 'category') return categoryPath(r.category);
  return `/i/${encodeURIComponent(r.page.identifier)}`;
}

/** `StorefrontServices.mapUrl`: the route to render or redirect to, or page-not-found. */
export function mapUrl(catalog: StoreCatalog, store: Store, rawPath: string): UrlMapResult {
  const r = resolveUrl(catalog, store, rawPath);
  if (!r) return { type: 'page-not-found' };
  const path = resolutionPath(r);
  if (r.type === 'product') {
    return {
      type: 'product',
      sku: r.product.sku,
      slug: r.product.slug,
      childSku: r.child?.sku ?? null,
      path,
      redirect: r.redirect,
    };
  }
  if (r.type === 'category') return { type: 'category', urlPath: r.category.url_path, path, redirect: r.redirect };
  return { type: 'cms_page', identifier: r.page.identifier, path, redirect: r.redirect };
}
