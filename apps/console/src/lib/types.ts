/** The console API's shapes (the contract in the issue-12 brief). */
import type { CancelReason, OrderAction, OrderStatus, ReadyByPlan } from '@verdant/domain';

export type Role = 'owner' | 'manager' | 'budtender';

export interface StaffView {
  id: number;
  email: string;
  name: string;
  role: Role;
  storeIds: number[];
  totpEnabled: boolean;
  disabled?: boolean;
  /** Invited, no password set yet: the Staff page offers "Resend invite". */
  invitePending?: boolean;
}

export interface SessionAnswer {
  staff: StaffView;
  csrfToken: string;
}

export interface ConsoleStore {
  id: number;
  code: string;
  name: string;
  timezone: string;
}

export type Hold = 'id' | 'medcard';

export interface OrderSummary {
  id: number;
  increment_id: string;
  status: OrderStatus;
  order_type: 'pickup' | 'delivery';
  license_type: 'recreational' | 'medical';
  created_at: string;
  ready_by: string | null;
  /** The booked time slot (issue 14); null or absent: as soon as possible. */
  slot_start?: string | null;
  slot_end?: string | null;
  /** A delivery order's address (issue 26); null or absent for pickup. */
  shipping_address?: unknown;
  /** When staff first opened it (issue 26); null: nobody yet — "New". */
  opened_at?: string | null;
  customer_name: string;
  phone: string;
  total_cents: number;
  item_count: number;
  hold: Hold[];
  version: number;
}

export interface OrderList {
  items: OrderSummary[];
  nextCursor: string | null;
  counts: Partial<Record<OrderStatus, number>>;
}

export interface OrderLine {
  sku: string;
  name: string;
  qty: number;
  size: string | null;
  uom: string | null;
  price_cents: number;
  row_total_cents: number;
  discount_cents: number;
  excise_tax_cents: number;
  sales_tax_cents: number;
  thc_equivalent_grams: number | null;
}

export type DocumentState = 'none' | 'pending' | 'verified' | 'rejected';

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
  id_status: DocumentState;
  medcard_status: DocumentState;
  id_review_reason: string | null;
  medcard_review_reason: string | null;
}

export interface OrderHistoryEntry {
  at: string;
  actor_type: 'staff' | 'customer' | 'system' | 'api_key';
  actor_name: string | null;
  kind: string;
  from_status: OrderStatus | null;
  to_status: OrderStatus | null;
  data: Record<string, unknown> | null;
}

export interface OrderDetail extends OrderSummary {
  items: OrderLine[];
  totals: {
    subtotal: number;
    discount: number;
    excise_taxes: number;
    sales_taxes: number;
    shipping: number;
    total: number;
    credits_used: number;
  };
  /** The named tax lines as charged (issue 14); empty on older orders. */
  tax_lines?: { code: string; title: string; kind: 'excise' | 'sales'; rate: number; taxable_cents: number; amount_cents: number }[];
  coupon_code: string | null;
  points: { used: number; earned: number };
  thc_equivalent_grams: number | null;
  customer: OrderCustomer;
  /** Null on orders placed before every order carried a date of birth (issue 14). */
  age_check: OrderAgeCheck | null;
  uploads: { id: number; kind: string; mime: string; created_at: string; url: string }[];
  shipping_address: unknown;
  notes: string | null;
  /** What the confirm form offers (issue 26); null unless the order waits to be confirmed. */
  ready_by_plan?: ReadyByPlan | null;
  cancel_reason: CancelReason | null;
  cancel_message: string | null;
  history: OrderHistoryEntry[];
  actions: { action: OrderAction; to: OrderStatus; blockedBy: string | null }[];
}

export interface OrderSettings {
  auto_confirm: boolean;
  auto_confirm_minutes: number;
  pickup_window_hours: number;
  notifications: Record<string, { sms: boolean; email: boolean }>;
  order_email: string | null;
}

export interface ReportRow {
  date: string;
  orders: number;
  gross_cents: number;
  discount_cents: number;
  excise_tax_cents: number;
  sales_tax_cents: number;
  delivery_fee_cents: number;
  total_cents: number;
}

/** A named tax line over the report's range (issue 14): code, title and rate as charged, with its taxable amount and orders. */
export interface ReportTaxLine {
  code: string;
  title: string;
  kind: 'excise' | 'sales';
  rate: number;
  taxable_cents: number;
  amount_cents: number;
  orders: number;
}

export interface WebhookEndpoint {
  id: number;
  url: string;
  events: string[];
  description: string | null;
  disabled: boolean;
  disabled_reason?: string | null;
  previous_secret_until?: string | null;
  /** Only in the answer that created or rotated it. */
  secret?: string;
  created_at?: string;
}

export interface WebhookAttempt {
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface WebhookDelivery {
  id: number;
  event_id: string;
  event_type: string | null;
  status: 'pending' | 'succeeded' | 'failed' | 'disabled';
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
  attempt_log: WebhookAttempt[];
}
