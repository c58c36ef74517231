/**
 * Customer rows and the payload rules of the account forms (spec §3 User, §5). Field rules come
 * from @verdant/domain forms.ts; the few that are missing there (medical card number, calendar
 * dates, "today in the store's time zone") live here because packages/domain is not ours to grow.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { FIELD_MESSAGES, FORM_MESSAGES, LICENSE_TYPES, MESSAGES, emailRule, firstNameRule, lastNameRule, phoneRule, type FieldRule, type LicenseType } from '@verdant/domain';
import type { Database, Row } from '../db/schema.ts';
import { pointsBalance } from '../cart/repository.ts';
import { openAccountAtSignup } from '../loyalty/orders.ts';
import { inWriteTransaction } from '../db/group-commit.ts';
import { toE164 } from './phone.ts';
import { ApiError } from '../http/envelope.ts';

type Db = Kysely<Database>;
export type CustomerRow = Row<'customers'>;

export const USER_MESSAGES = {
  // The domain's wording (packages/domain/src/forms.ts), so the form and the server say the same.
  medcardTooShort: FORM_MESSAGES.medcardTooShort,
  medcardExpiryRequired: 'MedCard expiry date is required for a medical licence',
  medcardExpired: 'This medical card has expired: enter a card that is valid today.',
  medcardNotMedical: 'Only a medical account has a medical card to add.',
  dateInvalid: 'Please provide a valid date (YYYY-MM-DD).',
  customerExists: 'A customer with the same email already exists in an associated website.',
  licenseInvalid: 'license_type must be recreational or medical',
} as const;

/** A zod string checked by a spec §5 field rule, so the server answers the words the form shows. */
export const ruled = (rule: FieldRule) =>
  z.string({ error: MESSAGES.fieldRequired }).superRefine((v, ctx) => {
    const problem = rule(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }).transform((v) => v.trim());

export const emailSchema = ruled(emailRule).transform((v) => v.toLowerCase());
/**
 * An identity phone: the spec's rule first (its message for a malformed entry), then it must be a
 * real number (same message), answered in E.164 (see ./phone.ts).
 */
export const phoneSchema = ruled(phoneRule).transform((v, ctx) => {
  const e164 = toE164(v);
  if (!e164) {
    ctx.addIssue({ code: 'custom', message: FIELD_MESSAGES.phone });
    return z.NEVER;
  }
  return e164;
});
export const licenseSchema = z.enum(LICENSE_TYPES, { error: USER_MESSAGES.licenseInvalid });

/** A real calendar date YYYY-MM-DD (rejects 2026-02-30). */
export const dateSchema = z.string().refine((v) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}, USER_MESSAGES.dateInvalid);

/** A birthday's payload type only; its rule needs the clock (login-checks.ts assertBirthday). */
export const birthdaySchema = z.string({ error: FORM_MESSAGES.birthday }).trim().max(32, FORM_MESSAGES.date);

export const firstnameSchema = ruled(firstNameRule);
export const lastnameSchema = ruled(lastNameRule);
export const medcardNumberSchema = z.string().trim().min(2, USER_MESSAGES.medcardTooShort).max(64);

/** A medical licence needs the card's number and expiry (sign-up by form and by SMS code alike). */
export function requireMedcardForMedical(
  v: { license_type: LicenseType; medcard_number?: string; medcard_expiry?: string },
  ctx: z.RefinementCtx,
): void {
  if (v.license_type !== 'medical') return;
  if (!v.medcard_number) ctx.addIssue({ code: 'custom', path: ['medcard_number'], message: USER_MESSAGES.medcardTooShort });
  if (!v.medcard_expiry) ctx.addIssue({ code: 'custom', path: ['medcard_expiry'], message: USER_MESSAGES.medcardExpiryRequired });
}

/** A card given now must not have expired before today in the store's time zone. */
export function assertMedcardCurrent(store: { dispensarySettings: { place_info: { timezone?: string } } }, expiry: string | null | undefined, now: Date): void {
  if (expiry && expiry < todayIn(store.dispensarySettings.place_info.timezone || 'UTC', now)) throw new ApiError(400, USER_MESSAGES.medcardExpired);
}

/** Today's calendar date (YYYY-MM-DD) in a time zone: a card expiring "today" is valid all day there. */
export function todayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export async function findByPhone(db: Db, storeId: number, phone: string): Promise<CustomerRow | undefined> {
  return survivorOf(db, await db.selectFrom('customers').selectAll().where('store_id', '=', storeId).where('phone', '=', phone).executeTakeFirst());
}

/**
 * A profile merged into another (issue 31, customers/merge.ts) keeps its phone and e-mail, and
 * logging in with them lands on the profile it was merged into (the merged one cannot log in).
 */
export async function survivorOf(db: Db, c: CustomerRow | undefined): Promise<CustomerRow | undefined> {
  for (let hops = 0; c?.merged_into != null && hops < 5; hops++) c = await findById(db, c.store_id, c.merged_into);
  return c;
}

export function findById(db: Db, storeId: number, id: number): Promise<CustomerRow | undefined> {
  return db.selectFrom('customers').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
}

/**
 * The customer of an e-mail address in a store (emails are stored lower-cased by emailSchema).
 * The (store, email) index is not unique, so should two rows ever share an address, the oldest
 * account is the one that e-mail reaches.
 */
export async function findByEmail(db: Db, storeId: number, email: string): Promise<CustomerRow | undefined> {
  return survivorOf(db, await db.selectFrom('customers').selectAll().where('store_id', '=', storeId).where('email', '=', email.toLowerCase()).orderBy('id').limit(1).executeTakeFirst());
}

export async function emailTaken(db: Db, storeId: number, email: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('customers').select('id').where('store_id', '=', storeId).where('email', '=', email);
  if (exceptId != null) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) != null;
}

export interface NewCustomer {
  phone: string;
  licenseType: LicenseType;
  birthday: string;
  email?: string | null;
  firstname?: string | null;
  lastname?: string | null;
  medcardNumber?: string | null;
  medcardExpiry?: string | null;
}

export async function createCustomer(db: Db, storeId: number, c: NewCustomer, now: Date): Promise<CustomerRow> {
  const iso = now.toISOString();
  const made = await db
    .insertInto('customers')
    .values({
      store_id: storeId,
      phone: c.phone,
      email: c.email ?? null,
      firstname: c.firstname ?? null,
      lastname: c.lastname ?? null,
      license_type: c.licenseType,
      birthday: c.birthday,
      medcard_number: c.medcardNumber ?? null,
      medcard_expiry: c.medcardExpiry ?? null,
      // Spec §3: accounts made on the storefront are marked so the back office can tell them apart.
      created_from: 'portal_online',
      password_hash: null,
      // Every way to an account passes the SMS code first (login-routes, register-routes).
      phone_verified_at: iso,
      created_at: iso,
      updated_at: iso,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // Issue 30: the loyalty account opens with the account, with the store's sign-up bonus (once).
  await inWriteTransaction(db, (trx) => openAccountAtSignup(trx, made, now));
  return made;
}

export function addressView(a: Row<'customer_addresses'>) {
  return {
    id: a.id,
    title: a.title,
    firstname: a.firstname,
    lastname: a.lastname,
    street: a.street,
    house_number: a.house_number,
    apt_ste: a.apt_ste,
    city: a.city,
    region: a.region,
    postcode: a.postcode,
    country_id: a.country_id,
    phone: a.phone,
    lat: a.lat,
    lng: a.lng,
    is_default: a.is_default === 1,
  };
}

/** What `GET /api/user/me` shows: never the password hash; credits = the reward-point ledger sum. */
export async function customerView(db: Db, c: CustomerRow) {
  const addresses = await db.selectFrom('customer_addresses').selectAll().where('customer_id', '=', c.id).orderBy('id').execute();
  return {
    id: c.id,
    phone: c.phone,
    email: c.email,
    firstname: c.firstname,
    lastname: c.lastname,
    license_type: c.license_type,
    birthday: c.birthday,
    group_id: c.group_id,
    medcard_number: c.medcard_number,
    medcard_expiry: c.medcard_expiry,
    id_verified: c.id_verified === 1,
    // Issue 12: what staff decided about the uploads, so the account can say "pending review" or why it was rejected.
    id_status: c.id_status,
    id_review_reason: c.id_review_reason,
    medcard_status: c.medcard_status,
    medcard_review_reason: c.medcard_review_reason,
    created_from: c.created_from,
    credits: await pointsBalance(db, c.id, c.store_id),
    addresses: addresses.map(addressView),
  };
}
