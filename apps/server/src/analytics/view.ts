/**
 * One dashboard view (issue 31) from the rollups, per period — never the orders table: the
 * range's cells by dimension and key (its whole months from analytics_monthly, the days of its
 * partial months from analytics_daily), the `total` cells by day for the series, and the funnel's
 * days. A year of a busy store is then twelve months' rows plus at most two months of days instead
 * of 365 days × a few hundred keys; bench/suites/analytics.ts holds each view to its 300 ms p95 on
 * PostgreSQL. Weeks and months of the series are sums of days.
 */
import {
  ANALYTICS_BREAKDOWNS,
  type AnalyticsBreakdown,
  type AnalyticsFigures,
  type AnalyticsFunnelStep,
  type AnalyticsGrain,
  type AnalyticsPoint,
  type AnalyticsRow,
  type AnalyticsTotals,
  type AnalyticsView,
} from '@verdant/domain/console-api';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { FUNNEL_STEPS } from './funnel.ts';

type Db = Kysely<Database>;

export interface ViewRequest {
  stores: { id: number; code: string; name: string }[];
  from: string;
  to: string;
  grain: AnalyticsGrain;
  compare: boolean;
}

/** How many rows each breakdown lists (largest sales first); the rest are summed in "Other". */
const TOP: Partial<Record<AnalyticsBreakdown, number>> = { product: 25, brand: 25, zip: 50, category: 25, deal: 25 };

const DAY_MS = 86_400_000;
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const daysIn = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The period just before [from, to], as many days long. */
export function previousRange(from: string, to: string): { from: string; to: string } {
  const n = daysIn(from, to);
  return { from: addDays(from, -n), to: addDays(from, -1) };
}

/** The first day of the period a day falls in. */
export function periodOf(day: string, grain: AnalyticsGrain): string {
  if (grain === 'day') return day;
  if (grain === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  return addDays(day, -weekday);
}

const num = (v: unknown) => Number(v ?? 0);
const figuresOf = (r: Record<string, unknown>): AnalyticsFigures => ({
  orders: num(r.orders),
  units: num(r.units),
  grams_mg: num(r.grams_mg),
  sales_cents: num(r.sales_cents),
  discount_cents: num(r.discount_cents),
  total_cents: num(r.total_cents),
});
const sums = [
  sql<number>`sum(orders)`.as('orders'),
  sql<number>`sum(units)`.as('units'),
  sql<number>`sum(grams_mg)`.as('grams_mg'),
  sql<number>`sum(sales_cents)`.as('sales_cents'),
  sql<number>`sum(discount_cents)`.as('discount_cents'),
  sql<number>`sum(total_cents)`.as('total_cents'),
];
const avg = (sales: number, orders: number) => (orders ? Math.round(sales / orders) : 0);

interface PeriodData {
  byKey: Map<string, { dim: string; key: string; label: string; f: AnalyticsFigures }>;
  days: Map<string, AnalyticsFigures>;
  funnel: Map<string, number>;
}

/** [from, to] as its whole months (YYYY-MM) and the day ranges left at its ends. */
export function splitRange(from: string, to: string): { months: string[]; days: [string, string][] } {
  const months: string[] = [];
  const days: [string, string][] = [];
  for (let d = from; d <= to; ) {
    const next = `${addDays(`${d.slice(0, 7)}-28`, 4).slice(0, 7)}-01`;
    const last = addDays(next, -1);
    if (d.endsWith('-01') && last <= to) months.push(d.slice(0, 7));
    else days.push([d, last < to ? last : to]);
    d = next;
  }
  return { months, days };
}

async function readPeriod(db: Db, storeIds: number[], from: string, to: string): Promise<PeriodData> {
  const dims = ['placed', 'cancel', ...ANALYTICS_BREAKDOWNS.filter((b) => b !== 'cancel')];
  const split = splitRange(from, to);
  const [monthCells, dayCells, days, funnel] = await Promise.all([
    split.months.length
      ? db
          .selectFrom('analytics_monthly')
          .select(['dim', 'key', sql<string>`max(label)`.as('label'), ...sums])
          .where('store_id', 'in', storeIds)
          .where('dim', 'in', dims)
          .where('month', 'in', split.months)
          .groupBy(['dim', 'key'])
          .execute()
      : [],
    split.days.length
      ? db
          .selectFrom('analytics_daily')
          .select(['dim', 'key', sql<string>`max(label)`.as('label'), ...sums])
          .where('store_id', 'in', storeIds)
          .where('dim', 'in', dims)
          .where((eb) => eb.or(split.days.map(([a, b]) => eb.and([eb('day', '>=', a), eb('day', '<=', b)]))))
          .groupBy(['dim', 'key'])
          .execute()
      : [],
    db
      .selectFrom('analytics_daily')
      .select(['day', ...sums])
      .where('store_id', 'in', storeIds)
      .where('dim', '=', 'total')
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy('day')
      .execute(),
    db
      .selectFrom('analytics_funnel')
      .select(['step', sql<number>`sum(count)`.as('count')])
      .where('store_id', 'in', storeIds)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy('step')
      .execute(),
  ]);
  const byKey: PeriodData['byKey'] = new Map();
  for (const c of [...monthCells, ...dayCells]) {
    const k = `${c.dim}|${c.key}`;
    const f = figuresOf(c);
    const had = byKey.get(k);
    if (!had) byKey.set(k, { dim: c.dim, key: c.key, label: c.label ?? '', f });
    else {
      for (const x of Object.keys(f) as (keyof AnalyticsFigures)[]) had.f[x] += f[x];
      if ((c.label ?? '') > had.label) had.label = c.label ?? '';
    }
  }
  return {
    byKey,
    days: new Map(days.map((d) => [d.day, figuresOf(d)])),
    funnel: new Map(funnel.map((f) => [f.step, num(f.count)])),
  };
}

function totalsOf(p: PeriodData): AnalyticsTotals {
  const total = { orders: 0, units: 0, grams_mg: 0, sales_cents: 0, discount_cents: 0, total_cents: 0 };
  for (const f of p.days.values()) for (const k of Object.keys(total) as (keyof AnalyticsFigures)[]) total[k] += f[k];
  const of = (dim: string, key: string) => p.byKey.get(`${dim}|${key}`)?.f.orders ?? 0;
  let cancelled = 0;
  let noShow = 0;
  for (const c of p.byKey.values())
    if (c.dim === 'cancel') {
      if (c.key.startsWith('no_show:')) noShow += c.f.orders;
      else cancelled += c.f.orders;
    }
  const returning = of('customer', 'returning');
  const known = returning + of('customer', 'new');
  return {
    ...total,
    average_order_cents: avg(total.sales_cents, total.orders),
    placed: of('placed', ''),
    cancelled,
    no_show: noShow,
    new_customers: of('customer', 'new'),
    returning_orders: returning,
    repeat_rate: known ? Math.round((returning / known) * 1000) / 1000 : null,
    delivery_orders: of('type', 'delivery'),
    pickup_orders: of('type', 'pickup'),
  };
}

function seriesOf(p: PeriodData, from: string, to: string, grain: AnalyticsGrain): AnalyticsPoint[] {
  const out = new Map<string, AnalyticsPoint>();
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const period = periodOf(d, grain);
    let pt = out.get(period);
    if (!pt) out.set(period, (pt = { period, orders: 0, units: 0, grams_mg: 0, sales_cents: 0, average_order_cents: 0 }));
    const f = p.days.get(d);
    if (!f) continue;
    pt.orders += f.orders;
    pt.units += f.units;
    pt.grams_mg += f.grams_mg;
    pt.sales_cents += f.sales_cents;
  }
  for (const pt of out.values()) pt.average_order_cents = avg(pt.sales_cents, pt.orders);
  return [...out.values()];
}

const LABELS: Partial<Record<AnalyticsBreakdown, Record<string, string>>> = {
  type: { pickup: 'Pickup', delivery: 'Delivery' },
  licence: { recreational: 'Adult use (recreational)', medical: 'Medical' },
  customer: { new: 'New customers', returning: 'Returning customers', guest: 'Guests (no account or phone)' },
};

function labelOf(dim: AnalyticsBreakdown, key: string, label: string): string {
  if (label) return label;
  const fixed = LABELS[dim]?.[key];
  if (fixed) return fixed;
  if (dim === 'hour') return `${key}:00–${String((Number(key) + 1) % 24).padStart(2, '0')}:00`;
  if (dim === 'slot') return key === 'asap' ? 'As soon as possible' : key;
  if (dim === 'cancel') {
    const [status, reason] = key.split(':');
    return `${status === 'no_show' ? 'No-show' : 'Cancelled'}: ${reason.replace(/_/g, ' ')}`;
  }
  return key;
}

function breakdownOf(dim: AnalyticsBreakdown, cur: PeriodData, prev: PeriodData | null): AnalyticsRow[] {
  const rows: AnalyticsRow[] = [];
  // A cell an order left (cancelled, edited) stays as zeros: not a row.
  const live = (c: { f: AnalyticsFigures }) => Object.values(c.f).some((v) => v !== 0);
  for (const c of cur.byKey.values()) if (c.dim === dim && live(c)) rows.push({ key: c.key, label: labelOf(dim, c.key, c.label), ...c.f });
  if (prev) {
    const seen = new Set(rows.map((r) => r.key));
    for (const c of prev.byKey.values())
      if (c.dim === dim && live(c) && !seen.has(c.key)) rows.push({ key: c.key, label: labelOf(dim, c.key, c.label), orders: 0, units: 0, grams_mg: 0, sales_cents: 0, discount_cents: 0, total_cents: 0 });
    for (const r of rows) r.previous = prev.byKey.get(`${dim}|${r.key}`)?.f ?? { orders: 0, units: 0, grams_mg: 0, sales_cents: 0, discount_cents: 0, total_cents: 0 };
  }
  if (dim === 'hour' || dim === 'slot') rows.sort((a, b) => a.key.localeCompare(b.key));
  else if (dim === 'deal') rows.sort((a, b) => b.discount_cents - a.discount_cents || a.key.localeCompare(b.key));
  else rows.sort((a, b) => b.sales_cents - a.sales_cents || b.orders - a.orders || a.key.localeCompare(b.key));
  const top = TOP[dim];
  if (!top || rows.length <= top) return rows;
  const rest = rows.slice(top);
  const other: AnalyticsRow = { key: '_other', label: `Other (${rest.length})`, orders: 0, units: 0, grams_mg: 0, sales_cents: 0, discount_cents: 0, total_cents: 0 };
  if (prev) other.previous = { orders: 0, units: 0, grams_mg: 0, sales_cents: 0, discount_cents: 0, total_cents: 0 };
  for (const r of rest)
    for (const k of ['orders', 'units', 'grams_mg', 'sales_cents', 'discount_cents', 'total_cents'] as const) {
      other[k] += r[k];
      if (other.previous && r.previous) other.previous[k] += r.previous[k];
    }
  return [...rows.slice(0, top), other];
}

function funnelOf(p: PeriodData, placed: number): Map<string, number> {
  return new Map([...FUNNEL_STEPS.map((s) => [s, p.funnel.get(s) ?? 0] as const), ['order_placed', placed]]);
}

export async function analyticsView(db: Db, req: ViewRequest): Promise<AnalyticsView> {
  const ids = req.stores.map((s) => s.id);
  const prevRange = req.compare ? previousRange(req.from, req.to) : null;
  const [cur, prev] = await Promise.all([readPeriod(db, ids, req.from, req.to), prevRange ? readPeriod(db, ids, prevRange.from, prevRange.to) : null]);
  const totals = totalsOf(cur);
  const previousTotals = prev ? totalsOf(prev) : null;
  const breakdowns = Object.fromEntries(ANALYTICS_BREAKDOWNS.map((d) => [d, breakdownOf(d, cur, prev)])) as Record<AnalyticsBreakdown, AnalyticsRow[]>;
  const f = funnelOf(cur, totals.placed);
  const pf = prev && previousTotals ? funnelOf(prev, previousTotals.placed) : null;
  const funnel: AnalyticsFunnelStep[] = [...f.entries()].map(([step, count]) => ({
    step: step as AnalyticsFunnelStep['step'],
    count,
    ...(pf ? { previous: pf.get(step) ?? 0 } : {}),
  }));
  return {
    from: req.from,
    to: req.to,
    grain: req.grain,
    previous: prevRange,
    stores: req.stores,
    totals,
    previous_totals: previousTotals,
    series: seriesOf(cur, req.from, req.to, req.grain),
    previous_series: prev && prevRange ? seriesOf(prev, prevRange.from, prevRange.to, req.grain) : null,
    breakdowns,
    funnel,
  };
}
