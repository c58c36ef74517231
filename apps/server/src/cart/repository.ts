/**
 * Cart rows: creation with an unguessable token, lookup always scoped to the request's store (a
 * cart of another store does not exist for this one), row locking where the dialect has it.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { PostgresAdapter, type Kysely } from 'kysely';
import { GUEST_CUSTOMER_TAX_CLASS, type LicenseType } from '@verdant/domain';
import type { Database, Row } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { authOf } from '../auth/context.ts';
import { AUTH_MESSAGES } from '../auth/tokens.ts';
import { runSql } from '../db/compiled.ts';
import { CART_MESSAGES as M } from './messages.ts';
import { cartCacheFor } from './cart-cache.ts';
import type { LineInput } from './schemas.ts';
import { balanceOf } from '../loyalty/ledger.ts';

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
  const read = (id: number) =>
    ctx.db
      .selectFrom('customers')
      .select(['id', 'group_id', 'medcard_number', 'medcard_expiry', 'merged_into'])
      .where('id', '=', id)
      .where('store_id', '=', request.store.storeId)
      .executeTakeFirst();
  let row = await read(claims.customerId);
  // A token of a profile merged since (issue 31) shops as the profile it went into, so its orders
  // and purchase limits are the survivor's.
  if (row?.merged_into != null) row = await read(row.merged_into);
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

/**
 * Who asks for a cart. A cart a customer created (`carts.customer_id`) is that customer's: only a
 * request carrying that customer's valid access token may read, change or order it. A guest cart
 * (no customer) is reached by its unguessable id alone, as spec §7 has it, whoever asks.
 */
export interface CartViewer {
  customer: CustomerRef | null;
  /** The request carried a token that is expired, forged or of another store. */
  tokenInvalid: boolean;
}

/** Nobody in particular: reaches guest carts only. */
export const GUEST_VIEWER: CartViewer = { customer: null, tokenInvalid: false };

export async function viewerOf(request: FastifyRequest): Promise<CartViewer> {
  if ((await authOf(request)) === 'invalid') return { customer: null, tokenInvalid: true };
  return { customer: await customerOf(request), tokenInvalid: false };
}

/**
 * Throws unless `viewer` may use `cart`. Another customer, a guest session and no token get 404
 * (as for a cart that does not exist: the answer tells nothing about it); a token that failed
 * gets 401, so the owner's browser refreshes its session and asks again.
 */
export function assertCartViewer(cart: Pick<CartRow, 'customer_id'>, viewer: CartViewer): void {
  if (cart.customer_id == null || viewer.customer?.id === cart.customer_id) return;
  if (viewer.tokenInvalid) throw new ApiError(401, AUTH_MESSAGES.tokenInvalid);
  throw new ApiError(404, M.cartNotFound);
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
 * A logged-in customer's most recently changed open cart in a store for a licence type: one no
 * order was placed from (placing an order marks the cart `ordered_at`), so a customer's cart
 * follows them across devices and logins. Undefined when there is none.
 */
export function openCartOf(db: Db, customerId: number, storeId: number, licenseType: LicenseType): Promise<CartRow | undefined> {
  return db
    .selectFrom('carts')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('store_id', '=', storeId)
    .where('license_type', '=', licenseType)
    .where('ordered_at', 'is', null)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Whether the database takes row locks (PostgreSQL). Asked of the executor, not the registry of
 * ../db, because a transaction is a Kysely instance of its own that the registry does not know.
 */
export function locksRows(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The cart, if `viewer` may use it (assertCartViewer), or ApiError 404. `lock` takes the row lock
 * on PostgreSQL (SQLite writes are serialised anyway).
 */
export async function requireCart(db: Db, token: string | null, storeId: number, viewer: CartViewer, lock = false): Promise<CartRow> {
  if (!token) throw new ApiError(400, M.cartIdRequired);
  if (!TOKEN.test(token)) throw new ApiError(404, M.cartNotFound);
  let q = db.selectFrom('carts').selectAll().where('token', '=', token).where('store_id', '=', storeId);
  if (lock && locksRows(db)) q = q.forUpdate();
  const cart = await q.executeTakeFirst();
  if (!cart) throw new ApiError(404, M.cartNotFound);
  assertCartViewer(cart, viewer);
  return cart;
}

type CartWithLineRow = CartRow & {
  i_id: number | null;
  i_sku: string | null;
  i_parent_sku: string | null;
  i_qty: number | null;
  i_size: number | null;
  i_product_option: string | null;
  i_created_at: string | null;
  i_updated_at: string | null;
};

const CART_WITH_LINES = `select c.*, i.id as i_id, i.sku as i_sku, i.parent_sku as i_parent_sku, i.qty as i_qty, i.size as i_size,
  i.product_option as i_product_option, i.created_at as i_created_at, i.updated_at as i_updated_at
  from carts c left join cart_items i on i.cart_id = c.id
  where c.token = ? and c.store_id = ?
  order by i.id`;

/**
 * requireCart() and cartLines() in one statement (the cart's row, and its lines by id); on SQLite
 * a read outside a write answers from the cart cache when it can. The rows are shared: read-only. With
 * `lock` on PostgreSQL the cart row is locked first and the lines read after the lock is held:
 * a locking join would re-check only the cart row after waiting, and answer the lines as they
 * were before the transaction it waited for (READ COMMITTED takes a snapshot per statement).
 * SQLite runs one write transaction at a time, so the single statement is enough there.
 */
export async function requireCartWithLines(db: Db, token: string | null, storeId: number, viewer: CartViewer, lock = false): Promise<{ cart: CartRow; rows: CartLineRow[] }> {
  if (!token) throw new ApiError(400, M.cartIdRequired);
  if (!TOKEN.test(token)) throw new ApiError(404, M.cartNotFound);
  if (lock && locksRows(db)) {
    const cart = await requireCart(db, token, storeId, viewer, true);
    return { cart, rows: await cartLines(db, cart.id) };
  }
  // SQLite: the committed copy kept in memory (./cart-cache.ts); never for a write's own read.
  const cache = lock ? null : cartCacheFor(db);
  const hit = cache?.get(token, storeId);
  if (hit) {
    assertCartViewer(hit.cart, viewer);
    return { cart: hit.cart, rows: hit.rows as CartLineRow[] };
  }
  const stamp = cache?.stamp() ?? 0;
  const { rows: joined } = await runSql<CartWithLineRow>(db, CART_WITH_LINES, [token, storeId]);
  if (joined.length === 0) throw new ApiError(404, M.cartNotFound);
  const { i_id: _i, i_sku: _s, i_parent_sku: _p, i_qty: _q, i_size: _z, i_product_option: _o, i_created_at: _c, i_updated_at: _u, ...cart } = joined[0];
  const rows: CartLineRow[] = [];
  for (const r of joined) {
    if (r.i_id == null) continue;
    rows.push({
      id: r.i_id,
      cart_id: cart.id,
      sku: r.i_sku!,
      parent_sku: r.i_parent_sku,
      qty: r.i_qty!,
      size: r.i_size,
      product_option: r.i_product_option,
      created_at: r.i_created_at!,
      updated_at: r.i_updated_at!,
    });
  }
  cache?.fill(token, { cart: cart as CartRow, rows }, stamp);
  assertCartViewer(cart, viewer);
  return { cart: cart as CartRow, rows };
}

export function cartLines(db: Db, cartId: number): Promise<CartLineRow[]> {
  return db.selectFrom('cart_items').selectAll().where('cart_id', '=', cartId).orderBy('id').execute();
}

export function lineInputOf(row: Pick<CartLineRow, 'sku' | 'qty' | 'size' | 'product_option'>): LineInput {
  return { sku: row.sku, qty: row.qty, size: row.size, product_option: row.product_option ? JSON.parse(row.product_option) : null };
}

/**
 * Serialise spending a customer's reward points: the customer's row is locked until the
 * transaction ends (PostgreSQL), so of two concurrent orders the second reads the balance only
 * after the first committed its burn, and a balance is never spent twice. SQLite runs one write
 * transaction at a time, so there is nothing to lock.
 * FOR NO KEY UPDATE, not FOR UPDATE: rows that refer to the customer (the order, its points) take
 * a key-share lock on it, which FOR UPDATE would block — an order that only earns points, holding
 * stock another order waits for, would then wait for that order: a deadlock.
 */
export async function lockPointsOf(trx: Db, customerId: number): Promise<void> {
  if (!locksRows(trx)) return;
  await trx.selectFrom('customers').select('id').where('id', '=', customerId).forNoKeyUpdate().execute();
}

/** Reward-point balance (1 point = 1 cent); guests have none (issue 30: the loyalty account, ../loyalty/ledger.ts). */
export function pointsBalance(db: Db, customerId: number | null, storeId: number): Promise<number> {
  return balanceOf(db, customerId, storeId);
}
