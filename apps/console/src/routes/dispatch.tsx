/**
 * The dispatch board (issue 29 "Drivers, vehicles, trips"), for a manager in a rush on a tablet:
 *
 * - `DispatchPage` (/stores/:id/dispatch): the delivery orders ready to go (GET /delivery/ready),
 *   grouped by zone and time slot, each with a checkbox; pick some, a driver and a vehicle, and
 *   "Create the trip" opens the new trip. Below, the trips by status (planned / started / ended tabs).
 * - `TripPage` (/stores/:id/dispatch/trips/:tripId): the stops in order with address, ZIP, miles
 *   and total; the load against the store's limits with what it is over; reorder by dragging a
 *   stop's handle (pointer events: mouse, pen and touch alike) or by the Move up / Move down buttons
 *   (keyboard and screen readers: dragging alone is not accessible), "Use suggested order" (nearest
 *   the store first), add or take off an order, and Start.
 *
 * The server decides; the page shows its sentences as they are: 409 `order_on_trip` when another
 * dispatcher took an order first ("Order … is already on trip …"), 400 `trip_over_limit` naming
 * each limit and by how much. Budtenders read everything; only managers and owners change anything.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type PointerEvent } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, ApiFailure, errorText, query } from '../lib/api.ts';
import { dateTime, money, slotRange } from '../lib/format.ts';
import { can, useSession } from '../lib/session.tsx';
import { useResource } from '../lib/use-resource.ts';
import type { TripLimitProblem } from '@verdant/domain';
import { STOP_FAILED_REASON_LABELS } from '@verdant/domain/console-api';
import type {
  DeliveryOrderView,
  DeliveryReady,
  DriverDeviceView,
  DriverView,
  TripEndAnswer,
  TripEndSummary,
  TripStatusName,
  TripSuggestedOrder,
  TripView,
  VehicleView,
} from '../lib/types.ts';
import { DeliveryNav } from './fleet.tsx';
import { useStore, useTitle } from './layout.tsx';

const STATUS_LABELS: Record<TripStatusName, string> = { planned: 'Planned', started: 'Started', ended: 'Ended' };
const STATUS_TONE: Record<TripStatusName, 'amber' | 'blue' | 'stone'> = { planned: 'amber', started: 'blue', ended: 'stone' };

const GRAMS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const grams = (g: number) => `${GRAMS.format(Math.round(g * 100) / 100)} g`;
const miles = (m: number | null) => (m == null ? 'distance unknown' : `${m.toFixed(1)} mi`);

/** A failure's sentence, with each limit the server names (400 trip_over_limit: meta.over). */
function failureText(err: unknown): { text: string; over: TripLimitProblem[] } {
  const over = err instanceof ApiFailure && err.errorCode === 'trip_over_limit' && Array.isArray(err.meta?.over) ? (err.meta.over as TripLimitProblem[]) : [];
  return { text: errorText(err), over };
}

function FailureNote({ failure }: { failure: { text: string; over: TripLimitProblem[] } | null }) {
  if (!failure) return null;
  return (
    <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
      {failure.over.length > 0 ? (
        <>
          <p className="font-semibold">This trip cannot start: it is over the store’s limits.</p>
          <ul className="mt-1 list-disc pl-5">
            {failure.over.map((p) => (
              <li key={p.limit}>{p.message}</li>
            ))}
          </ul>
        </>
      ) : (
        <p>{failure.text}</p>
      )}
    </div>
  );
}

function Notice({ text }: { text: string }) {
  return (
    <p role="status" className={text ? 'mb-3 rounded border border-green-300 bg-green-50 px-3 py-2 text-green-950' : 'sr-only'}>
      {text}
    </p>
  );
}

function orderLine(o: DeliveryOrderView) {
  return `${o.address}${o.zip ? ` (ZIP ${o.zip})` : ''}`;
}

// --- The board -----------------------------------------------------------------------------------

export function DispatchPage() {
  useTitle('Dispatch');
  const { store } = useStore();
  const { staff } = useSession();
  const manager = can(staff, 'settings:write');
  const navigate = useNavigate();
  const base = `/stores/${store.id}/delivery`;
  const ready = useResource(`${store.id}|ready`, () => api<DeliveryReady>('GET', `${base}/ready`));
  const drivers = useResource(`${store.id}|drivers`, () => api<{ items: DriverView[] }>('GET', `${base}/drivers`));
  const vehicles = useResource(`${store.id}|vehicles`, () => api<{ items: VehicleView[] }>('GET', `${base}/vehicles`));
  const [picked, setPicked] = useState<number[]>([]);
  const [driverId, setDriverId] = useState('');
  const [vehicleId, setVehicleId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Orders another dispatcher took are no longer offered: keep only the picks still ready.
  const readyIds = new Set((ready.data?.zones ?? []).flatMap((z) => z.slots.flatMap((s) => s.orders.map((o) => o.id))));
  const picks = picked.filter((id) => readyIds.has(id));

  async function create(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!driverId || !vehicleId) {
      setError('Choose a driver and a vehicle for the trip.');
      document.getElementById(driverId ? 'trip-vehicle' : 'trip-driver')?.focus();
      return;
    }
    setBusy(true);
    try {
      const trip = await api<TripView>('POST', `${base}/trips`, { driverId: Number(driverId), vehicleId: Number(vehicleId), orderIds: picks });
      navigate(`/stores/${store.id}/dispatch/trips/${trip.id}`, { state: { notice: `Trip ${trip.ledger_number} was created with ${trip.stops.length} ${trip.stops.length === 1 ? 'stop' : 'stops'}.` } });
    } catch (err) {
      setError(errorText(err));
      // 409 order_on_trip: another dispatcher took an order meanwhile; the list shows what is left.
      void ready.reload();
    } finally {
      setBusy(false);
    }
  }

  const activeDrivers = (drivers.data?.items ?? []).filter((d) => d.active);
  const activeVehicles = (vehicles.data?.items ?? []).filter((v) => v.active);

  return (
    <>
      <PageTitle>Dispatch</PageTitle>
      <DeliveryNav storeId={store.id} />
      <form onSubmit={create} aria-labelledby="ready-title" className="mb-6 grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(16rem,1fr)] lg:items-start">
        <section aria-labelledby="ready-title" className="card min-w-0">
          <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
            <h2 id="ready-title" className="text-lg font-semibold">
              Ready to go{ready.data ? ` (${ready.data.count})` : ''}
            </h2>
            <button type="button" className="btn-secondary" onClick={() => void ready.reload()}>
              Refresh
            </button>
          </div>
          <p className="mb-3 text-sm text-stone-700">Confirmed delivery orders on no open trip, by zone and time slot.</p>
          <ErrorNote>{ready.error}</ErrorNote>
          {!ready.data ? (
            <Loading />
          ) : ready.data.count === 0 ? (
            <p>No delivery order is waiting for a trip.</p>
          ) : (
            <div className="grid gap-4">
              {ready.data.zones.map((zone) => (
                <section key={zone.zone} aria-label={`Zone ${zone.zone}`}>
                  <h3 className="font-semibold text-green-900">{zone.zone}</h3>
                  {zone.slots.map((slot) => {
                    const slotName = slot.slot_start ? slotRange(slot.slot_start, slot.slot_end, store.timezone) : 'As soon as possible';
                    return (
                      <fieldset key={`${slot.slot_start}`} className="mt-2 rounded border border-stone-200 p-2">
                        <legend className="px-1 text-sm font-semibold text-stone-800">{slotName}</legend>
                        <ul className="grid gap-1">
                          {slot.orders.map((o) => (
                            <li key={o.id}>
                              <label className="flex min-h-11 items-start gap-3 rounded px-1 py-1 font-normal hover:bg-stone-50">
                                <input
                                  type="checkbox"
                                  className="mt-1 size-5 shrink-0"
                                  disabled={!manager}
                                  checked={picks.includes(o.id)}
                                  onChange={(e) => setPicked(e.target.checked ? [...picks, o.id] : picks.filter((id) => id !== o.id))}
                                />
                                <span className="min-w-0 [overflow-wrap:anywhere]">
                                  <span className="font-semibold">#{o.increment_id}</span> · {o.customer_name} · {money(o.total_cents)}
                                  <span className="block text-sm text-stone-700">
                                    {orderLine(o)} · {miles(o.miles)} · {grams(o.weight_grams)}
                                  </span>
                                </span>
                              </label>
                            </li>
                          ))}
                        </ul>
                      </fieldset>
                    );
                  })}
                </section>
              ))}
            </div>
          )}
        </section>
        {manager && (
          <section aria-labelledby="build-title" className="card grid gap-3 lg:sticky lg:top-2">
            <h2 id="build-title" className="text-lg font-semibold">
              New trip
            </h2>
            <p aria-live="polite" className="text-stone-800">
              {picks.length === 0 ? 'No order picked: the trip starts empty.' : `${picks.length} ${picks.length === 1 ? 'order' : 'orders'} picked.`}
            </p>
            <div>
              <label htmlFor="trip-driver">Driver</label>
              <select id="trip-driver" className="field" value={driverId} onChange={(e) => setDriverId(e.target.value)}>
                <option value="">Choose a driver</option>
                {activeDrivers.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name} ({d.employee_number})
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="trip-vehicle">Vehicle</label>
              <select id="trip-vehicle" className="field" value={vehicleId} onChange={(e) => setVehicleId(e.target.value)}>
                <option value="">Choose a vehicle</option>
                {activeVehicles.map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.make} {v.model} ({v.plate})
                  </option>
                ))}
              </select>
            </div>
            <ErrorNote>{error}</ErrorNote>
            <button type="submit" className="btn" disabled={busy}>
              {busy ? 'Creating…' : 'Create the trip'}
            </button>
          </section>
        )}
      </form>
      <PhonesPanel storeId={store.id} timeZone={store.timezone} />
      <TripsList storeId={store.id} timeZone={store.timezone} />
    </>
  );
}

/**
 * What each driver's phone still holds (GET /delivery/devices, after the merge of the driver-actions
 * server): actions taken offline that have not reached the server yet, since when, and when the phone
 * last reported. A phone with actions waiting is listed first and marked.
 */
function PhonesPanel({ storeId, timeZone }: { storeId: number; timeZone: string }) {
  const phones = useResource(`${storeId}|devices`, () => api<{ items: DriverDeviceView[] }>('GET', `/stores/${storeId}/delivery/devices`));
  const items = [...(phones.data?.items ?? [])].sort((x, y) => y.pending - x.pending || Date.parse(y.seen_at) - Date.parse(x.seen_at));
  return (
    <section aria-labelledby="phones-title" className="card mb-6">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="phones-title" className="text-lg font-semibold">
          Phones
        </h2>
        <button type="button" className="btn-secondary" onClick={() => void phones.reload()}>
          Refresh phones
        </button>
      </div>
      <p className="mb-2 text-sm text-stone-700">Drivers’ actions taken without signal wait on the phone until it is back online.</p>
      <ErrorNote>{phones.error}</ErrorNote>
      {!phones.data ? (
        <Loading />
      ) : items.length === 0 ? (
        <p>No phone has reported yet.</p>
      ) : (
        <table className="data-table stack-table">
          <caption className="sr-only">Phones</caption>
          <thead>
            <tr>
              <th scope="col">Driver</th>
              <th scope="col">Waiting</th>
              <th scope="col">Since</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {items.map((d) => (
              <tr key={d.device_id}>
                <td data-label="Driver" className="font-semibold [overflow-wrap:anywhere]">
                  {d.staff_name ?? 'Unknown login'}
                </td>
                <td data-label="Waiting">
                  {d.pending === 0 ? <Badge tone="green">Nothing waiting</Badge> : <Badge tone="amber">{d.pending === 1 ? '1 action waiting' : `${d.pending} actions waiting`}</Badge>}
                </td>
                <td data-label="Since">{d.pending > 0 ? dateTime(d.oldest_pending_at, timeZone) : '—'}</td>
                <td data-label="Last seen">{dateTime(d.seen_at, timeZone)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The trips by status: tabs (arrow keys move between them, as the tabs pattern expects). */
function TripsList({ storeId, timeZone }: { storeId: number; timeZone: string }) {
  const [status, setStatus] = useState<TripStatusName>('planned');
  const trips = useResource(`${storeId}|trips|${status}`, () => api<{ items: TripView[] }>('GET', `/stores/${storeId}/delivery/trips${query({ status })}`));
  const tabs = useRef<Record<string, HTMLButtonElement | null>>({});
  const order = Object.keys(STATUS_LABELS) as TripStatusName[];
  function onKey(event: KeyboardEvent) {
    const i = order.indexOf(status);
    const next = event.key === 'ArrowRight' ? order[(i + 1) % order.length] : event.key === 'ArrowLeft' ? order[(i + order.length - 1) % order.length] : null;
    if (!next) return;
    event.preventDefault();
    setStatus(next);
    tabs.current[next]?.focus();
  }
  return (
    <section aria-labelledby="trips-title" className="card">
      <h2 id="trips-title" className="mb-2 text-lg font-semibold">
        Trips
      </h2>
      <div role="tablist" aria-label="Trips by status" className="mb-3 flex flex-wrap gap-2" onKeyDown={onKey}>
        {order.map((s) => (
          <button
            key={s}
            ref={(el) => {
              tabs.current[s] = el;
            }}
            type="button"
            role="tab"
            id={`trips-tab-${s}`}
            aria-selected={status === s}
            aria-controls="trips-panel"
            tabIndex={status === s ? 0 : -1}
            className={status === s ? 'btn' : 'btn-secondary'}
            onClick={() => setStatus(s)}
          >
            {STATUS_LABELS[s]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="trips-panel" aria-labelledby={`trips-tab-${status}`}>
        <ErrorNote>{trips.error}</ErrorNote>
        {!trips.data ? (
          <Loading />
        ) : trips.data.items.length === 0 ? (
          <p>No {STATUS_LABELS[status].toLowerCase()} trips.</p>
        ) : (
          <ul className="grid gap-2">
            {trips.data.items.map((t) => (
              <li key={t.id} className="rounded border border-stone-200 p-3">
                <Link to={`/stores/${storeId}/dispatch/trips/${t.id}`} className="link font-semibold">
                  {t.ledger_number}
                </Link>{' '}
                <Badge tone={STATUS_TONE[t.status]}>{STATUS_LABELS[t.status]}</Badge>
                {t.over.length > 0 && (
                  <>
                    {' '}
                    <Badge tone="red">Over a limit</Badge>
                  </>
                )}
                <p className="text-sm text-stone-800 [overflow-wrap:anywhere]">
                  {t.driver.name} · {t.vehicle.make} {t.vehicle.model} ({t.vehicle.plate}) · {t.stops.length} {t.stops.length === 1 ? 'stop' : 'stops'} ·{' '}
                  {money(t.load.goods_cents)}
                  {t.started_at ? ` · started ${dateTime(t.started_at, timeZone)}` : ` · created ${dateTime(t.created_at, timeZone)}`}
                </p>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

// --- One trip ------------------------------------------------------------------------------------

export function TripPage() {
  const { store } = useStore();
  const { staff } = useSession();
  const { tripId } = useParams();
  const base = `/stores/${store.id}/delivery`;
  const tripPath = `${base}/trips/${tripId}`;
  const trip = useResource(`${store.id}|trip|${tripId}`, () => api<TripView>('GET', tripPath));
  useTitle(trip.data ? `Trip ${trip.data.ledger_number}` : 'Trip');
  const t = trip.data;
  const editable = can(staff, 'settings:write') && t?.status === 'planned';
  const ready = useResource(editable ? `${store.id}|ready` : null, () => api<DeliveryReady>('GET', `${base}/ready`));
  const location = useLocation();
  const [notice, setNotice] = useState<string>(() => ((location.state as { notice?: string } | null)?.notice ?? ''));
  const [failure, setFailure] = useState<{ text: string; over: TripLimitProblem[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [addId, setAddId] = useState('');
  const [drag, setDrag] = useState<{ id: number; to: number } | null>(null);
  const [ended, setEnded] = useState<TripEndSummary | null>(null);
  const rows = useRef<Record<number, HTMLLIElement | null>>({});
  /** After a keyboard move, the button to give the focus back to (the same stop's, in its new place). */
  const refocus = useRef<{ id: number; dir: 'up' | 'down' } | null>(null);

  useEffect(() => {
    const want = refocus.current;
    if (!want || !t) return;
    refocus.current = null;
    const row = rows.current[want.id];
    const own = row?.querySelector<HTMLButtonElement>(`[data-move="${want.dir}"]`);
    const other = row?.querySelector<HTMLButtonElement>(`[data-move="${want.dir === 'up' ? 'down' : 'up'}"]`);
    (own && !own.disabled ? own : other)?.focus();
  }, [t]);

  /** A write on the trip: its answer replaces the trip; a failure is shown and the trip read again. */
  async function change(run: () => Promise<TripView>, said: (answer: TripView) => string) {
    setBusy(true);
    setFailure(null);
    setNotice('');
    try {
      const answer = await run();
      trip.setData(answer);
      setNotice(said(answer));
      void ready.reload();
      return true;
    } catch (err) {
      setFailure(failureText(err));
      void trip.reload();
      void ready.reload();
      return false;
    } finally {
      setBusy(false);
    }
  }

  /** The newest reorder sent: an older answer arriving after it must not put the stops back. */
  const reorders = useRef(0);
  async function reorder(ids: number[], said: string) {
    if (!t) return;
    // Shown at once (the stop moves under the hand, the focus stays with it); the server's answer then
    // replaces it. Moves are not blocked while one is sent: each sends the whole order, the newest wins.
    trip.setData({ ...t, stops: ids.map((id, i) => ({ ...t.stops.find((s) => s.id === id)!, position: i + 1 })) });
    const ticket = ++reorders.current;
    setFailure(null);
    setNotice(said);
    try {
      const answer = await api<TripView>('PUT', `${tripPath}/stops`, { orderIds: ids });
      if (ticket === reorders.current) trip.setData(answer);
    } catch (err) {
      if (ticket !== reorders.current) return;
      setNotice('');
      setFailure(failureText(err));
      void trip.reload();
    }
  }

  function move(index: number, to: number, how: 'up' | 'down' | 'drag') {
    if (!t || to < 0 || to >= t.stops.length || to === index) return;
    const ids = t.stops.map((s) => s.id);
    const [id] = ids.splice(index, 1);
    ids.splice(to, 0, id);
    if (how !== 'drag') refocus.current = { id, dir: how };
    void reorder(ids, `Order #${t.stops[index].increment_id} is now stop ${to + 1} of ${ids.length}.`);
  }

  // Dragging a stop's handle: the pointer is captured, the place it would land is the row under it.
  function dragStart(event: PointerEvent<HTMLElement>, id: number, index: number) {
    if (!editable || busy || event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ id, to: index });
  }
  function dragMove(event: PointerEvent<HTMLElement>) {
    if (!drag || !t) return;
    let to = 0;
    t.stops.forEach((s, i) => {
      const box = rows.current[s.id]?.getBoundingClientRect();
      if (box && event.clientY > box.top + box.height / 2) to = i;
    });
    // Above the first row's middle: first place; below a row's middle: that row's place (or after it).
    const from = t.stops.findIndex((s) => s.id === drag.id);
    const first = rows.current[t.stops[0].id]?.getBoundingClientRect();
    if (first && event.clientY <= first.top + first.height / 2) to = 0;
    else if (to < from) to += 1;
    if (to !== drag.to) setDrag({ ...drag, to });
  }
  function dragEnd() {
    if (!drag || !t) return;
    const from = t.stops.findIndex((s) => s.id === drag.id);
    setDrag(null);
    move(from, drag.to, 'drag');
  }

  async function suggested() {
    setBusy(true);
    setFailure(null);
    try {
      const s = await api<TripSuggestedOrder>('GET', `${tripPath}/suggested-order`);
      await reorder(s.orderIds, 'The stops are now in the suggested order: nearest the store first.');
    } catch (err) {
      setFailure(failureText(err));
    } finally {
      setBusy(false);
    }
  }

  if (!t)
    return (
      <>
        <BackToBoard storeId={store.id} />
        <ErrorNote>{trip.error}</ErrorNote>
        {!trip.error && <Loading />}
      </>
    );

  const readyOrders = (ready.data?.zones ?? []).flatMap((z) => z.slots.flatMap((s) => s.orders));
  const limitRow = (label: string, now: string, max: string | null, over: boolean) => (
    <div className={`rounded border px-3 py-2 ${over ? 'border-red-400 bg-red-50' : 'border-stone-200'}`}>
      <dt className="text-sm font-semibold text-stone-700">{label}</dt>
      <dd className="text-lg font-semibold">
        {now} <span className="text-base font-normal text-stone-800">{max ? `of ${max}` : '(no limit)'}</span>
        {over && <span className="ml-1 text-base font-semibold text-red-800">over</span>}
      </dd>
    </div>
  );
  const overOf = (limit: string) => t.over.some((p) => p.limit === limit);

  return (
    <>
      <BackToBoard storeId={store.id} />
      <PageTitle
        actions={
          editable && (
            <button
              type="button"
              className="btn"
              disabled={busy}
              onClick={() => void change(() => api<TripView>('POST', `${tripPath}/start`, {}), (a) => `Trip ${a.ledger_number} started: its orders are out for delivery.`)}
            >
              Start the trip
            </button>
          )
        }
      >
        Trip {t.ledger_number} <Badge tone={STATUS_TONE[t.status]}>{STATUS_LABELS[t.status]}</Badge>
      </PageTitle>
      <p className="mb-3 [overflow-wrap:anywhere]">
        <span className="font-semibold">{t.driver.name}</span> ({t.driver.employee_number}) · {t.vehicle.make} {t.vehicle.model} ({t.vehicle.plate}) · created{' '}
        {dateTime(t.created_at, store.timezone)} by {t.created_by}
        {t.started_at && <> · started {dateTime(t.started_at, store.timezone)}</>}
      </p>
      <Notice text={notice} />
      <div className="mb-3">
        <FailureNote failure={failure} />
      </div>

      <section aria-labelledby="load-title" className="card mb-4">
        <h2 id="load-title" className="mb-2 text-lg font-semibold">
          Load
        </h2>
        <dl className="grid gap-2 sm:grid-cols-3">
          {limitRow('Goods', money(t.load.goods_cents), t.limits.max_goods_cents == null ? null : money(t.limits.max_goods_cents), overOf('goods'))}
          {limitRow('Cannabis weight', grams(t.load.weight_grams), t.limits.max_weight_grams == null ? null : grams(t.limits.max_weight_grams), overOf('weight'))}
          {limitRow('Orders', String(t.load.orders), t.limits.max_orders == null ? null : String(t.limits.max_orders), overOf('orders'))}
        </dl>
        <div aria-live="polite" className="mt-2">
          {t.over.length > 0 && (
            <div className="rounded border border-red-400 bg-red-50 px-3 py-2 text-red-900">
              <p className="font-semibold">Over the limit: this trip cannot start until it is fixed. Take an order off.</p>
              <ul className="list-disc pl-5">
                {t.over.map((p) => (
                  <li key={p.limit}>{p.message}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </section>

      <section aria-labelledby="stops-title" className="card mb-4">
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
          <h2 id="stops-title" tabIndex={-1} className="text-lg font-semibold">
            Stops ({t.stops.length})
          </h2>
          {editable && t.stops.length > 1 && (
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => void suggested()}>
              Use suggested order
            </button>
          )}
        </div>
        {editable && t.stops.length > 1 && (
          <p id="stops-help" className="mb-2 text-sm text-stone-700">
            Drag a stop by its handle, or use Move up and Move down.
          </p>
        )}
        {t.stops.length === 0 ? (
          <p>No stops yet: add an order below.</p>
        ) : (
          <ol className="grid gap-2" aria-describedby={editable ? 'stops-help' : undefined}>
            {t.stops.map((s, i) => {
              const dragging = drag?.id === s.id;
              const target = drag && !dragging && drag.to === i;
              const from = drag ? t.stops.findIndex((x) => x.id === drag.id) : -1;
              return (
                <li
                  key={s.id}
                  ref={(el) => {
                    rows.current[s.id] = el;
                  }}
                  data-testid="stop"
                  className={`flex flex-wrap items-center gap-x-3 gap-y-2 rounded border bg-white p-2 ${dragging ? 'border-green-800 opacity-60 ring-2 ring-green-800' : 'border-stone-300'} ${
                    target ? (from < i ? 'border-b-4 border-b-green-800' : 'border-t-4 border-t-green-800') : ''
                  }`}
                >
                  {editable && (
                    <span
                      aria-hidden="true"
                      data-testid="drag-handle"
                      title="Drag to move"
                      className="flex h-11 w-8 shrink-0 cursor-grab touch-none select-none items-center justify-center rounded text-xl text-stone-600 hover:bg-stone-100"
                      onPointerDown={(e) => dragStart(e, s.id, i)}
                      onPointerMove={dragMove}
                      onPointerUp={dragEnd}
                      onPointerCancel={() => setDrag(null)}
                    >
                      ⠿
                    </span>
                  )}
                  <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-green-800 font-semibold text-white" aria-hidden="true">
                    {i + 1}
                  </span>
                  <div className="min-w-0 flex-1 basis-48 [overflow-wrap:anywhere]">
                    <p>
                      <span className="sr-only">Stop {i + 1}: </span>
                      <Link to={`/stores/${store.id}/orders/${s.id}`} className="link font-semibold">
                        #{s.increment_id}
                      </Link>{' '}
                      · {s.customer_name} · {money(s.total_cents)}
                    </p>
                    <p className="text-sm text-stone-800">
                      {s.address} · ZIP {s.zip ?? 'unknown'} · {miles(s.miles)}
                      {s.slot_start && <> · {slotRange(s.slot_start, s.slot_end, store.timezone)}</>}
                    </p>
                    {t.status !== 'planned' && (
                      <p className="mt-1 text-sm" data-testid="stop-outcome">
                        {s.outcome === 'delivered' ? (
                          <Badge tone="green">Delivered</Badge>
                        ) : s.outcome === 'failed' ? (
                          <Badge tone="red">Failed: {s.failed_reason ? STOP_FAILED_REASON_LABELS[s.failed_reason] : 'no reason'}</Badge>
                        ) : (
                          <Badge>Not yet</Badge>
                        )}
                        {s.outcome_at && <> at {dateTime(s.outcome_at, store.timezone)}</>}
                        {s.cash_cents != null && <> · cash handed in {money(s.cash_cents)}</>}
                      </p>
                    )}
                  </div>
                  {editable && (
                    <div className="flex flex-wrap gap-1">
                      <button type="button" data-move="up" className="btn-secondary min-h-11 px-3" disabled={i === 0} aria-label={`Move #${s.increment_id} up`} onClick={() => move(i, i - 1, 'up')}>
                        Move up
                      </button>
                      <button
                        type="button"
                        data-move="down"
                        className="btn-secondary min-h-11 px-3"
                        disabled={i === t.stops.length - 1}
                        aria-label={`Move #${s.increment_id} down`}
                        onClick={() => move(i, i + 1, 'down')}
                      >
                        Move down
                      </button>
                      <button
                        type="button"
                        className="btn-ghost min-h-11 text-red-800"
                        disabled={busy}
                        aria-label={`Take #${s.increment_id} off the trip`}
                        onClick={() =>
                          void change(() => api<TripView>('DELETE', `${tripPath}/stops/${s.id}`), () => `Order #${s.increment_id} was taken off the trip; it is ready to go again.`).then(() =>
                            document.getElementById('stops-title')?.focus(),
                          )
                        }
                      >
                        Take off
                      </button>
                    </div>
                  )}
                </li>
              );
            })}
          </ol>
        )}
        {editable && (
          <form
            className="mt-4 flex flex-wrap items-end gap-3"
            aria-label="Add an order"
            onSubmit={(e) => {
              e.preventDefault();
              const o = readyOrders.find((r) => String(r.id) === addId);
              if (!o) {
                setFailure({ text: 'Choose an order to add.', over: [] });
                return;
              }
              void change(() => api<TripView>('POST', `${tripPath}/stops`, { orderId: o.id }), (a) => `Order #${o.increment_id} was added as stop ${a.stops.length}.`).then((done) => {
                if (done) setAddId('');
              });
            }}
          >
            <div className="min-w-0 flex-1 basis-64">
              <label htmlFor="add-order">Add an order (last stop)</label>
              <select id="add-order" className="field" value={addId} onChange={(e) => setAddId(e.target.value)}>
                <option value="">{readyOrders.length === 0 ? 'No order is ready to go' : 'Choose an order'}</option>
                {readyOrders.map((o) => (
                  <option key={o.id} value={o.id}>
                    #{o.increment_id} · {o.customer_name} · ZIP {o.zip ?? '?'} · {money(o.total_cents)}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn-secondary" disabled={busy}>
              Add to the trip
            </button>
          </form>
        )}
      </section>
      {t.status === 'started' && can(staff, 'settings:write') && (
        <EndTripForm
          trip={t}
          tripPath={tripPath}
          onEnded={(answer) => {
            trip.setData(answer.trip);
            setEnded(answer.end);
            setFailure(null);
            setNotice(`Trip ${answer.trip.ledger_number} ended.`);
          }}
        />
      )}
      {ended && <EndSummary summary={ended} />}
      {t.status === 'ended' && !ended && t.cash_expected_cents != null && (
        <section aria-labelledby="cash-title" className="card mb-4">
          <h2 id="cash-title" className="mb-2 text-lg font-semibold">
            Cash
          </h2>
          <p>
            Expected {money(t.cash_expected_cents)}, handed in {money(t.cash_collected_cents)}
            {t.ended_by && <> · ended by {t.ended_by}</>} {t.ended_at && <>at {dateTime(t.ended_at, store.timezone)}</>}
          </p>
          {t.end_note && <p className="mt-1">Note: {t.end_note}</p>}
        </section>
      )}
    </>
  );
}

/** `$-1.50` → "$1.50 short", `+` → "$1.50 over", 0 → "exact". */
function differenceText(cents: number): string {
  return cents === 0 ? 'exact' : cents < 0 ? `${money(-cents)} short` : `${money(cents)} over`;
}

/** Dollars as typed (`41.27`, `41`) → cents; null when it is not an amount. */
function centsOf(text: string): number | null {
  const m = /^\s*\$?\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

/**
 * The manager's end of a started trip (POST /delivery/trips/:tripId/end): the cash handed in for each
 * delivered order, prefilled with the order's total; the difference per order shows as it is typed.
 * Failed stops take no cash (their goods go back in stock at the end). The server refuses while a
 * stop has no outcome yet, naming the stops; its sentence is shown.
 */
function EndTripForm({ trip, tripPath, onEnded }: { trip: TripView; tripPath: string; onEnded: (answer: TripEndAnswer) => void }) {
  const delivered = trip.stops.filter((s) => s.outcome === 'delivered');
  const open = trip.stops.filter((s) => s.outcome == null);
  const [cash, setCash] = useState<Record<number, string>>(() => Object.fromEntries(delivered.map((s) => [s.id, (s.total_cents / 100).toFixed(2)])));
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const valueOf = (id: number, total: number) => cash[id] ?? (total / 100).toFixed(2);
  const problem = (id: number, total: number) => (centsOf(valueOf(id, total)) == null ? 'Enter the cash as an amount in dollars, e.g. 41.27.' : null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setChecked(true);
    const bad = delivered.find((s) => problem(s.id, s.total_cents));
    if (bad) {
      document.getElementById(`end-cash-${bad.id}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await api<TripEndAnswer>('POST', `${tripPath}/end`, {
        cash: delivered.map((s) => ({ order_id: s.id, cash_cents: centsOf(valueOf(s.id, s.total_cents))! })),
        ...(note.trim() ? { note } : {}),
      });
      onEnded(answer);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="end-title" className="card mb-4">
      <h2 id="end-title" className="mb-2 text-lg font-semibold">
        End the trip
      </h2>
      {open.length > 0 && (
        <p className="mb-2 rounded border border-amber-400 bg-amber-50 px-3 py-2 text-amber-950">
          {open.length === 1 ? '1 stop has' : `${open.length} stops have`} no outcome yet ({open.map((s) => `#${s.increment_id}`).join(', ')}): the driver records each stop
          before the trip ends.
        </p>
      )}
      <form onSubmit={submit} className="grid gap-3" aria-labelledby="end-title" noValidate>
        {delivered.length === 0 ? (
          <p>No delivered order: no cash to hand in.</p>
        ) : (
          <fieldset className="grid gap-3">
            <legend className="mb-1 font-semibold">Cash handed in per delivered order</legend>
            {delivered.map((s) => {
              const cents = centsOf(valueOf(s.id, s.total_cents));
              const p = checked ? problem(s.id, s.total_cents) : null;
              return (
                <div key={s.id} className="flex flex-wrap items-end gap-x-3 gap-y-1">
                  <div className="w-40">
                    <label htmlFor={`end-cash-${s.id}`}>#{s.increment_id}</label>
                    <input
                      id={`end-cash-${s.id}`}
                      className="field"
                      inputMode="decimal"
                      autoComplete="off"
                      value={valueOf(s.id, s.total_cents)}
                      aria-invalid={p ? true : undefined}
                      aria-describedby={`end-cash-${s.id}-diff${p ? ` end-cash-${s.id}-problem` : ''}`}
                      onChange={(e) => setCash({ ...cash, [s.id]: e.target.value })}
                    />
                  </div>
                  <p id={`end-cash-${s.id}-diff`} className={`pb-2 ${cents != null && cents !== s.total_cents ? 'font-semibold text-red-800' : 'text-stone-800'}`}>
                    Order total {money(s.total_cents)} · {cents == null ? '—' : differenceText(cents - s.total_cents)}
                  </p>
                  {p && (
                    <p id={`end-cash-${s.id}-problem`} className="w-full text-sm text-red-800">
                      {p}
                    </p>
                  )}
                </div>
              );
            })}
          </fieldset>
        )}
        {trip.stops.some((s) => s.outcome === 'failed') && (
          <p className="text-stone-800">Failed stops take no cash: their orders are cancelled and their goods go back in stock when the trip ends.</p>
        )}
        <div>
          <label htmlFor="end-note">Note (optional)</label>
          <textarea id="end-note" className="field min-h-20" value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
        <ErrorNote>{error}</ErrorNote>
        <div>
          <button type="submit" className="btn" disabled={busy}>
            {busy ? 'Ending…' : 'End the trip'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** What the end answered: cash expected against handed in, and each order that differs. */
function EndSummary({ summary }: { summary: TripEndSummary }) {
  return (
    <section aria-labelledby="end-summary-title" className="card mb-4" data-testid="end-summary">
      <h2 id="end-summary-title" className="mb-2 text-lg font-semibold">
        Cash at the end
      </h2>
      <p>
        Expected {money(summary.cash_expected_cents)}, handed in {money(summary.cash_collected_cents)}:{' '}
        <strong className={summary.difference_cents === 0 ? '' : 'text-red-800'}>{differenceText(summary.difference_cents)}</strong>.
      </p>
      {summary.differences.length > 0 && (
        <ul className="mt-2 list-disc pl-5">
          {summary.differences.map((d) => (
            <li key={d.order_id}>
              #{d.increment_id}: expected {money(d.expected_cents)}, handed in {money(d.collected_cents)} — {differenceText(d.difference_cents)}
            </li>
          ))}
        </ul>
      )}
      {summary.orders.some((o) => o.restocked) && (
        <p className="mt-2">
          Back in stock: {summary.orders.filter((o) => o.restocked).map((o) => `#${o.increment_id}`).join(', ')} (failed stops, orders cancelled).
        </p>
      )}
    </section>
  );
}

function BackToBoard({ storeId }: { storeId: number }) {
  return (
    <p className="mb-2">
      <Link to={`/stores/${storeId}/dispatch`} className="link">
        ← Dispatch board
      </Link>
    </p>
  );
}
