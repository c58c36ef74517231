/**
 * One customer's record as staff see it (issue 31): contact, orders, spend, points and tier,
 * verification and documents, consents, staff notes and reviews — each section read by the
 * customer's id within the store, so a later merge of two profiles re-points rows and this reads on.
 *
 * `full` (permission customers:read, managers and owners) adds the phone, the spend, the consents
 * and the notes; the counter view (customers:lookup, budtenders) gets null there, not a hidden copy.
 */
import { MESSAGE_CHANNELS, MESSAGE_PURPOSES, standingConsent, type Store } from '@verdant/domain';
import { CUSTOMER_MESSAGES, PROFILE_ORDER_LIMIT, type CustomerConsentEvent, type CustomerConsentState, type CustomerNote, type CustomerProfile } from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { loyaltyAccountView } from '../loyalty/account.ts';
import { uploadUrl } from '../orders/console/detail.ts';
import { findById, type CustomerRow } from '../users/customers.ts';
import { customerName, lastFour } from './directory.ts';
import { mergesOfProfile } from './merge.ts';

type Db = Kysely<Database>;

/** How much of the consent ledger and the notes a profile carries (newest first). */
export const CONSENT_HISTORY_LIMIT = 100;
export const NOTES_LIMIT = 200;

export async function customerOfStore(db: Db, storeId: number, customerId: number): Promise<CustomerRow> {
  const customer = await findById(db, storeId, customerId);
  if (!customer) throw new ApiError(404, CUSTOMER_MESSAGES.notFound, { errorCode: 'customer_not_found' });
  return customer;
}

export interface Viewer {
  full: boolean;
  canNote: boolean;
  canMerge?: boolean;
}

export async function customerProfile(db: Db, store: Store, customerId: number, viewer: Viewer, now: Date): Promise<CustomerProfile> {
  const storeId = store.storeId;
  const c = await customerOfStore(db, storeId, customerId);
  const [orderStats, recent, spend, loyalty, reviewers, uploads, consents, notes, reviews, merges] = await Promise.all([
    db
      .selectFrom('orders')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('created_at').as('last')])
      .where('store_id', '=', storeId)
      .where('customer_id', '=', c.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('orders')
      .select(['id', 'increment_id', 'status', 'order_type', 'created_at', 'total_cents'])
      .where('store_id', '=', storeId)
      .where('customer_id', '=', c.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(PROFILE_ORDER_LIMIT)
      .execute(),
    viewer.full
      ? db
          .selectFrom('orders')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('total_cents').as('cents')])
          .where('store_id', '=', storeId)
          .where('customer_id', '=', c.id)
          .where('status', '=', 'completed')
          .executeTakeFirstOrThrow()
      : Promise.resolve(null),
    loyaltyAccountView(db, store, c, now),
    staffNames(db, [c.id_reviewed_by, c.medcard_reviewed_by]),
    db
      .selectFrom('uploads')
      .select(['id', 'kind', 'mime', 'created_at', 'purged_at'])
      .where('store_id', '=', storeId)
      .where('customer_id', '=', c.id)
      .orderBy('id', 'desc')
      .execute(),
    viewer.full ? consentLedger(db, storeId, c) : Promise.resolve(null),
    viewer.full ? notesOf(db, storeId, c.id) : Promise.resolve(null),
    db
      .selectFrom('reviews')
      .leftJoin('products', 'products.id', 'reviews.product_id')
      .select(['reviews.id', 'reviews.sku', 'products.name as product_name', 'reviews.stars', 'reviews.title', 'reviews.status', 'reviews.created_at'])
      .where('reviews.store_id', '=', storeId)
      .where('reviews.customer_id', '=', c.id)
      .orderBy('reviews.id', 'desc')
      .execute(),
    mergesOfProfile(db, storeId, c, now),
  ]);
  // Issue 31: who opened each file and when (the document view log, migration 0040), newest first.
  const viewRows = uploads.length
    ? await db
        .selectFrom('document_views')
        .select(['upload_id', 'viewed_at', 'staff_name'])
        .where('store_id', '=', storeId)
        .where('customer_id', '=', c.id)
        .where(
          'upload_id',
          'in',
          uploads.map((u) => u.id),
        )
        .orderBy('id', 'desc')
        .execute()
    : [];
  const viewsOf = (uploadId: number) => viewRows.filter((v) => v.upload_id === uploadId).map((v) => ({ at: v.viewed_at, staff_name: v.staff_name }));
  const itemCounts = recent.length
    ? await db
        .selectFrom('order_items')
        .select((eb) => ['order_id', eb.fn.sum<number>('qty').as('n')])
        .where(
          'order_id',
          'in',
          recent.map((o) => o.id),
        )
        .groupBy('order_id')
        .execute()
    : [];
  const items = new Map(itemCounts.map((i) => [i.order_id, Number(i.n)]));
  return {
    id: c.id,
    name: customerName(c),
    firstname: c.firstname,
    lastname: c.lastname,
    email: c.email,
    phone: viewer.full ? c.phone : null,
    phone_last4: lastFour(c.phone),
    license_type: c.license_type,
    birthday: c.birthday,
    created_at: c.created_at,
    full: viewer.full,
    can_note: viewer.canNote && c.merged_into == null,
    orders: {
      count: Number(orderStats.n),
      last_order_at: (orderStats.last as string | null) ?? null,
      recent: recent.map((o) => ({
        id: o.id,
        increment_id: o.increment_id,
        status: o.status,
        order_type: o.order_type,
        created_at: o.created_at,
        total_cents: Number(o.total_cents),
        item_count: items.get(o.id) ?? 0,
      })),
    },
    spend: spend ? { completed_count: Number(spend.n), total_cents: Number(spend.cents ?? 0) } : null,
    loyalty: {
      enabled: loyalty.enabled,
      earns: loyalty.earns,
      balance: loyalty.balance,
      tier: loyalty.tier,
      next_tier: loyalty.next_tier,
      tier_spend_cents: loyalty.spend_cents,
      tier_window_days: loyalty.tier_window_days,
      expiry: loyalty.expiry,
    },
    verification: {
      id_status: c.id_status,
      id_review_reason: c.id_review_reason,
      id_reviewed_at: c.id_reviewed_at,
      id_reviewed_by: c.id_reviewed_by != null ? (reviewers.get(c.id_reviewed_by) ?? null) : null,
      medcard_status: c.medcard_status,
      medcard_number: c.medcard_number,
      medcard_expiry: c.medcard_expiry,
      medcard_review_reason: c.medcard_review_reason,
      medcard_reviewed_at: c.medcard_reviewed_at,
      medcard_reviewed_by: c.medcard_reviewed_by != null ? (reviewers.get(c.medcard_reviewed_by) ?? null) : null,
      phone_verified_at: c.phone_verified_at ?? null,
      // `views`: who opened each file and when; `deleted_at`: the retention rules removed the image (the row stays).
      documents: uploads.map((u) => ({
        id: u.id,
        kind: u.kind,
        mime: u.mime,
        created_at: u.created_at,
        url: uploadUrl(storeId, c.id, u.id),
        views: viewsOf(u.id),
        deleted_at: u.purged_at ?? null,
      })),
    },
    consents,
    notes,
    reviews: reviews.map((r) => ({
      id: r.id,
      sku: r.sku,
      product_name: r.product_name ?? r.sku,
      stars: r.stars,
      title: r.title,
      status: r.status,
      created_at: r.created_at,
    })),
    merged_into: merges.merged_into,
    merges: viewer.canMerge ? merges.merges : [],
    can_merge: viewer.canMerge === true,
  };
}

async function staffNames(db: Db, ids: (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((i): i is number => i != null))];
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom('staff').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * The consent rows that count for the customer: their own (customer_id) and their phone's and
 * e-mail's (a STOP reply or a guest form knows only the contact), as consent.ts reads them at send time.
 */
async function consentLedger(db: Db, storeId: number, c: CustomerRow): Promise<{ current: CustomerConsentState[]; history: CustomerConsentEvent[] }> {
  const contacts = [c.phone, ...(c.email ? [c.email.toLowerCase()] : [])];
  const rows = await db
    .selectFrom('consent_events')
    .select(['id', 'channel', 'purpose', 'action', 'source', 'words', 'contact', 'at'])
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([eb('customer_id', '=', c.id), eb('contact', 'in', contacts)]))
    .orderBy('at')
    .orderBy('id')
    .execute();
  // A contact row counts on its own channel only: the phone's on SMS, the address's on e-mail.
  const relevant = rows.filter((r) => r.contact == null || (r.channel === 'sms' ? r.contact === c.phone : r.contact === c.email?.toLowerCase()));
  const current: CustomerConsentState[] = [];
  for (const channel of MESSAGE_CHANNELS)
    for (const purpose of MESSAGE_PURPOSES) {
      const newest = standingConsent(relevant, channel, purpose) as (typeof relevant)[number] | undefined;
      current.push({ channel, purpose, state: newest?.action ?? 'none', at: newest?.at ?? null, source: newest?.source ?? null });
    }
  const history = relevant
    .slice(-CONSENT_HISTORY_LIMIT)
    .reverse()
    .map((r) => ({ id: r.id, channel: r.channel, purpose: r.purpose, action: r.action, source: r.source, words: r.words, contact: r.contact, at: r.at }));
  return { current, history };
}

export async function notesOf(db: Db, storeId: number, customerId: number): Promise<CustomerNote[]> {
  return db
    .selectFrom('customer_notes')
    .select(['id', 'text', 'author_name', 'created_at'])
    .where('store_id', '=', storeId)
    .where('customer_id', '=', customerId)
    .orderBy('id', 'desc')
    .limit(NOTES_LIMIT)
    .execute();
}

/** Append a note (never edited or deleted): one row per call, so parallel posts are all kept. */
export async function addNote(db: Db, storeId: number, customerId: number, author: { id: number; name: string }, text: string, now: Date): Promise<CustomerNote> {
  const c = await customerOfStore(db, storeId, customerId);
  // A merged profile owns nothing (issue 31): notes go on the profile it was merged into.
  if (c.merged_into != null) throw new ApiError(409, CUSTOMER_MESSAGES.mergedNoNote, { errorCode: 'customer_merged' });
  return db
    .insertInto('customer_notes')
    .values({ store_id: storeId, customer_id: customerId, staff_id: author.id, author_name: author.name, text, created_at: now.toISOString() })
    .returning(['id', 'text', 'author_name', 'created_at'])
    .executeTakeFirstOrThrow();
}
