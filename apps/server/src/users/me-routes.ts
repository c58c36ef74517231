/**
 * The logged-in customer's own data (spec §3 Personal details, §7 User calls). Every id comes from
 * the access token; a body or path id only ever selects among the token customer's own rows.
 *   GET  /api/user/me
 *   POST /api/user/me {email?, addresses?, firstname?, lastname?} — nothing else (other keys → 400)
 *
 * Names (issue 11, onboarding): spec §3 says only the e-mail and addresses can be modified, and a
 * phone login makes an account without a name. Decision: the first and last name may be GIVEN here
 * once, together, while the account has neither (the onboarding step after a first phone login);
 * once the account has a name it is not changed here (400, "contact the store"), as the spec says.
 * Sending the very name the account already has is accepted (a retried onboarding save).
 *   POST /api/user/me/medcard {medcard_number, medcard_expiry} — a medical account adds or corrects
 *        its card (issue 26: a patient signed up by SMS code had no way to). Changing the details of a
 *        card staff already reviewed sends it back for review ('pending' when a card image is
 *        uploaded, else 'none'): their decision was about other details.
 *   DELETE /api/user/me/addresses/:id
 *   GET  /api/user/order-history?pageSize=5&currentPage=1
 *   GET  /api/user/order/:incrementId
 *
 * The two writes honour an `Idempotency-Key` header (the browser's sync queue sends one with every
 * task, and sends a task again when its answer was lost): the key is recorded in the write's own
 * transaction, so the same write arriving twice is applied once — no second address — and the
 * repeat is answered with the customer as they are now.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { MESSAGES, addressNameRule, cityRule, optionalNameRule, zipRule, type FieldRule } from '@verdant/domain';
import { accountsOf, requireCustomer } from '../auth/context.ts';
import { AUTH_MESSAGES } from '../auth/tokens.ts';
import type { Database } from '../db/schema.ts';
import { inWriteTransaction } from '../db/group-commit.ts';
import { parseOr400 } from '../http/parse.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { isUniqueViolation, requestHash } from '../orders/idempotency.ts';
import { USER_MESSAGES, assertMedcardCurrent, customerView, dateSchema, emailSchema, emailTaken, findById, firstnameSchema, lastnameSchema, medcardNumberSchema, ruled, type CustomerRow } from './customers.ts';
import { orderPage, orderStatusView } from './orders.ts';

export const ME_MESSAGES = {
  onlyEmailAndAddresses: 'Only the e-mail address and addresses can be changed here; contact the store for other details.',
  nameAlreadyGiven: 'Your name is already on file; contact the store to change it.',
  nameBothRequired: 'Please give both your first and last name.',
  addressNotFound: 'Address not found',
  orderNotFound: 'Order not found',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different change.',
} as const;

/** Scope of the customer's own writes in `idempotency_keys` (orders use `order.save`). */
export const ME_WRITE_SCOPE = 'user.me';

type Trx = Transaction<Database>;

function idempotencyKeyOf(request: { headers: Record<string, string | string[] | undefined> }): string | null {
  const raw = request.headers['idempotency-key'];
  const key = typeof raw === 'string' ? raw.trim() : '';
  return key && key.length <= 200 ? key : null;
}

/**
 * Inside the write's transaction: true when the key is new (apply the write), false when this very
 * write was applied already. A key that came with another write (or customer, or store) is refused.
 */
async function firstUse(trx: Trx, key: string, storeId: number, hash: string, iso: string): Promise<boolean> {
  const row = await trx.selectFrom('idempotency_keys').select(['store_id', 'request_hash']).where('scope', '=', ME_WRITE_SCOPE).where('key', '=', key).executeTakeFirst();
  if (row) {
    if (row.store_id !== storeId || row.request_hash !== hash) throw new ApiError(422, ME_MESSAGES.idempotencyKeyReused);
    return false;
  }
  await trx
    .insertInto('idempotency_keys')
    .values({ scope: ME_WRITE_SCOPE, key, store_id: storeId, request_hash: hash, status: 'completed', http_status: 200, response: null, created_at: iso, updated_at: iso })
    .execute();
  return true;
}

/** Run a write once per Idempotency-Key; a repeat (or the loser of a race on the key) does nothing. */
async function once(db: Kysely<Database>, key: string | null, storeId: number, hash: string, iso: string, write: (trx: Trx) => Promise<void>) {
  try {
    await db.transaction().execute(async (trx) => {
      if (key && !(await firstUse(trx, key, storeId, hash, iso))) return;
      await write(trx);
    });
  } catch (error) {
    if (!(key && isUniqueViolation(error))) throw error;
    // Two copies raced: the other one committed the key and the write.
  }
}

const text = (max: number) => z.string().trim().max(max);
/** An optional text field checked by a domain rule (empty passes), so names follow spec §5 here too. */
const optionalRuled = (rule: FieldRule, max: number) =>
  text(max)
    .superRefine((v, ctx) => {
      const problem = rule(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .nullish();
const addressSchema = z.object({
  id: z.number().int().positive().optional(),
  // The address's own name ("Home": at least 3 letters) and its recipient's names (at least 2).
  title: optionalRuled(addressNameRule, 64),
  firstname: optionalRuled(optionalNameRule, 64),
  lastname: optionalRuled(optionalNameRule, 64),
  street: text(255).min(1, MESSAGES.fieldRequired),
  house_number: text(32).nullish(),
  apt_ste: text(32).nullish(),
  city: ruled(cityRule),
  region: text(64).nullish(),
  postcode: ruled(zipRule),
  country_id: z.string().length(2).optional(),
  phone: text(32).nullish(),
  lat: z.number().min(-90).max(90).nullish(),
  lng: z.number().min(-180).max(180).nullish(),
  is_default: z.boolean().optional(),
});
// strict(): a payload trying to change the name, birthday, licence or medical card is refused
// (not silently ignored) so a client never believes it changed something it did not.
const updateSchema = z
  .object({
    email: emailSchema.optional(),
    addresses: z.array(addressSchema).max(20).optional(),
    firstname: firstnameSchema.optional(),
    lastname: lastnameSchema.optional(),
  })
  .catchall(z.never({ error: ME_MESSAGES.onlyEmailAndAddresses }))
  .refine((b) => (b.firstname === undefined) === (b.lastname === undefined), { message: ME_MESSAGES.nameBothRequired });

const hasName = (c: Pick<CustomerRow, 'firstname' | 'lastname'>) => Boolean(c.firstname?.trim() || c.lastname?.trim());

/** The names to store, or null when the payload gives none or the very names already stored. */
function namesToGive(customer: CustomerRow, body: { firstname?: string; lastname?: string }): { firstname: string; lastname: string } | null {
  if (body.firstname === undefined || body.lastname === undefined) return null;
  if (!hasName(customer)) return { firstname: body.firstname, lastname: body.lastname };
  if (customer.firstname === body.firstname && customer.lastname === body.lastname) return null;
  throw new ApiError(400, ME_MESSAGES.nameAlreadyGiven);
}
const medcardSchema = z
  .object({
    medcard_number: z.string({ error: USER_MESSAGES.medcardTooShort }).pipe(medcardNumberSchema),
    medcard_expiry: z.string({ error: USER_MESSAGES.medcardExpiryRequired }).pipe(dateSchema),
  })
  .strict();

const pageSchema = z.object({
  pageSize: z.coerce.number().int().min(1).max(50).default(5),
  currentPage: z.coerce.number().int().min(1).max(10_000).default(1),
});

export function registerMeRoutes(app: FastifyInstance): void {
  const ctx = () => accountsOf(app);

  async function me(request: Parameters<typeof requireCustomer>[0]) {
    const claims = await requireCustomer(request);
    const customer = await findById(ctx().db, request.store.storeId, claims.customerId);
    // A token of a deleted customer is no longer a session.
    if (!customer || customer.merged_into != null) throw new ApiError(401, AUTH_MESSAGES.tokenInvalid);
    return customer;
  }

  app.get('/api/user/me', { config: { docs: { summary: 'Read my profile', tags: ['User'], security: 'customer', errors: { 401: 'No valid customer token' } } } }, async (request) => ok(await customerView(ctx().db, await me(request))));

  app.post(
    '/api/user/me',
    {
      config: {
        docs: {
          summary: 'Change my e-mail, addresses, or give my name once',
          description: 'Only these fields: a payload changing anything else (birthday, licence, medical card) is refused. `Idempotency-Key` makes a retry safe.',
          tags: ['User'],
          body: updateSchema,
          security: 'customer',
          headers: { 'Idempotency-Key': 'optional: a retry with the same key and body is answered once' },
          errors: { 401: 'No valid customer token' },
        },
      },
    },
    async (request) => {
    const customer = await me(request);
    const body = parseOr400(updateSchema, request.body, 'shopper');
    const { db, now } = ctx();
    const iso = now().toISOString();
    if (body.email !== undefined && body.email !== customer.email) {
      if (await emailTaken(db, customer.store_id, body.email, customer.id)) throw new ApiError(400, USER_MESSAGES.customerExists);
    }
    const names = namesToGive(customer, body);
    const hash = requestHash(customer.store_id, { customer: customer.id, route: 'POST /api/user/me', body });
    await once(db, idempotencyKeyOf(request), customer.store_id, hash, iso, async (trx) => {
      if (names) {
        // Only while the row still has no name: of two onboarding saves at once, the first wins.
        const done = await trx
          .updateTable('customers')
          .set({ ...names, updated_at: iso })
          .where('id', '=', customer.id)
          .where((eb) => eb.and([eb.or([eb('firstname', 'is', null), eb('firstname', '=', '')]), eb.or([eb('lastname', 'is', null), eb('lastname', '=', '')])]))
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) !== 1) throw new ApiError(400, ME_MESSAGES.nameAlreadyGiven);
      }
      if (body.email !== undefined && body.email !== customer.email) {
        await trx.updateTable('customers').set({ email: body.email, updated_at: iso }).where('id', '=', customer.id).execute();
      }
      for (const a of body.addresses ?? []) {
        const { id, is_default, ...fields } = a;
        const values = { ...fields, ...(is_default !== undefined ? { is_default: (is_default ? 1 : 0) as 0 | 1 } : {}), updated_at: iso };
        if (is_default) await trx.updateTable('customer_addresses').set({ is_default: 0 }).where('customer_id', '=', customer.id).execute();
        if (id != null) {
          // customer_id in the where clause: another customer's address id matches nothing.
          const done = await trx.updateTable('customer_addresses').set(values).where('id', '=', id).where('customer_id', '=', customer.id).executeTakeFirst();
          if (Number(done.numUpdatedRows) !== 1) throw new ApiError(404, ME_MESSAGES.addressNotFound);
        } else {
          await trx.insertInto('customer_addresses').values({ ...values, customer_id: customer.id, created_at: iso }).execute();
        }
      }
    });
    return ok(await customerView(db, (await findById(db, customer.store_id, customer.id))!));
  });

  app.post(
    '/api/user/me/medcard',
    {
      config: {
        docs: {
          summary: 'Add or correct my medical card number and expiry (medical accounts)',
          description: 'Changed details of a reviewed card go back to staff review.',
          tags: ['User'],
          body: medcardSchema,
          security: 'customer',
          errors: { 400: 'Not a medical account, or the number or expiry is not valid', 401: 'No valid customer token' },
        },
      },
    },
    async (request) => {
      const customer = await me(request);
      const body = parseOr400(medcardSchema, request.body, 'shopper');
      if (customer.license_type !== 'medical') throw new ApiError(400, USER_MESSAGES.medcardNotMedical);
      const { db, now } = ctx();
      assertMedcardCurrent(request.store, body.medcard_expiry, now());
      const iso = now().toISOString();
      await inWriteTransaction(db, async (trx) => {
        const row = await trx.selectFrom('customers').select(['medcard_number', 'medcard_expiry', 'medcard_status']).where('id', '=', customer.id).executeTakeFirstOrThrow();
        if (row.medcard_number === body.medcard_number && row.medcard_expiry === body.medcard_expiry) return;
        const reviewed = row.medcard_status === 'verified' || row.medcard_status === 'rejected';
        const uploaded = reviewed
          ? (await trx.selectFrom('uploads').select('id').where('customer_id', '=', customer.id).where('kind', '=', 'medcard').executeTakeFirst()) != null
          : false;
        await trx
          .updateTable('customers')
          .set({
            medcard_number: body.medcard_number,
            medcard_expiry: body.medcard_expiry,
            ...(reviewed ? { medcard_status: uploaded ? 'pending' : 'none', medcard_review_reason: null } : {}),
            updated_at: iso,
          })
          .where('id', '=', customer.id)
          .execute();
      });
      return ok(await customerView(db, (await findById(db, customer.store_id, customer.id))!));
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/user/me/addresses/:id',
    { config: { docs: { summary: 'Delete one of my addresses', tags: ['User'], security: 'customer', headers: { 'Idempotency-Key': 'optional: a retry with the same key is answered once' }, errors: { 401: 'No valid customer token', 404: 'No such address of mine' } } } },
    async (request) => {
    const customer = await me(request);
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id)) throw new ApiError(404, ME_MESSAGES.addressNotFound);
    const { db, now } = ctx();
    const hash = requestHash(customer.store_id, { customer: customer.id, route: 'DELETE /api/user/me/addresses', id });
    await once(db, idempotencyKeyOf(request), customer.store_id, hash, now().toISOString(), async (trx) => {
      const done = await trx.deleteFrom('customer_addresses').where('id', '=', id).where('customer_id', '=', customer.id).executeTakeFirst();
      if (Number(done.numDeletedRows) !== 1) throw new ApiError(404, ME_MESSAGES.addressNotFound);
    });
    return ok(await customerView(ctx().db, customer));
  });

  app.get(
    '/api/user/order-history',
    { config: { docs: { summary: 'List my orders, newest first', tags: ['User'], query: pageSchema, security: 'customer', errors: { 401: 'No valid customer token' } } } },
    async (request) => {
    const customer = await me(request);
    const q = parseOr400(pageSchema, request.query, 'shopper');
    return ok(await orderPage(ctx().db, customer.store_id, customer.id, q.pageSize, q.currentPage));
  });

  app.get<{ Params: { incrementId: string } }>(
    '/api/user/order/:incrementId',
    { config: { docs: { summary: 'Read one of my orders with its status and timeline', tags: ['User'], security: 'customer', errors: { 401: 'No valid customer token', 404: 'No such order of mine' } } } },
    async (request) => {
    const customer = await me(request);
    const { db } = ctx();
    const order = await db
      .selectFrom('orders')
      .selectAll()
      .where('increment_id', '=', request.params.incrementId)
      .where('store_id', '=', customer.store_id)
      .where('customer_id', '=', customer.id)
      .executeTakeFirst();
    // 404, not 403: another customer's order number reveals nothing.
    if (!order) throw new ApiError(404, ME_MESSAGES.orderNotFound);
    return ok(await orderStatusView(db, order));
  });
}
