/**
 * One order as staff see it (the console's detail view): lines with their tax and THC-equivalent,
 * totals, coupon and points, the customer with their age ON THE ORDER DATE (store-local) and their
 * reviewed documents, the uploads (links to the staff-only file route), the history and the moves
 * the lifecycle offers now.
 */
import { arrivalOf } from '../curbside/arrival.ts';
import { ageOn, FINAL_STATUSES, offeredActions } from '@verdant/domain';
import type { CancelReason, OrderStatus } from '@verdant/domain';
import { orderLineDeals } from '../../deals/order-lines.ts';
import type { OfferedAction, OrderDetail, OrderHistoryEntry, OrderSummary } from '@verdant/domain/console-api';
import type { Row } from '../../db/schema.ts';
import { orderTaxLines } from '../../tax/order-lines.ts';
import { orderOfStore } from '../lifecycle/transitions.ts';
import { holdOf, localDate, orderSettings, type Db, type StoreFacts } from '../lifecycle/store-facts.ts';
import { customerNameOf } from './list.ts';

/** The staff-only file route; `orderId` is recorded in the document view log (issue 31). */
export function uploadUrl(storeId: number, customerId: number, uploadId: number, orderId?: number): string {
  return `/api/console/stores/${storeId}/customers/${customerId}/uploads/${uploadId}${orderId != null ? `?order=${orderId}` : ''}`;
}

function json(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function orderDetail(db: Db, store: StoreFacts, orderId: number, now: Date) {
  const order = await orderOfStore(db, store.id, orderId);
  return detailOf(db, store, order, now);
}

/** The order as staff see it, but for what the confirm form offers (the route adds `ready_by_plan`). */
export type OrderDetailBase = Omit<OrderDetail, 'ready_by_plan'>;

export async function detailOf(db: Db, store: StoreFacts, order: Row<'orders'>, now: Date): Promise<OrderDetailBase> {
  const [items, customer, events, points, uploads, settings] = await Promise.all([
    db.selectFrom('order_items').selectAll().where('order_id', '=', order.id).orderBy('id').execute(),
    order.customer_id != null
      ? db.selectFrom('customers').selectAll().where('id', '=', order.customer_id).executeTakeFirst()
      : Promise.resolve(undefined),
    db.selectFrom('order_events').selectAll().where('order_id', '=', order.id).orderBy('at').orderBy('id').execute(),
    db.selectFrom('loyalty_ledger').select(['kind', 'points']).where('order_id', '=', order.id).execute(),
    order.customer_id != null
      ? db
          .selectFrom('uploads')
          .select(['id', 'kind', 'mime', 'created_at', 'reviewed_at', 'purged_at'])
          .where('customer_id', '=', order.customer_id)
          .where('store_id', '=', store.id)
          .orderBy('id', 'desc')
          .execute()
      : Promise.resolve([]),
    orderSettings(db, store.id),
  ]);
  const who = customerNameOf(order.personal_details);
  const orderDate = localDate(order.created_at, store.timezone);
  const docs = customer
    ? { id_status: customer.id_status, medcard_status: customer.medcard_status, medcard_expiry: customer.medcard_expiry }
    : null;
  const hold = FINAL_STATUSES.includes(order.status) ? [] : holdOf(order, docs, store.timezone);
  // Age on every order (issue 14): the birthday the order was accepted with (migration 0020); an
  // older order has none, and shows the account's birthday as before.
  const birthday = order.birthday ?? customer?.birthday ?? null;
  const age = birthday ? ageOn(birthday, new Date(`${orderDate}T00:00:00Z`)) : null;
  const summary: OrderSummary = {
    id: order.id,
    increment_id: order.increment_id,
    status: order.status,
    order_type: order.order_type,
    license_type: order.license_type,
    created_at: order.created_at,
    ready_by: order.ready_by,
    slot_start: order.slot_start,
    slot_end: order.slot_end,
    opened_at: order.opened_at ?? null,
    curbside: arrivalOf(order),
    customer_name: who.name,
    phone: who.phone,
    total_cents: order.total_cents,
    item_count: items.reduce((n, i) => n + i.qty, 0),
    hold,
    version: order.version,
  };
  const actions: OfferedAction[] = offeredActions(
    { status: order.status, order_type: order.order_type, license_type: order.license_type, hold, ready_by: order.ready_by },
    { now: now.toISOString(), pickupWindowHours: settings.pickup_window_hours },
  );
  return {
    ...summary,
    items: items.map((i) => ({
      sku: i.sku,
      name: i.name,
      qty: i.qty,
      size: i.size,
      uom: i.uom,
      price_cents: i.price_cents,
      row_total_cents: i.row_total_cents,
      discount_cents: i.discount_cents,
      deal_discount_cents: i.deal_discount_cents,
      deals: orderLineDeals(i.deal_discounts),
      excise_tax_cents: i.excise_tax_cents,
      sales_tax_cents: i.sales_tax_cents,
      thc_equivalent_grams: i.thc_equivalent_grams,
    })),
    totals: {
      subtotal: order.subtotal_cents,
      discount: order.discount_cents,
      deal_discount: order.deal_discount_cents,
      excise_taxes: order.excise_tax_cents,
      sales_taxes: order.sales_tax_cents,
      shipping: order.shipping_cents,
      total: order.total_cents,
      credits_used: order.credits_used_cents,
    },
    // Every named tax line as charged (issue 14); none on orders placed before migration 0018.
    tax_lines: await orderTaxLines(db, order.id),
    coupon_code: order.coupon_code,
    points: {
      used: order.credits_used_cents,
      // Credited when the order is completed (issue 30); 0 before.
      earned: points.filter((p) => p.kind === 'earn').reduce((s, p) => s + Number(p.points), 0),
    },
    thc_equivalent_grams: order.thc_equivalent_grams,
    // The server's age check as made when the order was placed: date of birth, age on the order
    // date in the store's zone, the minimum applied (21, or the store's medical minimum). Null on
    // orders placed before every order carried a date of birth.
    age_check:
      order.birthday != null && order.minimum_age != null && age != null
        ? { birthday: order.birthday, order_date: orderDate, age, minimum_age: order.minimum_age, passed: age >= order.minimum_age }
        : null,
    customer: {
      id: customer?.id ?? null,
      name: who.name,
      phone: who.phone || customer?.phone || '',
      email: who.email ?? customer?.email ?? null,
      license_type: order.license_type,
      birthday,
      age_on_order_date: age,
      medcard_number: customer?.medcard_number ?? null,
      medcard_expiry: customer?.medcard_expiry ?? null,
      id_status: customer?.id_status ?? 'none',
      medcard_status: customer?.medcard_status ?? 'none',
      id_review_reason: customer?.id_review_reason ?? null,
      medcard_review_reason: customer?.medcard_review_reason ?? null,
    },
    uploads: uploads.map((u) => ({
      id: u.id,
      kind: u.kind,
      mime: u.mime,
      created_at: u.created_at,
      reviewed_at: u.reviewed_at,
      deleted_at: u.purged_at,
      url: uploadUrl(store.id, order.customer_id as number, u.id, order.id),
    })),
    shipping_address: json(order.shipping_address),
    notes: null as string | null,
    // Written only from CANCEL_REASONS and ORDER_STATUSES (the columns are text).
    cancel_reason: order.cancel_reason as CancelReason | null,
    cancel_message: order.cancel_message,
    history: events.map((e): OrderHistoryEntry => ({
      at: e.at,
      actor_type: e.actor_type,
      actor_name: e.actor_name,
      kind: e.kind,
      from_status: e.from_status as OrderStatus | null,
      to_status: e.to_status as OrderStatus | null,
      data: json(e.data) as Record<string, unknown> | null,
    })),
    actions,
  };
}

export type { OrderDetail } from '@verdant/domain/console-api';
