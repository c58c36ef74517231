/**
 * Merging two profiles of one person (migration 0042, issue 31).
 *  - customers gain `merged_into` (the survivor's id) and `merged_at`: a merged profile is kept
 *    (its phone and e-mail still name it, so logging in with them lands on the survivor) but
 *    owns nothing any more; every row that referred to it points at the survivor.
 *  - customer_merges: one row per merge: the store, the two profiles, who merged and when, until
 *    when it may be undone (24 h), who undid it and when, and `changes`: the JSON list of every row
 *    the merge moved, set aside, added or changed (customers/merge.ts), enough to put each back.
 *    At most one merge of a profile stands at a time (unique merged_id where undone_at is null).
 */
import { sql, type Kysely } from 'kysely';
import { index, notNull, ref, withId, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema.alterTable('customers').addColumn('merged_into', 'integer', ref('customers.id', 'set null', true)).execute();
  await db.schema.alterTable('customers').addColumn('merged_at', 'text').execute();
  await index(db, 'customers', ['merged_into']);

  await withId(dialect)(db.schema.createTable('customer_merges'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('survivor_id', 'integer', ref('customers.id', 'cascade'))
    .addColumn('merged_id', 'integer', ref('customers.id', 'cascade'))
    .addColumn('staff_id', 'integer', ref('staff.id', 'set null', true))
    .addColumn('staff_name', 'text', notNull)
    .addColumn('merged_at', 'text', notNull)
    .addColumn('undo_until', 'text', notNull)
    .addColumn('undone_at', 'text')
    .addColumn('undone_by', 'text')
    .addColumn('summary', 'text', notNull)
    .addColumn('changes', 'text', notNull)
    .execute();
  await index(db, 'customer_merges', ['store_id', 'survivor_id']);
  await index(db, 'customer_merges', ['store_id', 'merged_id']);
  await db.schema
    .createIndex('customer_merges_one_standing_key')
    .on('customer_merges')
    .column('merged_id')
    .unique()
    .where(sql.ref('undone_at'), 'is', null)
    .execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('customer_merges').execute();
  await db.schema.dropIndex('customers_merged_into_idx').execute();
  await db.schema.alterTable('customers').dropColumn('merged_at').execute();
  await db.schema.alterTable('customers').dropColumn('merged_into').execute();
}

export const migration0042: DialectMigration = { up, down };
