/**
 * Delivery trips (issue 29 "Drivers, vehicles, trips"):
 *  - staff.role gains `driver` (store-scoped like a budtender; sees only its own trips). PostgreSQL
 *    swaps the check constraint; SQLite cannot alter one, so the table is rebuilt (below).
 *  - drivers: per store, the person on the manifest (name, employee number, driver's licence
 *    number), optionally linked to a staff member with the `driver` role who logs in to see the
 *    trips; `active` 0 keeps a former driver on old trips without offering them for new ones.
 *  - vehicles: per store, make, model and plate (plate unique per store), `active` as drivers.
 *  - trips: a store's trip: driver, vehicle, status planned → started → ended, who created it,
 *    when it started and ended, and its ledger number (unique per store, e.g. T-1-000042).
 *  - trip_stops: the trip's orders in stop order (`position` from 1). `open` is 1 while the trip is
 *    planned or started and NULL once it ended; the unique index on (order_id, open) holds an order on
 *    at most one open trip in the database itself (NULLs are distinct in a unique index on both
 *    dialects), so of two dispatchers adding the same order to two trips at once exactly one insert
 *    succeeds.
 */
import { sql, type Kysely } from 'kysely';
import { DOUBLE, flag, index, notNull, ref, withId, withTimestamps, type DialectMigration, type SqlDialect } from './helpers.ts';

const ROLES_BEFORE = `'owner', 'manager', 'budtender'`;
const ROLES_AFTER = `'owner', 'manager', 'budtender', 'driver'`;

/**
 * Change the roles a staff row may have. PostgreSQL: drop and add the check. SQLite (which cannot
 * change a check, and whose schema table is read-only here): create the table again from its own
 * `create` text with the new list, copy the rows, and put back the rows of the tables referencing
 * staff, which dropping the old table deletes (their foreign keys cascade and cannot be switched off
 * inside the migration's transaction).
 */
async function staffRoles(db: Kysely<any>, dialect: SqlDialect, from: string, to: string): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table staff drop constraint staff_role_check`.execute(db);
    await sql.raw(`alter table staff add constraint staff_role_check check (role in (${to}))`).execute(db);
    return;
  }
  const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'staff'`.execute(db);
  const create = rows[0]?.sql;
  if (!create || !create.includes(`(${from})`)) throw new Error('migration 0029: the staff table is not as expected');
  const indexes = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'staff' and sql is not null`.execute(db)).rows;
  // Every table whose foreign key names staff; each must cascade (else dropping staff would refuse or null it).
  const refs = (
    await sql<{ name: string; on_delete: string }>`
      select m.name as name, f.on_delete as on_delete from sqlite_master m join pragma_foreign_key_list(m.name) f
      where m.type = 'table' and f."table" = 'staff'`.execute(db)
  ).rows;
  const odd = refs.find((r) => r.on_delete.toUpperCase() !== 'CASCADE');
  if (odd) throw new Error(`migration 0029: ${odd.name} references staff with on delete ${odd.on_delete}`);
  const children = [...new Set(refs.map((r) => r.name))];
  for (const table of children) {
    await sql.raw(`create temp table "keep_${table}" as select * from "${table}"`).execute(db);
  }
  // The autoincrement's high-water mark, so ids of deleted members are never given again.
  const seq = (await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'staff'`.execute(db)).rows[0]?.seq ?? 0;
  await sql.raw(`create table "staff_0029" as select * from "staff"`).execute(db);
  await sql`drop table staff`.execute(db);
  await sql.raw(create.replace(`(${from})`, `(${to})`)).execute(db);
  await sql.raw(`insert into "staff" select * from "staff_0029"`).execute(db);
  await sql.raw(`drop table "staff_0029"`).execute(db);
  await sql`update sqlite_sequence set seq = ${seq} where name = 'staff' and seq < ${seq}`.execute(db);
  for (const i of indexes) await sql.raw(i.sql).execute(db);
  for (const table of children) {
    await sql.raw(`insert into "${table}" select * from temp."keep_${table}"`).execute(db);
    await sql.raw(`drop table temp."keep_${table}"`).execute(db);
  }
}

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await staffRoles(db, dialect, ROLES_BEFORE, ROLES_AFTER);

  await withTimestamps(
    withId(dialect)(db.schema.createTable('drivers'))
      .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
      .addColumn('name', 'text', notNull)
      .addColumn('employee_number', 'text', notNull)
      .addColumn('licence_number', 'text', notNull)
      .addColumn('staff_id', 'integer', ref('staff.id', 'set null', true))
      .addColumn('active', 'integer', flag(1)),
  ).execute();
  await index(db, 'drivers', ['store_id', 'employee_number'], true);
  await index(db, 'drivers', ['staff_id']);

  await withTimestamps(
    withId(dialect)(db.schema.createTable('vehicles'))
      .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
      .addColumn('make', 'text', notNull)
      .addColumn('model', 'text', notNull)
      .addColumn('plate', 'text', notNull)
      .addColumn('active', 'integer', flag(1)),
  ).execute();
  await index(db, 'vehicles', ['store_id', 'plate'], true);

  await withTimestamps(
    withId(dialect)(db.schema.createTable('trips'))
      .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
      .addColumn('ledger_number', 'text', notNull)
      .addColumn('driver_id', 'integer', ref('drivers.id', 'restrict'))
      .addColumn('vehicle_id', 'integer', ref('vehicles.id', 'restrict'))
      .addColumn('status', 'text', notNull)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_by', 'text', notNull)
      .addColumn('started_at', 'text')
      .addColumn('ended_at', 'text')
      // What the trip carried when it started (the limits were checked on these).
      .addColumn('goods_cents', 'integer')
      .addColumn('weight_grams', DOUBLE)
      .addCheckConstraint('trips_status_check', sql`status in ('planned', 'started', 'ended')`),
  ).execute();
  await index(db, 'trips', ['store_id', 'ledger_number'], true);
  await index(db, 'trips', ['store_id', 'status']);
  await index(db, 'trips', ['driver_id', 'status']);

  await withId(dialect)(db.schema.createTable('trip_stops'))
    .addColumn('trip_id', 'integer', ref('trips.id'))
    .addColumn('order_id', 'integer', ref('orders.id', 'restrict'))
    .addColumn('position', 'integer', notNull)
    .addColumn('open', 'integer', (c) => c.defaultTo(1).check(sql`open = 1`))
    .addColumn('created_at', 'text', notNull)
    .execute();
  await index(db, 'trip_stops', ['order_id', 'open'], true);
  await index(db, 'trip_stops', ['trip_id', 'order_id'], true);
}

async function down(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema.dropTable('trip_stops').execute();
  await db.schema.dropTable('trips').execute();
  await db.schema.dropTable('vehicles').execute();
  await db.schema.dropTable('drivers').execute();
  await db.deleteFrom('staff').where('role', '=', 'driver').execute();
  await staffRoles(db, dialect, ROLES_AFTER, ROLES_BEFORE);
}

export const migration0029: DialectMigration = { up, down };
