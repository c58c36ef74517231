/**
 * Registration (spec §7 `POST /api/user/create`), in two steps so an account only ever exists for
 * a phone its holder proved (issue 10, account takeover):
 *   1. the form                → checked, then an SMS code goes to the phone: `{result: 'sent'}`
 *                                (`meta.demo_code` in demo mode, as the phone login does)
 *   2. the same form + `code`  → the code proves the phone, then the account is created with the
 *                                form → tokens. When the phone already has an account, its proven
 *                                holder is logged into it as it is (the form is not applied) and
 *                                told so (`meta.existing: true`).
 * Step 1 answers the same whether the phone has an account or not: nothing is looked up by phone
 * before the proof, and a code is sent either way. The e-mail is checked at step 1 ("A customer
 * with the same email already exists…", spec copy): reset-password already tells which e-mails
 * have accounts, and this is held by the same kind of per-IP limit.
 * Limits on step 1, on top of the code send limits of login-codes.ts: per client IP and per phone.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { accountsOf } from '../auth/context.ts';
import { parseOr400 } from '../http/parse.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { CODE_MESSAGES, confirmLoginCode, sendLoginCode } from './login-codes.ts';
import {
  USER_MESSAGES,
  createCustomer,
  birthdaySchema,
  dateSchema,
  emailSchema,
  emailTaken,
  findByPhone,
  firstnameSchema,
  lastnameSchema,
  licenseSchema,
  medcardNumberSchema,
  requireMedcardForMedical,
  assertMedcardCurrent,
  phoneSchema,
  type CustomerRow,
} from './customers.ts';
import { markPhoneProven } from './proof.ts';
import { issueSession } from './session.ts';
import { assertBirthday, assertOffered, assertStore, orderTypeSchema, storeIdSchema } from './login-checks.ts';

const HOUR = 60 * 60 * 1000;
export const CREATES_PER_IP_PER_HOUR = 10;
export const CREATES_PER_PHONE_PER_HOUR = 5;

export const REGISTER_MESSAGES = {
  tooMany: 'Too many registration attempts. Please try again later.',
  existing: 'This phone number already has an account: you are now logged in to it.',
} as const;

const createSchema = z
  .object({
    firstname: firstnameSchema,
    lastname: lastnameSchema,
    email: emailSchema,
    phone: phoneSchema,
    birthday: birthdaySchema,
    license_type: licenseSchema,
    medcard_number: medcardNumberSchema.optional(),
    medcard_expiry: dateSchema.optional(),
    order_type: orderTypeSchema,
    storeId: storeIdSchema,
    code: z.string({ error: CODE_MESSAGES.codeRequired }).trim().min(1, CODE_MESSAGES.codeRequired).regex(/^\d{6}$/, CODE_MESSAGES.codeWrong).optional(),
  })
  .superRefine(requireMedcardForMedical);
type CreateBody = z.infer<typeof createSchema>;

export function registerRegistrationRoutes(app: FastifyInstance): void {
  const ctx = () => accountsOf(app);

  const answerTokens = async (request: FastifyRequest, customer: CustomerRow, body: CreateBody, existing: boolean) => {
    const session = await issueSession(ctx(), request.store, customer, customer.license_type, body.order_type);
    return ok(existing ? REGISTER_MESSAGES.existing : 'ok', { token: session.token, refreshToken: session.refreshToken, customer_id: customer.id, ...(existing ? { existing: true } : {}) });
  };

  /** Step 1: limits, the e-mail, then a code to the phone. */
  const sendCode = async (request: FastifyRequest, body: CreateBody) => {
    const c = ctx();
    const storeId = request.store.storeId;
    // Both counters are hit on every attempt, so rotating phones is still held by the IP limit.
    const ipOk = await c.limiter.hit(`create-ip:${request.ip}`, CREATES_PER_IP_PER_HOUR, HOUR);
    const phoneOk = await c.limiter.hit(`create-phone:${storeId}:${body.phone}`, CREATES_PER_PHONE_PER_HOUR, HOUR);
    // Retry-After: the window's length (it began at the first counted attempt, so it is over by then).
    if (!ipOk || !phoneOk) throw new ApiError(429, REGISTER_MESSAGES.tooMany, { retryAfterSeconds: HOUR / 1000 });
    if (await emailTaken(c.db, storeId, body.email)) throw new ApiError(400, USER_MESSAGES.customerExists);
    const code = await sendLoginCode(c, storeId, request.store.name, body.phone, request.ip, 'registration');
    return ok('sent', c.demoMode && c.sms.lastCode ? { demo_code: code } : undefined);
  };

  /** Step 2: the code proves the phone; only then is an account looked up or created. */
  const create = async (request: FastifyRequest, body: CreateBody, code: string) => {
    const c = ctx();
    const storeId = request.store.storeId;
    await confirmLoginCode(c, storeId, body.phone, code);
    const existing = await findByPhone(c.db, storeId, body.phone);
    if (existing) return answerTokens(request, await markPhoneProven(c.db, existing, c.now()), body, true);
    if (await emailTaken(c.db, storeId, body.email)) throw new ApiError(400, USER_MESSAGES.customerExists);
    const made = await createCustomer(
      c.db,
      storeId,
      {
        phone: body.phone,
        email: body.email,
        firstname: body.firstname,
        lastname: body.lastname,
        licenseType: body.license_type,
        birthday: body.birthday,
        medcardNumber: body.medcard_number ?? null,
        medcardExpiry: body.medcard_expiry ?? null,
      },
      c.now(),
    ).catch(async (error: unknown) => {
      if (!/unique|duplicate/i.test(String((error as Error).message))) throw error;
      // The phone's account was made meanwhile (its holder's phone login): the proven holder gets it.
      const raced = await findByPhone(c.db, storeId, body.phone);
      if (raced) return { raced };
      throw new ApiError(400, USER_MESSAGES.customerExists);
    });
    if ('raced' in made) return answerTokens(request, await markPhoneProven(c.db, made.raced, c.now()), body, true);
    return answerTokens(request, made, body, false);
  };

  app.post(
    '/api/user/create',
    {
      config: {
        docs: {
          summary: 'Register: the form sends an SMS code; the form with the code creates the customer',
          tags: ['User'],
          body: createSchema,
          security: 'none',
          errors: { 401: 'Code not accepted', 429: 'Too many codes; Retry-After says when to try again' },
        },
      },
    },
    async (request) => {
    const body = parseOr400(createSchema, request.body, 'shopper');
    const c = ctx();
    assertStore(request, body.storeId);
    assertOffered(request, body.license_type);
    await assertBirthday(request, body.birthday, body.license_type, c.now());
    if (body.license_type === 'medical') assertMedcardCurrent(request.store, body.medcard_expiry, c.now());
    return body.code ? create(request, body, body.code) : sendCode(request, body);
  });
}
