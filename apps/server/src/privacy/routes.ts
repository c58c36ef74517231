/**
 * Data retention and the document view log in the console (issue 31), under
 * /api/console/stores/:storeId (the staff guard checked session, CSRF, store and permission):
 *   GET /customers/:customerId/document-views  customers:verify  who opened the customer's ID and card images
 *   GET /data-retention/runs                   settings:write    the retention job's last runs
 * and the hourly retention job (./job.ts). The image route that writes the view log is the
 * console's file route (orders/console-routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { documentViewsQuery, retentionRunsQuery, type DocumentView, type RetentionRun } from '@verdant/domain/console-api';
import { accountsOf } from '../auth/context.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { dbId } from '../http/ids.ts';
import { parseOr400 } from '../http/parse.ts';
import type { Db } from '../orders/lifecycle/store-facts.ts';
import { NODE_NAME, retentionRuns, startRetentionJob } from './job.ts';
import { DATA_RETENTION_SECTION } from './section.ts';
import { documentViews } from './views.ts';

const PREFIX = '/api/console/stores/:storeId';
const id = dbId();

export interface PrivacyRouteDeps {
  db: Db;
  storeIds: readonly number[];
  now?: () => Date;
  /** The retention job's interval (default hourly; 0: never, tests run it by hand). */
  jobIntervalMs?: number;
}

export function registerPrivacyRoutes(app: FastifyInstance, deps: PrivacyRouteDeps): void {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  app.get(`${PREFIX}/customers/:customerId/document-views`, { config: { console: { permission: 'customers:verify' } } }, async (request, reply) => {
    const { storeId, customerId } = parseOr400(z.object({ storeId: id, customerId: id }), request.params);
    const q = parseOr400(documentViewsQuery, request.query);
    const customer = await db.selectFrom('customers').select('id').where('id', '=', customerId).where('store_id', '=', storeId).executeTakeFirst();
    if (!customer) throw new ApiError(404, 'Customer not found.', { errorCode: 'customer_not_found' });
    reply.header('cache-control', 'no-store, private');
    return ok<DocumentView[]>(await documentViews(db, storeId, customerId, q.limit));
  });

  app.get(`${PREFIX}/data-retention/runs`, { config: { console: { permission: 'settings:write' } } }, async (request) => {
    const { storeId } = parseOr400(z.object({ storeId: id }), request.params);
    const q = parseOr400(retentionRunsQuery, request.query);
    return ok<RetentionRun[]>(await retentionRuns(db, storeId, q.limit));
  });

  startRetentionJob(app, {
    db,
    get dataDir() {
      return accountsOf(app).dataDir;
    },
    storeIds: deps.storeIds,
    settingsOf: async (storeId) => (await app.storeSettings.get(storeId, DATA_RETENTION_SECTION)).value,
    now,
    node: NODE_NAME,
    intervalMs: deps.jobIntervalMs,
  });
}
