/**
 * The product page's reviews (issue 30): the average and count, the published reviews ("Verified
 * buyer" on each: only buyers can write), newest or most helpful first, a page at a time, a helpful
 * button, and the buyer's own review form with its moderation status. The first page comes with the
 * page's HTML (server-rendered, and its JSON-LD); sorting, paging and votes ask the API. Nothing is
 * shown when the store switched reviews off (or offline, where the page has no reviews).
 */
import { useEffect, useId, useRef, useState } from 'react';
import {
  REVIEW_MESSAGES,
  REVIEW_STATUS_LABELS,
  formatDate,
  type MyReviewOfProduct,
  type ProductReviewsPage,
  type PublishedReview,
  type ReviewSort,
} from '@verdant/domain';
import { reviewsApi } from '../../api/reviews.ts';
import { isRefusal } from '../../api/envelope.ts';
import { useRootData } from '../../lib/root-data.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { useAuth, useAuthApi } from '../../state/use-auth.ts';
import { button, ReviewForm } from './ReviewForm.tsx';
import { Stars } from './Stars.tsx';

export function ProductReviews({ sku, initial }: { sku: string; initial: ProductReviewsPage | null }) {
  const [page, setPage] = useState<ProductReviewsPage | null>(initial);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const listRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => setPage(initial), [initial]);
  if (!page || !page.enabled) return null;
  const { summary } = page;
  const pages = Math.max(1, Math.ceil(summary.count / page.page_size));

  const load = async (sort: ReviewSort, n: number, focus = false) => {
    setLoading(true);
    setError(null);
    try {
      setPage(await reviewsApi.page(sku, sort, n));
      if (focus) listRef.current?.focus();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The reviews could not be loaded.');
    } finally {
      setLoading(false);
    }
  };

  return (
    <section id="reviews" aria-labelledby="reviews-title" className="mx-auto max-w-7xl px-4 pb-10 sm:px-6" data-testid="product-reviews">
      <h2 id="reviews-title" className="text-2xl font-bold text-stone-900">
        Reviews
      </h2>
      {summary.count > 0 ? (
        <p className="mt-2 flex flex-wrap items-center gap-2 text-stone-800" data-testid="review-summary">
          <Stars value={summary.average} className="text-xl" />
          <span>
            <strong>{summary.average.toFixed(1)}</strong> out of 5 · {summary.count === 1 ? '1 review' : `${summary.count} reviews`}
          </span>
        </p>
      ) : (
        <p className="mt-2 text-stone-700">No reviews yet.</p>
      )}

      <WriteReview sku={sku} />

      {summary.count > 0 ? (
        <>
          <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
            <h3 ref={listRef} tabIndex={-1} className="text-lg font-semibold text-stone-900">
              What buyers say
            </h3>
            <label className="flex items-center gap-2 text-stone-800">
              Sort reviews
              <select
                className="min-h-11 rounded-lg border border-stone-400 bg-white px-3"
                value={page.sort}
                disabled={loading}
                onChange={(e) => void load(e.target.value as ReviewSort, 1)}
              >
                <option value="newest">Newest first</option>
                <option value="helpful">Most helpful first</option>
              </select>
            </label>
          </div>
          {error ? (
            <p role="alert" className="mt-3 text-red-700">
              {error}
            </p>
          ) : null}
          <ul className="mt-4 grid gap-4" aria-busy={loading} data-testid="review-list">
            {page.items.map((r) => (
              <ReviewItem key={r.id} review={r} />
            ))}
          </ul>
          {pages > 1 ? (
            <nav aria-label="Review pages" className="mt-4 flex flex-wrap items-center gap-3">
              <button type="button" className={button} disabled={loading || page.page <= 1} onClick={() => void load(page.sort, page.page - 1, true)}>
                Previous reviews
              </button>
              <span className="text-stone-700">
                Page {page.page} of {pages}
              </span>
              <button type="button" className={button} disabled={loading || page.page >= pages} onClick={() => void load(page.sort, page.page + 1, true)}>
                More reviews
              </button>
            </nav>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function ReviewItem({ review }: { review: PublishedReview }) {
  const { store } = useRootData();
  const auth = useAuthApi();
  const user = useAuth((s) => s.user);
  const [count, setCount] = useState(review.helpful_count);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();

  const helpful = async () => {
    if (!user) {
      auth.getState().openDialog('login');
      return;
    }
    setBusy(true);
    try {
      const answer = await auth.getState().authorized((token) => reviewsApi.helpful(token, review.id));
      setCount(answer.helpful_count);
      setNote(answer.counted ? 'Thanks for your vote.' : 'You already marked this review helpful.');
    } catch (e) {
      setNote(isRefusal(e) ? e.message : 'Your vote could not be sent. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <li>
      <article aria-labelledby={titleId} className="rounded-2xl border border-stone-200 p-4" data-testid="review">
        <Stars value={review.stars} />
        <h4 id={titleId} className="mt-1 font-semibold text-stone-900">
          {review.title}
        </h4>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-stone-700">
          <span>{review.author}</span>
          <span className="rounded-full bg-emerald-800 px-2 py-0.5 text-xs font-semibold text-white">Verified buyer</span>
          <span>{formatDate(review.created_at, store.placeInfo.timezone)}</span>
        </p>
        <p className="mt-2 whitespace-pre-line break-words text-stone-800">{review.text}</p>
        {review.effects.length + review.flavours.length > 0 ? (
          <p className="mt-2 text-sm text-stone-700">
            {review.effects.length > 0 ? `Effects: ${review.effects.join(', ')}. ` : ''}
            {review.flavours.length > 0 ? `Flavours: ${review.flavours.join(', ')}.` : ''}
          </p>
        ) : null}
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <button type="button" className={button} disabled={busy} onClick={() => void helpful()}>
            Helpful ({count})
          </button>
          <span role="status" className="text-sm text-stone-700">
            {note}
          </span>
        </div>
      </article>
    </li>
  );
}

/** Where the account's "My reviews" sends the shopper to edit a review (`/p/…#edit-review`). */
const EDIT_REVIEW_ANCHOR = 'edit-review';

/** The buyer's review: log in to write one, the form, or the review with its status and an edit button. */
function WriteReview({ sku }: { sku: string }) {
  const hydrated = useHydrated();
  const auth = useAuthApi();
  const loaded = useAuth((s) => s.loaded);
  const user = useAuth((s) => s.user);
  const [mine, setMine] = useState<MyReviewOfProduct | null>(null);
  const [editing, setEditing] = useState(false);
  const [submitted, setSubmitted] = useState<string | null>(null);

  useEffect(() => {
    if (!loaded || !user) {
      setMine(null);
      return;
    }
    let live = true;
    auth
      .getState()
      .authorized((token) => reviewsApi.mine(token, sku))
      .then((answer) => {
        if (!live) return;
        setMine(answer);
        // The account's "My reviews" links here with #edit-review: open the form on the review.
        if (answer.review && answer.can_review && window.location.hash === `#${EDIT_REVIEW_ANCHOR}`) setEditing(true);
      })
      .catch(() => live && setMine(null));
    return () => {
      live = false;
    };
  }, [auth, loaded, user, sku]);
  useEffect(() => {
    if (!editing || window.location.hash !== `#${EDIT_REVIEW_ANCHOR}`) return;
    document.getElementById(EDIT_REVIEW_ANCHOR)?.scrollIntoView({ block: 'start' });
    document.getElementById('review-title')?.focus();
  }, [editing]);

  if (!hydrated || !loaded) return null;
  if (!user) {
    return (
      <p className="mt-4 flex flex-wrap items-center gap-3 text-stone-800">
        Bought this product here?
        <button type="button" aria-haspopup="dialog" className={button} onClick={() => auth.getState().openDialog('login')}>
          Log in to write a review
        </button>
      </p>
    );
  }
  if (!mine) return null;
  if (!mine.review && !mine.can_review) return <p className="mt-4 text-stone-700">{REVIEW_MESSAGES.notBuyer}</p>;

  if (mine.review && !editing) {
    const r = mine.review;
    return (
      <div className="mt-4 rounded-2xl border border-stone-300 bg-stone-50 p-4" data-testid="my-review">
        {submitted ? (
          <p role="status" className="mb-2 font-semibold text-emerald-900">
            {submitted}
          </p>
        ) : null}
        <h3 className="font-semibold text-stone-900">Your review</h3>
        <p className="mt-1 text-stone-800">
          <Stars value={r.stars} /> {r.title}
        </p>
        <p className="mt-1 text-stone-800" data-testid="my-review-status">
          Status: <strong>{REVIEW_STATUS_LABELS[r.status]}</strong>
          {r.status === 'rejected' && r.reject_reason ? ` — ${r.reject_reason}` : ''}
        </p>
        {mine.can_review ? (
          <button type="button" className={`${button} mt-3`} onClick={() => setEditing(true)}>
            Edit your review
          </button>
        ) : null}
      </div>
    );
  }

  return (
    <div id={EDIT_REVIEW_ANCHOR}>
      <ReviewForm
        sku={sku}
        review={mine.review}
        onCancel={mine.review ? () => setEditing(false) : null}
        onSaved={(review, message) => {
          setMine({ can_review: true, review });
          setEditing(false);
          setSubmitted(message);
        }}
      />
    </div>
  );
}
