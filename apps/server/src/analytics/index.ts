/**
 * Analytics (issue 31): what the rest of the server may call. `registerAnalytics` runs
 *  - the rollup consumer on `outbox_events.analytics_at` (at least once; `applyOrder` is
 *    idempotent): after each order event the order's cells are brought up to date — outside the
 *    order's transaction, so an order save only writes the outbox row it wrote anyway;
 *  - the funnel counter: an onResponse hook counts page views, cart adds and checkouts per store
 *    and day in memory, flushed every few seconds (./funnel.ts);
 *  - the console routes (./console-routes.ts).
 */
import type { Store } from '@verdant/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createOutboxConsumer, type OutboxConsumer } from '../outbox/consumer.ts';
import { registerAnalyticsConsoleRoutes } from './console-routes.ts';
import { createFunnelCounter, stepsOf, type FunnelCounter } from './funnel.ts';
import { applyOrder } from './rollup.ts';

export { applyOrder, rebuildStore } from './rollup.ts';
export { analyticsView } from './view.ts';

export interface Analytics {
  rollups: OutboxConsumer;
  funnel: FunnelCounter;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Analytics of this node (analytics/index.ts). */
    analytics: Analytics;
  }
}

export interface AnalyticsDeps {
  db: Kysely<Database>;
  stores: readonly Store[];
  now?: () => Date;
  /** How often counted funnel steps are written (default 5 s). */
  funnelFlushMs?: number;
}

export function registerAnalytics(app: FastifyInstance, deps: AnalyticsDeps): Analytics {
  const now = deps.now ?? (() => new Date());
  const zones = new Map(deps.stores.map((s) => [s.storeId, s.dispensarySettings.place_info.timezone || 'UTC']));
  const zoneOf = (id: number) => zones.get(id) ?? 'UTC';
  const warn = (what: string) => (err: unknown) => app.log.warn({ err }, what);

  const rollups = createOutboxConsumer({
    name: 'analytics',
    db: deps.db,
    signal: app.outbox,
    column: 'analytics_at',
    handle: async (event) => {
      if (event.order_id != null) await applyOrder(deps.db, event.order_id, zoneOf, new Date().toISOString());
    },
    onError: warn('outbox consumer analytics'),
  });
  const funnel = createFunnelCounter(deps.db, { flushMs: deps.funnelFlushMs, onError: warn('analytics funnel flush') });

  app.addHook('onResponse', (request, reply, done) => {
    const store = request.store;
    if (store && (request.method === 'GET' || request.method === 'POST')) {
      const path = request.url.split('?')[0];
      const prefix = request.storePathPrefix;
      const steps = stepsOf({
        method: request.method,
        path: prefix && path.startsWith(prefix) ? path.slice(prefix.length) || '/' : path,
        status: reply.statusCode,
        contentType: String(reply.getHeader('content-type') ?? ''),
        host: request.host,
        referer: request.headers.referer,
        userAgent: request.headers['user-agent'],
        body: request.body,
      });
      for (const step of steps) funnel.count(store.storeId, zoneOf(store.storeId), step, now());
    }
    done();
  });

  registerAnalyticsConsoleRoutes(app, { db: deps.db, stores: deps.stores });
  const analytics: Analytics = { rollups, funnel };
  app.decorate('analytics', analytics);
  app.addHook('onReady', async () => {
    rollups.start();
  });
  app.addHook('onClose', async () => {
    await rollups.stop();
    await funnel.stop();
  });
  return analytics;
}
