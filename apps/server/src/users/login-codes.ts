/**
 * SMS login codes: 6 digits from crypto.randomInt, valid 10 minutes, stored as an HMAC (a bare
 * sha256 of a 6-digit code is reversible by trying all million), compared in constant time, void
 * after 5 tries (each judgement takes one, right or wrong). Sends are limited per phone (5/hour) and per client IP (20/hour).
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { AccountsContext } from '../auth/context.ts';
import { ApiError } from '../http/envelope.ts';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_WRONG_TRIES = 5;
export const SENDS_PER_PHONE_PER_HOUR = 5;
export const SENDS_PER_IP_PER_HOUR = 20;
const HOUR = 60 * 60 * 1000;

export const CODE_MESSAGES = {
  codeRequired: 'Please enter the SMS code you received.',
  codeWrong: 'The SMS code is incorrect. Please check it and try again.',
  codeExpired: 'The SMS code has expired or was not requested. Please request a new code.',
  codeVoid: 'Too many incorrect codes. Please request a new code.',
  tooManySends: 'Too many codes requested. Please try again later.',
  smsFailed: 'We could not send the SMS code. Please try again in a few minutes.',
} as const;

function codeHash(secret: Uint8Array, storeId: number, phone: string, code: string): Buffer {
  return createHmac('sha256', secret).update(`${storeId}:${phone}:${code}`).digest();
}

/** Send a new code (earlier unused codes of the phone are voided). Returns the code for the demo outbox. */
export async function sendLoginCode(ctx: AccountsContext, storeId: number, storeName: string, phone: string, ip: string, purpose: 'login' | 'registration' = 'login'): Promise<string> {
  // Both counters are hit so an attacker rotating phones is still held by the IP limit.
  const ipOk = await ctx.limiter.hit(`ip:${ip}`, SENDS_PER_IP_PER_HOUR, HOUR);
  const phoneOk = await ctx.limiter.hit(`phone:${storeId}:${phone}`, SENDS_PER_PHONE_PER_HOUR, HOUR);
  if (!ipOk || !phoneOk) throw new ApiError(429, CODE_MESSAGES.tooManySends);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = ctx.now();
  const iso = now.toISOString();
  await ctx.db
    .updateTable('auth_codes')
    .set({ consumed_at: iso })
    .where('store_id', '=', storeId)
    .where('phone', '=', phone)
    .where('consumed_at', 'is', null)
    .execute();
  await ctx.db
    .insertInto('auth_codes')
    .values({
      store_id: storeId,
      phone,
      code_hash: codeHash(ctx.secret, storeId, phone, code).toString('hex'),
      expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
      consumed_at: null,
      created_at: iso,
    })
    .execute();
  try {
    const what = purpose === 'login' ? 'login code' : 'code to confirm your phone number';
    await ctx.sms.send(phone, `${storeName}: your ${what} is ${code}. It expires in 10 minutes.`, code);
  } catch {
    throw new ApiError(502, CODE_MESSAGES.smsFailed);
  }
  return code;
}

/**
 * Judge a code for the phone's current code, consuming it when right, or throw 400 with what went
 * wrong. Every judgement, right or wrong, first takes one of the code's MAX_WRONG_TRIES tries in
 * one conditional UPDATE (`attempts < 5 AND consumed_at IS NULL`), and only a request whose UPDATE
 * took a try compares the code. So a burst of parallel guesses gets at most 5 judgements on SQLite
 * and PostgreSQL alike, and the right code counts only among them; the rest are refused unjudged.
 */
export async function confirmLoginCode(ctx: AccountsContext, storeId: number, phone: string, code: string): Promise<void> {
  const now = ctx.now();
  const row = await ctx.db
    .selectFrom('auth_codes')
    .select(['id', 'expires_at'])
    .where('store_id', '=', storeId)
    .where('phone', '=', phone)
    .where('consumed_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row || new Date(row.expires_at).getTime() <= now.getTime()) throw new ApiError(400, CODE_MESSAGES.codeExpired);
  const taken = await ctx.db
    .updateTable('auth_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', row.id)
    .where('attempts', '<', MAX_WRONG_TRIES)
    .where('consumed_at', 'is', null)
    .returning(['code_hash'])
    .executeTakeFirst();
  if (!taken) {
    // No try left, or another request consumed the code meanwhile: not judged.
    const state = await ctx.db.selectFrom('auth_codes').select('consumed_at').where('id', '=', row.id).executeTakeFirst();
    throw new ApiError(400, state?.consumed_at ? CODE_MESSAGES.codeExpired : CODE_MESSAGES.codeVoid);
  }
  const expected = Buffer.from(taken.code_hash, 'hex');
  const given = codeHash(ctx.secret, storeId, phone, code);
  if (!(expected.length === given.length && timingSafeEqual(expected, given))) throw new ApiError(400, CODE_MESSAGES.codeWrong);
  // Conditional: two concurrent confirms of one code log in once.
  const used = await ctx.db.updateTable('auth_codes').set({ consumed_at: now.toISOString() }).where('id', '=', row.id).where('consumed_at', 'is', null).executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw new ApiError(400, CODE_MESSAGES.codeExpired);
}
