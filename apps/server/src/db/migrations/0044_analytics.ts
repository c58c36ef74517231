/**
 * Analytics (issue 31 "Analytics in the console"): daily rollups the dashboard reads instead of
 * scanning orders (ARCHITECTURE "Figures from aggregates, not scans").
 *  - analytics_daily: per store, store-local day (YYYY-MM-DD), dimension and key (`total`/'',
 *    `type`/delivery, `brand`/12, `hour`/14 …) the summed figures: orders, units, grams (in
 *    milligrams, so sums stay integers), net sales, discounts and totals in cents. `label` is the
 *    key's latest display name (a product's or deal's title). Week, month and any range are sums of
 *    days, read through the primary key.
 *  - analytics_monthly: the same cells by store-local month (YYYY-MM), kept in the same
 *    transaction, so a year's view reads twelve months' rows, not 365 days' (bench: 300 ms p95).
 *  - analytics_order_facts: per order, the rollup cells it currently counts in (JSON) and a
 *    version. The outbox consumer (analytics/rollup.ts) recomputes an order's cells from the order
 *    as it is now and applies only the difference, so replaying an event changes nothing and a
 *    cancellation after the fact moves the order out of its sales cells. Nothing of the shopper.
 *  - analytics_funnel: per store, day and step (visit, product_view, add_to_cart,
 *    checkout_started) a count, incremented on the server from batched in-memory counts. No IP,
 *    no user id, no cookie: counts only.
 *  - outbox_events.analytics_at: the analytics consumer's column (outbox/consumer.ts).
 */
import type { Kysely } from 'kysely';
import { index, notNull, zero, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  // bigint on PostgreSQL for money and grams sums of busy days; SQLite integers are 64-bit anyway.
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('analytics_daily')
    .addColumn('store_id', 'integer', notNull)
    .addColumn('day', 'text', notNull)
    .addColumn('dim', 'text', notNull)
    .addColumn('key', 'text', notNull)
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('orders', 'integer', zero)
    .addColumn('units', 'integer', zero)
    .addColumn('grams_mg', big, zero)
    .addColumn('sales_cents', big, zero)
    .addColumn('discount_cents', big, zero)
    .addColumn('total_cents', big, zero)
    .addPrimaryKeyConstraint('analytics_daily_pkey', ['store_id', 'dim', 'day', 'key'])
    .execute();
  // The same cells summed by store-local month (YYYY-MM), kept with the days: a long range reads its
  // whole months here and only its partial months' days from analytics_daily.
  await db.schema
    .createTable('analytics_monthly')
    .addColumn('store_id', 'integer', notNull)
    .addColumn('month', 'text', notNull)
    .addColumn('dim', 'text', notNull)
    .addColumn('key', 'text', notNull)
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('orders', 'integer', zero)
    .addColumn('units', 'integer', zero)
    .addColumn('grams_mg', big, zero)
    .addColumn('sales_cents', big, zero)
    .addColumn('discount_cents', big, zero)
    .addColumn('total_cents', big, zero)
    .addPrimaryKeyConstraint('analytics_monthly_pkey', ['store_id', 'dim', 'month', 'key'])
    .execute();
  await db.schema
    .createTable('analytics_order_facts')
    .addColumn('order_id', 'integer', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', notNull)
    .addColumn('cells', 'text', notNull)
    .addColumn('version', 'integer', zero)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await db.schema
    .createTable('analytics_funnel')
    .addColumn('store_id', 'integer', notNull)
    .addColumn('day', 'text', notNull)
    .addColumn('step', 'text', notNull)
    .addColumn('count', big, zero)
    .addPrimaryKeyConstraint('analytics_funnel_pkey', ['store_id', 'day', 'step'])
    .execute();
  await db.schema.alterTable('outbox_events').addColumn('analytics_at', 'text').execute();
  // The consumer looks for `analytics_at is null` on every pass, as the other consumers do on theirs.
  await index(db, 'outbox_events', ['analytics_at']);
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_events_analytics_at_idx').execute();
  await db.schema.alterTable('outbox_events').dropColumn('analytics_at').execute();
  for (const t of ['analytics_funnel', 'analytics_order_facts', 'analytics_monthly', 'analytics_daily']) await db.schema.dropTable(t).execute();
}

export const migration0044: DialectMigration = { up, down };
