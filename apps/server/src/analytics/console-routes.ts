/**
 * The console's analytics routes (contract: packages/domain/src/console-api/analytics.ts), owners
 * and managers (reports:read). The staff guard has checked the session and, for
 * /stores/:storeId/…, that the member may see the store; the across-stores view sums only stores
 * the member may see (a store named outside them is 403, as the guard would answer).
 */
import type { Store } from '@verdant/domain';
import {
  ANALYTICS_BREAKDOWNS,
  analyticsAcrossCsvQuery,
  analyticsAcrossQuery,
  analyticsCsvQuery,
  analyticsQuery,
  type AnalyticsTable,
  type AnalyticsView,
} from '@verdant/domain/console-api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { dbId } from '../http/ids.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';
import { analyticsCsv } from './csv.ts';
import { analyticsView, type ViewRequest } from './view.ts';

const perm = { config: { console: { permission: 'reports:read' as const } } };
const storeParams = z.object({ storeId: dbId() });

export function registerAnalyticsConsoleRoutes(app: FastifyInstance, deps: { db: Kysely<Database>; stores: readonly Store[] }): void {
  const byId = new Map(deps.stores.map((s) => [s.storeId, { id: s.storeId, code: s.storeCode, name: s.name }]));

  const one = (request: FastifyRequest) => {
    const { storeId } = parseOr400(storeParams, request.params);
    const store = byId.get(storeId);
    if (!store) throw new ApiError(404, 'Store not found.', { errorCode: 'store_not_found' });
    return [store];
  };
  const across = (request: FastifyRequest, named: number[] | undefined) => {
    const mine = staffOf(request).storeIds;
    const ids = named ?? mine;
    if (named?.some((id) => !mine.includes(id))) throw new ApiError(403, 'You do not have access to this store.', { errorCode: 'store_forbidden' });
    const stores = ids.flatMap((id) => byId.get(id) ?? []);
    if (!stores.length) throw new ApiError(404, 'No store to show.', { errorCode: 'store_not_found' });
    return stores;
  };
  const sendCsv = (reply: FastifyReply, view: AnalyticsView, table: AnalyticsTable) => {
    const who = view.stores.length === 1 ? view.stores[0].code : 'stores';
    return reply
      .header('cache-control', 'no-store, private')
      .header('content-disposition', `attachment; filename="${who}-analytics-${table}-${view.from}-${view.to}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(analyticsCsv(view, table));
  };
  const view = (stores: ViewRequest['stores'], q: { from: string; to: string; grain: ViewRequest['grain']; compare: boolean }) =>
    analyticsView(deps.db, { stores, from: q.from, to: q.to, grain: q.grain, compare: q.compare });

  app.get('/api/console/stores/:storeId/analytics', perm, async (request) => {
    const stores = one(request);
    return ok(await view(stores, parseOr400(analyticsQuery, request.query)));
  });
  app.get('/api/console/stores/:storeId/analytics.csv', perm, async (request, reply) => {
    const stores = one(request);
    const q = parseOr400(analyticsCsvQuery, request.query);
    return sendCsv(reply, await view(stores, q), q.table);
  });
  app.get('/api/console/analytics', perm, async (request) => {
    const q = parseOr400(analyticsAcrossQuery, request.query);
    return ok(await view(across(request, q.stores), q));
  });
  app.get('/api/console/analytics.csv', perm, async (request, reply) => {
    const q = parseOr400(analyticsAcrossCsvQuery, request.query);
    return sendCsv(reply, await view(across(request, q.stores), q), q.table);
  });
}

export { ANALYTICS_BREAKDOWNS };
