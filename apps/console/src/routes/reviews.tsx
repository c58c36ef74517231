/**
 * Review moderation (issue 30; contract: packages/domain/src/console-api/reviews.ts). Managers and
 * owners see the reviews waiting, oldest first, each with the automatic flags (the rule's name and
 * the words it matched), and approve one or reject it with a reason the shopper sees. Tabs show what
 * was published or rejected. Below: the store's switch for reviews (settings section `reviews`).
 * Cards, not a table: it reads on a tablet at the counter and on a 390 px phone alike.
 */
import { useId, useState, type FormEvent } from 'react';
import type { ReviewSettings, ReviewStatus } from '@verdant/domain';
import type { ConsoleReview, ConsoleReviewQueue } from '../lib/types.ts';
import { SaveButton, SettingsForm, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, errorText, query } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSettingsSection } from '../lib/use-settings-section.ts';
import { useStore, useTitle } from './layout.tsx';

const TABS: { status: ReviewStatus; label: string }[] = [
  { status: 'pending', label: 'Waiting' },
  { status: 'approved', label: 'Published' },
  { status: 'rejected', label: 'Rejected' },
];

export function ReviewsPage() {
  useTitle('Reviews');
  const { store } = useStore();
  const [status, setStatus] = useState<ReviewStatus>('pending');
  const [page, setPage] = useState(1);
  const queue = useResource(`${store.id}:${status}:${page}`, () => api<ConsoleReviewQueue>('GET', `/stores/${store.id}/reviews${query({ status, page })}`));
  const [notice, setNotice] = useState('');
  const pages = queue.data ? Math.max(1, Math.ceil(queue.data.total / queue.data.page_size)) : 1;

  const decided = (review: ConsoleReview) => {
    setNotice(review.status === 'approved' ? `Published “${review.title}”.` : `Rejected “${review.title}”.`);
    if (queue.data) queue.setData({ ...queue.data, total: queue.data.total - 1, pending: queue.data.pending - 1, items: queue.data.items.filter((i) => i.id !== review.id) });
  };

  return (
    <>
      <PageTitle>Reviews</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Shoppers who bought a product can review it; nothing is published before someone here approves it. Flags point at what a store must
        not publish — medical or health claims, dosing advice, contact details, links and profanity — and name the rule and the words.
      </p>
      <nav aria-label="Reviews by status" className="mb-4">
        <ul className="flex flex-wrap gap-2">
          {TABS.map((t) => (
            <li key={t.status}>
              <button
                type="button"
                aria-pressed={status === t.status}
                className={status === t.status ? 'btn' : 'btn-secondary'}
                onClick={() => {
                  setStatus(t.status);
                  setPage(1);
                  setNotice('');
                }}
              >
                {t.label}
                {t.status === 'pending' && queue.data ? ` (${queue.data.pending})` : ''}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div role="status" className="mb-2 font-medium text-green-900">
        {notice}
      </div>
      <ErrorNote>{queue.error}</ErrorNote>
      {!queue.data ? (
        queue.loading && <Loading />
      ) : queue.data.items.length === 0 ? (
        <p>{status === 'pending' ? 'No reviews are waiting.' : 'None yet.'}</p>
      ) : (
        <ul className="grid max-w-3xl gap-4" aria-label={`${TABS.find((t) => t.status === status)?.label} reviews`}>
          {queue.data.items.map((r) => (
            <li key={r.id}>
              <ReviewCard review={r} storeId={store.id} timeZone={store.timezone} onDecided={decided} />
            </li>
          ))}
        </ul>
      )}
      {pages > 1 && (
        <nav aria-label="Review pages" className="mt-4 flex flex-wrap items-center gap-3">
          <button type="button" className="btn-secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" className="btn-secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      )}
      <ReviewSwitch />
    </>
  );
}

function ReviewCard({ review, storeId, timeZone, onDecided }: { review: ConsoleReview; storeId: number; timeZone: string; onDecided: (r: ConsoleReview) => void }) {
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const reasonId = useId();

  const decide = async (body: { decision: 'approve' } | { decision: 'reject'; reason: string }) => {
    setBusy(true);
    setError(null);
    try {
      onDecided(await api<ConsoleReview>('POST', `/stores/${storeId}/reviews/${review.id}/decision`, body));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const reject = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setError('Please give the reason for rejecting: the shopper sees it.');
      return;
    }
    void decide({ decision: 'reject', reason: reason.trim() });
  };

  return (
    <article aria-labelledby={titleId} className="card grid gap-2" data-testid="console-review">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={titleId} className="text-lg font-semibold break-words">
          {review.title}
        </h2>
        <span aria-label={`${review.stars} out of 5 stars`} role="img" className="whitespace-nowrap text-amber-900">
          {'★'.repeat(review.stars)}
          {'☆'.repeat(5 - review.stars)}
        </span>
      </div>
      <p className="text-sm text-stone-700 break-words">
        {review.product_name} ({review.sku}) · {review.customer_name} · {dateTime(review.updated_at, timeZone)}
      </p>
      <p className="whitespace-pre-line break-words">{review.text}</p>
      {review.effects.length + review.flavours.length > 0 && (
        <p className="text-sm text-stone-700">
          {review.effects.length > 0 && `Effects: ${review.effects.join(', ')}. `}
          {review.flavours.length > 0 && `Flavours: ${review.flavours.join(', ')}.`}
        </p>
      )}
      {review.flags.length > 0 ? (
        <div>
          <h3 className="font-semibold">Flags</h3>
          <ul className="mt-1 grid gap-1" data-testid="review-flags">
            {review.flags.map((f) => (
              <li key={f.rule} className="break-words">
                <Badge tone="amber">{f.name}</Badge> <span className="text-stone-800">{f.matches.map((m) => `“${m}”`).join(', ')}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        review.status === 'pending' && <p className="text-sm text-stone-700">No flags.</p>
      )}
      {review.status === 'rejected' && review.reject_reason && <p className="text-sm">Rejected: {review.reject_reason}</p>}
      {review.moderated_by && review.moderated_at && (
        <p className="text-sm text-stone-700">
          {review.status === 'approved' ? 'Published' : 'Rejected'} by {review.moderated_by}, {dateTime(review.moderated_at, timeZone)}
        </p>
      )}
      <ErrorNote>{error}</ErrorNote>
      {review.status === 'pending' &&
        (rejecting ? (
          <form onSubmit={reject} className="grid gap-2" aria-label={`Reject “${review.title}”`}>
            <label htmlFor={reasonId} className="font-semibold">
              Reason (the shopper sees it)
            </label>
            <input id={reasonId} className="field" value={reason} maxLength={300} onChange={(e) => setReason(e.target.value)} />
            <div className="flex flex-wrap gap-2">
              <button type="submit" className="btn-danger" disabled={busy}>
                Reject review
              </button>
              <button type="button" className="btn-secondary" onClick={() => setRejecting(false)}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn" disabled={busy} onClick={() => void decide({ decision: 'approve' })}>
              Approve
            </button>
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => setRejecting(true)}>
              Reject…
            </button>
          </div>
        ))}
    </article>
  );
}

/** The store's switch: some states' advertising rules keep testimonials off a dispensary's pages. */
function ReviewSwitch() {
  const form = useSettingsSection<ReviewSettings, ReviewSettings>({
    section: 'reviews',
    toDraft: (v) => ({ ...v }),
    toValue: (d) => ({ ...d }),
    savedText: 'Review settings saved.',
    staleText: 'Someone saved the review settings meanwhile. Their value is shown now; make your change again.',
  });
  return (
    <section aria-labelledby="review-switch-title" className="mt-8 max-w-xl">
      <h2 id="review-switch-title" className="mb-2 text-xl font-semibold">
        Reviews on the store’s pages
      </h2>
      {!form.current || form.draft === null ? (
        <SettingsLoading form={form} />
      ) : (
        <SettingsForm form={form} label="Reviews on the store’s pages" problemsTitle="Review settings were not saved:" className="card grid gap-3">
          <label className="flex items-center gap-2 font-semibold">
            <input type="checkbox" checked={form.draft.enabled} onChange={(e) => form.setDraft({ enabled: e.target.checked })} />
            Show and take product reviews
          </label>
          <p className="text-sm text-stone-700">Off: product pages show no reviews or stars and shoppers cannot write any. Reviews written so far are kept.</p>
          <SaveButton form={form} />
        </SettingsForm>
      )}
    </section>
  );
}
