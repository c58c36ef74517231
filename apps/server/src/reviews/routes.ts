/**
 * The shopper's review API (issue 30 "Reviews"; spec §7 "Review create"). Reads need no login; writes
 * need a customer token (not a guest's). Rules: ./service.ts.
 *   GET  /api/reviews/products/:sku?sort=newest|helpful&page=1   published reviews, average and count
 *   GET  /api/reviews/products/:sku/mine                          whether I may review it, my review and its status
 *   POST /api/reviews/products/:sku {stars, title, text, effects?, flavours?}
 *        write or edit my review (only a buyer; once per product; an edit waits for moderation again);
 *        answers the review and `meta.message` "Review submitted for moderation" (spec §8)
 *   GET  /api/reviews/mine                                        my reviews with their status
 *   POST /api/reviews/:reviewId/helpful                           mark a published review helpful (once per customer)
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { REVIEW_MESSAGES, reviewInputSchema, reviewListQuerySchema } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import { requireCustomer } from '../auth/context.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { dbId } from '../http/ids.ts';
import { parseOr400 } from '../http/parse.ts';
import { myReviewOf, myReviews, productReviews, voteHelpful, writeReview } from './service.ts';
import { ratingRefresh } from './rating-refresh.ts';

const skuParams = z.object({ sku: z.string().min(1).max(128) });
const reviewParams = z.object({ reviewId: dbId('reviewId must be a review id') });
const tags = ['Reviews'];

export function registerReviewRoutes(app: FastifyInstance, deps: { db: Kysely<Database>; now?: () => Date }): void {
  const now = deps.now ?? (() => new Date());
  const { db } = deps;

  app.get(
    '/api/reviews/products/:sku',
    { config: { docs: { summary: "A product's published reviews with their average and count", tags, params: skuParams, query: reviewListQuerySchema, security: 'none', errors: { 404: 'No such product in this store' } } } },
    async (request) => {
      const { sku } = parseOr400(skuParams, request.params, 'catalog');
      const q = parseOr400(reviewListQuerySchema, request.query, 'catalog');
      const page = await productReviews(db, request.store, sku, q.sort, q.page);
      if (!page) throw new ApiError(404, REVIEW_MESSAGES.productNotFound, { errorCode: 'product_not_found' });
      return ok(page);
    },
  );

  app.get(
    '/api/reviews/products/:sku/mine',
    { config: { docs: { summary: 'Whether I may review a product, and my review of it with its status', tags, params: skuParams, security: 'customer', errors: { 401: 'No valid customer token', 404: 'No such product in this store' } } } },
    async (request, reply) => {
      const { customerId } = await requireCustomer(request);
      const { sku } = parseOr400(skuParams, request.params, 'shopper');
      reply.header('Cache-Control', 'no-store');
      return ok(await myReviewOf(db, request.store, customerId, sku));
    },
  );

  app.post(
    '/api/reviews/products/:sku',
    {
      config: {
        docs: {
          summary: 'Write or edit my review of a product (it waits for moderation)',
          description: 'Only a customer with a completed order of this store holding the product; one review per product (a second write edits it and sends it back to moderation).',
          tags,
          params: skuParams,
          body: reviewInputSchema,
          security: 'customer',
          errors: { 400: 'A field out of its limits', 401: 'No valid customer token', 403: 'Not a buyer of the product (`not_a_buyer`) or reviews are off (`reviews_off`)', 404: 'No such product in this store' },
        },
      },
    },
    async (request) => {
      const { customerId } = await requireCustomer(request);
      const { sku } = parseOr400(skuParams, request.params, 'shopper');
      const input = parseOr400(reviewInputSchema, request.body, 'shopper');
      const review = await writeReview(db, request.store, customerId, sku, input, now(), ratingRefresh(app, request.log));
      return ok(review, { message: REVIEW_MESSAGES.submitted });
    },
  );

  app.get(
    '/api/reviews/mine',
    { config: { docs: { summary: 'My reviews in this store with their status', tags, security: 'customer', errors: { 401: 'No valid customer token' } } } },
    async (request, reply) => {
      const { customerId } = await requireCustomer(request);
      reply.header('Cache-Control', 'no-store');
      return ok(await myReviews(db, request.store.storeId, customerId));
    },
  );

  app.post(
    '/api/reviews/:reviewId/helpful',
    {
      config: {
        docs: {
          summary: 'Mark a published review helpful (counted once per customer)',
          tags,
          params: reviewParams,
          security: 'customer',
          errors: { 401: 'No valid customer token', 403: 'My own review (`own_review`) or reviews are off (`reviews_off`)', 404: 'No such published review in this store' },
        },
      },
    },
    async (request) => {
      const { customerId } = await requireCustomer(request);
      const { reviewId } = parseOr400(reviewParams, request.params, 'shopper');
      return ok(await voteHelpful(db, request.store, customerId, reviewId, now()));
    },
  );
}
