/**
 * The integration API for point-of-sale systems (issue 13, apps/server/src/integration/):
 *  - api_keys: per-store keys with scopes. Only the SHA-256 of the secret is kept (the secret is
 *    256 random bits, so a fast hash is enough: nothing to brute-force); `prefix` is the public part
 *    shown in lists and used to find the row. last_used_at is refreshed at most once a minute.
 *  - api_idempotency: one row per (key, Idempotency-Key): the request's hash and, once done, the
 *    answer to replay. Scoped per API key, so two POS systems can never collide.
 *  - integration_stock_sequences: the last POS sequence applied per variant, so a late, stale stock
 *    update never overwrites a newer one.
 */
import type { Kysely } from 'kysely';
import { index, notNull, ref, withId, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await withId(dialect)(db.schema.createTable('api_keys'))
    .addColumn('store_id', 'integer', ref('stores.id', 'cascade'))
    .addColumn('name', 'text', notNull)
    .addColumn('prefix', 'text', notNull)
    .addColumn('secret_hash', 'text', notNull)
    .addColumn('scopes', 'text', notNull)
    .addColumn('created_by', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await index(db, 'api_keys', ['prefix'], true);
  await index(db, 'api_keys', ['store_id', 'id']);

  await withId(dialect)(db.schema.createTable('api_idempotency'))
    .addColumn('api_key_id', 'integer', ref('api_keys.id', 'cascade'))
    .addColumn('key', 'text', notNull)
    .addColumn('request_hash', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('http_status', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();
  await index(db, 'api_idempotency', ['api_key_id', 'key'], true);
  await index(db, 'api_idempotency', ['created_at']);

  await db.schema
    .createTable('integration_stock_sequences')
    .addColumn('product_id', 'integer', (col) => col.primaryKey().references('products.id').onDelete('cascade'))
    .addColumn('sequence', 'bigint', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('integration_stock_sequences').execute();
  await db.schema.dropTable('api_idempotency').execute();
  await db.schema.dropTable('api_keys').execute();
}

export const migration0014: DialectMigration = { up, down };
