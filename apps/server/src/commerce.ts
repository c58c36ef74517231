/**
 * Commerce endpoints: prices (render-list), stock, cart, shipping/payment methods and orders.
 * buildApp wires them with `registerCommerceRoutes(app, { db, registry })` before the app is
 * ready; tests call it the same way after buildApp and before the first inject.
 */
import type { FastifyInstance } from 'fastify';
import type { CommerceContext, CommerceDeps } from './commerce-context.ts';
import { registerCartRoutes } from './cart/routes.ts';
import { registerLimitRoutes } from './limits/routes.ts';
import { registerOrderRoutes } from './orders/routes.ts';
import { registerRenderListRoute } from './prices/render-list.ts';
import { registerStockRoutes } from './stock/routes.ts';

export function registerCommerceRoutes(app: FastifyInstance, deps: CommerceDeps): void {
  const context: CommerceContext = { db: deps.db, registry: deps.registry, now: deps.now ?? (() => new Date()), catalog: deps.catalog ?? null };
  registerRenderListRoute(app, context);
  registerStockRoutes(app, context);
  registerCartRoutes(app, context);
  registerLimitRoutes(app, context);
  registerOrderRoutes(app, context);
}
