/**
 * Row types of the store's side (migration 0010, issue 12): staff and their sessions, the order
 * history, per-store order settings, the transactional outbox and its deliveries (messages,
 * webhooks). Conventions are in ../schema.ts.
 */
import type { Generated } from 'kysely';
import type { Defaulted, Flag, JsonText, Timestamp } from './common.ts';

export type StaffRole = 'owner' | 'manager' | 'budtender' | 'driver';

export interface StaffTable {
  id: Generated<number>;
  email: string;
  name: string;
  role: StaffRole;
  /** scrypt, as customers' (users/password-hash.ts); null until the member set one. */
  password_hash: string | null;
  /** Base32 TOTP secret; active once `totp_enabled_at` is set. */
  totp_secret: string | null;
  totp_enabled_at: Timestamp | null;
  failed_logins: Defaulted<number>;
  locked_until: Timestamp | null;
  disabled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StaffStoresTable {
  staff_id: number;
  store_id: number;
}

export interface StaffSessionsTable {
  id: Generated<number>;
  staff_id: number;
  /** sha256 of the cookie's token; the token itself is never stored. */
  token_hash: string;
  csrf_token: string;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  revoked_at: Timestamp | null;
  user_agent: string | null;
  /** When the second factor was given in this session (null: not yet / not needed). */
  mfa_at: Timestamp | null;
  created_at: Timestamp;
}

export interface StaffPasswordResetsTable {
  id: Generated<number>;
  staff_id: number;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** Login tries per e-mail address (migration 0021): staff or not, keyed by the address's hash. */
export interface StaffLoginThrottleTable {
  email_hash: string;
  /** Tries taken since the last success or lock (a try is taken before the password is judged). */
  tries: Defaulted<number>;
  /** Set by the try that reaches the limit; tries are refused until then. */
  locked_until: Timestamp | null;
  updated_at: Timestamp;
}

/** One-time links mailed when a member's e-mail gets locked: the right password with one logs in through the lock. */
export interface StaffUnlockTokensTable {
  id: Generated<number>;
  staff_id: number;
  token_hash: string;
  /** Password tries taken with this link (at most 5). */
  tries: Defaulted<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export type OrderActorType = 'staff' | 'customer' | 'system' | 'api_key';

export interface OrderEventsTable {
  id: Generated<number>;
  order_id: number;
  store_id: number;
  at: Timestamp;
  actor_type: OrderActorType;
  actor_id: number | null;
  actor_name: string | null;
  /** placed | status | verification | id_checked | note | … */
  kind: string;
  from_status: string | null;
  to_status: string | null;
  data: JsonText | null;
}

export interface StoreOrderSettingsTable {
  store_id: number;
  auto_confirm: Defaulted<Flag>;
  auto_confirm_minutes: Defaulted<number>;
  pickup_window_hours: Defaulted<number>;
  /** `{ [template]: { sms?: boolean, email?: boolean } }`; absent = on. */
  notifications: Defaulted<JsonText>;
  order_email: string | null;
  updated_at: Timestamp;
}

export interface OutboxEventsTable {
  id: Generated<number>;
  /** `evt_…`, the id receivers de-duplicate on. */
  event_id: string;
  store_id: number;
  type: string;
  order_id: number | null;
  payload: JsonText;
  created_at: Timestamp;
  pushed_at: Timestamp | null;
  messages_at: Timestamp | null;
  webhooks_at: Timestamp | null;
  /** Migration 0045 (issue 32): the id of the request that wrote it, null when none did. */
  request_id: Defaulted<string | null>;
  /** The analytics consumer's column (migration 0044). */
  analytics_at: Defaulted<Timestamp | null>;
}

export type DeliveryChannel = 'sms' | 'email';

export interface MessageDeliveriesTable {
  id: Generated<number>;
  event_id: string;
  store_id: number;
  order_id: number | null;
  channel: DeliveryChannel;
  recipient: string;
  template: string;
  subject: string | null;
  body: string;
  status: 'pending' | 'sent' | 'failed';
  /** Null: transactional. `marketing` rows are held back once consent is withdrawn (migration 0033). */
  purpose: Defaulted<'marketing' | null>;
  attempts: Defaulted<number>;
  next_attempt_at: Timestamp | null;
  lease_until: Timestamp | null;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Migration 0035 (issue 30): the customer the message is for, when known. */
  customer_id: Defaulted<number | null>;
  /** The gateway that took it (`outbox` | `http`) and the id it answered with. */
  provider: Defaulted<string | null>;
  provider_id: Defaulted<string | null>;
  /** What the provider reported: null = it reports nothing. */
  receipt: Defaulted<MessageReceipt | null>;
  receipt_at: Defaulted<Timestamp | null>;
  /** The row this one stands in for (a fallback on the other channel). */
  fallback_of: Defaulted<number | null>;
  /** The same message for the other channel, rendered at planning time (null: no fallback). */
  fallback_channel: Defaulted<DeliveryChannel | null>;
  fallback_recipient: Defaulted<string | null>;
  fallback_subject: Defaulted<string | null>;
  fallback_body: Defaulted<string | null>;
}

export type MessageReceipt = 'awaiting' | 'delivered' | 'failed' | 'no_receipt';

export interface WebhookEndpointsTable {
  id: Generated<number>;
  store_id: number;
  url: string;
  description: string | null;
  /** JSON list of event types. */
  events: JsonText;
  /** `whsec_…` */
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Timestamp | null;
  disabled_at: Timestamp | null;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: string;
  endpoint_id: number;
  store_id: number;
  status: 'pending' | 'succeeded' | 'failed' | 'disabled';
  attempts: Defaulted<number>;
  next_attempt_at: Timestamp | null;
  lease_until: Timestamp | null;
  leased_by: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  started_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  node: string | null;
}

/** Where a menu change came from (menu_changes.source). */
export type MenuChangeSource = 'console' | 'import' | 'api';
/** Who made it: a staff member, an integration API key, or the command line. */
export type MenuChangeActorType = 'staff' | 'api_key' | 'cli';

/** One field of one product changed, by whom (migration 0013; menu-admin/audit.ts). Never updated. */
export interface MenuChangesTable {
  id: Generated<number>;
  store_id: number;
  product_id: number | null;
  sku: string;
  external_id: string | null;
  /** A menu-file column name (menu-import/FORMAT.md), e.g. `price`, `stock`, `orderable`, `status`. */
  field: string;
  before: string | null;
  after: string | null;
  source: MenuChangeSource;
  actor_type: MenuChangeActorType;
  actor_id: number | null;
  actor_name: string;
  /** Groups the rows of one action (one edit, one bulk action, one import, one API call). */
  batch_id: string;
  at: Timestamp;
}

/** One section of a store's settings (migration 0015; store-settings/). */
export interface StoreSettingsTable {
  store_id: number;
  /** hours | zones | tax | limits | … (store-settings/registry.ts) */
  section: string;
  /** The section's document, valid by its schema. */
  value: JsonText;
  version: number;
  updated_at: Timestamp;
}

/** Every save of a settings section: who, before, after (null before: the first save). Never updated. */
export interface StoreSettingsHistoryTable {
  id: Generated<number>;
  store_id: number;
  section: string;
  before: JsonText | null;
  after: JsonText;
  actor_type: 'staff' | 'cli';
  actor_id: number | null;
  actor_name: string;
  at: Timestamp;
}
