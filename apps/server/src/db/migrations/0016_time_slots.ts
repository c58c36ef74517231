/**
 * Time slots (issue 14 "Hours and time slots"): the slot an order was booked for, and one counter row
 * per store, order type and slot start. Booking is a guarded
 *   UPDATE slot_bookings SET taken = taken + 1 WHERE … AND taken < :capacity
 * in the order's transaction (hours/booking.ts), so a slot is never overbooked on either database;
 * a cancelled or no-show order gives its place back (orders/lifecycle/release.ts).
 */
import type { Kysely } from 'kysely';
import { notNull, ref, type DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('slot_bookings')
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('order_type', 'text', notNull)
    /** ISO UTC instant of the slot's start. */
    .addColumn('slot_start', 'text', notNull)
    .addColumn('taken', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('slot_bookings_pkey', ['store_id', 'order_type', 'slot_start'])
    .execute();
  await db.schema.alterTable('orders').addColumn('slot_start', 'text').execute();
  await db.schema.alterTable('orders').addColumn('slot_end', 'text').execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('slot_end').execute();
  await db.schema.alterTable('orders').dropColumn('slot_start').execute();
  await db.schema.dropTable('slot_bookings').execute();
}

export const migration0016: DialectMigration = { up, down };
