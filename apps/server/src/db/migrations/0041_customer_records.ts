/**
 * Customer records (issue 31).
 *  - customer_notes: staff notes on a customer, append-only (never updated or deleted): the text
 *    (1–2000 characters), who wrote it (staff_id, and author_name copied at the time so a removed
 *    member's notes still say who wrote them) and when. Keyed by customer_id, so merging two
 *    profiles (a later issue) re-points the rows.
 *  - the directory's search indexes, per store: lower(firstname), lower(lastname) and email
 *    (stored lower-cased; PostgreSQL only — SQLite ranges over 0005's (store_id, email)). A prefix search is a range `>= 'jan' and < 'jao'` on them
 *    (customers/directory.ts), which both databases answer from a btree: on PostgreSQL the index
 *    columns are in the "C" collation (byte order = code point order, as SQLite's BINARY), which the
 *    query names too; a phone is an exact match on the (store_id, phone) unique index of 0005.
 */
import { sql, type Kysely } from 'kysely';
import { index, notNull, ref, withId, type DialectMigration, type SqlDialect } from './helpers.ts';

/** name, expression, dialects. SQLite ranges over e-mail on 0005's (store_id, email) index (BINARY already). */
const SEARCH_INDEXES: [string, string, SqlDialect[]][] = [
  ['customers_store_id_lower_firstname_idx', 'lower(firstname)', ['sqlite', 'postgres']],
  ['customers_store_id_lower_lastname_idx', 'lower(lastname)', ['sqlite', 'postgres']],
  ['customers_store_id_email_c_idx', 'email', ['postgres']],
];

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await withId(dialect)(db.schema.createTable('customer_notes'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('customer_id', 'integer', ref('customers.id', 'cascade'))
    .addColumn('staff_id', 'integer', ref('staff.id', 'set null', true))
    .addColumn('author_name', 'text', notNull)
    .addColumn('text', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .execute();
  await index(db, 'customer_notes', ['customer_id', 'id']);

  for (const [name, expr, dialects] of SEARCH_INDEXES) {
    if (!dialects.includes(dialect)) continue;
    const column = dialect === 'postgres' ? sql.raw(`(${expr}) collate "C"`) : sql.raw(`${expr}`);
    await sql`create index ${sql.id(name)} on customers (store_id, ${column})`.execute(db);
  }
}

async function down(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  for (const [name, , dialects] of SEARCH_INDEXES) if (dialects.includes(dialect)) await db.schema.dropIndex(name).execute();
  await db.schema.dropTable('customer_notes').execute();
}

export const migration0041: DialectMigration = { up, down };
