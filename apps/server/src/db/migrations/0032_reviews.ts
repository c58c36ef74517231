/**
 * Product reviews (issue 30 "Reviews"):
 *  - reviews: one per (store, customer, product) — the unique key is the rule "once per product";
 *    a write of the same customer and product updates the row and sends it back to `pending`.
 *    `product_id` is the product the shopper opens (a configurable's parent); `sku` is kept beside
 *    it so the review outlives a catalogue re-import. `flags` is the JSON list of the automatic
 *    moderation flags ([{rule, name, matches}], @verdant/domain reviews/moderation.ts). `helpful_count`
 *    is kept by the same transaction that inserts a vote. Published lists read
 *    (store_id, product_id, status) through the index below.
 *  - review_votes: "helpful" votes, unique per (review, voter): the insert is the once-only rule,
 *    so a burst of taps counts one vote.
 *  - review_product_stats: average inputs per product (approved reviews' count and star sum),
 *    recomputed from the approved rows whenever a review of the product is approved, rejected or
 *    edited, so pages read one row instead of aggregating.
 */
import type { Kysely } from 'kysely';
import { index, notNull, ref, withId, withTimestamps, zero, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await withTimestamps(
    withId(dialect)(db.schema.createTable('reviews'))
      .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
      .addColumn('product_id', 'integer', notNull)
      .addColumn('sku', 'text', notNull)
      .addColumn('customer_id', 'integer', ref('customers.id', 'cascade'))
      .addColumn('stars', 'integer', notNull)
      .addColumn('title', 'text', notNull)
      .addColumn('text', 'text', notNull)
      .addColumn('effects', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('flavours', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('flags', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('helpful_count', 'integer', zero)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)),
  )
    .addColumn('moderated_at', 'text')
    .addColumn('moderated_by', 'text')
    .addColumn('reject_reason', 'text')
    .execute();
  await index(db, 'reviews', ['store_id', 'customer_id', 'product_id'], true);
  await index(db, 'reviews', ['store_id', 'product_id', 'status']);
  await index(db, 'reviews', ['store_id', 'status']);

  await db.schema
    .createTable('review_votes')
    .addColumn('review_id', 'integer', ref('reviews.id', 'cascade'))
    .addColumn('customer_id', 'integer', ref('customers.id', 'cascade'))
    .addColumn('created_at', 'text', notNull)
    .addPrimaryKeyConstraint('review_votes_pkey', ['review_id', 'customer_id'])
    .execute();

  await db.schema
    .createTable('review_product_stats')
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('product_id', 'integer', notNull)
    .addColumn('review_count', 'integer', zero)
    .addColumn('star_sum', 'integer', zero)
    .addColumn('updated_at', 'text', notNull)
    .addPrimaryKeyConstraint('review_product_stats_pkey', ['store_id', 'product_id'])
    .execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('review_product_stats').execute();
  await db.schema.dropTable('review_votes').execute();
  await db.schema.dropTable('reviews').execute();
}

export const migration0032: DialectMigration = { up, down };
