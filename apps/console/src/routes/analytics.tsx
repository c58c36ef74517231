/**
 * Analytics (issue 31): a store's — or all the member's stores' — sales, orders, customers and the
 * shopper funnel over a range, each chart with its table and a CSV of it, compared with the period
 * before when asked. Owners and managers (reports:read). Figures come from daily rollups
 * (server: analytics/view.ts); the dates are the store's own days.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, query } from '../lib/api.ts';
import { dayIn, dayRange, money } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import type { AnalyticsBreakdown, AnalyticsFigures, AnalyticsGrain, AnalyticsRow, AnalyticsView } from '../lib/types.ts';
import { useSession } from '../lib/session.tsx';
import { BarList, ColumnChart } from './analytics-charts.tsx';
import { useStore, useTitle } from './layout.tsx';

type Preset = '7' | '30' | '90' | 'month' | 'custom';
const PRESETS: [Preset, string][] = [
  ['7', 'Last 7 days'],
  ['30', 'Last 30 days'],
  ['90', 'Last 90 days'],
  ['month', 'This month'],
  ['custom', 'Custom dates'],
];
const DAY = 86_400_000;
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

function rangeOf(preset: Preset, today: string): { from: string; to: string } | null {
  if (preset === 'month') return { from: `${today.slice(0, 8)}01`, to: today };
  if (preset === 'custom') return null;
  return { from: addDays(today, 1 - Number(preset)), to: today };
}
const autoGrain = (from: string, to: string): AnalyticsGrain => {
  const days = (Date.parse(to) - Date.parse(from)) / DAY + 1;
  return days > 120 ? 'month' : days > 45 ? 'week' : 'day';
};

const num = new Intl.NumberFormat('en-US');
const grams = (mg: number) => `${num.format(Math.round(mg / 100) / 10)} g`;
const percent = (x: number) => `${Math.round(x * 1000) / 10}%`;
function change(now: number, before: number | undefined): string | null {
  if (before == null) return null;
  if (before === 0) return now === 0 ? 'no change' : 'new';
  const p = (now - before) / before;
  return `${p >= 0 ? '+' : '−'}${Math.abs(Math.round(p * 1000) / 10)}%`;
}

const BREAKDOWNS: { dim: AnalyticsBreakdown; title: string; key: string; money?: 'discount' }[] = [
  { dim: 'category', title: 'Sales by category', key: 'Category' },
  { dim: 'brand', title: 'Sales by brand', key: 'Brand' },
  { dim: 'product', title: 'Sales by product', key: 'Product' },
  { dim: 'kind', title: 'Sales by kind', key: 'Kind' },
  { dim: 'licence', title: 'Sales by licence type', key: 'Licence' },
  { dim: 'type', title: 'Delivery and pickup', key: 'Order type' },
  { dim: 'slot', title: 'Sales by time slot', key: 'Slot' },
  { dim: 'hour', title: 'Sales by hour of day', key: 'Hour' },
  { dim: 'customer', title: 'New and returning customers', key: 'Customers' },
  { dim: 'deal', title: "Deals' cost", key: 'Deal', money: 'discount' },
  { dim: 'cancel', title: 'Cancellations and no-shows by reason', key: 'Reason' },
  { dim: 'zip', title: 'Delivery orders by ZIP code', key: 'ZIP code' },
];
const FUNNEL_LABELS: Record<string, string> = {
  visit: 'Store visits',
  product_view: 'Product views',
  add_to_cart: 'Added to cart',
  checkout_started: 'Checkout started',
  order_placed: 'Orders placed',
};

export function AnalyticsPage() {
  useTitle('Analytics');
  const { store } = useStore();
  const { stores } = useSession();
  const today = dayIn(new Date(), store.timezone);
  const [preset, setPreset] = useState<Preset>('30');
  const [from, setFrom] = useState(addDays(today, -29));
  const [to, setTo] = useState(today);
  const [grain, setGrain] = useState<AnalyticsGrain | 'auto'>('auto');
  const [compare, setCompare] = useState(true);
  const [scope, setScope] = useState<'store' | 'all'>('store');
  const [shown, setShown] = useState({ from: addDays(today, -29), to: today });
  // "Show" always reads again, even for the same dates (the day's figures move as orders come in).
  const [asked, setAsked] = useState(0);

  const pickPreset = (p: Preset) => {
    setPreset(p);
    const r = rangeOf(p, today);
    if (r) {
      setFrom(r.from);
      setTo(r.to);
      setShown(r);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown({ from, to });
    setAsked((n) => n + 1);
  };
  const g = grain === 'auto' ? autoGrain(shown.from, shown.to) : grain;
  const q = query({ from: shown.from, to: shown.to, grain: g, compare: compare ? 1 : 0 });
  const base = scope === 'all' ? '/analytics' : `/stores/${store.id}/analytics`;
  const view = useResource(`${base}${q}#${asked}`, () => api<AnalyticsView>('GET', `${base}${q}`));
  const csv = (table: string) => `/api/console${base}.csv${q}&table=${table}`;
  const v = view.data;
  const where = scope === 'all' ? `all your stores (${v?.stores.length ?? stores.length})` : store.name;

  return (
    <>
      <PageTitle>Analytics</PageTitle>
      <form onSubmit={submit} className="card mb-4 flex flex-wrap items-end gap-4" aria-label="Analytics dates">
        <div>
          <label htmlFor="an-preset">Dates</label>
          <select id="an-preset" className="field" value={preset} onChange={(e) => pickPreset(e.target.value as Preset)}>
            {PRESETS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="an-from">From</label>
          <input id="an-from" className="field" type="date" required value={from} max={to} onChange={(e) => (setFrom(e.target.value), setPreset('custom'))} />
        </div>
        <div>
          <label htmlFor="an-to">To</label>
          <input id="an-to" className="field" type="date" required value={to} min={from} onChange={(e) => (setTo(e.target.value), setPreset('custom'))} />
        </div>
        <div>
          <label htmlFor="an-grain">Group by</label>
          <select id="an-grain" className="field" value={grain} onChange={(e) => setGrain(e.target.value as AnalyticsGrain | 'auto')}>
            <option value="auto">Automatic</option>
            <option value="day">Day</option>
            <option value="week">Week</option>
            <option value="month">Month</option>
          </select>
        </div>
        {stores.length > 1 && (
          <div>
            <label htmlFor="an-scope">Stores</label>
            <select id="an-scope" className="field" value={scope} onChange={(e) => setScope(e.target.value as 'store' | 'all')}>
              <option value="store">This store</option>
              <option value="all">All my stores</option>
            </select>
          </div>
        )}
        <label className="flex items-center gap-2 pb-2">
          <input type="checkbox" checked={compare} onChange={(e) => setCompare(e.target.checked)} />
          Compare with the previous period
        </label>
        <button type="submit" className="btn">
          Show
        </button>
      </form>
      <p className="mb-4 text-stone-700" role="status">
        {v ? `${where}, ${dayRange(v.from, v.to)}${v.previous ? `, compared with ${dayRange(v.previous.from, v.previous.to)}` : ''}.` : ''}
      </p>
      <ErrorNote>{view.error}</ErrorNote>
      {view.loading && !v ? <Loading /> : v ? <Dashboard v={v} csv={csv} /> : null}
    </>
  );
}

function Dashboard({ v, csv }: { v: AnalyticsView; csv: (table: string) => string }) {
  const t = v.totals;
  const p = v.previous_totals;
  const cards: [string, string, number, number | undefined][] = [
    ['Sales', money(t.sales_cents), t.sales_cents, p?.sales_cents],
    ['Orders', num.format(t.orders), t.orders, p?.orders],
    ['Average order', money(t.average_order_cents), t.average_order_cents, p?.average_order_cents],
    ['Units', num.format(t.units), t.units, p?.units],
    ['Grams', grams(t.grams_mg), t.grams_mg, p?.grams_mg],
    ['New customers', num.format(t.new_customers), t.new_customers, p?.new_customers],
    ['Repeat rate', t.repeat_rate == null ? '—' : percent(t.repeat_rate), t.repeat_rate ?? 0, p ? (p.repeat_rate ?? 0) : undefined],
    ['Delivery / pickup', `${num.format(t.delivery_orders)} / ${num.format(t.pickup_orders)}`, t.delivery_orders, p?.delivery_orders],
    ['Cancelled', num.format(t.cancelled), t.cancelled, p?.cancelled],
    ['No-shows', num.format(t.no_show), t.no_show, p?.no_show],
  ];
  const seriesLabel = (period: string) => (v.grain === 'month' ? period.slice(0, 7) : period.slice(5));
  return (
    <div className="space-y-6">
      <section aria-labelledby="an-summary">
        <h2 id="an-summary" className="mb-2 text-lg font-semibold">
          Summary
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {cards.map(([label, value, now, before]) => (
            <div key={label} className="card">
              <dt className="text-sm text-stone-700">{label}</dt>
              <dd className="text-xl font-semibold tabular-nums">{value}</dd>
              {p && <dd className="text-sm text-stone-700">{change(now, before)} vs previous</dd>}
            </div>
          ))}
        </dl>
      </section>

      <Section id="series" title={`Sales by ${v.grain}`} csv={csv('series')}>
        {(tableId) => (
          <>
            <ColumnChart
              title={`Sales by ${v.grain}${v.previous ? ', previous period dashed' : ''}`}
              tableId={tableId}
              bars={v.series.map((s, i) => {
                const prev = v.previous_series?.[i];
                return {
                  label: seriesLabel(s.period),
                  value: s.sales_cents,
                  previous: prev?.sales_cents,
                  text: `${s.period}: ${money(s.sales_cents)}, ${s.orders} orders${prev ? `; previous ${money(prev.sales_cents)}` : ''}`,
                };
              })}
            />
            <Table id={tableId} caption={`Sales by ${v.grain}`} head={['Period', 'Orders', 'Sales', 'Average order', 'Units', 'Grams', ...(v.previous_series ? ['Previous sales'] : [])]}>
              {v.series.map((s, i) => (
                <tr key={s.period}>
                  <th scope="row" className="font-normal">
                    {s.period}
                  </th>
                  <Num>{num.format(s.orders)}</Num>
                  <Num>{money(s.sales_cents)}</Num>
                  <Num>{money(s.average_order_cents)}</Num>
                  <Num>{num.format(s.units)}</Num>
                  <Num>{grams(s.grams_mg)}</Num>
                  {v.previous_series && <Num>{money(v.previous_series[i]?.sales_cents ?? 0)}</Num>}
                </tr>
              ))}
            </Table>
          </>
        )}
      </Section>

      <Section id="funnel" title="Shopper funnel" csv={csv('funnel')}>
        {(tableId) => (
          <>
            <BarList
              title="Shopper funnel"
              tableId={tableId}
              bars={v.funnel.map((s) => ({ key: s.step, label: FUNNEL_LABELS[s.step], value: s.count, previous: s.previous, text: num.format(s.count) }))}
            />
            <Table id={tableId} caption="Shopper funnel" head={['Step', 'Count', 'Of the step before', ...(v.previous ? ['Previous'] : [])]}>
              {v.funnel.map((s, i) => {
                const before = i > 0 ? v.funnel[i - 1].count : null;
                return (
                  <tr key={s.step}>
                    <th scope="row" className="font-normal">
                      {FUNNEL_LABELS[s.step]}
                    </th>
                    <Num>{num.format(s.count)}</Num>
                    <Num>{before ? percent(s.count / before) : '—'}</Num>
                    {v.previous && <Num>{num.format(s.previous ?? 0)}</Num>}
                  </tr>
                );
              })}
            </Table>
            <p className="mt-2 text-sm text-stone-700">Counted on the server, per day: no trackers, no cookies, nothing about the shopper kept. Bots are not counted.</p>
          </>
        )}
      </Section>

      {BREAKDOWNS.map((b) => (
        <Breakdown key={b.dim} b={b} rows={v.breakdowns[b.dim]} compare={!!v.previous} csv={csv(b.dim)} />
      ))}
    </div>
  );
}

function Breakdown({ b, rows, compare, csv }: { b: (typeof BREAKDOWNS)[number]; rows: AnalyticsRow[]; compare: boolean; csv: string }) {
  const value = (f: AnalyticsFigures) => (b.money === 'discount' ? f.discount_cents : b.dim === 'cancel' || b.dim === 'zip' ? f.orders : f.sales_cents);
  const text = (f: AnalyticsFigures) => (b.dim === 'cancel' || b.dim === 'zip' ? `${num.format(f.orders)} orders` : money(value(f)));
  return (
    <Section id={b.dim} title={b.title} csv={csv}>
      {(tableId) =>
        rows.length === 0 ? (
          <p className="text-stone-700">Nothing in these dates.</p>
        ) : (
          <>
            <BarList
              title={b.title}
              tableId={tableId}
              bars={rows.slice(0, 10).map((r) => ({ key: r.key, label: r.label, value: value(r), previous: r.previous ? value(r.previous) : undefined, text: text(r) }))}
            />
            <Table
              id={tableId}
              caption={b.title}
              head={[b.key, 'Orders', 'Units', 'Grams', 'Sales', 'Discounts', ...(compare ? ['Previous orders', 'Previous sales', 'Change'] : [])]}
            >
              {rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row" className="font-normal">
                    {r.label}
                  </th>
                  <Num>{num.format(r.orders)}</Num>
                  <Num>{num.format(r.units)}</Num>
                  <Num>{grams(r.grams_mg)}</Num>
                  <Num>{money(r.sales_cents)}</Num>
                  <Num>{money(r.discount_cents)}</Num>
                  {compare && (
                    <>
                      <Num>{num.format(r.previous?.orders ?? 0)}</Num>
                      <Num>{money(r.previous?.sales_cents ?? 0)}</Num>
                      <Num>{change(value(r), r.previous ? value(r.previous) : 0) ?? ''}</Num>
                    </>
                  )}
                </tr>
              ))}
            </Table>
          </>
        )
      }
    </Section>
  );
}

function Section({ id, title, csv, children }: { id: string; title: string; csv: string; children: (tableId: string) => ReactNode }) {
  const tableId = `${useId()}-table`;
  return (
    <section aria-labelledby={`an-${id}`} className="card" data-testid={`analytics-${id}`}>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id={`an-${id}`} className="text-lg font-semibold">
          {title}
        </h2>
        <a className="btn-secondary" href={csv} download aria-label={`Download CSV: ${title}`}>
          Download CSV
        </a>
      </div>
      {children(tableId)}
    </section>
  );
}

function Table({ id, caption, head, children }: { id: string; caption: string; head: string[]; children: ReactNode }) {
  return (
    <details className="mt-3">
      <summary className="cursor-pointer font-medium">Table: {caption}</summary>
      <div className="mt-2 overflow-x-auto" role="region" aria-label={`${caption}, table, scrollable`} tabIndex={0}>
        <table id={id} className="data-table">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              {head.map((h, i) => (
                <th key={h} scope="col" className={i ? 'text-right' : ''}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </details>
  );
}

const Num = ({ children }: { children: ReactNode }) => <td className="text-right tabular-nums">{children}</td>;
