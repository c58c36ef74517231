/**
 * The console's delivery paperwork routes (issue 29 "Paperwork"; contract:
 * packages/domain/src/console-api/delivery-records.ts), under /api/console/stores/:storeId/delivery-records:
 *
 *   GET    /trips                         trips:read       recent trips with their stops (a driver: its own)
 *   GET    /trips/:tripId/manifest        trips:read       the manifest / delivery inventory ledger (a driver: its own trip, else 404)
 *   GET    /trips/:tripId/manifest.csv    trips:read       the same as CSV
 *   GET    /end-of-day?date=              delivery:read    one record per delivery completed that store-local day
 *   GET    /end-of-day.csv?date=          delivery:read    the same as CSV
 *   GET    /orders/:orderId/receipt       delivery:read    the delivery request receipt
 *   GET    /export.csv?from=&to=          delivery:read    every delivery record of trips started in the range
 *   DELETE /trips/:tripId                 delivery:manage  refused inside the record-retention period (409 records_retained)
 *
 * Who reads: managers, owners and budtenders everything; a driver only its own trips' manifests.
 * Also starts the hourly purge of records past the retention period (./paperwork.ts; beside the
 * order sweeper rather than inside it: that one runs every 30 s and knows no stores' settings).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '@verdant/domain';
import {
  endOfDayQuery,
  recordsExportQuery,
  recordsOrderParams,
  recordsTripParams,
  type DeliveryReceipt,
  type EndOfDay,
  type RecordsTripItem,
  type TripManifest,
} from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { dbId } from '../http/ids.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';
import type { RoutePermission } from '../staff/permissions.ts';
import { deleteTrip, deliveryReceipt, endOfDay, endOfDayCsv, manifestCsv, purgeDeliveryRecords, recordsExportCsv, tripManifest } from './paperwork.ts';
import { tripRow } from './trips.ts';
import { every } from '../jobs/every.ts';

export interface PaperworkRouteDeps {
  db: Kysely<Database>;
  stores: readonly Store[];
  now?: () => Date;
  /** How often the retention purge runs (default hourly); 0 turns it off (tests purge by hand). */
  purgeIntervalMs?: number;
}

const PREFIX = '/api/console/stores/:storeId/delivery-records';
const perm = (permission: RoutePermission) => ({ config: { console: { permission } } });
const storeParams = z.object({ storeId: dbId() });

/** A file name of safe characters only (the header is never broken by a store code or ledger). */
const fileName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_');

function sendCsv(reply: FastifyReply, name: string, csv: string) {
  return reply
    .header('cache-control', 'no-store, private')
    .header('content-disposition', `attachment; filename="${fileName(name)}"`)
    .type('text/csv; charset=utf-8')
    .send(csv);
}

export function registerPaperworkRoutes(app: FastifyInstance, deps: PaperworkRouteDeps): void {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  const storeOf = (request: FastifyRequest): Store => {
    const { storeId } = parseOr400(storeParams, request.params);
    const store = deps.stores.find((s) => s.storeId === storeId);
    if (!store) throw new ApiError(404, 'Store not found.', { errorCode: 'store_not_found' });
    return store;
  };

  /** A driver (role) sees only the trips of the driver records linked to it; null: everyone's. */
  const ownDriverIds = async (request: FastifyRequest, storeId: number): Promise<number[] | null> => {
    const staff = staffOf(request);
    if (staff.role !== 'driver') return null;
    return (await db.selectFrom('drivers').select('id').where('store_id', '=', storeId).where('staff_id', '=', staff.id).execute()).map((d) => d.id);
  };

  const tripOf = async (request: FastifyRequest) => {
    const store = storeOf(request);
    const { tripId } = parseOr400(recordsTripParams, request.params);
    const trip = await tripRow(db, store.storeId, tripId);
    const own = await ownDriverIds(request, store.storeId);
    if (own && !own.includes(trip.driver_id)) throw new ApiError(404, 'No such trip in this store.', { errorCode: 'trip_not_found' });
    return { store, trip };
  };

  app.get(`${PREFIX}/trips`, perm('trips:read'), async (request) => {
    const store = storeOf(request);
    const own = await ownDriverIds(request, store.storeId);
    if (own && own.length === 0) return ok({ items: [] as RecordsTripItem[] });
    let query = db
      .selectFrom('trips')
      .innerJoin('drivers', 'drivers.id', 'trips.driver_id')
      .select(['trips.id', 'trips.ledger_number', 'trips.status', 'trips.started_at', 'trips.ended_at', 'drivers.name as driver_name'])
      .where('trips.store_id', '=', store.storeId);
    if (own) query = query.where('trips.driver_id', 'in', own);
    const trips = await query.orderBy('trips.id', 'desc').limit(50).execute();
    const stops = trips.length
      ? await db
          .selectFrom('trip_stops')
          .innerJoin('orders', 'orders.id', 'trip_stops.order_id')
          .select(['trip_stops.trip_id', 'trip_stops.order_id', 'orders.increment_id', 'trip_stops.outcome'])
          .where('trip_stops.trip_id', 'in', trips.map((t) => t.id))
          .orderBy('trip_stops.position')
          .execute()
      : [];
    const items: RecordsTripItem[] = trips.map((t) => ({
      ...t,
      stops: stops.filter((s) => s.trip_id === t.id).map((s) => ({ order_id: s.order_id, order_number: s.increment_id, outcome: s.outcome })),
    }));
    return ok({ items });
  });

  app.get(`${PREFIX}/trips/:tripId/manifest`, perm('trips:read'), async (request) => {
    const { store, trip } = await tripOf(request);
    return ok<TripManifest>(await tripManifest(db, store, trip, now()));
  });

  app.get(`${PREFIX}/trips/:tripId/manifest.csv`, perm('trips:read'), async (request, reply) => {
    const { store, trip } = await tripOf(request);
    return sendCsv(reply, `${store.storeCode}-manifest-${trip.ledger_number}.csv`, manifestCsv(await tripManifest(db, store, trip, now())));
  });

  app.get(`${PREFIX}/end-of-day`, perm('delivery:read'), async (request) => {
    const store = storeOf(request);
    const q = parseOr400(endOfDayQuery, request.query);
    return ok<EndOfDay>(await endOfDay(db, store, q.date));
  });

  app.get(`${PREFIX}/end-of-day.csv`, perm('delivery:read'), async (request, reply) => {
    const store = storeOf(request);
    const q = parseOr400(endOfDayQuery, request.query);
    return sendCsv(reply, `${store.storeCode}-deliveries-${q.date}.csv`, endOfDayCsv(await endOfDay(db, store, q.date)));
  });

  app.get(`${PREFIX}/orders/:orderId/receipt`, perm('delivery:read'), async (request, reply) => {
    const store = storeOf(request);
    const { orderId } = parseOr400(recordsOrderParams, request.params);
    // The customer's signature and address: never in a shared cache.
    reply.header('cache-control', 'no-store, private');
    return ok<DeliveryReceipt>(await deliveryReceipt(db, store, orderId));
  });

  app.get(`${PREFIX}/export.csv`, perm('delivery:read'), async (request, reply) => {
    const store = storeOf(request);
    const q = parseOr400(recordsExportQuery, request.query);
    return sendCsv(reply, `${store.storeCode}-delivery-records-${q.from}-${q.to}.csv`, await recordsExportCsv(db, store, q.from, q.to));
  });

  app.delete(`${PREFIX}/trips/:tripId`, perm('delivery:manage'), async (request) => {
    const store = storeOf(request);
    const { tripId } = parseOr400(recordsTripParams, request.params);
    await deleteTrip(db, store, tripId, now());
    return ok({ deleted: tripId });
  });

  // The retention purge, hourly on every node (deletes by id: two nodes at once remove a trip once).
  const interval = deps.purgeIntervalMs ?? 3_600_000;
  if (interval > 0) {
    every(
      app,
      interval,
      'delivery records purge',
      () => purgeDeliveryRecords(db, deps.stores, now()),
      (r) => {
        for (const [storeId, trips] of r.trips) app.log.info({ storeId, trips }, 'delivery records past retention purged');
      },
    );
  }
}
