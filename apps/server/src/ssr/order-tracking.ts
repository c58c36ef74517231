/**
 * Order tracking for the storefront's /order-tracking route action (AppContext.trackOrder), so the
 * form works without JavaScript: the same look-up as `POST /api/order-tracking`, counted in the
 * same per-address bucket (a guest cannot double their tries by switching between the two).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TrackedOrder, TrackingQuery } from '@verdant/web/context';
import { accountsOf } from '../auth/context.ts';
import { ApiError } from '../http/envelope.ts';
import { TRACKING_MESSAGES, TRACKING_PER_IP_PER_MINUTE, trackOrder } from '../orders/tracking.ts';
import type { Db } from '../orders/lifecycle/store-facts.ts';

export function trackOrderFor(app: FastifyInstance, db: Db, request: FastifyRequest): (query: TrackingQuery) => Promise<TrackedOrder> {
  return async (query) => {
    if (!(await accountsOf(app).limiter.hit(`track-ip:${request.ip}`, TRACKING_PER_IP_PER_MINUTE, 60_000))) {
      throw new ApiError(429, TRACKING_MESSAGES.tooMany, { errorCode: 'rate_limited' });
    }
    return trackOrder(db, request.store.storeId, query.number, query.phone, request.store.dispensarySettings.place_info.timezone);
  };
}
