/**
 * The daily report of a store: one row per store-local day with the orders, gross (subtotal),
 * discounts, excise and sales tax, delivery fees, and totals.
 *
 * Every row and the total line add up from their columns (issue 26): gross − discounts + excise +
 * sales tax + delivery fee = total, to the cent, as each order's total is made (domain cart
 * totals). The JSON keeps `discount_cents` as the positive amount taken off; the CSV and the
 * console write it negative so the money columns before Total simply add up to it. The tax-line
 * columns after Total are a breakdown of excise + sales tax, not further addends.
 *
 * Which orders count (decided here, the issue leaves it open): COMPLETED orders only, dated by the
 * store-local day they were completed (`status_changed_at`). Orders are paid at pickup or on
 * delivery, so money is taken when staff complete the order; a submitted, confirmed or ready order
 * has not been paid, and a cancelled or no-show order never is. A day without completed orders is
 * listed with zeros so a CSV has one line per day of the range.
 *
 * Named tax lines in the CSV (issue 14, decided here): one column per line after "Total", so the
 * existing columns keep their places; a column is a line's code, title and rate as charged
 * (order_tax_lines), so a rate changed mid-range gives two columns, each its rate's amounts, like
 * the JSON's `tax_lines`. Per day the line columns add up to that day's excise plus sales tax, to
 * the cent (orders placed before the lines were kept, migration 0018, carry none).
 *
 * Deals (issue 28): one column per deal after the tax lines, "Deal: <title>", its part of the
 * Discounts column per day (negative, like it), from each order line's deal shares as kept.
 */
import { MAX_REPORT_DAYS, type DailyRow } from '@verdant/domain/console-api';
import { csvNumber, toCsv } from '../http/csv.ts';
import { orderLineDeals } from '../deals/order-lines.ts';
import { dayStartUtc, localDate, nextDay, type Db, type StoreFacts } from './lifecycle/store-facts.ts';

export { MAX_REPORT_DAYS, type DailyRow } from '@verdant/domain/console-api';

export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to && days.length <= MAX_REPORT_DAYS; d = nextDay(d)) days.push(d);
  return days;
}

export async function dailyReport(db: Db, store: StoreFacts, from: string, to: string): Promise<DailyRow[]> {
  const days = daysBetween(from, to);
  const rows = await db
    .selectFrom('orders')
    .select(['status_changed_at', 'subtotal_cents', 'discount_cents', 'excise_tax_cents', 'sales_tax_cents', 'shipping_cents', 'total_cents'])
    .where('store_id', '=', store.id)
    .where('status', '=', 'completed')
    .where('status_changed_at', '>=', dayStartUtc(from, store.timezone))
    .where('status_changed_at', '<', dayStartUtc(nextDay(to), store.timezone))
    .execute();
  const byDay = new Map<string, DailyRow>(
    days.map((date) => [
      date,
      {
        date,
        orders: 0,
        gross_cents: 0,
        discount_cents: 0,
        excise_tax_cents: 0,
        sales_tax_cents: 0,
        delivery_fee_cents: 0,
        total_cents: 0,
      },
    ]),
  );
  for (const r of rows) {
    const day = byDay.get(localDate(r.status_changed_at as string, store.timezone));
    if (!day) continue;
    day.orders += 1;
    day.gross_cents += r.subtotal_cents;
    day.discount_cents += r.discount_cents;
    day.excise_tax_cents += r.excise_tax_cents;
    day.sales_tax_cents += r.sales_tax_cents;
    day.delivery_fee_cents += r.shipping_cents;
    day.total_cents += r.total_cents;
  }
  return [...byDay.values()];
}

/** One CSV column: a named tax line as charged (code, title, rate), with its amount per store-local day. */
export interface TaxLineColumn {
  code: string;
  title: string;
  rate: number;
  cents_by_day: Map<string, number>;
}

/** The tax-line columns of the report's orders (the same completed orders, by completion day), in the store's line order. */
export async function dailyTaxLineColumns(db: Db, store: StoreFacts, from: string, to: string): Promise<TaxLineColumn[]> {
  const rows = await db
    .selectFrom('order_tax_lines as t')
    .innerJoin('orders as o', 'o.id', 't.order_id')
    .select(['t.code', 't.title', 't.rate', 't.amount_cents', 'o.status_changed_at'])
    .where('o.store_id', '=', store.id)
    .where('o.status', '=', 'completed')
    .where('o.status_changed_at', '>=', dayStartUtc(from, store.timezone))
    .where('o.status_changed_at', '<', dayStartUtc(nextDay(to), store.timezone))
    .orderBy('t.position')
    .orderBy('t.code')
    .orderBy('t.rate')
    .execute();
  const columns = new Map<string, TaxLineColumn>();
  for (const r of rows) {
    const key = `${r.code}|${r.title}|${r.rate}`;
    let column = columns.get(key);
    if (!column) columns.set(key, (column = { code: r.code, title: r.title, rate: r.rate, cents_by_day: new Map() }));
    const day = localDate(r.status_changed_at as string, store.timezone);
    column.cents_by_day.set(day, (column.cents_by_day.get(day) ?? 0) + r.amount_cents);
  }
  return [...columns.values()];
}

/** One CSV column and JSON line per deal (issue 28): its part of the discounts, per store-local day, on the same completed orders. */
export interface DealColumn {
  id: string;
  title: string;
  orders: number;
  discount_cents: number;
  cents_by_day: Map<string, number>;
}

/**
 * The deals of the report's orders, from each order line's deal shares as the order kept them
 * (order_items.deal_discounts), by deal id, largest discount first: a breakdown of the Discounts
 * column (which also holds coupons and points), never a further addend.
 */
export async function dailyDealColumns(db: Db, store: StoreFacts, from: string, to: string): Promise<DealColumn[]> {
  const rows = await db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(['i.order_id', 'i.deal_discounts', 'o.status_changed_at'])
    .where('o.store_id', '=', store.id)
    .where('o.status', '=', 'completed')
    .where('i.deal_discount_cents', '>', 0)
    .where('o.status_changed_at', '>=', dayStartUtc(from, store.timezone))
    .where('o.status_changed_at', '<', dayStartUtc(nextDay(to), store.timezone))
    .orderBy('i.id')
    .execute();
  const columns = new Map<string, DealColumn & { orderIds: Set<number> }>();
  for (const r of rows) {
    const day = localDate(r.status_changed_at as string, store.timezone);
    for (const d of orderLineDeals(r.deal_discounts)) {
      let c = columns.get(d.id);
      if (!c) columns.set(d.id, (c = { id: d.id, title: d.title, orders: 0, discount_cents: 0, cents_by_day: new Map(), orderIds: new Set() }));
      c.orderIds.add(r.order_id);
      c.discount_cents += d.discount_cents;
      c.cents_by_day.set(day, (c.cents_by_day.get(day) ?? 0) + d.discount_cents);
    }
  }
  return [...columns.values()]
    .map(({ orderIds, ...c }) => ({ ...c, orders: orderIds.size }))
    .sort((a, b) => b.discount_cents - a.discount_cents || a.id.localeCompare(b.id));
}

/** Dollars with two decimals as a numeric cell (never escaped: a number cannot run as a formula). */
const dollars = (cents: number) => csvNumber((cents / 100).toFixed(2));

/**
 * The report as CSV through the shared writer (../http/csv.ts): amounts are numeric cells in dollars
 * with two decimals, a total line at the end, the tax-line columns last; their headers are the
 * store's own titles, escaped so a title can never run as a spreadsheet formula.
 */
export function dailyReportCsv(rows: readonly DailyRow[], taxLines: readonly TaxLineColumn[] = [], deals: readonly DealColumn[] = []): string {
  const sum = (k: keyof Omit<DailyRow, 'date'>) => rows.reduce((s, r) => s + r[k], 0);
  const line = (r: Omit<DailyRow, 'date'> & { date: string }) => [
    r.date,
    r.orders,
    dollars(r.gross_cents),
    dollars(-r.discount_cents),
    dollars(r.excise_tax_cents),
    dollars(r.sales_tax_cents),
    dollars(r.delivery_fee_cents),
    dollars(r.total_cents),
    ...taxLines.map((t) =>
      dollars(r.date === 'Total' ? [...t.cents_by_day.values()].reduce((a, b) => a + b, 0) : (t.cents_by_day.get(r.date) ?? 0)),
    ),
    // Each deal's part of the discounts, negative like the Discounts column (issue 28).
    ...deals.map((d) => dollars(-(r.date === 'Total' ? d.discount_cents : (d.cents_by_day.get(r.date) ?? 0)))),
  ];
  const total = {
    date: 'Total',
    orders: sum('orders'),
    gross_cents: sum('gross_cents'),
    discount_cents: sum('discount_cents'),
    excise_tax_cents: sum('excise_tax_cents'),
    sales_tax_cents: sum('sales_tax_cents'),
    delivery_fee_cents: sum('delivery_fee_cents'),
    total_cents: sum('total_cents'),
  };
  const header = [
    'Date',
    'Orders',
    'Gross',
    'Discounts',
    'Excise tax',
    'Sales tax',
    'Delivery fee',
    'Total',
    ...taxLines.map((t) => `${t.title} (${t.rate}%)`),
    ...deals.map((d) => `Deal: ${d.title}`),
  ];
  return toCsv([header, ...rows.map(line), line(total)]);
}
