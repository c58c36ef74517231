/** A customer's orders as the account pages show them (amounts in cents, like /api/order/save). */
import { FINAL_STATUSES, ORDER_STATUS_LABELS, orderTimeline, slotLabel } from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database, Row } from '../db/schema.ts';
import { holdOf, storeFacts } from '../orders/lifecycle/store-facts.ts';
import { reachedStatuses } from '../orders/tracking.ts';
import { orderLineDeals } from '../deals/order-lines.ts';
import { orderTripProgress } from '../delivery/progress.ts';

type Db = Kysely<Database>;

export async function orderView(db: Db, orders: Row<'orders'>[]) {
  if (orders.length === 0) return [];
  const items = await db
    .selectFrom('order_items')
    .selectAll()
    .where(
      'order_id',
      'in',
      orders.map((o) => o.id),
    )
    .orderBy('id')
    .execute();
  // Each named tax line as charged (issue 14 receipt; orders placed before migration 0018 have none: the two sums stand).
  const taxLines = await db
    .selectFrom('order_tax_lines')
    .select(['order_id', 'code', 'title', 'kind', 'rate', 'amount_cents'])
    .where(
      'order_id',
      'in',
      orders.map((o) => o.id),
    )
    .orderBy('order_id')
    .orderBy('position')
    .execute();
  return orders.map((o) => ({
    increment_id: o.increment_id,
    status: o.status,
    status_label: ORDER_STATUS_LABELS[o.status],
    created_at: o.created_at,
    order_type: o.order_type,
    license_type: o.license_type,
    payment_method: o.payment_method,
    coupon_code: o.coupon_code,
    currency: 'USD',
    amounts_in: 'cents',
    subtotal: o.subtotal_cents,
    discount: o.discount_cents,
    // The deals' part of `discount` (issue 28).
    deal_discount: o.deal_discount_cents,
    excise_taxes: o.excise_tax_cents,
    sales_taxes: o.sales_tax_cents,
    tax_lines: taxLines
      .filter((t) => t.order_id === o.id)
      .map((t) => ({ code: t.code, title: t.title, kind: t.kind, rate: t.rate, amount: t.amount_cents })),
    shipping: o.shipping_cents,
    total: o.total_cents,
    credits_used: o.credits_used_cents,
    items: items
      .filter((it) => it.order_id === o.id)
      .map((it) => ({
        sku: it.sku,
        name: it.name,
        qty: it.qty,
        size: it.size,
        price: it.price_cents,
        row_total: it.row_total_cents,
        discount: it.discount_cents,
        deal_discount: it.deal_discount_cents,
        deals: orderLineDeals(it.deal_discounts).map((d) => ({ id: d.id, title: d.title, words: d.words, discount: d.discount_cents })),
      })),
  }));
}

export async function orderPage(db: Db, storeId: number, customerId: number, pageSize: number, currentPage: number) {
  const base = db.selectFrom('orders').where('store_id', '=', storeId).where('customer_id', '=', customerId);
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await base
    .selectAll()
    // Newest first; id breaks ties between orders of the same second.
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((currentPage - 1) * pageSize)
    .execute();
  return { items: await orderView(db, rows), total_count: Number(count?.n ?? 0), page_size: pageSize, current_page: currentPage };
}

/**
 * One order of the customer's with where it stands (issue 12): the list view plus the ready-by
 * time, when the status last changed, the timeline, why it was cancelled (and what the store said)
 * and the documents it waits for.
 */
export async function orderStatusView(db: Db, order: Row<'orders'>) {
  const [base] = await orderView(db, [order]);
  const store = await storeFacts(db, order.store_id);
  const docs =
    order.customer_id != null
      ? ((await db
          .selectFrom('customers')
          .select(['id_status', 'medcard_status', 'medcard_expiry'])
          .where('id', '=', order.customer_id)
          .executeTakeFirst()) ?? null)
      : null;
  return {
    ...base,
    ready_by: order.ready_by,
    status_changed_at: order.status_changed_at,
    timeline: orderTimeline(order, await reachedStatuses(db, order.id)),
    cancel_reason: order.cancel_reason,
    cancel_message: order.cancel_message,
    hold: FINAL_STATUSES.includes(order.status) ? [] : holdOf(order, docs, store?.timezone ?? 'UTC'),
    // The booked time slot (issue 14), labelled in the store's zone; null: as soon as possible.
    slot:
      order.slot_start && order.slot_end
        ? { start: order.slot_start, end: order.slot_end, label: slotLabel(order.slot_start, order.slot_end, store?.timezone ?? 'UTC') }
        : null,
    // Issue 29: on a started trip, "Your driver is on the way — you are stop 3, about 25 minutes"; else null.
    trip: await orderTripProgress(db, order),
  };
}
