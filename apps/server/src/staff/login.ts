/**
 * Staff login: e-mail + password (+ TOTP code when the member turned it on). Five tries in a row
 * that are not a success lock the e-mail address for 15 minutes (429 `locked`); a success resets
 * the count. Each try is taken atomically before the password is judged (./login-throttle.ts), so
 * parallel bursts get no more than five judgements. An unknown e-mail, a member without a password
 * and a disabled member get the same 401 text as a wrong password, after checking a dummy hash,
 * and are counted and locked the same way, so neither the text nor the time tells which e-mails
 * are staff.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { ApiError } from '../http/envelope.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../users/password-hash.ts';
import { clearTries, giveBack, takeTry } from './login-throttle.ts';
import { useTotpCode } from './totp.ts';

export { LOCK_MS, MAX_FAILED_LOGINS } from './login-throttle.ts';
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

const invalid = () => new ApiError(401, LOGIN_MESSAGES.invalid, { errorCode: 'invalid_credentials' });
const locked = (lockedUntil: string) => new ApiError(429, LOGIN_MESSAGES.locked, { errorCode: 'locked', meta: { lockedUntil } });

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
  const take = await takeTry(db, input.email, now);
  if (!take.taken) throw locked(take.lockedUntil);
  const member = await db
    .selectFrom('staff')
    .select(['id', 'password_hash', 'disabled_at', 'totp_secret', 'totp_enabled_at'])
    .where('email', '=', input.email)
    .executeTakeFirst();
  if (!member || member.password_hash === null || member.disabled_at !== null) {
    await verifyPassword(input.password, await dummyHash());
    throw invalid();
  }
  if (!(await verifyPassword(input.password, member.password_hash))) throw invalid();
  const mfa = member.totp_enabled_at !== null && member.totp_secret !== null;
  if (mfa) {
    // The password was right: only now say a code is needed (no code yet is not a failure).
    if (!input.totp) {
      await giveBack(db, take.try);
      throw new ApiError(401, LOGIN_MESSAGES.totpRequired, { errorCode: 'totp_required' });
    }
    if (!(await useTotpCode(limiter, member.id, member.totp_secret!, input.totp, now)))
      throw new ApiError(401, LOGIN_MESSAGES.totpWrong, { errorCode: 'totp_required' });
  }
  await clearTries(db, input.email);
  if (needsRehash(member.password_hash)) {
    await db
      .updateTable('staff')
      .set({ password_hash: await hashPassword(input.password), updated_at: now.toISOString() })
      .where('id', '=', member.id)
      .execute();
  }
  return { staffId: member.id, mfa };
}
