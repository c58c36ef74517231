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
import { authOf } from '../auth/context.ts';
import { GUEST_CUSTOMER_TAX_CLASS } from '../prices/tax-rules.ts';
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
  /** Medical card (spec §3); both needed, expiry on or after today in the store's zone. */
  medcardNumber?: string | null;
  medcardExpiry?: string | null;
  /** The store's time zone, to judge the expiry date by the store's calendar. */
  timeZone?: string;
}

/**
 * The logged-in customer of a request (a valid access token of this store naming a customer),
 * loaded fresh so a changed group or medical card counts at once. Guest tokens, no token and
 * invalid tokens give null: the cart stays a guest cart (an invalid token is refused with 401
 * only by the account endpoints, so a stale token never breaks a guest's cart).
 * Tax class: every customer group uses the retail class (3) in this catalogue.
 */
export async function customerOf(request: FastifyRequest): Promise<CustomerRef | null> {
  const claims = await authOf(request);
  const ctx = request.server.accounts;
  if (!ctx || !claims || claims === 'invalid' || claims.customerId == null) return null;
  const row = await ctx.db
    .selectFrom('customers')
    .select(['id', 'group_id', 'medcard_number', 'medcard_expiry'])
    .where('id', '=', claims.customerId)
    .where('store_id', '=', request.store.storeId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    groupId: row.group_id,
    taxClassId: GUEST_CUSTOMER_TAX_CLASS,
    medcardNumber: row.medcard_number,
    medcardExpiry: row.medcard_expiry,
    timeZone: request.store.dispensarySettings.place_info.timezone,
  };
}

// The medical-card rule is a dispensary rule: it lives in @verdant/domain, shared with the browser.
export { MEDCARD_MESSAGES, medicalCardProblem } from '@verdant/domain';

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
