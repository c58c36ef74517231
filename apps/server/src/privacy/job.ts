/**
 * The data-retention job (issue 31): on every node, every hour, each store's run of the day. The
 * first node to insert the store's `retention_runs` row for the UTC day (unique store × day) runs it;
 * the others skip that store until the next day. A run deletes the ID and medical card images past
 * the store's period (./images.ts; each image claimed by a conditional UPDATE, so even two runs at
 * once delete it once), reduces the orders past the store's sales-record period to their anonymous
 * totals (./sales-records.ts; claimed per batch the same way), and records when it started and
 * ended, what it deleted and purged, or why it failed. Both read the one setting `data-retention`.
 */
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { DataRetention } from '@verdant/domain';
import type { RetentionRun } from '@verdant/domain/console-api';
import { every } from '../jobs/every.ts';
import type { Db } from '../orders/lifecycle/store-facts.ts';
import { deleteDueImages } from './images.ts';
import { purgeSalesRecords } from './sales-records.ts';

export interface RetentionJobDeps {
  db: Db;
  dataDir: string;
  storeIds: readonly number[];
  settingsOf(storeId: number): Promise<DataRetention>;
  now(): Date;
  /** This node's name in the run log. */
  node: string;
}

export interface StoreRunResult {
  storeId: number;
  /** false: another run (this node's or another's) already claimed the store's day. */
  ran: boolean;
  id: number;
  medcard: number;
  /** Orders reduced to their anonymous totals by this run. */
  orders: number;
  error?: string;
}

export const NODE_NAME = `${hostname()}:${process.pid}`;

export async function runRetentionJob(deps: RetentionJobDeps): Promise<StoreRunResult[]> {
  const results: StoreRunResult[] = [];
  for (const storeId of deps.storeIds) {
    const started = deps.now();
    const claimed = await deps.db
      .insertInto('retention_runs')
      .values({ store_id: storeId, run_date: started.toISOString().slice(0, 10), node: deps.node, started_at: started.toISOString(), finished_at: null, status: 'running', error: null })
      .onConflict((oc) => oc.columns(['store_id', 'run_date']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!claimed) {
      results.push({ storeId, ran: false, id: 0, medcard: 0, orders: 0 });
      continue;
    }
    try {
      const settings = await deps.settingsOf(storeId);
      const deleted = await deleteDueImages(deps.db, deps.dataDir, storeId, settings, started);
      const orders = await purgeSalesRecords(deps.db, storeId, settings.salesRecordYears, started);
      await deps.db
        .updateTable('retention_runs')
        .set({ status: 'done', finished_at: deps.now().toISOString(), id_images_deleted: deleted.id, medcard_images_deleted: deleted.medcard, orders_purged: orders })
        .where('id', '=', claimed.id)
        .execute();
      results.push({ storeId, ran: true, ...deleted, orders });
    } catch (error) {
      const message = (error as Error).message?.slice(0, 500) ?? String(error);
      await deps.db.updateTable('retention_runs').set({ status: 'failed', finished_at: deps.now().toISOString(), error: message }).where('id', '=', claimed.id).execute();
      results.push({ storeId, ran: true, id: 0, medcard: 0, orders: 0, error: message });
    }
  }
  return results;
}

export async function retentionRuns(db: Db, storeId: number, limit: number): Promise<RetentionRun[]> {
  const rows = await db.selectFrom('retention_runs').selectAll().where('store_id', '=', storeId).orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    ...r,
    id_images_deleted: Number(r.id_images_deleted),
    medcard_images_deleted: Number(r.medcard_images_deleted),
    orders_purged: Number(r.orders_purged),
  }));
}

/** Every `intervalMs` (default hourly; 0: never, tests run it by hand); the day's claim makes it daily per store. */
export function startRetentionJob(app: FastifyInstance, deps: RetentionJobDeps & { intervalMs?: number }): void {
  const interval = deps.intervalMs ?? 3_600_000;
  if (interval <= 0) return;
  every(
    app,
    interval,
    'data retention job',
    () => runRetentionJob(deps),
    (results) => {
      for (const r of results) {
        if (r.error) app.log.warn({ storeId: r.storeId, error: r.error }, 'data retention run failed');
        else if (r.id || r.medcard || r.orders)
          app.log.info({ storeId: r.storeId, idImages: r.id, medcardImages: r.medcard, ordersPurged: r.orders }, 'data past its retention period removed');
      }
    },
  );
}
