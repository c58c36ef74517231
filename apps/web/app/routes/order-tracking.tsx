import { useEffect, useRef, useState } from 'react';
import { data, Form, useNavigation } from 'react-router';
import type { Route } from './+types/order-tracking';
import { trackOrder } from '../api/order-tracking.ts';
import { FieldError } from '../components/checkout/Field.tsx';
import { LiveOrderStatus } from '../components/order/LiveOrderStatus.tsx';
import { PageShell } from '../components/page/PageShell.tsx';
import { formatDateTime } from '@verdant/domain';
import { assertStorePrefix } from '../lib/guards.ts';
import { pageMeta } from '../lib/meta.ts';
import { LIVE_POLL_MS } from '../lib/order-status.ts';
import {
  TRACKING_COPY,
  TRACKING_FIELDS,
  readTrackingForm,
  refusalOf,
  type TrackingField,
  type TrackingResult,
} from '../lib/order-tracking.ts';
import { outputCacheHeaders } from '../lib/output-cache.ts';
import { useRootData } from '../lib/root-data.ts';

/** A lookup's answer is one shopper's: never cached, never indexed. */
const RESULT_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };

/**
 * /order-tracking (spec §2 route; issue 12): a guest finds an order by number and phone. The form
 * posts to this action, which calls the server's tracking module directly (context.trackOrder,
 * the same rate limit as `POST /api/order-tracking`), so it works without JavaScript; with it,
 * the result keeps itself fresh.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  const { query, errors } = readTrackingForm(await request.formData());
  const answer = (result: TrackingResult, status = 200) => data(result, { status, headers: RESULT_HEADERS });
  if (errors) return answer({ kind: 'invalid', query, errors }, 400);
  if (!context.trackOrder) return answer({ kind: 'failed', query, message: TRACKING_COPY.unavailable }, 503);
  try {
    return answer({ kind: 'found', query, order: await context.trackOrder(query) });
  } catch (e) {
    const refusal = refusalOf(e);
    if (!refusal) throw e;
    return answer({ kind: 'failed', query, message: refusal.message }, refusal.status);
  }
}

export function loader({ context, params, request }: Route.LoaderArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  // The tracked order's number is kept in the address (issue 26), so a reload or a shared link
  // keeps it; the phone never is (it would sit in the history and in logs): it is asked again.
  const number = new URL(request.url).searchParams.get(TRACKING_FIELDS.number)?.trim().slice(0, 40) || null;
  return { number };
}

// The empty form may be kept (it is the same for everyone); an answer to a post never is.
export const headers: Route.HeadersFunction = ({ actionHeaders }) =>
  actionHeaders.has('X-Robots-Tag') ? actionHeaders : outputCacheHeaders();

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: TRACKING_COPY.title, description: TRACKING_COPY.lead });

const FIELD_IDS: Record<TrackingField, string> = { number: 'tracking-number', phone: 'tracking-phone' };

export default function OrderTracking({ actionData, loaderData }: Route.ComponentProps) {
  const { store } = useRootData();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const result = actionData as TrackingResult | undefined;
  const errors = result?.kind === 'invalid' ? result.errors : {};
  const failureRef = useRef<HTMLParagraphElement>(null);
  const foundRef = useRef<HTMLHeadingElement>(null);

  // Each answer moves focus to what it says: the first wrong field, the refusal, or the order.
  useEffect(() => {
    if (!result) return;
    if (result.kind === 'invalid') {
      const first = (Object.keys(FIELD_IDS) as TrackingField[]).find((f) => result.errors[f]);
      if (first) document.getElementById(FIELD_IDS[first])?.focus();
    } else if (result.kind === 'failed') failureRef.current?.focus();
    else {
      // The result is below the form: on a phone it starts under the fold. Bring it up and focus it
      // once the page has settled (after the router's own scroll handling of the submission).
      const heading = foundRef.current;
      requestAnimationFrame(() => {
        heading?.focus({ preventScroll: true });
        heading?.scrollIntoView({ block: 'start', behavior: 'auto' });
      });
    }
  }, [result]);
  const keptNumber = (loaderData as { number: string | null } | null)?.number ?? null;
  // The form posts to `?number=<the number typed>`: after the answer the address keeps it (issue 26),
  // with or without JavaScript, and a reload fills it in again.
  const [typedNumber, setTypedNumber] = useState(result?.query.number ?? keptNumber ?? '');
  const formAction = typedNumber.trim() ? `?${new URLSearchParams({ [TRACKING_FIELDS.number]: typedNumber.trim() })}` : undefined;

  return (
    <PageShell title={TRACKING_COPY.title} lead={<p>{TRACKING_COPY.lead}</p>}>
      {result ? <meta name="robots" content="noindex, nofollow" /> : null}
      <Form
        method="post"
        action={formAction}
        onChange={(e) => {
          const field = e.target as unknown as HTMLInputElement;
          if (field.name === TRACKING_FIELDS.number) setTypedNumber(field.value);
        }}
        noValidate
        className="max-w-md space-y-4 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
        <TextInput
          id={FIELD_IDS.number}
          name={TRACKING_FIELDS.number}
          label={TRACKING_COPY.numberLabel}
          hint={TRACKING_COPY.numberHint}
          defaultValue={result?.query.number ?? keptNumber ?? undefined}
          error={errors.number}
          autoComplete="off"
        />
        <TextInput
          id={FIELD_IDS.phone}
          name={TRACKING_FIELDS.phone}
          label={TRACKING_COPY.phoneLabel}
          defaultValue={result?.query.phone}
          error={errors.phone}
          type="tel"
          autoComplete="tel"
        />
        <button
          type="submit"
          disabled={busy}
          className="inline-flex min-h-11 items-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90 disabled:opacity-60"
        >
          {busy ? 'Looking up…' : TRACKING_COPY.submit}
        </button>
        {result?.kind === 'failed' ? (
          <p
            ref={failureRef}
            tabIndex={-1}
            role="alert"
            data-testid="tracking-error"
            className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 font-medium text-red-800 focus:outline-none"
          >
            {result.message}
          </p>
        ) : null}
      </Form>
      {result?.kind === 'found' ? (
        <section
          aria-labelledby="tracking-result-title"
          data-testid="tracking-result"
          className="mt-8 max-w-2xl rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6"
        >
          <h2
            ref={foundRef}
            id="tracking-result-title"
            tabIndex={-1}
            className="font-display text-2xl font-bold text-stone-900 focus:outline-none"
          >
            Order {result.order.increment_id}
          </h2>
          <p className="mt-1 text-stone-700">
            {result.order.order_type === 'delivery' ? 'Delivery' : 'Pickup'} · placed{' '}
            {formatDateTime(result.order.created_at, store.placeInfo.timezone)}
          </p>
          {/* Issue 14: the time slot the order was booked for (an order taken as soon as possible has none). */}
          {result.order.slot ? (
            <p className="mt-1 text-stone-900" data-testid="tracking-slot">
              {result.order.order_type === 'delivery' ? 'Delivery time' : 'Pickup time'}: <strong>{result.order.slot.label}</strong>
            </p>
          ) : null}
          <div className="mt-4">
            <LiveOrderStatus
              key={`${result.order.increment_id}:${result.query.phone}`}
              initial={result.order}
              fetchStatus={() => trackOrder(result.query)}
              intervalMs={LIVE_POLL_MS.tracking}
              timeZone={store.placeInfo.timezone}
            />
          </div>
        </section>
      ) : null}
    </PageShell>
  );
}

function TextInput({
  id,
  name,
  label,
  hint,
  error,
  ...input
}: { id: string; name: string; label: string; hint?: string; error?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-stone-900">
        {label} <span className="font-normal text-stone-600">(required)</span>
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-stone-600">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className="mt-1 block min-h-11 w-full rounded-lg border border-stone-400 bg-white px-3 text-stone-900 aria-invalid:border-red-700 aria-invalid:ring-1 aria-invalid:ring-red-700"
        {...input}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}
