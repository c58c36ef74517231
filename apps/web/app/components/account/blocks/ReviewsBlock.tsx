import { formatDate, REVIEW_STATUS_LABELS, type MyReview } from '@verdant/domain';
import { reviewsApi } from '../../../api/reviews.ts';
import { useRootData } from '../../../lib/root-data.ts';
import { Stars } from '../../product/Stars.tsx';
import { StoreLink } from '../../store/StoreLink.tsx';
import { useAccountQuery } from '../use-account-query.ts';
import { Block, FormError, linkButton } from '../ui.tsx';

const STATUS_STYLE: Record<MyReview['status'], string> = {
  pending: 'border-amber-300 bg-amber-50 text-amber-950',
  approved: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  rejected: 'border-red-200 bg-red-50 text-red-900',
};

/**
 * /my-account/reviews (issue 30: "The shopper sees 'Your review was submitted for moderation' and
 * later its status"): every review the customer wrote in this store (GET /api/reviews/mine), newest
 * first, with its product, stars, title and status — waiting for moderation, published, or not
 * published with the store's reason (written for the shopper; the automatic flags stay in the
 * console) — and a link to edit it in the product page's form.
 */
export function ReviewsBlock() {
  const { store } = useRootData();
  const q = useAccountQuery('reviews', (t) => reviewsApi.all(t));
  const zone = store.placeInfo.timezone;
  const items = q.data ?? [];
  return (
    <Block id="reviews" title="My reviews">
      <FormError message={q.error} />
      {q.status === 'loading' ? <p className="text-stone-600">Loading your reviews…</p> : null}
      {q.status === 'done' && items.length === 0 ? (
        <p className="text-stone-700">
          You have not written a review yet. Products you bought here can be reviewed on their page.{' '}
          <StoreLink to="/my-account/orders" className="font-medium text-brand-ink underline">
            Your orders
          </StoreLink>
        </p>
      ) : null}
      {items.length > 0 ? (
        <ul aria-label="Your reviews, newest first" className="divide-y divide-stone-200" data-testid="my-reviews">
          {items.map((r) => (
            <li key={r.id} className="grid gap-1 py-4" data-testid="my-reviews-item">
              <StoreLink to={r.path} className="font-semibold text-stone-900 underline-offset-2 hover:underline">
                {r.product_name}
              </StoreLink>
              <p className="text-stone-800">
                <Stars value={r.stars} /> <span className="break-words">{r.title}</span>
              </p>
              <p className="text-sm text-stone-600">
                {r.updated_at === r.created_at ? 'Written' : 'Changed'} {formatDate(r.updated_at, zone)}
              </p>
              <p className={`mt-1 rounded-xl border px-3 py-2 text-sm ${STATUS_STYLE[r.status]}`} data-testid="my-reviews-status">
                Status: <strong>{REVIEW_STATUS_LABELS[r.status]}</strong>
                {r.status === 'rejected' && r.reject_reason ? ` — ${r.reject_reason}` : ''}
              </p>
              <p>
                <StoreLink to={`${r.path}#edit-review`} className={linkButton} aria-label={`Edit this review: ${r.product_name}`}>
                  Edit this review
                </StoreLink>
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </Block>
  );
}
