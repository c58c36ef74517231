/**
 * The store's side of an order (issue 12):
 *  - staff accounts of their own (never a customer row): `staff`, the stores each may touch
 *    (`staff_stores`; owners touch every store and need no rows), cookie sessions, reset links;
 *  - the order lifecycle: status moves on `orders` (`pending` becomes `submitted`), the ready-by
 *    time, the cancel reason, the verifications the order needed when placed, when its goods went
 *    back (`released_at`: stock, points and coupon use are returned once), and its history
 *    (`order_events`: who did what, when);
 *  - the customer's documents reviewed by staff (`customers.id_status`, `medcard_status`, …);
 *  - per-store order settings (auto-confirm, pickup window, which messages go out, the store's
 *    order e-mail);
 *  - the transactional outbox (`outbox_events`, written in the transaction of the change) and one
 *    delivery row per recipient: shopper/store messages and signed webhooks with their attempts.
 */
import { sql, type Kysely } from 'kysely';
import { dropTables, flag, index, notNull, ref, withId, withTimestamps, zero, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const id = withId(dialect);

  // --- Staff -----------------------------------------------------------------------------------
  await withTimestamps(
    id(db.schema.createTable('staff'))
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', notNull)
      .addColumn('role', 'text', notNull)
      .addColumn('password_hash', 'text')
      .addColumn('totp_secret', 'text')
      .addColumn('totp_enabled_at', 'text')
      .addColumn('failed_logins', 'integer', zero)
      .addColumn('locked_until', 'text')
      .addColumn('disabled_at', 'text')
      .addCheckConstraint('staff_role_check', sql`role in ('owner', 'manager', 'budtender')`),
  ).execute();

  await db.schema
    .createTable('staff_stores')
    .addColumn('staff_id', 'integer', ref('staff.id'))
    .addColumn('store_id', 'integer', ref('stores.id'))
    .addPrimaryKeyConstraint('staff_stores_pkey', ['staff_id', 'store_id'])
    .execute();
  await index(db, 'staff_stores', ['store_id']);

  await withTimestamps(
    id(db.schema.createTable('staff_sessions'))
      .addColumn('staff_id', 'integer', ref('staff.id'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('csrf_token', 'text', notNull)
      .addColumn('expires_at', 'text', notNull)
      .addColumn('last_seen_at', 'text', notNull)
      .addColumn('revoked_at', 'text')
      .addColumn('user_agent', 'text')
      // Set once the second factor was given (owners/managers with TOTP on); null until then.
      .addColumn('mfa_at', 'text'),
    false,
  ).execute();
  await index(db, 'staff_sessions', ['staff_id']);

  await withTimestamps(
    id(db.schema.createTable('staff_password_resets'))
      .addColumn('staff_id', 'integer', ref('staff.id'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'text', notNull)
      .addColumn('used_at', 'text'),
    false,
  ).execute();

  // --- Orders: lifecycle -----------------------------------------------------------------------
  await db.schema.alterTable('orders').addColumn('ready_by', 'text').execute();
  await db.schema.alterTable('orders').addColumn('status_changed_at', 'text').execute();
  await db.schema.alterTable('orders').addColumn('cancel_reason', 'text').execute();
  await db.schema.alterTable('orders').addColumn('cancel_message', 'text').execute();
  // JSON list of the verifications the order needed when placed (['id','medcard'] …); '[]' none.
  await db.schema.alterTable('orders').addColumn('verification_needs', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('orders').addColumn('released_at', 'text').execute();
  // Grows with every change staff can see (status, ready-by, hold): consoles compare it.
  await db.schema.alterTable('orders').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.updateTable('orders').set({ status: 'submitted' }).where('status', '=', 'pending').execute();
  await db.updateTable('orders').set({ status_changed_at: sql`created_at` }).execute();
  await index(db, 'orders', ['store_id', 'status', 'created_at']);

  await id(db.schema.createTable('order_events'))
    .addColumn('order_id', 'integer', ref('orders.id'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('at', 'text', notNull)
    // staff | customer | system
    .addColumn('actor_type', 'text', notNull)
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'text')
    // placed | status | ready_by | verification | id_checked | note | notification | …
    .addColumn('kind', 'text', notNull)
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text')
    .addColumn('data', 'text')
    .execute();
  await index(db, 'order_events', ['order_id', 'at']);

  // --- Customers: documents reviewed by staff --------------------------------------------------
  for (const doc of ['id', 'medcard']) {
    // none | pending | verified | rejected
    await db.schema.alterTable('customers').addColumn(`${doc}_status`, 'text', (c) => c.notNull().defaultTo('none')).execute();
    await db.schema.alterTable('customers').addColumn(`${doc}_review_reason`, 'text').execute();
    await db.schema.alterTable('customers').addColumn(`${doc}_reviewed_by`, 'integer').execute();
    await db.schema.alterTable('customers').addColumn(`${doc}_reviewed_at`, 'text').execute();
  }
  // What the old flag said stays true; uploads already made wait for review.
  await db.updateTable('customers').set({ id_status: 'verified' }).where('id_verified', '=', 1).execute();
  await db
    .updateTable('customers')
    .set({ id_status: 'pending' })
    .where('id_status', '=', 'none')
    .where(({ exists, selectFrom }) => exists(selectFrom('uploads').select('uploads.id').whereRef('uploads.customer_id', '=', 'customers.id').where('uploads.kind', '=', 'id')))
    .execute();
  await db
    .updateTable('customers')
    .set({ medcard_status: 'pending' })
    .where(({ exists, selectFrom }) => exists(selectFrom('uploads').select('uploads.id').whereRef('uploads.customer_id', '=', 'customers.id').where('uploads.kind', '=', 'medcard')))
    .execute();

  // --- Per-store order settings ----------------------------------------------------------------
  await db.schema
    .createTable('store_order_settings')
    .addColumn('store_id', 'integer', (c) => c.primaryKey().references('stores.id').onDelete('cascade'))
    .addColumn('auto_confirm', 'integer', flag(0))
    // Ready-by time an auto-confirmed order gets (minutes after it was placed).
    .addColumn('auto_confirm_minutes', 'integer', (c) => c.notNull().defaultTo(20))
    .addColumn('pickup_window_hours', 'integer', (c) => c.notNull().defaultTo(24))
    // JSON: { "order_confirmed": {"sms":true,"email":true}, … } — absent means on.
    .addColumn('notifications', 'text', (c) => c.notNull().defaultTo('{}'))
    // Where the store hears of new orders; null: no store e-mail.
    .addColumn('order_email', 'text')
    .addColumn('updated_at', 'text', notNull)
    .execute();

  // --- Outbox and deliveries -------------------------------------------------------------------
  await id(db.schema.createTable('outbox_events'))
    // The public, stable id receivers de-duplicate on (`webhook-id`): `evt_…`.
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    // order.created | order.status_changed | …
    .addColumn('type', 'text', notNull)
    .addColumn('order_id', 'integer')
    .addColumn('payload', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    // Each consumer marks the event once it has handed it on (idempotently): console push,
    // messages (SMS/mail rows written), webhooks (delivery rows written).
    .addColumn('pushed_at', 'text')
    .addColumn('messages_at', 'text')
    .addColumn('webhooks_at', 'text')
    .execute();
  await index(db, 'outbox_events', ['pushed_at']);
  await index(db, 'outbox_events', ['messages_at']);
  await index(db, 'outbox_events', ['webhooks_at']);
  await index(db, 'outbox_events', ['store_id', 'id']);

  await withTimestamps(
    id(db.schema.createTable('message_deliveries'))
      .addColumn('event_id', 'text', notNull)
      .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
      .addColumn('order_id', 'integer')
      // sms | email
      .addColumn('channel', 'text', notNull)
      .addColumn('recipient', 'text', notNull)
      // order_confirmed | order_ready_for_pickup | order_out_for_delivery | order_cancelled | store_new_order
      .addColumn('template', 'text', notNull)
      .addColumn('subject', 'text')
      .addColumn('body', 'text', notNull)
      // pending | sent | failed
      .addColumn('status', 'text', notNull)
      .addColumn('attempts', 'integer', zero)
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('sent_at', 'text'),
  ).execute();
  await index(db, 'message_deliveries', ['event_id', 'channel', 'recipient', 'template'], true);
  await index(db, 'message_deliveries', ['status', 'next_attempt_at']);
  await index(db, 'message_deliveries', ['order_id']);

  await withTimestamps(
    id(db.schema.createTable('webhook_endpoints'))
      .addColumn('store_id', 'integer', ref('stores.id'))
      .addColumn('url', 'text', notNull)
      .addColumn('description', 'text')
      // JSON list of event types
      .addColumn('events', 'text', notNull)
      .addColumn('secret', 'text', notNull)
      // During a rotation both secrets sign (two signatures), until previous_secret_until.
      .addColumn('previous_secret', 'text')
      .addColumn('previous_secret_until', 'text')
      .addColumn('disabled_at', 'text')
      .addColumn('disabled_reason', 'text'),
  ).execute();
  await index(db, 'webhook_endpoints', ['store_id']);

  await withTimestamps(
    id(db.schema.createTable('webhook_deliveries'))
      .addColumn('event_id', 'text', notNull)
      .addColumn('endpoint_id', 'integer', ref('webhook_endpoints.id'))
      .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
      // pending | succeeded | failed (gave up) | disabled (endpoint answered 410 or was disabled)
      .addColumn('status', 'text', notNull)
      .addColumn('attempts', 'integer', zero)
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('leased_by', 'text')
      .addColumn('last_status_code', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'text'),
  ).execute();
  await index(db, 'webhook_deliveries', ['event_id', 'endpoint_id'], true);
  await index(db, 'webhook_deliveries', ['status', 'next_attempt_at']);
  await index(db, 'webhook_deliveries', ['endpoint_id', 'created_at']);

  await id(db.schema.createTable('webhook_attempts'))
    .addColumn('delivery_id', 'integer', ref('webhook_deliveries.id'))
    .addColumn('attempt', 'integer', notNull)
    .addColumn('started_at', 'text', notNull)
    .addColumn('duration_ms', 'integer', notNull)
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    // The node that made the attempt (tests prove one sender per event across nodes).
    .addColumn('node', 'text')
    .execute();
  await index(db, 'webhook_attempts', ['delivery_id']);
}

async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, [
    'webhook_attempts',
    'webhook_deliveries',
    'webhook_endpoints',
    'message_deliveries',
    'outbox_events',
    'store_order_settings',
    'order_events',
    'staff_password_resets',
    'staff_sessions',
    'staff_stores',
    'staff',
  ]);
  for (const doc of ['id', 'medcard']) {
    for (const col of ['status', 'review_reason', 'reviewed_by', 'reviewed_at']) await db.schema.alterTable('customers').dropColumn(`${doc}_${col}`).execute();
  }
  await db.schema.dropIndex('orders_store_id_status_created_at_idx').execute();
  for (const col of ['ready_by', 'status_changed_at', 'cancel_reason', 'cancel_message', 'verification_needs', 'released_at', 'version']) {
    await db.schema.alterTable('orders').dropColumn(col).execute();
  }
  await db.updateTable('orders').set({ status: 'pending' }).where('status', '=', 'submitted').execute();
}

export const migration0010: DialectMigration = { up, down };
