/**
 * Issue 30: a review change that moved a product's approved average or count reindexes the product,
 * so its rating on cards, the "Top rated" sort and the rating filter follow on every node (the
 * catalogue's change bus: within 2 s, catalog/change-bus.ts). A failure is logged, never the shopper's
 * or the moderator's error: the change is committed, and the product's next change or a store rebuild
 * carries it.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RatingChanged } from './service.ts';

export function ratingRefresh(app: FastifyInstance, log: FastifyBaseLogger): RatingChanged {
  return (storeId, productId) =>
    app.catalog.catalogChanged(storeId, [productId]).catch((err: unknown) => log.warn({ err, storeId, productId }, 'catalogue rating refresh failed'));
}
