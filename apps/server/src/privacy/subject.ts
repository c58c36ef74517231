/**
 * The data subject: one customer of one store, and what identifies them in other tables (their
 * phone and e-mail, their orders, carts, uploads, trips). Read once, inside the transaction that
 * exports or erases, so every registry rule works from the same picture.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

export type Db = Kysely<Database> | Transaction<Database>;

export interface Subject {
  storeId: number;
  customerId: number;
  /** E.164, as stored on the customer. */
  phone: string;
  email: string | null;
  firstname: string | null;
  lastname: string | null;
  orderIds: number[];
  incrementIds: string[];
  cartIds: number[];
  cartTokens: string[];
  /** Relative to DATA_DIR. */
  uploadPaths: string[];
  /** Trips that stopped at one of the customer's orders (their driver actions carry the stop's data). */
  tripIds: number[];
}

/** The customer of this store, or null (another store's id, or gone already). */
export async function readSubject(db: Db, storeId: number, customerId: number): Promise<Subject | null> {
  const c = await db.selectFrom('customers').select(['id', 'phone', 'email', 'firstname', 'lastname']).where('id', '=', customerId).where('store_id', '=', storeId).executeTakeFirst();
  if (!c) return null;
  const orders = await db.selectFrom('orders').select(['id', 'increment_id']).where('store_id', '=', storeId).where('customer_id', '=', customerId).orderBy('id').execute();
  const carts = await db.selectFrom('carts').select(['id', 'token']).where('store_id', '=', storeId).where('customer_id', '=', customerId).orderBy('id').execute();
  const uploads = await db.selectFrom('uploads').select('stored_path').where('customer_id', '=', customerId).orderBy('id').execute();
  const orderIds = orders.map((o) => o.id);
  const trips = orderIds.length ? await db.selectFrom('trip_stops').select('trip_id').distinct().where('order_id', 'in', orderIds).execute() : [];
  return {
    storeId,
    customerId,
    phone: c.phone,
    email: c.email,
    firstname: c.firstname,
    lastname: c.lastname,
    orderIds,
    incrementIds: orders.map((o) => o.increment_id),
    cartIds: carts.map((r) => r.id),
    cartTokens: carts.map((r) => r.token),
    uploadPaths: uploads.map((u) => u.stored_path),
    tripIds: trips.map((t) => t.trip_id),
  };
}

/** What, written anywhere as text, would name the customer: checked by JSON redaction and by the tests' scan. */
export function identifiersOf(s: Subject): string[] {
  const digits = s.phone.replace(/\D/g, '');
  const list = [s.phone, digits, digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : '', s.email ?? ''];
  return [...new Set(list.filter((v) => v.length >= 5))];
}

const REDACTED = '[deleted]';
/** Keys whose value is the customer's own, whatever it says (a signature, a date of birth, a name). */
const PERSONAL_KEYS = new Set([
  'firstName', 'lastName', 'firstname', 'lastname', 'name', 'phone', 'email', 'telephone', 'street', 'house_number', 'apt_ste',
  'address', 'birthday', 'dob', 'signature', 'signature_png', 'signaturePng', 'id_birth_date', 'idBirthDate', 'birthDate', 'recipient',
  'customer_name', 'customerName', 'medcard_number', 'car', 'curbside_car', 'note', 'failed_note',
]);

/**
 * JSON text with every personal value replaced: values under a personal key, and any string that
 * contains one of the customer's identifiers. Text that is not JSON is redacted as a whole when it
 * names the customer. Null stays null.
 */
export function redactJson(text: string | null, needles: readonly string[]): string | null {
  if (text == null) return null;
  const hit = (v: string) => needles.some((n) => v.toLowerCase().includes(n.toLowerCase()));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return hit(text) ? REDACTED : text;
  }
  const walk = (v: unknown, key: string | null): unknown => {
    if (key != null && PERSONAL_KEYS.has(key) && v != null && v !== '') return REDACTED;
    if (typeof v === 'string') return hit(v) ? REDACTED : v;
    if (Array.isArray(v)) return v.map((x) => walk(x, null));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return JSON.stringify(walk(parsed, null));
}
