/**
 * Stores and the core catalogue: attributes, categories, products (configurable parents and their
 * children in one table), category assignments, media and custom attribute values.
 * Catalogue rows cascade on delete from their store and product, so replacing a store's catalogue
 * is one delete per table; nothing a shopper created references them by foreign key.
 */
import { sql, type Kysely } from 'kysely';
import { DOUBLE, dropTables, flag, index, notNull, ref, type DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stores')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', notNull)
    .addColumn('settings', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();

  await db.schema
    .createTable('catalog_sources')
    .addColumn('store_id', 'integer', (c) => c.primaryKey().references('stores.id').onDelete('cascade'))
    .addColumn('source', 'text', notNull)
    .addColumn('options', 'text')
    .addColumn('written_at', 'text', notNull)
    .addCheckConstraint('catalog_sources_source_check', sql`source in ('demo', 'import')`)
    .execute();

  // Attributes are global: a brand or discount group means the same in every store.
  await db.schema
    .createTable('attributes')
    .addColumn('attribute_id', 'integer', (c) => c.primaryKey())
    .addColumn('attribute_code', 'text', (c) => c.notNull().unique())
    .addColumn('frontend_label', 'text', notNull)
    .addColumn('frontend_input', 'text', notNull)
    .addColumn('is_user_defined', 'integer', flag(1))
    .addColumn('is_visible', 'integer', flag(1))
    .addColumn('is_comparable', 'integer', flag(0))
    .addColumn('is_filterable', 'integer', flag(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  // Category ids repeat across stores (root is 2 everywhere), hence the composite key.
  await db.schema
    .createTable('categories')
    .addColumn('store_id', 'integer', ref('stores.id'))
    .addColumn('id', 'integer', notNull)
    .addColumn('parent_id', 'integer')
    .addColumn('name', 'text', notNull)
    .addColumn('slug', 'text', notNull)
    .addColumn('url_key', 'text', notNull)
    .addColumn('url_path', 'text', notNull)
    .addColumn('is_active', 'integer', flag(1))
    .addColumn('level', 'integer', notNull)
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('path', 'text', notNull)
    .addColumn('product_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('include_in_menu', 'integer', flag(1))
    .addColumn('updated_at', 'text', notNull)
    .addPrimaryKeyConstraint('categories_pkey', ['store_id', 'id'])
    .addForeignKeyConstraint(
      'categories_parent_fkey',
      ['store_id', 'parent_id'],
      'categories',
      ['store_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await index(db, 'categories', ['store_id', 'url_path'], true);
  await index(db, 'categories', ['store_id', 'parent_id']);
  await index(db, 'categories', ['store_id', 'url_key']);

  await db.schema
    .createTable('products')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', ref('stores.id'))
    .addColumn('sku', 'text', notNull)
    .addColumn('parent_id', 'integer', ref('products.id', 'cascade', true))
    .addColumn('type_id', 'text', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('slug', 'text', notNull)
    .addColumn('url_key', 'text', notNull)
    .addColumn('url_path', 'text', notNull)
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('visibility', 'integer', (c) => c.notNull().defaultTo(4))
    .addColumn('tax_class_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('license_type', 'text', (c) => c.notNull().defaultTo('both'))
    .addColumn('brand_id', 'integer')
    .addColumn('discount_group_id', 'integer')
    .addColumn('canna_type', 'integer')
    .addColumn('size', 'integer')
    .addColumn('uom', 'text', (c) => c.notNull().defaultTo('ea'))
    .addColumn('unit_weight_grams_equivelent', DOUBLE)
    .addColumn('strain_type', 'text')
    .addColumn('thc_percent', DOUBLE)
    .addColumn('cbd_percent', DOUBLE)
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('short_description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('discovery_tags', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image', 'text')
    .addColumn('staff_pick', 'integer', flag(0))
    .addColumn('best_seller', 'integer', flag(0))
    .addColumn('is_new', 'integer', flag(0))
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .addCheckConstraint('products_license_type_check', sql`license_type in ('recreational', 'medical', 'both')`)
    .addCheckConstraint(
      'products_type_id_check',
      sql`type_id in ('simple', 'configurable', 'grouped', 'bundle', 'virtual', 'downloadable')`,
    )
    .execute();
  await index(db, 'products', ['store_id', 'sku'], true);
  await index(db, 'products', ['store_id', 'url_path']);
  await index(db, 'products', ['parent_id']);
  await index(db, 'products', ['store_id', 'created_at']);

  // Category ids are only unique per store, so the assignment carries the store for its foreign key.
  await db.schema
    .createTable('product_categories')
    .addColumn('product_id', 'integer', ref('products.id'))
    .addColumn('store_id', 'integer', notNull)
    .addColumn('category_id', 'integer', notNull)
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('product_categories_pkey', ['product_id', 'category_id'])
    .addForeignKeyConstraint(
      'product_categories_category_fkey',
      ['store_id', 'category_id'],
      'categories',
      ['store_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await index(db, 'product_categories', ['store_id', 'category_id']);

  await db.schema
    .createTable('product_media')
    .addColumn('product_id', 'integer', ref('products.id'))
    .addColumn('position', 'integer', notNull)
    .addColumn('media_type', 'text', (c) => c.notNull().defaultTo('image'))
    .addColumn('image', 'text', notNull)
    .addColumn('video', 'text')
    .addColumn('label', 'text')
    .addPrimaryKeyConstraint('product_media_pkey', ['product_id', 'position'])
    .execute();

  await db.schema
    .createTable('product_attribute_values')
    .addColumn('product_id', 'integer', ref('products.id'))
    .addColumn('attribute_code', 'text', notNull)
    .addColumn('value', 'text', notNull)
    .addPrimaryKeyConstraint('product_attribute_values_pkey', ['product_id', 'attribute_code'])
    .execute();
}

export const migration0001: DialectMigration = {
  up: (db) => up(db),
  down: (db) =>
    dropTables(db, [
      'product_attribute_values',
      'product_media',
      'product_categories',
      'products',
      'categories',
      'attributes',
      'catalog_sources',
      'stores',
    ]),
};
