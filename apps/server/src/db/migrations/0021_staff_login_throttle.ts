/**
 * Staff login lock-out per e-mail (issue 26). `staff_login_throttle` counts the login tries of an
 * e-mail address, keyed by its hash, whether or not the address belongs to a staff member, so an
 * unknown e-mail locks exactly like a member's (the answer never tells which e-mails are staff).
 * A try is taken atomically before the password is judged (staff/login-throttle.ts).
 * `staff_unlock_tokens` are the one-time links mailed to a member when their e-mail gets locked:
 * with the right password they log in through the lock, so the lock cannot shut a member out.
 * The old `staff.failed_logins` / `staff.locked_until` columns are no longer read or written.
 */
import type { Kysely } from 'kysely';
import { dropTables, ref, withId, zero, type DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await db.schema
    .createTable('staff_login_throttle')
    .addColumn('email_hash', 'text', (c) => c.primaryKey())
    .addColumn('tries', 'integer', zero)
    .addColumn('locked_until', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('staff_unlock_tokens')
    .$call(withId(dialect))
    .addColumn('staff_id', 'integer', ref('staff.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('tries', 'integer', zero)
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_unlock_tokens_staff_id_idx').on('staff_unlock_tokens').column('staff_id').execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['staff_unlock_tokens', 'staff_login_throttle']);
}

export const migration0021: DialectMigration = { up, down };
