/**
 * The console's order routes (contract in the issue-12 brief), under
 * /api/console/stores/:storeId — the staff guard (../staff/guard.ts) has already checked the
 * session, the CSRF header, that the member may touch :storeId and the declared permission:
 *   GET  /orders                              orders:read   queue (filters, search, cursor, counts)
 *   GET  /orders/:orderId                     orders:read   detail
 *   POST /orders/:orderId/transitions         orders:write  a lifecycle move
 *   POST /orders/:orderId/opened              orders:read   staff opened the order (its "New" ends)
 *   POST /customers/:customerId/verification  customers:verify
 *   GET  /customers/:customerId/uploads/:uploadId  customers:verify  the file, never cached; ?order= the
 *        order it is opened from. Every answer with the file writes the document view log first
 *        (issue 31, ../privacy/views.ts); an image deleted under the store's data retention is 410.
 *   GET  /reports/daily(.csv)                 reports:read
 *   GET|PUT /settings/orders                  orders:read | settings:write
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { readyByPlan } from '@verdant/domain';
import {
  orderListQuery,
  orderSettingsBody,
  reportQuery,
  transitionBody,
  verificationBody,
  type DailyReport,
  type OrderDetail,
  type OrderList,
  type OrderSettings,
} from '@verdant/domain/console-api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { dbId } from '../http/ids.ts';
import { accountsOf } from '../auth/context.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';
import { orderDetail, detailOf } from './console/detail.ts';
import { HOURS } from '../hours/section.ts';
import { listOrders } from './console/list.ts';
import { markOpened } from './console/opened.ts';
import { saveOrderSettings } from './lifecycle/settings.ts';
import { orderSettings, storeFacts, type Db, type StoreFacts } from './lifecycle/store-facts.ts';
import { applyTransition, type OrderActor } from './lifecycle/transitions.ts';
import { reviewDocument } from './lifecycle/verification.ts';
import { dailyDealColumns, dailyReport, dailyReportCsv, dailyTaxLineColumns } from './report.ts';
import { taxLinesReport } from '../tax/order-lines.ts';
import { deleteImagesNotKept } from '../privacy/images.ts';
import { DATA_RETENTION_SECTION } from '../privacy/section.ts';
import { recordDocumentView } from '../privacy/views.ts';

export interface ConsoleOrderDeps {
  db: Db;
  now: () => Date;
}

const PREFIX = '/api/console/stores/:storeId';
const id = dbId();
const storeParams = z.object({ storeId: id });
const uploadQuery = z.object({ order: id.optional() }).strict();

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
  async function withPlan(detail: Omit<OrderDetail, 'ready_by_plan'>, store: StoreFacts, at: Date): Promise<OrderDetail> {
    if (detail.status !== 'submitted') return { ...detail, ready_by_plan: null };
    return { ...detail, ready_by_plan: readyByPlan(await hoursOf(store.id), detail.order_type, store.timezone, at, detail.slot_start) };
  }

  app.get(`${PREFIX}/orders`, perm('orders:read'), async (request) => {
    const store = await storeOf(request);
    const query = parseOr400(orderListQuery, request.query);
    return ok<OrderList>(await listOrders(db, store, query));
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
    const at = now();
    const result = await reviewDocument(db, { storeId: store.id, customerId, ...body, actor: actorOf(request), now: at });
    if (result.orderIds.length) app.outbox.kick();
    // Issue 31: a store that keeps no image of this kind (Oregon) deletes it now the decision is recorded.
    const retention = (await app.storeSettings.get(store.id, DATA_RETENTION_SECTION)).value;
    await deleteImagesNotKept(db, accountsOf(app).dataDir, { storeId: store.id, customerId, document: body.document, settings: retention, now: at });
    return ok(result);
  });

  app.get(`${PREFIX}/customers/:customerId/uploads/:uploadId`, perm('customers:verify'), async (request, reply) => {
    const store = await storeOf(request);
    const { customerId, uploadId } = parseOr400(z.object({ customerId: id, uploadId: id }), request.params);
    const { order: orderId } = parseOr400(uploadQuery, request.query);
    const upload = await db
      .selectFrom('uploads')
      .select(['stored_path', 'mime', 'size_bytes', 'kind', 'purged_at'])
      .where('id', '=', uploadId)
      .where('customer_id', '=', customerId)
      .where('store_id', '=', store.id)
      .executeTakeFirst();
    if (!upload) throw new ApiError(404, 'File not found.', { errorCode: 'upload_not_found' });
    if (upload.purged_at || !upload.stored_path)
      throw new ApiError(410, 'The image was deleted after the check (the store’s data retention).', { errorCode: 'upload_deleted' });
    if (orderId != null) {
      const order = await db.selectFrom('orders').select('id').where('id', '=', orderId).where('store_id', '=', store.id).where('customer_id', '=', customerId).executeTakeFirst();
      if (!order) throw new ApiError(404, 'No such order of this customer.', { errorCode: 'order_not_found' });
    }
    const file = path.join(accountsOf(app).dataDir, upload.stored_path);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw new ApiError(404, 'File not found.', { errorCode: 'upload_not_found' });
    // Issue 31: the view is on record before a byte of the image leaves.
    const staff = staffOf(request);
    await recordDocumentView(db, { storeId: store.id, customerId, uploadId, document: upload.kind, orderId: orderId ?? null, staff: { id: staff.id, name: staff.name, role: staff.role }, at: now() });
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
    // And each deal's part of the discounts (issue 28).
    const deals = (await dailyDealColumns(db, store, q.from, q.to)).map(({ cents_by_day: _byDay, ...d }) => d);
    return ok({ rows: await dailyReport(db, store, q.from, q.to), tax_lines: await taxLinesReport(db, store, q.from, q.to), deals } satisfies DailyReport);
  });

  app.get(`${PREFIX}/reports/daily.csv`, perm('reports:read'), async (request, reply) => {
    const store = await storeOf(request);
    const q = parseOr400(reportQuery, request.query);
    const csv = dailyReportCsv(
      await dailyReport(db, store, q.from, q.to),
      await dailyTaxLineColumns(db, store, q.from, q.to),
      await dailyDealColumns(db, store, q.from, q.to),
    );
    return reply
      .header('cache-control', 'no-store, private')
      .header('content-disposition', `attachment; filename="${store.code}-daily-${q.from}-${q.to}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(csv);
  });

  app.get(`${PREFIX}/settings/orders`, perm('orders:read'), async (request) => {
    const store = await storeOf(request);
    return ok<OrderSettings>(await orderSettings(db, store.id));
  });

  app.put(`${PREFIX}/settings/orders`, perm('settings:write'), async (request) => {
    const store = await storeOf(request);
    const body = parseOr400(orderSettingsBody, request.body);
    return ok<OrderSettings>(await saveOrderSettings(db, store.id, body, now()));
  });
}
