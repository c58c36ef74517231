/**
 * Delivery paperwork in the console (issue 29 "Paperwork"; server: apps/server/src/delivery/paperwork-routes.ts):
 *  - "Delivery records": recent trips, each with its manifest and its stops' receipts, the
 *    end-of-day records and a date-range CSV export of every delivery record;
 *  - the trip manifest / delivery inventory ledger, the delivery request receipt and the end-of-day
 *    records as printable pages: the print style sheet (app.css, `@media print`) drops the console's
 *    header and navigation, prints black on white, and starts each order on a new page.
 * Kept apart from the dispatch board (its own file) so the two merge without touching each other.
 */
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { DeliveryReceipt, EndOfDay, RecordLine, RecordsTripItem, TripManifest } from '@verdant/domain/console-api';
import { ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api } from '../lib/api.ts';
import { useSession } from '../lib/session.tsx';
import { date, dateTime, dayIn, money } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import { useStore, useTitle } from './layout.tsx';

const OUTCOME: Record<string, string> = { delivered: 'Delivered', failed: 'Failed' };
const REASON: Record<string, string> = {
  no_valid_id: 'no valid ID',
  not_home: 'not home',
  refused: 'refused',
  under_age: 'under age',
  other: 'other',
};
const grams = (g: number) => `${Number(g.toFixed(3))} g`;

function PrintButton() {
  return (
    <button type="button" className="btn-secondary" data-print="hide" onClick={() => window.print()}>
      Print
    </button>
  );
}

function Lines({ lines, caption }: { lines: RecordLine[]; caption: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-stone-400">
            <th scope="col" className="py-1 pr-2">Product</th>
            <th scope="col" className="py-1 pr-2">Qty</th>
            <th scope="col" className="py-1 pr-2">Package id</th>
            <th scope="col" className="py-1 pr-2">Weight</th>
            <th scope="col" className="py-1 text-right">Amount</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => (
            <tr key={`${l.sku}-${i}`} className="border-b border-stone-200 align-top">
              <td className="py-1 pr-2 break-words">{l.name}</td>
              <td className="py-1 pr-2">
                {l.qty} {l.uom}
              </td>
              <td className="py-1 pr-2 break-all">{l.package_id ?? '—'}{l.batch_number ? ` (batch ${l.batch_number})` : ''}</td>
              <td className="py-1 pr-2">{grams(l.weight_grams)}</td>
              <td className="py-1 text-right">{money(l.row_total_cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The list page: recent trips, the end-of-day records and the export. */
export function DeliveryRecordsPage() {
  useTitle('Delivery records');
  const { store } = useStore();
  const trips = useResource(String(store.id), () => api<{ items: RecordsTripItem[] }>('GET', `/stores/${store.id}/delivery-records/trips`));
  const today = dayIn(new Date(), store.timezone);
  const [from, setFrom] = useState(today.slice(0, 8) + '01');
  const [to, setTo] = useState(today);
  const base = `/stores/${store.id}/delivery-records`;
  // A driver reads only its own trips' manifests (the server refuses the rest).
  const driver = useSession().staff?.role === 'driver';
  return (
    <>
      <PageTitle>Delivery records</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Each trip’s manifest (the delivery inventory ledger), each order’s delivery request receipt and the day’s records, ready to print or
        download. They are kept as long as the store’s <Link className="link" to={`/stores/${store.id}/settings-record-retention`}>record retention</Link> says.
      </p>
      {!driver && <div className="mb-6 flex flex-wrap gap-4">
        <Link className="btn-secondary" to={`${base}/end-of-day?date=${today}`}>
          End-of-day records
        </Link>
      </div>}
      <section aria-labelledby="trips-title" className="mb-6">
        <h2 id="trips-title" className="mb-2 text-lg font-semibold">
          Recent trips
        </h2>
        <ErrorNote>{trips.error}</ErrorNote>
        {trips.loading && !trips.data ? <Loading /> : null}
        {trips.data && trips.data.items.length === 0 ? <p>No trips yet.</p> : null}
        <ul className="grid gap-3">
          {trips.data?.items.map((t) => (
            <li key={t.id} className="card">
              <p className="font-semibold">
                <Link className="link" to={`${base}/trips/${t.id}`}>
                  Manifest {t.ledger_number}
                </Link>{' '}
                <span className="font-normal text-stone-700">
                  · {t.driver_name} · {t.status}
                  {t.started_at ? ` · started ${dateTime(t.started_at, store.timezone)}` : ''}
                </span>
              </p>
              {t.stops.length > 0 && (
                <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label={`Receipts of trip ${t.ledger_number}`}>
                  {t.stops.map((s) => (
                    <li key={s.order_id}>
                      <Link className="link" to={`${base}/orders/${s.order_id}/receipt`}>
                        Receipt #{s.order_number}
                      </Link>
                      {s.outcome ? ` (${OUTCOME[s.outcome]})` : ''}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </section>
      {!driver && <section aria-labelledby="export-title" className="card max-w-xl">
        <h2 id="export-title" className="mb-2 text-lg font-semibold">
          Export every delivery record
        </h2>
        <p className="mb-2 text-sm text-stone-700">One line per stop of the trips that started in the range (the store’s days), as CSV.</p>
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="export-from">From</label>
            <input id="export-from" type="date" className="field" value={from} onChange={(e) => setFrom(e.target.value)} />
          </div>
          <div>
            <label htmlFor="export-to">To</label>
            <input id="export-to" type="date" className="field" value={to} onChange={(e) => setTo(e.target.value)} />
          </div>
          <a className="btn-secondary" href={`/api/console${base}/export.csv?from=${from}&to=${to}`} download>
            Download CSV
          </a>
        </div>
      </section>}
    </>
  );
}

/** The trip manifest / delivery inventory ledger, printable. */
export function TripManifestPage() {
  const { store } = useStore();
  const { tripId } = useParams();
  useTitle('Trip manifest');
  const m = useResource(`${store.id}-${tripId}`, () => api<TripManifest>('GET', `/stores/${store.id}/delivery-records/trips/${tripId}/manifest`));
  const tz = store.timezone;
  if (!m.data) return m.error ? <ErrorNote>{m.error}</ErrorNote> : <Loading />;
  const t = m.data;
  return (
    <article className="print-sheet">
      <PageTitle
        actions={
          <div className="flex flex-wrap gap-2" data-print="hide">
            <PrintButton />
            <a className="btn-secondary" href={`/api/console/stores/${store.id}/delivery-records/trips/${tripId}/manifest.csv`} download>
              Download CSV
            </a>
          </div>
        }
      >
        Trip manifest {t.ledger_number}
      </PageTitle>
      <dl className="mb-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="font-semibold">Ledger number</dt>
        <dd>{t.ledger_number}</dd>
        <dt className="font-semibold">Retailer</dt>
        <dd>
          {t.store.name}, licence {t.store.license_number}
        </dd>
        <dt className="font-semibold">Driver</dt>
        <dd>
          {t.driver.name}, employee {t.driver.employee_number}, driver’s licence {t.driver.licence_number}
        </dd>
        <dt className="font-semibold">Vehicle</dt>
        <dd>
          {t.vehicle.make} {t.vehicle.model}, plate {t.vehicle.plate}
        </dd>
        <dt className="font-semibold">Start time</dt>
        <dd>{t.started_at ? dateTime(t.started_at, tz) : 'Not started'}</dd>
        <dt className="font-semibold">End time</dt>
        <dd>{t.ended_at ? dateTime(t.ended_at, tz) : '—'}</dd>
        <dt className="font-semibold">Carried now</dt>
        <dd>
          {money(t.carried.goods_cents)} of goods, {grams(t.carried.weight_grams)}, {t.carried.orders} order{t.carried.orders === 1 ? '' : 's'} (whole trip{' '}
          {money(t.load.goods_cents)}, {grams(t.load.weight_grams)})
        </dd>
        <dt className="font-semibold">As of</dt>
        <dd>{dateTime(t.as_of, tz)}</dd>
      </dl>
      {t.stops.map((s) => (
        <section key={s.order_id} className="print-order card mb-3" aria-labelledby={`stop-${s.order_id}`}>
          <h2 id={`stop-${s.order_id}`} className="font-semibold">
            Stop {s.position}: order #{s.order_number}
          </h2>
          <p className="text-sm">
            {s.customer_first_name} ({s.customer_type}) · {s.address}
          </p>
          <p className="text-sm">
            {s.outcome ? `${OUTCOME[s.outcome]} ${dateTime(s.outcome_at, tz)}` : 'On board'}
            {s.failed_reason ? ` — ${REASON[s.failed_reason] ?? s.failed_reason}` : ''} · {money(s.goods_cents)} · {grams(s.weight_grams)}
          </p>
          <Lines lines={s.lines} caption={`Goods of order ${s.order_number}`} />
          <p className="mt-1 text-sm" data-print="hide">
            <Link className="link" to={`/stores/${store.id}/delivery-records/orders/${s.order_id}/receipt`}>
              Receipt #{s.order_number}
            </Link>
          </p>
        </section>
      ))}
    </article>
  );
}

/** The delivery request receipt of one order, printable (the customer's copy and the store's signed one). */
export function DeliveryReceiptPage() {
  const { store } = useStore();
  const { orderId } = useParams();
  useTitle('Delivery receipt');
  const r = useResource(`${store.id}-${orderId}`, () => api<DeliveryReceipt>('GET', `/stores/${store.id}/delivery-records/orders/${orderId}/receipt`));
  const tz = store.timezone;
  if (!r.data) return r.error ? <ErrorNote>{r.error}</ErrorNote> : <Loading />;
  const d = r.data;
  return (
    <article className="print-sheet print-order">
      <PageTitle actions={<PrintButton />}>Delivery request receipt #{d.order_number}</PageTitle>
      <dl className="mb-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="font-semibold">Retailer</dt>
        <dd>
          {d.retailer.name}, {d.retailer.address}, licence {d.retailer.license_number}
        </dd>
        <dt className="font-semibold">Driver</dt>
        <dd>{d.driver ? `${d.driver.name}, employee ${d.driver.employee_number}` : 'Not on a trip yet'}</dd>
        <dt className="font-semibold">Prepared by</dt>
        <dd>{d.preparer ? `${d.preparer.name}${d.preparer.staff_number ? `, staff ${d.preparer.staff_number}` : ''}` : '—'}</dd>
        <dt className="font-semibold">Customer</dt>
        <dd>
          {d.customer.first_name}, {d.customer.customer_number ? `customer ${d.customer.customer_number}` : 'guest'} ({d.customer.type})
        </dd>
        <dt className="font-semibold">Requested</dt>
        <dd>{dateTime(d.requested_at, tz)}</dd>
        <dt className="font-semibold">Address</dt>
        <dd>{d.address}</dd>
        <dt className="font-semibold">Delivered</dt>
        <dd>{d.delivered_at ? dateTime(d.delivered_at, tz) : d.outcome === 'failed' ? 'Not delivered' : 'Not yet'}</dd>
      </dl>
      <Lines lines={d.lines} caption={`Goods of order ${d.order_number}`} />
      <dl className="my-4 ml-auto grid max-w-xs grid-cols-[1fr_max-content] gap-x-4 text-sm">
        <dt>Subtotal</dt>
        <dd className="text-right">{money(d.totals.subtotal_cents)}</dd>
        {d.totals.discount_cents > 0 && (
          <>
            <dt>Discounts</dt>
            <dd className="text-right">−{money(d.totals.discount_cents)}</dd>
          </>
        )}
        <dt>Excise tax</dt>
        <dd className="text-right">{money(d.totals.excise_tax_cents)}</dd>
        <dt>Sales tax</dt>
        <dd className="text-right">{money(d.totals.sales_tax_cents)}</dd>
        <dt>Delivery fee</dt>
        <dd className="text-right">{money(d.totals.delivery_fee_cents)}</dd>
        <dt className="font-semibold">Total with taxes and fees</dt>
        <dd className="text-right font-semibold">{money(d.totals.total_cents)}</dd>
      </dl>
      <section aria-labelledby="signature-title">
        <h2 id="signature-title" className="font-semibold">
          Customer’s signature
        </h2>
        {d.signature_png ? (
          <img src={d.signature_png} alt={`Signature of ${d.customer.first_name}`} className="mt-1 h-24 max-w-full border border-stone-400 bg-white" />
        ) : (
          <p>No signature recorded.</p>
        )}
      </section>
    </article>
  );
}

/** The end-of-day records of one store day, printable, with the CSV. */
export function EndOfDayPage() {
  const { store } = useStore();
  useTitle('End-of-day delivery records');
  const [params, setParams] = useSearchParams();
  const day = params.get('date') ?? dayIn(new Date(), store.timezone);
  const data = useResource(`${store.id}-${day}`, () => api<EndOfDay>('GET', `/stores/${store.id}/delivery-records/end-of-day?date=${day}`));
  const tz = store.timezone;
  return (
    <article className="print-sheet">
      <PageTitle
        actions={
          <div className="flex flex-wrap gap-2" data-print="hide">
            <PrintButton />
            <a className="btn-secondary" href={`/api/console/stores/${store.id}/delivery-records/end-of-day.csv?date=${day}`} download>
              Download CSV
            </a>
          </div>
        }
      >
        Deliveries of {date(day, tz)}
      </PageTitle>
      <div className="mb-4" data-print="hide">
        <label htmlFor="eod-date">Day (the store’s time)</label>
        <input
          id="eod-date"
          type="date"
          className="field max-w-48"
          value={day}
          onChange={(e) => {
            if (e.target.value) setParams({ date: e.target.value }, { replace: true });
          }}
        />
      </div>
      <ErrorNote>{data.error}</ErrorNote>
      {!data.data ? (
        data.error ? null : <Loading />
      ) : data.data.records.length === 0 ? (
        <p>No deliveries completed on this day.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Deliveries completed on {date(day, tz)}</caption>
            <thead>
              <tr className="border-b border-stone-400">
                <th scope="col" className="py-1 pr-2">Completed</th>
                <th scope="col" className="py-1 pr-2">Order</th>
                <th scope="col" className="py-1 pr-2">Customer type</th>
                <th scope="col" className="py-1 pr-2">Items</th>
                <th scope="col" className="py-1 pr-2">Qty</th>
                <th scope="col" className="py-1 pr-2">Price</th>
                <th scope="col" className="py-1">City, county, ZIP</th>
              </tr>
            </thead>
            <tbody>
              {data.data.records.map((r) => (
                <tr key={r.order_id} className="border-b border-stone-200 align-top">
                  <td className="py-1 pr-2">{dateTime(r.completed_at, tz)}</td>
                  <td className="py-1 pr-2">
                    <Link className="link" to={`/stores/${store.id}/delivery-records/orders/${r.order_id}/receipt`}>
                      #{r.order_number}
                    </Link>
                  </td>
                  <td className="py-1 pr-2">{r.customer_type}</td>
                  <td className="py-1 pr-2 break-words">{r.items}</td>
                  <td className="py-1 pr-2">{r.quantity}</td>
                  <td className="py-1 pr-2">{money(r.price_cents)}</td>
                  <td className="py-1">{[r.city, r.county, r.zip].filter(Boolean).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}
