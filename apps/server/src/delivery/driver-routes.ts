/**
 * The driver's phone and the end of a trip (issue 29), per store under /stores/:storeId/delivery
 * (contract: packages/domain/src/console-api/driver.ts; the logic: ./stops.ts):
 *  - POST /actions (`trips:drive`: drivers on their own trips — another's is 404 — managers and owners
 *    on any trip of the store): start, deliver, fail, end, once per `action_id`;
 *  - POST /trips/:tripId/end (`delivery:manage`): the console's end, body {cash, note};
 *  - GET /my-trips (`trips:drive`): the login's planned and started trips and those ended today;
 *  - POST /devices/report (`trips:drive`) and GET /devices (`delivery:read`): what each phone still holds.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store } from '@verdant/domain';
import { deviceReportBody, driverActionBody, tripEndBody, tripParams, type DriverMyTrips, type TripEndAnswer } from '@verdant/domain/console-api';
import { z } from 'zod';
import { ApiError, ok } from '../http/envelope.ts';
import { dbId } from '../http/ids.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf, type StaffContext } from '../staff/guard.ts';
import type { RoutePermission } from '../staff/permissions.ts';
import type { DeliveryRouteDeps } from './console-routes.ts';
import { devicesOf, endTrip, myTrips, reportDevice, runDriverAction } from './stops.ts';
import { TRIP_MESSAGES, tripRow } from './trips.ts';

const PREFIX = '/api/console/stores/:storeId/delivery';
const perm = (permission: RoutePermission) => ({ config: { console: { permission } } });
const storeParams = z.object({ storeId: dbId() });

export function registerDriverRoutes(app: FastifyInstance, deps: DeliveryRouteDeps): void {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  const storeOf = (request: FastifyRequest): Store => {
    const { storeId } = parseOr400(storeParams, request.params);
    const store = deps.stores.find((s) => s.storeId === storeId);
    if (!store) throw new ApiError(404, 'Store not found.', { errorCode: 'store_not_found' });
    return store;
  };
  const nameOf = (s: StaffContext) => s.name || s.email;

  /** After a commit: the shoppers' messages go out; the catalogue hears of stock that came back. */
  const afterCommit = (request: FastifyRequest, storeId: number, restocked: number[]) => {
    app.outbox.kick();
    if (restocked.length)
      app.catalog.catalogChanged(storeId, restocked, { stockOnly: true }).catch((err) => request.log.warn({ err }, 'catalogue update after trip end failed'));
  };

  app.post(`${PREFIX}/actions`, perm('trips:drive'), async (request) => {
    const store = storeOf(request);
    const staff = staffOf(request);
    const body = parseOr400(driverActionBody, request.body);
    const trip = await tripRow(db, store.storeId, body.trip_id);
    if (staff.role === 'driver') {
      const own = await db.selectFrom('drivers').select('id').where('id', '=', trip.driver_id).where('staff_id', '=', staff.id).executeTakeFirst();
      // Another driver's trip is not there for a driver (the same 404 as a trip that does not exist).
      if (!own) throw new ApiError(404, TRIP_MESSAGES.tripNotFound, { errorCode: 'trip_not_found' });
    }
    const out = await runDriverAction(db, store, trip, { staffId: staff.id, name: nameOf(staff) }, body, now());
    if (!out.replayed && out.status === 200) afterCommit(request, store.storeId, out.restocked);
    if (!out.stored.ok)
      throw new ApiError(out.status, out.stored.message, {
        errorCode: out.stored.errorCode,
        meta: { ...out.stored.meta, action_id: body.action_id, replayed: out.replayed },
      });
    return ok(out.stored.answer);
  });

  app.post(`${PREFIX}/trips/:tripId/end`, perm('delivery:manage'), async (request) => {
    const store = storeOf(request);
    const { tripId } = parseOr400(tripParams, request.params);
    const body = parseOr400(tripEndBody, request.body);
    const staff = staffOf(request);
    const ended = await endTrip(db, store, tripId, body, { type: 'staff', id: staff.id, name: nameOf(staff) }, now());
    afterCommit(request, store.storeId, ended.restocked);
    return ok<TripEndAnswer>({ trip: ended.trip, end: ended.summary });
  });

  app.get(`${PREFIX}/my-trips`, perm('trips:drive'), async (request) => {
    const store = storeOf(request);
    return ok<DriverMyTrips>({ items: await myTrips(db, store, staffOf(request).id, now()) });
  });

  app.post(`${PREFIX}/devices/report`, perm('trips:drive'), async (request) => {
    const store = storeOf(request);
    const body = parseOr400(deviceReportBody, request.body);
    await reportDevice(db, store.storeId, staffOf(request).id, body, now());
    return ok({ device_id: body.device_id });
  });

  app.get(`${PREFIX}/devices`, perm('delivery:read'), async (request) => {
    const store = storeOf(request);
    return ok({ items: await devicesOf(db, store.storeId) });
  });
}
