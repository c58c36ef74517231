/**
 * The order lifecycle (issue 12): one state machine, as data, used by the server (which applies a
 * move as `UPDATE … WHERE status = :from`), the console (which asks it which buttons to offer) and
 * the shopper's pages (which show it as a timeline).
 *
 *   submitted ─confirm─▶ confirmed ─mark_ready─▶ ready_for_pickup ─complete─▶ completed
 *                                 └─send_out──▶ out_for_delivery ─complete─▶ completed
 *   any non-final ─cancel─▶ cancelled          ready_for_pickup ─mark_no_show─▶ no_show
 *
 * Decisions where the issue is silent (written here so the next person finds them):
 *  - `confirm` needs a ready-by time and no open verification hold (see verificationNeeds).
 *  - `mark_no_show` is for pickup orders staff marked ready, once the pickup window after the
 *    ready-by time has passed (store setting, default 24 h); the server's sweeper does the same.
 *  - `cancelled` and `no_show` both put the goods back: stock returned, points and coupon use reversed.
 *  - `complete` needs staff to confirm they checked the ID (age on the day) and, for medical
 *    orders, the medical card; both are recorded in the order's history.
 */
import type { LicenseType } from './license.ts';

export const ORDER_STATUSES = ['submitted', 'confirmed', 'ready_for_pickup', 'out_for_delivery', 'completed', 'cancelled', 'no_show'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const FINAL_STATUSES: readonly OrderStatus[] = ['completed', 'cancelled', 'no_show'];
/** Statuses that put the order's goods back on the shelf (stock, points, coupon use). */
export const RELEASING_STATUSES: readonly OrderStatus[] = ['cancelled', 'no_show'];

export type OrderKind = 'pickup' | 'delivery';

export const ORDER_ACTIONS = ['confirm', 'mark_ready', 'send_out', 'complete', 'cancel', 'mark_no_show'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export const CANCEL_REASONS = ['sold_out', 'no_show', 'no_id', 'customer_request', 'compliance', 'other'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Reason labels staff pick from. */
export const CANCEL_REASON_LABELS: Record<CancelReason, string> = {
  sold_out: 'Sold out',
  no_show: 'No show',
  no_id: 'No valid ID',
  customer_request: 'Customer request',
  compliance: 'Compliance',
  other: 'Other',
};

/** What the shopper is told for each reason when staff leave the message empty. */
export const CANCEL_REASON_MESSAGES: Record<CancelReason, string> = {
  sold_out: 'An item in your order sold out before we could prepare it.',
  no_show: 'The order was not picked up in time.',
  no_id: 'We could not verify a valid ID for this order.',
  customer_request: 'The order was cancelled at your request.',
  compliance: 'The order could not be completed for compliance reasons.',
  other: 'The store cancelled the order.',
};

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  submitted: 'Submitted',
  confirmed: 'Confirmed',
  ready_for_pickup: 'Ready for pickup',
  out_for_delivery: 'Out for delivery',
  completed: 'Completed',
  cancelled: 'Cancelled',
  no_show: 'Not picked up',
};

export const ORDER_ACTION_LABELS: Record<OrderAction, string> = {
  confirm: 'Confirm',
  mark_ready: 'Mark ready for pickup',
  send_out: 'Send out for delivery',
  complete: 'Complete',
  cancel: 'Cancel order',
  mark_no_show: 'Mark as no-show',
};

interface MoveRule {
  from: readonly OrderStatus[];
  to: OrderStatus;
  orderTypes: readonly OrderKind[];
}

/** The legal moves: the table the console and the server both read. */
export const ORDER_MOVES: Readonly<Record<OrderAction, MoveRule>> = {
  confirm: { from: ['submitted'], to: 'confirmed', orderTypes: ['pickup', 'delivery'] },
  mark_ready: { from: ['confirmed'], to: 'ready_for_pickup', orderTypes: ['pickup'] },
  send_out: { from: ['confirmed'], to: 'out_for_delivery', orderTypes: ['delivery'] },
  complete: { from: ['ready_for_pickup', 'out_for_delivery'], to: 'completed', orderTypes: ['pickup', 'delivery'] },
  cancel: { from: ['submitted', 'confirmed', 'ready_for_pickup', 'out_for_delivery'], to: 'cancelled', orderTypes: ['pickup', 'delivery'] },
  mark_no_show: { from: ['ready_for_pickup'], to: 'no_show', orderTypes: ['pickup'] },
};

export const LIFECYCLE_MESSAGES = {
  readyByRequired: 'Set a ready-by time to confirm the order.',
  readyByInPast: 'The ready-by time must be in the future.',
  readyByTooFar: 'The ready-by time must be within 7 days.',
  verificationHold: 'The customer’s documents must be verified before the order can be confirmed.',
  reasonRequired: 'Choose a reason to cancel the order.',
  idCheckRequired: 'Confirm that you checked the customer’s ID before completing the order.',
  medcardCheckRequired: 'Confirm that you checked the customer’s medical card before completing the order.',
  pickupWindowOpen: 'The pickup window has not passed yet.',
  notAllowed: (status: OrderStatus) => `This order is ${ORDER_STATUS_LABELS[status].toLowerCase()}: that step is not possible now.`,
} as const;

export const DEFAULT_PICKUP_WINDOW_HOURS = 24;

/** A ready-by may be at most this many days after the confirm. */
export const READY_BY_MAX_DAYS = 7;

export type Verification = 'id' | 'medcard';

/**
 * Which verified documents an order needs before it can be confirmed (our rule; issue 12 leaves it
 * to us): medical orders need the ID and the medical card verified (the card must belong to the
 * person); delivery orders need the ID verified (the driver hands over to a verified adult); a
 * recreational pickup needs nothing up front — the ID is checked at the counter on completion.
 */
export function verificationNeeds(order: { license_type: LicenseType; order_type: OrderKind }): Verification[] {
  if (order.license_type === 'medical') return ['id', 'medcard'];
  if (order.order_type === 'delivery') return ['id'];
  return [];
}

export type DocumentStatus = 'none' | 'pending' | 'verified' | 'rejected';

export interface CustomerDocuments {
  id_status: DocumentStatus;
  medcard_status: DocumentStatus;
  /** YYYY-MM-DD */
  medcard_expiry: string | null;
}

/**
 * The verifications still missing for an order on its date (YYYY-MM-DD in the store's zone): a
 * verified medical card that expired before the order date counts as missing.
 */
export function missingVerifications(needs: readonly Verification[], docs: CustomerDocuments | null, orderDate: string): Verification[] {
  return needs.filter((v) => {
    if (!docs) return true;
    if (v === 'id') return docs.id_status !== 'verified';
    return docs.medcard_status !== 'verified' || !docs.medcard_expiry || docs.medcard_expiry < orderDate;
  });
}

/** What a move needs besides the order's status. */
export interface MoveInput {
  /** ISO time the order will be ready by (confirm). */
  readyBy?: string | null;
  reason?: CancelReason | null;
  message?: string | null;
  idChecked?: boolean;
  medcardChecked?: boolean;
}

export interface LifecycleOrder {
  status: OrderStatus;
  order_type: OrderKind;
  license_type: LicenseType;
  /** Verifications the order still waits for (missingVerifications). */
  hold: readonly Verification[];
  /** ISO */
  ready_by: string | null;
}

export interface MoveContext {
  /** ISO now */
  now: string;
  pickupWindowHours?: number;
}

export type MoveCheck = { ok: true; to: OrderStatus } | { ok: false; code: 'not_allowed' | 'invalid'; message: string };

/** Actions the table offers for this status and order type (guards aside). */
export function actionsFrom(order: Pick<LifecycleOrder, 'status' | 'order_type'>): OrderAction[] {
  return ORDER_ACTIONS.filter((a) => ORDER_MOVES[a].from.includes(order.status) && ORDER_MOVES[a].orderTypes.includes(order.order_type));
}

/** When the pickup window of a ready order closes (ISO), or null without a ready-by time. */
export function pickupWindowEnd(readyBy: string | null, hours = DEFAULT_PICKUP_WINDOW_HOURS): string | null {
  if (!readyBy) return null;
  const t = Date.parse(readyBy);
  return Number.isFinite(t) ? new Date(t + hours * 3_600_000).toISOString() : null;
}

/** Whether `action` may move `order` now with `input`: the target status, or why not. */
export function checkMove(order: LifecycleOrder, action: OrderAction, input: MoveInput, ctx: MoveContext): MoveCheck {
  const rule = ORDER_MOVES[action];
  if (!rule.from.includes(order.status) || !rule.orderTypes.includes(order.order_type)) {
    return { ok: false, code: 'not_allowed', message: LIFECYCLE_MESSAGES.notAllowed(order.status) };
  }
  const invalid = (message: string): MoveCheck => ({ ok: false, code: 'invalid', message });
  switch (action) {
    case 'confirm': {
      if (order.hold.length) return invalid(LIFECYCLE_MESSAGES.verificationHold);
      if (!input.readyBy || !Number.isFinite(Date.parse(input.readyBy))) return invalid(LIFECYCLE_MESSAGES.readyByRequired);
      if (Date.parse(input.readyBy) <= Date.parse(ctx.now)) return invalid(LIFECYCLE_MESSAGES.readyByInPast);
      // Bounded (issue 26: a ready-by in year 275760 was accepted): an order is ready within the week.
      if (Date.parse(input.readyBy) - Date.parse(ctx.now) > READY_BY_MAX_DAYS * 86_400_000) return invalid(LIFECYCLE_MESSAGES.readyByTooFar);
      break;
    }
    case 'cancel':
      if (!input.reason || !CANCEL_REASONS.includes(input.reason)) return invalid(LIFECYCLE_MESSAGES.reasonRequired);
      break;
    case 'complete':
      if (input.idChecked !== true) return invalid(LIFECYCLE_MESSAGES.idCheckRequired);
      if (order.license_type === 'medical' && input.medcardChecked !== true) return invalid(LIFECYCLE_MESSAGES.medcardCheckRequired);
      break;
    case 'mark_no_show': {
      const end = pickupWindowEnd(order.ready_by, ctx.pickupWindowHours);
      if (!end || Date.parse(ctx.now) < Date.parse(end)) return invalid(LIFECYCLE_MESSAGES.pickupWindowOpen);
      break;
    }
    default:
      break;
  }
  return { ok: true, to: rule.to };
}

/** The buttons the console offers: every action the table allows from here, with why it is blocked (if it is). */
export function offeredActions(order: LifecycleOrder, ctx: MoveContext): { action: OrderAction; to: OrderStatus; blockedBy: string | null }[] {
  return actionsFrom(order).map((action) => {
    const to = ORDER_MOVES[action].to;
    // Guards that depend on what staff enter (time, reason, checks) are not "blocked": the form asks for them.
    if (action === 'confirm' && order.hold.length) return { action, to, blockedBy: LIFECYCLE_MESSAGES.verificationHold };
    if (action === 'mark_no_show') {
      const check = checkMove(order, action, {}, ctx);
      return { action, to, blockedBy: check.ok ? null : check.message };
    }
    return { action, to, blockedBy: null };
  });
}

export function isFinalStatus(status: OrderStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

/** One step of the shopper's timeline. */
export interface TimelineStep {
  status: OrderStatus;
  label: string;
  /** ISO time it happened; null for a step still ahead. */
  at: string | null;
  state: 'done' | 'current' | 'upcoming';
}

/**
 * The shopper's timeline: the path this order type takes, with the times each status was reached
 * (from the order's history), ending at the cancellation or no-show when that happened.
 */
export function orderTimeline(order: { status: OrderStatus; order_type: OrderKind; created_at: string }, reached: readonly { status: OrderStatus; at: string }[]): TimelineStep[] {
  const path: OrderStatus[] = ['submitted', 'confirmed', order.order_type === 'delivery' ? 'out_for_delivery' : 'ready_for_pickup', 'completed'];
  const at = new Map<OrderStatus, string>([['submitted', order.created_at]]);
  for (const r of reached) if (!at.has(r.status)) at.set(r.status, r.at);
  if (RELEASING_STATUSES.includes(order.status)) {
    const done = path.filter((s) => at.has(s)).map((s) => ({ status: s, label: ORDER_STATUS_LABELS[s], at: at.get(s) ?? null, state: 'done' as const }));
    return [...done, { status: order.status, label: ORDER_STATUS_LABELS[order.status], at: at.get(order.status) ?? null, state: 'current' }];
  }
  const current = path.indexOf(order.status);
  return path.map((s, i) => ({
    status: s,
    label: ORDER_STATUS_LABELS[s],
    at: i <= current ? (at.get(s) ?? null) : null,
    state: i < current || (i === current && s === 'completed') ? 'done' : i === current ? 'current' : 'upcoming',
  }));
}
