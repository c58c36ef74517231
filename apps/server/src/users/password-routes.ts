/**
 * Passwords (spec §7 User calls, §5 "Password at least 8 letters", §8 messages):
 *   POST /api/user/reset-password  {email}                          → mails a /create-password link
 *   POST /api/user/create-password {email, newPassword, resetToken} → sets the password, ends sessions
 *   POST /api/user/change-password {currentPassword, newPassword}   (customer Bearer token)
 * and the password step of POST /api/user/login ({email, password}, see login-routes.ts).
 *
 * The phone + SMS code stays the main login; a password is optional, created through the reset
 * link (also by customers who never had one).
 *
 * What reset reveals: the spec's copy for an unknown address is "Provided email does not exist",
 * so the answer does say whether an e-mail has an account in this store. That is the product's
 * choice; we bound the enumeration it allows by limiting reset requests per client IP (and per
 * address, so nobody can flood one inbox). The password login, which the spec does not word,
 * answers one message for every wrong e-mail/password pair and takes as long either way.
 *
 * Status codes: refusals are 400, never 401 — the browser treats a 401 as an expired session and
 * refreshes or logs out — except change-password without a valid token (401, as every account call).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { FIELD_MESSAGES, MESSAGES, passwordRule } from '@verdant/domain';
import type { AccountsContext } from '../auth/context.ts';
import { accountsOf, requireCustomer } from '../auth/context.ts';
import { AUTH_MESSAGES } from '../auth/tokens.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { emailSchema, findByEmail, findById, type CustomerRow } from './customers.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './password-hash.ts';
import { PROOF_MESSAGES } from './proof.ts';
import { checkResetToken, consumeResetToken, issueResetToken, resetLink, resetMail, voidResetToken } from './password-reset.ts';

const HOUR = 60 * 60 * 1000;
/** Reset mails: per client IP (bounds e-mail enumeration) and per address (no inbox flooding). */
export const RESETS_PER_IP_PER_HOUR = 10;
export const RESETS_PER_EMAIL_PER_HOUR = 5;
/** Password login attempts (right or wrong): per client IP and per e-mail address. */
export const PASSWORD_LOGINS_PER_IP_PER_HOUR = 20;
export const PASSWORD_LOGINS_PER_EMAIL_PER_HOUR = 10;
/** change-password attempts per customer (a stolen access token must not become a password oracle). */
export const PASSWORD_CHANGES_PER_HOUR = 10;

export const PASSWORD_MESSAGES = {
  changed: MESSAGES.passwordChanged,
  resetSent: 'We have sent you an e-mail with a link to create a new password. The link is valid for 1 hour.',
  resetUnknownEmail: 'Error while sending reset password e-mail. Provided email does not exist.',
  resetMailFailed: 'Error while sending reset password e-mail. Please try again in a few minutes.',
  tooManyResets: 'Too many password reset requests. Please try again later.',
  resetLinkInvalid: 'This password reset link is invalid or has already been used. Please request a new one.',
  resetLinkExpired: 'This password reset link has expired. Please request a new one.',
  currentPasswordWrong: 'The current password is incorrect.',
  noPasswordYet: 'This account has no password yet. Please use "Forgot password" to create one.',
  loginFailed: 'The e-mail address or password is incorrect.',
  tooManyLogins: 'Too many login attempts. Please try again later.',
  tooManyChanges: 'Too many password change attempts. Please try again later.',
} as const;

/** A new password under the spec §5 rule; never trimmed (spaces are part of a password). */
const newPasswordSchema = z.string({ error: FIELD_MESSAGES.required }).superRefine((v, ctx) => {
  const problem = passwordRule(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
/** A password being checked: any non-empty string within the length bound. */
const givenPasswordSchema = z.string({ error: FIELD_MESSAGES.required }).min(1, FIELD_MESSAGES.required).max(1024, FIELD_MESSAGES.required);

const resetSchema = z.object({ email: emailSchema });
const createSchema = z.object({
  email: emailSchema,
  newPassword: newPasswordSchema,
  resetToken: z.string({ error: PASSWORD_MESSAGES.resetLinkInvalid }).min(1, PASSWORD_MESSAGES.resetLinkInvalid).max(200, PASSWORD_MESSAGES.resetLinkInvalid),
});
const changeSchema = z.object({ currentPassword: givenPasswordSchema, newPassword: newPasswordSchema });
export const passwordLoginSchema = z.object({
  email: emailSchema,
  password: givenPasswordSchema,
  order_type: z.enum(['pickup', 'delivery']).default('pickup'),
  storeId: z.coerce.number().int().positive().optional(),
});

/**
 * Parse a body or 400 with the first problem's own words: every field here carries spec copy
 * ("Password must have at least 8 letters"), shown as is rather than prefixed with the field path.
 */
function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new ApiError(400, parsed.error.issues[0]?.message ?? 'Invalid request');
  return parsed.data;
}

export const parsePasswordLogin = (raw: unknown) => parseBody(passwordLoginSchema, raw);

async function setPasswordHash(ctx: AccountsContext, customerId: number, hash: string): Promise<void> {
  await ctx.db.updateTable('customers').set({ password_hash: hash, updated_at: ctx.now().toISOString() }).where('id', '=', customerId).execute();
}

/**
 * The customer an e-mail/password pair belongs to, or 400 with one message for every wrong pair
 * (unknown e-mail, no password set, wrong password). Rate-limited per IP and per e-mail.
 */
export async function checkPasswordLogin(ctx: AccountsContext, storeId: number, email: string, password: string, ip: string): Promise<CustomerRow> {
  const ipOk = await ctx.limiter.hit(`pwlogin-ip:${ip}`, PASSWORD_LOGINS_PER_IP_PER_HOUR, HOUR);
  const emailOk = await ctx.limiter.hit(`pwlogin-email:${storeId}:${email}`, PASSWORD_LOGINS_PER_EMAIL_PER_HOUR, HOUR);
  if (!ipOk || !emailOk) throw new ApiError(429, PASSWORD_MESSAGES.tooManyLogins);
  const customer = await findByEmail(ctx.db, storeId, email);
  const stored = customer?.password_hash ?? null;
  // Verify against a dummy hash when there is nothing to check, so timing does not tell the cases apart.
  const matches = await verifyPassword(password, stored ?? (await dummyHash()));
  if (!customer || !stored || !matches) throw new ApiError(400, PASSWORD_MESSAGES.loginFailed);
  // A password set on an account whose phone nobody proved may be a stranger's (users/proof.ts).
  if (!customer.phone_verified_at) throw new ApiError(400, PROOF_MESSAGES.phoneNotProven);
  if (needsRehash(stored)) await setPasswordHash(ctx, customer.id, await hashPassword(password));
  return customer;
}

export function registerPasswordRoutes(app: FastifyInstance): void {
  const ctx = () => accountsOf(app);

  app.post(
    '/api/user/reset-password',
    { config: { docs: { summary: 'Send a password reset link by e-mail', tags: ['User'], body: resetSchema, security: 'none', errors: { 429: 'Too many resets', 502: 'The mail could not be sent' } } } },
    async (request) => {
    const body = parseBody(resetSchema, request.body);
    const c = ctx();
    const store = request.store;
    // Both counters are hit, known address or not, so probing many addresses is held by the IP limit.
    const ipOk = await c.limiter.hit(`pwreset-ip:${request.ip}`, RESETS_PER_IP_PER_HOUR, HOUR);
    const emailOk = await c.limiter.hit(`pwreset-email:${store.storeId}:${body.email}`, RESETS_PER_EMAIL_PER_HOUR, HOUR);
    if (!ipOk || !emailOk) throw new ApiError(429, PASSWORD_MESSAGES.tooManyResets);
    const customer = await findByEmail(c.db, store.storeId, body.email);
    if (!customer) throw new ApiError(400, PASSWORD_MESSAGES.resetUnknownEmail);
    const now = c.now();
    const { token, id } = await issueResetToken(c.db, store.storeId, customer.id, now);
    const link = resetLink(store, request.storePathPrefix, body.email, token);
    try {
      await c.mailer.send(resetMail(store, body.email, link));
    } catch (err) {
      request.log.warn({ err }, 'password reset mail failed');
      await voidResetToken(c.db, id, now);
      throw new ApiError(502, PASSWORD_MESSAGES.resetMailFailed);
    }
    return ok(PASSWORD_MESSAGES.resetSent);
  });

  app.post(
    '/api/user/create-password',
    { config: { docs: { summary: 'Set a new password with the reset link\'s token (ends every session)', tags: ['User'], body: createSchema, security: 'none' } } },
    async (request) => {
    const body = parseBody(createSchema, request.body);
    const c = ctx();
    const store = request.store;
    const customer = await findByEmail(c.db, store.storeId, body.email);
    if (!customer) throw new ApiError(400, PASSWORD_MESSAGES.resetLinkInvalid);
    const check = await checkResetToken(c.db, store.storeId, customer.id, body.resetToken, c.now());
    if (check.status === 'expired') throw new ApiError(400, PASSWORD_MESSAGES.resetLinkExpired);
    if (check.status !== 'valid') throw new ApiError(400, PASSWORD_MESSAGES.resetLinkInvalid);
    // Hash outside the transaction: ~0.1 s of CPU must not hold a database transaction open.
    const hash = await hashPassword(body.newPassword);
    await c.db.transaction().execute(async (trx) => {
      const now = c.now();
      const iso = now.toISOString();
      if (!(await consumeResetToken(trx, check.id, now))) throw new ApiError(400, PASSWORD_MESSAGES.resetLinkInvalid);
      await trx.updateTable('customers').set({ password_hash: hash, updated_at: iso }).where('id', '=', customer.id).execute();
      // Whoever reset the password may be locking someone out: every session of the account ends.
      await trx.updateTable('refresh_tokens').set({ revoked_at: iso }).where('customer_id', '=', customer.id).where('revoked_at', 'is', null).execute();
    });
    return ok(PASSWORD_MESSAGES.changed);
  });

  app.post(
    '/api/user/change-password',
    { config: { docs: { summary: 'Change the password (the current one is asked)', tags: ['User'], body: changeSchema, security: 'customer', errors: { 401: 'No valid customer token', 429: 'Too many changes' } } } },
    async (request) => {
    const claims = await requireCustomer(request);
    const c = ctx();
    const body = parseBody(changeSchema, request.body);
    const customer = await findById(c.db, request.store.storeId, claims.customerId);
    if (!customer) throw new ApiError(401, AUTH_MESSAGES.tokenInvalid);
    if (!(await c.limiter.hit(`pwchange:${customer.id}`, PASSWORD_CHANGES_PER_HOUR, HOUR))) throw new ApiError(429, PASSWORD_MESSAGES.tooManyChanges);
    if (!customer.password_hash) throw new ApiError(400, PASSWORD_MESSAGES.noPasswordYet);
    if (!(await verifyPassword(body.currentPassword, customer.password_hash))) throw new ApiError(400, PASSWORD_MESSAGES.currentPasswordWrong);
    await setPasswordHash(c, customer.id, await hashPassword(body.newPassword));
    // Sessions are kept: the caller proved the current password, and revoking its own refresh
    // family would log it out within the hour.
    return ok(PASSWORD_MESSAGES.changed);
  });
}
