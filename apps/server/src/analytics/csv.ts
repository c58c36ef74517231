/** Each table of a dashboard view as a CSV file (issue 31: "CSV of every table"). Money in dollars to the cent, grams to the milligram. */
import type { AnalyticsFigures, AnalyticsTable, AnalyticsView } from '@verdant/domain/console-api';
import { csvNumber, toCsv, type CsvCell } from '../http/csv.ts';

const dollars = (cents: number) => csvNumber((cents / 100).toFixed(2));
const grams = (mg: number) => csvNumber((mg / 1000).toFixed(3));
const FIGURE_HEADERS = ['Orders', 'Units', 'Grams', 'Sales', 'Discounts', 'Total'];
const figures = (f: AnalyticsFigures): CsvCell[] => [f.orders, f.units, grams(f.grams_mg), dollars(f.sales_cents), dollars(f.discount_cents), dollars(f.total_cents)];

export function analyticsCsv(view: AnalyticsView, table: AnalyticsTable): string {
  const compare = !!view.previous;
  if (table === 'series') {
    const rows: CsvCell[][] = [['Period', 'Orders', 'Units', 'Grams', 'Sales', 'Average order', ...(compare ? ['Previous period', 'Previous orders', 'Previous sales'] : [])]];
    view.series.forEach((p, i) => {
      const q = view.previous_series?.[i];
      rows.push([p.period, p.orders, p.units, grams(p.grams_mg), dollars(p.sales_cents), dollars(p.average_order_cents), ...(compare ? [q?.period ?? '', q?.orders ?? 0, dollars(q?.sales_cents ?? 0)] : [])]);
    });
    return toCsv(rows);
  }
  if (table === 'funnel') {
    const rows: CsvCell[][] = [['Step', 'Count', ...(compare ? ['Previous'] : [])]];
    for (const s of view.funnel) rows.push([s.step, s.count, ...(compare ? [s.previous ?? 0] : [])]);
    return toCsv(rows);
  }
  const rows: CsvCell[][] = [['Key', 'Name', ...FIGURE_HEADERS, ...(compare ? FIGURE_HEADERS.map((h) => `Previous ${h.toLowerCase()}`) : [])]];
  for (const r of view.breakdowns[table]) rows.push([r.key, r.label, ...figures(r), ...(compare && r.previous ? figures(r.previous) : [])]);
  return toCsv(rows);
}
