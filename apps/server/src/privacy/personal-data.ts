/**
 * The personal-data registry (issue 31): for EVERY table, what it holds about a customer, what the
 * shopper's export includes, and what deleting the account does to it:
 *   - none:      holds nothing about a customer (catalogue, staff, settings, counters);
 *   - delete:    the customer's rows go;
 *   - anonymise: the rows stay (others depend on them) with the named columns cleared or replaced;
 *   - keep:      sales records the law makes the store keep (CA 4 CCR § 15037: seven years), kept
 *                with what is not needed for the record anonymised (`anonymised` lists it).
 * docs/operators/privacy.md says the same for the operator. The registry is a `Record` over every
 * table name, so a new table does not compile without an entry; `personal-data.test.ts` also reads
 * the live schema of both databases and fails on a table with a customer, phone, e-mail or contact
 * column whose entry says `none`.
 *
 * Reusable: `export` and `erase` take the subject (privacy/subject.ts) and a database or a
 * transaction, so a profile merge can walk the same entries (the tables with `customer_id`).
 */
import { createHmac } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { Database, TableName } from '../db/schema.ts';
import { recomputeStats } from '../reviews/service.ts';
import { identifiersOf, redactJson, type Db, type Subject } from './subject.ts';

/** Years the store keeps its sales records (CA 4 CCR § 15037(a): seven years). Shown to the shopper. */
export const SALES_RECORD_RETENTION_YEARS = 7;

export type Deletion = 'none' | 'delete' | 'anonymise' | 'keep';

export interface EraseContext {
  iso: string;
  /** Pseudonymises a contact kept in the consent ledger (HMAC with the server's secret: not reversible without it). */
  pseudonym: (contact: string) => string;
}

export interface PersonalDataRule {
  /** What the table holds about a customer; null: nothing. */
  holds: string | null;
  deletion: Deletion;
  /** Columns deletion clears or replaces (anonymise and keep). */
  anonymised?: readonly string[];
  /** Why: the rule, the law or the dependency. */
  why: string;
  /** The customer's rows for the export (absent: not exported). Secrets (hashes) are left out. */
  export?: (db: Db, s: Subject) => Promise<Record<string, unknown>[]>;
  /** Run inside the deletion's transaction. */
  erase?: (trx: Db, s: Subject, ctx: EraseContext) => Promise<void>;
}

const NONE = (why: string): PersonalDataRule => ({ holds: null, deletion: 'none', why });
const CATALOGUE = NONE('Catalogue data: products, prices, taxes, pages.');
const STAFF = NONE("Staff members' own data, not a shopper's.");
const none = <T>(list: readonly T[]) => list.length === 0;

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Rows of `table` of this store whose text `column` contains one of the needles (LIKE … ESCAPE '\'). */
function containing(needles: readonly string[]) {
  return needles.map((n) => `%${escapeLike(n)}%`);
}

export const PERSONAL_DATA: Record<TableName, PersonalDataRule> = {
  stores: NONE('The store itself.'),
  catalog_sources: CATALOGUE,
  attributes: CATALOGUE,
  categories: CATALOGUE,
  products: CATALOGUE,
  product_categories: CATALOGUE,
  product_media: CATALOGUE,
  product_attribute_values: CATALOGUE,
  product_configurable_options: CATALOGUE,
  product_configurable_option_values: CATALOGUE,
  bundle_options: CATALOGUE,
  product_links: CATALOGUE,
  custom_options: CATALOGUE,
  custom_option_values: CATALOGUE,
  stock: CATALOGUE,
  product_prices: CATALOGUE,
  tier_prices: CATALOGUE,
  qty_discounts: CATALOGUE,
  tax_rules: CATALOGUE,
  tax_rates: CATALOGUE,
  cms_pages: CATALOGUE,
  cms_blocks: CATALOGUE,
  url_rewrites: CATALOGUE,

  customers: {
    holds: 'The account: phone, e-mail, name, birthday, licence, medical card, document review.',
    deletion: 'delete',
    why: 'The account itself; nothing of it is a sales record.',
    export: async (db, s) => {
      const row = await db.selectFrom('customers').selectAll().where('id', '=', s.customerId).executeTakeFirstOrThrow();
      const { password_hash, ...rest } = row;
      return [{ ...rest, has_password: password_hash != null }];
    },
    erase: async (trx, s) => {
      await trx.deleteFrom('customers').where('id', '=', s.customerId).where('store_id', '=', s.storeId).execute();
    },
  },
  customer_addresses: {
    holds: 'Saved addresses with recipient names and phones.',
    deletion: 'delete',
    why: 'Saved for convenience only.',
    export: (db, s) => db.selectFrom('customer_addresses').selectAll().where('customer_id', '=', s.customerId).orderBy('id').execute(),
    erase: async (trx, s) => {
      await trx.deleteFrom('customer_addresses').where('customer_id', '=', s.customerId).execute();
    },
  },
  carts: {
    holds: 'Carts of the account (open and ordered), the delivery ZIP.',
    deletion: 'delete',
    why: 'A cart is not a sales record: the order is.',
    export: async (db, s) =>
      none(s.cartIds) ? [] : (await db.selectFrom('carts').selectAll().where('id', 'in', s.cartIds).orderBy('id').execute()).map(({ token: _token, ...r }) => r),
    erase: async (trx, s) => {
      if (none(s.cartIds)) return;
      await trx.deleteFrom('cart_items').where('cart_id', 'in', s.cartIds).execute();
      await trx.deleteFrom('carts').where('id', 'in', s.cartIds).execute();
    },
  },
  cart_items: {
    holds: "What is in the account's carts.",
    deletion: 'delete',
    why: 'Goes with its cart (carts).',
    export: (db, s) => (none(s.cartIds) ? Promise.resolve([]) : db.selectFrom('cart_items').selectAll().where('cart_id', 'in', s.cartIds).orderBy('id').execute()),
    erase: async (trx, s) => {
      if (!none(s.cartIds)) await trx.deleteFrom('cart_items').where('cart_id', 'in', s.cartIds).execute();
    },
  },
  coupons: NONE('Coupon definitions; the code an order used is on the order.'),
  newsletter_subscribers: {
    holds: 'The newsletter subscription: e-mail.',
    deletion: 'delete',
    why: 'Marketing; ends with the account.',
    export: (db, s) =>
      db
        .selectFrom('newsletter_subscribers')
        .selectAll()
        .where('store_id', '=', s.storeId)
        .where((eb) => (s.email ? eb.or([eb('customer_id', '=', s.customerId), eb('email', '=', s.email)]) : eb('customer_id', '=', s.customerId)))
        .orderBy('id')
        .execute(),
    erase: async (trx, s) => {
      await trx
        .deleteFrom('newsletter_subscribers')
        .where('store_id', '=', s.storeId)
        .where((eb) => (s.email ? eb.or([eb('customer_id', '=', s.customerId), eb('email', '=', s.email)]) : eb('customer_id', '=', s.customerId)))
        .execute();
    },
  },
  uploads: {
    holds: 'ID and medical card images (files under DATA_DIR/private/uploads) and their names.',
    deletion: 'delete',
    why: 'Oregon SB 863 forbids keeping ID data at all; no state asks an online store to keep the image. The files go after the commit.',
    export: (db, s) => db.selectFrom('uploads').selectAll().where('customer_id', '=', s.customerId).orderBy('id').execute(),
    erase: async (trx, s) => {
      await trx.deleteFrom('uploads').where('customer_id', '=', s.customerId).execute();
    },
  },
  orders: {
    holds: 'Orders: personal details, addresses, date of birth checked, search keys, curbside car.',
    deletion: 'keep',
    anonymised: ['customer_id', 'personal_details', 'shipping_address', 'billing_address', 'search_phone', 'search_phone_rev', 'search_name', 'search_surname', 'birthday', 'curbside_car', 'cancel_message'],
    why: `Sales records: kept ${SALES_RECORD_RETENTION_YEARS} years (CA 4 CCR § 15037) with items, amounts, taxes, dates, order type, licence type, minimum age applied and status; who bought is removed (the delivery address keeps its ZIP and city, the tax jurisdiction).`,
    export: (db, s) => db.selectFrom('orders').selectAll().where('store_id', '=', s.storeId).where('customer_id', '=', s.customerId).orderBy('id').execute(),
    erase: async (trx, s, ctx) => {
      for (const id of s.orderIds) {
        const o = await trx.selectFrom('orders').select(['shipping_address', 'billing_address']).where('id', '=', id).executeTakeFirstOrThrow();
        await trx
          .updateTable('orders')
          .set({
            customer_id: null,
            personal_details: JSON.stringify({ firstName: 'Deleted', lastName: 'customer', phone: '', email: '', anonymised_at: ctx.iso }),
            shipping_address: keepPlace(o.shipping_address),
            billing_address: keepPlace(o.billing_address),
            search_phone: '',
            search_phone_rev: '',
            search_name: '',
            search_surname: '',
            birthday: null,
            curbside_car: null,
            cancel_message: null,
            updated_at: ctx.iso,
          })
          .where('id', '=', id)
          .execute();
      }
    },
  },
  order_items: NONE('What was sold: products, quantities, prices (kept with the order, nothing personal).'),
  auth_codes: {
    holds: 'Login codes sent to the phone (hashes).',
    deletion: 'delete',
    why: 'Short-lived; a code is a secret and not exported.',
    erase: async (trx, s) => {
      await trx.deleteFrom('auth_codes').where('store_id', '=', s.storeId).where('phone', '=', s.phone).execute();
    },
  },
  refresh_tokens: {
    holds: 'Sessions (token hashes, when made, until when).',
    deletion: 'delete',
    why: 'Deleting the account ends every session.',
    export: async (db, s) =>
      db.selectFrom('refresh_tokens').select(['id', 'created_at', 'expires_at', 'revoked_at']).where('customer_id', '=', s.customerId).orderBy('id').execute(),
    erase: async (trx, s) => {
      // The replaced_by chain points inside the customer's own rows: clear it first, then the rows.
      await trx.updateTable('refresh_tokens').set({ replaced_by: null }).where('customer_id', '=', s.customerId).execute();
      await trx.deleteFrom('refresh_tokens').where('customer_id', '=', s.customerId).execute();
    },
  },
  password_reset_tokens: {
    holds: 'Password reset requests (hashes).',
    deletion: 'delete',
    why: 'Secrets; not exported.',
    erase: async (trx, s) => {
      await trx.deleteFrom('password_reset_tokens').where('customer_id', '=', s.customerId).execute();
    },
  },
  idempotency_keys: {
    holds: "Answers of the shopper's writes kept for retries (an order's answer names the shopper).",
    deletion: 'anonymise',
    anonymised: ['response'],
    why: 'A retry answer is not a record; personal values in it are redacted.',
    erase: async (trx, s) => {
      const needles = [...identifiersOf(s), ...s.incrementIds];
      if (none(needles)) return;
      const rows = await trx
        .selectFrom('idempotency_keys')
        .select(['id', 'response'])
        .where('store_id', '=', s.storeId)
        .where((eb) => eb.or(containing(needles).map((p) => eb('response', 'like', p))))
        .execute();
      for (const r of rows) await trx.updateTable('idempotency_keys').set({ response: redactJson(r.response, needles) }).where('id', '=', r.id).execute();
    },
  },
  staff: STAFF,
  staff_stores: STAFF,
  staff_sessions: STAFF,
  staff_password_resets: STAFF,
  staff_login_throttle: STAFF,
  staff_unlock_tokens: STAFF,
  order_events: {
    holds: "The order's timeline: the shopper as actor, notes and checks that may name them.",
    deletion: 'keep',
    anonymised: ['actor_id', 'actor_name', 'data'],
    why: 'Part of the sales record (who did what to the order, when); the shopper as actor and personal values are removed.',
    export: (db, s) =>
      none(s.orderIds) ? Promise.resolve([]) : db.selectFrom('order_events').select(['order_id', 'at', 'actor_type', 'kind', 'from_status', 'to_status']).where('order_id', 'in', s.orderIds).orderBy('id').execute(),
    erase: async (trx, s) => {
      if (none(s.orderIds)) return;
      const needles = identifiersOf(s);
      await trx.updateTable('order_events').set({ actor_id: null, actor_name: null }).where('order_id', 'in', s.orderIds).where('actor_type', '=', 'customer').execute();
      const rows = await trx.selectFrom('order_events').select(['id', 'data']).where('order_id', 'in', s.orderIds).where('data', 'is not', null).execute();
      for (const r of rows) {
        const data = redactJson(r.data, needles);
        if (data !== r.data) await trx.updateTable('order_events').set({ data }).where('id', '=', r.id).execute();
      }
    },
  },
  store_order_settings: NONE("The store's settings."),
  outbox_events: {
    holds: "Events about the customer's orders (payloads name the shopper).",
    deletion: 'anonymise',
    anonymised: ['payload'],
    why: 'Sent already (no open order may remain); kept for de-duplication with personal values redacted.',
    erase: async (trx, s) => {
      if (none(s.orderIds)) return;
      const needles = identifiersOf(s);
      const rows = await trx.selectFrom('outbox_events').select(['id', 'payload']).where('order_id', 'in', s.orderIds).execute();
      for (const r of rows) await trx.updateTable('outbox_events').set({ payload: redactJson(r.payload, needles) ?? '{}' }).where('id', '=', r.id).execute();
    },
  },
  message_deliveries: {
    holds: 'Texts and e-mails sent to the customer: recipient, subject, body.',
    deletion: 'delete',
    why: 'A send log, not a sales record.',
    export: (db, s) =>
      db
        .selectFrom('message_deliveries')
        .select(['id', 'order_id', 'channel', 'recipient', 'template', 'subject', 'body', 'status', 'purpose', 'sent_at', 'receipt', 'created_at'])
        .where('store_id', '=', s.storeId)
        .where((eb) => eb.or(deliveryMatch(eb, s)))
        .orderBy('id')
        .execute(),
    erase: async (trx, s) => {
      const ids = (await trx.selectFrom('message_deliveries').select('id').where('store_id', '=', s.storeId).where((eb) => eb.or(deliveryMatch(eb, s))).execute()).map((r) => r.id);
      if (none(ids)) return;
      await trx.updateTable('message_deliveries').set({ fallback_of: null }).where('fallback_of', 'in', ids).execute();
      await trx.deleteFrom('message_deliveries').where('id', 'in', ids).execute();
    },
  },
  webhook_endpoints: NONE("The store's integrations."),
  webhook_deliveries: NONE('Delivery state only; the event payload lives in outbox_events.'),
  webhook_attempts: NONE("The receiving system's status and answer excerpt."),
  menu_changes: STAFF,
  store_settings: NONE("The store's settings."),
  store_settings_history: STAFF,
  order_tax_lines: NONE('Taxes per order (sales record, nothing personal).'),
  slot_bookings: NONE('Counts of orders per slot.'),
  api_keys: NONE("The store's integrations."),
  api_idempotency: {
    holds: 'Answers to integration calls, which may show an order with its shopper.',
    deletion: 'anonymise',
    anonymised: ['response'],
    why: 'A retry answer is not a record; personal values in it are redacted.',
    erase: async (trx, s) => {
      const needles = [...identifiersOf(s), ...s.incrementIds];
      if (none(needles)) return;
      const rows = await trx
        .selectFrom('api_idempotency')
        .innerJoin('api_keys', 'api_keys.id', 'api_idempotency.api_key_id')
        .select(['api_idempotency.id', 'api_idempotency.response'])
        .where('api_keys.store_id', '=', s.storeId)
        .where((eb) => eb.or(containing(needles).map((p) => eb('api_idempotency.response', 'like', p))))
        .execute();
      for (const r of rows) await trx.updateTable('api_idempotency').set({ response: redactJson(r.response, needles) }).where('id', '=', r.id).execute();
    },
  },
  integration_stock_sequences: CATALOGUE,
  deals: NONE('Deal definitions.'),
  deal_changes: STAFF,
  deal_redemptions: {
    holds: "Deals used on the customer's orders, keyed by phone digits.",
    deletion: 'keep',
    anonymised: ['customer_key'],
    why: "The discount is part of the sale; the phone key goes (a new account's per-customer limit starts again).",
    export: (db, s) =>
      none(s.orderIds) ? Promise.resolve([]) : db.selectFrom('deal_redemptions').select(['id', 'deal_id', 'order_id', 'discount_cents', 'created_at', 'released_at']).where('order_id', 'in', s.orderIds).orderBy('id').execute(),
    erase: async (trx, s) => {
      if (!none(s.orderIds)) await trx.updateTable('deal_redemptions').set({ customer_key: 'deleted' }).where('order_id', 'in', s.orderIds).execute();
    },
  },
  drivers: STAFF,
  vehicles: STAFF,
  trips: NONE('Trips: driver, vehicle, totals.'),
  trip_stops: {
    holds: "Delivery stops: the ID check at the door (date of birth), the customer's signature, a failure note.",
    deletion: 'keep',
    anonymised: ['signature_png', 'id_birth_date', 'failed_note'],
    why: 'The delivery ledger is part of the sales record (outcome, ID type checked, name matched, cash); the signature, date of birth and free note are removed.',
    export: (db, s) =>
      none(s.orderIds)
        ? Promise.resolve([])
        : db
            .selectFrom('trip_stops')
            .select(['id', 'order_id', 'outcome', 'outcome_at', 'failed_reason', 'failed_note', 'id_document', 'id_birth_date', 'id_name_matches', 'id_checked_at', 'signature_png', 'cash_cents'])
            .where('order_id', 'in', s.orderIds)
            .orderBy('id')
            .execute(),
    erase: async (trx, s) => {
      if (!none(s.orderIds)) await trx.updateTable('trip_stops').set({ signature_png: null, id_birth_date: null, failed_note: null }).where('order_id', 'in', s.orderIds).execute();
    },
  },
  driver_actions: {
    holds: "What the driver's phone sent for a stop (the same signature and ID date as the stop).",
    deletion: 'anonymise',
    anonymised: ['payload', 'answer'],
    why: 'Kept for replaying a retried action; personal values redacted.',
    erase: async (trx, s) => {
      if (none(s.tripIds)) return;
      const needles = identifiersOf(s);
      const rows = await trx.selectFrom('driver_actions').select(['id', 'payload', 'answer']).where('trip_id', 'in', s.tripIds).execute();
      for (const r of rows) {
        await trx
          .updateTable('driver_actions')
          .set({ payload: redactJson(r.payload, needles) ?? '{}', answer: redactJson(r.answer, needles) ?? '{}' })
          .where('id', '=', r.id)
          .execute();
      }
    },
  },
  driver_devices: STAFF,
  loyalty_accounts: {
    holds: 'The reward points balance.',
    deletion: 'delete',
    why: 'Points are not a sales record (the points used on an order are on the order); they are forfeited.',
    export: (db, s) => db.selectFrom('loyalty_accounts').selectAll().where('customer_id', '=', s.customerId).orderBy('id').execute(),
    erase: async (trx, s) => {
      await trx.deleteFrom('loyalty_accounts').where('customer_id', '=', s.customerId).execute();
    },
  },
  loyalty_ledger: {
    holds: 'Every change of the points balance.',
    deletion: 'delete',
    why: 'Goes with the balance.',
    export: (db, s) => db.selectFrom('loyalty_ledger').selectAll().where('customer_id', '=', s.customerId).orderBy('id').execute(),
    erase: async (trx, s) => {
      await trx.deleteFrom('loyalty_ledger').where('customer_id', '=', s.customerId).execute();
    },
  },
  consent_events: {
    holds: 'The consent ledger: grants and withdrawals for texts and e-mails, with the contact.',
    deletion: 'anonymise',
    anonymised: ['customer_id', 'contact'],
    why: 'Append-only proof of consent (TCPA): rows stay with the contact pseudonymised (HMAC) and no customer; a withdrawal is added for every grant, so the ledger ends in "withdrawn".',
    export: (db, s) =>
      db
        .selectFrom('consent_events')
        .select(['id', 'contact', 'channel', 'purpose', 'action', 'source', 'words', 'at'])
        .where('store_id', '=', s.storeId)
        .where((eb) => eb.or(consentMatch(eb, s)))
        .orderBy('id')
        .execute(),
    erase: async (trx, s, ctx) => {
      const rows = await trx.selectFrom('consent_events').selectAll().where('store_id', '=', s.storeId).where((eb) => eb.or(consentMatch(eb, s))).orderBy('id').execute();
      const last = new Map<string, (typeof rows)[number]>();
      for (const r of rows) last.set(`${r.channel}|${r.purpose}|${r.contact ?? ''}`, r);
      for (const r of rows) await trx.updateTable('consent_events').set({ customer_id: null, contact: r.contact == null ? null : ctx.pseudonym(r.contact) }).where('id', '=', r.id).execute();
      for (const r of last.values()) {
        if (r.action !== 'granted') continue;
        await trx
          .insertInto('consent_events')
          .values({ store_id: s.storeId, customer_id: null, contact: r.contact == null ? null : ctx.pseudonym(r.contact), channel: r.channel, purpose: r.purpose, action: 'withdrawn', source: 'account_deleted', words: null, at: ctx.iso })
          .execute();
      }
    },
  },
  stock_watches: {
    holds: '"Tell me when it\'s back" requests with the contact.',
    deletion: 'delete',
    why: 'No message may go to a deleted account.',
    export: (db, s) =>
      db
        .selectFrom('stock_watches')
        .select(['id', 'product_id', 'variant_id', 'contact', 'channel', 'created_at', 'removed_at', 'notified_at', 'outcome'])
        .where('store_id', '=', s.storeId)
        .where((eb) => eb.or(watchMatch(eb, s)))
        .orderBy('id')
        .execute(),
    erase: async (trx, s) => {
      await trx.deleteFrom('stock_watches').where('store_id', '=', s.storeId).where((eb) => eb.or(watchMatch(eb, s))).execute();
    },
  },
  reviews: {
    holds: 'Reviews the customer wrote.',
    deletion: 'delete',
    why: "A review is the customer's own words; the product's star counts are recomputed.",
    export: (db, s) =>
      db.selectFrom('reviews').select(['id', 'product_id', 'sku', 'stars', 'title', 'text', 'effects', 'flavours', 'status', 'helpful_count', 'created_at', 'updated_at']).where('customer_id', '=', s.customerId).orderBy('id').execute(),
    erase: async (trx, s, ctx) => {
      const mine = await trx.selectFrom('reviews').select(['id', 'product_id']).where('customer_id', '=', s.customerId).execute();
      if (none(mine)) return;
      await trx.deleteFrom('review_votes').where('review_id', 'in', mine.map((r) => r.id)).execute();
      await trx.deleteFrom('reviews').where('customer_id', '=', s.customerId).execute();
      for (const productId of new Set(mine.map((r) => r.product_id))) await recomputeStats(trx, s.storeId, productId, ctx.iso);
    },
  },
  review_votes: {
    holds: '"Helpful" votes the customer gave.',
    deletion: 'delete',
    why: "The votes go and the reviews' helpful counts go down with them.",
    export: (db, s) => db.selectFrom('review_votes').selectAll().where('customer_id', '=', s.customerId).orderBy('review_id').execute(),
    erase: async (trx, s) => {
      const votes = await trx.selectFrom('review_votes').select('review_id').where('customer_id', '=', s.customerId).execute();
      if (none(votes)) return;
      const ids = votes.map((v) => v.review_id);
      await trx.deleteFrom('review_votes').where('customer_id', '=', s.customerId).execute();
      await trx
        .updateTable('reviews')
        .set((eb) => ({ helpful_count: eb('helpful_count', '-', 1) }))
        .where('id', 'in', ids)
        .where('helpful_count', '>', 0)
        .execute();
    },
  },
  review_product_stats: NONE("Counts per product (recomputed when the customer's reviews go)."),
  // Issue 31 analytics (migration 0044): sums per store and day; the per-order cells name which sums
  // an order counts in (day, type, ZIP, category…), never who placed it.
  analytics_daily: NONE('Sums per store, day and dimension (orders, units, cents): nobody in them.'),
  analytics_monthly: NONE('The same sums by month.'),
  analytics_order_facts: NONE("Per order, the daily sums it counts in; no name, contact or id of the shopper (the order's own record is kept by its rule)."),
  analytics_funnel: NONE('Counts of page views and cart adds per store and day: no IP, no id, no cookie.'),
  data_deletions: NONE('The record of a deletion: store and dates only, by design.'),
  customer_notes: {
    holds: "Staff notes about the customer (text, author, time).",
    deletion: 'delete',
    why: 'Notes are about the person; none is a sales record.',
    export: (db, s) =>
      db.selectFrom('customer_notes').select(['id', 'text', 'author_name', 'created_at']).where('store_id', '=', s.storeId).where('customer_id', '=', s.customerId).orderBy('id').execute(),
    erase: async (trx, s) => {
      await trx.deleteFrom('customer_notes').where('store_id', '=', s.storeId).where('customer_id', '=', s.customerId).execute();
    },
  },
  document_views: {
    holds: "Which staff member opened the customer's ID or medical card image, and when.",
    deletion: 'delete',
    why: 'The access log of images that go with the account (uploads); the shopper sees it in the export.',
    export: (db, s) =>
      db
        .selectFrom('document_views')
        .select(['document', 'upload_id', 'order_id', 'staff_name', 'staff_role', 'viewed_at'])
        .where('store_id', '=', s.storeId)
        .where('customer_id', '=', s.customerId)
        .orderBy('id')
        .execute(),
    erase: async (trx, s) => {
      await trx.deleteFrom('document_views').where('store_id', '=', s.storeId).where('customer_id', '=', s.customerId).execute();
    },
  },
  retention_runs: NONE("The retention job's runs: store, day and counts only."),
  customer_merges: {
    holds: 'The record of a profile merge: both profiles, who merged them, and every row the merge changed (rows it took away are kept whole, to be put back by undo).',
    deletion: 'delete',
    why: 'Goes with either profile (deleting the survivor deletes the profiles merged into it too: privacy/rights.ts).',
    export: (db, s) =>
      db
        .selectFrom('customer_merges')
        .select(['id', 'survivor_id', 'merged_id', 'staff_name', 'merged_at', 'undo_until', 'undone_at', 'undone_by', 'summary'])
        .where('store_id', '=', s.storeId)
        .where((eb) => eb.or([eb('survivor_id', '=', s.customerId), eb('merged_id', '=', s.customerId)]))
        .orderBy('id')
        .execute(),
    erase: async (trx, s) => {
      await trx
        .deleteFrom('customer_merges')
        .where('store_id', '=', s.storeId)
        .where((eb) => eb.or([eb('survivor_id', '=', s.customerId), eb('merged_id', '=', s.customerId)]))
        .execute();
    },
  },
};

/** Message rows for the customer: by customer, by order, or sent to their phone or e-mail. */
function deliveryMatch(eb: ExpressionBuilder<Database, 'message_deliveries'>, s: Subject) {
  const list = [eb('customer_id', '=', s.customerId), eb('recipient', '=', s.phone)];
  if (s.email) list.push(eb('recipient', '=', s.email));
  if (!none(s.orderIds)) list.push(eb('order_id', 'in', s.orderIds));
  return list;
}

function consentMatch(eb: ExpressionBuilder<Database, 'consent_events'>, s: Subject) {
  const list = [eb('customer_id', '=', s.customerId), eb('contact', '=', s.phone)];
  if (s.email) list.push(eb('contact', '=', s.email.toLowerCase()));
  return list;
}

function watchMatch(eb: ExpressionBuilder<Database, 'stock_watches'>, s: Subject) {
  const list = [eb('customer_id', '=', s.customerId), eb('contact', '=', s.phone)];
  if (s.email) list.push(eb('contact', '=', s.email.toLowerCase()));
  return list;
}

/** An order address reduced to the place the sale happened (tax jurisdiction): ZIP, city, region, country. */
export function keepPlace(json: string | null): string | null {
  if (json == null) return null;
  try {
    const a = JSON.parse(json) as Record<string, unknown>;
    const pick = (k: string) => (typeof a[k] === 'string' || typeof a[k] === 'number' ? a[k] : undefined);
    return JSON.stringify({ city: pick('city'), region: pick('region'), zip: pick('zip') ?? pick('postcode'), country_id: pick('country_id'), distance: pick('distance') });
  } catch {
    return null;
  }
}

/** The pseudonym the consent ledger keeps for a deleted customer's contact. */
export function consentPseudonym(secret: string | Uint8Array) {
  return (contact: string) => `hmac:${createHmac('sha256', secret).update(contact).digest('hex').slice(0, 32)}`;
}

/** Tables whose entry holds something about a customer, in the order deletion walks them. */
export function personalTables(): TableName[] {
  return (Object.keys(PERSONAL_DATA) as TableName[]).filter((t) => PERSONAL_DATA[t].holds != null);
}
