/**
 * The shopper's "I'm here" page's API (issue 29, no login: the signed link is the key, ./link.ts):
 *  - GET  /api/curbside/:token → CurbsideView (whether "I'm here" may be sent now, the bays, the instructions, the arrival);
 *  - POST /api/curbside/:token {car, bay} → the same after recording the arrival (./arrival.ts).
 */
import type { FastifyInstance } from 'fastify';
import { curbsideArrivalSchema } from '@verdant/domain';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import { parseOr400 } from '../../http/parse.ts';
import type { Db } from '../lifecycle/store-facts.ts';
import { curbsideView, recordArrival } from './arrival.ts';

const tokenParams = z.object({ token: z.string().max(100) });
const errors = {
  400: 'Neither a car description nor a bay, or a bay the store does not list',
  404: 'The link is not valid for this store',
  409: 'The order is not ready for pickup (not yet, completed or cancelled), is a delivery, or the store does not offer curbside',
  410: 'The link has expired',
};

export function registerCurbsideRoutes(app: FastifyInstance, deps: { db: Db; secret: Uint8Array | string; now?: () => Date }): void {
  const now = deps.now ?? (() => new Date());
  app.get(
    '/api/curbside/:token',
    { config: { docs: { summary: 'A curbside order\'s "I\'m here" page (signed link, no login)', tags: ['Order'], security: 'none', errors } } },
    async (request, reply) => {
      const { token } = parseOr400(tokenParams, request.params);
      reply.header('Cache-Control', 'no-store');
      return ok(await curbsideView(deps.db, request.store, deps.secret, token, now()));
    },
  );
  app.post(
    '/api/curbside/:token',
    { config: { docs: { summary: 'Tell the store "I\'m here" with the car\'s description or a bay', tags: ['Order'], body: curbsideArrivalSchema, security: 'none', errors } } },
    async (request, reply) => {
      const { token } = parseOr400(tokenParams, request.params);
      const input = parseOr400(curbsideArrivalSchema, request.body ?? {}, 'shopper');
      const view = await recordArrival(deps.db, request.store, deps.secret, token, input, now());
      app.outbox.kick();
      reply.header('Cache-Control', 'no-store');
      return ok(view);
    },
  );
}
