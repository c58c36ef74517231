/**
 * Migration 0029 (issue 29) gives staff the role `driver`. SQLite cannot change a check constraint,
 * so the staff table is made again — and dropping the old one cascades to every table referencing
 * staff. Proven here on both databases: down and up again with members, their stores, sessions,
 * reset links, unlock links and throttle rows in place keeps every one of those rows, and the role
 * check still refuses an unknown role.
 */
import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeEachDatabase } from '../../../test-support/databases.ts';
import { syncStores } from '../index.ts';
import { DEMO_STORES_FILE } from '../../config.ts';
import { readStoresFile } from '../../seed/index.ts';
import { addStaff } from '../../../test-support/staff/testing.ts';
import { migration0029 } from './0029_delivery_trips.ts';
import { MIGRATIONS } from './index.ts';

/** The migrations after 0029: taken down first (newest first) so 0029's down runs on the schema it was written for, and put back after. */
const LATER = Object.keys(MIGRATIONS).filter((name) => name > '0029_delivery_trips').sort();

const CHILDREN = ['staff_stores', 'staff_sessions', 'staff_password_resets', 'staff_unlock_tokens', 'staff_login_throttle'] as const;

describeEachDatabase('migration 0029: the driver role', (getDb) => {
  it('keeps every staff row and every row referencing staff through down and up, and checks the role', async () => {
    const t = getDb();
    const db = t.db;
    await syncStores(db, readStoresFile(DEMO_STORES_FILE));
    const ids = [
      await addStaff(db, { email: 'o@m29.test', role: 'owner' }),
      await addStaff(db, { email: 'm@m29.test', role: 'manager', storeIds: [1, 2] }),
      await addStaff(db, { email: 'b@m29.test', role: 'budtender', storeIds: [1] }),
    ];
    const iso = '2026-06-15T12:00:00.000Z';
    await db.insertInto('staff_sessions').values({ staff_id: ids[1], token_hash: 'h1', csrf_token: 'c', expires_at: iso, last_seen_at: iso, revoked_at: null, user_agent: null, mfa_at: null, created_at: iso }).execute();
    await db.insertInto('staff_password_resets').values({ staff_id: ids[2], token_hash: 'r1', expires_at: iso, used_at: null, created_at: iso }).execute();
    const snapshot = async () => {
      const out: Record<string, unknown[]> = {};
      for (const table of ['staff', ...CHILDREN] as const) out[table] = (await db.selectFrom(table).selectAll().execute()).map((r) => JSON.stringify(r)).sort();
      return out;
    };
    const before = await snapshot();
    expect(before.staff_stores).toHaveLength(3);
    expect(before.staff_sessions).toHaveLength(1);

    for (const name of [...LATER].reverse()) await db.transaction().execute((trx) => MIGRATIONS[name]!.down(trx, t.dialect));
    await db.transaction().execute((trx) => migration0029.down(trx, t.dialect));
    await expect(addStaff(db, { email: 'd0@m29.test', role: 'driver', storeIds: [1] })).rejects.toThrow();
    await db.transaction().execute((trx) => migration0029.up(trx, t.dialect));
    for (const name of LATER) await db.transaction().execute((trx) => MIGRATIONS[name]!.up(trx, t.dialect));
    expect(await snapshot()).toEqual(before);

    const driver = await addStaff(db, { email: 'd@m29.test', role: 'driver', storeIds: [1] });
    expect((await db.selectFrom('staff').select('role').where('id', '=', driver).executeTakeFirstOrThrow()).role).toBe('driver');
    await expect(sql`insert into staff (email, name, role, failed_logins, created_at, updated_at) values ('x@m29.test', 'x', 'cashier', 0, ${iso}, ${iso})`.execute(db)).rejects.toThrow();
    // New ids keep counting after the highest one (SQLite's autoincrement survived the rebuild).
    expect(driver).toBeGreaterThan(Math.max(...ids));
    // Deleting a member still cascades to its rows.
    await db.deleteFrom('staff').where('id', '=', ids[1]).execute();
    expect(await db.selectFrom('staff_sessions').selectAll().execute()).toEqual([]);
  });
});
