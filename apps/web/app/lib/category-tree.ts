/**
 * Category lookups a page needs beside `categoryByPath`: the tree by id (for breadcrumbs built
 * from parent ids, spec §2), and the other parameters a category URL may carry (spec §2: url-key,
 * slug or id) when the path is not a url_path.
 */
import { breadcrumbs, categoryPath, ROOT_CATEGORY_ID, type CatalogCategory } from '@verdant/domain';

export interface BreadcrumbItem {
  name: string;
  /** Store-relative path; the current page (last item) has none. */
  path?: string;
}

export function indexCategories(tree: readonly CatalogCategory[]): Map<number, CatalogCategory> {
  const byId = new Map<number, CatalogCategory>();
  const walk = (list: readonly CatalogCategory[] | undefined) => {
    for (const c of list ?? []) {
      byId.set(c.id, c);
      walk(c.children_data);
    }
  };
  walk(tree);
  return byId;
}

/** The url_path a category route asks for: `/menu` → `menu`, `/menu/flower/indica` → `menu/flower/indica`. */
export function categoryUrlPath(segments: string | undefined): string {
  const rest = (segments ?? '')
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean)
    .join('/')
    .toLowerCase();
  return rest ? `menu/${rest}` : 'menu';
}

/** A category by slug, url_key or numeric id (the other forms of spec §2), or undefined. */
export function findCategoryByKey(byId: Map<number, CatalogCategory>, key: string): CatalogCategory | undefined {
  const k = key.trim().toLowerCase();
  if (!k) return undefined;
  if (/^\d+$/.test(k)) {
    const c = byId.get(Number(k));
    if (c) return c;
  }
  for (const c of byId.values()) {
    if (c.slug.toLowerCase() === k || c.url_key.toLowerCase() === k) return c;
  }
  return undefined;
}

/**
 * Breadcrumb items for a category page or a product in it: Home, then each ancestor from the
 * root down (spec: built from parent ids), then `current` (the page itself) when given.
 */
export function categoryCrumbs(
  category: CatalogCategory,
  byId: Map<number, CatalogCategory>,
  current?: string,
): BreadcrumbItem[] {
  const chain = breadcrumbs(category, byId);
  const items: BreadcrumbItem[] = [{ name: 'Home', path: '/' }];
  for (const c of chain) items.push({ name: c.name, path: categoryPath(c) });
  if (current) items.push({ name: current });
  else if (items.length > 1) delete items[items.length - 1].path;
  return items;
}

/** Subcategories to link from a category page: active ones with products, in menu order. */
export function subcategories(category: CatalogCategory, byId: Map<number, CatalogCategory>): CatalogCategory[] {
  const node = byId.get(category.id) ?? category;
  return [...(node.children_data ?? [])]
    .filter((c) => c.is_active && c.product_count > 0)
    .sort((a, b) => a.position - b.position);
}

export function isRootCategory(category: Pick<CatalogCategory, 'id'>): boolean {
  return category.id === ROOT_CATEGORY_ID;
}
