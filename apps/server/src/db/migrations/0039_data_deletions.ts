/**
 * The shopper's data rights (issue 31): every account deletion is recorded, without personal data:
 * which store, when it was asked for and done, and how many orders were kept as sales records
 * (anonymised; docs/operators/privacy.md). The customer's id is not kept: it would point at nothing.
 */
import type { Kysely } from 'kysely';
import { index, notNull, ref, withId, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await withId(dialect)(db.schema.createTable('data_deletions'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('requested_at', 'text', notNull)
    .addColumn('orders_kept', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('uploads_removed', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await index(db, 'data_deletions', ['store_id', 'requested_at']);
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_deletions').execute();
}

export const migration0039: DialectMigration = { up, down };
