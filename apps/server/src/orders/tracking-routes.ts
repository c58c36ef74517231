/** POST /api/order-tracking {number, phone}: order tracking without an account (./tracking.ts says what it answers). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { accountsOf } from '../auth/context.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import type { Db } from './lifecycle/store-facts.ts';
import { TRACKING_MESSAGES, TRACKING_PER_IP_PER_MINUTE, TRACKING_WINDOW_MS, trackOrder } from './tracking.ts';

const trackingSchema = z.object({
  number: z.string().trim().min(1, 'Please enter your order number.').max(40),
  phone: z.string().trim().min(1, 'Please enter your phone number.').max(40),
});

export function registerOrderTracking(app: FastifyInstance, db: Db): void {
  app.post(
    '/api/order-tracking',
    { config: { docs: { summary: 'Look an order up by its number and phone number (no account needed)', tags: ['Order'], body: trackingSchema, security: 'none', errors: { 404: 'No order with that number and phone', 429: 'Too many look-ups; Retry-After says when to try again' } } } },
    async (request) => {
    const body = parseOr400(trackingSchema, request.body);
    const allowed = await accountsOf(app).limiter.hit(`track-ip:${request.ip}`, TRACKING_PER_IP_PER_MINUTE, TRACKING_WINDOW_MS);
    // Retry-After: the window's length (it began at the first counted look-up, so it is over by then).
    if (!allowed)
      throw new ApiError(429, TRACKING_MESSAGES.tooMany, { errorCode: 'rate_limited', retryAfterSeconds: TRACKING_WINDOW_MS / 1000 });
    return ok(await trackOrder(db, request.store.storeId, body.number, body.phone, request.store.dispensarySettings.place_info.timezone));
  });
}
