/**
 * The rows that make up catalogue documents, read with one query per table whatever the size of
 * the catalogue (no query per product). A scope is either whole stores (start-up, a store
 * rebuild: every store in one pass) or a set of product ids of one store (an incremental change).
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, Row } from '../db/schema.ts';

export type RowScope = { storeIds: readonly number[] } | { storeId: number; productIds: readonly number[] };

export interface CatalogRows {
  products: Row<'products'>[];
  productCategories: Row<'product_categories'>[];
  categories: Row<'categories'>[];
  media: Row<'product_media'>[];
  attributeValues: Row<'product_attribute_values'>[];
  configurableOptions: Row<'product_configurable_options'>[];
  configurableValues: Row<'product_configurable_option_values'>[];
  bundleOptions: Row<'bundle_options'>[];
  links: Row<'product_links'>[];
  customOptions: Row<'custom_options'>[];
  customValues: Row<'custom_option_values'>[];
  stock: Row<'stock'>[];
  prices: Row<'product_prices'>[];
  tierPrices: Row<'tier_prices'>[];
  qtyDiscounts: Row<'qty_discounts'>[];
  attributes: Row<'attributes'>[];
  /** Issue 30: the approved reviews' count and star sum of the products in scope (documents' `rating`). */
  reviewStats?: Row<'review_product_stats'>[];
  /** Issue 30: the saved `reviews` settings of the stores in scope (a store that shows none carries no rating). */
  reviewSettings?: Row<'store_settings'>[];
}

type ProductIdQuery = SelectQueryBuilder<Database, 'products', { id: number }>;

/** The ids of the products in scope, as a subquery (so the id list never grows a statement). */
function productIds(db: Kysely<Database>, scope: RowScope): ProductIdQuery {
  const q = db.selectFrom('products').select('id');
  return 'storeIds' in scope
    ? q.where('store_id', 'in', [...scope.storeIds])
    : q.where('store_id', '=', scope.storeId).where('id', 'in', [...scope.productIds]);
}

function storeIdsOf(scope: RowScope): number[] {
  return 'storeIds' in scope ? [...scope.storeIds] : [scope.storeId];
}

/**
 * Every row of the scope. Categories and attributes are always read whole for the stores in
 * scope: documents embed category names and attribute labels. Queries run concurrently; on
 * SQLite they simply queue on the one connection.
 */
export async function readCatalogRows(db: Kysely<Database>, scope: RowScope): Promise<CatalogRows> {
  const stores = storeIdsOf(scope);
  const empty = 'productIds' in scope && scope.productIds.length === 0;
  const ids = () => productIds(db, scope);
  const none = <T>() => Promise.resolve([] as T[]);
  const [
    products,
    productCategories,
    categories,
    media,
    attributeValues,
    configurableOptions,
    configurableValues,
    bundleOptions,
    links,
    customOptions,
    customValues,
    stock,
    prices,
    tierPrices,
    qtyDiscounts,
    attributes,
    reviewStats,
    reviewSettings,
  ] = await Promise.all([
    empty
      ? none<Row<'products'>>()
      : db.selectFrom('products').selectAll().where('id', 'in', ids()).orderBy('id').execute(),
    empty
      ? none<Row<'product_categories'>>()
      : db
          .selectFrom('product_categories')
          .selectAll()
          .where('store_id', 'in', stores)
          .where('product_id', 'in', ids())
          .orderBy('position')
          .execute(),
    db.selectFrom('categories').selectAll().where('store_id', 'in', stores).orderBy('store_id').orderBy('id').execute(),
    empty
      ? none<Row<'product_media'>>()
      : db.selectFrom('product_media').selectAll().where('product_id', 'in', ids()).orderBy('position').execute(),
    empty
      ? none<Row<'product_attribute_values'>>()
      : db
          .selectFrom('product_attribute_values')
          .selectAll()
          .where('product_id', 'in', ids())
          .orderBy('attribute_code')
          .execute(),
    empty
      ? none<Row<'product_configurable_options'>>()
      : db
          .selectFrom('product_configurable_options')
          .selectAll()
          .where('product_id', 'in', ids())
          .orderBy('position')
          .execute(),
    empty
      ? none<Row<'product_configurable_option_values'>>()
      : db
          .selectFrom('product_configurable_option_values')
          .selectAll()
          .where('product_id', 'in', ids())
          .orderBy('position')
          .execute(),
    empty
      ? none<Row<'bundle_options'>>()
      : db.selectFrom('bundle_options').selectAll().where('product_id', 'in', ids()).orderBy('position').execute(),
    empty
      ? none<Row<'product_links'>>()
      : db
          .selectFrom('product_links')
          .selectAll()
          .where('product_id', 'in', ids())
          .orderBy('position')
          .orderBy('id')
          .execute(),
    empty
      ? none<Row<'custom_options'>>()
      : db.selectFrom('custom_options').selectAll().where('product_id', 'in', ids()).orderBy('position').execute(),
    empty
      ? none<Row<'custom_option_values'>>()
      : db
          .selectFrom('custom_option_values')
          .selectAll()
          .where(
            'option_id',
            'in',
            db.selectFrom('custom_options').select('option_id').where('product_id', 'in', ids()),
          )
          .orderBy('position')
          .execute(),
    empty ? none<Row<'stock'>>() : db.selectFrom('stock').selectAll().where('product_id', 'in', ids()).execute(),
    empty
      ? none<Row<'product_prices'>>()
      : db.selectFrom('product_prices').selectAll().where('product_id', 'in', ids()).execute(),
    empty
      ? none<Row<'tier_prices'>>()
      : db
          .selectFrom('tier_prices')
          .selectAll()
          .where('product_id', 'in', ids())
          .orderBy('customer_group_id')
          .orderBy('qty')
          .execute(),
    empty
      ? none<Row<'qty_discounts'>>()
      : db.selectFrom('qty_discounts').selectAll().where('product_id', 'in', ids()).orderBy('qty_to_buy').execute(),
    db.selectFrom('attributes').selectAll().orderBy('position').orderBy('attribute_id').execute(),
    empty
      ? none<Row<'review_product_stats'>>()
      : db
          .selectFrom('review_product_stats')
          .selectAll()
          .where('store_id', 'in', stores)
          .where('review_count', '>', 0)
          .where('product_id', 'in', ids())
          .execute(),
    db.selectFrom('store_settings').selectAll().where('store_id', 'in', stores).where('section', '=', 'reviews').execute(),
  ]);
  const strings = new Map<string, string>();
  for (const list of [products, productCategories, categories, media, attributeValues, configurableOptions, configurableValues, stock, prices]) {
    internStrings(list as unknown as Record<string, unknown>[], strings);
  }
  return {
    products,
    productCategories,
    categories,
    media,
    attributeValues,
    configurableOptions,
    configurableValues,
    bundleOptions,
    links,
    customOptions,
    customValues,
    stock,
    prices,
    tierPrices,
    qtyDiscounts,
    attributes,
    reviewStats,
    reviewSettings,
  };
}

/**
 * One string object per distinct short value across the rows of a read (issue 15). The driver
 * hands every row its own copies, and the documents and sellable records built from the rows keep
 * them: "simple", "both", the same timestamps and attribute values, thousands of times per store
 * (4.4 MiB of 9 MiB of a 2,000-product store's strings were duplicates; a size shares its parent's
 * description). Every string, whatever its length: hashing one costs far less than keeping a copy.
 * Values are unchanged.
 */
export function internStrings(rows: Record<string, unknown>[], strings: Map<string, string>): void {
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      if (typeof value !== 'string') continue;
      const shared = strings.get(value);
      if (shared === undefined) strings.set(value, value);
      else row[key] = shared;
    }
  }
}

/**
 * The products whose documents change when `changed` change, plus the rows those documents need:
 * the products themselves, their configurable parents (which embed the children's prices and
 * stock) and all of those parents' children, the kits that embed any of them as members (linked
 * by sku), and the members of every kit in the set. Three queries.
 */
export async function affectedProductIds(
  db: Kysely<Database>,
  storeId: number,
  changed: readonly number[],
): Promise<number[]> {
  if (changed.length === 0) return [];
  const ids = [...changed];
  // Plain lookups by primary key, parent_id and product_id, the store checked here: with the store
  // filter and the subqueries in SQL, SQLite's planner walked the store's whole product index (2 ms a
  // change, and every order is a change on every node: issue 15's 4/20 run).
  const parents = await db.selectFrom('products').select('parent_id').where('id', 'in', ids).where('parent_id', 'is not', null).execute();
  const heads = [...new Set([...ids, ...parents.map((p) => p.parent_id as number)])];
  const family = (
    await db
      .selectFrom('products')
      .select(['id', 'sku', 'store_id'])
      .where((eb) => eb.or([eb('id', 'in', heads), eb('parent_id', 'in', heads)]))
      .execute()
  ).filter((p) => p.store_id === storeId);
  const linking = await db
    .selectFrom('product_links')
    .select('product_id')
    .where('linked_product_sku', 'in', ['', ...family.map((p) => p.sku)])
    .execute();
  const kits =
    linking.length === 0
      ? []
      : (
          await db
            .selectFrom('products')
            .select(['id', 'store_id'])
            .where('id', 'in', [...new Set(linking.map((l) => l.product_id))])
            .execute()
        ).filter((k) => k.store_id === storeId);
  const owners = [...new Set([...family.map((p) => p.id), ...kits.map((k) => k.id)])];
  const members = await db
    .selectFrom('products as m')
    .select('m.id')
    .where('m.store_id', '=', storeId)
    .where(
      'm.sku',
      'in',
      db
        .selectFrom('product_links')
        .select('linked_product_sku')
        .where('product_id', 'in', [0, ...owners]),
    )
    .execute();
  // Ids that no longer exist stay in the set, so the caller can remove their documents.
  return [...new Set([...ids, ...owners, ...members.map((m) => m.id)])].sort((a, b) => a - b);
}
