/**
 * Back-in-stock alerts, the shopper's API (issue 30; ./service.ts does the work):
 *  - POST   /api/stock-alerts {productId, variantId?, channel?, contact?, consent} → watch a sold-out
 *    product or size (a customer session: the account's phone or e-mail; a guest: the contact given);
 *  - GET    /api/stock-alerts → the customer's watches still waiting;
 *  - DELETE /api/stock-alerts/:watchId → stop one of them;
 *  - GET    /api/stock-alerts/unsubscribe/:token → what the signed link of a message would stop;
 *  - POST   /api/stock-alerts/unsubscribe/:token → stop it (no login; the link is the key).
 */
import type { FastifyInstance } from 'fastify';
import { stockAlertRequestSchema } from '@verdant/domain';
import { z } from 'zod';
import { authOf, requireCustomer } from '../auth/context.ts';
import { AUTH_MESSAGES } from '../auth/tokens.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { dbId } from '../http/ids.ts';
import { parseOr400 } from '../http/parse.ts';
import { ask, listWatches, stopWatch, unsubscribe, unsubscribeView, type AlertDeps } from './service.ts';

const tokenParams = z.object({ token: z.string().max(100) });
const watchParams = z.object({ watchId: dbId() });

export function registerStockAlertRoutes(app: FastifyInstance, deps: AlertDeps): void {
  app.post(
    '/api/stock-alerts',
    {
      config: {
        docs: {
          summary: "Tell me when it's back: watch a sold-out product or size (customer session, or a guest's phone or e-mail with consent)",
          tags: ['Stock alerts'],
          body: stockAlertRequestSchema,
          security: 'none',
          errors: { 400: 'No consent, or no valid phone or e-mail', 404: 'Not a product of this store', 409: 'In stock now (`in_stock`)', 429: 'Too many guest requests from this address (`too_many`)' },
        },
      },
    },
    async (request, reply) => {
      const input = parseOr400(stockAlertRequestSchema, request.body ?? {}, 'shopper');
      const claims = await authOf(request);
      if (claims === 'invalid') throw new ApiError(401, AUTH_MESSAGES.tokenInvalid);
      reply.header('Cache-Control', 'no-store');
      return ok(await ask(deps, request.store, claims?.customerId ?? null, input, request.ip));
    },
  );
  app.get(
    '/api/stock-alerts',
    { config: { docs: { summary: "The customer's back-in-stock watches", tags: ['Stock alerts'], security: 'customer' } } },
    async (request, reply) => {
      const { customerId } = await requireCustomer(request);
      reply.header('Cache-Control', 'no-store');
      return ok({ items: await listWatches(deps, request.store, customerId) });
    },
  );
  app.delete(
    '/api/stock-alerts/:watchId',
    { config: { docs: { summary: 'Stop one back-in-stock watch', tags: ['Stock alerts'], security: 'customer' } } },
    async (request) => {
      const { customerId } = await requireCustomer(request);
      const { watchId } = parseOr400(watchParams, request.params, 'shopper');
      return ok(await stopWatch(deps, request.store, customerId, watchId));
    },
  );
  const linkErrors = { 404: 'The link is not valid for this store' };
  app.get(
    '/api/stock-alerts/unsubscribe/:token',
    { config: { docs: { summary: "A back-in-stock message's unsubscribe link: what it stops (signed link, no login)", tags: ['Stock alerts'], security: 'none', errors: linkErrors } } },
    async (request, reply) => {
      const { token } = parseOr400(tokenParams, request.params, 'shopper');
      reply.header('Cache-Control', 'no-store');
      return ok(await unsubscribeView(deps, request.store, token));
    },
  );
  app.post(
    '/api/stock-alerts/unsubscribe/:token',
    { config: { docs: { summary: 'Unsubscribe in one tap: withdraw marketing consent on the channel and stop the watch', tags: ['Stock alerts'], security: 'none', errors: linkErrors } } },
    async (request, reply) => {
      const { token } = parseOr400(tokenParams, request.params, 'shopper');
      reply.header('Cache-Control', 'no-store');
      return ok(await unsubscribe(deps, request.store, token));
    },
  );
}
