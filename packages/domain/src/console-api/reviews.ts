/**
 * Review moderation (issue 30 "Reviews"; apps/server/src/reviews/console-routes.ts, the page
 * apps/console/src/routes/reviews.tsx), per store under /stores/:storeId. Permission
 * `reviews:moderate` (managers and owners: what a store publishes is a compliance decision).
 *
 *   GET /stores/:storeId/reviews (query: status=pending|approved|rejected, page)
 *        the moderation queue: pending first (oldest first, so nothing waits forever), each with the
 *        automatic flags and their rules' names
 *   POST /stores/:storeId/reviews/:reviewId/decision {decision: 'approve'} | {decision: 'reject', reason}
 *        applied only to a review still pending (409 `not_pending` when it was decided or edited meanwhile)
 *
 * Switching reviews off is the settings section `reviews` (GET/PUT /settings/sections/reviews).
 */
import { z } from 'zod';
import { REVIEW_STATUSES, type ModerationFlag, type ReviewStatus } from '../reviews/index.ts';

export { reviewDecisionSchema } from '../reviews/schema.ts';

export const reviewQueueQuerySchema = z.object({
  status: z.enum(REVIEW_STATUSES, { message: `status is one of: ${REVIEW_STATUSES.join(', ')}` }).default('pending'),
  page: z.coerce.number({ message: 'page is a whole number from 1 to 1000' }).int().min(1).max(1000).default(1),
});

export interface ConsoleReview {
  id: number;
  sku: string;
  product_name: string;
  customer_name: string;
  stars: number;
  title: string;
  text: string;
  effects: string[];
  flavours: string[];
  status: ReviewStatus;
  flags: ModerationFlag[];
  reject_reason: string | null;
  helpful_count: number;
  created_at: string;
  updated_at: string;
  moderated_at: string | null;
  moderated_by: string | null;
}

export interface ConsoleReviewQueue {
  status: ReviewStatus;
  page: number;
  page_size: number;
  total: number;
  /** Pending reviews of the store (the badge beside the page's name). */
  pending: number;
  items: ConsoleReview[];
}
