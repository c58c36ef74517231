/**
 * The store-wide export (issue 31 "the store owns its data and can leave"):
 *   GET /api/console/stores/:storeId/export.zip      store:export (owners only)
 *   GET /api/console/stores/:storeId/export/format   store:export  every file and column (the console shows it)
 * One zip of customers, consents, orders, order lines, the menu and deals, each as CSV and JSON, and
 * a manifest; formats in docs/operators/export.md. Streamed as it is read (./archive.ts), never
 * cached. Only the store in the path: the guard checked it against the member's stores, and every
 * query of ./files.ts is by that store id.
 */
import type { FastifyInstance } from 'fastify';
import type { StoreExportFormat } from '@verdant/domain/console-api';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { dbId } from '../http/ids.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';
import { STORE_EXPORT_FORMAT, exportFilename, storeExportStream } from './archive.ts';
import { EXPORT_FILES } from './files.ts';

export interface StoreExportRouteDeps {
  db: Kysely<Database>;
  now?: () => Date;
}

const FORMAT: StoreExportFormat = {
  format: STORE_EXPORT_FORMAT,
  files: EXPORT_FILES.map((f) => ({ name: f.name, about: f.about, columns: f.columns.map((c) => ({ name: c.name, meaning: c.meaning, csv_only: c.csvOnly === true })) })),
};

export function registerStoreExportRoutes(app: FastifyInstance, deps: StoreExportRouteDeps): void {
  const now = deps.now ?? (() => new Date());
  app.get('/api/console/stores/:storeId/export/format', { config: { console: { permission: 'store:export' } } }, async () => ok(FORMAT));
  app.get('/api/console/stores/:storeId/export.zip', { config: { console: { permission: 'store:export' } } }, async (request, reply) => {
    const { storeId } = parseOr400(z.object({ storeId: dbId() }), request.params);
    const store = await deps.db.selectFrom('stores').select(['id', 'code', 'name']).where('id', '=', storeId).executeTakeFirst();
    if (!store) throw new ApiError(404, 'No such store.', { errorCode: 'store_not_found' });
    const at = now();
    const member = staffOf(request);
    request.log.info({ storeId, staffId: member.id }, 'store data export started');
    const stream = storeExportStream({ db: deps.db, store, now: at }, (err) => request.log.error({ err, storeId }, 'store data export failed'));
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${exportFilename(store.code, at)}"`)
      .header('cache-control', 'no-store, private')
      .send(stream);
  });
}
