/**
 * Stock, prices and tax rules. Stock is one row per sellable product (children of configurables
 * carry their own), with a `version` for optimistic checks at order save. Prices are per customer
 * group (0 = not logged in) with an optional special price window; tier prices and weight-based
 * quantity discounts hang off the product they discount.
 */
import { sql, type Kysely } from 'kysely';
import { DOUBLE, dropTables, flag, index, notNull, ref, type DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stock')
    .addColumn('product_id', 'integer', (c) => c.primaryKey().references('products.id').onDelete('cascade'))
    .addColumn('qty', DOUBLE, (c) => c.notNull().defaultTo(0))
    .addColumn('is_in_stock', 'integer', flag(0))
    .addColumn('manage_stock', 'integer', flag(1))
    .addColumn('low_stock_threshold', DOUBLE, (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', notNull)
    .execute();

  await db.schema
    .createTable('product_prices')
    .addColumn('product_id', 'integer', ref('products.id'))
    .addColumn('customer_group_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('price_cents', 'integer', notNull)
    .addColumn('special_price_cents', 'integer')
    .addColumn('special_from_date', 'text')
    .addColumn('special_to_date', 'text')
    .addPrimaryKeyConstraint('product_prices_pkey', ['product_id', 'customer_group_id'])
    .addCheckConstraint(
      'product_prices_price_check',
      sql`price_cents >= 0 and (special_price_cents is null or special_price_cents >= 0)`,
    )
    .execute();

  await db.schema
    .createTable('tier_prices')
    .addColumn('product_id', 'integer', ref('products.id'))
    .addColumn('customer_group_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('qty', DOUBLE, notNull)
    .addColumn('price_cents', 'integer', notNull)
    .addPrimaryKeyConstraint('tier_prices_pkey', ['product_id', 'customer_group_id', 'qty'])
    .execute();

  await db.schema
    .createTable('qty_discounts')
    .addColumn('product_id', 'integer', ref('products.id'))
    .addColumn('qty_to_buy', DOUBLE, notNull)
    .addColumn('price_cents', 'integer', notNull)
    .addPrimaryKeyConstraint('qty_discounts_pkey', ['product_id', 'qty_to_buy'])
    .execute();

  await db.schema
    .createTable('tax_rules')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', ref('stores.id'))
    .addColumn('code', 'text', notNull)
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('product_tax_class_ids', 'text', notNull)
    .addColumn('customer_tax_class_ids', 'text', notNull)
    .execute();
  await index(db, 'tax_rules', ['store_id']);

  await db.schema
    .createTable('tax_rates')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('tax_rule_id', 'integer', ref('tax_rules.id'))
    .addColumn('store_id', 'integer', ref('stores.id'))
    .addColumn('code', 'text', notNull)
    .addColumn('kind', 'text', notNull)
    .addColumn('rate', DOUBLE, notNull)
    .addColumn('tax_country_id', 'text', notNull)
    .addColumn('region_name', 'text')
    .addColumn('tax_region_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tax_postcode', 'text')
    .addCheckConstraint('tax_rates_kind_check', sql`kind in ('excise', 'sales')`)
    .execute();
  await index(db, 'tax_rates', ['tax_rule_id']);
  await index(db, 'tax_rates', ['store_id']);
}

export const migration0003: DialectMigration = {
  up: (db) => up(db),
  down: (db) => dropTables(db, ['tax_rates', 'tax_rules', 'qty_discounts', 'tier_prices', 'product_prices', 'stock']),
};
