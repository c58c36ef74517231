/**
 * Cart rows: creation with an unguessable token, lookup always scoped to the request's store (a
 * cart of another store does not exist for this one), row locking where the dialect has it.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { PostgresAdapter, type Kysely } from 'kysely';
import type { LicenseType } from '@verdant/domain';
import type { Database, Row } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { CART_MESSAGES as M } from './messages.ts';
import type { LineInput } from './schemas.ts';

export type Db = Kysely<Database>;
export type CartRow = Row<'carts'>;
export type CartLineRow = Row<'cart_items'>;

/** 144 random bits as base64url (24 characters): not guessable, safe in a URL. */
export function newCartToken(): string {
  return randomBytes(18).toString('base64url');
}

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * The cart id of a request: the `cartId` query parameter, else `Authorization: Bearer <cartId>`.
 * Seam for accounts: once a customer token exists it travels as the Bearer header (or `token`
 * query parameter), and then the cart id must come from `cartId`; see customerOf().
 */
export function cartTokenOf(request: FastifyRequest): string | null {
  const q = (request.query as Record<string, unknown> | undefined)?.cartId;
  if (typeof q === 'string' && q !== '') return q;
  const auth = request.headers.authorization;
  if (auth && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '').trim() || null;
  return null;
}

export interface CustomerRef {
  id: number;
  groupId: number;
  taxClassId: number;
}

/**
 * Seam for the accounts issue: the logged-in customer of a request (verify the user token, load
 * the customer: id, price group, tax class, medical card). Nobody is logged in until then, so
 * every cart is a guest cart (price group = the store's userGroupId, tax class 3, no points).
 */
export async function customerOf(_request: FastifyRequest): Promise<CustomerRef | null> {
  return null;
}

/**
 * Seam for the accounts issue: a medical order needs a customer with a valid medical card (number
 * and expiry after today, spec §3 medcard fields). Guests cannot prove one yet, and the accounts
 * issue decides whether a guest may buy under a medical licence at all; until then this passes.
 * Called on every cart change and again at order save.
 */
export function medicalCardProblem(_customer: CustomerRef | null, _licenseType: LicenseType, _now: Date): string | null {
  return null;
}

export async function createCart(db: Db, storeId: number, licenseType: LicenseType, now: Date, customerId: number | null = null): Promise<CartRow> {
  const iso = now.toISOString();
  return db
    .insertInto('carts')
    .values({ token: newCartToken(), store_id: storeId, customer_id: customerId, license_type: licenseType, coupon_code: null, created_at: iso, updated_at: iso })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Whether the database takes row locks (PostgreSQL). Asked of the executor, not the registry of
 * ../db, because a transaction is a Kysely instance of its own that the registry does not know.
 */
export function locksRows(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The cart, or ApiError 404. `lock` takes the row lock on PostgreSQL (SQLite writes are serialised anyway). */
export async function requireCart(db: Db, token: string | null, storeId: number, lock = false): Promise<CartRow> {
  if (!token) throw new ApiError(400, M.cartIdRequired);
  if (!TOKEN.test(token)) throw new ApiError(404, M.cartNotFound);
  let q = db.selectFrom('carts').selectAll().where('token', '=', token).where('store_id', '=', storeId);
  if (lock && locksRows(db)) q = q.forUpdate();
  const cart = await q.executeTakeFirst();
  if (!cart) throw new ApiError(404, M.cartNotFound);
  return cart;
}

export function cartLines(db: Db, cartId: number): Promise<CartLineRow[]> {
  return db.selectFrom('cart_items').selectAll().where('cart_id', '=', cartId).orderBy('id').execute();
}

export function lineInputOf(row: Pick<CartLineRow, 'sku' | 'qty' | 'size' | 'product_option'>): LineInput {
  return { sku: row.sku, qty: row.qty, size: row.size, product_option: row.product_option ? JSON.parse(row.product_option) : null };
}

/** Reward-point balance (1 point = 1 cent); guests have none. */
export async function pointsBalance(db: Db, customerId: number | null, storeId: number): Promise<number> {
  if (customerId == null) return 0;
  const row = await db
    .selectFrom('reward_points')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta'), eb.lit(0)).as('balance'))
    .where('customer_id', '=', customerId)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  return Math.max(0, Number(row?.balance ?? 0));
}
