/**
 * The store's deals (issue 28 "The store's side"): the list with its filters, links to the editor
 * and the calendar, "Check a cart" (the active deals on a cart a shopper reads out: what applies and
 * why each other deal does not), and the report of redemptions and discount per deal per day (CSV too).
 * Budtenders read the list; managers and owners create and change deals (the server checks both).
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, errorText, query } from '../lib/api.ts';
import { dateTime, dayIn, money } from '../lib/format.ts';
import { can, useSession } from '../lib/session.tsx';
import { useResource } from '../lib/use-resource.ts';
import type { DealCheck, DealList, DealReport, DealStatusName, DealView } from '../lib/types.ts';
import { useStore, useTitle } from './layout.tsx';

export const KIND_LABELS: Record<DealView['kind'], string> = {
  set_discount: 'Discount on products',
  buy_get: 'Buy X get Y',
  mix_match: 'Mix and match',
  bundle: 'Bundle',
  threshold: 'Spend or quantity threshold',
};
export const STATUS_LABELS: Record<DealStatusName, string> = { active: 'Active', paused: 'Paused', ended: 'Ended' };
export const statusTone = (s: DealStatusName) => (s === 'active' ? 'green' : s === 'paused' ? 'amber' : 'stone');

/** A select's options from a labels record (value → words), in the record's order. */
export function LabelOptions({ labels }: { labels: Readonly<Record<string, string>> }) {
  return (
    <>
      {Object.entries(labels).map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </>
  );
}

/** The way back from a deal's page or the calendar to the list. */
export function BackToDeals({ storeId }: { storeId: number | string }) {
  return (
    <p className="mb-2">
      <Link to={`/stores/${storeId}/deals`} className="link">
        ← All deals
      </Link>
    </p>
  );
}

export function DealsPage() {
  useTitle('Deals');
  const { store } = useStore();
  const { staff } = useSession();
  const [status, setStatus] = useState<DealStatusName | ''>('');
  const [kind, setKind] = useState<DealView['kind'] | ''>('');
  const deals = useResource(`${store.id}|${status}|${kind}`, () => api<DealList>('GET', `/stores/${store.id}/deals${query({ status, kind })}`));
  const writer = can(staff, 'deals:write');

  return (
    <>
      <PageTitle
        actions={
          <>
            <Link to={`/stores/${store.id}/deals-calendar`} className="btn-secondary">
              Calendar
            </Link>
            {writer && (
              <Link to={`/stores/${store.id}/deals/new`} className="btn">
                New deal
              </Link>
            )}
          </>
        }
      >
        Deals
      </PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Deals apply by themselves in the cart and at checkout when their products, days and hours match. Pausing a deal stops it at once;
        ending it is final.
      </p>
      {/* First at the counter: the shopper's question, before the long list. */}
      <CheckCartSection storeId={store.id} />
      <form className="mb-4 flex flex-wrap items-end gap-3" aria-label="Filter deals" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label htmlFor="deal-status">Status</label>
          <select id="deal-status" className="field" value={status} onChange={(e) => setStatus(e.target.value as DealStatusName | '')}>
            <option value="">Any status</option>
            <LabelOptions labels={STATUS_LABELS} />
          </select>
        </div>
        <div>
          <label htmlFor="deal-kind">Kind</label>
          <select id="deal-kind" className="field" value={kind} onChange={(e) => setKind(e.target.value as DealView['kind'] | '')}>
            <option value="">Any kind</option>
            <LabelOptions labels={KIND_LABELS} />
          </select>
        </div>
      </form>
      <ErrorNote>{deals.error}</ErrorNote>
      {!deals.data ? (
        deals.loading && <Loading />
      ) : deals.data.items.length === 0 ? (
        <p>No deals match.</p>
      ) : (
        <table className="data-table stack-table mb-8">
          <caption className="sr-only">Deals</caption>
          <thead>
            <tr>
              <th scope="col">Deal</th>
              <th scope="col">Kind</th>
              <th scope="col">Status</th>
              <th scope="col">Orders</th>
              <th scope="col">Last change</th>
            </tr>
          </thead>
          <tbody>
            {deals.data.items.map((d) => (
              <tr key={d.id}>
                <td data-label="Deal" className="[overflow-wrap:anywhere]">
                  <Link to={`/stores/${store.id}/deals/${d.id}`} className="link font-semibold">
                    {d.title}
                  </Link>
                  {d.headline && d.headline !== d.title && <p className="text-sm text-stone-700">Shoppers see: {d.headline}</p>}
                </td>
                <td data-label="Kind">{KIND_LABELS[d.kind]}</td>
                <td data-label="Status">
                  <Badge tone={statusTone(d.status)}>{STATUS_LABELS[d.status]}</Badge>
                </td>
                <td data-label="Orders">{d.record.limits.budget ? `${d.redeemed} of ${d.record.limits.budget}` : '—'}</td>
                <td data-label="Last change">
                  {dateTime(d.updated_at, store.timezone)} by {d.updated_by}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {can(staff, 'reports:read') && <DealReportSection storeId={store.id} timeZone={store.timezone} />}
    </>
  );
}

function DealReportSection({ storeId, timeZone }: { storeId: number; timeZone: string }) {
  const today = dayIn(new Date(), timeZone);
  const monthAgo = dayIn(new Date(Date.now() - 29 * 86_400_000), timeZone);
  const [from, setFrom] = useState(monthAgo);
  const [to, setTo] = useState(today);
  const [range, setRange] = useState({ from: monthAgo, to: today });
  const report = useResource(`${storeId}|${range.from}|${range.to}`, () => api<DealReport>('GET', `/stores/${storeId}/deals/report${query(range)}`));
  return (
    <section aria-labelledby="deal-report" className="card">
      <h2 id="deal-report" className="mb-3 text-lg font-semibold">
        Deal report
      </h2>
      <p className="mb-3 text-stone-700">Orders that used each deal and the discount they got, per day in the store’s time zone. Cancelled orders are not counted.</p>
      <form
        className="mb-3 flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setRange({ from, to });
        }}
      >
        <div>
          <label htmlFor="deal-report-from">From</label>
          <input id="deal-report-from" type="date" className="field" value={from} required onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div>
          <label htmlFor="deal-report-to">To</label>
          <input id="deal-report-to" type="date" className="field" value={to} required onChange={(e) => setTo(e.target.value)} />
        </div>
        <button type="submit" className="btn">
          Show
        </button>
        <a className="btn-secondary" href={`/api/console/stores/${storeId}/deals/report.csv${query(range)}`} download>
          Download CSV
        </a>
      </form>
      <ErrorNote>{report.error}</ErrorNote>
      {report.data &&
        (report.data.rows.length === 0 ? (
          <p>No deal was used in these days.</p>
        ) : (
          <table className="data-table stack-table">
            <caption className="sr-only">Redemptions and discount per deal per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Deal</th>
                <th scope="col">Orders</th>
                <th scope="col">Discount</th>
              </tr>
            </thead>
            <tbody>
              {report.data.rows.map((r) => (
                <tr key={`${r.date}-${r.deal_id}`}>
                  <td data-label="Day">{r.date}</td>
                  <td data-label="Deal" className="[overflow-wrap:anywhere]">
                    {r.title}
                  </td>
                  <td data-label="Orders">{r.redemptions}</td>
                  <td data-label="Discount">{money(r.discount_cents)}</td>
                </tr>
              ))}
              <tr>
                <td data-label="Day" className="font-semibold">
                  Total
                </td>
                <td data-label="Deal" />
                <td data-label="Orders" className="font-semibold">
                  {report.data.totals.redemptions}
                </td>
                <td data-label="Discount" className="font-semibold">
                  {money(report.data.totals.discount_cents)}
                </td>
              </tr>
            </tbody>
          </table>
        ))}
    </section>
  );
}

/** "Why didn't I get the deal?" for a cart in a shopper's hands: its SKUs and quantities, typed in (POST /deals/check). */
function CheckCartSection({ storeId }: { storeId: number }) {
  const [text, setText] = useState('');
  const [licence, setLicence] = useState<'recreational' | 'medical'>('recreational');
  const [result, setResult] = useState<DealCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    // One line per item: "SKU" or "SKU × 2" / "SKU 2".
    const cart = text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .map((l) => {
        const m = /^(\S+)(?:\s*[x×*]?\s*(\d+))?$/i.exec(l);
        return m ? { sku: m[1], qty: Number(m[2] ?? 1) } : { sku: l, qty: 1 };
      });
    try {
      setResult(await api<DealCheck>('POST', `/stores/${storeId}/deals/check`, { cart, licence }));
    } catch (err) {
      setResult(null);
      setError(errorText(err));
    }
  }
  return (
    <section aria-labelledby="check-cart" className="card mb-8">
      <h2 id="check-cart" className="mb-2 text-lg font-semibold">
        Check a cart
      </h2>
      <p className="mb-3 text-stone-700">“Why didn’t I get the deal?” Type in what is in the shopper’s cart to see which deals apply now and why the others do not.</p>
      <form className="grid gap-3" onSubmit={submit} aria-label="Check a cart">
        <div>
          <label htmlFor="check-cart-lines">Items, one per line</label>
          <p id="check-cart-help" className="text-sm text-stone-700">
            A SKU, then how many: <code>FL-BLUE-DREAM-3-5G 2</code>
          </p>
          <textarea id="check-cart-lines" aria-describedby="check-cart-help" className="field min-h-24 font-mono" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="check-cart-licence">Shopper</label>
            <select id="check-cart-licence" className="field" value={licence} onChange={(e) => setLicence(e.target.value as 'recreational' | 'medical')}>
              <option value="recreational">Recreational</option>
              <option value="medical">Medical patient</option>
            </select>
          </div>
          <button type="submit" className="btn">
            Check
          </button>
        </div>
      </form>
      <ErrorNote>{error}</ErrorNote>
      <div aria-live="polite" data-testid="cart-check">
        {result && (
          <div className="mt-3 grid gap-2 [overflow-wrap:anywhere]">
            <p>
              {money(result.subtotal_cents)} before deals; the deals take {money(result.discount_cents)} off.
            </p>
            {result.applied.length > 0 && (
              <ul className="list-disc pl-5">
                {result.lines.flatMap((l) =>
                  l.deals.map((d) => (
                    <li key={`${l.sku}-${d.code}`}>
                      <span className="font-medium">{d.title}</span>: {money(d.discount_cents)} off {l.name}
                    </li>
                  )),
                )}
              </ul>
            )}
            {result.not_applied.length > 0 && (
              <>
                <h3 className="font-semibold">Do not apply</h3>
                <ul className="list-disc pl-5">
                  {result.not_applied.map((n) => (
                    <li key={n.code}>
                      <span className="font-medium">{n.title}</span>: {n.text}
                    </li>
                  ))}
                </ul>
              </>
            )}
            {result.unknown.length > 0 && <p>Not on the menu (left out): {result.unknown.join(', ')}</p>}
          </div>
        )}
      </div>
    </section>
  );
}
