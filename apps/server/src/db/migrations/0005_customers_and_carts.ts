/**
 * Customers and their addresses, carts, coupons, newsletter subscriptions and ID/medical card
 * uploads. Shopper data never cascades from a store (`restrict`): removing a store must not
 * silently delete its customers.
 */
import { sql, type Kysely } from 'kysely';
import {
  DOUBLE,
  dropTables,
  flag,
  index,
  notNull,
  ref,
  withId,
  withTimestamps,
  type DialectMigration,
  type SqlDialect,
} from './helpers.ts';

const storeFk = ref('stores.id', 'restrict');

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const id = withId(dialect);

  await withTimestamps(
    id(db.schema.createTable('customers'))
      .addColumn('store_id', 'integer', storeFk)
      .addColumn('phone', 'text', notNull)
      .addColumn('email', 'text')
      .addColumn('firstname', 'text')
      .addColumn('lastname', 'text')
      .addColumn('license_type', 'text', notNull)
      .addColumn('birthday', 'text')
      .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('medcard_number', 'text')
      .addColumn('medcard_expiry', 'text')
      .addColumn('id_verified', 'integer', flag(0))
      .addColumn('created_from', 'text')
      .addColumn('password_hash', 'text')
      .addCheckConstraint('customers_license_type_check', sql`license_type in ('recreational', 'medical')`),
  ).execute();
  await index(db, 'customers', ['store_id', 'phone'], true);
  await index(db, 'customers', ['store_id', 'email']);

  await withTimestamps(
    id(db.schema.createTable('customer_addresses'))
      .addColumn('customer_id', 'integer', ref('customers.id'))
      .addColumn('title', 'text')
      .addColumn('firstname', 'text')
      .addColumn('lastname', 'text')
      .addColumn('street', 'text', notNull)
      .addColumn('house_number', 'text')
      .addColumn('apt_ste', 'text')
      .addColumn('city', 'text', notNull)
      .addColumn('region', 'text')
      .addColumn('postcode', 'text', notNull)
      .addColumn('country_id', 'text', (c) => c.notNull().defaultTo('US'))
      .addColumn('phone', 'text')
      .addColumn('lat', DOUBLE)
      .addColumn('lng', DOUBLE)
      .addColumn('is_default', 'integer', flag(0)),
  ).execute();
  await index(db, 'customer_addresses', ['customer_id']);

  await withTimestamps(
    id(db.schema.createTable('carts'))
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('store_id', 'integer', storeFk)
      .addColumn('customer_id', 'integer', ref('customers.id', 'set null', true))
      .addColumn('license_type', 'text', notNull)
      .addColumn('order_type', 'text', (c) => c.notNull().defaultTo('pickup'))
      .addColumn('coupon_code', 'text')
      .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
      .addCheckConstraint('carts_order_type_check', sql`order_type in ('pickup', 'delivery')`),
  ).execute();
  await index(db, 'carts', ['customer_id']);
  await index(db, 'carts', ['store_id', 'updated_at']);

  await withTimestamps(
    id(db.schema.createTable('cart_items'))
      .addColumn('cart_id', 'integer', ref('carts.id'))
      .addColumn('sku', 'text', notNull)
      .addColumn('parent_sku', 'text')
      .addColumn('qty', DOUBLE, notNull)
      .addColumn('size', 'integer')
      .addColumn('product_option', 'text'),
  ).execute();
  await index(db, 'cart_items', ['cart_id']);

  await withTimestamps(
    id(db.schema.createTable('coupons'))
      .addColumn('code', 'text', (c) => c.notNull().unique())
      .addColumn('store_id', 'integer', ref('stores.id', 'cascade', true))
      .addColumn('type', 'text', notNull)
      .addColumn('discount_percent', DOUBLE)
      .addColumn('discount_cents', 'integer')
      .addColumn('description', 'text')
      .addColumn('active', 'integer', flag(1))
      .addColumn('from_date', 'text')
      .addColumn('to_date', 'text')
      .addColumn('max_uses', 'integer')
      .addColumn('times_used', 'integer', (c) => c.notNull().defaultTo(0))
      .addCheckConstraint(
        'coupons_value_check',
        sql`(type = 'percent' and discount_percent is not null) or (type = 'fixed' and discount_cents is not null)`,
      ),
  ).execute();

  await withTimestamps(
    id(db.schema.createTable('newsletter_subscribers'))
      .addColumn('store_id', 'integer', storeFk)
      .addColumn('email', 'text', notNull)
      .addColumn('customer_id', 'integer', ref('customers.id', 'set null', true))
      .addColumn('subscribed', 'integer', flag(1)),
  ).execute();
  await index(db, 'newsletter_subscribers', ['store_id', 'email'], true);

  await withTimestamps(
    id(db.schema.createTable('uploads'))
      .addColumn('store_id', 'integer', storeFk)
      .addColumn('customer_id', 'integer', ref('customers.id', 'set null', true))
      .addColumn('kind', 'text', notNull)
      .addColumn('stored_path', 'text', notNull)
      .addColumn('original_name', 'text')
      .addColumn('mime', 'text', notNull)
      .addColumn('size_bytes', 'integer', notNull)
      .addColumn('sha256', 'text', notNull)
      .addCheckConstraint('uploads_kind_check', sql`kind in ('id', 'medcard')`),
    false,
  ).execute();
  await index(db, 'uploads', ['customer_id']);
}

export const migration0005: DialectMigration = {
  up,
  down: (db) =>
    dropTables(db, [
      'uploads',
      'newsletter_subscribers',
      'coupons',
      'cart_items',
      'carts',
      'customer_addresses',
      'customers',
    ]),
};
