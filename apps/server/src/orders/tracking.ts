/**
 * Order tracking without an account (issue 12 "The shopper is told"): the route
 * (./tracking-routes.ts, POST /api/order-tracking {number, phone}) and the storefront's tracking page
 * (../ssr/order-tracking.ts) answer the order's status and timeline when the number is one of this store's orders AND the
 * phone is the order's contact phone (compared in E.164, however it was typed) — and nothing else
 * of the customer's. Every mismatch (unknown number, wrong phone, other store, unparsable phone)
 * answers the same 404 text, and an IP may try TRACKING_PER_IP_PER_MINUTE times a minute
 * (the accounts' limiter: Redis-shared when REDIS_URL is set), so numbers cannot be walked.
 */
import { ORDER_STATUS_LABELS, orderTimeline, slotLabel, type OrderStatus } from '@verdant/domain';
import { orderTripProgress } from '../delivery/progress.ts';
import { ApiError } from '../http/envelope.ts';
import { toE164 } from '../users/phone.ts';
import type { Db } from './lifecycle/store-facts.ts';

export const TRACKING_PER_IP_PER_MINUTE = 10;
export const TRACKING_WINDOW_MS = 60_000;
export const TRACKING_MESSAGES = {
  notFound: 'We could not find an order with that number and phone number.',
  tooMany: 'Too many look-ups. Please wait a minute and try again.',
} as const;

/** The statuses an order reached, from its history (the timeline's times). */
export async function reachedStatuses(db: Db, orderId: number): Promise<{ status: OrderStatus; at: string }[]> {
  const rows = await db
    .selectFrom('order_events')
    .select(['to_status', 'at'])
    .where('order_id', '=', orderId)
    .where('kind', '=', 'status')
    .orderBy('at')
    .orderBy('id')
    .execute();
  return rows.filter((r) => r.to_status != null).map((r) => ({ status: r.to_status as OrderStatus, at: r.at }));
}

/**
 * `timeZone`: the store's, for the booked slot's label (issue 14: `slot` is `{ start, end, label }`
 * with `6/15/2026 13:00 – 13:30`, or null for an order taken as soon as possible).
 */
export async function trackOrder(db: Db, storeId: number, number: string, phone: string, timeZone: string) {
  const wanted = toE164(phone);
  const order = wanted
    ? await db
        .selectFrom('orders')
        .select(['id', 'store_id', 'increment_id', 'status', 'order_type', 'created_at', 'ready_by', 'cancel_message', 'personal_details', 'slot_start', 'slot_end'])
        .where('store_id', '=', storeId)
        .where('increment_id', '=', number.toUpperCase())
        .executeTakeFirst()
    : undefined;
  let contact: string | null = null;
  try {
    contact = order ? toE164(String((JSON.parse(order.personal_details) as { phone?: string }).phone ?? '')) : null;
  } catch {
    contact = null;
  }
  if (!order || !contact || contact !== wanted) throw new ApiError(404, TRACKING_MESSAGES.notFound, { errorCode: 'order_not_found' });
  return {
    increment_id: order.increment_id,
    status: order.status,
    status_label: ORDER_STATUS_LABELS[order.status],
    order_type: order.order_type,
    created_at: order.created_at,
    ready_by: order.ready_by,
    timeline: orderTimeline(order, await reachedStatuses(db, order.id)),
    cancel_message: order.cancel_message,
    slot:
      order.slot_start && order.slot_end
        ? { start: order.slot_start, end: order.slot_end, label: slotLabel(order.slot_start, order.slot_end, timeZone) }
        : null,
    // Issue 29: on a started trip, "Your driver is on the way — you are stop 3, about 25 minutes"; else null.
    trip: await orderTripProgress(db, order),
  };
}
