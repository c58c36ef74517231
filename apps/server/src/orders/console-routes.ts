/**
 * The console's order routes (contract in the issue-12 brief), under
 * /api/console/stores/:storeId — the staff guard (../staff/guard.ts) has already checked the
 * session, the CSRF header, that the member may touch :storeId and the declared permission:
 *   GET  /orders                              orders:read   queue (filters, search, cursor, counts)
 *   GET  /orders/:orderId                     orders:read   detail
 *   POST /orders/:orderId/transitions         orders:write  a lifecycle move
 *   POST /orders/:orderId/opened              orders:read   staff opened the order (its "New" ends)
 *   POST /customers/:customerId/verification  customers:verify
 *   GET  /customers/:customerId/uploads/:uploadId  customers:verify  the file, never cached
 *   GET  /reports/daily(.csv)                 reports:read
 *   GET|PUT /settings/orders                  orders:read | settings:write
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { CANCEL_REASONS, ORDER_ACTIONS, ORDER_STATUSES, readyByPlan, type ReadyByPlan } from '@verdant/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { dbId } from '../http/ids.ts';
import { accountsOf } from '../auth/context.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { dateSchema } from '../http/dates.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';
import { orderDetail, detailOf, type OrderDetail } from './console/detail.ts';
import { HOURS } from '../hours/section.ts';
import { listOrders } from './console/list.ts';
import { markOpened } from './console/opened.ts';
import { saveOrderSettings, settingsSchema } from './lifecycle/settings.ts';
import { orderSettings, storeFacts, type Db, type StoreFacts } from './lifecycle/store-facts.ts';
import { applyTransition, type OrderActor } from './lifecycle/transitions.ts';
import { reviewDocument } from './lifecycle/verification.ts';
import { dailyReport, dailyReportCsv, dailyTaxLineColumns, MAX_REPORT_DAYS } from './report.ts';
import { taxLinesReport } from '../tax/order-lines.ts';

export interface ConsoleOrderDeps {
  db: Db;
  now: () => Date;
}

const PREFIX = '/api/console/stores/:storeId';
const id = dbId();
/** YYYY-MM-DD within 2000–2099 (../http/dates.ts): a far date is a 400, not a 500 in the day arithmetic. */
const date = dateSchema;
const storeParams = z.object({ storeId: id });

const listQuery = z.object({
  status: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(',').filter(Boolean) : undefined))
    .pipe(z.array(z.enum(ORDER_STATUSES)).optional()),
  type: z.enum(['pickup', 'delivery']).optional(),
  from: date.optional(),
  to: date.optional(),
  q: z.string().trim().max(100).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  sort: z.enum(['newest', 'slot']).optional(),
});

const transitionBody = z.object({
  action: z.enum(ORDER_ACTIONS),
  readyBy: z.string().max(40).optional().nullable(),
  reason: z.enum(CANCEL_REASONS).optional().nullable(),
  message: z.string().max(500).optional().nullable(),
  idChecked: z.boolean().optional(),
  medcardChecked: z.boolean().optional(),
  /** "Store closed — confirm anyway" (issue 26): a ready-by outside the store's hours is refused without it. */
  confirmClosed: z.boolean().optional(),
});

const verificationBody = z.object({
  document: z.enum(['id', 'medcard']),
  decision: z.enum(['verified', 'rejected']),
  reason: z.string().max(500).optional().nullable(),
  medcardExpiry: date.optional().nullable(),
  medcardNumber: z.string().trim().min(2).max(64).optional().nullable(),
});

const reportQuery = z
  .object({ from: date, to: date })
  .refine((q) => q.from <= q.to, 'from must not be after to.')
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < MAX_REPORT_DAYS, `At most ${MAX_REPORT_DAYS} days per report.`);

const perm = (permission: 'orders:read' | 'orders:write' | 'customers:verify' | 'reports:read' | 'settings:write') => ({
  config: { console: { permission } },
});

function actorOf(request: FastifyRequest): OrderActor {
  const staff = staffOf(request);
  return { type: 'staff', id: staff.id, name: staff.name };
}

export function registerConsoleOrderRoutes(app: FastifyInstance, deps: ConsoleOrderDeps): void {
  const { db, now } = deps;

  async function storeOf(request: FastifyRequest): Promise<StoreFacts> {
    const { storeId } = parseOr400(storeParams, request.params);
    const store = await storeFacts(db, storeId);
    if (!store) throw new ApiError(404, 'Store not found.', { errorCode: 'store_not_found' });
    return store;
  }

  /** After a committed change: wake the outbox consumers, and tell the catalogue of stock that came back. */
  function afterCommit(request: FastifyRequest, storeId: number, restocked: number[]): void {
    app.outbox.kick();
    if (restocked.length) {
      app.catalog
        .catalogChanged(storeId, restocked, { stockOnly: true })
        .catch((err) => request.log.warn({ err }, 'catalogue update after release failed'));
    }
  }

  const hoursOf = async (storeId: number) => (await app.storeSettings.get(storeId, HOURS)).value;

  /** The detail with what the confirm form offers (issue 26): the slot's start or the next open time, and the hours. */
  async function withPlan<T extends OrderDetail>(detail: T, store: StoreFacts, at: Date): Promise<T & { ready_by_plan: ReadyByPlan | null }> {
    if (detail.status !== 'submitted') return { ...detail, ready_by_plan: null };
    return { ...detail, ready_by_plan: readyByPlan(await hoursOf(store.id), detail.order_type, store.timezone, at, detail.slot_start) };
  }

  app.get(`${PREFIX}/orders`, perm('orders:read'), async (request) => {
    const store = await storeOf(request);
    const query = parseOr400(listQuery, request.query);
    return ok(await listOrders(db, store, query));
  });

  app.get(`${PREFIX}/orders/:orderId`, perm('orders:read'), async (request) => {
    const store = await storeOf(request);
    const { orderId } = parseOr400(z.object({ orderId: id }), request.params);
    const at = now();
    return ok(await withPlan(await orderDetail(db, store, orderId, at), store, at));
  });

  app.post(`${PREFIX}/orders/:orderId/transitions`, perm('orders:write'), async (request) => {
    const store = await storeOf(request);
    const { orderId } = parseOr400(z.object({ orderId: id }), request.params);
    const body = parseOr400(transitionBody, request.body);
    const at = now();
    const moved = await applyTransition(db, {
      storeId: store.id,
      orderId,
      action: body.action,
      input: body,
      actor: actorOf(request),
      now: at,
      hours: body.action === 'confirm' ? await hoursOf(store.id) : null,
      confirmClosed: body.confirmClosed === true,
    });
    afterCommit(request, store.id, moved.restocked);
    return ok(await withPlan(await detailOf(db, store, moved.order, at), store, at));
  });

  // Issue 26: the console's order page says it was opened; the first opening ends the order's "New" everywhere.
  app.post(`${PREFIX}/orders/:orderId/opened`, perm('orders:read'), async (request) => {
    const store = await storeOf(request);
    const { orderId } = parseOr400(z.object({ orderId: id }), request.params);
    const result = await markOpened(db, store, orderId, staffOf(request).id, now());
    if (result.first) app.outbox.kick();
    return ok(result);
  });

  app.post(`${PREFIX}/customers/:customerId/verification`, perm('customers:verify'), async (request) => {
    const store = await storeOf(request);
    const { customerId } = parseOr400(z.object({ customerId: id }), request.params);
    const body = parseOr400(verificationBody, request.body);
    const result = await reviewDocument(db, { storeId: store.id, customerId, ...body, actor: actorOf(request), now: now() });
    if (result.orderIds.length) app.outbox.kick();
    return ok(result);
  });

  app.get(`${PREFIX}/customers/:customerId/uploads/:uploadId`, perm('customers:verify'), async (request, reply) => {
    const store = await storeOf(request);
    const { customerId, uploadId } = parseOr400(z.object({ customerId: id, uploadId: id }), request.params);
    const upload = await db
      .selectFrom('uploads')
      .select(['stored_path', 'mime', 'size_bytes'])
      .where('id', '=', uploadId)
      .where('customer_id', '=', customerId)
      .where('store_id', '=', store.id)
      .executeTakeFirst();
    if (!upload) throw new ApiError(404, 'File not found.', { errorCode: 'upload_not_found' });
    const file = path.join(accountsOf(app).dataDir, upload.stored_path);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw new ApiError(404, 'File not found.', { errorCode: 'upload_not_found' });
    // A customer's ID: never in a shared or browser cache, never sniffed into something else.
    return reply
      .header('cache-control', 'no-store, private')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .type(upload.mime)
      .header('content-length', info.size)
      .send(createReadStream(file));
  });

  app.get(`${PREFIX}/reports/daily`, perm('reports:read'), async (request) => {
    const store = await storeOf(request);
    const q = parseOr400(reportQuery, request.query);
    // Per named tax line over the range as well (issue 14, ../tax/order-lines.ts).
    return ok({ rows: await dailyReport(db, store, q.from, q.to), tax_lines: await taxLinesReport(db, store, q.from, q.to) });
  });

  app.get(`${PREFIX}/reports/daily.csv`, perm('reports:read'), async (request, reply) => {
    const store = await storeOf(request);
    const q = parseOr400(reportQuery, request.query);
    const csv = dailyReportCsv(await dailyReport(db, store, q.from, q.to), await dailyTaxLineColumns(db, store, q.from, q.to));
    return reply
      .header('cache-control', 'no-store, private')
      .header('content-disposition', `attachment; filename="${store.code}-daily-${q.from}-${q.to}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(csv);
  });

  app.get(`${PREFIX}/settings/orders`, perm('orders:read'), async (request) => {
    const store = await storeOf(request);
    return ok(await orderSettings(db, store.id));
  });

  app.put(`${PREFIX}/settings/orders`, perm('settings:write'), async (request) => {
    const store = await storeOf(request);
    const body = parseOr400(settingsSchema, request.body);
    return ok(await saveOrderSettings(db, store.id, body, now()));
  });
}
