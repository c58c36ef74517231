/**
 * Data retention and the document view log (issue 31).
 *  - uploads gain `reviewed_at` (when staff recorded a decision on the document while this file was
 *    the upload: the retention period runs from it) and `purged_at` (when the image was deleted
 *    under the store's `data-retention` setting; the row stays, without its file, its file name or
 *    its hash, so the console can say the image was checked and deleted). `stored_path` is '' once
 *    the file is gone.
 *  - document_views: every time the console served an ID or medical card image to a member of
 *    staff: who (staff id, name and role as they were), when, which customer, which upload and
 *    document, from which order (null: opened outside an order). Append-only; `upload_id` is no
 *    foreign key, so the record outlives the file.
 *  - retention_runs: one row per store and UTC day the retention job ran (unique: the first node of
 *    the day claims it), with the node, start, end, what it deleted, and `status`
 *    (running | done | failed) with the error.
 */
import type { Kysely } from 'kysely';
import { index, notNull, ref, withId, zero, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('reviewed_at', 'text').execute();
  await db.schema.alterTable('uploads').addColumn('purged_at', 'text').execute();
  await index(db, 'uploads', ['store_id', 'purged_at', 'reviewed_at']);

  await withId(dialect)(db.schema.createTable('document_views'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('customer_id', 'integer', ref('customers.id', 'cascade'))
    .addColumn('upload_id', 'integer')
    .addColumn('document', 'text', notNull)
    .addColumn('order_id', 'integer', ref('orders.id', 'set null', true))
    .addColumn('staff_id', 'integer', ref('staff.id', 'set null', true))
    .addColumn('staff_name', 'text', notNull)
    .addColumn('staff_role', 'text', notNull)
    .addColumn('viewed_at', 'text', notNull)
    .execute();
  await index(db, 'document_views', ['store_id', 'customer_id', 'viewed_at']);
  await index(db, 'document_views', ['upload_id']);

  await withId(dialect)(db.schema.createTable('retention_runs'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('run_date', 'text', notNull)
    .addColumn('node', 'text', notNull)
    .addColumn('started_at', 'text', notNull)
    .addColumn('finished_at', 'text')
    .addColumn('status', 'text', notNull)
    .addColumn('id_images_deleted', 'integer', zero)
    .addColumn('medcard_images_deleted', 'integer', zero)
    .addColumn('error', 'text')
    .execute();
  await index(db, 'retention_runs', ['store_id', 'run_date'], true);
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('retention_runs').execute();
  await db.schema.dropTable('document_views').execute();
  await db.schema.dropIndex('uploads_store_id_purged_at_reviewed_at_idx').execute();
  await db.schema.alterTable('uploads').dropColumn('purged_at').execute();
  await db.schema.alterTable('uploads').dropColumn('reviewed_at').execute();
}

export const migration0040: DialectMigration = { up, down };
