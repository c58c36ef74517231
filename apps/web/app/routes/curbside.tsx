import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CURBSIDE_CAR_MAX, CURBSIDE_MESSAGES, formatDateTime, type CurbsideView } from '@verdant/domain';
import type { Route } from './+types/curbside';
import { ApiError, callApi } from '../api/envelope.ts';
import { PageShell } from '../components/page/PageShell.tsx';
import { assertStorePrefix } from '../lib/guards.ts';
import { useRootData } from '../lib/root-data.ts';

/**
 * /curbside/:token (issue 29, curbside pickup): the page the "ready for pickup" message links to. No
 * login: the signed token is the key (the server's orders/curbside/link.ts). The shopper describes
 * the car or picks a bay and says "I'm here"; the store's console shows it at once. The server says
 * when it cannot be used (not ready yet, picked up, cancelled, a bad or expired link), in its words.
 */
export function loader({ context, params }: Route.LoaderArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  return null;
}

// One shopper's page: never cached, never indexed.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });

export const meta: Route.MetaFunction = () => [{ title: "I'm here — curbside pickup" }, { name: 'robots', content: 'noindex, nofollow' }];

type Load = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; view: CurbsideView };

export default function Curbside({ params }: Route.ComponentProps) {
  const { store } = useRootData();
  const token = params.token;
  const path = `/api/curbside/${encodeURIComponent(token)}`;
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [car, setCar] = useState('');
  const [bay, setBay] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    callApi<CurbsideView>(path)
      .then((view) => {
        if (!live) return;
        setLoad({ kind: 'ready', view });
        setCar(view.arrival?.car ?? '');
        setBay(view.arrival?.bay ?? '');
      })
      .catch((e: unknown) => live && setLoad({ kind: 'failed', message: e instanceof ApiError ? e.message : 'The store could not be reached. Please try again.' }));
    return () => {
      live = false;
    };
  }, [path]);

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  useEffect(() => {
    if (sent) doneRef.current?.focus();
  }, [sent]);

  async function send(event: FormEvent) {
    event.preventDefault();
    if (!car.trim() && !bay) {
      setError(CURBSIDE_MESSAGES.carOrBay);
      return;
    }
    setBusy(true);
    try {
      const view = await callApi<CurbsideView>(path, { method: 'POST', body: { car: car.trim(), bay } });
      setLoad({ kind: 'ready', view });
      setError(null);
      setSent(true);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'The store could not be reached. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const view = load.kind === 'ready' ? load.view : null;
  const title = view ? `Order #${view.increment_id}: I'm here` : "Curbside pickup: I'm here";
  return (
    <PageShell title={title} lead={<p>Tell {store.name} you are parked outside, and we bring your order out to you.</p>}>
      {load.kind === 'loading' ? (
        <p role="status">Loading your order…</p>
      ) : load.kind === 'failed' ? (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 font-medium text-red-800">
          {load.message}
        </p>
      ) : view && !view.open ? (
        <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 font-medium text-amber-900">
          {view.message}
        </p>
      ) : view ? (
        <div className="max-w-md space-y-4">
          {view.instructions ? <p className="text-stone-800">{view.instructions}</p> : null}
          {view.arrival ? (
            <div className="rounded-2xl border border-green-300 bg-green-50 p-4" role="status" data-testid="curbside-here">
              <h2 ref={doneRef} tabIndex={-1} className="font-display text-xl font-bold text-green-900 focus:outline-none">
                {sent ? 'Thank you, we know you are here.' : 'We know you are here.'}
              </h2>
              <p className="mt-1 text-green-900">
                Since {formatDateTime(view.arrival.arrived_at, view.timezone)}
                {view.arrival.bay ? `, bay ${view.arrival.bay}` : ''}
                {view.arrival.car ? `: ${view.arrival.car}` : ''}. Have your photo ID ready. Something changed? Send it again below.
              </p>
            </div>
          ) : null}
          <form onSubmit={send} noValidate className="space-y-4 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
            <div>
              <label htmlFor="curbside-car" className="block text-sm font-semibold text-stone-900">
                Your car
              </label>
              <p id="curbside-car-hint" className="text-xs text-stone-600">
                Colour, make and model, e.g. "Blue Honda Civic".
              </p>
              <input
                id="curbside-car"
                name="car"
                className="mt-1 block min-h-11 w-full rounded-lg border border-stone-400 px-3 text-base"
                value={car}
                maxLength={CURBSIDE_CAR_MAX}
                autoComplete="off"
                aria-describedby={error ? 'curbside-car-hint curbside-error' : 'curbside-car-hint'}
                aria-invalid={error ? true : undefined}
                onChange={(e) => setCar(e.target.value)}
              />
            </div>
            {view.bays.length ? (
              <div>
                <label htmlFor="curbside-bay" className="block text-sm font-semibold text-stone-900">
                  Bay
                </label>
                <select
                  id="curbside-bay"
                  name="bay"
                  className="mt-1 block min-h-11 w-full rounded-lg border border-stone-400 bg-white px-3 text-base"
                  value={bay}
                  onChange={(e) => setBay(e.target.value)}
                >
                  <option value="">Not in a bay</option>
                  {view.bays.map((b) => (
                    <option key={b} value={b}>
                      Bay {b}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            {error ? (
              <p id="curbside-error" ref={errorRef} tabIndex={-1} role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 font-medium text-red-800 focus:outline-none">
                {error}
              </p>
            ) : null}
            <button
              type="submit"
              disabled={busy}
              className="inline-flex min-h-11 items-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90 disabled:opacity-60"
            >
              {busy ? 'Sending…' : "I'm here"}
            </button>
          </form>
        </div>
      ) : null}
    </PageShell>
  );
}
