/**
 * Review moderation in the console (issue 30; contract: packages/domain/src/console-api/reviews.ts),
 * permission `reviews:moderate` (managers and owners). A decision drops the store's cached pages on
 * this node (other nodes within the output cache's minute), so an approved review shows at once; a
 * decision that moves the product's average or count reindexes it in the catalogue on every node
 * (./rating-refresh.ts: cards' stars, Top rated, the rating filter).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { reviewDecisionSchema, reviewQueueQuerySchema } from '@verdant/domain/console-api';
import type { Database } from '../db/schema.ts';
import { ok } from '../http/envelope.ts';
import { dbId } from '../http/ids.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';
import { decideReview, reviewQueue } from './moderation.ts';
import { ratingRefresh } from './rating-refresh.ts';

const PREFIX = '/api/console/stores/:storeId/reviews';
const MODERATE = { config: { console: { permission: 'reviews:moderate' as const } } };
const storeParams = z.object({ storeId: dbId() });
const reviewParams = storeParams.extend({ reviewId: dbId('reviewId must be a review id') });

export function registerReviewConsoleRoutes(app: FastifyInstance, deps: { db: Kysely<Database>; now?: () => Date }): void {
  const now = deps.now ?? (() => new Date());
  app.get(PREFIX, MODERATE, async (request) => {
    const { storeId } = parseOr400(storeParams, request.params);
    const q = parseOr400(reviewQueueQuerySchema, request.query);
    return ok(await reviewQueue(deps.db, storeId, q.status, q.page));
  });

  app.post(`${PREFIX}/:reviewId/decision`, MODERATE, async (request) => {
    const { storeId, reviewId } = parseOr400(reviewParams, request.params);
    const decision = parseOr400(reviewDecisionSchema, request.body);
    const review = await decideReview(deps.db, storeId, reviewId, decision, staffOf(request).name, now(), ratingRefresh(app, request.log));
    app.invalidateStore(storeId);
    return ok(review);
  });
}
