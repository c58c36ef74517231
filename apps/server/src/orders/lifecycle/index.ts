/**
 * The order lifecycle on the server (issue 12): console order routes, shopper order tracking and
 * the sweeper (no-show, auto-confirm). buildApp calls `registerOrderLifecycle(app, …)` after the
 * account routes (tracking uses their rate limiter) and before the API's catch-all.
 */
import type { FastifyInstance } from 'fastify';
import { registerConsoleOrderRoutes } from '../console-routes.ts';
import { registerOrderTracking } from '../tracking-routes.ts';
import { startOrderSweeper } from './sweeper.ts';
import type { Db } from './store-facts.ts';

export interface OrderLifecycleDeps {
  db: Db;
  now?: () => Date;
  /** How often the sweeper runs (default 30 s); 0 turns it off (tests sweep by hand). */
  sweepIntervalMs?: number;
}

export function registerOrderLifecycle(app: FastifyInstance, deps: OrderLifecycleDeps): void {
  const now = deps.now ?? (() => new Date());
  registerConsoleOrderRoutes(app, { db: deps.db, now });
  registerOrderTracking(app, deps.db);
  if (deps.sweepIntervalMs !== 0) app.decorate('orderSweeper', startOrderSweeper(app, deps.db, { intervalMs: deps.sweepIntervalMs, now }));
}

export {
  applyTransition,
  orderOfStore,
  SYSTEM_ACTOR,
  TRANSITION_MESSAGES,
  type OrderActor,
  type TransitionRequest,
  type TransitionResult,
} from './transitions.ts';
export { reviewDocument, VERIFICATION_MESSAGES, type VerificationRequest, type VerificationResult } from './verification.ts';
export { sweepOrders, startOrderSweeper, type OrderSweeper, type SweepResult } from './sweeper.ts';
export { holdOf, orderSettings, storeFacts, type OrderSettings, type StoreFacts } from './store-facts.ts';
export { releaseGoods } from './release.ts';
