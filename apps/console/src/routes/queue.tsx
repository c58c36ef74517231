import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ORDER_STATUS_LABELS, ORDER_STATUSES, type OrderStatus } from '@verdant/domain';
import { slotLabel } from '@verdant/domain';
import { Address } from '../components/Address.tsx';
import { CurbsideArrival } from '../components/CurbsideArrival.tsx';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, query } from '../lib/api.ts';
import { waitingText } from '../lib/alerts.tsx';
import { dateTime, money, titleCase } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import type { OrderList, OrderSummary } from '../lib/types.ts';
import { useStore, useTitle } from './layout.tsx';

/** The tabs: work still to do first, then the finished ones. `active` = every status not final. */
const ACTIVE: OrderStatus[] = ['submitted', 'confirmed', 'ready_for_pickup', 'out_for_delivery'];
type Tab = 'active' | OrderStatus | 'all';
const TABS: Tab[] = ['active', ...ORDER_STATUSES, 'all'];
const tabLabel = (tab: Tab) => (tab === 'active' ? 'Open' : tab === 'all' ? 'All' : ORDER_STATUS_LABELS[tab]);

export const HOLD_LABELS = { id: 'ID to verify', medcard: 'Medical card to verify' } as const;

export function statusTone(status: OrderStatus): 'amber' | 'blue' | 'green' | 'red' | 'stone' {
  if (status === 'submitted') return 'amber';
  if (status === 'confirmed' || status === 'ready_for_pickup' || status === 'out_for_delivery') return 'blue';
  if (status === 'completed') return 'green';
  return 'red';
}

export function QueuePage() {
  useTitle('Orders');
  const { store, liveTick, lastEvent, unseen, markAllSeen, liveState, now } = useStore();
  const [params, setParams] = useSearchParams();
  const tab = (params.get('tab') as Tab | null) ?? 'active';
  const type = params.get('type') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const q = params.get('q') ?? '';
  // Issue 26: the queue sorted by when orders are due (slot start, else placed), earliest first.
  const sort = params.get('sort') === 'slot' ? 'slot' : '';
  const [search, setSearch] = useState(q);
  const [more, setMore] = useState<OrderSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [moreError, setMoreError] = useState<string | null>(null);

  const statusParam = tab === 'active' ? ACTIVE.join(',') : tab === 'all' ? undefined : tab;
  const filterQuery = query({ status: statusParam, type, from, to, q, sort, limit: 50 });
  const list = useResource(`${store.id}${filterQuery}`, () => api<OrderList>('GET', `/stores/${store.id}/orders${filterQuery}`));

  // Live: a pushed order event (or a reconnect) reads the first page and the counts again. A new
  // order the list would show gets its row at once, from the event, until that read brings it in full.
  const [provisional, setProvisional] = useState<{ summary: OrderSummary; at: number }[]>([]);
  const lastFetch = useRef(0);
  useEffect(() => {
    if (liveTick === 0) return;
    const event = lastEvent;
    const shown = tab === 'active' || tab === 'submitted' || tab === 'all';
    if (event?.type === 'order.created' && shown && (!type || type === event.order_type) && !q && !from && !to) {
      const summary: OrderSummary = {
        id: event.order_id,
        increment_id: event.increment_id,
        status: 'submitted',
        order_type: event.order_type,
        license_type: 'recreational',
        created_at: new Date().toISOString(),
        ready_by: null,
        customer_name: '',
        phone: '',
        total_cents: 0,
        item_count: 0,
        hold: [],
        version: event.version,
      };
      setProvisional((rows) => (rows.some((r) => r.summary.id === summary.id) ? rows : [{ summary, at: Date.now() }, ...rows]));
    }
    lastFetch.current = Date.now();
    void list.reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [liveTick]);
  useEffect(() => {
    setMore([]);
    setCursor(list.data?.nextCursor ?? null);
    // A read started after an event covers it: its provisional row has done its job.
    setProvisional((rows) => rows.filter((r) => r.at > lastFetch.current));
  }, [list.data]);

  function setParam(name: string, value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  }

  function submitSearch(event: FormEvent) {
    event.preventDefault();
    setParam('q', search.trim());
  }

  async function loadMore() {
    if (!cursor) return;
    try {
      const page = await api<OrderList>(
        'GET',
        `/stores/${store.id}/orders${query({ status: statusParam, type, from, to, q, sort, limit: 50, cursor })}`,
      );
      setMore((rows) => [...rows, ...page.items]);
      setCursor(page.nextCursor);
      setMoreError(null);
    } catch (err) {
      setMoreError((err as Error).message);
    }
  }

  // Roving focus (issue 26): one order link in the Tab order; the arrow keys move between them.
  const [current, setCurrent] = useState(0);
  function roving(event: KeyboardEvent<HTMLTableSectionElement>, count: number) {
    const keys: Record<string, (i: number) => number> = {
      ArrowDown: (i) => Math.min(count - 1, i + 1),
      ArrowUp: (i) => Math.max(0, i - 1),
      Home: () => 0,
      End: () => count - 1,
    };
    const move = keys[event.key];
    const from = (event.target as HTMLElement).closest<HTMLElement>('[data-row]');
    if (!move || !from || count === 0) return;
    event.preventDefault();
    const next = move(Number(from.dataset.row));
    setCurrent(next);
    event.currentTarget.querySelector<HTMLElement>(`[data-row="${next}"]`)?.focus();
  }

  const counts: Partial<OrderList['counts']> = list.data?.counts ?? {};
  const countOf = (t: Tab) =>
    t === 'all'
      ? ORDER_STATUSES.reduce((n, s) => n + (counts[s] ?? 0), 0)
      : t === 'active'
        ? ACTIVE.reduce((n, s) => n + (counts[s] ?? 0), 0)
        : (counts[t] ?? 0);
  const loaded = [...(list.data?.items ?? []), ...more];
  const waiting = new Set(provisional.filter((p) => !loaded.some((o) => o.id === p.summary.id)).map((p) => p.summary.id));
  const rows = [...provisional.filter((p) => waiting.has(p.summary.id)).map((p) => p.summary), ...loaded];

  return (
    <>
      <PageTitle
        actions={
          <>
            <span className="self-center text-sm text-stone-700" role="status">
              {liveState === 'live'
                ? 'Live: new orders appear by themselves'
                : liveState === 'connecting'
                  ? 'Connecting to live updates…'
                  : 'Live updates paused: reconnecting…'}
            </span>
            {unseen.size > 0 && (
              <button type="button" className="btn-secondary" onClick={markAllSeen}>
                Mark {unseen.size} new as seen
              </button>
            )}
          </>
        }
      >
        Orders
      </PageTitle>

      <nav aria-label="Order status" className="mb-4">
        <ul className="flex flex-wrap gap-2">
          {TABS.map((t) => (
            <li key={t}>
              <button
                type="button"
                aria-pressed={tab === t}
                onClick={() => setParam('tab', t === 'active' ? '' : t)}
                className={`rounded-full border px-3 py-1.5 ${tab === t ? 'border-green-800 bg-green-800 text-white' : 'border-stone-400 bg-white text-stone-900 hover:bg-stone-100'}`}
              >
                {tabLabel(t)} <span className="font-semibold">({countOf(t)})</span>
              </button>
            </li>
          ))}
        </ul>
      </nav>

      <div className="card mb-4 flex flex-wrap items-end gap-4">
        <form onSubmit={submitSearch} className="flex items-end gap-2" role="search" aria-label="Orders">
          <div>
            <label htmlFor="order-search">Number, name or phone</label>
            <input id="order-search" className="field" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          </div>
          <button type="submit" className="btn">
            Search
          </button>
        </form>
        <div>
          <label htmlFor="order-type">Type</label>
          <select id="order-type" className="field" value={type} onChange={(e) => setParam('type', e.target.value)}>
            <option value="">Pickup and delivery</option>
            <option value="pickup">Pickup</option>
            <option value="delivery">Delivery</option>
          </select>
        </div>
        <div>
          <label htmlFor="order-sort">Sort</label>
          <select id="order-sort" className="field" value={sort} onChange={(e) => setParam('sort', e.target.value)}>
            <option value="">Newest first</option>
            <option value="slot">Due first (time slot)</option>
          </select>
        </div>
        <div>
          <label htmlFor="order-from">From</label>
          <input id="order-from" className="field" type="date" value={from} onChange={(e) => setParam('from', e.target.value)} />
        </div>
        <div>
          <label htmlFor="order-to">To</label>
          <input id="order-to" className="field" type="date" value={to} onChange={(e) => setParam('to', e.target.value)} />
        </div>
        {(q || type || from || to) && (
          <button
            type="button"
            className="btn-ghost"
            onClick={() => {
              setSearch('');
              setParams(tab === 'active' ? {} : { tab }, { replace: true });
            }}
          >
            Clear filters
          </button>
        )}
      </div>

      <ErrorNote>{list.error}</ErrorNote>
      {/* The top bar's "Skip to the orders list" lands here whatever the list holds (loading, none, rows). */}
      <div id="orders-list" tabIndex={-1}>
        {!list.data && list.loading ? (
          <Loading label="Loading orders…" />
        ) : rows.length === 0 && !list.error ? (
          <p role="status">No orders match.</p>
        ) : (
          <div>
            <table className="data-table stack-table" aria-label={`${tabLabel(tab)} orders`} aria-describedby="orders-keys">
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Placed</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Type</th>
                  <th scope="col">Status</th>
                  <th scope="col">Ready by</th>
                  <th scope="col" className="md:text-right">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody onKeyDown={(event) => roving(event, rows.length)}>
                {rows.map((order, index) => (
                  <tr key={order.id} data-order={order.increment_id}>
                    <td data-label="Order">
                      <Link
                        to={`/stores/${store.id}/orders/${order.id}`}
                        className="link font-semibold"
                        data-row={index}
                        tabIndex={index === Math.min(current, rows.length - 1) ? 0 : -1}
                        onFocus={() => setCurrent(index)}
                      >
                        #{order.increment_id}
                      </Link>
                      {unseen.has(order.id) && (
                        <>
                          {' '}
                          <Badge tone="amber">New</Badge>
                        </>
                      )}
                      {!waiting.has(order.id) && (
                        <div className="text-sm text-stone-700">
                          {order.item_count} {order.item_count === 1 ? 'item' : 'items'}
                        </div>
                      )}
                    </td>
                    <td data-label="Placed">
                      {dateTime(order.created_at, store.timezone)}
                      {order.status === 'submitted' && !waiting.has(order.id) && (
                        <div className="text-sm font-medium text-amber-900" data-testid="waiting">
                          {titleCase(waitingText(order.created_at, now))}
                        </div>
                      )}
                    </td>
                    <td data-label="Customer">
                      {waiting.has(order.id) ? <span className="text-stone-700">Loading…</span> : order.customer_name}
                      <div className="text-sm text-stone-700">{order.phone}</div>
                    </td>
                    <td data-label="Type">
                      {order.order_type === 'pickup' ? 'Pickup' : 'Delivery'}
                      <div className="text-sm text-stone-700">
                        {order.slot_start && order.slot_end ? `Slot ${slotLabel(order.slot_start, order.slot_end, store.timezone)}` : 'ASAP'}
                      </div>
                      {order.order_type === 'delivery' && order.shipping_address ? (
                        <div className="text-sm">
                          <Address value={order.shipping_address} compact />
                        </div>
                      ) : null}
                    </td>
                    <td data-label="Status">
                      <Badge tone={statusTone(order.status)}>{ORDER_STATUS_LABELS[order.status]}</Badge>
                      {order.curbside && order.status === 'ready_for_pickup' ? (
                        <CurbsideArrival arrival={order.curbside} now={now} timeZone={store.timezone} />
                      ) : null}
                      {order.hold.map((h) => (
                        <div key={h} className="mt-1">
                          <Badge tone="red">Held: {HOLD_LABELS[h]}</Badge>
                        </div>
                      ))}
                    </td>
                    <td data-label="Ready by">{order.ready_by ? dateTime(order.ready_by, store.timezone) : '—'}</td>
                    <td data-label="Total" className="md:text-right">
                      {waiting.has(order.id) ? '—' : money(order.total_cents)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p id="orders-keys" className="mt-2 text-sm text-stone-700">
              In the list, the arrow keys move between orders (Home and End: first and last); Enter opens one.
            </p>
          </div>
        )}
      </div>
      <ErrorNote>{moreError}</ErrorNote>
      {cursor && (
        <button type="button" className="btn-secondary mt-4" onClick={() => void loadMore()}>
          Show more orders
        </button>
      )}
    </>
  );
}
