/**
 * Back-in-stock alerts for the storefront's no-JavaScript forms (AppContext.stockAlerts, issue 30):
 * the guest's "tell me when it's back" form (web route /stock-alert) and a message's unsubscribe
 * page (/unsubscribe/:token), through the same modules and schema as the API (../alerts/routes.ts).
 * A form post has no customer session (the token lives in the page's script), so it is a guest's.
 */
import type { FastifyRequest } from 'fastify';
import { stockAlertRequestSchema } from '@verdant/domain';
import type { AppContext } from '@verdant/web/context';
import { parseOr400 } from '../http/parse.ts';
import { ask, unsubscribe, unsubscribeView, type AlertDeps } from '../alerts/service.ts';

export function stockAlertsFor(deps: AlertDeps, request: FastifyRequest): NonNullable<AppContext['stockAlerts']> {
  return {
    ask: async (form) => {
      const input = parseOr400(stockAlertRequestSchema, { ...form, variantId: form.variantId || undefined, channel: form.channel || undefined }, 'shopper');
      return ask(deps, request.store, null, input, request.ip);
    },
    unsubscribeView: (token) => unsubscribeView(deps, request.store, token.slice(0, 100)),
    unsubscribe: (token) => unsubscribe(deps, request.store, token.slice(0, 100)),
  };
}
