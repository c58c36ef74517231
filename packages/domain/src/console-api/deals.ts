/**
 * The console's deal routes (issue 28 "The store's side"; apps/server/src/deals/console-routes.ts),
 * per store under /stores/:storeId. Budtenders read (`deals:read`); managers and owners write
 * (`deals:write`). A deal's record is the engine's model (packages/domain/src/deals/model.ts); the
 * server validates it with that model's schema, so the console sends the record as the editor built it.
 */
import { z } from 'zod';
import type { Deal, DealKind, DealReason } from '../deals/index.ts';
import { dateSchema, dbId } from './fields.ts';

export const DEAL_STATUSES = ['active', 'paused', 'ended'] as const;
export type DealStatusName = (typeof DEAL_STATUSES)[number];
export const DEAL_KINDS = ['set_discount', 'buy_get', 'mix_match', 'bundle', 'threshold'] as const;

/** GET /deals?status=&kind=: the store's deals, newest first. */
export const dealListQuery = z.object({
  status: z.enum(DEAL_STATUSES, { message: `status must be one of: ${DEAL_STATUSES.join(', ')}.` }).optional(),
  kind: z.enum(DEAL_KINDS, { message: `kind must be one of: ${DEAL_KINDS.join(', ')}.` }).optional(),
});
export type DealListQuery = z.input<typeof dealListQuery>;

/** One deal as the console shows it (GET /deals/:dealId and every write's answer). */
export interface DealView {
  id: number;
  /** The record's own id in the store ("wax-wednesday"). */
  code: string;
  external_id: string | null;
  kind: DealKind;
  title: string;
  status: DealStatusName;
  /** Send it back with an update, pause, resume or end: a change made meanwhile answers 409 `stale_deal`. */
  version: number;
  /** Orders holding a redemption not given back (counted while the deal has a budget). */
  redeemed: number;
  /** What the shopper is shown under the default display rules: the title when its words pass them, else generated words; null: the price only. */
  headline: string | null;
  record: Deal;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
}

/** GET /deals. */
export interface DealList {
  items: DealView[];
}

/** `{ storeId, dealId }` of /deals/:dealId… */
export const dealParams = z.object({ storeId: dbId(), dealId: dbId() });

/** POST /deals: a new deal's record (its `id` is made from the title when left out; `status` defaults to active). */
export const dealCreateBody = z.object({ record: z.record(z.string(), z.unknown()) }).strict();
export type DealCreateRequest = { record: Record<string, unknown> };

/** PUT /deals/:dealId: the whole record and the version it was read at. */
export const dealUpdateBody = z.object({ record: z.record(z.string(), z.unknown()), version: z.number().int().min(1) }).strict();
export type DealUpdateRequest = { record: Record<string, unknown>; version: number };

/** POST /deals/:dealId/pause, POST /deals/:dealId/resume, POST /deals/:dealId/end: with the version read. */
export const dealStatusBody = z.object({ version: z.number().int().min(1) }).strict();
export type DealStatusRequest = z.input<typeof dealStatusBody>;

/** GET /deals/:dealId/history?before=&limit=: every change, newest first. */
export const dealHistoryQuery = z.object({
  before: dbId().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export interface DealChangeView {
  id: number;
  action: 'create' | 'update' | 'pause' | 'resume' | 'end';
  source: string;
  actor: { type: string; id: number | null; name: string };
  at: string;
  before: Deal | null;
  after: Deal;
  /** The fields that differ (dotted paths, e.g. `schedule.days`, `reward.percent`). */
  changed: string[];
}
export interface DealHistory {
  items: DealChangeView[];
}

/** A sample cart line of a preview: a sellable sku (a variant's own sku) and how many. */
const sampleLine = z.object({ sku: z.string().trim().min(1, 'Enter a SKU.').max(100), qty: z.number().int().min(1, 'Quantity must be at least 1.').max(100, 'Quantity must be at most 100.') }).strict();

/**
 * POST /deals/preview: a draft record (not saved; judged as if active) and an optional sample cart →
 * the products it matches and what the cart pays with the store's other active deals, with and
 * without the draft. `at` (an ISO instant, default now) is the moment judged; `licence` the shopper's.
 * Limits are judged as unused (a preview reserves nothing).
 */
export const dealPreviewBody = z
  .object({
    record: z.record(z.string(), z.unknown()),
    /** The deal the draft replaces (its saved record is left out of the "without" side). */
    dealId: dbId().optional(),
    cart: z.array(sampleLine).max(30, 'At most 30 sample lines.').default([]),
    licence: z.enum(['medical', 'recreational']).default('recreational'),
    at: z.iso.datetime({ offset: true, message: 'at must be an ISO date and time.' }).optional(),
    /** How many matching products to list (count is always all). */
    sample: z.number().int().min(0).max(100).default(12),
  })
  .strict();
export type DealPreviewRequest = z.input<typeof dealPreviewBody>;

export interface DealPreviewProduct {
  sku: string;
  name: string;
  price_cents: number;
}
export interface DealPreviewCartLine {
  sku: string;
  name: string;
  qty: number;
  unit_price_cents: number;
  /** This line's discount without / with the draft. */
  without_cents: number;
  with_cents: number;
}
export interface DealPreview {
  /** Products of the store the draft's sets match (any role: set, buy, get, bundle part, threshold set). */
  matching: { count: number; sample: DealPreviewProduct[] };
  /** The draft in the shopper's words (default display rules). */
  headline: string | null;
  cart: null | {
    lines: DealPreviewCartLine[];
    subtotal_cents: number;
    without: { discount_cents: number; total_cents: number };
    with: { discount_cents: number; total_cents: number };
    /** The draft applied: its discount; else why not. */
    draft: { applied: true; discount_cents: number } | { applied: false; reason: DealReason; text: string };
    /** SKUs of the sample cart the store cannot sell (left out). */
    unknown: string[];
  };
}

/** GET /deals/calendar?from=&to=: what runs on each day (store zone), at most 62 days. */
export const MAX_CALENDAR_DAYS = 62;
export const dealCalendarQuery = z
  .object({ from: dateSchema, to: dateSchema, status: z.enum(['active', 'paused']).optional() })
  .refine((q) => q.from <= q.to, 'from must not be after to.')
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < MAX_CALENDAR_DAYS, `At most ${MAX_CALENDAR_DAYS} days at a time.`);
export type DealCalendarQuery = z.input<typeof dealCalendarQuery>;
export interface DealCalendarEntry {
  id: number;
  code: string;
  title: string;
  status: 'active' | 'paused';
  /** Local times (HH:MM) it runs that day; null: all day. A window past midnight is shown on the day it starts. */
  hours: { from: string; to: string } | null;
}
export interface DealCalendarDay {
  date: string;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  deals: DealCalendarEntry[];
}
export interface DealCalendar {
  time_zone: string;
  days: DealCalendarDay[];
}

/** GET /deals/report?from=&to= and GET /deals/report.csv?from=&to=: redemptions and discount per deal per day (store zone). */
export const MAX_DEAL_REPORT_DAYS = 400;
export const dealReportQuery = z
  .object({ from: dateSchema, to: dateSchema })
  .refine((q) => q.from <= q.to, 'from must not be after to.')
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < MAX_DEAL_REPORT_DAYS, `At most ${MAX_DEAL_REPORT_DAYS} days per report.`);
export type DealReportQuery = z.input<typeof dealReportQuery>;
export interface DealReportRow {
  date: string;
  deal_id: number;
  code: string;
  title: string;
  /** Orders that redeemed it that day (cancelled orders' redemptions are given back and not counted). */
  redemptions: number;
  discount_cents: number;
}
export interface DealReport {
  time_zone: string;
  rows: DealReportRow[];
  totals: { redemptions: number; discount_cents: number };
}

/**
 * GET /orders/:orderId/deals-trace: which deals applied to the order (per line, as it was charged)
 * and, for every deal that was active when it was placed and did not apply, why — the engine run
 * again on the order's lines, at its moment, with each deal's record as it was then (its history).
 */
export interface DealTraceLine {
  sku: string;
  name: string;
  qty: number;
  unit_price_cents: number;
  deals: { code: string; title: string; discount_cents: number }[];
}
export interface DealTrace {
  at: string;
  lines: DealTraceLine[];
  applied: { code: string; title: string; discount_cents: number }[];
  not_applied: { code: string; title: string; reason: DealReason; text: string }[];
  /** The engine's answer today equals what the order charged (false: e.g. a product's facts changed since). */
  consistent: boolean;
}

/**
 * POST /deals/check: a cart staff type in (the shopper reads out what is in theirs) judged against
 * the store's active deals as a cart is — which apply, per line, and why each other one does not.
 * The shopper is a guest of the given licence; limits count as unused (nothing is reserved).
 */
export const dealCheckBody = z
  .object({
    cart: z.array(sampleLine).min(1, 'Enter at least one SKU.').max(30, 'At most 30 lines.'),
    licence: z.enum(['medical', 'recreational']).default('recreational'),
    at: z.iso.datetime({ offset: true, message: 'at must be an ISO date and time.' }).optional(),
  })
  .strict();
export type DealCheckRequest = z.input<typeof dealCheckBody>;
export interface DealCheck {
  lines: DealTraceLine[];
  applied: { code: string; title: string; discount_cents: number }[];
  not_applied: { code: string; title: string; reason: DealReason; text: string }[];
  subtotal_cents: number;
  discount_cents: number;
  /** SKUs the store cannot sell (left out). */
  unknown: string[];
}
