/**
 * Deals stored per store (issue 28): the automatic promotions of packages/domain/src/deals, their
 * history and their redemptions.
 *  - deals: one row per deal of a store. `code` is the record's `id` (what the engine, the cart and
 *    the order name the deal by), unique per store; `external_id` is the store's own id for it through
 *    the integration API (unique per store when given). `record` is the deal as JSON, valid under the
 *    model's zod schema (`dealSchema`); `status`, `kind` and `title` repeat its fields for lists.
 *    `redeemed` counts, for a deal with a budget, the orders holding a redemption not given back: a
 *    budget is taken by a conditional update of this counter (`redeemed < budget`), never
 *    read-then-write; it is counted again from deal_redemptions whenever a record states a budget.
 *  - deal_changes: every create / update / pause / end, with the record before and after (null before
 *    a create), who and when; written in the change's transaction, never updated.
 *  - deal_redemptions: one row per deal applied to an order, with the shopper's key (the phone digits,
 *    or `customer:<id>` without one) for per-customer limits and the discount given; `released_at` is
 *    set once, when the order is cancelled, and the deal's counter goes down in the same transaction.
 */
import type { Kysely } from 'kysely';
import { index, notNull, ref, withId, zero, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await withId(dialect)(db.schema.createTable('deals'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('code', 'text', notNull)
    .addColumn('external_id', 'text')
    .addColumn('kind', 'text', notNull)
    .addColumn('title', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('record', 'text', notNull)
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('redeemed', 'integer', zero)
    .addColumn('created_at', 'text', notNull)
    .addColumn('created_by', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .addColumn('updated_by', 'text', notNull)
    .execute();
  await index(db, 'deals', ['store_id', 'code'], true);
  // Unique where given: both dialects treat NULLs as distinct in a unique index.
  await index(db, 'deals', ['store_id', 'external_id'], true);
  await index(db, 'deals', ['store_id', 'status']);

  await withId(dialect)(db.schema.createTable('deal_changes'))
    .addColumn('deal_id', 'integer', ref('deals.id'))
    .addColumn('store_id', 'integer', notNull)
    .addColumn('action', 'text', notNull)
    .addColumn('before', 'text')
    .addColumn('after', 'text', notNull)
    .addColumn('source', 'text', notNull)
    .addColumn('actor_type', 'text', notNull)
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'text', notNull)
    .addColumn('at', 'text', notNull)
    .execute();
  await index(db, 'deal_changes', ['deal_id', 'id']);
  await index(db, 'deal_changes', ['store_id', 'id']);

  await withId(dialect)(db.schema.createTable('deal_redemptions'))
    .addColumn('deal_id', 'integer', ref('deals.id', 'restrict'))
    .addColumn('order_id', 'integer', ref('orders.id'))
    .addColumn('store_id', 'integer', notNull)
    .addColumn('customer_key', 'text', notNull)
    .addColumn('discount_cents', 'integer', zero)
    .addColumn('created_at', 'text', notNull)
    .addColumn('released_at', 'text')
    .execute();
  await index(db, 'deal_redemptions', ['deal_id', 'order_id'], true);
  await index(db, 'deal_redemptions', ['deal_id', 'customer_key', 'created_at']);
  await index(db, 'deal_redemptions', ['order_id']);
  await index(db, 'deal_redemptions', ['store_id', 'created_at']);

  // Each order line's share of each deal (the line's `discount_cents` keeps the sum of all its discounts).
  await db.schema.alterTable('order_items').addColumn('deal_discount_cents', 'integer', zero).execute();
  await db.schema.alterTable('order_items').addColumn('deal_discounts', 'text').execute();
  await db.schema.alterTable('orders').addColumn('deal_discount_cents', 'integer', zero).execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('deal_discount_cents').execute();
  await db.schema.alterTable('order_items').dropColumn('deal_discounts').execute();
  await db.schema.alterTable('order_items').dropColumn('deal_discount_cents').execute();
  await db.schema.dropTable('deal_redemptions').execute();
  await db.schema.dropTable('deal_changes').execute();
  await db.schema.dropTable('deals').execute();
}

export const migration0028: DialectMigration = { up, down };
