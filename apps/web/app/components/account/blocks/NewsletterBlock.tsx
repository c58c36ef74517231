import { useState } from 'react';
import { userApi } from '../../../api/user.ts';
import { notify } from '../../../state/notifications.ts';
import { useAuth } from '../../../state/use-auth.ts';
import { StoreLink } from '../../store/StoreLink.tsx';
import { useAccountQuery } from '../use-account-query.ts';
import { Block, FormError, errorMessage, primaryButton, secondaryButton } from '../ui.tsx';

export const NEWSLETTER_COPY = {
  subscribed: 'You are subscribed to the newsletter.',
  notSubscribed: 'You are not subscribed to the newsletter.',
  subscribedNotice: 'Newsletter preferences updated: you have subscribed.',
  unsubscribedNotice: 'Newsletter preferences updated: you have unsubscribed.',
} as const;

/** /my-account/newsletter (spec §3 Newsletter {isSubscribed, email}, §7 calls): by the account's e-mail. */
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
  const status = useAccountQuery(`newsletter:${email}`, () => userApi.newsletterStatus(email));
  const [override, setOverride] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const subscribed = override ?? status.data?.isSubscribed ?? null;

  const change = async (subscribe: boolean) => {
    setBusy(true);
    setError(null);
    try {
      // Spec §5: subscribing is skipped if already subscribed, unsubscribing if not (the server says so too).
      const answer = subscribe ? await userApi.subscribe(email) : await userApi.unsubscribe(email);
      setOverride(answer.isSubscribed);
      notify({ type: 'success', message: answer.isSubscribed ? NEWSLETTER_COPY.subscribedNotice : NEWSLETTER_COPY.unsubscribedNotice });
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Block id="newsletter" title="Newsletter">
      <p className="text-stone-700">
        News, deals and a 10% off coupon, sent to <strong>{email}</strong>.
      </p>
      <FormError message={status.error} />
      {subscribed === null && !status.error ? <p className="mt-3 text-stone-600">Checking your subscription…</p> : null}
      {subscribed !== null ? (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <p role="status" className="font-medium text-stone-900">
            {subscribed ? NEWSLETTER_COPY.subscribed : NEWSLETTER_COPY.notSubscribed}
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
      <div className="mt-3">
        <FormError message={error} />
      </div>
    </Block>
  );
}
