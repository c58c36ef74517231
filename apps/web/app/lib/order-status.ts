/**
 * The shopper's view of an order's status (issue 12 "The shopper is told"): what the account's
 * order page, the thank-you page and /order-tracking show and announce. Pure, so the words and
 * times are tested without a browser and render the same on the server and in the browser.
 */
import {
  ORDER_STATUS_LABELS,
  formatDateTime,
  isFinalStatus,
  isOrderStatus,
  orderTimeline,
  type OrderKind,
  type TimelineStep,
} from '@verdant/domain';

export type Hold = 'id' | 'medcard';

/** What every status source (account order, order tracking, placed order) gives the timeline. */
export interface OrderStatusView {
  status: string;
  status_label?: string;
  order_type: OrderKind;
  created_at: string;
  /** ISO; set once the store confirmed the order. */
  ready_by?: string | null;
  timeline?: TimelineStep[];
  cancel_reason?: string | null;
  cancel_message?: string | null;
  /** Verifications the order waits for (never sent to a guest's order tracking). */
  hold?: Hold[];
  /**
   * Issue 29: the delivery's progress on a started trip ("Your driver is on the way — you are stop 3,
   * about 25 minutes", @verdant/domain trip-progress.ts); null or absent: nothing is said about a trip.
   */
  trip?: { stop: number; minutes: number; text: string } | null;
}

/** The trip's progress while the order is out for delivery, else null. */
export function tripProgressOf(order: OrderStatusView): OrderStatusView['trip'] {
  return order.status === 'out_for_delivery' && order.trip ? order.trip : null;
}

export function statusLabel(order: Pick<OrderStatusView, 'status' | 'status_label'>): string {
  if (order.status_label) return order.status_label;
  return isOrderStatus(order.status) ? ORDER_STATUS_LABELS[order.status] : order.status;
}

/** The server's timeline; an answer without one (placed-order answers) gets the domain's path with no history. */
export function timelineOf(order: OrderStatusView): TimelineStep[] {
  if (order.timeline?.length) return order.timeline;
  if (!isOrderStatus(order.status)) return [];
  return orderTimeline({ status: order.status, order_type: order.order_type, created_at: order.created_at }, []);
}

/** Polling stops at a final status: nothing will change any more. */
export function isSettled(order: Pick<OrderStatusView, 'status'>): boolean {
  return isOrderStatus(order.status) && isFinalStatus(order.status);
}

/** `11/25/2026 17:40` (spec §1, M/D/YYYY HH:mm) in the store's time zone: when a step of the timeline happened. */
export function stepTime(iso: string, timeZone: string): string {
  if (Number.isNaN(new Date(iso).getTime())) return '';
  return formatDateTime(iso, timeZone);
}

/**
 * `Ready by 11/26/2026 17:40`: always with the date (spec §1, M/D/YYYY HH:mm) in the store's time
 * zone, so the server's render and the browser's agree whatever their clocks say.
 */
export function readyByText(readyBy: string, timeZone: string): string {
  const when = stepTime(readyBy, timeZone);
  return when ? `Ready by ${when}` : '';
}

/** The ready-by time is shown while it still means something: confirmed and on its way. */
export function showsReadyBy(order: OrderStatusView): boolean {
  return !!order.ready_by && (order.status === 'confirmed' || order.status === 'ready_for_pickup' || order.status === 'out_for_delivery');
}

const HOLD_WORDS: Record<Hold, string> = { id: 'ID', medcard: 'medical card' };

/** `We need to verify your ID and medical card` for an order held for verification, else null. */
export function holdText(hold: readonly Hold[] | undefined): string | null {
  if (!hold?.length) return null;
  const words = hold.map((h) => HOLD_WORDS[h]);
  return `We need to verify your ${words.join(' and ')} before the store can confirm your order.`;
}

/**
 * What the live region says when the status moved while the page was open (null when it did
 * not): `Your order is now Confirmed. Ready by 11/25/2026 17:40.`
 */
export function statusAnnouncement(previous: OrderStatusView | null, next: OrderStatusView, timeZone: string): string | null {
  if (!previous) return null;
  // Issue 29: a stop ahead was recorded (the stop number moved): say where the delivery is now.
  const trip = tripProgressOf(next);
  if (trip && (previous.status !== next.status || tripProgressOf(previous)?.stop !== trip.stop)) return `${trip.text}.`;
  if (previous.status === next.status) return null;
  const readyBy = next.status === 'confirmed' && next.ready_by ? ` ${readyByText(next.ready_by, timeZone)}.` : '';
  return `Your order is now ${statusLabel(next)}.${readyBy}`;
}

/**
 * How often an open page asks again. The account's call is the shopper's own (5 s); order
 * tracking shares the lookup limit of 10 a minute per address with the form itself, so an open
 * result asks every 15 s and leaves room for lookups.
 */
export const LIVE_POLL_MS = { account: 5_000, tracking: 15_000 } as const;
