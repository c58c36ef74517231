/**
 * Analytics in the console (issue 31): one dashboard view per request, from daily rollups.
 *
 * GET /stores/:storeId/analytics?from=&to=&grain=&compare=   reports:read  one store's view
 * GET /stores/:storeId/analytics.csv?table=&from=&to=&grain=&compare=   reports:read  one table of it as CSV
 * GET /analytics?stores=1,2&from=&to=&grain=&compare=          reports:read  the sum of the member's stores (all by default)
 * GET /analytics.csv?table=&stores=&from=&to=&grain=&compare=  reports:read  one table of that view as CSV
 *
 * Days are each store's own local days. Owners and managers only (reports:read).
 */
import { z } from 'zod';
import { dateSchema } from './fields.ts';

export const ANALYTICS_MAX_DAYS = 400;
export const ANALYTICS_GRAINS = ['day', 'week', 'month'] as const;
export type AnalyticsGrain = (typeof ANALYTICS_GRAINS)[number];

/** The breakdowns the dashboard shows, in its order. */
export const ANALYTICS_BREAKDOWNS = ['category', 'brand', 'product', 'kind', 'licence', 'type', 'slot', 'hour', 'customer', 'deal', 'cancel', 'zip'] as const;
export type AnalyticsBreakdown = (typeof ANALYTICS_BREAKDOWNS)[number];
export const ANALYTICS_TABLES = ['series', 'funnel', ...ANALYTICS_BREAKDOWNS] as const;
export type AnalyticsTable = (typeof ANALYTICS_TABLES)[number];


const viewFields = {
  from: dateSchema,
  to: dateSchema,
  grain: z.enum(ANALYTICS_GRAINS).default('day'),
  compare: z.enum(['0', '1', 'true', 'false']).optional().transform((v) => v === '1' || v === 'true'),
};
const rangeRules = <T extends z.ZodType<{ from: string; to: string }>>(s: T) =>
  s
    .refine((q) => q.from <= q.to, 'from must not be after to.')
    .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < ANALYTICS_MAX_DAYS, `At most ${ANALYTICS_MAX_DAYS} days per view.`);

export const analyticsQuery = rangeRules(z.object(viewFields).strict());
export const analyticsCsvQuery = rangeRules(z.object({ ...viewFields, table: z.enum(ANALYTICS_TABLES) }).strict());
const storeList = z
  .string()
  .regex(/^\d{1,9}(,\d{1,9}){0,49}$/, 'stores is a comma-separated list of store ids.')
  .transform((s) => [...new Set(s.split(',').map(Number))]);
export const analyticsAcrossQuery = rangeRules(z.object({ ...viewFields, stores: storeList.optional() }).strict());
export const analyticsAcrossCsvQuery = rangeRules(z.object({ ...viewFields, stores: storeList.optional(), table: z.enum(ANALYTICS_TABLES) }).strict());
export type AnalyticsQuery = z.input<typeof analyticsQuery>;

export interface AnalyticsFigures {
  orders: number;
  units: number;
  grams_mg: number;
  /** Net of discounts, before taxes and fees. */
  sales_cents: number;
  discount_cents: number;
  total_cents: number;
}

export interface AnalyticsTotals extends AnalyticsFigures {
  /** sales ÷ orders, rounded to the cent; 0 without orders. */
  average_order_cents: number;
  placed: number;
  cancelled: number;
  no_show: number;
  new_customers: number;
  returning_orders: number;
  /** Orders from returning customers ÷ orders from known customers (0–1); null without any. */
  repeat_rate: number | null;
  delivery_orders: number;
  pickup_orders: number;
}

export interface AnalyticsPoint {
  /** The period's first day (a week starts on Monday; a month is YYYY-MM-01). */
  period: string;
  orders: number;
  units: number;
  grams_mg: number;
  sales_cents: number;
  average_order_cents: number;
}

export interface AnalyticsRow extends AnalyticsFigures {
  key: string;
  label: string;
  /** The previous period's figures of the same key (with compare). */
  previous?: AnalyticsFigures;
}

export interface AnalyticsFunnelStep {
  step: 'visit' | 'product_view' | 'add_to_cart' | 'checkout_started' | 'order_placed';
  count: number;
  previous?: number;
}

export interface AnalyticsView {
  from: string;
  to: string;
  grain: AnalyticsGrain;
  /** The period before, as long as this one (with compare). */
  previous: { from: string; to: string } | null;
  stores: { id: number; code: string; name: string }[];
  totals: AnalyticsTotals;
  previous_totals: AnalyticsTotals | null;
  series: AnalyticsPoint[];
  previous_series: AnalyticsPoint[] | null;
  breakdowns: Record<AnalyticsBreakdown, AnalyticsRow[]>;
  funnel: AnalyticsFunnelStep[];
}
