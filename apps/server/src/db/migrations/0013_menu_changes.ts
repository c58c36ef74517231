/**
 * The menu's history (issue 13): every change to a store's menu — from the console, a menu file or
 * the integration API — as one row per field: who, what, before, after. Shown in the console's menu
 * (per product and per store) and kept; a row is never updated.
 *  - source: console | import | api
 *  - actor_type/actor_id/actor_name: staff (id, name), an API key (id, name) or the command line
 *    (`cli`, no id); the name is copied so the history reads the same after a member is removed;
 *  - batch_id: groups the rows of one action (one quick edit, one bulk action, one import, one API call);
 *  - product_id is null for a product that no longer exists; sku and external_id identify it then.
 */
import type { Kysely } from 'kysely';
import { index, notNull, ref, withId, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await withId(dialect)(db.schema.createTable('menu_changes'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('product_id', 'integer')
    .addColumn('sku', 'text', notNull)
    .addColumn('external_id', 'text')
    .addColumn('field', 'text', notNull)
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('source', 'text', notNull)
    .addColumn('actor_type', 'text', notNull)
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'text', notNull)
    .addColumn('batch_id', 'text', notNull)
    .addColumn('at', 'text', notNull)
    .execute();
  await index(db, 'menu_changes', ['store_id', 'id']);
  await index(db, 'menu_changes', ['store_id', 'product_id', 'id']);
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('menu_changes').execute();
}

export const migration0013: DialectMigration = { up, down };
