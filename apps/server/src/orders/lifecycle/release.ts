/**
 * Putting a cancelled or no-show order's goods back, inside the transaction of its status move,
 * exactly once: the `released_at IS NULL` guarded update is the "once" (a second caller changes no
 * row and returns nothing). What goes back:
 *  - stock: what placing took (recorded in the order's 'placed' history row; for orders placed
 *    before that record existed, recomputed from the lines the way placing counts them: weight ×
 *    qty for gram products, bundle components as recorded in `order_items.product_option`);
 *  - loyalty points: one `reverse` ledger entry (+ the points the order redeemed, − those it earned,
 *    never below 0; ../../loyalty/orders.ts);
 *  - the coupon's use: `times_used − 1`;
 *  - the deals' redemptions (issue 28): released once, each budget's counter − 1.
 * A cancel for "Sold out" puts no stock back (issue 26, @verdant/domain cancel-stock.ts): the store
 * said the items are not there; points, coupon use and the slot still go back.
 * Stock that comes back from sold out (0 → more) marks the back-in-stock watches of it, here in the
 * same transaction, once (issue 30, ../../alerts/watches.ts markRestocked): a cancel that rolls back
 * marks none. A failed delivery's goods come back through this same cancel (../../delivery/stops.ts).
 */
import { cancelRestocks, sizeWeightGrams, isSizeId } from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database, Row } from '../../db/schema.ts';
import { releaseSlot } from '../../hours/booking.ts';
import { releaseRedemptions } from '../../deals/redemptions.ts';
import { reverseForOrder } from '../../loyalty/orders.ts';
import { markRestocked, type StockChange } from '../../alerts/watches.ts';

type Db = Kysely<Database>;

/** What `placed` history rows record of the stock an order took: product id → amount (units or grams). */
export type StockTaken = Record<string, number>;

/** Release the order's goods once; returns the product ids whose stock went back ([] when released before). */
export async function releaseGoods(trx: Db, order: Row<'orders'>, iso: string): Promise<number[]> {
  const claimed = await trx
    .updateTable('orders')
    .set({ released_at: iso })
    .where('id', '=', order.id)
    .where('released_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return [];
  // Its time slot's place goes back too (issue 14, ../../hours/booking.ts).
  await releaseSlot(trx, order);
  // And its deals' redemptions: budgets and per-customer limits count it no more (issue 28, ../../deals/redemptions.ts).
  await releaseRedemptions(trx, order.id, iso);

  const taken = cancelRestocks(order.cancel_reason) ? await stockTakenBy(trx, order) : {};
  const products = Object.keys(taken)
    .map(Number)
    .sort((a, b) => a - b);
  const changes: StockChange[] = [];
  for (const productId of products) {
    const amount = taken[productId];
    if (!(amount > 0)) continue;
    const row = await trx
      .updateTable('stock')
      .set((eb) => ({
        qty: eb('qty', '+', amount),
        version: eb('version', '+', 1),
        // Sold out because of this order: on sale again.
        is_in_stock: eb
          .case()
          .when(eb(eb('qty', '+', amount), '>', 0))
          .then(eb.val<0 | 1>(1))
          .else(eb.ref('is_in_stock'))
          .end(),
        updated_at: iso,
      }))
      .where('product_id', '=', productId)
      .where('manage_stock', '=', 1)
      .returning('qty')
      .executeTakeFirst();
    // The count after this release, read under the row's lock: the count before is it less this order's.
    if (row) changes.push({ productId, field: 'stock', before: String(Number(row.qty) - amount), after: String(row.qty) });
  }
  // Issue 30: stock a cancel or a failed delivery returns tells the watchers of what was sold out,
  // as a restock through the menu history does (../../alerts/watches.ts), in this transaction.
  if (changes.length) await markRestocked(trx, order.store_id, changes, new Date(iso));

  // Loyalty points: what the order redeemed comes back, what it earned goes (once; ../../loyalty/orders.ts).
  await reverseForOrder(trx, order, iso);

  if (order.coupon_code) {
    await trx
      .updateTable('coupons')
      .set((eb) => ({ times_used: eb('times_used', '-', 1), updated_at: iso }))
      .where('code', '=', order.coupon_code)
      .where('times_used', '>', 0)
      .execute();
  }
  return products;
}

/** The stock the order took: its 'placed' record, else recomputed from its lines. */
async function stockTakenBy(trx: Db, order: Row<'orders'>): Promise<StockTaken> {
  const placed = await trx
    .selectFrom('order_events')
    .select('data')
    .where('order_id', '=', order.id)
    .where('kind', '=', 'placed')
    .executeTakeFirst();
  if (placed?.data) {
    try {
      const data = JSON.parse(placed.data) as { stock?: StockTaken };
      if (data.stock) return data.stock;
    } catch {
      // Fall through to the lines.
    }
  }
  return stockFromLines(trx, order);
}

async function stockFromLines(trx: Db, order: Row<'orders'>): Promise<StockTaken> {
  const items = await trx.selectFrom('order_items').selectAll().where('order_id', '=', order.id).execute();
  const parts: { sku: string; productId: number | null; qty: number; size: number | null; uom: string | null }[] = [];
  for (const item of items) {
    const components = componentsOf(item.product_option);
    if (components) for (const c of components) parts.push({ sku: c.sku, productId: null, qty: item.qty * c.qty, size: null, uom: null });
    else parts.push({ sku: item.sku, productId: item.product_id, qty: item.qty, size: item.size, uom: item.uom });
  }
  const skus = parts.filter((p) => p.productId == null).map((p) => p.sku);
  const bySku = new Map<string, { id: number; uom: string | null; size: number | null }>();
  if (skus.length) {
    const rows = await trx
      .selectFrom('products')
      .select(['id', 'sku', 'uom', 'size'])
      .where('store_id', '=', order.store_id)
      .where('sku', 'in', skus)
      .execute();
    for (const r of rows) bySku.set(r.sku, { id: r.id, uom: r.uom, size: r.size });
  }
  const taken: StockTaken = {};
  for (const p of parts) {
    const product = p.productId != null ? { id: p.productId, uom: p.uom, size: p.size } : bySku.get(p.sku);
    if (!product) continue;
    const perUnit = product.uom === 'g' ? sizeWeightGrams(isSizeId(product.size) ? product.size : null) : 1;
    taken[product.id] = (taken[product.id] ?? 0) + p.qty * perUnit;
  }
  return taken;
}

function componentsOf(option: string | null): { sku: string; qty: number }[] | null {
  if (!option) return null;
  try {
    const parsed = JSON.parse(option) as { components?: { sku: string; qty: number }[] };
    return Array.isArray(parsed.components) && parsed.components.length > 1 ? parsed.components : null;
  } catch {
    return null;
  }
}
