/**
 * What a shopper of a store may see of its catalogue (spec §4, §7): enabled (status 0/1),
 * catalogue-visible (2, 3, 4; 1 is "not visible individually"), and outside the categories the
 * store's compliance settings hide (with their descendants). A product in a hidden category is
 * treated as absent everywhere (listings, search, product pages, URL mapping, sitemap): the
 * setting exists because the store may not offer that kind of product.
 */
import {
  descendantIds,
  ROOT_CATEGORY_ID,
  type CatalogCategory,
  type CatalogProduct,
  type Store,
} from '@verdant/domain';
import { ENABLED_STATUSES, VISIBLE_IN_CATALOG } from '@verdant/search';

export const isEnabled = (p: { status: number }) => (ENABLED_STATUSES as readonly number[]).includes(p.status);
export const isCatalogVisible = (p: { visibility: number }) =>
  (VISIBLE_IN_CATALOG as readonly number[]).includes(p.visibility);

/** Ids of the hidden categories (by url_key) and all their descendants. */
export function hiddenCategoryIds(store: Store, categories: Iterable<CatalogCategory>): Set<number> {
  const keys = store.dispensarySettings.compliance_settings?.hidden_categories ?? [];
  if (keys.length === 0) return new Set();
  const list = [...categories];
  const hidden = new Set<number>();
  for (const c of list) if (keys.includes(c.url_key)) for (const id of descendantIds(list, c.id)) hidden.add(id);
  return hidden;
}

/** True when some category of the product is hidden. */
export function inHiddenCategory(product: Pick<CatalogProduct, 'category_ids'>, hidden: ReadonlySet<number>): boolean {
  return hidden.size > 0 && product.category_ids.some((id) => hidden.has(id));
}

/**
 * Categories the store shows: not hidden and active, with every ancestor active too.
 * `includeInactive` keeps inactive ones (an API client may ask for them by is_active=0).
 */
export function visibleCategoryIds(
  store: Store,
  categories: Iterable<CatalogCategory>,
  { includeInactive = false }: { includeInactive?: boolean } = {},
): Set<number> {
  const list = [...categories];
  const hidden = hiddenCategoryIds(store, list);
  const byId = new Map(list.map((c) => [c.id, c]));
  const visible = new Set<number>();
  for (const c of list) {
    if (hidden.has(c.id)) continue;
    if (!includeInactive && (!c.is_active || c.parent_ids.some((id) => byId.get(id)?.is_active === false))) continue;
    visible.add(c.id);
  }
  return visible;
}

/** The categories a listing under `categoryId` (default: the root) searches: it and its descendants, visible ones only. */
export function listingCategoryIds(
  store: Store,
  categories: Iterable<CatalogCategory>,
  categoryId = ROOT_CATEGORY_ID,
): number[] {
  const list = [...categories];
  const visible = visibleCategoryIds(store, list);
  return descendantIds(list, categoryId).filter((id) => visible.has(id));
}
