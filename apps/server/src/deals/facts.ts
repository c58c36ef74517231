/**
 * What the deals engine knows of a product, read from the store's own rows (issue 28): its categories
 * (a configurable child takes its parent's when it has none), brand, kind (from its top category, as
 * the demo menu and a menu file name them), strain type, size, discovery tags, and what one unit
 * counts in each measure a weight threshold may use. Three queries for any number of products, plus
 * the store's category tree (child → parent) for "a category and its descendants".
 *
 * Measures per unit: `flower_g` and `flower_equivalent_g` are a weighed flower's size in grams;
 * any other product counts its `unit_weight_grams_equivelent` as `flower_equivalent_g` (what the
 * purchase limits count). `concentrate_g` and `thc_mg` are not on the menu rows yet: a threshold on
 * them never applies (it says below_threshold), which is safe, never a discount nobody earned.
 * No product has a cost on the menu, so the optional cost floor has nothing to read (costCents null).
 */
import { isSizeId, sizeWeightGrams, type DealProductFacts } from '@verdant/domain';
import { kindOfTopCategory } from './kinds.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export { kindOfTopCategory };

export interface DealCatalogFacts {
  /** By product id. */
  products: Map<number, DealProductFacts>;
  categoryParents: Record<number, number | null>;
}

/**
 * The store's category tree (child → parent) as the last read gave it while unchanged: the engine
 * remembers what each product matches per tree object (packages/domain/src/deals/prepare.ts
 * `setsOf`), so a new object per request would throw that away every time.
 */
const lastTrees = new Map<number, Record<number, number | null>>();

function sameTree(storeId: number, categories: readonly { id: number; parent_id: number | null }[]): Record<number, number | null> {
  const last = lastTrees.get(storeId);
  if (last && Object.keys(last).length === categories.length && categories.every((c) => last[c.id] === c.parent_id)) return last;
  const tree: Record<number, number | null> = {};
  for (const c of categories) tree[c.id] = c.parent_id;
  lastTrees.set(storeId, tree);
  return tree;
}

export async function dealCatalogFacts(db: Kysely<Database>, storeId: number, productIds: readonly number[]): Promise<DealCatalogFacts> {
  const ids = [...new Set(productIds)];
  const categories = await db.selectFrom('categories').select(['id', 'parent_id', 'path', 'url_key']).where('store_id', '=', storeId).execute();
  const categoryParents = sameTree(storeId, categories);
  const products = new Map<number, DealProductFacts>();
  if (ids.length === 0) return { products, categoryParents };

  const columns = ['id', 'sku', 'parent_id', 'brand_id', 'strain_type', 'size', 'discovery_tags', 'uom', 'unit_weight_grams_equivelent'] as const;
  const rows = await db.selectFrom('products').select(columns).where('store_id', '=', storeId).where('id', 'in', ids).execute();
  const parentIds = [...new Set(rows.flatMap((r) => (r.parent_id != null && !ids.includes(r.parent_id) ? [r.parent_id] : [])))];
  const parents = parentIds.length ? await db.selectFrom('products').select(columns).where('store_id', '=', storeId).where('id', 'in', parentIds).execute() : [];
  const byId = new Map([...rows, ...parents].map((r) => [r.id, r]));
  const links = await db
    .selectFrom('product_categories')
    .select(['product_id', 'category_id'])
    .where('store_id', '=', storeId)
    .where('product_id', 'in', [...byId.keys()])
    .orderBy('product_id')
    .orderBy('position')
    .orderBy('category_id')
    .execute();
  const catsOf = new Map<number, number[]>();
  for (const l of links) catsOf.set(l.product_id, [...(catsOf.get(l.product_id) ?? []), l.category_id]);
  const byCategory = new Map(categories.map((c) => [c.id, c]));

  for (const r of rows) {
    const parent = r.parent_id != null ? byId.get(r.parent_id) : undefined;
    const categoryIds = catsOf.get(r.id) ?? (parent ? catsOf.get(parent.id) : undefined) ?? [];
    // Top category: the second id of the first category's path ("2/3/11": root 2, top 3).
    const first = categoryIds.length ? byCategory.get(categoryIds[0]) : undefined;
    const topId = first ? Number(first.path.split('/')[1]) : NaN;
    const kind = kindOfTopCategory(byCategory.get(topId)?.url_key);
    const size = r.size ?? parent?.size ?? null;
    const tags = (r.discovery_tags || parent?.discovery_tags || '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const measures: DealProductFacts['measures'] = {};
    if (kind === 'flower' && isSizeId(size)) {
      measures.flower_g = sizeWeightGrams(size);
      measures.flower_equivalent_g = sizeWeightGrams(size);
    } else {
      const eq = r.unit_weight_grams_equivelent ?? parent?.unit_weight_grams_equivelent ?? null;
      if (eq != null && eq > 0) measures.flower_equivalent_g = eq;
    }
    products.set(r.id, {
      sku: r.sku,
      categoryIds,
      brandId: r.brand_id ?? parent?.brand_id ?? null,
      kind,
      strainType: r.strain_type ?? parent?.strain_type ?? null,
      size,
      tags,
      costCents: null,
      measures,
    });
  }
  return { products, categoryParents };
}
