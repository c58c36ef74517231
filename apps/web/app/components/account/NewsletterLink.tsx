import { useEffect, useState } from 'react';
import { accountApi } from '../../api/account.ts';
import { notify } from '../../state/notifications.ts';
import { NEWSLETTER_COPY } from './blocks/NewsletterBlock.tsx';
import { FormError, errorMessage, primaryButton, secondaryButton, useSubmit } from './ui.tsx';

/**
 * The subscription of the address a newsletter mail went to, read and changed with the mail's
 * signed link (the server answers only for that address; no session needed). Read in the browser:
 * the link token is never part of a cached page.
 */
export function NewsletterLink({ linkToken }: { linkToken: string }) {
  const [state, setState] = useState<{ email: string; isSubscribed: boolean } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const { busy, error, run } = useSubmit();

  useEffect(() => {
    if (!linkToken) return;
    let live = true;
    accountApi.newsletterByLink(linkToken).then(
      (s) => live && setState(s),
      (e: unknown) => live && setLoadError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [linkToken]);

  if (!linkToken) return <FormError message="This link is incomplete. Open the link from your e-mail again." />;
  if (loadError) return <FormError message={loadError} />;
  if (!state) return <p className="text-stone-600">Checking your subscription…</p>;

  const change = (subscribe: boolean) =>
    run(async () => {
      const answer = await accountApi.changeByLink(linkToken, subscribe);
      setState({ ...state, isSubscribed: answer.isSubscribed });
      notify({ type: 'success', message: answer.isSubscribed ? NEWSLETTER_COPY.subscribedNotice : NEWSLETTER_COPY.unsubscribedNotice });
    });

  return (
    <section aria-label="Newsletter" className="space-y-4">
      <p className="text-stone-700">
        News, deals and a 10% off coupon, sent to <strong>{state.email}</strong>.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <p role="status" className="font-medium text-stone-900">
          {state.isSubscribed ? NEWSLETTER_COPY.subscribed : NEWSLETTER_COPY.notSubscribed}
        </p>
        {state.isSubscribed ? (
          <button type="button" disabled={busy} className={secondaryButton} onClick={() => void change(false)}>
            Unsubscribe
          </button>
        ) : (
          <button type="button" disabled={busy} className={primaryButton} onClick={() => void change(true)}>
            Subscribe
          </button>
        )}
      </div>
      <FormError message={error} />
    </section>
  );
}
