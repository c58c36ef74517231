/**
 * Changing a cart (spec §7 cart/update, cart/delete), enforced on the server in one transaction
 * (grouped with other cart changes on SQLite, ../db/group-commit.ts) with the cart row locked: the product exists in this store and is enabled, has a price, fits
 * the cart's licence, is in stock for every line drawing on it, and the cart stays within the
 * purchase limit. Any failure leaves the cart exactly as it was.
 *
 * Semantics:
 *  - `cartItem` without item_id adds: a line with the same sku (and options) grows by qty.
 *  - `cartItem` with item_id sets that line: its qty, and its sku/size/options when given (a
 *    re-configured line that now equals another line is merged into it, spec §4 Configuring).
 *  - `cartItems` replaces the cart with the given lines (the client's state is authoritative);
 *    lines keep their item_id when matched by item_id or by sku and options.
 */
import type { Store } from '@verdant/domain';
import { ApiError } from '../http/envelope.ts';
import { runSql } from '../db/compiled.ts';
import { inWriteTransaction, type TransactionHooks } from '../db/group-commit.ts';
import { cartCacheFor, type CartCache } from './cart-cache.ts';
import { cartProducts, type CatalogSource } from './catalog-source.ts';
import { licenseProblem, stockProblem } from './checks.ts';
import { limitChangeProblem, limitScope } from '../limits/enforce.ts';
import { CART_MESSAGES as M, MAX_CART_LINES, MAX_LINE_QTY } from './messages.ts';
import { assertCartViewer, lineInputOf, medicalCardProblem, pointsBalance, requireCart, requireCartWithLines, type CartLineRow, type CartRow, type CartViewer, type Db } from './repository.ts';
import { resolveLine, type ResolvedLine } from './resolve.ts';
import type { CartItemInput, LineInput } from './schemas.ts';
import { resolveContext, resolveRows, serverItem } from './view.ts';

export interface UpdateRequest {
  changes: readonly CartItemInput[];
  mode: 'add-or-set' | 'replace';
  orderType?: 'pickup' | 'delivery';
  burnCredits?: number;
  /** The shopper's residency statement (purchase-limit buckets, issue 14); null: not asked. */
  residency?: 'resident' | 'non_resident' | null;
}

interface Slot {
  rowId: number | null;
  row: CartLineRow | null;
  resolved: ResolvedLine | null;
  touched: boolean;
  removed: boolean;
}

export type ServerItem = ReturnType<typeof serverItem>;

/**
 * Products and prices come from the in-memory catalogue when `catalog` has them (else the
 * database); the stock they are checked against is read from the database in the transaction.
 */
export async function updateCart(db: Db, catalog: CatalogSource | null, store: Store, token: string | null, req: UpdateRequest, viewer: CartViewer, now: Date): Promise<ServerItem[]> {
  const cache = cartCacheFor(db);
  const scope = await limitScope(db, store);
  return inWriteTransaction(db, (trx, tx) => updateCartIn(trx, tx, cache, scope, catalog, store, token, req, viewer, now));
}

/**
 * updateCart's unit, for a caller that already runs a write transaction and makes several cart
 * changes in it (./buy-again.ts): the same checks and writes. `cache` null: the caller keeps the
 * server's copy of the cart right itself (it forgets it).
 */
export async function updateCartIn(
  trx: Db,
  tx: TransactionHooks,
  cache: CartCache | null,
  scope: Awaited<ReturnType<typeof limitScope>>,
  catalog: CatalogSource | null,
  store: Store,
  token: string | null,
  req: UpdateRequest,
  viewer: CartViewer,
  now: Date,
): Promise<ServerItem[]> {
  const customer = viewer.customer;
  // The committed copy when the server keeps one (SQLite), else the database. A unit that fails
  // writes nothing, so the copy stays right; one that writes replaces it (cache.writing below).
  const kept = token ? cache?.get(token, store.storeId) : undefined;
  if (kept) assertCartViewer(kept.cart, viewer);
  const { cart, rows } = kept ?? (await requireCartWithLines(trx, token, store.storeId, viewer, true));
  for (const c of req.changes) if (c.quoteId != null && String(c.quoteId) !== cart.token) throw new ApiError(400, M.quoteMismatch);
  const ctx = resolveContext(store, customer, now);
  const skus = [...rows.map((r) => r.sku), ...req.changes.flatMap((c) => (c.sku ? [c.sku] : []))];
  const products = await cartProducts(trx, catalog, store.storeId, skus, ctx.groupId, 'always');
  const before = resolveRows(rows, products, ctx);
  const slots: Slot[] = before.map((e) => ({ rowId: e.row.id, row: e.row, resolved: e.resolved, touched: false, removed: req.mode === 'replace' }));
  // Module-level helpers rather than closures: this runs for every cart change.
  const rv: Resolver = { products, ctx };

  for (const change of req.changes) {
    const target = change.item_id != null ? slots.find((s) => s.rowId === change.item_id) : undefined;
    if (change.item_id != null && !target) throw new ApiError(404, `Cart item ${change.item_id} not found`);
    const own = target && !change.sku ? lineInputOf(target.row!) : null;
    const input: LineInput = own
      ? { sku: own.sku, qty: change.qty, size: own.size, product_option: change.product_option ?? own.product_option }
      : { sku: change.sku!, qty: change.qty, size: change.size, product_option: change.product_option };
    const lines = resolveLine(input, products, ctx);
    if (req.mode === 'replace') {
      for (const r of lines) place(slots, r, rv, target && lines.length === 1 ? target : undefined, true);
    } else if (target && lines.length === 1) {
      const other = slots.find((s) => !s.removed && s !== target && s.resolved?.key === lines[0].key);
      if (other) {
        other.resolved = resolveAt(rv, lines[0], other.resolved!.qty + lines[0].qty);
        other.touched = true;
        target.removed = true;
      } else {
        Object.assign(target, { resolved: lines[0], touched: true, removed: false });
      }
    } else {
      if (target) target.removed = true;
      for (const r of lines) place(slots, r, rv, undefined, false);
    }
  }

  const live = slots.filter(isLive);
  if (live.length > MAX_CART_LINES) throw new ApiError(400, M.tooManyLines);
  const after = live.flatMap((s) => (s.resolved ? [s.resolved] : []));
  const changed = live.filter((s) => s.touched).map((s) => s.resolved!);
  const problem =
    medicalCardProblem(customer, cart.license_type, now, changed) ??
    licenseProblem(changed, cart.license_type) ??
    stockProblem(after, changed);
  if (problem) throw new ApiError(400, problem);
  // Purchase-limit buckets (../limits/enforce.ts): earlier orders in the windows are read in this transaction.
  const limitInput = { ...scope, customerType: cart.license_type, residency: req.residency ?? null, customerId: customer?.id ?? null, now };
  const overLimit = await limitChangeProblem(trx, limitInput, before.flatMap((e) => (e.resolved ? [e.resolved] : [])), after);
  if (overLimit) throw overLimit;
  if (req.burnCredits != null && req.burnCredits > 0) {
    // A guide for the shopper only: the order spends the points, under a lock (orders/prepare.ts).
    const balance = await pointsBalance(trx, customer?.id ?? null, store.storeId);
    if (req.burnCredits > balance) throw new ApiError(400, M.notEnoughPoints(balance));
  }
  const { items, lines, touchedCart } = await write(trx, cart, slots, req, now);
  // Gone until the COMMIT (later units and readers see the database), then the cart as written.
  cache?.writing(cart.token, tx, () => ({
    cart: {
      ...cart,
      updated_at: touchedCart ? now.toISOString() : cart.updated_at,
      ...(req.orderType ? { order_type: req.orderType } : {}),
      ...(req.burnCredits != null ? { credits: req.burnCredits } : {}),
    },
    rows: lines,
  }));
  return items;
}

/** Put a resolved line into the cart: merge with a line of the same key, else claim `target` or a free row, else new. */
interface Resolver {
  products: Parameters<typeof resolveLine>[1];
  ctx: Parameters<typeof resolveLine>[2];
}

function isLive(s: Slot): boolean {
  return !s.removed;
}

/** The line `r` re-resolved at another quantity (a merge), within the per-line maximum. */
function resolveAt(rv: Resolver, r: ResolvedLine, qty: number): ResolvedLine {
  if (qty >= MAX_LINE_QTY) throw new ApiError(400, M.qtyTooLarge(MAX_LINE_QTY));
  return resolveLine({ sku: r.sku, qty, size: r.size, product_option: r.productOption }, rv.products, rv.ctx)[0];
}

function place(slots: Slot[], r: ResolvedLine, rv: Resolver, target: Slot | undefined, replace: boolean): void {
  const same = slots.find((s) => !s.removed && s.touched && s.resolved?.key === r.key);
  if (same) {
    same.resolved = resolveAt(rv, r, same.resolved!.qty + r.qty);
    return;
  }
  if (!replace) {
    const existing = slots.find((s) => !s.removed && s.resolved?.key === r.key);
    if (existing) {
      existing.resolved = resolveAt(rv, r, existing.resolved!.qty + r.qty);
      existing.touched = true;
      return;
    }
  }
  // Replacing: keep the item id of the line the client named, or of an unclaimed line with the same key.
  const claim = replace ? ((target && target.removed ? target : undefined) ?? slots.find((s) => s.removed && !s.touched && s.resolved?.key === r.key)) : undefined;
  if (claim) Object.assign(claim, { resolved: r, touched: true, removed: false });
  else slots.push({ rowId: null, row: null, resolved: r, touched: true, removed: false });
}

function lineFields(r: ResolvedLine, iso: string) {
  return {
    sku: r.sku,
    parent_sku: r.parentSku,
    qty: r.qty,
    size: r.size,
    product_option: r.productOption ? JSON.stringify(r.productOption) : null,
    updated_at: iso,
  };
}

/** Writes the slots; answers the changed lines (spec's cart items) and the cart's lines as now stored. */
/**
 * `carts.updated_at` is the cart's last activity to the minute: a change of lines only (no order
 * type, no points) within a minute of the last one leaves the cart row alone (the lines carry
 * their own exact times). It orders a customer's open carts (openCartOf) and would date abandoned
 * carts; neither needs seconds, and the row write was a fifth of a cart change's database time.
 */
export const CART_TOUCH_INTERVAL_MS = 60_000;

async function write(trx: Db, cart: CartRow, slots: Slot[], req: UpdateRequest, now: Date): Promise<{ items: ServerItem[]; lines: CartLineRow[]; touchedCart: boolean }> {
  const cartId = cart.id;
  const token = cart.token;
  const iso = now.toISOString();
  const gone = slots.filter((s) => s.removed && s.rowId != null).map((s) => s.rowId!);
  if (gone.length) await trx.deleteFrom('cart_items').where('cart_id', '=', cartId).where('id', 'in', gone).execute();
  const touched = slots.filter((s) => s.touched && !s.removed);
  for (const s of touched.filter((x) => x.rowId != null)) {
    const f = lineFields(s.resolved!, iso);
    await runSql(
      trx,
      'update cart_items set sku = ?, parent_sku = ?, qty = ?, size = ?, product_option = ?, updated_at = ? where id = ? and cart_id = ?',
      [f.sku, f.parent_sku, f.qty, f.size, f.product_option, f.updated_at, s.rowId!, cartId],
    );
  }
  const fresh = touched.filter((x) => x.rowId == null);
  if (fresh.length) {
    const ids = await trx
      .insertInto('cart_items')
      .values(fresh.map((s) => ({ cart_id: cartId, ...lineFields(s.resolved!, iso), created_at: iso })))
      .returning('id')
      .execute();
    fresh.forEach((s, i) => (s.rowId = ids[i].id));
  }
  const lastTouched = Date.parse(cart.updated_at);
  const touchedCart =
    req.orderType != null || req.burnCredits != null || !(now.getTime() - lastTouched < CART_TOUCH_INTERVAL_MS && now.getTime() >= lastTouched);
  if (touchedCart) {
    // One text per combination of optional fields (four in all), each run without the builder.
    const sets = ['updated_at = ?'];
    const values: unknown[] = [iso];
    if (req.orderType) {
      sets.push('order_type = ?');
      values.push(req.orderType);
    }
    if (req.burnCredits != null) {
      sets.push('credits = ?');
      values.push(req.burnCredits);
    }
    await runSql(trx, `update carts set ${sets.join(', ')} where id = ?`, [...values, cartId]);
  }
  const shown = req.mode === 'replace' ? slots.filter((s) => !s.removed && s.resolved) : touched;
  const items = shown.map((s) => {
    const r = s.resolved!;
    return serverItem({ id: s.rowId!, ...lineFields(r, iso) }, r, token);
  });
  // The lines as the table now holds them (for the cart cache), in id order like a read.
  const lines = slots
    .filter((s) => !s.removed && s.rowId != null)
    .map((s): CartLineRow => {
      if (!s.touched) return s.row!;
      const f = lineFields(s.resolved!, iso);
      return { id: s.rowId!, cart_id: cartId, ...f, parent_sku: f.parent_sku ?? null, size: f.size ?? null, created_at: s.row?.created_at ?? iso };
    })
    .sort((a, b) => a.id - b.id);
  return { items, lines, touchedCart };
}

/** Remove a line by item_id, or every line of a sku. Deleting what is not there is not an error (retries). */
export async function deleteFromCart(db: Db, store: Store, token: string | null, viewer: CartViewer, item: { item_id?: number; sku?: string; quoteId?: string | number }, now: Date): Promise<boolean> {
  const cache = cartCacheFor(db);
  return inWriteTransaction(db, async (trx, tx) => {
    const cart = await requireCart(trx, token, store.storeId, viewer, true);
    // What is left is not worked out here: the next read goes to the database.
    cache?.writing(cart.token, tx);
    if (item.quoteId != null && String(item.quoteId) !== cart.token) throw new ApiError(400, M.quoteMismatch);
    let q = trx.deleteFrom('cart_items').where('cart_id', '=', cart.id);
    q = item.item_id != null ? q.where('id', '=', item.item_id) : q.where((eb) => eb.or([eb('sku', '=', item.sku!), eb('parent_sku', '=', item.sku!)]));
    await q.execute();
    await trx.updateTable('carts').set({ updated_at: now.toISOString() }).where('id', '=', cart.id).execute();
    return true;
  });
}

