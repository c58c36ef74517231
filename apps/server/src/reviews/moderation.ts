/**
 * Review moderation (issue 30): the console's queue (pending oldest first, decided ones latest
 * first) and the decision, a guarded `UPDATE … WHERE status = 'pending'` so two clicks (or a
 * decision and the shopper's edit) cannot both win; the product's average is recomputed in the
 * same transaction (./service.ts recomputeStats).
 */
import type { Kysely } from 'kysely';
import { REVIEW_MESSAGES, type ReviewStatus } from '@verdant/domain';
import type { ConsoleReview, ConsoleReviewQueue } from '@verdant/domain/console-api';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { flagsOf, myReviewView, recomputeStats, type RatingChanged } from './service.ts';

type Db = Kysely<Database>;

function consoleRows(db: Db, storeId: number) {
  return db
    .selectFrom('reviews')
    .innerJoin('customers', 'customers.id', 'reviews.customer_id')
    .leftJoin('products', 'products.id', 'reviews.product_id')
    .selectAll('reviews')
    .select(['customers.firstname', 'customers.lastname', 'products.name as product_name', 'products.slug as product_slug'])
    .where('reviews.store_id', '=', storeId);
}

type ConsoleRow = Awaited<ReturnType<ReturnType<typeof consoleRows>['executeTakeFirstOrThrow']>>;

function consoleView(r: ConsoleRow): ConsoleReview {
  return {
    ...myReviewView(r, { name: r.product_name ?? r.sku, slug: r.product_slug ?? '' }),
    reject_reason: r.reject_reason,
    customer_name: [r.firstname, r.lastname].filter(Boolean).join(' ') || 'A customer',
    flags: flagsOf(r.flags),
    moderated_at: r.moderated_at,
    moderated_by: r.moderated_by,
  };
}

const QUEUE_PAGE_SIZE = 20;

export async function reviewQueue(db: Db, storeId: number, status: ReviewStatus, page: number): Promise<ConsoleReviewQueue> {
  const count = async (s: ReviewStatus) =>
    Number((await db.selectFrom('reviews').select((eb) => eb.fn.countAll<number>().as('n')).where('store_id', '=', storeId).where('status', '=', s).executeTakeFirstOrThrow()).n);
  let query = consoleRows(db, storeId)
    .where('reviews.status', '=', status);
  // Pending: oldest first, so nothing waits forever; decided ones: the latest decision first.
  query = status === 'pending' ? query.orderBy('reviews.updated_at', 'asc') : query.orderBy('reviews.moderated_at', 'desc');
  const rows = await query
    .orderBy('reviews.id', 'asc')
    .limit(QUEUE_PAGE_SIZE)
    .offset((page - 1) * QUEUE_PAGE_SIZE)
    .execute();
  const items = rows.map(consoleView);
  const [total, pending] = await Promise.all([count(status), status === 'pending' ? Promise.resolve(-1) : count('pending')]);
  return { status, page, page_size: QUEUE_PAGE_SIZE, total, pending: pending === -1 ? total : pending, items };
}

/** Approve or reject a pending review (a guarded update: a review decided or edited meanwhile answers 409). */
export async function decideReview(
  db: Db,
  storeId: number,
  reviewId: number,
  decision: { decision: 'approve' } | { decision: 'reject'; reason: string },
  staffName: string,
  now: Date,
  ratingChanged?: RatingChanged,
): Promise<ConsoleReview> {
  const iso = now.toISOString();
  const moved = await db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('reviews')
      .set({
        status: decision.decision === 'approve' ? 'approved' : 'rejected',
        reject_reason: decision.decision === 'reject' ? decision.reason : null,
        moderated_at: iso,
        moderated_by: staffName,
      })
      .where('id', '=', reviewId)
      .where('store_id', '=', storeId)
      .where('status', '=', 'pending')
      .returning('product_id')
      .executeTakeFirst();
    if (!done) {
      const exists = await trx.selectFrom('reviews').select('id').where('id', '=', reviewId).where('store_id', '=', storeId).executeTakeFirst();
      if (!exists) throw new ApiError(404, REVIEW_MESSAGES.reviewNotFound, { errorCode: 'review_not_found' });
      throw new ApiError(409, REVIEW_MESSAGES.notPending, { errorCode: 'not_pending' });
    }
    return (await recomputeStats(trx, storeId, done.product_id, iso)) ? done.product_id : null;
  });
  if (moved !== null) await ratingChanged?.(storeId, moved);
  const row = await consoleRows(db, storeId).where('reviews.id', '=', reviewId).executeTakeFirstOrThrow();
  return consoleView(row);
}
