/**
 * Consent on record and back-in-stock alerts (issue 30).
 *  - consent_events: the consent ledger, append-only (never updated or deleted). One row grants or
 *    withdraws one purpose (transactional | marketing) on one channel (sms | email) for a customer
 *    (customer_id) or a guest's contact (E.164 phone or lower-cased e-mail) in one store: when (at),
 *    how (source: the form or path, e.g. stock_alert_form, unsubscribe_link, sms_stop) and the exact
 *    words shown (words). The newest row of a subject × channel × purpose is the standing answer
 *    (packages/domain/src/consent.ts decideMessage).
 *  - stock_watches: "tell me when it's back" on a sold-out product (variant_id null) or one size of
 *    it (variant_id), by a customer or a guest contact, one row per store × target × subscriber
 *    (target_key `p{id}` / `v{id}`, subscriber_key `c{id}` / `sms:{phone}` / `email:{address}`).
 *    `restocked_at` is set once, in the transaction that brought stock back (menu-admin/audit.ts,
 *    a guarded UPDATE … WHERE restocked_at IS NULL); `notified_at` and `outcome` (queued |
 *    no_consent | withdrawn | gone) once the alert planner dealt with it; `removed_at` when the
 *    shopper removed it. Watching again after a message starts a new round (the columns cleared).
 *  - message_deliveries gain `purpose` (null = transactional; `marketing` rows are held back when
 *    consent is withdrawn before they go).
 */
import type { Kysely } from 'kysely';
import { index, notNull, ref, withId, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await withId(dialect)(db.schema.createTable('consent_events'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('customer_id', 'integer', ref('customers.id', 'set null', true))
    .addColumn('contact', 'text')
    .addColumn('channel', 'text', notNull)
    .addColumn('purpose', 'text', notNull)
    .addColumn('action', 'text', notNull)
    .addColumn('source', 'text', notNull)
    .addColumn('words', 'text')
    .addColumn('at', 'text', notNull)
    .execute();
  await index(db, 'consent_events', ['store_id', 'customer_id']);
  await index(db, 'consent_events', ['store_id', 'contact']);

  await withId(dialect)(db.schema.createTable('stock_watches'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('product_id', 'integer', ref('products.id', 'cascade'))
    .addColumn('variant_id', 'integer', ref('products.id', 'cascade', true))
    .addColumn('target_key', 'text', notNull)
    .addColumn('customer_id', 'integer', ref('customers.id', 'cascade', true))
    .addColumn('contact', 'text')
    .addColumn('channel', 'text', notNull)
    .addColumn('subscriber_key', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('removed_at', 'text')
    .addColumn('restocked_at', 'text')
    .addColumn('notified_at', 'text')
    .addColumn('outcome', 'text')
    .execute();
  await index(db, 'stock_watches', ['store_id', 'target_key', 'subscriber_key'], true);
  await index(db, 'stock_watches', ['store_id', 'product_id']);
  await index(db, 'stock_watches', ['store_id', 'variant_id']);
  await index(db, 'stock_watches', ['customer_id']);
  await index(db, 'stock_watches', ['restocked_at', 'notified_at']);

  await db.schema.alterTable('message_deliveries').addColumn('purpose', 'text').execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('message_deliveries').dropColumn('purpose').execute();
  await db.schema.dropTable('stock_watches').execute();
  await db.schema.dropTable('consent_events').execute();
}

export const migration0033: DialectMigration = { up, down };
