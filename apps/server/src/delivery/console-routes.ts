/**
 * The console's delivery routes (issue 29 "Drivers, vehicles, trips"; contract:
 * packages/domain/src/console-api/delivery.ts), under /api/console/stores/:storeId/delivery:
 *
 *   GET    /drivers                     delivery:read     the store's drivers
 *   POST   /drivers                     delivery:manage   add one
 *   PATCH  /drivers/:driverId           delivery:manage   change fields (active: false retires one)
 *   DELETE /drivers/:driverId           delivery:manage   only one never on a trip
 *   GET/POST /vehicles, PATCH/DELETE /vehicles/:vehicleId   the same for vehicles
 *   GET    /ready                       delivery:read     confirmed delivery orders on no open trip, by zone and slot
 *   GET    /trips?status=               trips:read        trips, newest first (a driver: its own)
 *   GET    /trips/:tripId               trips:read        one trip with stops, load, limits (a driver: its own, else 404)
 *   POST   /trips                       delivery:manage   create (driver + vehicle + orders)
 *   POST   /trips/:tripId/stops         delivery:manage   add an order (409 order_on_trip)
 *   DELETE /trips/:tripId/stops/:orderId delivery:manage  take one off
 *   PUT    /trips/:tripId/stops         delivery:manage   the new stop order
 *   GET    /trips/:tripId/suggested-order delivery:read   nearest the store first
 *   POST   /trips/:tripId/start         delivery:manage   400 trip_over_limit naming the limit and by how much
 *
 * The staff guard (staff/guard.ts) checks the session, CSRF, the store and the role first.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store } from '@verdant/domain';
import {
  driverCreateBody,
  driverParams,
  driverUpdateBody,
  tripAddStopBody,
  tripCreateBody,
  tripListQuery,
  tripParams,
  tripReorderBody,
  tripStopParams,
  vehicleCreateBody,
  vehicleParams,
  vehicleUpdateBody,
  type DriverView,
  type TripView,
  type VehicleView,
} from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, Row } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { dbId } from '../http/ids.ts';
import { parseOr400 } from '../http/parse.ts';
import { isUniqueViolation } from '../orders/idempotency.ts';
import { staffOf, type StaffContext } from '../staff/guard.ts';
import type { RoutePermission } from '../staff/permissions.ts';
import { afterStopRecorded } from './after-stop.ts';
import { addStop, createTrip, readyOrders, removeStop, reorderStops, startTrip, suggestedOrder, tripRow, tripView } from './trips.ts';

export interface DeliveryRouteDeps {
  db: Kysely<Database>;
  stores: readonly Store[];
  now?: () => Date;
}

const PREFIX = '/api/console/stores/:storeId/delivery';
const perm = (permission: RoutePermission) => ({ config: { console: { permission } } });
const storeParams = z.object({ storeId: dbId() });

export const DELIVERY_MESSAGES = {
  storeNotFound: 'Store not found.',
  driverNotFound: 'No such driver in this store.',
  vehicleNotFound: 'No such vehicle in this store.',
  employeeTaken: (n: string) => `Another driver of this store has employee number ${n}.`,
  plateTaken: (p: string) => `Another vehicle of this store has the plate ${p}.`,
  staffNotDriver: 'The staff member to link must have the driver role and this store.',
  staffLinked: 'That staff member is already linked to another driver of this store.',
  driverUsed: 'This driver is on trips and stays on their records: set active to false instead.',
  vehicleUsed: 'This vehicle is on trips and stays on their records: set active to false instead.',
  nothingToChange: 'Send at least one field to change.',
} as const;

const driverView = (d: Row<'drivers'>): DriverView => ({
  id: d.id,
  name: d.name,
  employee_number: d.employee_number,
  licence_number: d.licence_number,
  staff_id: d.staff_id,
  active: d.active === 1,
  created_at: d.created_at,
  updated_at: d.updated_at,
});
const vehicleView = (v: Row<'vehicles'>): VehicleView => ({
  id: v.id,
  make: v.make,
  model: v.model,
  plate: v.plate,
  active: v.active === 1,
  created_at: v.created_at,
  updated_at: v.updated_at,
});

export function registerDeliveryConsoleRoutes(app: FastifyInstance, deps: DeliveryRouteDeps): void {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  const storeOf = (request: FastifyRequest): Store => {
    const { storeId } = parseOr400(storeParams, request.params);
    const store = deps.stores.find((s) => s.storeId === storeId);
    if (!store) throw new ApiError(404, DELIVERY_MESSAGES.storeNotFound, { errorCode: 'store_not_found' });
    return store;
  };
  const nameOf = (s: StaffContext) => s.name || s.email;

  /** A driver (role) sees only the trips of the driver records linked to it. */
  const ownDriverIds = async (staff: StaffContext, storeId: number): Promise<number[] | null> => {
    if (staff.role !== 'driver') return null;
    return (await db.selectFrom('drivers').select('id').where('store_id', '=', storeId).where('staff_id', '=', staff.id).execute()).map((d) => d.id);
  };

  const checkStaffLink = async (storeId: number, staffId: number | null | undefined, driverId: number | null) => {
    if (staffId == null) return;
    const member = await db
      .selectFrom('staff')
      .innerJoin('staff_stores', 'staff_stores.staff_id', 'staff.id')
      .select('staff.id')
      .where('staff.id', '=', staffId)
      .where('staff.role', '=', 'driver')
      .where('staff_stores.store_id', '=', storeId)
      .executeTakeFirst();
    if (!member) throw new ApiError(400, DELIVERY_MESSAGES.staffNotDriver, { errorCode: 'staff_not_driver' });
    const other = await db.selectFrom('drivers').select('id').where('store_id', '=', storeId).where('staff_id', '=', staffId).executeTakeFirst();
    if (other && other.id !== driverId) throw new ApiError(409, DELIVERY_MESSAGES.staffLinked, { errorCode: 'staff_linked' });
  };

  // --- Drivers ---------------------------------------------------------------------------------
  app.get(`${PREFIX}/drivers`, perm('delivery:read'), async (request) => {
    const store = storeOf(request);
    const rows = await db.selectFrom('drivers').selectAll().where('store_id', '=', store.storeId).orderBy('active', 'desc').orderBy('name').execute();
    return ok({ items: rows.map(driverView) });
  });

  app.post(`${PREFIX}/drivers`, perm('delivery:manage'), async (request) => {
    const store = storeOf(request);
    const body = parseOr400(driverCreateBody, request.body);
    await checkStaffLink(store.storeId, body.staff_id, null);
    const iso = now().toISOString();
    try {
      const row = await db
        .insertInto('drivers')
        .values({
          store_id: store.storeId,
          name: body.name,
          employee_number: body.employee_number,
          licence_number: body.licence_number,
          staff_id: body.staff_id ?? null,
          active: body.active === false ? 0 : 1,
          created_at: iso,
          updated_at: iso,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return ok(driverView(row));
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(409, DELIVERY_MESSAGES.employeeTaken(body.employee_number), { errorCode: 'employee_number_taken' });
      throw error;
    }
  });

  const driverOf = async (request: FastifyRequest) => {
    const { storeId, driverId } = parseOr400(driverParams, request.params);
    const row = await db.selectFrom('drivers').selectAll().where('id', '=', driverId).where('store_id', '=', storeId).executeTakeFirst();
    if (!row) throw new ApiError(404, DELIVERY_MESSAGES.driverNotFound, { errorCode: 'driver_not_found' });
    return row;
  };

  app.patch(`${PREFIX}/drivers/:driverId`, perm('delivery:manage'), async (request) => {
    const driver = await driverOf(request);
    const body = parseOr400(driverUpdateBody, request.body);
    if (Object.keys(body).length === 0) throw new ApiError(400, DELIVERY_MESSAGES.nothingToChange, { errorCode: 'nothing_to_change' });
    await checkStaffLink(driver.store_id, body.staff_id, driver.id);
    const { active, ...rest } = body;
    try {
      const row = await db
        .updateTable('drivers')
        .set({ ...rest, ...(active !== undefined ? { active: active ? 1 : 0 } : {}), updated_at: now().toISOString() })
        .where('id', '=', driver.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return ok(driverView(row));
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(409, DELIVERY_MESSAGES.employeeTaken(body.employee_number ?? ''), { errorCode: 'employee_number_taken' });
      throw error;
    }
  });

  app.delete(`${PREFIX}/drivers/:driverId`, perm('delivery:manage'), async (request) => {
    const driver = await driverOf(request);
    const used = await db.selectFrom('trips').select('id').where('driver_id', '=', driver.id).executeTakeFirst();
    if (used) throw new ApiError(409, DELIVERY_MESSAGES.driverUsed, { errorCode: 'driver_on_trips' });
    await db.deleteFrom('drivers').where('id', '=', driver.id).execute();
    return ok({ deleted: driver.id });
  });

  // --- Vehicles --------------------------------------------------------------------------------
  app.get(`${PREFIX}/vehicles`, perm('delivery:read'), async (request) => {
    const store = storeOf(request);
    const rows = await db.selectFrom('vehicles').selectAll().where('store_id', '=', store.storeId).orderBy('active', 'desc').orderBy('plate').execute();
    return ok({ items: rows.map(vehicleView) });
  });

  app.post(`${PREFIX}/vehicles`, perm('delivery:manage'), async (request) => {
    const store = storeOf(request);
    const body = parseOr400(vehicleCreateBody, request.body);
    const iso = now().toISOString();
    try {
      const row = await db
        .insertInto('vehicles')
        .values({ store_id: store.storeId, make: body.make, model: body.model, plate: body.plate, active: body.active === false ? 0 : 1, created_at: iso, updated_at: iso })
        .returningAll()
        .executeTakeFirstOrThrow();
      return ok(vehicleView(row));
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(409, DELIVERY_MESSAGES.plateTaken(body.plate), { errorCode: 'plate_taken' });
      throw error;
    }
  });

  const vehicleOf = async (request: FastifyRequest) => {
    const { storeId, vehicleId } = parseOr400(vehicleParams, request.params);
    const row = await db.selectFrom('vehicles').selectAll().where('id', '=', vehicleId).where('store_id', '=', storeId).executeTakeFirst();
    if (!row) throw new ApiError(404, DELIVERY_MESSAGES.vehicleNotFound, { errorCode: 'vehicle_not_found' });
    return row;
  };

  app.patch(`${PREFIX}/vehicles/:vehicleId`, perm('delivery:manage'), async (request) => {
    const vehicle = await vehicleOf(request);
    const body = parseOr400(vehicleUpdateBody, request.body);
    if (Object.keys(body).length === 0) throw new ApiError(400, DELIVERY_MESSAGES.nothingToChange, { errorCode: 'nothing_to_change' });
    const { active, ...rest } = body;
    try {
      const row = await db
        .updateTable('vehicles')
        .set({ ...rest, ...(active !== undefined ? { active: active ? 1 : 0 } : {}), updated_at: now().toISOString() })
        .where('id', '=', vehicle.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return ok(vehicleView(row));
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(409, DELIVERY_MESSAGES.plateTaken(body.plate ?? ''), { errorCode: 'plate_taken' });
      throw error;
    }
  });

  app.delete(`${PREFIX}/vehicles/:vehicleId`, perm('delivery:manage'), async (request) => {
    const vehicle = await vehicleOf(request);
    const used = await db.selectFrom('trips').select('id').where('vehicle_id', '=', vehicle.id).executeTakeFirst();
    if (used) throw new ApiError(409, DELIVERY_MESSAGES.vehicleUsed, { errorCode: 'vehicle_on_trips' });
    await db.deleteFrom('vehicles').where('id', '=', vehicle.id).execute();
    return ok({ deleted: vehicle.id });
  });

  // --- Dispatch --------------------------------------------------------------------------------
  app.get(`${PREFIX}/ready`, perm('delivery:read'), async (request) => ok(await readyOrders(db, storeOf(request))));

  app.get(`${PREFIX}/trips`, perm('trips:read'), async (request) => {
    const store = storeOf(request);
    const q = parseOr400(tripListQuery, request.query);
    const own = await ownDriverIds(staffOf(request), store.storeId);
    if (own && own.length === 0) return ok({ items: [] as TripView[] });
    let query = db.selectFrom('trips').selectAll().where('store_id', '=', store.storeId);
    if (q.status) query = query.where('status', '=', q.status);
    if (own) query = query.where('driver_id', 'in', own);
    const rows = await query.orderBy('id', 'desc').limit(200).execute();
    const items: TripView[] = [];
    for (const row of rows) items.push(await tripView(db, store, row));
    return ok({ items });
  });

  const tripOf = async (request: FastifyRequest) => {
    const store = storeOf(request);
    const { tripId } = parseOr400(tripParams, request.params);
    const trip = await tripRow(db, store.storeId, tripId);
    const own = await ownDriverIds(staffOf(request), store.storeId);
    // Another driver's trip is not there for a driver (the same 404 as a trip that does not exist).
    if (own && !own.includes(trip.driver_id)) throw new ApiError(404, 'No such trip in this store.', { errorCode: 'trip_not_found' });
    return { store, trip };
  };

  app.get(`${PREFIX}/trips/:tripId`, perm('trips:read'), async (request) => {
    const { store, trip } = await tripOf(request);
    return ok(await tripView(db, store, trip));
  });

  app.post(`${PREFIX}/trips`, perm('delivery:manage'), async (request) => {
    const store = storeOf(request);
    const body = parseOr400(tripCreateBody, request.body);
    const trip = await createTrip(db, store, { ...body, createdBy: nameOf(staffOf(request)), now: now() });
    return ok(await tripView(db, store, trip));
  });

  app.post(`${PREFIX}/trips/:tripId/stops`, perm('delivery:manage'), async (request) => {
    const { store, trip } = await tripOf(request);
    const body = parseOr400(tripAddStopBody, request.body);
    await addStop(db, store.storeId, trip.id, body.orderId, now());
    return ok(await tripView(db, store, await tripRow(db, store.storeId, trip.id)));
  });

  app.delete(`${PREFIX}/trips/:tripId/stops/:orderId`, perm('delivery:manage'), async (request) => {
    const { storeId, tripId, orderId } = parseOr400(tripStopParams, request.params);
    const store = storeOf(request);
    await removeStop(db, storeId, tripId, orderId, now());
    return ok(await tripView(db, store, await tripRow(db, storeId, tripId)));
  });

  app.put(`${PREFIX}/trips/:tripId/stops`, perm('delivery:manage'), async (request) => {
    const { store, trip } = await tripOf(request);
    const body = parseOr400(tripReorderBody, request.body);
    await reorderStops(db, store.storeId, trip.id, body.orderIds, now());
    return ok(await tripView(db, store, await tripRow(db, store.storeId, trip.id)));
  });

  app.get(`${PREFIX}/trips/:tripId/suggested-order`, perm('delivery:read'), async (request) => {
    const { store, trip } = await tripOf(request);
    return ok(await suggestedOrder(db, store, trip.id));
  });

  app.post(`${PREFIX}/trips/:tripId/start`, perm('delivery:manage'), async (request) => {
    const { store, trip } = await tripOf(request);
    const staff = staffOf(request);
    const started = await startTrip(db, store, trip.id, { type: 'staff', id: staff.id, name: nameOf(staff) }, now());
    app.outbox.kick();
    // Issue 29: a first stop already within 10 minutes of the store is told at the start (the trip has started either way).
    await afterStopRecorded(db, store.storeId, started.id, now()).catch((error: unknown) => request.log.error({ err: error }, 'near messages after the trip start'));
    return ok(await tripView(db, store, started));
  });
}
