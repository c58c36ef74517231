/**
 * Category tree rules: descendant expansion (category listings include every descendant, spec
 * §7), the nested menu tree (children_data by position), and breadcrumbs from the parent chain
 * (spec §2, §4). All of them tolerate bad data — cycles, missing parents — without looping.
 */
import { ROOT_CATEGORY_ID } from './catalog.ts';
import type { CatalogCategory } from './product.ts';

export interface CategoryLink {
  id: number;
  parent_id: number | null;
}

/**
 * The id followed by all its descendants (breadth first), each once. A cycle in parent_id stops
 * at the ids already seen; an id missing from the list still yields `[id]`.
 */
export function descendantIds(categories: readonly CategoryLink[], id: number): number[] {
  const children = new Map<number, number[]>();
  for (const c of categories) {
    if (c.parent_id == null) continue;
    const list = children.get(c.parent_id);
    if (list) list.push(c.id);
    else children.set(c.parent_id, [c.id]);
  }
  const seen = new Set<number>([id]);
  const out = [id];
  for (let i = 0; i < out.length; i++) {
    for (const child of children.get(out[i]) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
    }
  }
  return out;
}

export type CategoryNode<T> = Omit<T, 'children_data'> & { children_data: CategoryNode<T>[] };

export interface BuildTreeOptions {
  /** Return this category's children (the root itself left out) instead of every top-level category. */
  rootId?: number;
}

/**
 * Nest categories by parent_id into `children_data`, siblings sorted by position (then id).
 * Without `rootId` the top level is every category whose parent is null or not in the list.
 * Copies every node; the input is untouched. Filtering (is_active, include_in_menu,
 * product_count) is the caller's: a menu and a sitemap want different ones. Categories that are
 * only reachable through a cycle have no root and are left out.
 */
export function buildCategoryTree<T extends CategoryLink & { position: number }>(
  categories: readonly T[],
  { rootId }: BuildTreeOptions = {},
): CategoryNode<T>[] {
  const ids = new Set(categories.map((c) => c.id));
  const children = new Map<number | null, T[]>();
  for (const c of categories) {
    const parent = c.parent_id != null && ids.has(c.parent_id) ? c.parent_id : null;
    const list = children.get(parent);
    if (list) list.push(c);
    else children.set(parent, [c]);
  }
  const seen = new Set<number>();
  const build = (parent: number | null): CategoryNode<T>[] => {
    const siblings = [...(children.get(parent) ?? [])].sort((a, b) => a.position - b.position || a.id - b.id);
    // Claim every sibling before descending, so a duplicate id or a cycle back up is placed once.
    const fresh: T[] = [];
    for (const c of siblings) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      fresh.push(c);
    }
    return fresh.map((c) => ({ ...c, children_data: build(c.id) }));
  };
  if (rootId != null) {
    seen.add(rootId);
    return build(rootId);
  }
  return build(null);
}

export interface Breadcrumb {
  name: string;
  url_path: string;
}

export type BreadcrumbCategory = Pick<CatalogCategory, 'id' | 'name' | 'url_path' | 'parent_id'> &
  Partial<Pick<CatalogCategory, 'parent_ids'>>;

export type CategoriesById<C> = ReadonlyMap<number, C> | Readonly<Record<number, C>>;

export interface BreadcrumbOptions {
  /** Start the trail with the root category (default true). */
  includeRoot?: boolean;
}

function lookup<C>(byId: CategoriesById<C>, id: number): C | undefined {
  return byId instanceof Map ? byId.get(id) : (byId as Readonly<Record<number, C>>)[id];
}

/** The root as a crumb when it is not in `byId`: the `/menu` page (spec §2 slug default). */
const ROOT_CRUMB: Breadcrumb = { name: 'Menu', url_path: 'menu' };

/**
 * The trail from the root down to `category`, the category itself last (pages render it as the
 * current, unlinked crumb). The chain comes from parent_ids when the document has them, else
 * by walking parent_id up to ROOT_CATEGORY_ID (cycle-safe).
 *
 * The root is included by default: in this catalogue the root (id 2) is the "Menu" category with
 * url_path `menu`, a real page listing everything, so "Menu › Flower › Indica" links somewhere
 * useful. Ids above the root (Magento's global root 1) never appear. Ancestors missing from
 * `byId` are skipped rather than invented.
 */
export function breadcrumbs<C extends BreadcrumbCategory>(
  category: C,
  byId: CategoriesById<C>,
  { includeRoot = true }: BreadcrumbOptions = {},
): Breadcrumb[] {
  let chain: number[];
  if (category.parent_ids && category.parent_ids.length > 0) {
    chain = category.parent_ids.filter((id) => id !== category.id);
    const rootAt = chain.indexOf(ROOT_CATEGORY_ID);
    if (rootAt >= 0) chain = chain.slice(rootAt + 1);
  } else {
    chain = [];
    const seen = new Set<number>([category.id]);
    let parent = category.parent_id;
    while (parent != null && parent !== ROOT_CATEGORY_ID && !seen.has(parent)) {
      seen.add(parent);
      chain.unshift(parent);
      parent = lookup(byId, parent)?.parent_id ?? null;
    }
  }
  const trail: Breadcrumb[] = [];
  if (includeRoot && category.id !== ROOT_CATEGORY_ID) {
    const root = lookup(byId, ROOT_CATEGORY_ID);
    trail.push(root ? { name: root.name, url_path: root.url_path } : ROOT_CRUMB);
  }
  for (const id of chain) {
    const c = lookup(byId, id);
    if (c && id !== ROOT_CATEGORY_ID) trail.push({ name: c.name, url_path: c.url_path });
  }
  if (category.id !== ROOT_CATEGORY_ID || includeRoot) trail.push({ name: category.name, url_path: category.url_path });
  return trail;
}
