/**
 * The curbside "I'm here" page's server side for the storefront's /curbside/:token route
 * (AppContext.curbside), so the page and its form work without JavaScript: the same reads and the
 * same once-only write as `GET/POST /api/curbside/:token` (../orders/curbside/routes.ts), the form
 * checked by the same schema.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { curbsideArrivalSchema } from '@verdant/domain';
import type { AppContext } from '@verdant/web/context';
import { parseOr400 } from '../http/parse.ts';
import { curbsideView, recordArrival } from '../orders/curbside/arrival.ts';
import type { Db } from '../orders/lifecycle/store-facts.ts';

export function curbsideFor(
  app: FastifyInstance,
  deps: { db: Db; secret: Uint8Array | string; now?: () => Date },
  request: FastifyRequest,
): NonNullable<AppContext['curbside']> {
  const now = deps.now ?? (() => new Date());
  return {
    view: (token) => curbsideView(deps.db, request.store, deps.secret, token.slice(0, 100), now()),
    arrive: async (token, form) => {
      const input = parseOr400(curbsideArrivalSchema, form, 'shopper');
      const view = await recordArrival(deps.db, request.store, deps.secret, token.slice(0, 100), input, now());
      app.outbox.kick();
      return view;
    },
  };
}
