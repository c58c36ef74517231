/**
 * Login endpoints (spec §4 Login, Token refresh; §7 User calls):
 *   POST /api/user/login-guest {license_type, storeId}
 *   POST /api/user/login       {phone, storeId}                  → sends the SMS code
 *                              {phone, code, order_type?}        → tokens, or {needs:[…]} + pendingToken
 *                              {phone, license_type, birthday, pendingToken} → creates the customer, tokens
 *                              {email, password, order_type?}    → tokens (password login, an extra
 *                                                                  step next to the SMS code; password-routes.ts)
 *   POST /api/user/create      registration (register-routes.ts): form → SMS code; form + code → tokens
 *   POST /api/user/refresh     {refreshToken} → rotated tokens
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { storeOffers, type LicenseType } from '@verdant/domain';
import { accountsOf } from '../auth/context.ts';
import { AUTH_MESSAGES, rotateRefresh, signAccess, signPending, verifyPending } from '../auth/tokens.ts';
import { parseOr400 } from '../http/parse.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { confirmLoginCode, CODE_MESSAGES, sendLoginCode } from './login-codes.ts';
import { assertMedcardCurrent, birthdaySchema, createCustomer, dateSchema, findById, findByPhone, licenseSchema, medcardNumberSchema, phoneSchema, requireMedcardForMedical, type CustomerRow } from './customers.ts';
import { assertBirthday, assertOffered, assertStore, orderTypeSchema, storeIdSchema } from './login-checks.ts';
import { markPhoneProven } from './proof.ts';
import { checkPasswordLogin, parsePasswordLogin, passwordLoginSchema } from './password-routes.ts';
import { issueSession } from './session.ts';


const guestSchema = z.object({ license_type: licenseSchema, storeId: storeIdSchema });
const sendSchema = z.object({ phone: phoneSchema, storeId: storeIdSchema });
const confirmSchema = z.object({
  phone: phoneSchema,
  code: z.string({ error: CODE_MESSAGES.codeRequired }).trim().min(1, CODE_MESSAGES.codeRequired).regex(/^\d{6}$/, CODE_MESSAGES.codeWrong),
  order_type: orderTypeSchema,
  storeId: storeIdSchema,
});
const completeSchema = z
  .object({
    phone: phoneSchema,
    license_type: licenseSchema,
    birthday: birthdaySchema,
    /** Required for a medical licence (issue 26): verification needs the card's number and expiry. */
    medcard_number: medcardNumberSchema.optional(),
    medcard_expiry: dateSchema.optional(),
    pendingToken: z.string({ error: AUTH_MESSAGES.tokenInvalid }).min(1, AUTH_MESSAGES.tokenInvalid),
    order_type: orderTypeSchema,
    storeId: storeIdSchema,
  })
  .superRefine(requireMedcardForMedical);
const refreshSchema = z.object({
  refreshToken: z.string({ error: AUTH_MESSAGES.refreshInvalid }).min(1, AUTH_MESSAGES.refreshInvalid).max(200),
  /** Guests have no stored licence; the client says which one it browses under (default: the store's first). */
  license_type: licenseSchema.optional(),
  order_type: orderTypeSchema,
});

/**
 * The forms POST /api/user/login takes, for the OpenAPI document (openapi/). The handler picks the
 * form by its keys (password → password login; pendingToken, license_type or birthday → complete;
 * code → confirm; else send the code) and validates with that member, the same schema object.
 */
const loginSchema = z.union([sendSchema, confirmSchema, completeSchema, passwordLoginSchema]);
const loginDocs = {
  config: {
    docs: {
      summary: 'Log in by SMS code (send, confirm, complete a new account) or by e-mail and password',
      description:
        'One route, four forms picked by their keys: `{phone, storeId}` sends a 6-digit code by SMS; `{phone, code, order_type}` confirms it ' +
        '(tokens, or `{needs: [license_type, birthday], medical_needs: [medcard_number, medcard_expiry]}` with a `pendingToken` in `meta` for a new phone); `{phone, license_type, birthday, pendingToken}` ' +
        '(+ `medcard_number`, `medcard_expiry` for a medical licence) creates the customer; `{email, password}` logs in with a password. Tokens come in `meta` (`token`, `refreshToken`).',
      tags: ['User'],
      body: loginSchema,
      security: 'none' as const,
      errors: { 401: 'Code, token or password not accepted', 429: 'Too many codes or attempts; Retry-After says when to try again' },
    },
  },
};

export function registerLoginRoutes(app: FastifyInstance): void {
  const ctx = () => accountsOf(app);

  const answerTokens = async (request: FastifyRequest, customer: CustomerRow | null, licenseType: LicenseType, orderType: 'pickup' | 'delivery') => {
    const session = await issueSession(ctx(), request.store, customer, licenseType, orderType);
    return ok('ok', { token: session.token, refreshToken: session.refreshToken, ...(customer ? { customer_id: customer.id } : {}) });
  };

  app.post(
    '/api/user/login-guest',
    { config: { docs: { summary: 'Get a guest token (no account)', tags: ['User'], body: guestSchema, security: 'none' } } },
    async (request) => {
    const body = parseOr400(guestSchema, request.body, 'shopper');
    assertStore(request, body.storeId);
    assertOffered(request, body.license_type);
    return answerTokens(request, null, body.license_type, 'pickup');
  });

  app.post('/api/user/login', loginDocs, async (request) => {
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const c = ctx();
    const store = request.store;
    if ('password' in raw) {
      const body = parsePasswordLogin(raw);
      assertStore(request, body.storeId);
      const customer = await checkPasswordLogin(c, store.storeId, body.email, body.password, request.ip);
      return answerTokens(request, customer, customer.license_type, body.order_type);
    }
    if ('pendingToken' in raw || 'license_type' in raw || 'birthday' in raw) {
      const body = parseOr400(completeSchema, raw, 'shopper');
      assertStore(request, body.storeId);
      const phone = await verifyPending(c.secret, body.pendingToken, store.storeId, c.now());
      if (phone !== body.phone) throw new ApiError(401, AUTH_MESSAGES.tokenInvalid);
      assertOffered(request, body.license_type);
      await assertBirthday(request, body.birthday, body.license_type, c.now());
      if (body.license_type === 'medical') assertMedcardCurrent(request.store, body.medcard_expiry, c.now());
      // A second completion with the same pending token logs into the customer the first made.
      const found = await findByPhone(c.db, store.storeId, phone);
      // A merged profile's phone lands on the survivor (issue 31), whose own phone this code did not prove.
      const customer = found
        ? found.phone === phone
          ? await markPhoneProven(c.db, found, c.now())
          : found
        : await createCustomer(
            c.db,
            store.storeId,
            {
              phone,
              licenseType: body.license_type,
              birthday: body.birthday,
              medcardNumber: body.license_type === 'medical' ? (body.medcard_number ?? null) : null,
              medcardExpiry: body.license_type === 'medical' ? (body.medcard_expiry ?? null) : null,
            },
            c.now(),
          ).catch(async (error: unknown) => {
            // Two completions at once: the unique (store, phone) index keeps one; the other logs into it.
            const made = /unique|duplicate/i.test(String((error as Error).message)) ? await findByPhone(c.db, store.storeId, phone) : undefined;
            if (!made) throw error;
            return made;
          });
      return answerTokens(request, customer, customer.license_type, body.order_type);
    }
    if ('code' in raw) {
      const body = parseOr400(confirmSchema, raw, 'shopper');
      assertStore(request, body.storeId);
      await confirmLoginCode(c, store.storeId, body.phone, body.code);
      const found = await findByPhone(c.db, store.storeId, body.phone);
      if (found) {
        // The phone's holder just proved it: an account made before proofs were asked becomes theirs alone.
        const customer = found.phone === body.phone ? await markPhoneProven(c.db, found, c.now()) : found;
        return answerTokens(request, customer, customer.license_type, body.order_type);
      }
      const pendingToken = await signPending(c.secret, store.storeId, body.phone, c.now());
      // A medical licence also needs the card's number and expiry (the complete step refuses it without).
      return ok({ needs: ['license_type', 'birthday'], medical_needs: ['medcard_number', 'medcard_expiry'] }, { pendingToken });
    }
    const body = parseOr400(sendSchema, raw, 'shopper');
    assertStore(request, body.storeId);
    const code = await sendLoginCode(c, store.storeId, store.name, body.phone, request.ip);
    // The demo has no SMS gateway: show the code on the storefront, never outside demo mode.
    return ok('sent', c.demoMode && c.sms.lastCode ? { demo_code: code } : undefined);
  });

  app.post(
    '/api/user/refresh',
    { config: { docs: { summary: 'Trade a refresh token for a new access token (the refresh token rotates)', tags: ['User'], body: refreshSchema, security: 'none', errors: { 401: 'Refresh token not valid' } } } },
    async (request) => {
    const body = parseOr400(refreshSchema, request.body, 'shopper');
    const c = ctx();
    const store = request.store;
    const rotated = await rotateRefresh(c.db, body.refreshToken, store.storeId, c.now());
    const customer = rotated.customerId == null ? null : await findById(c.db, store.storeId, rotated.customerId);
    // A session of a profile merged since (issue 31) is over: logging in again lands on the survivor.
    if (rotated.customerId != null && (!customer || customer.merged_into != null)) throw new ApiError(401, AUTH_MESSAGES.refreshInvalid);
    const licenseType = customer?.license_type ?? body.license_type ?? (storeOffers(store, 'recreational') ? 'recreational' : 'medical');
    const token = await signAccess(
      c.secret,
      { storeId: store.storeId, customerId: customer?.id ?? null, licenseType, orderType: body.order_type, groupId: customer?.group_id ?? store.tax.userGroupId, phoneProven: customer?.phone_verified_at != null },
      c.now(),
    );
    return ok(token, { refreshToken: rotated.token });
  });
}
