/**
 * The demo menu tree, the same in every store: root "Menu" (id 2, url_path `menu`) with the eight
 * top categories, and subcategories under Flower (by strain type) and Edibles. Products are
 * assigned to their leaf only, so a category listing must expand descendants (spec §7), and
 * Flower and Edibles also hold products of their own (CBD flower; beverages and baked goods).
 */
import { ROOT_CATEGORY_ID } from '@verdant/domain';
import type { Row } from '../db/schema.ts';

export type CategoryKey =
  | 'flower'
  | 'indica'
  | 'sativa'
  | 'hybrid'
  | 'prerolls'
  | 'vapes'
  | 'concentrates'
  | 'edibles'
  | 'gummies'
  | 'chocolates'
  | 'tinctures'
  | 'topicals'
  | 'accessories';

export interface CategoryDef {
  key: CategoryKey | 'root';
  id: number;
  name: string;
  urlKey: string;
  parent: CategoryKey | 'root' | null;
  position: number;
}

export const CATEGORY_TREE: readonly CategoryDef[] = [
  { key: 'root', id: ROOT_CATEGORY_ID, name: 'Menu', urlKey: 'menu', parent: null, position: 0 },
  { key: 'flower', id: 3, name: 'Flower', urlKey: 'flower', parent: 'root', position: 1 },
  { key: 'prerolls', id: 4, name: 'Pre-Rolls', urlKey: 'pre-rolls', parent: 'root', position: 2 },
  { key: 'vapes', id: 5, name: 'Vapes', urlKey: 'vapes', parent: 'root', position: 3 },
  { key: 'concentrates', id: 6, name: 'Concentrates', urlKey: 'concentrates', parent: 'root', position: 4 },
  { key: 'edibles', id: 7, name: 'Edibles', urlKey: 'edibles', parent: 'root', position: 5 },
  { key: 'tinctures', id: 8, name: 'Tinctures', urlKey: 'tinctures', parent: 'root', position: 6 },
  { key: 'topicals', id: 9, name: 'Topicals', urlKey: 'topicals', parent: 'root', position: 7 },
  { key: 'accessories', id: 10, name: 'Accessories', urlKey: 'accessories', parent: 'root', position: 8 },
  { key: 'indica', id: 11, name: 'Indica', urlKey: 'indica', parent: 'flower', position: 1 },
  { key: 'sativa', id: 12, name: 'Sativa', urlKey: 'sativa', parent: 'flower', position: 2 },
  { key: 'hybrid', id: 13, name: 'Hybrid', urlKey: 'hybrid', parent: 'flower', position: 3 },
  { key: 'gummies', id: 14, name: 'Gummies', urlKey: 'gummies', parent: 'edibles', position: 1 },
  { key: 'chocolates', id: 15, name: 'Chocolates', urlKey: 'chocolates', parent: 'edibles', position: 2 },
];

export const TOP_CATEGORY_NAMES = CATEGORY_TREE.filter((c) => c.parent === 'root').map((c) => c.name);

function byKey(key: CategoryDef['key']): CategoryDef {
  const def = CATEGORY_TREE.find((c) => c.key === key);
  if (!def) throw new Error(`unknown category ${key}`);
  return def;
}

export function categoryId(key: CategoryKey): number {
  return byKey(key).id;
}

/** Root first, then down: [root, flower, indica]. */
function lineage(def: CategoryDef): CategoryDef[] {
  const chain = [def];
  while (chain[0].parent) chain.unshift(byKey(chain[0].parent));
  return chain;
}

/**
 * Category rows for a store. `directCounts` are the listed products assigned to each leaf; a
 * category's product_count adds those of its descendants, so a parent with only subcategory
 * products still counts as non-empty in menus.
 */
export function categoryRows(
  storeId: number,
  updatedAt: string,
  directCounts: ReadonlyMap<CategoryKey, number>,
): Row<'categories'>[] {
  const totals = new Map<CategoryDef['key'], number>();
  for (const [key, n] of directCounts) {
    for (const def of lineage(byKey(key))) totals.set(def.key, (totals.get(def.key) ?? 0) + n);
  }
  return CATEGORY_TREE.map((def) => {
    const chain = lineage(def);
    return {
      store_id: storeId,
      id: def.id,
      parent_id: def.parent ? byKey(def.parent).id : null,
      name: def.name,
      slug: def.urlKey,
      url_key: def.urlKey,
      url_path: chain.map((c) => c.urlKey).join('/'),
      is_active: 1,
      level: chain.length,
      position: def.position,
      path: chain.map((c) => c.id).join('/'),
      product_count: totals.get(def.key) ?? 0,
      include_in_menu: 1,
      updated_at: updatedAt,
    };
  });
}
