/**
 * The product page's reviews (issue 30): the average and count, the published reviews ("Verified
 * buyer" on each: only buyers can write), newest or most helpful first, a page at a time, a helpful
 * button, and the buyer's own review form with its moderation status. The first page comes with the
 * page's HTML (server-rendered, and its JSON-LD); sorting, paging and votes ask the API. Nothing is
 * shown when the store switched reviews off (or offline, where the page has no reviews).
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  REVIEW_EFFECTS,
  REVIEW_FLAVOURS,
  REVIEW_MESSAGES,
  REVIEW_STATUS_LABELS,
  REVIEW_TEXT_MAX,
  REVIEW_TITLE_MAX,
  formatDate,
  reviewProblems,
  type MyReview,
  type MyReviewOfProduct,
  type ProductReviewsPage,
  type PublishedReview,
  type ReviewField,
  type ReviewSort,
} from '@verdant/domain';
import { reviewsApi } from '../../api/reviews.ts';
import { isRefusal } from '../../api/envelope.ts';
import { useRootData } from '../../lib/root-data.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { useAuth, useAuthApi } from '../../state/use-auth.ts';

const button = 'inline-flex min-h-11 items-center justify-center rounded-full border border-stone-300 px-4 font-medium text-stone-900 hover:bg-stone-100 disabled:opacity-60';
const primary = 'inline-flex min-h-11 items-center justify-center rounded-full bg-brand px-5 font-semibold text-white hover:bg-brand-ink disabled:opacity-60';

export function Stars({ value, className = '' }: { value: number; className?: string }) {
  const full = Math.round(value);
  return (
    <span role="img" aria-label={`${value} out of 5 stars`} className={`whitespace-nowrap text-amber-800 ${className}`}>
      {'★'.repeat(full)}
      <span className="text-stone-500">{'☆'.repeat(5 - full)}</span>
    </span>
  );
}

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
      .then((answer) => live && setMine(answer))
      .catch(() => live && setMine(null));
    return () => {
      live = false;
    };
  }, [auth, loaded, user, sku]);

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
  );
}

interface Draft {
  stars: number;
  title: string;
  text: string;
  effects: string[];
  flavours: string[];
}

const FIELD_IDS: Record<ReviewField, string> = { stars: 'review-stars', title: 'review-title', text: 'review-text', effects: 'review-effects', flavours: 'review-flavours' };

function ReviewForm({ sku, review, onSaved, onCancel }: { sku: string; review: MyReview | null; onSaved: (r: MyReview, message: string) => void; onCancel: (() => void) | null }) {
  const auth = useAuthApi();
  const [draft, setDraft] = useState<Draft>(() => ({
    stars: review?.stars ?? 0,
    title: review?.title ?? '',
    text: review?.text ?? '',
    effects: review?.effects ?? [],
    flavours: review?.flavours ?? [],
  }));
  const [problems, setProblems] = useState<Partial<Record<ReviewField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = reviewProblems(draft);
    setProblems(found);
    setFailure(null);
    const first = (Object.keys(FIELD_IDS) as ReviewField[]).find((f) => found[f]);
    if (first) {
      document.getElementById(first === 'stars' ? 'review-stars-1' : FIELD_IDS[first])?.focus();
      return;
    }
    setBusy(true);
    try {
      const input = { stars: draft.stars, title: draft.title.trim(), text: draft.text.trim(), effects: draft.effects as never, flavours: draft.flavours as never };
      const answer = await auth.getState().authorized((token) => reviewsApi.write(token, sku, input));
      onSaved(answer.review, answer.message || REVIEW_MESSAGES.submitted);
    } catch (e) {
      setFailure(isRefusal(e) ? e.message : 'Your review could not be sent. Please try again.');
      summaryRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  const toggle = (key: 'effects' | 'flavours', value: string) =>
    setDraft((d) => ({ ...d, [key]: d[key].includes(value) ? d[key].filter((v) => v !== value) : [...d[key], value] }));
  const describedBy = (f: ReviewField, help?: string) => [help, problems[f] ? `${FIELD_IDS[f]}-error` : null].filter(Boolean).join(' ') || undefined;
  const problem = (f: ReviewField) =>
    problems[f] ? (
      <p id={`${FIELD_IDS[f]}-error`} className="text-sm font-medium text-red-700">
        {problems[f]}
      </p>
    ) : null;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="review-form-title" className="mt-4 grid max-w-2xl gap-3 rounded-2xl border border-stone-300 p-4" data-testid="review-form">
      <h3 id="review-form-title" className="text-lg font-semibold text-stone-900">
        {review ? 'Edit your review' : 'Write a review'}
      </h3>
      <p className="text-sm text-stone-700">Every review is read by the store before it is published. Please do not give medical or dosing advice, contact details or links.</p>
      <div ref={summaryRef} tabIndex={-1} role="alert" className={failure ? 'rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800' : ''}>
        {failure}
      </div>
      <fieldset aria-describedby={describedBy('stars')} aria-invalid={problems.stars ? true : undefined}>
        <legend className="font-semibold text-stone-900">Your rating</legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className="flex min-h-11 items-center gap-1 rounded-full border border-stone-300 px-3">
              <input type="radio" id={`review-stars-${n}`} name="review-stars" value={n} checked={draft.stars === n} onChange={() => setDraft({ ...draft, stars: n })} />
              {n === 1 ? '1 star' : `${n} stars`}
            </label>
          ))}
        </div>
        {problem('stars')}
      </fieldset>
      <label htmlFor={FIELD_IDS.title} className="font-semibold text-stone-900">
        Title
      </label>
      <input
        id={FIELD_IDS.title}
        className="min-h-11 rounded-lg border border-stone-400 px-3"
        value={draft.title}
        maxLength={REVIEW_TITLE_MAX}
        aria-invalid={problems.title ? true : undefined}
        aria-describedby={describedBy('title')}
        onChange={(e) => setDraft({ ...draft, title: e.target.value })}
      />
      {problem('title')}
      <label htmlFor={FIELD_IDS.text} className="font-semibold text-stone-900">
        Your review
      </label>
      <p id="review-text-help" className="text-sm text-stone-700">
        At least 20 characters: how it smelled, tasted and felt.
      </p>
      <textarea
        id={FIELD_IDS.text}
        rows={5}
        className="rounded-lg border border-stone-400 px-3 py-2"
        value={draft.text}
        maxLength={REVIEW_TEXT_MAX}
        aria-invalid={problems.text ? true : undefined}
        aria-describedby={describedBy('text', 'review-text-help')}
        onChange={(e) => setDraft({ ...draft, text: e.target.value })}
      />
      {problem('text')}
      <TagChoice legend="Effects (optional, up to 5)" name="effects" values={REVIEW_EFFECTS} chosen={draft.effects} onToggle={(v) => toggle('effects', v)} problem={problem('effects')} />
      <TagChoice legend="Flavours (optional, up to 5)" name="flavours" values={REVIEW_FLAVOURS} chosen={draft.flavours} onToggle={(v) => toggle('flavours', v)} problem={problem('flavours')} />
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={primary} disabled={busy}>
          {busy ? 'Sending…' : 'Submit review'}
        </button>
        {onCancel ? (
          <button type="button" className={button} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

function TagChoice(props: { legend: string; name: string; values: readonly string[]; chosen: string[]; onToggle: (v: string) => void; problem: ReactNode }) {
  return (
    <fieldset id={`review-${props.name}`} tabIndex={-1}>
      <legend className="font-semibold text-stone-900">{props.legend}</legend>
      <div className="mt-1 flex flex-wrap gap-2">
        {props.values.map((v) => (
          <label key={v} className="flex min-h-11 items-center gap-1 rounded-full border border-stone-300 px-3 text-stone-800">
            <input type="checkbox" name={`review-${props.name}`} value={v} checked={props.chosen.includes(v)} onChange={() => props.onToggle(v)} />
            {v}
          </label>
        ))}
      </div>
      {props.problem}
    </fieldset>
  );
}
