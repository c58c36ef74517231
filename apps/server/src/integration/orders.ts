/**
 * Orders for a POS: the feed of orders changed since a cursor, and the order as the API shows it.
 *
 * The cursor is over order_events.id: every change of an order (placed, each lifecycle move, a
 * verification, …) writes an order_events row in the change's transaction, so "orders with an
 * event after the cursor" are exactly the orders changed since. A page lists each such order once,
 * ordered by its newest event, and `next` is the newest event id of the last order returned.
 *
 * Why no order is ever missed, also one whose transaction commits late: an id is taken from the
 * sequence when the row is inserted, but the row becomes visible only at commit, so on PostgreSQL
 * a reader could see id 12 committed while id 11's transaction is still open — and a cursor moved
 * past 12 would never show 11. So the feed only reads up to a horizon below which nothing can
 * still arrive: on PostgreSQL it briefly takes `LOCK TABLE order_events IN SHARE MODE`, which waits
 * for every open transaction that inserted into order_events to end (and holds new ones back for
 * the instant it takes to read max(id)); every id at or below that max is then committed or gone
 * for good, and every later id is larger (the identity sequence hands out increasing numbers).
 * The order writers wait at most for that one indexed read. SQLite has one writer at a time and
 * commits ids in order, so the newest id is the horizon.
 */
import { sql, type Kysely } from 'kysely';
import type { OrderTaxLine } from '@verdant/domain/console-api';
import type { Database, Row } from '../db/schema.ts';
import { isPostgres } from '../db/compiled.ts';
import { ApiError } from '../http/envelope.ts';
import { INT4_MAX } from '../http/ids.ts';
import { customerNameOf } from '../orders/console/list.ts';
import { orderLineDeals, type OrderLineDeal } from '../deals/order-lines.ts';

export const FEED_MAX_LIMIT = 200;

export interface IntegrationOrder {
  id: number;
  number: string;
  status: string;
  type: string;
  license_type: string;
  customer: { name: string };
  ready_by: string | null;
  cancel_reason: string | null;
  totals: {
    subtotal_cents: number;
    discount_cents: number;
    excise_tax_cents: number;
    sales_tax_cents: number;
    shipping_cents: number;
    total_cents: number;
    /** The deals' part of `discount_cents` (issue 28). */
    deal_discount_cents: number;
    /** Each of the store's named tax lines charged on the order (issue 14; empty for orders older than the lines). */
    tax_lines: OrderTaxLine[];
  };
  items: {
    sku: string;
    name: string;
    qty: number;
    size: number | null;
    uom: string | null;
    price_cents: number;
    row_total_cents: number;
    /** Every discount of the line (deals, coupon, points), and the deals' part of it with each deal's share (issue 28). */
    discount_cents: number;
    deal_discount_cents: number;
    deals: OrderLineDeal[];
  }[];
  version: number;
  created_at: string;
  updated_at: string;
}

export function encodeCursor(eventId: number): string {
  return Buffer.from(`v1:${eventId}`).toString('base64url');
}

/** An opaque cursor back to an event id; 400 for anything this API did not hand out. */
export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const m = /^v1:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  // Event ids are int4: a larger number is no cursor this API handed out (PostgreSQL would fail on it).
  if (!m || Number(m[1]) > INT4_MAX)
    throw new ApiError(400, 'since: not a cursor this API handed out (use `next` of a previous answer, or leave it out to start).', {
      errorCode: 'invalid_cursor',
    });
  return Number(m[1]);
}

async function horizonOf(db: Kysely<Database>): Promise<number> {
  const read = (q: Kysely<Database>) =>
    q
      .selectFrom('order_events')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst()
      .then((r) => Number(r?.max ?? 0));
  if (!isPostgres(db)) return read(db);
  return db.transaction().execute(async (trx) => {
    await sql`lock table order_events in share mode`.execute(trx);
    return read(trx);
  });
}

export async function ordersSince(
  db: Kysely<Database>,
  storeId: number,
  cursor: number,
  limit: number,
): Promise<{ orders: (IntegrationOrder & { event_id: number })[]; next: string; has_more: boolean }> {
  const horizon = await horizonOf(db);
  const changed = await db
    .selectFrom('order_events')
    .select(['order_id', (eb) => eb.fn.max('id').as('last_event')])
    .where('store_id', '=', storeId)
    .where('id', '>', cursor)
    .where('id', '<=', horizon)
    .groupBy('order_id')
    .orderBy('last_event')
    .limit(limit + 1)
    .execute();
  const page = changed.slice(0, limit).map((c) => ({ orderId: c.order_id, lastEvent: Number(c.last_event) }));
  const views = await orderViews(
    db,
    storeId,
    page.map((p) => p.orderId),
  );
  const orders = page.flatMap((p) => {
    const view = views.get(p.orderId);
    return view ? [{ ...view, event_id: p.lastEvent }] : [];
  });
  const next = page.length ? page[page.length - 1].lastEvent : cursor;
  return { orders, next: encodeCursor(next), has_more: changed.length > limit };
}

export async function orderViews(db: Kysely<Database>, storeId: number, ids: number[]): Promise<Map<number, IntegrationOrder>> {
  const out = new Map<number, IntegrationOrder>();
  if (!ids.length) return out;
  const orders = await db.selectFrom('orders').selectAll().where('store_id', '=', storeId).where('id', 'in', ids).execute();
  const items = await db
    .selectFrom('order_items')
    .select(['order_id', 'sku', 'name', 'qty', 'size', 'uom', 'price_cents', 'row_total_cents', 'discount_cents', 'deal_discount_cents', 'deal_discounts'])
    .where('order_id', 'in', ids)
    .orderBy('id')
    .execute();
  const taxLines = await db
    .selectFrom('order_tax_lines')
    .select(['order_id', 'code', 'title', 'kind', 'rate', 'taxable_cents', 'amount_cents'])
    .where('order_id', 'in', ids)
    .orderBy('order_id')
    .orderBy('position')
    .execute();
  for (const o of orders) out.set(o.id, viewOf(o, []));
  for (const { order_id, deal_discounts, ...item } of items) out.get(order_id)?.items.push({ ...item, deals: orderLineDeals(deal_discounts) });
  for (const { order_id, ...line } of taxLines) out.get(order_id)?.totals.tax_lines.push(line);
  return out;
}

export function viewOf(o: Row<'orders'>, items: IntegrationOrder['items']): IntegrationOrder {
  return {
    id: o.id,
    number: o.increment_id,
    status: o.status,
    type: o.order_type,
    license_type: o.license_type,
    customer: { name: customerNameOf(o.personal_details).name },
    ready_by: o.ready_by,
    cancel_reason: o.cancel_reason,
    totals: {
      subtotal_cents: o.subtotal_cents,
      discount_cents: o.discount_cents,
      excise_tax_cents: o.excise_tax_cents,
      sales_tax_cents: o.sales_tax_cents,
      shipping_cents: o.shipping_cents,
      total_cents: o.total_cents,
      deal_discount_cents: o.deal_discount_cents,
      tax_lines: [],
    },
    items,
    version: o.version,
    created_at: o.created_at,
    updated_at: o.updated_at,
  };
}

/** The order of the store with this number (increment id), or 404. */
export async function orderIdByNumber(db: Kysely<Database>, storeId: number, number: string): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('store_id', '=', storeId)
    .where('increment_id', '=', number)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, 'Order not found.', { errorCode: 'order_not_found' });
  return row.id;
}
