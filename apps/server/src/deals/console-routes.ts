/**
 * The console's deal routes (issue 28 "The store's side"; contract: packages/domain/src/console-api/deals.ts),
 * under /api/console/stores/:storeId:
 *
 *   GET  /deals?status=&kind=            deals:read    the list
 *   GET  /deals/:dealId                  deals:read    one deal
 *   POST /deals                          deals:write   create
 *   PUT  /deals/:dealId                  deals:write   replace the record over `version` (409 stale_deal)
 *   POST /deals/:dealId/{pause,resume,end} deals:write with `version`
 *   GET  /deals/:dealId/history          deals:read    who / when / before / after
 *   POST /deals/preview                  deals:read    a draft + sample cart (nothing saved; a budtender may try one)
 *   POST /deals/check                    deals:read    a typed-in cart against the active deals: what applies, why not
 *   GET  /deals/calendar?from=&to=       deals:read    what runs on each day (store zone)
 *   GET  /deals/report[.csv]?from=&to=   reports:read  redemptions and discount per deal per day
 *   GET  /orders/:orderId/deals-trace    orders:read   which deals applied and why the others did not
 *
 * The staff guard (staff/guard.ts) checks the session, CSRF, the store and the role first; every
 * write goes through the DealsRepository (one transaction with its history row).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEAL_DISPLAY_PRESETS, dealDisplayTitle, type Deal, type Store } from '@verdant/domain';
import {
  dealCalendarQuery,
  dealCheckBody,
  dealCreateBody,
  dealHistoryQuery,
  dealListQuery,
  dealParams,
  dealPreviewBody,
  dealReportQuery,
  dealStatusBody,
  dealUpdateBody,
  type DealChangeView,
  type DealHistory,
  type DealList,
  type DealView,
} from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { dbId } from '../http/ids.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';
import type { RoutePermission } from '../staff/permissions.ts';
import { dealCalendar, dealReport, dealReportCsv } from './calendar.ts';
import { parseDealInput, type DealActor, type DealChange, type StoredDeal } from './repository.ts';
import { checkCart, previewDeal, storeTimeZone } from './preview.ts';
import { orderDealTrace } from './trace.ts';

export interface DealRouteDeps {
  db: Kysely<Database>;
  stores: readonly Store[];
  now?: () => Date;
}

const PREFIX = '/api/console/stores/:storeId';
const perm = (permission: RoutePermission) => ({ config: { console: { permission } } });
const storeParams = z.object({ storeId: dbId() });
const orderParams = z.object({ storeId: dbId(), orderId: dbId() });

export function dealView(d: StoredDeal): DealView {
  return {
    id: d.id,
    code: d.code,
    external_id: d.externalId,
    kind: d.kind,
    title: d.title,
    status: d.status,
    version: d.version,
    redeemed: d.redeemed,
    headline: dealDisplayTitle(d.record, DEAL_DISPLAY_PRESETS.default.rules),
    record: d.record,
    created_at: d.createdAt,
    created_by: d.createdBy,
    updated_at: d.updatedAt,
    updated_by: d.updatedBy,
  };
}

/** Dotted paths where two records differ (arrays compared whole). */
export function changedFields(before: unknown, after: unknown, at = ''): string[] {
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(before) && isObj(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => changedFields(before[k], after[k], at ? `${at}.${k}` : k));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [at || '(record)'];
}

export function changeView(c: DealChange): DealChangeView {
  return {
    id: c.id,
    action: c.action,
    source: c.source,
    actor: c.actor,
    at: c.at,
    before: c.before,
    after: c.after,
    changed: c.before ? changedFields(c.before, c.after) : [],
  };
}

export function registerDealConsoleRoutes(app: FastifyInstance, deps: DealRouteDeps): void {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const repo = () => app.deals;

  const storeOf = (request: FastifyRequest): Store => {
    const { storeId } = parseOr400(storeParams, request.params);
    const store = deps.stores.find((s) => s.storeId === storeId);
    if (!store) throw new ApiError(404, 'Store not found.', { errorCode: 'store_not_found' });
    return store;
  };
  const actorOf = (request: FastifyRequest): DealActor => {
    const staff = staffOf(request);
    return { type: 'staff', id: staff.id, name: staff.name || staff.email };
  };
  const dealOf = async (request: FastifyRequest) => {
    const { storeId, dealId } = parseOr400(dealParams, request.params);
    const deal = await repo().get(storeId, dealId);
    if (!deal) throw new ApiError(404, 'No such deal in this store.', { errorCode: 'deal_not_found' });
    return deal;
  };

  app.get(`${PREFIX}/deals`, perm('deals:read'), async (request) => {
    const store = storeOf(request);
    const q = parseOr400(dealListQuery, request.query);
    const deals = await repo().list(store.storeId, { status: q.status });
    return ok({ items: deals.filter((d) => !q.kind || d.kind === q.kind).map(dealView) } satisfies DealList);
  });

  // Fixed paths before /deals/:dealId (find-my-way prefers static segments anyway).
  app.get(`${PREFIX}/deals/calendar`, perm('deals:read'), async (request) => {
    const store = storeOf(request);
    const q = parseOr400(dealCalendarQuery, request.query);
    const deals = await repo().list(store.storeId, q.status ? { status: q.status } : {});
    return ok(dealCalendar(deals, q.from, q.to, storeTimeZone(store)));
  });

  app.get(`${PREFIX}/deals/report`, perm('reports:read'), async (request) => {
    const store = storeOf(request);
    const q = parseOr400(dealReportQuery, request.query);
    return ok(await dealReport(db, store.storeId, q.from, q.to, storeTimeZone(store)));
  });

  app.get(`${PREFIX}/deals/report.csv`, perm('reports:read'), async (request, reply) => {
    const store = storeOf(request);
    const q = parseOr400(dealReportQuery, request.query);
    const csv = dealReportCsv(await dealReport(db, store.storeId, q.from, q.to, storeTimeZone(store)));
    return reply
      .header('cache-control', 'no-store, private')
      .header('content-disposition', `attachment; filename="${store.storeCode}-deals-${q.from}-${q.to}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(csv);
  });

  app.post(`${PREFIX}/deals/preview`, perm('deals:read'), async (request) => {
    const store = storeOf(request);
    const body = parseOr400(dealPreviewBody, request.body);
    const replaced = body.dealId === undefined ? undefined : await repo().get(store.storeId, body.dealId);
    if (body.dealId !== undefined && !replaced) throw new ApiError(404, 'No such deal in this store.', { errorCode: 'deal_not_found' });
    // The draft's id: the deal it replaces, else any id (a new deal's is made when it is saved).
    const draft: Deal = parseDealInput(body.record, { id: replaced?.code ?? (typeof body.record.id === 'string' ? undefined : 'draft'), status: 'active' });
    const others = (await repo().active(store.storeId)).filter((d) => d.id !== replaced?.id && d.code !== draft.id);
    return ok(await previewDeal(db, { store, draft, others, request: { cart: body.cart, licence: body.licence, sample: body.sample, at: body.at }, now: now() }));
  });

  app.post(`${PREFIX}/deals/check`, perm('deals:read'), async (request) => {
    const store = storeOf(request);
    const body = parseOr400(dealCheckBody, request.body);
    return ok(await checkCart(db, { store, deals: await repo().active(store.storeId), cart: body.cart, licence: body.licence, at: body.at ? new Date(body.at) : now() }));
  });

  app.get(`${PREFIX}/deals/:dealId`, perm('deals:read'), async (request) => ok(dealView(await dealOf(request))));

  app.post(`${PREFIX}/deals`, perm('deals:write'), async (request) => {
    const store = storeOf(request);
    const body = parseOr400(dealCreateBody, request.body);
    return ok(dealView(await repo().create(store.storeId, body.record, actorOf(request), { source: 'console' })));
  });

  app.put(`${PREFIX}/deals/:dealId`, perm('deals:write'), async (request) => {
    const { storeId, dealId } = parseOr400(dealParams, request.params);
    const body = parseOr400(dealUpdateBody, request.body);
    return ok(dealView(await repo().update(storeId, dealId, body.record, body.version, actorOf(request), { source: 'console' })));
  });

  for (const action of ['pause', 'resume', 'end'] as const)
    app.post(`${PREFIX}/deals/:dealId/${action}`, perm('deals:write'), async (request) => {
      const { storeId, dealId } = parseOr400(dealParams, request.params);
      const body = parseOr400(dealStatusBody, request.body ?? {});
      return ok(dealView(await repo().setStatus(storeId, dealId, action, body.version, actorOf(request), { source: 'console' })));
    });

  app.get(`${PREFIX}/deals/:dealId/history`, perm('deals:read'), async (request) => {
    const deal = await dealOf(request);
    const q = parseOr400(dealHistoryQuery, request.query);
    const items = await repo().history(deal.storeId, deal.id, { beforeId: q.before, limit: q.limit });
    return ok({ items: items.map(changeView) } satisfies DealHistory);
  });

  app.get(`${PREFIX}/orders/:orderId/deals-trace`, perm('orders:read'), async (request) => {
    const store = storeOf(request);
    const { orderId } = parseOr400(orderParams, request.params);
    return ok(await orderDealTrace(db, store, orderId));
  });
}
