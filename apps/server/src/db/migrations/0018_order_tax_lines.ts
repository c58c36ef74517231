/**
 * Tax lines per store (issue 14): every named tax line an order was charged, separately stated
 * (tables/tax.ts). Orders placed before this migration have none; their excise and sales totals
 * stay on the order.
 */
import type { Kysely } from 'kysely';
import { DOUBLE, notNull, ref, withId, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await withId(dialect)(db.schema.createTable('order_tax_lines'))
    .addColumn('order_id', 'integer', ref('orders.id'))
    .addColumn('position', 'integer', notNull)
    .addColumn('code', 'text', notNull)
    .addColumn('title', 'text', notNull)
    .addColumn('kind', 'text', notNull)
    .addColumn('rate', DOUBLE, notNull)
    .addColumn('taxable_cents', 'integer', notNull)
    .addColumn('amount_cents', 'integer', notNull)
    .execute();
  await db.schema.createIndex('order_tax_lines_order').on('order_tax_lines').columns(['order_id', 'position']).execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_tax_lines').execute();
}

export const migration0018: DialectMigration = { up, down };
