/**
 * Staff password reset links (`/console/reset-password?token=…`): 256 random bits, only the sha256
 * stored, valid one hour, single use; a new link voids the member's earlier ones. Setting the
 * password through a link ends every session of the member and lifts a lockout. The CLI prints
 * such a link for a new member who was given no password.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { hashPassword } from '../users/password-hash.ts';
import { clearTries } from './login-throttle.ts';
import { randomToken, revokeAllSessions, tokenHash } from './sessions.ts';

export const STAFF_RESET_TTL_MS = 60 * 60 * 1000;
/** Long enough for a new member to be told of the console and open the link. */
export const STAFF_INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const RESET_PATH = '/console/reset-password';

export async function issueStaffReset(db: Kysely<Database>, staffId: number, now: Date, ttlMs = STAFF_RESET_TTL_MS): Promise<string> {
  const token = randomToken();
  const iso = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('staff_password_resets').where('staff_id', '=', staffId).where('expires_at', '<=', iso).execute();
    await trx
      .updateTable('staff_password_resets')
      .set({ used_at: iso })
      .where('staff_id', '=', staffId)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('staff_password_resets')
      .values({
        staff_id: staffId,
        token_hash: tokenHash(token),
        expires_at: new Date(now.getTime() + ttlMs).toISOString(),
        used_at: null,
        created_at: iso,
      })
      .execute();
  });
  return token;
}

export function resetUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, '')}${RESET_PATH}?${new URLSearchParams({ token })}`;
}

/** The member a live (unused, unexpired) link is for, without using it; null otherwise. */
export async function peekStaffReset(db: Kysely<Database>, token: string, now: Date): Promise<{ email: string; name: string } | null> {
  const row = await db
    .selectFrom('staff_password_resets as r')
    .innerJoin('staff as m', 'm.id', 'r.staff_id')
    .select(['m.email', 'm.name'])
    .where('r.token_hash', '=', tokenHash(token))
    .where('r.used_at', 'is', null)
    .where('r.expires_at', '>', now.toISOString())
    .where('m.disabled_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Set a new password with a reset token. The token is claimed by a guarded update (used_at null →
 * now), so two uses at once set it only once. False for an unknown, used or expired token.
 */
export async function useStaffReset(db: Kysely<Database>, token: string, password: string, now: Date): Promise<number | false> {
  const iso = now.toISOString();
  const hash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('staff_password_resets')
      .set({ used_at: iso })
      .where('token_hash', '=', tokenHash(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', iso)
      .returning('staff_id')
      .executeTakeFirst();
    if (!claimed) return false;
    const member = await trx
      .updateTable('staff')
      .set({ password_hash: hash, updated_at: iso })
      .where('id', '=', claimed.staff_id)
      .where('disabled_at', 'is', null)
      .returning(['id', 'email'])
      .executeTakeFirst();
    if (!member) return false;
    await clearTries(trx, member.email);
    await revokeAllSessions(trx, claimed.staff_id, now);
    return claimed.staff_id;
  });
}
