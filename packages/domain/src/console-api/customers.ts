/**
 * Customer records (issue 31 "Customer records"; apps/server/src/customers/console-routes.ts, the
 * pages apps/console/src/routes/customers.tsx and customer-profile.tsx), per store under
 * /stores/:storeId. Operators' page: docs/operators/customers.md.
 *
 * Permissions: `customers:lookup` (owners, managers, budtenders: the counter view) reads the
 * directory and the profile; with `customers:read` (owners, managers) the answer also carries the
 * full phone, the spend, the consents and the staff notes; `customers:note` (owners, managers) adds
 * a note. A budtender's answer holds `null` for what the role may not see, never a hidden copy.
 *
 *   GET /stores/:storeId/customers (query: q, page)
 *        the directory: `q` is a name (first, last, or "first last", prefix, any case), an e-mail
 *        (prefix, any case) or a phone in any spelling (matched in E.164); empty `q` lists everyone,
 *        newest first. 20 a page.
 *   GET /stores/:storeId/customers/:customerId
 *        the profile: contact, orders, spend, points and tier, verification and documents, consents,
 *        notes, reviews. Another store's customer answers 404 `customer_not_found`.
 *   POST /stores/:storeId/customers/:customerId/notes {text}
 *        append a staff note (1–2000 characters); answers the note. Notes are never edited or deleted.
 *
 * Merging two profiles of one person (`customers:merge`: owners and managers; the platform never
 * merges by itself). The survivor is `:customerId`; `merged` the profile that goes into it:
 *   GET /stores/:storeId/customers/:customerId/merge-preview (query: merged)
 *        a dry run: both profiles side by side and what would move per table (`CustomerMergePreview`),
 *        or `refusal` with the reason the merge would be refused.
 *   POST /stores/:storeId/customers/:customerId/merge {merged}
 *        merge (one transaction); answers the `CustomerMerge`. Repeating it answers the same merge.
 *   POST /stores/:storeId/customers/merges/:mergeId/undo
 *        undo within 24 h (then 409 `merge_undo_expired`); answers the merge with `undone_at`.
 *        Repeating it answers the same.
 *
 * Every section is read by customer id, so a merge re-points rows (apps/server/src/privacy/merge-rules.ts).
 */
import { z } from 'zod';
import type { DocumentStatus, OrderStatus } from '../order-lifecycle.ts';
import type { ConsentAction, MessageChannel, MessagePurpose } from '../consent.ts';
import type { ReviewStatus } from '../reviews/index.ts';

export const CUSTOMER_PAGE_SIZE = 20;
export const CUSTOMER_NOTE_MAX = 2000;
/** How many orders the profile lists (newest first); the counts cover all of them. */
export const PROFILE_ORDER_LIMIT = 20;

export const CUSTOMER_MESSAGES = {
  notFound: 'Customer not found.',
  noteRequired: 'Write the note first.',
  noteTooLong: `A note is at most ${CUSTOMER_NOTE_MAX} characters.`,
  queryTooLong: 'Search for at most 100 characters.',
  mergeSame: 'Choose another profile: a profile cannot be merged with itself.',
  mergeOtherStore: 'That profile belongs to another store: only profiles of one store can be merged.',
  mergeAlreadyMerged: 'That profile was merged into another one already.',
  mergeSurvivorMerged: 'This profile was merged into another one: merge into that one instead.',
  mergeOpenOrder: 'The profile to merge has an open order: merge once it is completed or cancelled.',
  mergeNotFound: 'Merge not found.',
  mergedNoNote: 'This profile was merged into another one: add the note there.',
  undoExpired: 'A merge can be undone for 24 hours only; this one can no longer be undone.',
  undoLaterMerge: 'The surviving profile was merged again since: undo that merge first.',
  undoPointsSpent: 'The merged points were spent since, so the merge cannot be undone exactly.',
} as const;

/** How long a merge can be undone. */
export const MERGE_UNDO_HOURS = 24;

export const customerMergeBodySchema = z.object({
  merged: z.coerce.number({ message: 'merged must be a customer id' }).int('merged must be a customer id').positive('merged must be a customer id'),
});
export type CustomerMergeBody = z.infer<typeof customerMergeBodySchema>;

/** A profile as the merge screens show it. */
export interface CustomerMergeSide {
  id: number;
  name: string;
  email: string | null;
  phone_last4: string;
  created_at: string;
  orders: number;
  points: number;
}

/** One merge: who, when, until when it may be undone, and how many rows moved per table. */
export interface CustomerMerge {
  id: number;
  survivor: { id: number; name: string };
  merged: { id: number; name: string };
  merged_at: string;
  merged_by: string;
  undo_until: string;
  undone_at: string | null;
  undone_by: string | null;
  /** Whether undo is still possible now (not undone, within the 24 h). */
  can_undo: boolean;
  /** Rows moved or settled per table (e.g. `orders: 3`). */
  moved: Record<string, number>;
}

export interface CustomerMergePreview {
  survivor: CustomerMergeSide;
  merged: CustomerMergeSide;
  /** What would move per table, when the merge may go ahead. */
  moves: Record<string, number>;
  /** Why the merge would be refused, or null. */
  refusal: string | null;
}

export const customerSearchQuerySchema = z.object({
  q: z.string().trim().max(100, CUSTOMER_MESSAGES.queryTooLong).default(''),
  page: z.coerce.number({ message: 'page is a whole number from 1 to 1000' }).int().min(1).max(1000).default(1),
});
export type CustomerSearchQuery = z.infer<typeof customerSearchQuerySchema>;

export const customerNoteBodySchema = z.object({
  text: z
    .string({ message: CUSTOMER_MESSAGES.noteRequired })
    .trim()
    .min(1, CUSTOMER_MESSAGES.noteRequired)
    .max(CUSTOMER_NOTE_MAX, CUSTOMER_MESSAGES.noteTooLong),
});
export type CustomerNoteBody = z.infer<typeof customerNoteBodySchema>;

/** A phone as the role may see it: `phone` in E.164 with `customers:read`, else null; the last four digits always. */
export interface CustomerPhone {
  phone: string | null;
  phone_last4: string;
}

export interface CustomerListItem extends CustomerPhone {
  id: number;
  name: string;
  email: string | null;
  license_type: 'recreational' | 'medical';
  created_at: string;
  orders_count: number;
  last_order_at: string | null;
  /** The profile this one was merged into (it owns nothing any more), or null. */
  merged_into: number | null;
}

export interface CustomerList {
  q: string;
  /** How `q` was read: every customer, a phone (E.164), an e-mail or a name. */
  matched_by: 'all' | 'phone' | 'email' | 'name';
  page: number;
  page_size: number;
  total: number;
  /** False: phones are masked to their last four digits and spend is not shown (a budtender). */
  full: boolean;
  items: CustomerListItem[];
}

export interface CustomerOrderRow {
  id: number;
  increment_id: string;
  status: OrderStatus;
  order_type: 'pickup' | 'delivery';
  created_at: string;
  total_cents: number;
  item_count: number;
}

/** One opening of a document's file. Filled in by the document view log (branch s41-retention); absent until then. */
export interface CustomerDocumentView {
  at: string;
  staff_name: string;
}

export interface CustomerDocument {
  id: number;
  kind: string;
  mime: string;
  created_at: string;
  /** The staff-only file route (permission customers:verify). The profile never carries the image. */
  url: string;
  views?: CustomerDocumentView[];
  /** When the store's retention rules deleted the image (the decision stays on the record); null: kept. */
  deleted_at?: string | null;
}

export interface CustomerVerification {
  id_status: DocumentStatus;
  id_review_reason: string | null;
  id_reviewed_at: string | null;
  id_reviewed_by: string | null;
  medcard_status: DocumentStatus;
  medcard_number: string | null;
  medcard_expiry: string | null;
  medcard_review_reason: string | null;
  medcard_reviewed_at: string | null;
  medcard_reviewed_by: string | null;
  phone_verified_at: string | null;
  documents: CustomerDocument[];
}

export interface CustomerConsentState {
  channel: MessageChannel;
  purpose: MessagePurpose;
  /** The newest row's action; `none`: nothing on record (marketing is then refused, transactional allowed). */
  state: ConsentAction | 'none';
  at: string | null;
  source: string | null;
}

export interface CustomerConsentEvent {
  id: number;
  channel: MessageChannel;
  purpose: MessagePurpose;
  action: ConsentAction;
  source: string;
  words: string | null;
  /** The contact the row was recorded for (a STOP reply knows only the phone). */
  contact: string | null;
  at: string;
}

export interface CustomerNote {
  id: number;
  text: string;
  author_name: string;
  created_at: string;
}

export interface CustomerReviewRow {
  id: number;
  sku: string;
  product_name: string;
  stars: number;
  title: string;
  status: ReviewStatus;
  created_at: string;
}

export interface CustomerLoyalty {
  enabled: boolean;
  earns: boolean;
  balance: number;
  tier: { name: string; earn_rate: number };
  next_tier: { name: string; earn_rate: number; needed_cents: number } | null;
  /** Spend counted for the tier over the programme's window. */
  tier_spend_cents: number;
  tier_window_days: number;
  expiry: { points: number; expires_at: string } | null;
}

export interface CustomerProfile extends CustomerPhone {
  id: number;
  name: string;
  firstname: string | null;
  lastname: string | null;
  email: string | null;
  license_type: 'recreational' | 'medical';
  birthday: string | null;
  created_at: string;
  /** False: the counter view (a budtender): spend, consents and notes are null, the phone masked. */
  full: boolean;
  /** Whether the member may add a note (customers:note). */
  can_note: boolean;
  orders: { count: number; last_order_at: string | null; recent: CustomerOrderRow[] };
  /** Completed orders only; null without customers:read. */
  spend: { completed_count: number; total_cents: number } | null;
  loyalty: CustomerLoyalty;
  verification: CustomerVerification;
  consents: { current: CustomerConsentState[]; history: CustomerConsentEvent[] } | null;
  notes: CustomerNote[] | null;
  reviews: CustomerReviewRow[];
  /** This profile was merged into another (its page says so and links to it). */
  merged_into: { id: number; name: string; merge_id: number | null } | null;
  /** Merges into this profile that may still be undone (newest first). */
  merges: CustomerMerge[];
  /** Whether the member may merge profiles (customers:merge). */
  can_merge: boolean;
}
