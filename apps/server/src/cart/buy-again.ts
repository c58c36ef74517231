/**
 * Buy again (issue 30): a logged-in customer puts the items of one of their past orders in this
 * store back in their cart in one step, at today's prices, and is told plainly what changed.
 *
 * How it works (decisions):
 *  - Only the customer's own order in the store of the request: anything else is 404 with the same
 *    words as an order that does not exist, so the answer never says whose an order is.
 *  - Every line goes into the cart through `updateCart` (./update.ts), the code every cart change
 *    runs: product enabled and priced, licence, medical card, stock and the purchase-limit buckets
 *    are checked exactly as for a shopper's own add; nothing here bypasses them.
 *  - All lines are added in ONE write transaction, with the idempotency key recorded in it
 *    (`idempotency_keys`, scope `cart.buy_again`) together with the answer: a retry with the same key
 *    (or the loser of a race on it) gets the first answer back and adds nothing. A failed unit
 *    rolls back its key with its lines, so a retry is judged again.
 *  - Lines are taken in the order's order. A line the cart refuses at its full quantity (limit,
 *    stock, licence) is tried at the largest quantity that fits (binary search over 1..qty, each
 *    try a whole `updateCart` that writes nothing when it refuses); what was left out is said with
 *    the cart's own refusal message (the purchase-limit text, "Only N … available", …).
 *  - Statuses per line: `added` (same price), `price_changed` (added at today's price; the message
 *    says now and then), `sold_out` (the product is sold but has no stock for even one), `not_sold`
 *    (gone from the menu, disabled or without a price), `limited` (some or none added because of a
 *    cart rule; the message says which).
 *  - Similar products, offered for `sold_out` and `not_sold` lines, at most 2: products a shopper can
 *    open (no parent, enabled, visible in the catalogue) sharing a category with the product ordered
 *    (its parent for a size), of the same kind (`canna_type`) when it has one, for the cart's licence
 *    (or both), with stock now (the product itself or one of its enabled sizes); best sellers first,
 *    then by name. Never the product itself.
 *  - Prices are compared per unit: the order's `price_cents` against the price the cart charges
 *    today for that quantity (specials and tiers included, deals not: they are the cart's, later).
 */
import { formatMoney, isSizeId, productPath, sizeWeightGrams, type LicenseType, type MoneyLocale, type Store } from '@verdant/domain';
import { sql } from 'kysely';
import { inWriteTransaction } from '../db/group-commit.ts';
import { ApiError } from '../http/envelope.ts';
import { isUniqueViolation, requestHash } from '../orders/idempotency.ts';
import { cartCacheFor } from './cart-cache.ts';
import { cartProducts, type CatalogSource } from './catalog-source.ts';
import { stockNeeds } from './checks.ts';
import { CART_MESSAGES as M } from './messages.ts';
import { requireCartWithLines, type CartViewer, type Db } from './repository.ts';
import { resolveLine, type ResolvedLine } from './resolve.ts';
import { updateCartIn, type ServerItem } from './update.ts';
import { limitScope } from '../limits/enforce.ts';
import type { TransactionHooks } from '../db/group-commit.ts';
import { resolveContext } from './view.ts';

export const BUY_AGAIN_SCOPE = 'cart.buy_again';

export const BUY_AGAIN_MESSAGES = {
  orderNotFound: 'Order not found',
  loginRequired: 'Log in to buy an order again.',
  keyReused: 'This Idempotency-Key was already used for a different request.',
  inProgress: 'This order is still being added to your cart; try again in a moment.',
  priceChanged: (name: string, now: string, then: string) => `${name} is now ${now}, was ${then}`,
  soldOut: (name: string) => `${name} is sold out`,
  notSold: (name: string) => `${name} is no longer sold`,
  partly: (name: string, added: number, asked: number, why: string) => `${name}: ${added} of ${asked} added. ${why}`,
  notAdded: (name: string, why: string) => `${name} was not added. ${why}`,
} as const;

export type BuyAgainStatus = 'added' | 'price_changed' | 'sold_out' | 'not_sold' | 'limited';

export interface SimilarProduct {
  sku: string;
  name: string;
  /** The product page's path, without a store prefix (the web app adds it). */
  url: string;
}

export interface BuyAgainLine {
  sku: string;
  /** The name as the shopper reads it: with the size's grams for a size of a weighed product. */
  name: string;
  /** Quantity ordered, and how many went into the cart now. */
  qty: number;
  added: number;
  status: BuyAgainStatus;
  /** Cents per unit: as ordered, and as the cart charges today (null when not sold any more). */
  price_then: number;
  price_now: number | null;
  /** What changed, in words; null when the line went in as it was. */
  message: string | null;
  similar: SimilarProduct[];
}

export interface BuyAgainAnswer {
  order_id: string;
  /** Units added over all lines. */
  added: number;
  lines: BuyAgainLine[];
  /** The cart lines this call wrote (spec §3 cart items), as `cart/update` answers them. */
  items: ServerItem[];
}

export interface BuyAgainRequest {
  incrementId: string;
  /** Required: a retry (a double tap, a lost answer) must not add the order twice. */
  idempotencyKey: string;
  residency: 'resident' | 'non_resident' | null;
}

type OrderItem = { sku: string; parent_sku: string | null; name: string; qty: number; size: number | null; price_cents: number; product_option: string | null };

/** "Blue Dream 3.5 g": a size of a weighed product says its grams (unless the name says them already). */
export function lineName(name: string, size: number | null): string {
  if (!isSizeId(size)) return name;
  const grams = sizeWeightGrams(size);
  const text = `${Number.isInteger(grams) ? grams : grams.toFixed(1)} g`;
  return name.replace(/\s+/g, ' ').toLowerCase().includes(text) ? name : `${name} ${text}`;
}

function moneyOf(store: Store): MoneyLocale {
  return { currencyCode: store.i18n?.currencyCode ?? 'USD', locale: store.i18n?.defaultLocale ?? 'en-US' };
}

/**
 * The re-order: plan and add, once per idempotency key. `viewer.customer` must be set (the route
 * answers 401 before); the cart is the one `token` names, which that customer must be allowed to use.
 */
export async function buyAgain(db: Db, catalog: CatalogSource | null, store: Store, token: string | null, viewer: CartViewer, req: BuyAgainRequest, now: Date): Promise<BuyAgainAnswer> {
  const customer = viewer.customer;
  if (!customer) throw new ApiError(401, BUY_AGAIN_MESSAGES.loginRequired);
  const order = await db
    .selectFrom('orders')
    .select(['id', 'increment_id'])
    .where('increment_id', '=', req.incrementId)
    .where('store_id', '=', store.storeId)
    .where('customer_id', '=', customer.id)
    .executeTakeFirst();
  if (!order) throw new ApiError(404, BUY_AGAIN_MESSAGES.orderNotFound);
  const items: OrderItem[] = await db
    .selectFrom('order_items')
    .select(['sku', 'parent_sku', 'name', 'qty', 'size', 'price_cents', 'product_option'])
    .where('order_id', '=', order.id)
    .orderBy('id')
    .execute();
  const hash = requestHash(store.storeId, { route: 'POST /api/cart/buy-again', customer: customer.id, order: order.increment_id, cart: token });
  const key = req.idempotencyKey;
  const cache = cartCacheFor(db);
  const scope = await limitScope(db, store);
  const iso = now.toISOString();
  try {
    return await inWriteTransaction(db, async (trx, tx) => {
      const seen = await trx.selectFrom('idempotency_keys').selectAll().where('scope', '=', BUY_AGAIN_SCOPE).where('key', '=', key).executeTakeFirst();
      if (seen) return replay(seen, store.storeId, hash);
      await trx
        .insertInto('idempotency_keys')
        .values({ scope: BUY_AGAIN_SCOPE, key, store_id: store.storeId, request_hash: hash, status: 'in_progress', http_status: null, response: null, created_at: iso, updated_at: iso })
        .execute();
      // The cart's viewer rules, and its licence for the similar products; locked on PostgreSQL.
      const { cart } = await requireCartWithLines(trx, token, store.storeId, viewer, true);
      // The server's kept copy of the cart (SQLite) goes now and stays gone until the next read.
      cache?.writing(cart.token, tx);
      const answer = await addLines({ trx, tx, scope, catalog, store, token: cart.token, licenseType: cart.license_type, viewer, req, now }, items);
      const result: BuyAgainAnswer = { order_id: order.increment_id, ...answer };
      await trx
        .updateTable('idempotency_keys')
        .set({ status: 'completed', http_status: 200, response: JSON.stringify(result), updated_at: iso })
        .where('scope', '=', BUY_AGAIN_SCOPE)
        .where('key', '=', key)
        .execute();
      return result;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another copy of this request committed the key first (PostgreSQL): answer what it answered.
    const row = await db.selectFrom('idempotency_keys').selectAll().where('scope', '=', BUY_AGAIN_SCOPE).where('key', '=', key).executeTakeFirstOrThrow();
    return replay(row, store.storeId, hash);
  }
}

function replay(row: { store_id: number; request_hash: string | null; status: string; response: string | null }, storeId: number, hash: string): BuyAgainAnswer {
  if (row.store_id !== storeId || row.request_hash !== hash) throw new ApiError(422, BUY_AGAIN_MESSAGES.keyReused);
  if (row.status !== 'completed' || row.response == null) throw new ApiError(409, BUY_AGAIN_MESSAGES.inProgress);
  return JSON.parse(row.response) as BuyAgainAnswer;
}

interface Unit {
  trx: Db;
  tx: TransactionHooks;
  scope: Awaited<ReturnType<typeof limitScope>>;
  catalog: CatalogSource | null;
  store: Store;
  token: string;
  licenseType: LicenseType;
  viewer: CartViewer;
  req: BuyAgainRequest;
  now: Date;
}

async function addLines(u: Unit, items: readonly OrderItem[]): Promise<Omit<BuyAgainAnswer, 'order_id'>> {
  const { trx, catalog, store, token, licenseType, viewer, req, now } = u;
  const ctx = resolveContext(store, viewer.customer, now);
  const products = await cartProducts(trx, catalog, store.storeId, items.map((i) => i.sku), ctx.groupId, 'always');
  const money = moneyOf(store);
  const lines: BuyAgainLine[] = [];
  const written = new Map<number, ServerItem>();
  let added = 0;
  for (const item of items) {
    const name = lineName(item.name, item.size);
    const option = item.product_option ? (JSON.parse(item.product_option) as ResolvedLine['productOption']) : null;
    const input = { sku: item.sku, qty: item.qty, size: item.size, product_option: option };
    const base = { sku: item.sku, name, qty: item.qty, price_then: item.price_cents };
    let resolved: ResolvedLine[];
    try {
      resolved = resolveLine(input, products, ctx);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      lines.push({ ...base, added: 0, status: 'not_sold', price_now: null, message: BUY_AGAIN_MESSAGES.notSold(name), similar: await similarTo(trx, store, licenseType, item) });
      continue;
    }
    const priceNow = resolved.reduce((sum, l) => sum + l.unitPrice, 0);
    if (resolved.length === 0 || !fitsOne(resolved)) {
      lines.push({ ...base, added: 0, status: 'sold_out', price_now: priceNow, message: BUY_AGAIN_MESSAGES.soldOut(name), similar: await similarTo(trx, store, licenseType, item) });
      continue;
    }
    const add = (qty: number) =>
      // The cart's own change, its checks and writes (./update.ts), in this transaction.
      updateCartIn(trx, u.tx, null, u.scope, catalog, store, token, { changes: [{ ...input, qty, quoteId: token }], mode: 'add-or-set', residency: req.residency }, viewer, now);
    let fitted = 0;
    let refusal: string | null = null;
    let answer: ServerItem[] = [];
    try {
      answer = await add(item.qty);
      fitted = item.qty;
    } catch (e) {
      if (!(e instanceof ApiError) || e.statusCode >= 500) throw e;
      refusal = e.message;
      // The largest quantity that fits: each refusal wrote nothing, so trying again is safe.
      let lo = 1;
      let hi = item.qty - 1;
      while (lo <= hi) {
        const mid = Math.floor((lo + hi) / 2);
        try {
          answer = await add(mid);
          fitted = mid;
          break;
        } catch (again) {
          if (!(again instanceof ApiError) || again.statusCode >= 500) throw again;
          hi = mid - 1;
        }
      }
      // Halving found a quantity that fits (and added it): one more at a time while the cart takes it.
      while (fitted > 0 && fitted < item.qty) {
        try {
          const more = await add(1);
          answer = more;
          fitted += 1;
        } catch (again) {
          if (!(again instanceof ApiError) || again.statusCode >= 500) throw again;
          break;
        }
      }
    }
    for (const a of answer) written.set(a.item_id, a);
    added += fitted;
    if (fitted === item.qty) {
      const changed = priceNow !== item.price_cents;
      lines.push({
        ...base,
        added: fitted,
        status: changed ? 'price_changed' : 'added',
        price_now: priceNow,
        message: changed ? BUY_AGAIN_MESSAGES.priceChanged(name, formatMoney(priceNow, money), formatMoney(item.price_cents, money)) : null,
        similar: [],
      });
    } else {
      const why = refusal ?? M.productUnavailable;
      lines.push({
        ...base,
        added: fitted,
        status: 'limited',
        price_now: priceNow,
        message: fitted > 0 ? BUY_AGAIN_MESSAGES.partly(name, fitted, item.qty, why) : BUY_AGAIN_MESSAGES.notAdded(name, why),
        similar: [],
      });
    }
  }
  return { added, lines, items: [...written.values()] };
}

/** Whether the stock holds one unit of these lines (the whole quantity is the cart's to judge). */
function fitsOne(lines: readonly ResolvedLine[]): boolean {
  const one = lines.map((l) => ({ ...l, qty: 1 }));
  const need = stockNeeds(one);
  for (const l of one) {
    for (const c of l.components) {
      const s = c.stock;
      if (!s || !s.is_in_stock) return false;
      if (s.manage_stock && (need.get(c.productId) ?? 0) > s.qty + 1e-9) return false;
    }
  }
  return true;
}

/** Up to 2 similar products with stock now (the rule is in this file's header). */
async function similarTo(trx: Db, store: Store, licenseType: LicenseType, item: OrderItem): Promise<SimilarProduct[]> {
  const own = await trx
    .selectFrom('products')
    .select(['id', 'parent_id', 'canna_type'])
    .where('store_id', '=', store.storeId)
    .where('sku', '=', item.parent_sku ?? item.sku)
    .executeTakeFirst();
  if (!own) return [];
  const productId = own.parent_id ?? own.id;
  const categories = await trx.selectFrom('product_categories').select('category_id').where('product_id', '=', productId).execute();
  if (categories.length === 0) return [];
  let q = trx
    .selectFrom('products as p')
    .select(['p.sku', 'p.name', 'p.slug'])
    .where('p.store_id', '=', store.storeId)
    .where('p.parent_id', 'is', null)
    .where('p.status', '=', 1)
    .where('p.visibility', '>=', 2)
    .where('p.id', '<>', productId)
    .where('p.license_type', 'in', ['both', licenseType])
    .where('p.id', 'in', (eb) => eb.selectFrom('product_categories').select('product_id').where('category_id', 'in', categories.map((c) => c.category_id)))
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('products as c')
          .innerJoin('stock as s', 's.product_id', 'c.id')
          .select(sql<number>`1`.as('one'))
          .where((eb) => eb.or([eb('c.id', '=', eb.ref('p.id')), eb('c.parent_id', '=', eb.ref('p.id'))]))
          .where('c.status', '=', 1)
          .where('s.is_in_stock', '=', 1)
          .where((eb) => eb.or([eb('s.manage_stock', '=', 0), eb('s.qty', '>', 0)])),
      ),
    );
  if (own.canna_type != null) q = q.where('p.canna_type', '=', own.canna_type);
  const rows = await q.orderBy('p.best_seller', 'desc').orderBy('p.name').orderBy('p.id').limit(2).execute();
  return rows.map((r) => ({ sku: r.sku, name: r.name, url: productPath(r) }));
}
