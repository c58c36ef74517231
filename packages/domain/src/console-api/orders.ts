/**
 * The console's order routes (apps/server/src/orders/console-routes.ts, under
 * /stores/:storeId): the queue, one order, its moves, "opened", document review, the daily report,
 * the order settings and the message log.
 */
import { z } from 'zod';
import type { CurbsideArrival } from '../curbside.ts';
import {
  CANCEL_REASONS,
  ORDER_ACTIONS,
  ORDER_STATUSES,
  type CancelReason,
  type DocumentStatus,
  type OrderAction,
  type OrderStatus,
  type Verification,
} from '../order-lifecycle.ts';
import type { ReadyByPlan } from '../ready-by.ts';
import { dateSchema, dbId } from './fields.ts';

/** GET /orders: the queue's filters, search, cursor and order. */
export const orderListQuery = z.object({
  status: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(',').filter(Boolean) : undefined))
    .pipe(z.array(z.enum(ORDER_STATUSES)).optional()),
  type: z.enum(['pickup', 'delivery']).optional(),
  /** YYYY-MM-DD, store-local, inclusive. */
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  q: z.string().trim().max(100).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /**
   * `newest` (default): newest first. `slot` (issue 26): by when the order is due — its booked slot's
   * start, an ASAP order by when it was placed — earliest first.
   */
  sort: z.enum(['newest', 'slot']).optional(),
});
/** The query as the handler reads it (after parsing). */
export type OrderQuery = z.output<typeof orderListQuery>;

/** One order in the queue. */
export interface OrderSummary {
  id: number;
  increment_id: string;
  status: OrderStatus;
  order_type: 'pickup' | 'delivery';
  license_type: 'recreational' | 'medical';
  created_at: string;
  ready_by: string | null;
  /** The booked time slot (issue 14, ISO instants); null: as soon as possible. */
  slot_start?: string | null;
  slot_end?: string | null;
  /** A delivery order's address as the shopper gave it (issue 26: the queue shows it whole); null for pickup. */
  shipping_address?: unknown;
  /** When staff first opened it (issue 26); null: nobody yet — "New" while it waits to be confirmed. */
  opened_at?: string | null;
  /** The shopper's curbside arrival (issue 29): when they first said "I'm here", their car and bay; null: not arrived. */
  curbside?: CurbsideArrival | null;
  customer_name: string;
  phone: string;
  total_cents: number;
  item_count: number;
  /** The documents the order waits for (empty once final). */
  hold: Verification[];
  version: number;
}

/** GET /orders. */
export interface OrderList {
  items: OrderSummary[];
  nextCursor: string | null;
  /** Per status, with every filter but the status one (the queue's tabs). */
  counts: Record<OrderStatus, number>;
}

export interface OrderLine {
  sku: string;
  name: string;
  qty: number;
  /** The size id of the line (a weight in grams, see sizes.ts); null for a unit item. */
  size: number | null;
  uom: string | null;
  price_cents: number;
  row_total_cents: number;
  discount_cents: number;
  /** The deals' part of `discount_cents` and each deal's share (issue 28; absent on answers from before deals). */
  deal_discount_cents?: number;
  deals?: { id: string; title: string; words: string | null; discount_cents: number }[];
  excise_tax_cents: number;
  sales_tax_cents: number;
  thc_equivalent_grams: number | null;
}

/** A named tax line as charged on an order (issue 14). */
export interface OrderTaxLine {
  code: string;
  title: string;
  kind: 'excise' | 'sales';
  rate: number;
  taxable_cents: number;
  amount_cents: number;
}

export type DocumentState = DocumentStatus;

/** Age on every order (issue 14): the server's age check of the order, as made when it was placed. */
export interface OrderAgeCheck {
  birthday: string;
  /** The order date in the store's time zone (YYYY-MM-DD). */
  order_date: string;
  age: number;
  minimum_age: number;
  passed: boolean;
}

export interface OrderCustomer {
  id: number | null;
  name: string;
  phone: string;
  email: string | null;
  license_type: 'recreational' | 'medical';
  birthday: string | null;
  age_on_order_date: number | null;
  medcard_number: string | null;
  medcard_expiry: string | null;
  id_status: DocumentStatus;
  medcard_status: DocumentStatus;
  id_review_reason: string | null;
  medcard_review_reason: string | null;
}

export type OrderActorType = 'staff' | 'customer' | 'system' | 'api_key';

export interface OrderHistoryEntry {
  at: string;
  actor_type: OrderActorType;
  actor_name: string | null;
  kind: string;
  from_status: OrderStatus | null;
  to_status: OrderStatus | null;
  /** The move's details as recorded (ready-by, reason, message, checks, a document decision), or null. */
  data: Record<string, unknown> | null;
}

/** A move the lifecycle offers now, or why it is blocked. */
export interface OfferedAction {
  action: OrderAction;
  to: OrderStatus;
  blockedBy: string | null;
}

/** GET /orders/:orderId, and the answer of a move. */
export interface OrderDetail extends OrderSummary {
  items: OrderLine[];
  totals: {
    subtotal: number;
    discount: number;
    /** The deals' part of `discount` (issue 28). */
    deal_discount?: number;
    excise_taxes: number;
    sales_taxes: number;
    shipping: number;
    total: number;
    credits_used: number;
  };
  /** The named tax lines as charged (issue 14); empty on older orders. */
  tax_lines: OrderTaxLine[];
  coupon_code: string | null;
  points: { used: number; earned: number };
  thc_equivalent_grams: number | null;
  customer: OrderCustomer;
  /** Null on orders placed before every order carried a date of birth (issue 14). */
  age_check: OrderAgeCheck | null;
  /**
   * `url` is GET /customers/:customerId/uploads/:uploadId?order=: the file itself (its own type, never
   * cached; each fetch is written to the document view log). `reviewed_at`: the decision the retention
   * period runs from; `deleted_at`: the image was deleted under the store's data retention (issue 31).
   */
  uploads: { id: number; kind: string; mime: string; created_at: string; reviewed_at: string | null; deleted_at: string | null; url: string }[];
  shipping_address: unknown;
  notes: string | null;
  /** What the confirm form offers (issue 26); null unless the order waits to be confirmed. */
  ready_by_plan: ReadyByPlan | null;
  cancel_reason: CancelReason | null;
  cancel_message: string | null;
  history: OrderHistoryEntry[];
  actions: OfferedAction[];
}

/** POST /orders/:orderId/transitions. */
export const transitionBody = z.object({
  action: z.enum(ORDER_ACTIONS),
  readyBy: z.string().max(40).optional().nullable(),
  reason: z.enum(CANCEL_REASONS).optional().nullable(),
  message: z.string().max(500).optional().nullable(),
  idChecked: z.boolean().optional(),
  medcardChecked: z.boolean().optional(),
  /** "Store closed — confirm anyway" (issue 26): a ready-by outside the store's hours is refused without it. */
  confirmClosed: z.boolean().optional(),
});
export type TransitionRequest = z.input<typeof transitionBody>;

/** POST /orders/:orderId/opened. */
export interface OpenedResult {
  opened_at: string;
  /** True for the call that opened it first. */
  first: boolean;
}

/** POST /customers/:customerId/verification. */
export const verificationBody = z.object({
  document: z.enum(['id', 'medcard']),
  decision: z.enum(['verified', 'rejected']),
  reason: z.string().max(500).optional().nullable(),
  medcardExpiry: dateSchema.optional().nullable(),
  medcardNumber: z.string().trim().min(2).max(64).optional().nullable(),
});
export type VerificationRequestBody = z.input<typeof verificationBody>;

export interface VerificationResult {
  customer: {
    id: number;
    id_status: DocumentStatus;
    medcard_status: DocumentStatus;
    medcard_number: string | null;
    medcard_expiry: string | null;
    id_review_reason: string | null;
    medcard_review_reason: string | null;
  };
  /** Ids of the open orders that were told. */
  orderIds: number[];
  /** Ids of the open orders this decision released from their hold. */
  releasedOrderIds: number[];
}

/** At most this many days per report (a year and a bit): one query, one response. */
export const MAX_REPORT_DAYS = 400;

/** GET /reports/daily and GET /reports/daily.csv (the same rows as a CSV file). */
export const reportQuery = z
  .object({ from: dateSchema, to: dateSchema })
  .refine((q) => q.from <= q.to, 'from must not be after to.')
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < MAX_REPORT_DAYS, `At most ${MAX_REPORT_DAYS} days per report.`);
export type ReportQuery = z.input<typeof reportQuery>;

export interface DailyRow {
  date: string;
  orders: number;
  gross_cents: number;
  discount_cents: number;
  excise_tax_cents: number;
  sales_tax_cents: number;
  /** The delivery fees charged (the shipping method's price, tax included). */
  delivery_fee_cents: number;
  total_cents: number;
}
export type ReportRow = DailyRow;

/** A named tax line over the report's range (issue 14): code, title and rate as charged, with its taxable amount and orders. */
export interface TaxReportLine extends OrderTaxLine {
  orders: number;
}
export type ReportTaxLine = TaxReportLine;

/** A deal over the report's range (issue 28): the discount it gave on the report's orders, and on how many of them. */
export interface DealReportLine {
  id: string;
  title: string;
  orders: number;
  discount_cents: number;
}

/** GET /reports/daily. */
export interface DailyReport {
  rows: DailyRow[];
  tax_lines: TaxReportLine[];
  /** Each deal's part of the discounts column (issue 28). */
  deals?: DealReportLine[];
}

export const NOTIFICATION_TEMPLATES = ['order_confirmed', 'order_ready_for_pickup', 'order_out_for_delivery', 'order_cancelled'] as const;
export type NotificationTemplate = (typeof NOTIFICATION_TEMPLATES)[number];

/** GET /settings/orders and PUT /settings/orders. */
export interface OrderSettings {
  auto_confirm: boolean;
  auto_confirm_minutes: number;
  pickup_window_hours: number;
  notifications: Record<NotificationTemplate, { sms: boolean; email: boolean }>;
  order_email: string | null;
}

const toggle = z.object({ sms: z.boolean(), email: z.boolean() }).strict();

/** PUT /settings/orders: any subset of the fields; what is not sent keeps its value. */
export const orderSettingsBody = z
  .object({
    auto_confirm: z.boolean(),
    auto_confirm_minutes: z
      .number()
      .int()
      .min(5, 'At least 5 minutes.')
      .max(24 * 60, 'At most 24 hours.'),
    pickup_window_hours: z
      .number()
      .int()
      .min(1, 'At least 1 hour.')
      .max(24 * 14, 'At most 14 days.'),
    notifications: z.partialRecord(z.enum(NOTIFICATION_TEMPLATES), toggle),
    order_email: z.email('Please provide a valid e-mail address.').max(254).nullable(),
  })
  .partial()
  .strict();
export type OrderSettingsRequest = z.input<typeof orderSettingsBody>;

/** GET /messages?orderId=&limit=: the store's SMS and e-mail log, newest first. */
export const messagesQuery = z.object({
  orderId: dbId().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export interface MessageDeliveryView {
  id: number;
  event_id: string;
  order_id: number | null;
  channel: 'sms' | 'email';
  recipient: string;
  template: string;
  subject: string | null;
  body: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
  /** Issue 30: the gateway that took it (`outbox` | `http`) and its id for the message. */
  provider: string | null;
  provider_id: string | null;
  /** What the provider reported (null: it reports nothing) and when. */
  receipt: 'awaiting' | 'delivered' | 'failed' | 'no_receipt' | null;
  receipt_at: string | null;
  /** This row is the fallback of that one (the other channel). */
  fallback_of: number | null;
  /** The one state to show: queued, sent, delivered, failed, no receipt, or not sent (reason in `last_error`). */
  state: MessageState;
}

export type MessageState = 'queued' | 'sent' | 'awaiting' | 'delivered' | 'failed' | 'no_receipt' | 'not_sent';

/** The one state of a message row, from the sender's status and the provider's receipt. */
export function messageState(m: { status: 'pending' | 'sent' | 'failed'; receipt: MessageDeliveryView['receipt']; last_error: string | null }): MessageState {
  if (m.status === 'pending') return 'queued';
  // Held back (consent: "Not sent: …") or given up after the retries.
  if (m.status === 'failed') return m.last_error?.startsWith('Not sent') ? 'not_sent' : 'failed';
  if (m.receipt === 'delivered') return 'delivered';
  if (m.receipt === 'failed') return 'failed';
  if (m.receipt === 'no_receipt') return 'no_receipt';
  if (m.receipt === 'awaiting') return 'awaiting';
  return 'sent';
}

/** GET /messages. */
export interface MessageList {
  items: MessageDeliveryView[];
}
