import { useEffect, useRef, useState } from 'react';
import { data, Form, useNavigation } from 'react-router';
import { CURBSIDE_CAR_MAX, CURBSIDE_MESSAGES, formatDateTime, type CurbsideView } from '@verdant/domain';
import type { Route } from './+types/curbside';
import { PageShell } from '../components/page/PageShell.tsx';
import { assertStorePrefix } from '../lib/guards.ts';
import { refusalOf } from '../lib/order-tracking.ts';
import { useRootData } from '../lib/root-data.ts';

/**
 * /curbside/:token (issue 29, curbside pickup): the page the "ready for pickup" message links to. No
 * login: the signed token is the key (the server's orders/curbside/link.ts). The shopper describes
 * the car or picks a bay and says "I'm here"; the store's console shows it at once. The server says
 * when it cannot be used (not ready yet, picked up, cancelled, a bad or expired link), in its words.
 *
 * Works without JavaScript: the loader reads the order through the server's curbside module
 * (context.curbside, the same as GET /api/curbside/:token) and the form is a plain POST to this
 * route's action (the same write as POST /api/curbside/:token), answered with the same page. With
 * JavaScript the router sends the same form and keeps the page.
 */
const UNREACHABLE = 'The store could not be reached. Please try again.';

type Load = { kind: 'failed'; message: string } | { kind: 'ready'; view: CurbsideView };
type Sent = { kind: 'sent'; view: CurbsideView } | { kind: 'error'; message: string; car: string; bay: string };

export async function loader({ context, params }: Route.LoaderArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  if (!context.curbside) return data<Load>({ kind: 'failed', message: UNREACHABLE }, { status: 503 });
  try {
    return data<Load>({ kind: 'ready', view: await context.curbside.view(params.token) });
  } catch (e) {
    const refusal = refusalOf(e);
    if (!refusal) throw e;
    return data<Load>({ kind: 'failed', message: refusal.message }, { status: refusal.status });
  }
}

export async function action({ context, params, request }: Route.ActionArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  const form = await request.formData();
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v.slice(0, 500) : '';
  };
  const car = text('car').trim();
  const bay = text('bay').trim();
  if (!car && !bay) return data<Sent>({ kind: 'error', message: CURBSIDE_MESSAGES.carOrBay, car, bay }, { status: 400 });
  if (!context.curbside) return data<Sent>({ kind: 'error', message: UNREACHABLE, car, bay }, { status: 503 });
  try {
    return data<Sent>({ kind: 'sent', view: await context.curbside.arrive(params.token, { car, bay }) });
  } catch (e) {
    const refusal = refusalOf(e);
    if (!refusal) throw e;
    return data<Sent>({ kind: 'error', message: refusal.message, car, bay }, { status: refusal.status });
  }
}

// One shopper's page: never cached, never indexed.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });

export const meta: Route.MetaFunction = () => [{ title: "I'm here — curbside pickup" }, { name: 'robots', content: 'noindex, nofollow' }];

export default function Curbside({ loaderData, actionData }: Route.ComponentProps) {
  const { store } = useRootData();
  const load = loaderData as Load;
  const sent = actionData as Sent | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  // The check the server makes too, said at once in the browser (no round trip for an empty form).
  const [localError, setLocalError] = useState<string | null>(null);
  const error = localError ?? (sent?.kind === 'error' ? sent.message : null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error, sent]);
  useEffect(() => {
    if (sent?.kind === 'sent') doneRef.current?.focus();
  }, [sent]);
  useEffect(() => {
    if (sent) setLocalError(null);
  }, [sent]);

  // After "I'm here" the action's view is the newest (the loader's may be read before the write).
  const view = sent?.kind === 'sent' ? sent.view : load.kind === 'ready' ? load.view : null;
  const kept = sent?.kind === 'error' ? sent : null;
  const title = view ? `Order #${view.increment_id}: I'm here` : "Curbside pickup: I'm here";
  return (
    <PageShell title={title} lead={<p>Tell {store.name} you are parked outside, and we bring your order out to you.</p>}>
      {load.kind === 'failed' ? (
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
                {sent?.kind === 'sent' ? 'Thank you, we know you are here.' : 'We know you are here.'}
              </h2>
              <p className="mt-1 text-green-900">
                Since {formatDateTime(view.arrival.arrived_at, view.timezone)}
                {view.arrival.bay ? `, bay ${view.arrival.bay}` : ''}
                {view.arrival.car ? `: ${view.arrival.car}` : ''}. Have your photo ID ready. Something changed? Send it again below.
              </p>
            </div>
          ) : null}
          <Form
            method="post"
            noValidate
            onSubmit={(event) => {
              const form = new FormData(event.currentTarget);
              if (!String(form.get('car') ?? '').trim() && !form.get('bay')) {
                event.preventDefault();
                setLocalError(CURBSIDE_MESSAGES.carOrBay);
              } else setLocalError(null);
            }}
            className="space-y-4 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6"
          >
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
                defaultValue={kept?.car ?? view.arrival?.car ?? ''}
                maxLength={CURBSIDE_CAR_MAX}
                autoComplete="off"
                aria-describedby={error ? 'curbside-car-hint curbside-error' : 'curbside-car-hint'}
                aria-invalid={error ? true : undefined}
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
                  defaultValue={kept?.bay ?? view.arrival?.bay ?? ''}
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
          </Form>
        </div>
      ) : null}
    </PageShell>
  );
}
