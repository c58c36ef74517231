/**
 * The driver's phone (issue 29 "The driver's phone"; API: packages/domain/src/console-api/driver.ts).
 * Phone first, one hand: big buttons low on the screen, the next stop first and large. Every tap is
 * an action with its own id, kept on the phone (lib/driver-queue.ts) and shown at once, sent in
 * order when there is a network; the banner says what still waits. A driver login sees only these
 * pages (routes/layout.tsx Guard); the console's service worker (public/sw.js, registered here)
 * opens them offline once visited.
 *
 *   /stores/:storeId/driver                   Today: the trips planned, on the road, ended today
 *   /stores/:storeId/driver/trips/:tripId     The trip: Start, the next stop, Deliver / Could not deliver, the other stops
 *   /stores/:storeId/driver/trips/:tripId/end End of trip: cash per delivered order, returned goods, End trip
 */
import { ageOnDate, formatMoney } from '@verdant/domain';
import { ID_DOCUMENTS, ID_DOCUMENT_LABELS, STOP_FAILED_REASONS, STOP_FAILED_REASON_LABELS } from '@verdant/domain/console-api';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate, useOutletContext, useParams } from 'react-router';
import { Dialog } from '../components/Dialog.tsx';
import { SignaturePad, type SignaturePadHandle } from '../components/SignaturePad.tsx';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, errorText } from '../lib/api.ts';
import {
  deviceIdOf,
  dismissRefusal,
  enqueue,
  flush,
  getSnapshot,
  newActionId,
  readBack,
  startQueue,
  subscribe,
  type QueueSnapshot,
} from '../lib/driver-queue.ts';
import { nextStop, showTrip, tripsOf, type DriverTrip, type ShownStop, type ShownTrip } from '../lib/driver-trips.ts';
import { dateTime, dayIn, time } from '../lib/format.ts';
import { useSession } from '../lib/session.tsx';
import type { ConsoleStore, DriverActionBody, DriverMyTrips, IdDocumentName, StopFailedReasonName } from '../lib/types.ts';
import { useTitle } from './layout.tsx';

interface DriverOutlet {
  store: ConsoleStore;
  trips: ShownTrip[] | null;
  loadError: string | null;
  queue: QueueSnapshot;
  /** Take an action: stored on the phone, shown at once, sent when it can be. */
  act(body: DistributiveOmit<DriverActionBody, 'action_id' | 'device_id' | 'taken_at'>, said: string): Promise<void>;
  announce(text: string): void;
}
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const useDriver = () => useOutletContext<DriverOutlet>();

/** The driver's pages' frame: a slim bar (store, Today, sign out), the queue banner, the page. */
export function DriverLayout() {
  const { storeId } = useParams();
  const { staff, stores, signOut } = useSession();
  const navigate = useNavigate();
  const store = stores.find((s) => String(s.id) === storeId);
  const queue = useSyncExternalStore(subscribe, getSnapshot);
  const [trips, setTrips] = useState<DriverTrip[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (!store) return;
    const stop = startQueue(store.id);
    // Installable and offline: the console's worker (scope /console/), on the driver's phone.
    navigator.serviceWorker?.register('/console/sw.js', { scope: '/console/' }).catch(() => undefined);
    return stop;
  }, [store]);
  // What this page loaded before the worker ran (and chunks loaded since): the worker keeps them.
  const location = useLocation();
  useEffect(() => {
    if (!store || !navigator.serviceWorker) return;
    void navigator.serviceWorker.ready.then((registration) => {
      const assets = performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((u) => new URL(u).pathname.startsWith('/console/assets/'));
      const urls = ['/console/', '/api/console/session', '/api/console/stores', `/api/console/stores/${store.id}/delivery/my-trips`, ...assets];
      registration.active?.postMessage({ type: 'keep', urls });
    });
  }, [store, location.pathname]);

  const read = useCallback(async () => {
    if (!store) return;
    const startedAt = Date.now();
    try {
      setTrips(tripsOf(await api<DriverMyTrips>('GET', `/stores/${store.id}/delivery/my-trips`)));
      setLoadError(null);
      readBack(startedAt);
    } catch (err) {
      // Offline with nothing kept: the page says so; what it had stays on screen.
      setLoadError(errorText(err));
    }
  }, [store]);
  // Read at first, whenever the queue got an answer, and when the network returns.
  useEffect(() => {
    void read();
  }, [read, queue.sentCount, queue.online]);

  const shown = useMemo(() => {
    if (!trips) return null;
    const local = [...queue.sent.map((s) => s.body), ...queue.waiting.map((a) => a.body)];
    return trips.map((t) => showTrip(t, local, queue.refused));
  }, [trips, queue.sent, queue.waiting, queue.refused]);

  const act = useCallback<DriverOutlet['act']>(
    async (partial, said) => {
      if (!store) return;
      const body = { ...partial, action_id: newActionId(), device_id: await deviceIdOf(), taken_at: new Date().toISOString() } as DriverActionBody;
      await enqueue(store.id, body);
      setAnnouncement(`${said}${navigator.onLine ? '' : ' It is kept on this phone and sent when the network returns.'}`);
    },
    [store],
  );

  if (!store)
    return (
      <main id="main" className="mx-auto max-w-xl p-4">
        <PageTitle>Store not available</PageTitle>
        <p>This store is not one of yours.</p>
      </main>
    );
  const context: DriverOutlet = { store, trips: shown, loadError, queue, act, announce: setAnnouncement };
  return (
    <>
      <header className="border-b border-stone-300 bg-white">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:bg-white focus:p-2">
          Skip to content
        </a>
        <div className="mx-auto flex max-w-xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2">
          <p className="min-w-0 font-semibold">
            {store.name} <span className="font-normal text-stone-700">· Driver</span>
          </p>
          <nav aria-label="Driver" className="ml-auto">
            <ul className="flex items-center gap-1">
              <li>
                <Link to={`/stores/${store.id}/driver`} className="btn-ghost">
                  Today
                </Link>
              </li>
              <li>
                <Link to="/account" className="btn-ghost">
                  Account
                </Link>
              </li>
              <li>
                <button
                  type="button"
                  className="btn-ghost"
                  onClick={() => {
                    // Actions still on the phone stay there (and go when someone signs in again): say so first.
                    const n = queue.waiting.length;
                    if (n > 0 && !window.confirm(`${actions(n)} still waiting to send. They stay on this phone and are sent after the next sign-in. Sign out anyway?`)) return;
                    void signOut().finally(() => navigate('/login', { replace: true }));
                  }}
                >
                  Sign out{staff ? <span className="sr-only"> ({staff.name})</span> : null}
                </button>
              </li>
            </ul>
          </nav>
        </div>
      </header>
      <QueueBanner queue={queue} />
      <div role="status" aria-live="polite" className="sr-only" data-testid="driver-announcer">
        {announcement}
      </div>
      <main id="main" className="mx-auto max-w-xl p-4 pb-16">
        <Outlet context={context} />
      </main>
    </>
  );
}

const actions = (n: number) => (n === 1 ? '1 action' : `${n} actions`);

/** What still waits on the phone, always in view: "Offline — 2 actions waiting to send" / "All sent". */
function QueueBanner({ queue }: { queue: QueueSnapshot }) {
  const n = queue.waiting.length;
  const tone = n > 0 || !queue.online ? 'border-amber-400 bg-amber-50 text-amber-950' : 'border-green-300 bg-green-50 text-green-950';
  const text =
    n > 0
      ? `${queue.online ? '' : 'Offline — '}${actions(n)} waiting to send`
      : queue.online
        ? 'All sent'
        : 'Offline — nothing waiting to send';
  const detail = n > 0 && queue.online ? (queue.sending ? 'Sending…' : queue.waiting[0]?.last_error ?? null) : null;
  return (
    <div className={`sticky top-0 z-10 border-b ${tone}`}>
      <div className="mx-auto flex max-w-xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2">
        <p role="status" aria-live="polite" data-testid="queue-banner" className="font-semibold">
          {text}
        </p>
        {detail && <p className="text-sm">{detail}</p>}
        {n > 0 && queue.online && !queue.sending && (
          <button type="button" className="btn-secondary ml-auto" onClick={() => void flush()}>
            Send now
          </button>
        )}
      </div>
    </div>
  );
}

const STATUS_WORDS: Record<ShownTrip['status'], string> = { planned: 'Not started', started: 'On the road', ended: 'Ended' };

/** Today: the driver's trips (planned, on the road, ended today). */
export function DriverTodayPage() {
  const { store, trips, loadError } = useDriver();
  useTitle('Today');
  return (
    <>
      <PageTitle>Today</PageTitle>
      {loadError && !trips && <ErrorNote>{loadError}</ErrorNote>}
      {!trips ? (
        !loadError && <Loading label="Loading your trips…" />
      ) : trips.length === 0 ? (
        <p>No trip for you today. When dispatch gives you one, it shows here.</p>
      ) : (
        <ul className="grid gap-3" aria-label="Your trips">
          {trips.map((trip) => {
            const done = trip.stops.filter((s) => s.outcome !== null).length;
            return (
              <li key={trip.id}>
                <Link to={`/stores/${store.id}/driver/trips/${trip.id}`} className="card block hover:border-green-800">
                  <span className="block text-lg font-semibold text-green-900 underline">Trip {trip.ledger_number}</span>
                  <span className="mt-1 flex flex-wrap items-center gap-2">
                    <Badge tone={trip.status === 'started' ? 'blue' : trip.status === 'ended' ? 'green' : 'stone'}>{STATUS_WORDS[trip.status]}</Badge>
                    <span>
                      {done} of {trip.stops.length} stops done
                    </span>
                  </span>
                  <span className="mt-1 block text-stone-700">
                    {trip.vehicle.make} {trip.vehicle.model} · {trip.vehicle.plate}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

function useTrip(): { trip: ShownTrip | null; outlet: DriverOutlet } {
  const outlet = useDriver();
  const { tripId } = useParams();
  const trip = outlet.trips?.find((t) => String(t.id) === tripId) ?? null;
  return { trip, outlet };
}

function TripMissing({ outlet }: { outlet: DriverOutlet }) {
  if (!outlet.trips) return outlet.loadError ? <ErrorNote>{outlet.loadError}</ErrorNote> : <Loading label="Loading the trip…" />;
  return (
    <>
      <PageTitle>Trip not found</PageTitle>
      <p>
        This trip is not one of yours today.{' '}
        <Link to={`/stores/${outlet.store.id}/driver`} className="link">
          Back to today's trips
        </Link>
      </p>
    </>
  );
}

function outcomeBadge(stop: ShownStop) {
  if (stop.outcome === null) return null;
  const words = stop.outcome === 'delivered' ? 'Delivered' : `Failed: ${STOP_FAILED_REASON_LABELS[stop.failed_reason ?? 'other']}`;
  return (
    <Badge tone={stop.outcome === 'delivered' ? 'green' : 'red'}>
      {words}
      {stop.pending ? ' — waiting to send' : ''}
    </Badge>
  );
}

/** The server said no to what was done at a stop (or to starting / ending): its words and a way to clear them. */
function Refusal({ refusal, what }: { refusal: { action_id: string; message: string }; what: string }) {
  return (
    <div role="alert" className="mt-2 rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
      <p>
        <strong>Not accepted: {what}.</strong> {refusal.message}
      </p>
      <button type="button" className="btn-ghost mt-1" onClick={() => void dismissRefusal(refusal.action_id)}>
        Dismiss
      </button>
    </div>
  );
}

function Items({ stop }: { stop: ShownStop }) {
  return (
    <ul className="mt-1 list-disc pl-5" aria-label={`Items for order #${stop.increment_id}`}>
      {stop.items.map((item, i) => (
        <li key={i}>
          {item.qty} × {item.name}
          {item.size ? ` (${item.size})` : ''}
          {item.package_id ? <span className="text-sm text-stone-700"> · package {item.package_id}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** The trip: Start when planned; the next stop big and first; the other stops below. */
export function DriverTripPage() {
  const { trip, outlet } = useTrip();
  const { store, act } = outlet;
  useTitle(trip ? `Trip ${trip.ledger_number}` : 'Trip');
  const [dialog, setDialog] = useState<{ kind: 'deliver' | 'fail'; orderId: number } | null>(null);
  const nextHeading = useRef<HTMLHeadingElement>(null);
  // After Deliver / Could not deliver the stop is gone from "Next stop": the next one's heading takes
  // focus. In an effect, so after the dialog's own (a child's effects run first) closed it: while it
  // is modal the page behind is inert and cannot take focus.
  const [focusNext, setFocusNext] = useState(0);
  useEffect(() => {
    if (focusNext) nextHeading.current?.focus();
  }, [focusNext]);
  if (!trip) return <TripMissing outlet={outlet} />;
  const next = nextStop(trip);
  const others = trip.stops.filter((s) => s !== next);
  const open = dialog ? trip.stops.find((s) => s.order_id === dialog.orderId) ?? null : null;
  const afterAction = () => {
    setDialog(null);
    setFocusNext((n) => n + 1);
  };
  const done = trip.stops.filter((s) => s.outcome !== null).length;

  return (
    <>
      <PageTitle>Trip {trip.ledger_number}</PageTitle>
      <p className="-mt-2 mb-3 flex flex-wrap items-center gap-2">
        <Badge tone={trip.status === 'started' ? 'blue' : trip.status === 'ended' ? 'green' : 'stone'}>
          {STATUS_WORDS[trip.status]}
          {trip.statusPending ? ' — waiting to send' : ''}
        </Badge>
        <span>
          {done} of {trip.stops.length} stops done · {trip.vehicle.make} {trip.vehicle.model} ({trip.vehicle.plate})
        </span>
      </p>
      {trip.refusals.map((r) => (
        <Refusal key={r.action_id} refusal={r} what={r.body.kind === 'start' ? 'starting the trip' : 'ending the trip'} />
      ))}

      {trip.status === 'planned' && (
        <div className="card mb-4">
          <p>Check the goods against the manifest, then start the trip: the customers' orders go out for delivery.</p>
          <button
            type="button"
            className="btn mt-3 w-full py-3 text-lg"
            onClick={() => void act({ kind: 'start', trip_id: trip.id }, `Trip ${trip.ledger_number} started.`)}
          >
            Start trip
          </button>
        </div>
      )}

      {next ? (
        <section aria-labelledby="next-stop" className="card mb-4 border-2 border-green-800">
          <h2 id="next-stop" ref={nextHeading} tabIndex={-1} className="text-sm font-semibold uppercase tracking-wide text-green-900">
            Next stop · {next.position} of {trip.stops.length}
          </h2>
          <p className="mt-1 text-2xl font-semibold">{next.customer_first_name}</p>
          <p className="text-xl break-words">{next.address}</p>
          <p className="mt-1 text-stone-700">
            Order #{next.increment_id} · {formatMoney(next.total_cents)} to collect
            {next.license_type === 'medical' ? ' · Medical' : ''}
          </p>
          <div className="mt-3 grid grid-cols-3 gap-2">
            <a href={next.navigation_url} target="_blank" rel="noreferrer" className="btn-secondary">
              Navigate<span className="sr-only"> to {next.address}</span>
            </a>
            <a href={next.call_url} className="btn-secondary">
              Call<span className="sr-only"> {next.customer_first_name}</span>
            </a>
            <a href={next.text_url} className="btn-secondary">
              Text<span className="sr-only"> {next.customer_first_name}</span>
            </a>
          </div>
          <h3 className="mt-3 font-semibold">Items</h3>
          <Items stop={next} />
          {next.refusal && <Refusal refusal={next.refusal} what={next.refusal.body.kind === 'deliver' ? 'marked delivered' : 'marked not delivered'} />}
          {trip.status === 'started' ? (
            <div className="mt-4 grid gap-2">
              <button type="button" className="btn w-full py-3 text-lg" onClick={() => setDialog({ kind: 'deliver', orderId: next.order_id })}>
                Deliver
              </button>
              <button type="button" className="btn-secondary w-full py-3" onClick={() => setDialog({ kind: 'fail', orderId: next.order_id })}>
                Could not deliver
              </button>
            </div>
          ) : trip.status === 'planned' ? (
            <p className="mt-3 text-stone-700">Start the trip to deliver.</p>
          ) : null}
        </section>
      ) : (
        trip.status !== 'planned' && (
          <section aria-labelledby="next-stop" className="card mb-4">
            <h2 id="next-stop" ref={nextHeading} tabIndex={-1} className="text-lg font-semibold">
              {trip.status === 'ended' ? 'Trip ended' : 'Every stop is done'}
            </h2>
            {trip.status === 'started' ? (
              <>
                <p className="mt-1">Back at the store: count the cash and the returned goods, then end the trip.</p>
                <Link to={`/stores/${store.id}/driver/trips/${trip.id}/end`} className="btn mt-3 w-full py-3 text-lg">
                  End of trip
                </Link>
              </>
            ) : (
              <p className="mt-1">
                {trip.ended_at ? `Ended ${dateTime(trip.ended_at, store.timezone)}.` : 'Ended on this phone; the store hears it when it is sent.'}
              </p>
            )}
          </section>
        )
      )}

      {others.length > 0 && (
        <section aria-labelledby="other-stops">
          <h2 id="other-stops" className="mb-2 text-lg font-semibold">
            {next ? 'Other stops' : 'Stops'}
          </h2>
          <ol className="grid gap-2">
            {others.map((stop) => (
              <li key={stop.order_id} className="card">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">
                    {stop.position}. {stop.customer_first_name}
                  </span>
                  {outcomeBadge(stop)}
                </p>
                <p className="break-words">{stop.address}</p>
                <p className="text-sm text-stone-700">
                  Order #{stop.increment_id} · {formatMoney(stop.total_cents)}
                  {stop.outcome_at ? ` · ${time(stop.outcome_at, store.timezone)}` : ''}
                </p>
                {stop.refusal && <Refusal refusal={stop.refusal} what={stop.refusal.body.kind === 'deliver' ? 'marked delivered' : 'marked not delivered'} />}
              </li>
            ))}
          </ol>
        </section>
      )}

      <Dialog title={open ? `Deliver to ${open.customer_first_name}` : 'Deliver'} open={dialog?.kind === 'deliver' && !!open} onClose={() => setDialog(null)}>
        {open && <DeliverForm stop={open} tripId={trip.id} onDone={afterAction} />}
      </Dialog>
      <Dialog title={open ? `Could not deliver to ${open.customer_first_name}` : 'Could not deliver'} open={dialog?.kind === 'fail' && !!open} onClose={() => setDialog(null)}>
        {open && <FailForm stop={open} tripId={trip.id} onDone={afterAction} />}
      </Dialog>
    </>
  );
}

/**
 * The minimum age at the door: 21 for recreational orders; medical orders the store's medical
 * minimum, which the phone may not know (a store sets 18–21): then 18, the lowest any store sets,
 * and the server checks the store's own (and its message is shown).
 */
function minimumAge(stop: ShownStop): { min: number; exact: boolean } {
  const given = (stop as ShownStop & { minimum_age?: number }).minimum_age;
  if (typeof given === 'number') return { min: given, exact: true };
  return stop.license_type === 'medical' ? { min: 18, exact: false } : { min: 21, exact: true };
}

/** At the door: the ID check and the customer's signature, then "Mark delivered". */
function DeliverForm({ stop, tripId, onDone }: { stop: ShownStop; tripId: number; onDone: () => void }) {
  const { store, act } = useDriver();
  const [document, setDocument] = useState<IdDocumentName | ''>('');
  const [birthDate, setBirthDate] = useState('');
  const [nameMatches, setNameMatches] = useState(false);
  const [medcard, setMedcard] = useState(false);
  const [signed, setSigned] = useState(false);
  const [missing, setMissing] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const pad = useRef<SignaturePadHandle>(null);
  const problem = useRef<HTMLDivElement>(null);
  const medical = stop.license_type === 'medical';
  const today = dayIn(new Date(), store.timezone);
  const validDate = /^\d{4}-\d{2}-\d{2}$/.test(birthDate) && birthDate <= today && birthDate >= '1900-01-01';
  const age = validDate ? ageOnDate(birthDate, today) : null;
  const { min, exact } = minimumAge(stop);
  const underAge = age !== null && age < min;
  const medicalUnder21 = !exact && age !== null && age >= min && age < 21;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const lacking: string[] = [];
    if (!document) lacking.push('the ID document');
    if (!birthDate) lacking.push('the date of birth');
    else if (!validDate) lacking.push('a real date of birth');
    if (!nameMatches) lacking.push('the name check');
    if (medical && !medcard) lacking.push('the medical card check');
    const png = pad.current?.toDataUrl() ?? null;
    if (!png) lacking.push("the customer's signature");
    if (underAge) lacking.push(`a customer aged ${min} or older`);
    setMissing(lacking);
    if (lacking.length > 0 || !png || !document) {
      requestAnimationFrame(() => problem.current?.focus());
      return;
    }
    setBusy(true);
    try {
      await act(
        {
          kind: 'deliver',
          trip_id: tripId,
          order_id: stop.order_id,
          id_check: { document, birth_date: birthDate, name_matches: true, ...(medical ? { medcard_checked: true } : {}) },
          signature_png: png,
        },
        `Stop ${stop.position}, ${stop.customer_first_name}: delivered.`,
      );
      onDone();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label={`Deliver order #${stop.increment_id}`}>
      <p className="text-stone-700">
        Order #{stop.increment_id} · {formatMoney(stop.total_cents)} to collect. Check the ID before handing anything over.
      </p>
      <div>
        <label htmlFor="id-document">ID document</label>
        <select
          id="id-document"
          className="field"
          value={document}
          onChange={(e) => setDocument(e.target.value as IdDocumentName | '')}
          aria-invalid={missing.includes('the ID document') || undefined}
        >
          <option value="">Choose the document shown…</option>
          {ID_DOCUMENTS.map((d) => (
            <option key={d} value={d}>
              {ID_DOCUMENT_LABELS[d]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="birth-date">Date of birth on the ID</label>
        <input
          id="birth-date"
          type="date"
          className="field"
          max={today}
          value={birthDate}
          onChange={(e) => setBirthDate(e.target.value)}
          aria-describedby="age-note"
          aria-invalid={underAge || missing.includes('the date of birth') || undefined}
        />
        <div id="age-note" aria-live="polite">
          {underAge ? (
            <p className="mt-1 rounded border border-red-300 bg-red-50 px-3 py-2 font-semibold text-red-900">
              Under {min}: the customer is {age} today. Do not hand over — use "Could not deliver" (under age).
            </p>
          ) : medicalUnder21 ? (
            <p className="mt-1 text-sm text-amber-950">
              The customer is {age} today: fine only where this store's medical minimum allows it. The store checks again.
            </p>
          ) : age !== null ? (
            <p className="mt-1 text-sm text-green-900">Age {age} today.</p>
          ) : null}
        </div>
      </div>
      <div className="flex items-start gap-2">
        <input id="name-matches" type="checkbox" className="mt-1 size-5" checked={nameMatches} onChange={(e) => setNameMatches(e.target.checked)} />
        <label htmlFor="name-matches">The name on the ID matches the order</label>
      </div>
      {medical && (
        <div className="flex items-start gap-2">
          <input id="medcard" type="checkbox" className="mt-1 size-5" checked={medcard} onChange={(e) => setMedcard(e.target.checked)} />
          <label htmlFor="medcard">Medical card checked</label>
        </div>
      )}
      <SignaturePad id="signature" label="Customer's signature" ref={pad} onChange={setSigned} invalid={!signed && missing.includes("the customer's signature")} />
      <div ref={problem} tabIndex={-1} aria-live="assertive">
        {missing.length > 0 && (
          <p className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">Still needed before marking delivered: {missing.join(', ')}.</p>
        )}
      </div>
      <button type="submit" className="btn w-full py-3 text-lg" disabled={busy}>
        Mark delivered
      </button>
    </form>
  );
}

/** "Could not deliver": the reason (a note for Other); the goods stay on the trip and go back in stock at its end. */
function FailForm({ stop, tripId, onDone }: { stop: ShownStop; tripId: number; onDone: () => void }) {
  const { act } = useDriver();
  const [reason, setReason] = useState<StopFailedReasonName | ''>('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason) return setProblem('Choose why the delivery failed.');
    if (reason === 'other' && !note.trim()) return setProblem('Say in a note why the delivery failed (reason "Other").');
    setProblem(null);
    setBusy(true);
    try {
      await act(
        { kind: 'fail', trip_id: tripId, order_id: stop.order_id, reason, ...(note.trim() ? { note: note.trim() } : {}) },
        `Stop ${stop.position}, ${stop.customer_first_name}: not delivered (${STOP_FAILED_REASON_LABELS[reason]}).`,
      );
      onDone();
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label={`Could not deliver order #${stop.increment_id}`}>
      <p className="text-stone-700">The goods stay with you and go back in stock when the trip ends.</p>
      <fieldset>
        <legend className="font-medium">Why not?</legend>
        <div className="mt-1 grid gap-1">
          {STOP_FAILED_REASONS.map((r) => (
            <label key={r} className="flex min-h-10 items-center gap-2 font-normal">
              <input type="radio" name="reason" value={r} className="size-5" checked={reason === r} onChange={() => setReason(r)} />
              {STOP_FAILED_REASON_LABELS[r]}
            </label>
          ))}
        </div>
      </fieldset>
      {reason === 'other' && (
        <div>
          <label htmlFor="fail-note">What happened</label>
          <textarea id="fail-note" className="field" rows={3} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
      )}
      <ErrorNote>{problem}</ErrorNote>
      <button type="submit" className="btn-danger w-full py-3 text-lg" disabled={busy}>
        Mark failed
      </button>
    </form>
  );
}

/** `12.50` / `$12.50` / `12` → cents; null when not an amount. */
function parseCents(text: string): number | null {
  const m = /^\s*\$?\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

function Difference({ cents }: { cents: number }) {
  if (cents === 0) return <span className="text-green-900">Matches the total</span>;
  return (
    <span className="font-semibold text-red-900">
      {cents < 0 ? `Short by ${formatMoney(-cents)}` : `Over by ${formatMoney(cents)}`}
    </span>
  );
}

/** End of trip: cash per delivered order (prefilled with its total), the differences, the returned goods, "End trip". */
export function DriverEndTripPage() {
  const { trip, outlet } = useTrip();
  const { store, act } = outlet;
  const navigate = useNavigate();
  useTitle(trip ? `End trip ${trip.ledger_number}` : 'End trip');
  const [cash, setCash] = useState<Record<number, string>>({});
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!trip) return <TripMissing outlet={outlet} />;
  if (trip.status === 'ended') return <Navigate to={`/stores/${store.id}/driver/trips/${trip.id}`} replace />;
  const delivered = trip.stops.filter((s) => s.outcome === 'delivered');
  const returned = trip.stops.filter((s) => s.outcome === 'failed');
  const open = trip.stops.filter((s) => s.outcome === null);
  const entered = (s: ShownStop) => cash[s.order_id] ?? (s.total_cents / 100).toFixed(2);
  const amounts = delivered.map((s) => ({ stop: s, cents: parseCents(entered(s)) }));
  const expected = delivered.reduce((sum, s) => sum + s.total_cents, 0);
  const collected = amounts.reduce((sum, a) => sum + (a.cents ?? 0), 0);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const bad = amounts.find((a) => a.cents === null);
    if (bad) return setProblem(`Enter the cash for order #${bad.stop.increment_id} as an amount, like 42.50.`);
    if (trip.status !== 'started') return setProblem('Start the trip before ending it.');
    setProblem(null);
    setBusy(true);
    try {
      await act(
        {
          kind: 'end',
          trip_id: trip.id,
          cash: amounts.map((a) => ({ order_id: a.stop.order_id, cash_cents: a.cents! })),
          ...(note.trim() ? { note: note.trim() } : {}),
        },
        `Trip ${trip.ledger_number} ended.`,
      );
      navigate(`/stores/${store.id}/driver/trips/${trip.id}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageTitle>End trip {trip.ledger_number}</PageTitle>
      {open.length > 0 && (
        <p role="note" className="mb-3 rounded border border-amber-400 bg-amber-50 px-3 py-2 text-amber-950">
          {open.length === 1 ? '1 stop has' : `${open.length} stops have`} no outcome yet ({open.map((s) => `#${s.increment_id}`).join(', ')}): mark each
          delivered or failed first.{' '}
          <Link to={`/stores/${store.id}/driver/trips/${trip.id}`} className="link">
            Back to the trip
          </Link>
        </p>
      )}
      <form onSubmit={submit} noValidate className="grid gap-4" aria-label={`End trip ${trip.ledger_number}`}>
        <section aria-labelledby="cash-title" className="card">
          <h2 id="cash-title" className="text-lg font-semibold">
            Cash collected
          </h2>
          {delivered.length === 0 ? (
            <p className="mt-1">No order was delivered: no cash to hand in.</p>
          ) : (
            <ul className="mt-2 grid gap-3">
              {amounts.map(({ stop, cents }) => (
                <li key={stop.order_id}>
                  <label htmlFor={`cash-${stop.order_id}`}>
                    Order #{stop.increment_id} ({stop.customer_first_name}), total {formatMoney(stop.total_cents)}
                  </label>
                  <input
                    id={`cash-${stop.order_id}`}
                    className="field"
                    inputMode="decimal"
                    autoComplete="off"
                    value={entered(stop)}
                    onChange={(e) => setCash((c) => ({ ...c, [stop.order_id]: e.target.value }))}
                    aria-describedby={`cash-${stop.order_id}-diff`}
                    aria-invalid={cents === null || undefined}
                  />
                  <p id={`cash-${stop.order_id}-diff`} className="mt-1 text-sm">
                    {cents === null ? <span className="text-red-900">Not an amount</span> : <Difference cents={cents - stop.total_cents} />}
                  </p>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-3 border-t border-stone-200 pt-2" aria-live="polite">
            Expected {formatMoney(expected)} · collected {formatMoney(collected)} · <Difference cents={collected - expected} />
          </p>
        </section>
        <section aria-labelledby="returned-title" className="card">
          <h2 id="returned-title" className="text-lg font-semibold">
            Returned goods
          </h2>
          {returned.length === 0 ? (
            <p className="mt-1">Nothing to return: no stop failed.</p>
          ) : (
            <>
              <p className="mt-1 text-stone-700">Hand these back to the store: they go back in stock when the trip ends.</p>
              <ul className="mt-2 grid gap-2">
                {returned.map((s) => (
                  <li key={s.order_id}>
                    <p className="font-semibold">
                      Order #{s.increment_id} ({s.customer_first_name}) · {STOP_FAILED_REASON_LABELS[s.failed_reason ?? 'other']}
                    </p>
                    <Items stop={s} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
        <div>
          <label htmlFor="end-note">Note for the store (optional)</label>
          <textarea id="end-note" className="field" rows={2} maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
        <ErrorNote>{problem}</ErrorNote>
        <button type="submit" className="btn w-full py-3 text-lg" disabled={busy || open.length > 0}>
          End trip
        </button>
      </form>
    </>
  );
}
