/**
 * The buyer's review form on the product page (issue 30; ./ProductReviews.tsx): stars as a radio
 * group, title, text, effects and flavours from the fixed lists. Checked in the browser with the
 * domain's `reviewProblems` (the server's schema says the same in the same words): each problem at
 * its field (`aria-invalid`, `aria-describedby`), the first field focused; a refusal from the server
 * in an alert that takes the focus.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { REVIEW_EFFECTS, REVIEW_FLAVOURS, REVIEW_MESSAGES, REVIEW_TEXT_MAX, REVIEW_TITLE_MAX, reviewProblems, type MyReview, type ReviewField } from '@verdant/domain';
import { reviewsApi } from '../../api/reviews.ts';
import { isRefusal } from '../../api/envelope.ts';
import { useAuthApi } from '../../state/use-auth.ts';

export const button = 'inline-flex min-h-11 items-center justify-center rounded-full border border-stone-300 px-4 font-medium text-stone-900 hover:bg-stone-100 disabled:opacity-60';
const primary = 'inline-flex min-h-11 items-center justify-center rounded-full bg-brand px-5 font-semibold text-white hover:bg-brand-ink disabled:opacity-60';

interface Draft {
  stars: number;
  title: string;
  text: string;
  effects: string[];
  flavours: string[];
}

const FIELD_IDS: Record<ReviewField, string> = { stars: 'review-stars', title: 'review-title', text: 'review-text', effects: 'review-effects', flavours: 'review-flavours' };

export function ReviewForm({ sku, review, onSaved, onCancel }: { sku: string; review: MyReview | null; onSaved: (r: MyReview, message: string) => void; onCancel: (() => void) | null }) {
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
