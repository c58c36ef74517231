/**
 * Row types of what shoppers create: customers, carts, coupons, orders, loyalty points, newsletter,
 * uploads, login codes, refresh tokens, password reset tokens and idempotency keys. Conventions are in ../schema.ts. The
 * server creates these rows, so their ids are auto-increments (`Generated`).
 */
import type { Generated } from 'kysely';
import type { DocumentStatus, LicenseType, LoyaltyLedgerKind, OrderStatus } from '@verdant/domain';
import type { Defaulted, Flag, JsonText, Timestamp } from './common.ts';

export type OrderType = 'pickup' | 'delivery';

export interface CustomersTable {
  id: Generated<number>;
  store_id: number;
  /** Unique per store; the login identifier (spec §7 login by phone). */
  phone: string;
  email: string | null;
  firstname: string | null;
  lastname: string | null;
  license_type: LicenseType;
  /** YYYY-MM-DD */
  birthday: string | null;
  group_id: Defaulted<number>;
  medcard_number: string | null;
  /** YYYY-MM-DD */
  medcard_expiry: string | null;
  id_verified: Defaulted<Flag>;
  created_from: string | null;
  password_hash: string | null;
  /**
   * When the holder of `phone` proved it with an SMS code (migration 0009). Null for accounts made
   * before registration asked for the code: password login is refused for them until the phone's
   * owner logs in by SMS code (users/proof.ts).
   */
  phone_verified_at: Defaulted<Timestamp | null>;
  /** ID and medical card as staff reviewed them against the uploads (migration 0010). */
  id_status: Defaulted<DocumentStatus>;
  id_review_reason: string | null;
  id_reviewed_by: number | null;
  id_reviewed_at: Timestamp | null;
  medcard_status: Defaulted<DocumentStatus>;
  medcard_review_reason: string | null;
  medcard_reviewed_by: number | null;
  medcard_reviewed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Migration 0042: the profile this one was merged into (it owns nothing any more), and when. */
  merged_into: Defaulted<number | null>;
  merged_at: Defaulted<Timestamp | null>;
}

/** A merge of two profiles (migration 0042): who, when, until when it may be undone, what moved. */
export interface CustomerMergesTable {
  id: Generated<number>;
  store_id: number;
  survivor_id: number;
  merged_id: number;
  staff_id: number | null;
  staff_name: string;
  merged_at: Timestamp;
  undo_until: Timestamp;
  undone_at: Timestamp | null;
  undone_by: string | null;
  /** JSON counts per table, for the console. */
  summary: JsonText;
  /** JSON list of every change (customers/merge.ts `Change`). */
  changes: JsonText;
}

/** Staff notes on a customer (migration 0041, issue 31): append-only. */
export interface CustomerNotesTable {
  id: Generated<number>;
  store_id: number;
  customer_id: number;
  staff_id: number | null;
  /** The member's name when the note was written. */
  author_name: string;
  text: string;
  created_at: Timestamp;
}

export interface CustomerAddressesTable {
  id: Generated<number>;
  customer_id: number;
  title: string | null;
  firstname: string | null;
  lastname: string | null;
  street: string;
  house_number: string | null;
  apt_ste: string | null;
  city: string;
  region: string | null;
  postcode: string;
  country_id: Defaulted<string>;
  phone: string | null;
  lat: number | null;
  lng: number | null;
  is_default: Defaulted<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CartsTable {
  id: Generated<number>;
  /** The opaque cart id a client holds (spec §7 cart token). */
  token: string;
  store_id: number;
  customer_id: number | null;
  license_type: LicenseType;
  order_type: Defaulted<OrderType>;
  coupon_code: string | null;
  /** Reward points the shopper chose to burn. */
  credits: Defaulted<number>;
  /** When an order was placed from this cart; null while it is open (migration 0007). */
  ordered_at: Timestamp | null;
  /** ZIP of the delivery address accepted at shipping-information: its zone's fee is charged (migration 0017). */
  delivery_zip: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CartItemsTable {
  id: Generated<number>;
  cart_id: number;
  sku: string;
  parent_sku: string | null;
  qty: number;
  size: number | null;
  /** spec §3 product_option (custom, configurable and bundle options) as JSON. */
  product_option: JsonText | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A percent coupon sets `discount_percent`, a fixed one `discount_cents` (checked in the table). */
export interface CouponsTable {
  id: Generated<number>;
  /** Unique, stored upper-case. */
  code: string;
  /** Null: valid in every store. */
  store_id: number | null;
  type: 'percent' | 'fixed';
  discount_percent: number | null;
  discount_cents: number | null;
  description: string | null;
  active: Defaulted<Flag>;
  from_date: Timestamp | null;
  to_date: Timestamp | null;
  max_uses: number | null;
  times_used: Defaulted<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NewsletterSubscribersTable {
  id: Generated<number>;
  store_id: number;
  email: string;
  customer_id: number | null;
  subscribed: Defaulted<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UploadsTable {
  id: Generated<number>;
  store_id: number;
  customer_id: number | null;
  kind: 'id' | 'medcard';
  /** Relative to DATA_DIR; never served publicly. */
  stored_path: string;
  original_name: string | null;
  mime: string;
  size_bytes: number;
  sha256: string;
  created_at: Timestamp;
  /** Issue 31 (migration 0040): when staff decided on the document while this was its file. */
  reviewed_at: Timestamp | null;
  /** When the image was deleted under the store's data retention (the row stays, stored_path ''). */
  purged_at: Timestamp | null;
}

export interface OrdersTable {
  id: Generated<number>;
  increment_id: string;
  store_id: number;
  customer_id: number | null;
  /** Client-generated when the order is created (offline or not): a retry returns the first order. */
  idempotency_key: string;
  status: OrderStatus;
  order_type: OrderType;
  license_type: LicenseType;
  payment_method: Defaulted<string>;
  shipping_method: Defaulted<string>;
  coupon_code: string | null;
  subtotal_cents: number;
  discount_cents: Defaulted<number>;
  excise_tax_cents: Defaulted<number>;
  sales_tax_cents: Defaulted<number>;
  shipping_cents: Defaulted<number>;
  total_cents: number;
  credits_used_cents: Defaulted<number>;
  thc_equivalent_grams: Defaulted<number>;
  /** spec §3 personal details as JSON. */
  personal_details: JsonText;
  shipping_address: JsonText | null;
  billing_address: JsonText | null;
  /** Lifecycle (migration 0010, @verdant/domain order-lifecycle). */
  ready_by: Timestamp | null;
  status_changed_at: Timestamp | null;
  cancel_reason: string | null;
  cancel_message: string | null;
  /** JSON list of the verifications the order needed when placed. */
  verification_needs: Defaulted<JsonText>;
  /** When the goods went back (cancelled / no-show): stock, points, coupon use returned once. */
  released_at: Timestamp | null;
  version: Defaulted<number>;
  /** The console queue's search keys (migration 0011, orders/console/search-keys.ts); '' when absent. */
  search_phone: Defaulted<string>;
  search_phone_rev: Defaulted<string>;
  search_name: Defaulted<string>;
  search_surname: Defaulted<string>;
  /** Age on every order (migration 0020): the date of birth checked (YYYY-MM-DD) and the minimum age applied; null before it. */
  birthday: string | null;
  minimum_age: number | null;
  /** The time slot booked (migration 0016, hours/booking.ts): ISO UTC start and end; null for ASAP. */
  slot_start: string | null;
  slot_end: string | null;
  /** When staff first opened the order in the console, and who (migration 0026); null: nobody yet ("New"). */
  opened_at: Defaulted<Timestamp | null>;
  opened_by: Defaulted<number | null>;
  /** The part of `discount_cents` that deals gave (migration 0028). */
  deal_discount_cents: Defaulted<number>;
  /** Curbside pickup (migration 0030): the first "I'm here" and the latest car description and bay; null before. */
  curbside_arrived_at: Defaulted<Timestamp | null>;
  curbside_car: Defaulted<string | null>;
  curbside_bay: Defaulted<string | null>;
  /** When the retention job reduced the order to its anonymous totals (migration 0043); null: whole. */
  purged_at: Defaulted<Timestamp | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Orders per store, order type and slot start (migration 0016): booked with a guarded update, never over capacity. */
export interface SlotBookingsTable {
  store_id: number;
  order_type: string;
  slot_start: string;
  taken: Defaulted<number>;
}

export interface OrderItemsTable {
  id: Generated<number>;
  order_id: number;
  /** The product id at order time; no foreign key, so orders outlive catalogue changes. */
  product_id: number | null;
  sku: string;
  parent_sku: string | null;
  name: string;
  type_id: string | null;
  qty: number;
  size: number | null;
  uom: string | null;
  price_cents: number;
  row_total_cents: number;
  discount_cents: Defaulted<number>;
  excise_tax_cents: Defaulted<number>;
  sales_tax_cents: Defaulted<number>;
  thc_equivalent_grams: Defaulted<number>;
  product_option: JsonText | null;
  /** The part of `discount_cents` that deals gave (migration 0028), and each deal's share: `[{code, title, discount_cents}]` JSON, null without one. */
  deal_discount_cents: Defaulted<number>;
  deal_discounts: Defaulted<JsonText | null>;
}

/** A customer's loyalty account in a store (migration 0034): the balance, never below 0. */
export interface LoyaltyAccountsTable {
  id: Generated<number>;
  customer_id: number;
  store_id: number;
  balance: Defaulted<number>;
  /** The last completed purchase: points expire counted from it. */
  last_purchase_at: Timestamp | null;
  /** When the sign-up bonus was given (or the account was carried over): given once. */
  bonus_at: Timestamp | null;
  /** The `last_purchase_at` an expiry reminder was queued for. */
  reminded_for: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}


/** Every change of a loyalty balance, with the balance after it; unique (order_id, kind). */
export interface LoyaltyLedgerTable {
  id: Generated<number>;
  customer_id: number;
  store_id: number;
  order_id: number | null;
  kind: LoyaltyLedgerKind;
  points: number;
  balance_after: number;
  note: string | null;
  created_at: Timestamp;
}

export interface AuthCodesTable {
  id: Generated<number>;
  store_id: number;
  phone: string;
  code_hash: string;
  expires_at: Timestamp;
  attempts: Defaulted<number>;
  consumed_at: Timestamp | null;
  created_at: Timestamp;
}

/** Rotating refresh tokens: reuse of a revoked token revokes its whole family. */
export interface RefreshTokensTable {
  id: Generated<number>;
  family_id: string;
  store_id: number;
  /** Null for guest sessions. */
  customer_id: number | null;
  token_hash: string;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  /** Id of the token that replaced this one. */
  replaced_by: number | null;
  created_at: Timestamp;
}

/** Single-use password reset tokens (sha256 of the token only), valid 1 hour. */
export interface PasswordResetTokensTable {
  id: Generated<number>;
  store_id: number;
  customer_id: number;
  token_hash: string;
  expires_at: Timestamp;
  /** Set when the token was used, or voided by a newer reset request. */
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  id: Generated<number>;
  /** What the key protects, e.g. `order.save`; keys are unique per scope. */
  scope: string;
  key: string;
  store_id: number;
  /** Hash of the request body, to refuse a reused key with a different payload. */
  request_hash: string | null;
  status: 'in_progress' | 'completed' | 'failed';
  http_status: number | null;
  response: JsonText | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One account deletion (migration 0039, privacy/): no personal data, only when, where and what was kept. */
export interface DataDeletionsTable {
  id: Generated<number>;
  store_id: number;
  requested_at: Timestamp;
  /** Orders kept as sales records (anonymised). */
  orders_kept: Defaulted<number>;
  uploads_removed: Defaulted<number>;
}
