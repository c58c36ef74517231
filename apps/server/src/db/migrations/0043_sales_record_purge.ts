/**
 * Sales records past the store's period (issue 31, privacy/sales-records.ts):
 *  - orders gain `purged_at`: when the retention job reduced the order to its anonymous totals (the
 *    store's `data-retention` salesRecordYears after it was placed). The claim is a conditional
 *    UPDATE … WHERE purged_at IS NULL, so two nodes purge an order once. Indexed with the store and
 *    the order's date for the job's scan.
 *  - retention_runs gain `orders_purged`: how many orders that run purged.
 *  - orders, customers and consent_events gain an index on (store_id, id): the store-wide export
 *    (store-export/) reads a store's rows a page at a time by id, which without it sorts every row
 *    of the store for each page (300,000 orders took minutes instead of seconds).
 */
import type { Kysely } from 'kysely';
import { index, zero, type DialectMigration } from './helpers.ts';

const EXPORT_PAGED = ['orders', 'customers', 'consent_events'];

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('purged_at', 'text').execute();
  await index(db, 'orders', ['store_id', 'purged_at', 'created_at']);
  await db.schema.alterTable('retention_runs').addColumn('orders_purged', 'integer', zero).execute();
  for (const table of EXPORT_PAGED) await index(db, table, ['store_id', 'id']);
}

async function down(db: Kysely<any>): Promise<void> {
  for (const table of EXPORT_PAGED) await db.schema.dropIndex(`${table}_store_id_id_idx`).execute();
  await db.schema.alterTable('retention_runs').dropColumn('orders_purged').execute();
  await db.schema.dropIndex('orders_store_id_purged_at_created_at_idx').execute();
  await db.schema.alterTable('orders').dropColumn('purged_at').execute();
}

export const migration0043: DialectMigration = { up, down };
