/**
 * Sales records past the store's period (issue 31, privacy/sales-records.ts):
 *  - orders gain `purged_at`: when the retention job reduced the order to its anonymous totals (the
 *    store's `data-retention` salesRecordYears after it was placed). The claim is a conditional
 *    UPDATE … WHERE purged_at IS NULL, so two nodes purge an order once. Indexed with the store and
 *    the order's date for the job's scan.
 *  - retention_runs gain `orders_purged`: how many orders that run purged.
 */
import type { Kysely } from 'kysely';
import { index, zero, type DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('purged_at', 'text').execute();
  await index(db, 'orders', ['store_id', 'purged_at', 'created_at']);
  await db.schema.alterTable('retention_runs').addColumn('orders_purged', 'integer', zero).execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('retention_runs').dropColumn('orders_purged').execute();
  await db.schema.dropIndex('orders_store_id_purged_at_created_at_idx').execute();
  await db.schema.alterTable('orders').dropColumn('purged_at').execute();
}

export const migration0043: DialectMigration = { up, down };
