/**
 * Menu import (issue 13, apps/server/src/menu-import/FORMAT.md): the fields a point-of-sale menu
 * carries that the catalogue had no column for.
 *  - products.external_id: the POS's id of the variant (of the product, on a configurable
 *    parent); a store's ids are unique (index `(store_id, external_id)`, nulls allowed for
 *    products that never came from a POS, such as the demo's);
 *  - products.batch_number, package_id (the seed-to-sale package tag), lab_tested_at (ISO date),
 *    coa_url: compliance data of the package on sale;
 *  - product_prices.medical_price_cents: the price a medical shopper pays when it differs from
 *    the default (recreational) price; null = the same price.
 */
import type { Kysely } from 'kysely';
import type { DialectMigration } from './helpers.ts';

const PRODUCT_COLUMNS = ['external_id', 'batch_number', 'package_id', 'lab_tested_at', 'coa_url'] as const;

async function up(db: Kysely<any>): Promise<void> {
  for (const col of PRODUCT_COLUMNS) await db.schema.alterTable('products').addColumn(col, 'text').execute();
  await db.schema.createIndex('products_store_id_external_id_key').on('products').columns(['store_id', 'external_id']).unique().execute();
  await db.schema.alterTable('product_prices').addColumn('medical_price_cents', 'integer').execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('product_prices').dropColumn('medical_price_cents').execute();
  await db.schema.dropIndex('products_store_id_external_id_key').execute();
  for (const col of [...PRODUCT_COLUMNS].reverse()) await db.schema.alterTable('products').dropColumn(col).execute();
}

export const migration0012: DialectMigration = { up, down };
