/**
 * Orders and their items (money in cents, taxes itemised as CA requires), the reward points
 * ledger, login codes, rotating refresh tokens and idempotency keys. Order items keep sku, name and
 * prices as sold, and no foreign key to products, so orders outlive catalogue changes.
 */
import { sql, type Kysely } from 'kysely';
import {
  DOUBLE,
  dropTables,
  index,
  notNull,
  ref,
  withId,
  withTimestamps,
  zero,
  type DialectMigration,
  type SqlDialect,
} from './helpers.ts';

const storeFk = ref('stores.id', 'restrict');

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const id = withId(dialect);

  await withTimestamps(
    id(db.schema.createTable('orders'))
      .addColumn('increment_id', 'text', (c) => c.notNull().unique())
      .addColumn('store_id', 'integer', storeFk)
      .addColumn('customer_id', 'integer', ref('customers.id', 'set null', true))
      .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
      .addColumn('status', 'text', notNull)
      .addColumn('order_type', 'text', notNull)
      .addColumn('license_type', 'text', notNull)
      .addColumn('payment_method', 'text', (c) => c.notNull().defaultTo('cashondelivery'))
      .addColumn('shipping_method', 'text', (c) => c.notNull().defaultTo('pickup'))
      .addColumn('coupon_code', 'text')
      .addColumn('subtotal_cents', 'integer', notNull)
      .addColumn('discount_cents', 'integer', zero)
      .addColumn('excise_tax_cents', 'integer', zero)
      .addColumn('sales_tax_cents', 'integer', zero)
      .addColumn('shipping_cents', 'integer', zero)
      .addColumn('total_cents', 'integer', notNull)
      .addColumn('credits_used_cents', 'integer', zero)
      .addColumn('thc_equivalent_grams', DOUBLE, (c) => c.notNull().defaultTo(0))
      .addColumn('personal_details', 'text', notNull)
      .addColumn('shipping_address', 'text')
      .addColumn('billing_address', 'text')
      .addCheckConstraint('orders_order_type_check', sql`order_type in ('pickup', 'delivery')`)
      .addCheckConstraint('orders_license_type_check', sql`license_type in ('recreational', 'medical')`),
  ).execute();
  await index(db, 'orders', ['customer_id', 'created_at']);
  await index(db, 'orders', ['store_id', 'created_at']);

  await id(db.schema.createTable('order_items'))
    .addColumn('order_id', 'integer', ref('orders.id'))
    .addColumn('product_id', 'integer')
    .addColumn('sku', 'text', notNull)
    .addColumn('parent_sku', 'text')
    .addColumn('name', 'text', notNull)
    .addColumn('type_id', 'text')
    .addColumn('qty', DOUBLE, notNull)
    .addColumn('size', 'integer')
    .addColumn('uom', 'text')
    .addColumn('price_cents', 'integer', notNull)
    .addColumn('row_total_cents', 'integer', notNull)
    .addColumn('discount_cents', 'integer', zero)
    .addColumn('excise_tax_cents', 'integer', zero)
    .addColumn('sales_tax_cents', 'integer', zero)
    .addColumn('thc_equivalent_grams', DOUBLE, (c) => c.notNull().defaultTo(0))
    .addColumn('product_option', 'text')
    .execute();
  await index(db, 'order_items', ['order_id']);

  await withTimestamps(
    id(db.schema.createTable('reward_points'))
      .addColumn('customer_id', 'integer', ref('customers.id'))
      .addColumn('store_id', 'integer', storeFk)
      .addColumn('delta', 'integer', notNull)
      .addColumn('reason', 'text', notNull)
      .addColumn('order_id', 'integer', ref('orders.id', 'set null', true)),
    false,
  ).execute();
  await index(db, 'reward_points', ['customer_id', 'created_at']);

  await withTimestamps(
    id(db.schema.createTable('auth_codes'))
      .addColumn('store_id', 'integer', storeFk)
      .addColumn('phone', 'text', notNull)
      .addColumn('code_hash', 'text', notNull)
      .addColumn('expires_at', 'text', notNull)
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('consumed_at', 'text'),
    false,
  ).execute();
  await index(db, 'auth_codes', ['store_id', 'phone', 'created_at']);

  await withTimestamps(
    id(db.schema.createTable('refresh_tokens'))
      .addColumn('family_id', 'text', notNull)
      .addColumn('store_id', 'integer', storeFk)
      .addColumn('customer_id', 'integer', ref('customers.id', 'cascade', true))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'text', notNull)
      .addColumn('revoked_at', 'text')
      .addColumn('replaced_by', 'integer'),
    false,
  ).execute();
  await index(db, 'refresh_tokens', ['family_id']);
  await index(db, 'refresh_tokens', ['customer_id']);

  await withTimestamps(
    id(db.schema.createTable('idempotency_keys'))
      .addColumn('scope', 'text', notNull)
      .addColumn('key', 'text', notNull)
      .addColumn('store_id', 'integer', storeFk)
      .addColumn('request_hash', 'text')
      .addColumn('status', 'text', notNull)
      .addColumn('http_status', 'integer')
      .addColumn('response', 'text')
      .addCheckConstraint('idempotency_keys_status_check', sql`status in ('in_progress', 'completed', 'failed')`),
  ).execute();
  await index(db, 'idempotency_keys', ['scope', 'key'], true);
}

export const migration0006: DialectMigration = {
  up,
  down: (db) =>
    dropTables(db, ['idempotency_keys', 'refresh_tokens', 'auth_codes', 'reward_points', 'order_items', 'orders']),
};
