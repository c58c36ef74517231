/**
 * What a shopper chooses on a product page (spec §3): configurable options and their values,
 * grouped and bundle links with bundle options, and custom options with priced values.
 * Option ids are explicit catalogue ids because carts refer to them in `product_option`.
 */
import { sql, type Kysely } from 'kysely';
import { DOUBLE, dropTables, flag, index, notNull, ref, type DialectMigration } from './helpers.ts';

const productFk = ref('products.id');

async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('product_configurable_options')
    .addColumn('product_id', 'integer', productFk)
    .addColumn('attribute_id', 'integer', notNull)
    .addColumn('attribute_code', 'text', notNull)
    .addColumn('label', 'text', notNull)
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('product_configurable_options_pkey', ['product_id', 'attribute_id'])
    .execute();

  await db.schema
    .createTable('product_configurable_option_values')
    .addColumn('product_id', 'integer', notNull)
    .addColumn('attribute_id', 'integer', notNull)
    .addColumn('value_index', 'integer', notNull)
    .addColumn('label', 'text', notNull)
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('product_configurable_option_values_pkey', ['product_id', 'attribute_id', 'value_index'])
    .addForeignKeyConstraint(
      'product_configurable_option_values_option_fkey',
      ['product_id', 'attribute_id'],
      'product_configurable_options',
      ['product_id', 'attribute_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('bundle_options')
    .addColumn('option_id', 'integer', (c) => c.primaryKey())
    .addColumn('product_id', 'integer', productFk)
    .addColumn('title', 'text', notNull)
    .addColumn('type', 'text', notNull)
    .addColumn('required', 'integer', flag(1))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addCheckConstraint('bundle_options_type_check', sql`type in ('select', 'radio', 'checkbox', 'multi')`)
    .execute();
  await index(db, 'bundle_options', ['product_id']);

  // Links name their member by sku (as the spec's product_links do); members live in the same store.
  await db.schema
    .createTable('product_links')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('product_id', 'integer', productFk)
    .addColumn('link_type', 'text', notNull)
    .addColumn('linked_product_sku', 'text', notNull)
    .addColumn('linked_product_type', 'text', notNull)
    .addColumn('qty', DOUBLE, (c) => c.notNull().defaultTo(1))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_default', 'integer', flag(0))
    .addColumn('bundle_option_id', 'integer', ref('bundle_options.option_id', 'cascade', true))
    .addCheckConstraint(
      'product_links_link_type_check',
      sql`link_type in ('associated', 'bundle', 'related', 'crosssell', 'upsell')`,
    )
    .execute();
  await index(db, 'product_links', ['product_id']);
  await index(db, 'product_links', ['bundle_option_id']);

  await db.schema
    .createTable('custom_options')
    .addColumn('option_id', 'integer', (c) => c.primaryKey())
    .addColumn('product_id', 'integer', productFk)
    .addColumn('title', 'text', notNull)
    .addColumn('type', 'text', notNull)
    .addColumn('is_require', 'integer', flag(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('price_type', 'text')
    .addColumn('price_cents', 'integer')
    .addColumn('price_percent', DOUBLE)
    .addColumn('max_characters', 'integer')
    .addCheckConstraint(
      'custom_options_price_type_check',
      sql`price_type is null or price_type in ('fixed', 'percent')`,
    )
    .execute();
  await index(db, 'custom_options', ['product_id']);

  await db.schema
    .createTable('custom_option_values')
    .addColumn('option_type_id', 'integer', (c) => c.primaryKey())
    .addColumn('option_id', 'integer', ref('custom_options.option_id'))
    .addColumn('title', 'text', notNull)
    .addColumn('price_type', 'text', notNull)
    .addColumn('price_cents', 'integer')
    .addColumn('price_percent', DOUBLE)
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    // The price column must match the price type, so a percent is never read as cents.
    .addCheckConstraint(
      'custom_option_values_price_check',
      sql`(price_type = 'fixed' and price_cents is not null) or (price_type = 'percent' and price_percent is not null)`,
    )
    .execute();
  await index(db, 'custom_option_values', ['option_id']);
}

export const migration0002: DialectMigration = {
  up: (db) => up(db),
  down: (db) =>
    dropTables(db, [
      'custom_option_values',
      'custom_options',
      'product_links',
      'bundle_options',
      'product_configurable_option_values',
      'product_configurable_options',
    ]),
};
