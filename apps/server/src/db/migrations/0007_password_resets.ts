/**
 * Password reset tokens (spec §7 reset-password / create-password). Only the sha256 of each token
 * is stored (the token itself is 256 random bits, so a plain hash is enough, as for refresh
 * tokens); a token is single use (`used_at`) and expires (`expires_at`, 1 hour after issue).
 * Deleting a customer deletes their tokens.
 */
import type { Kysely } from 'kysely';
import { dropTables, index, notNull, ref, withId, withTimestamps, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await withTimestamps(
    withId(dialect)(db.schema.createTable('password_reset_tokens'))
      .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
      .addColumn('customer_id', 'integer', ref('customers.id', 'cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'text', notNull)
      .addColumn('used_at', 'text'),
    false,
  ).execute();
  await index(db, 'password_reset_tokens', ['customer_id', 'created_at']);
}

export const migration0007: DialectMigration = {
  up,
  down: (db) => dropTables(db, ['password_reset_tokens']),
};
