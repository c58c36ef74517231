import { useState, type FormEvent } from 'react';
import { ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, query } from '../lib/api.ts';
import { date, dayIn, dayRange, money } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import type { DailyReport, ReportRow, ReportTaxLine } from '../lib/types.ts';
import { useStore, useTitle } from './layout.tsx';

/** A discount as the amount it takes off the total: `-$5.00` (and `$0.00`, never `-$0.00`). */
const minus = (cents: number) => money(cents > 0 ? -cents : 0);

export function ReportsPage() {
  useTitle('Daily report');
  const { store } = useStore();
  const today = dayIn(new Date(), store.timezone);
  const weekAgo = dayIn(new Date(Date.now() - 6 * 24 * 3600 * 1000), store.timezone);
  const [from, setFrom] = useState(weekAgo);
  const [to, setTo] = useState(today);
  const [range, setRange] = useState({ from: weekAgo, to: today });
  const q = query(range);
  const report = useResource(`${store.id}${q}`, () => api<DailyReport>('GET', `/stores/${store.id}/reports/daily${q}`));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRange({ from, to });
  };
  const rows = report.data?.rows ?? [];
  const taxLines = report.data?.tax_lines ?? [];
  const sum = (key: keyof Omit<ReportRow, 'date'>) => rows.reduce((n, r) => n + r[key], 0);

  return (
    <>
      <PageTitle
        actions={
          <a className="btn-secondary" href={`/api/console/stores/${store.id}/reports/daily.csv${q}`} download>
            Download CSV
          </a>
        }
      >
        Daily report
      </PageTitle>
      <form onSubmit={submit} className="card mb-4 flex flex-wrap items-end gap-4" aria-label="Report dates">
        <div>
          <label htmlFor="report-from">From</label>
          <input id="report-from" className="field" type="date" required value={from} min="2000-01-01" max={to} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div>
          <label htmlFor="report-to">To</label>
          <input id="report-to" className="field" type="date" required value={to} min={from} max="2099-12-31" onChange={(e) => setTo(e.target.value)} />
        </div>
        <button type="submit" className="btn">
          Show
        </button>
      </form>
      <ErrorNote>{report.error}</ErrorNote>
      {report.loading && !report.data ? (
        <Loading />
      ) : (
        <div className="overflow-x-auto" role="region" aria-label="Daily report table, scrollable" tabIndex={0}>
          <table className="data-table" aria-label={`Orders per day, ${dayRange(range.from, range.to)}`}>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col" className="text-right">
                  Orders
                </th>
                <th scope="col" className="text-right">
                  Gross
                </th>
                <th scope="col" className="text-right">
                  Discounts
                </th>
                <th scope="col" className="text-right">
                  Excise tax
                </th>
                <th scope="col" className="text-right">
                  Sales tax
                </th>
                <th scope="col" className="text-right">
                  Delivery fee
                </th>
                <th scope="col" className="text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={8}>No orders in these dates.</td>
                </tr>
              ) : (
                rows.map((r) => (
                  <tr key={r.date}>
                    <th scope="row" className="whitespace-nowrap font-normal">
                      <time dateTime={r.date}>{date(r.date, store.timezone, { weekday: true })}</time>
                    </th>
                    <td className="text-right">{r.orders}</td>
                    <td className="text-right">{money(r.gross_cents)}</td>
                    <td className="text-right">{minus(r.discount_cents)}</td>
                    <td className="text-right">{money(r.excise_tax_cents)}</td>
                    <td className="text-right">{money(r.sales_tax_cents)}</td>
                    <td className="text-right">{money(r.delivery_fee_cents)}</td>
                    <td className="text-right">{money(r.total_cents)}</td>
                  </tr>
                ))
              )}
            </tbody>
            {rows.length > 1 && (
              <tfoot>
                <tr className="font-semibold">
                  <th scope="row">Total</th>
                  <td className="text-right">{sum('orders')}</td>
                  <td className="text-right">{money(sum('gross_cents'))}</td>
                  <td className="text-right">{minus(sum('discount_cents'))}</td>
                  <td className="text-right">{money(sum('excise_tax_cents'))}</td>
                  <td className="text-right">{money(sum('sales_tax_cents'))}</td>
                  <td className="text-right">{money(sum('delivery_fee_cents'))}</td>
                  <td className="text-right">{money(sum('total_cents'))}</td>
                </tr>
              </tfoot>
            )}
          </table>
          <p className="mt-2 text-sm text-stone-700">Gross − discounts + excise tax + sales tax + delivery fee = total, for each day and in all.</p>
          {/* Each of the store's named tax lines over the dates (issue 14), as charged; they add up to the excise and sales columns. */}
          {taxLines.length > 0 && (
            <table className="data-table mt-6" aria-label={`Tax lines, ${dayRange(range.from, range.to)}`}>
              <thead>
                <tr>
                  <th scope="col">Tax line</th>
                  <th scope="col" className="text-right">
                    Rate
                  </th>
                  <th scope="col" className="text-right">
                    Orders
                  </th>
                  <th scope="col" className="text-right">
                    Taxable
                  </th>
                  <th scope="col" className="text-right">
                    Tax
                  </th>
                </tr>
              </thead>
              <tbody>
                {taxLines.map((l) => (
                  <tr key={`${l.code}|${l.title}|${l.rate}`}>
                    <th scope="row" className="font-normal">
                      {l.title}
                    </th>
                    <td className="text-right">{l.rate}%</td>
                    <td className="text-right">{l.orders}</td>
                    <td className="text-right">{money(l.taxable_cents)}</td>
                    <td className="text-right">{money(l.amount_cents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </>
  );
}
