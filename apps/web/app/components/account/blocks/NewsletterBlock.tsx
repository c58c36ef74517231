import { useEffect, useState } from 'react';
import { accountApi } from '../../../api/account.ts';
import { OFFLINE_WRITE_COPY, pendingSubscription } from '../../../offline/account-writes.ts';
import { notify } from '../../../state/notifications.ts';
import { useAuth, useAuthApi } from '../../../state/use-auth.ts';
import { StoreLink } from '../../store/StoreLink.tsx';
import { useAccountSync } from '../use-account-sync.ts';
import { Block, FormError, errorMessage, primaryButton, secondaryButton } from '../ui.tsx';

export const NEWSLETTER_COPY = {
  subscribed: 'You are subscribed to the newsletter.',
  notSubscribed: 'You are not subscribed to the newsletter.',
  subscribedNotice: 'Newsletter preferences updated: you have subscribed.',
  unsubscribedNotice: 'Newsletter preferences updated: you have unsubscribed.',
} as const;

/**
 * /my-account/newsletter (spec §3 Newsletter {isSubscribed, email}, §7 calls): by the account's
 * e-mail. Offline the change waits in the sync queue (shown as waiting, also after a reload) and
 * the state shown is the last one read online (a cacheable task result).
 */
export function NewsletterBlock() {
  const email = useAuth((s) => s.user?.email ?? null);
  if (!email) {
    return (
      <Block id="newsletter" title="Newsletter">
        <p className="text-stone-700">
          The newsletter goes to your e-mail address. <StoreLink to="/my-account" className="font-medium text-brand-ink underline">Add your e-mail address</StoreLink> first.
        </p>
      </Block>
    );
  }
  return <Subscription email={email} />;
}

function Subscription({ email }: { email: string }) {
  const sync = useAccountSync();
  const auth = useAuthApi();
  const [status, setStatus] = useState<{ isSubscribed: boolean; cachedAt: number | null } | null>(null);
  const [statusError, setStatusError] = useState<string | null>(null);
  const [override, setOverride] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // The state from the store (offline: the last answer this device kept), again after the queue sent something.
  useEffect(() => {
    if (!sync.app) return;
    let live = true;
    sync.app.newsletterStatus(email).then(
      (s) => {
        if (!live) return;
        setStatus(s);
        setOverride(null);
        setStatusError(null);
      },
      (e: unknown) => live && setStatusError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [sync.app, email, sync.round]);

  const waiting = pendingSubscription(sync.pending, email);
  const known = override ?? status?.isSubscribed ?? null;
  // What the buttons offer follows what the shopper asked for last, sent or waiting.
  const subscribed = waiting ?? known;

  const change = async (subscribe: boolean) => {
    setBusy(true);
    setError(null);
    try {
      // Spec §5: subscribing is skipped if already subscribed, unsubscribing if not (the server says so too).
      await sync.write({ kind: 'newsletter', email, subscribe }, async () => {
        const session = auth.getState();
        const answer = await session.authorized((t) => (subscribe ? accountApi.subscribe(t, email) : accountApi.unsubscribe(t, email)));
        setOverride(answer.isSubscribed);
        notify({ type: 'success', message: answer.isSubscribed ? NEWSLETTER_COPY.subscribedNotice : NEWSLETTER_COPY.unsubscribedNotice });
      });
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const statusText =
    waiting !== null ? (waiting ? OFFLINE_WRITE_COPY.subscribePending : OFFLINE_WRITE_COPY.unsubscribePending) : known ? NEWSLETTER_COPY.subscribed : NEWSLETTER_COPY.notSubscribed;

  return (
    <Block id="newsletter" title="Newsletter">
      <p className="text-stone-700">
        News, deals and a 10% off coupon, sent to <strong>{email}</strong>.
      </p>
      {subscribed === null ? <FormError message={statusError} /> : null}
      {subscribed === null && !statusError ? <p className="mt-3 text-stone-600">Checking your subscription…</p> : null}
      {subscribed !== null ? (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <p role="status" className="font-medium text-stone-900">
            {statusText}
          </p>
          {subscribed ? (
            <button type="button" disabled={busy} className={secondaryButton} onClick={() => void change(false)}>
              Unsubscribe
            </button>
          ) : (
            <button type="button" disabled={busy} className={primaryButton} onClick={() => void change(true)}>
              Subscribe
            </button>
          )}
        </div>
      ) : null}
      {waiting === null && status?.cachedAt != null && override === null ? <p className="mt-2 text-sm text-stone-600">{OFFLINE_WRITE_COPY.lastKnown}</p> : null}
      <div className="mt-3">
        <FormError message={error} />
      </div>
    </Block>
  );
}
