import { useId, useRef, useState, type FormEvent } from 'react';
import { stockAlertConsentWords, type StockAlertAnswer } from '@verdant/domain';
import { ApiError, callApi } from '../../api/envelope.ts';
import { bearer } from '../../api/user.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { useRootData, useStorePath } from '../../lib/root-data.ts';
import { useAuth } from '../../state/use-auth.ts';

/**
 * "Tell me when it's back" (issue 30) under a sold-out product or size. A logged-in shopper taps once
 * (the consent words above the button; the account's phone, else its e-mail); a guest types a mobile
 * number or an e-mail address and ticks the consent box with the exact words the server records in
 * its consent ledger. With JavaScript the form calls POST /api/stock-alerts and answers in place;
 * without, it is a plain POST to /stock-alert (routes/stock-alert.tsx), which answers with a page.
 */
export function StockAlert({ productId, variantId, back }: { productId: number; variantId: number | null; back: string }) {
  const { store } = useRootData();
  const storePath = useStorePath();
  const hydrated = useHydrated();
  const token = useAuth((s) => s.token);
  const loggedIn = hydrated && token != null;
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const doneRef = useRef<HTMLParagraphElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const words = stockAlertConsentWords(store.name);

  async function submit(event: FormEvent<HTMLFormElement>) {
    if (!hydrated) return;
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const contact = String(form.get('contact') ?? '').trim();
    const consent = form.get('consent') === 'on';
    if (!loggedIn && !contact) return fail('Please give a phone number or an e-mail address.');
    if (!loggedIn && !consent) return fail('Please tick the box to agree to the message.');
    setBusy(true);
    try {
      const answer = await callApi<StockAlertAnswer>('/api/stock-alerts', {
        method: 'POST',
        headers: loggedIn && token ? bearer(token) : {},
        body: { productId, ...(variantId ? { variantId } : {}), ...(loggedIn ? {} : { contact }), consent: true },
      });
      setError(null);
      setDone(answer.message);
      requestAnimationFrame(() => doneRef.current?.focus());
    } catch (e) {
      fail(e instanceof ApiError ? e.message : 'The store could not be reached. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  function fail(message: string) {
    setError(message);
    requestAnimationFrame(() => errorRef.current?.focus());
  }

  if (done)
    return (
      <p ref={doneRef} tabIndex={-1} role="status" data-testid="stock-alert-done" className="mt-4 rounded-xl border border-green-300 bg-green-50 px-4 py-3 font-medium text-green-900 focus:outline-none">
        {done}
      </p>
    );

  return (
    <form
      method="post"
      action={storePath('/stock-alert')}
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-labelledby={`${id}-title`}
      data-testid="stock-alert"
      className="mt-4 space-y-3 rounded-2xl border border-stone-200 bg-stone-50 p-4"
    >
      <h2 id={`${id}-title`} className="font-display text-lg font-bold text-stone-900">
        Tell me when it's back
      </h2>
      <input type="hidden" name="productId" value={productId} />
      {variantId ? <input type="hidden" name="variantId" value={variantId} /> : null}
      <input type="hidden" name="back" value={back} />
      {loggedIn ? (
        <p className="text-sm text-stone-700">{words}</p>
      ) : (
        <>
          <div>
            <label htmlFor={`${id}-contact`} className="block text-sm font-semibold text-stone-900">
              Mobile number or e-mail
            </label>
            <input
              id={`${id}-contact`}
              name="contact"
              type="text"
              inputMode="email"
              autoComplete="email"
              maxLength={254}
              className="mt-1 block min-h-11 w-full rounded-lg border border-stone-400 bg-white px-3 text-base"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
          </div>
          <div className="flex items-start gap-3">
            <input id={`${id}-consent`} name="consent" type="checkbox" className="mt-1 size-5 shrink-0" />
            <label htmlFor={`${id}-consent`} className="text-sm text-stone-800">
              {words}
            </label>
          </div>
        </>
      )}
      {error ? (
        <p id={`${id}-error`} ref={errorRef} tabIndex={-1} role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm font-medium text-red-800 focus:outline-none">
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={busy}
        className="inline-flex min-h-11 items-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90 disabled:opacity-60"
      >
        {busy ? 'Sending…' : "Tell me when it's back"}
      </button>
    </form>
  );
}
