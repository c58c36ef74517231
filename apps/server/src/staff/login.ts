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
import { takeUnlockTry, useUpUnlocks } from './unlock.ts';

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
  /** The token of an unlock link (./unlock.ts): lets the right password through a lock. */
  unlock?: string;
}

export interface LockedMember {
  id: number;
  email: string;
  name: string;
}

const invalid = () => new ApiError(401, LOGIN_MESSAGES.invalid, { errorCode: 'invalid_credentials' });
const locked = (lockedUntil: string) => new ApiError(429, LOGIN_MESSAGES.locked, { errorCode: 'locked', meta: { lockedUntil } });

/**
 * The member's id after a good login (and whether a TOTP code was given), or throws the refusal.
 * `onLocked` is called (not awaited) when a wrong try locks a member's e-mail: the route mails the
 * member an unlock link. Nothing of it shows in the answer, which is the same for any e-mail.
 */
export async function checkLogin(
  db: Kysely<Database>,
  limiter: RateLimiter,
  input: LoginInput,
  ip: string,
  now: Date,
  onLocked: (member: LockedMember) => void = () => undefined,
): Promise<{ staffId: number; mfa: boolean }> {
  if (!(await limiter.hit(`staff-login-ip:${ip}`, LOGINS_PER_IP, LOGIN_IP_WINDOW_MS)))
    throw new ApiError(429, LOGIN_MESSAGES.tooMany, { errorCode: 'rate_limited' });
  const take = await takeTry(db, input.email, now);
  if (!take.taken) {
    if (input.unlock) return loginThroughLock(db, limiter, input, now, take.lockedUntil);
    throw locked(take.lockedUntil);
  }
  const member = await db
    .selectFrom('staff')
    .select(['id', 'email', 'name', 'password_hash', 'disabled_at', 'totp_secret', 'totp_enabled_at'])
    .where('email', '=', input.email)
    .executeTakeFirst();
  if (!member || member.password_hash === null || member.disabled_at !== null) {
    await verifyPassword(input.password, await dummyHash());
    throw invalid();
  }
  let gaveBack = false;
  try {
    const mfa = await judge(limiter, member, input, now, async () => {
      gaveBack = true;
      await giveBack(db, take.try);
    });
    await clearTries(db, input.email);
    await rehashIfOld(db, member, input.password, now);
    return { staffId: member.id, mfa };
  } catch (error) {
    // This try reached the limit and was not a success: the member hears of it by mail.
    if (take.try.lockedUntil !== null && !gaveBack)
      onLocked({ id: member.id, email: member.email, name: member.name });
    throw error;
  }
}

type JudgedMember = { id: number; password_hash: string | null; totp_secret: string | null; totp_enabled_at: string | null };

/** Password, then the authenticator code when it is on; throws the refusal, else whether a code was given. */
async function judge(limiter: RateLimiter, member: JudgedMember, input: LoginInput, now: Date, noCodeYet: () => Promise<void>): Promise<boolean> {
  if (!(await verifyPassword(input.password, member.password_hash!))) throw invalid();
  const mfa = member.totp_enabled_at !== null && member.totp_secret !== null;
  if (mfa) {
    // The password was right: only now say a code is needed (no code yet is not a failure).
    if (!input.totp) {
      await noCodeYet();
      throw new ApiError(401, LOGIN_MESSAGES.totpRequired, { errorCode: 'totp_required' });
    }
    if (!(await useTotpCode(limiter, member.id, member.totp_secret!, input.totp, now)))
      throw new ApiError(401, LOGIN_MESSAGES.totpWrong, { errorCode: 'totp_required' });
  }
  return mfa;
}

/**
 * A locked e-mail with an unlock link: the link's own tries (5, atomic) judge the password; a
 * success uses up the member's links and clears the lock. A link that is not live, or is another
 * member's, gets the plain lock answer.
 */
async function loginThroughLock(
  db: Kysely<Database>,
  limiter: RateLimiter,
  input: LoginInput,
  now: Date,
  lockedUntil: string,
): Promise<{ staffId: number; mfa: boolean }> {
  const staffId = await takeUnlockTry(db, input.unlock!, now);
  if (staffId === null) throw locked(lockedUntil);
  const member = await db
    .selectFrom('staff')
    .select(['id', 'password_hash', 'disabled_at', 'totp_secret', 'totp_enabled_at'])
    .where('email', '=', input.email)
    .executeTakeFirst();
  if (!member || member.id !== staffId || member.password_hash === null || member.disabled_at !== null) throw locked(lockedUntil);
  const mfa = await judge(limiter, member, input, now, async () => undefined);
  await useUpUnlocks(db, member.id, now);
  await clearTries(db, input.email);
  await rehashIfOld(db, member, input.password, now);
  return { staffId: member.id, mfa };
}

async function rehashIfOld(db: Kysely<Database>, member: { id: number; password_hash: string | null }, password: string, now: Date) {
  if (!member.password_hash || !needsRehash(member.password_hash)) return;
  await db
    .updateTable('staff')
    .set({ password_hash: await hashPassword(password), updated_at: now.toISOString() })
    .where('id', '=', member.id)
    .execute();
}
