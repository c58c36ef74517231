/**
 * The staff login lock-out, counted per e-mail address (issue 26). Every login try first takes one
 * of the address's MAX_FAILED_LOGINS tries in one atomic statement (an upsert with a condition, on
 * SQLite and PostgreSQL alike); only a request that took a try has its password judged. The try
 * that reaches the limit sets the lock in the same statement, so a burst of parallel guesses, from
 * one address or forty, gets at most five judgements: every other request is refused unjudged, the
 * right password among them too. A success clears the count.
 *
 * The count is kept for every address tried, staff or not (keyed by the address's sha256), so an
 * unknown e-mail is locked after the same tries, with the same answer, as a member's.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MS = 15 * 60 * 1000;
/** Rows of addresses not tried for this long (and not locked) are deleted now and then. */
const KEEP_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

type Db = Kysely<Database> | Transaction<Database>;

/** The key of an address (already trimmed and lower-cased by the e-mail schema). */
export function emailKey(email: string): string {
  return createHash('sha256').update(`verdant-staff-login:${email}`).digest('hex');
}

export interface TakenTry {
  key: string;
  /** This try's number since the last success or lock (1…MAX_FAILED_LOGINS). */
  tries: number;
  /** Set when this try reached the limit: the lock it started. */
  lockedUntil: string | null;
}

export type TakeResult = { taken: true; try: TakenTry } | { taken: false; lockedUntil: string };

let lastPrune = 0;

/** Take one try for the address, or learn that it is locked (until when). */
export async function takeTry(db: Kysely<Database>, email: string, now: Date): Promise<TakeResult> {
  const key = emailKey(email);
  const iso = now.toISOString();
  const lockEnd = new Date(now.getTime() + LOCK_MS).toISOString();
  await pruneNowAndThen(db, now);
  // SET expressions read the row as it was: an expired lock starts a new count at 1.
  const { rows } = await sql<{ tries: number; locked_until: string | null }>`
    insert into staff_login_throttle (email_hash, tries, locked_until, updated_at)
    values (${key}, 1, null, ${iso})
    on conflict (email_hash) do update set
      tries = case when staff_login_throttle.locked_until is null then staff_login_throttle.tries + 1 else 1 end,
      locked_until = case
        when staff_login_throttle.locked_until is null and staff_login_throttle.tries + 1 >= ${MAX_FAILED_LOGINS} then ${lockEnd}
        else null end,
      updated_at = ${iso}
    where staff_login_throttle.locked_until is null or staff_login_throttle.locked_until <= ${iso}
    returning tries, locked_until`.execute(db);
  const row = rows[0];
  if (row) return { taken: true, try: { key, tries: Number(row.tries), lockedUntil: row.locked_until } };
  const lock = await db.selectFrom('staff_login_throttle').select('locked_until').where('email_hash', '=', key).executeTakeFirst();
  return { taken: false, lockedUntil: lock?.locked_until ?? lockEnd };
}

/**
 * Give a try back (the password was right but the authenticator code is still to come): only when
 * no try was taken after it, so a burst never gains tries this way.
 */
export async function giveBack(db: Db, taken: TakenTry): Promise<void> {
  let q = db
    .updateTable('staff_login_throttle')
    .set((eb) => ({ tries: eb('tries', '-', 1), locked_until: null }))
    .where('email_hash', '=', taken.key)
    .where('tries', '=', taken.tries);
  q = taken.lockedUntil === null ? q.where('locked_until', 'is', null) : q.where('locked_until', '=', taken.lockedUntil);
  await q.execute();
}

/** A success (or a new password) clears the address's count and lock. */
export async function clearTries(db: Db, email: string): Promise<void> {
  await db.deleteFrom('staff_login_throttle').where('email_hash', '=', emailKey(email)).execute();
}

async function pruneNowAndThen(db: Kysely<Database>, now: Date): Promise<void> {
  const t = now.getTime();
  if (Math.abs(t - lastPrune) < PRUNE_EVERY_MS) return;
  lastPrune = t;
  const iso = now.toISOString();
  await db
    .deleteFrom('staff_login_throttle')
    .where('updated_at', '<', new Date(t - KEEP_MS).toISOString())
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', iso)]))
    .execute();
}
