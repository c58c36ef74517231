/**
 * Unlock links (issue 26): when a member's e-mail gets locked by wrong passwords, the member is
 * mailed a one-time link (`/console/login?unlock=…`, 256 random bits, only the sha256 stored,
 * valid one hour). Signing in from it with the right password (and the authenticator code when
 * two-step sign-in is on) logs in through the lock and clears it, so whoever sends wrong passwords
 * can delay a member but never shut them out. A link allows UNLOCK_TRIES password tries, taken
 * atomically like the login's own, then it is void.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { randomToken, tokenHash } from './sessions.ts';

export const UNLOCK_TTL_MS = 60 * 60 * 1000;
export const UNLOCK_TRIES = 5;
export const UNLOCK_PATH = '/console/login';

type Db = Kysely<Database> | Transaction<Database>;

export async function issueUnlock(db: Kysely<Database>, staffId: number, now: Date): Promise<string> {
  const token = randomToken();
  const iso = now.toISOString();
  await db.deleteFrom('staff_unlock_tokens').where('staff_id', '=', staffId).where('expires_at', '<=', iso).execute();
  await db
    .insertInto('staff_unlock_tokens')
    .values({
      staff_id: staffId,
      token_hash: tokenHash(token),
      tries: 0,
      expires_at: new Date(now.getTime() + UNLOCK_TTL_MS).toISOString(),
      used_at: null,
      created_at: iso,
    })
    .execute();
  return token;
}

export function unlockUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, '')}${UNLOCK_PATH}?${new URLSearchParams({ unlock: token })}`;
}

/** Take one try of a live link: the member it belongs to, or null (unknown, used, expired, no try left). */
export async function takeUnlockTry(db: Db, token: string, now: Date): Promise<number | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const row = await db
    .updateTable('staff_unlock_tokens')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('token_hash', '=', tokenHash(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .where('tries', '<', UNLOCK_TRIES)
    .returning('staff_id')
    .executeTakeFirst();
  return row?.staff_id ?? null;
}

/** After a login through a link: every link of the member is used up. */
export async function useUpUnlocks(db: Db, staffId: number, now: Date): Promise<void> {
  await db
    .updateTable('staff_unlock_tokens')
    .set({ used_at: now.toISOString() })
    .where('staff_id', '=', staffId)
    .where('used_at', 'is', null)
    .execute();
}
