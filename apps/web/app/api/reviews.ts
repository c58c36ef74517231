/**
 * The review calls of the product page and the account's "My reviews" (issue 30; server:
 * apps/server/src/reviews/routes.ts). Apart from the session's calls so this code loads only with them.
 */
import type { MyReview, MyReviewOfProduct, ProductReviewsPage, ReviewInput, ReviewSort } from '@verdant/domain';
import { callApi, callApiEnvelope } from './envelope.ts';
import { bearer } from './user.ts';

const productPath = (sku: string) => `/api/reviews/products/${encodeURIComponent(sku)}`;

export const reviewsApi = {
  page: (sku: string, sort: ReviewSort, page: number) => callApi<ProductReviewsPage>(productPath(sku), { query: { sort, page } }),
  /** The account's "My reviews": every review I wrote in this store, newest first, with its status. */
  all: (token: string) => callApi<MyReview[]>('/api/reviews/mine', { headers: bearer(token) }),
  mine: (token: string, sku: string) => callApi<MyReviewOfProduct>(`${productPath(sku)}/mine`, { headers: bearer(token) }),
  /** Write or edit: answers the review and the spec's "Review submitted for moderation". */
  async write(token: string, sku: string, input: ReviewInput): Promise<{ review: MyReview; message: string }> {
    const answer = await callApiEnvelope<MyReview, { message: string }>(productPath(sku), { method: 'POST', headers: bearer(token), body: input });
    return { review: answer.result, message: answer.meta.message ?? '' };
  },
  helpful: (token: string, reviewId: number) => callApi<{ helpful_count: number; counted: boolean }>(`/api/reviews/${reviewId}/helpful`, { method: 'POST', headers: bearer(token) }),
};
