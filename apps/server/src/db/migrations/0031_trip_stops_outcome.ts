/**
 * Delivery at the door and the end of a trip (issue 29 "The driver's phone", "Paperwork", "The shopper"):
 *  - trip_stops gain the stop's outcome: `delivered` (with the ID check record and the customer's
 *    signature) or `failed` with a reason; who recorded it and when; the cash the driver collected
 *    (entered at the end of the trip); `restocked_at`, set once when a failed stop's goods go back in
 *    stock at the end of the trip (a guarded UPDATE … WHERE restocked_at IS NULL makes it once-only);
 *    `near_notified_at`, set once when the "about 10 minutes away" message went out.
 *  - trips gain who ended them, the cash expected and collected, and a note on differences.
 *  - driver_actions: every action a driver's phone sends (deliver, fail, end trip…) under the id the
 *    phone gave it, unique per store: an action queued offline and sent again is answered from here,
 *    never applied twice.
 *  - driver_devices: what each phone last reported (actions still queued on it, the oldest one's
 *    time), so the console shows what is still pending from each phone.
 */
import type { Kysely } from 'kysely';
import { index, notNull, ref, withId, type DialectMigration, type SqlDialect } from './helpers.ts';

const STOP_COLUMNS: [string, string][] = [
  ['outcome', 'text'], // null (not yet) | delivered | failed
  ['outcome_at', 'text'],
  ['outcome_by', 'text'], // the staff member's name as the ledger shows it
  ['failed_reason', 'text'], // no_valid_id | not_home | refused | under_age | other
  ['failed_note', 'text'],
  ['id_document', 'text'], // drivers_licence | state_id | passport | military_id
  ['id_birth_date', 'text'], // YYYY-MM-DD as read from the ID
  ['id_name_matches', 'integer'], // 1: the name on the ID is the order's
  ['id_checked_at', 'text'],
  ['signature_png', 'text'], // data:image/png;base64,… (at most 200 KB)
  ['cash_cents', 'integer'], // entered at the end of the trip
  ['restocked_at', 'text'],
  ['near_notified_at', 'text'],
];

const TRIP_COLUMNS: [string, string][] = [
  ['ended_by', 'text'],
  ['cash_expected_cents', 'integer'],
  ['cash_collected_cents', 'integer'],
  ['end_note', 'text'],
];

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  for (const [name, type] of STOP_COLUMNS) await db.schema.alterTable('trip_stops').addColumn(name, type as 'text').execute();
  for (const [name, type] of TRIP_COLUMNS) await db.schema.alterTable('trips').addColumn(name, type as 'text').execute();

  await withId(dialect)(db.schema.createTable('driver_actions'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('action_id', 'text', notNull) // the phone's id for the action (a UUID)
    .addColumn('staff_id', 'integer', ref('staff.id', 'set null', true))
    .addColumn('device_id', 'text')
    .addColumn('trip_id', 'integer', ref('trips.id', 'set null', true))
    .addColumn('kind', 'text', notNull)
    .addColumn('payload', 'text', notNull) // JSON as sent
    .addColumn('answer_status', 'integer', notNull) // the HTTP status given the first time
    .addColumn('answer', 'text', notNull) // JSON answered the first time (sent again on a retry)
    .addColumn('taken_at', 'text') // when the driver did it, by the phone's clock
    .addColumn('received_at', 'text', notNull)
    .execute();
  await index(db, 'driver_actions', ['store_id', 'action_id'], true);
  await index(db, 'driver_actions', ['trip_id']);

  await withId(dialect)(db.schema.createTable('driver_devices'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('device_id', 'text', notNull)
    .addColumn('staff_id', 'integer', ref('staff.id', 'set null', true))
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('oldest_pending_at', 'text')
    .addColumn('seen_at', 'text', notNull)
    .execute();
  await index(db, 'driver_devices', ['store_id', 'device_id'], true);
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('driver_devices').execute();
  await db.schema.dropTable('driver_actions').execute();
  for (const [name] of [...TRIP_COLUMNS].reverse()) await db.schema.alterTable('trips').dropColumn(name).execute();
  for (const [name] of [...STOP_COLUMNS].reverse()) await db.schema.alterTable('trip_stops').dropColumn(name).execute();
}

export const migration0031: DialectMigration = { up, down };
