/**
 * Staff login: e-mail + password (+ TOTP code when the member turned it on). Five failures in a
 * row lock the member for 15 minutes (429 `locked`); a success resets the count. An unknown e-mail,
 * a member without a password and a disabled member get the same 401 text as a wrong password,
 * after checking a dummy hash, so neither the text nor the time tells which e-mails are staff.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { ApiError } from '../http/envelope.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../users/password-hash.ts';
import { useTotpCode } from './totp.ts';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MS = 15 * 60 * 1000;
/** Attempts per client address (any e-mail) per window: password spraying from one address. */
export const LOGINS_PER_IP = 30;
export const LOGIN_IP_WINDOW_MS = 15 * 60 * 1000;

export const LOGIN_MESSAGES = {
  invalid: 'Incorrect e-mail or password.',
  locked: 'Too many failed attempts. This account is locked for 15 minutes.',
  tooMany: 'Too many login attempts from this address. Please try again later.',
  totpRequired: 'Enter the 6-digit code from your authenticator app.',
  totpWrong: 'That code is not right or was already used. Enter the current code from your authenticator app.',
} as const;

export interface LoginInput {
  email: string;
  password: string;
  totp?: string;
}

/** The member's id after a good login (and whether a TOTP code was given), or throws the refusal. */
export async function checkLogin(
  db: Kysely<Database>,
  limiter: RateLimiter,
  input: LoginInput,
  ip: string,
  now: Date,
): Promise<{ staffId: number; mfa: boolean }> {
  if (!(await limiter.hit(`staff-login-ip:${ip}`, LOGINS_PER_IP, LOGIN_IP_WINDOW_MS)))
    throw new ApiError(429, LOGIN_MESSAGES.tooMany, { errorCode: 'rate_limited' });
  const member = await db
    .selectFrom('staff')
    .select(['id', 'password_hash', 'locked_until', 'disabled_at', 'totp_secret', 'totp_enabled_at'])
    .where('email', '=', input.email)
    .executeTakeFirst();
  if (!member || member.password_hash === null || member.disabled_at !== null) {
    await verifyPassword(input.password, await dummyHash());
    throw new ApiError(401, LOGIN_MESSAGES.invalid, { errorCode: 'invalid_credentials' });
  }
  if (member.locked_until !== null && Date.parse(member.locked_until) > now.getTime()) {
    throw new ApiError(429, LOGIN_MESSAGES.locked, { errorCode: 'locked', meta: { lockedUntil: member.locked_until } });
  }
  if (!(await verifyPassword(input.password, member.password_hash))) {
    await recordFailure(db, member.id, now);
    throw new ApiError(401, LOGIN_MESSAGES.invalid, { errorCode: 'invalid_credentials' });
  }
  const mfa = member.totp_enabled_at !== null && member.totp_secret !== null;
  if (mfa) {
    // The password was right: only now say a code is needed (no code yet is not a failure).
    if (!input.totp) throw new ApiError(401, LOGIN_MESSAGES.totpRequired, { errorCode: 'totp_required' });
    if (!(await useTotpCode(limiter, member.id, member.totp_secret!, input.totp, now))) {
      await recordFailure(db, member.id, now);
      throw new ApiError(401, LOGIN_MESSAGES.totpWrong, { errorCode: 'totp_required' });
    }
  }
  const rehash = needsRehash(member.password_hash) ? await hashPassword(input.password) : undefined;
  await db
    .updateTable('staff')
    .set({ failed_logins: 0, locked_until: null, ...(rehash ? { password_hash: rehash, updated_at: now.toISOString() } : {}) })
    .where('id', '=', member.id)
    .execute();
  return { staffId: member.id, mfa };
}

/** Count a failure atomically (parallel attempts each count); the fifth locks and starts a new count. */
async function recordFailure(db: Kysely<Database>, staffId: number, now: Date): Promise<void> {
  const row = await db
    .updateTable('staff')
    .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
    .where('id', '=', staffId)
    .returning('failed_logins')
    .executeTakeFirst();
  if (row && row.failed_logins >= MAX_FAILED_LOGINS) {
    await db
      .updateTable('staff')
      .set({ failed_logins: 0, locked_until: new Date(now.getTime() + LOCK_MS).toISOString() })
      .where('id', '=', staffId)
      .execute();
  }
}
