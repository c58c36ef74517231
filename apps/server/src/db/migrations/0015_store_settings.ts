/**
 * A store's own operating and compliance settings (issue 14): hours and time slots, delivery zones,
 * tax lines, purchase-limit buckets, … — one JSON document per store and section, validated by the
 * section's zod schema (store-settings/), edited by managers in the console, and its history (who,
 * before, after, when). A section with no row here falls back to the stores file, then to the
 * section's default (store-settings/registry.ts).
 */
import type { Kysely } from 'kysely';
import { index, notNull, ref, withId, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('store_settings')
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('section', 'text', notNull)
    .addColumn('value', 'text', notNull)
    // Bumped on every save: a console form sends the version it read (409 when another save came first).
    .addColumn('version', 'integer', notNull)
    .addColumn('updated_at', 'text', notNull)
    .addPrimaryKeyConstraint('store_settings_pkey', ['store_id', 'section'])
    .execute();
  await withId(dialect)(db.schema.createTable('store_settings_history'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('section', 'text', notNull)
    .addColumn('before', 'text')
    .addColumn('after', 'text', notNull)
    .addColumn('actor_type', 'text', notNull)
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'text', notNull)
    .addColumn('at', 'text', notNull)
    .execute();
  await index(db, 'store_settings_history', ['store_id', 'section', 'id']);
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('store_settings_history').execute();
  await db.schema.dropTable('store_settings').execute();
}

export const migration0015: DialectMigration = { up, down };
