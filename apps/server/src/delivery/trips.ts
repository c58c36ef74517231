/**
 * Delivery trips on the server (issue 29 "Drivers, vehicles, trips"): the orders ready to go, a
 * trip's stops, its load against the store's limits (the `delivery-trips` section), the suggested
 * stop order, and the writes — create, add / remove / reorder stops, start.
 *
 * An order is on at most one open trip: the database says so (trip_stops' unique index on
 * (order_id, open), migration 0029), and adding a stop is a plain insert that index refuses, so of
 * two dispatchers adding one order to two trips at once exactly one succeeds, on both databases.
 * Every write to a trip first moves its `version` with an update guarded by `status = 'planned'`:
 * the row is locked for the rest of the transaction (PostgreSQL) and a trip that started meanwhile
 * is not changed; starting updates the same row, so a start and an add never interleave.
 */
import {
  distanceMiles,
  tripLimitProblems,
  type Store,
  type TripLimits,
} from '@verdant/domain';
import type { DeliveryOrderView, DeliveryReady, TripSuggestedOrder, TripView } from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import { inWriteTransaction } from '../db/group-commit.ts';
import type { Database, Row } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { isUniqueViolation } from '../orders/idempotency.ts';
import { applyTransition, type OrderActor } from '../orders/lifecycle/transitions.ts';
import { zipLocation } from '../shipping/zip-location.ts';
import { zoneFor, zonesOf } from '../shipping/zones.ts';
import { readSection } from '../store-settings/read.ts';
import { DELIVERY_TRIPS_SECTION } from './limits-section.ts';

type Db = Kysely<Database>;

export const TRIP_MESSAGES = {
  tripNotFound: 'No such trip in this store.',
  driverNotFound: 'No such driver in this store.',
  vehicleNotFound: 'No such vehicle in this store.',
  driverInactive: (name: string) => `${name} is not an active driver: make them active or choose another driver.`,
  vehicleInactive: (plate: string) => `The vehicle ${plate} is not active: make it active or choose another vehicle.`,
  orderNotFound: (id: number) => `Order ${id} is not an order of this store.`,
  notDelivery: (number: string) => `Order ${number} is a pickup order, not a delivery.`,
  notReady: (number: string, status: string) => `Order ${number} is ${status.replace(/_/g, ' ')}: only confirmed delivery orders go on a trip.`,
  onTrip: (number: string, ledger: string) => `Order ${number} is already on trip ${ledger}.`,
  notPlanned: (ledger: string, status: string) => `Trip ${ledger} has ${status === 'started' ? 'started' : 'ended'}: its stops can no longer change.`,
  notOnTrip: (id: number, ledger: string) => `Order ${id} is not a stop of trip ${ledger}.`,
  reorderSet: (ledger: string) => `Send every order of trip ${ledger} exactly once, in the new order.`,
  duplicateOrders: 'Each order may be listed once.',
  empty: (ledger: string) => `Trip ${ledger} has no stops: add at least one order before starting it.`,
  overLimit: (messages: string[]) => messages.join(' '),
} as const;

const OUTSIDE_ZONES = 'Outside the zones';

interface Address {
  address?: string;
  apt_ste?: string;
  city?: string;
  zip?: string;
}

function parse<T>(json: string | null): T | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
}

export function deliveryOrderView(store: Store, order: Row<'orders'>): DeliveryOrderView {
  const a = parse<Address>(order.shipping_address) ?? {};
  const who = parse<{ firstName?: string; lastName?: string }>(order.personal_details) ?? {};
  const zip = a.zip ?? null;
  const point = zip ? zipLocation(zip) : null;
  const place = store.dispensarySettings.place_info;
  return {
    id: order.id,
    increment_id: order.increment_id,
    status: order.status,
    customer_name: [who.firstName, who.lastName].filter(Boolean).join(' '),
    address: [a.address, a.apt_ste ? `Apt ${a.apt_ste}` : '', [a.city, zip].filter(Boolean).join(' ')].filter(Boolean).join(', '),
    zip,
    miles: point ? Math.round(distanceMiles(place, point) * 100) / 100 : null,
    total_cents: order.total_cents,
    weight_grams: Math.round(order.thc_equivalent_grams * 1000) / 1000,
    slot_start: order.slot_start,
    slot_end: order.slot_end,
    ready_by: order.ready_by,
  };
}

/** Confirmed delivery orders on no open trip, grouped by zone (the zones' order) and slot (ASAP first, then by start). */
export async function readyOrders(db: Db, store: Store): Promise<DeliveryReady> {
  const rows = await db
    .selectFrom('orders')
    .selectAll()
    .where('store_id', '=', store.storeId)
    .where('order_type', '=', 'delivery')
    .where('status', '=', 'confirmed')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('trip_stops').select('trip_stops.id').whereRef('trip_stops.order_id', '=', 'orders.id').where('trip_stops.open', '=', 1))),
    )
    .orderBy('slot_start')
    .orderBy('ready_by')
    .orderBy('id')
    .execute();
  const zones = await zonesOf(db, store);
  const zoneOf = (zip: string | null): string => {
    try {
      return zoneFor(store, zones, zip).zone.name;
    } catch {
      return OUTSIDE_ZONES;
    }
  };
  const byZone = new Map<string, Map<string, DeliveryReady['zones'][number]['slots'][number]>>();
  for (const name of zones.map((z) => z.name)) byZone.set(name, new Map());
  for (const row of rows) {
    const view = deliveryOrderView(store, row);
    const zone = zoneOf(view.zip);
    if (!byZone.has(zone)) byZone.set(zone, new Map());
    const slots = byZone.get(zone)!;
    const key = `${row.slot_start ?? ''}|${row.slot_end ?? ''}`;
    if (!slots.has(key)) slots.set(key, { slot_start: row.slot_start, slot_end: row.slot_end, orders: [] });
    slots.get(key)!.orders.push(view);
  }
  const out: DeliveryReady['zones'] = [];
  for (const [zone, slots] of byZone) {
    if (slots.size === 0) continue;
    const list = [...slots.values()].sort((a, b) => (a.slot_start ?? '').localeCompare(b.slot_start ?? ''));
    out.push({ zone, slots: list });
  }
  return { zones: out, count: rows.length };
}

export async function tripLimitsOf(db: Db, store: Store): Promise<TripLimits> {
  return (await readSection(db, store, DELIVERY_TRIPS_SECTION)).value;
}

export async function tripRow(db: Db, storeId: number, tripId: number): Promise<Row<'trips'>> {
  const trip = await db.selectFrom('trips').selectAll().where('id', '=', tripId).where('store_id', '=', storeId).executeTakeFirst();
  if (!trip) throw new ApiError(404, TRIP_MESSAGES.tripNotFound, { errorCode: 'trip_not_found' });
  return trip;
}

async function stopsOf(db: Db, tripId: number) {
  return db
    .selectFrom('trip_stops')
    .innerJoin('orders', 'orders.id', 'trip_stops.order_id')
    .selectAll('orders')
    .select([
      'trip_stops.position as position',
      'trip_stops.outcome as outcome',
      'trip_stops.failed_reason as failed_reason',
      'trip_stops.outcome_at as outcome_at',
      'trip_stops.cash_cents as cash_cents',
    ])
    .where('trip_stops.trip_id', '=', tripId)
    .orderBy('trip_stops.position')
    .execute();
}

function loadOf(stops: readonly Row<'orders'>[]) {
  return {
    goodsCents: stops.reduce((s, o) => s + o.total_cents, 0),
    weightGrams: stops.reduce((s, o) => s + o.thc_equivalent_grams, 0),
    orders: stops.length,
  };
}

export async function tripView(db: Db, store: Store, trip: Row<'trips'>): Promise<TripView> {
  const [driver, vehicle, stops, limits] = await Promise.all([
    db.selectFrom('drivers').selectAll().where('id', '=', trip.driver_id).executeTakeFirstOrThrow(),
    db.selectFrom('vehicles').selectAll().where('id', '=', trip.vehicle_id).executeTakeFirstOrThrow(),
    stopsOf(db, trip.id),
    tripLimitsOf(db, store),
  ]);
  const load = loadOf(stops);
  return {
    id: trip.id,
    ledger_number: trip.ledger_number,
    status: trip.status,
    version: trip.version,
    driver: { id: driver.id, name: driver.name, employee_number: driver.employee_number, licence_number: driver.licence_number },
    vehicle: { id: vehicle.id, make: vehicle.make, model: vehicle.model, plate: vehicle.plate },
    created_by: trip.created_by,
    created_at: trip.created_at,
    started_at: trip.started_at,
    ended_at: trip.ended_at,
    ended_by: trip.ended_by,
    cash_expected_cents: trip.cash_expected_cents,
    cash_collected_cents: trip.cash_collected_cents,
    end_note: trip.end_note,
    stops: stops.map((s) => ({
      ...deliveryOrderView(store, s),
      position: s.position,
      outcome: s.outcome,
      failed_reason: s.failed_reason,
      outcome_at: s.outcome_at,
      cash_cents: s.cash_cents,
    })),
    load: { goods_cents: load.goodsCents, weight_grams: Math.round(load.weightGrams * 1000) / 1000, orders: load.orders },
    limits,
    over: trip.status === 'planned' ? tripLimitProblems(limits, load) : [],
  };
}

/** The order may go on a trip: this store's, a delivery, confirmed. */
async function checkOrder(db: Db, storeId: number, orderId: number): Promise<Row<'orders'>> {
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).where('store_id', '=', storeId).executeTakeFirst();
  if (!order) throw new ApiError(404, TRIP_MESSAGES.orderNotFound(orderId), { errorCode: 'order_not_found' });
  if (order.order_type !== 'delivery') throw new ApiError(400, TRIP_MESSAGES.notDelivery(order.increment_id), { errorCode: 'order_not_delivery' });
  if (order.status !== 'confirmed') throw new ApiError(400, TRIP_MESSAGES.notReady(order.increment_id, order.status), { errorCode: 'order_not_ready' });
  return order;
}

/** The guarded version move every trip change starts with (locks the row; refuses a trip not planned). */
async function lockPlanned(trx: Db, trip: Row<'trips'>, iso: string): Promise<void> {
  const moved = await trx
    .updateTable('trips')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: iso }))
    .where('id', '=', trip.id)
    .where('status', '=', 'planned')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) {
    const now = await trx.selectFrom('trips').select('status').where('id', '=', trip.id).executeTakeFirstOrThrow();
    throw new ApiError(409, TRIP_MESSAGES.notPlanned(trip.ledger_number, now.status), { errorCode: 'trip_not_planned', meta: { status: now.status } });
  }
}

async function insertStop(trx: Db, tripId: number, order: Row<'orders'>, position: number, iso: string): Promise<void> {
  await trx.insertInto('trip_stops').values({ trip_id: tripId, order_id: order.id, position, open: 1, created_at: iso }).execute();
}

/** After a unique violation: which open trip holds the order (for the 409's words). */
async function onTripError(db: Db, orderId: number, error: unknown): Promise<never> {
  if (!isUniqueViolation(error)) throw error;
  const held = await db
    .selectFrom('trip_stops')
    .innerJoin('trips', 'trips.id', 'trip_stops.trip_id')
    .innerJoin('orders', 'orders.id', 'trip_stops.order_id')
    .select(['trips.id as trip_id', 'trips.ledger_number', 'orders.increment_id'])
    .where('trip_stops.order_id', '=', orderId)
    .where('trip_stops.open', '=', 1)
    .executeTakeFirst();
  throw new ApiError(409, TRIP_MESSAGES.onTrip(held?.increment_id ?? String(orderId), held?.ledger_number ?? 'another trip'), {
    errorCode: 'order_on_trip',
    meta: { tripId: held?.trip_id ?? null },
  });
}

export interface TripCreate {
  driverId: number;
  vehicleId: number;
  orderIds: number[];
  createdBy: string;
  now: Date;
}

export async function createTrip(db: Db, store: Store, input: TripCreate): Promise<Row<'trips'>> {
  const storeId = store.storeId;
  if (new Set(input.orderIds).size !== input.orderIds.length) throw new ApiError(400, TRIP_MESSAGES.duplicateOrders, { errorCode: 'duplicate_orders' });
  const driver = await db.selectFrom('drivers').selectAll().where('id', '=', input.driverId).where('store_id', '=', storeId).executeTakeFirst();
  if (!driver) throw new ApiError(400, TRIP_MESSAGES.driverNotFound, { errorCode: 'driver_not_found' });
  if (!driver.active) throw new ApiError(400, TRIP_MESSAGES.driverInactive(driver.name), { errorCode: 'driver_inactive' });
  const vehicle = await db.selectFrom('vehicles').selectAll().where('id', '=', input.vehicleId).where('store_id', '=', storeId).executeTakeFirst();
  if (!vehicle) throw new ApiError(400, TRIP_MESSAGES.vehicleNotFound, { errorCode: 'vehicle_not_found' });
  if (!vehicle.active) throw new ApiError(400, TRIP_MESSAGES.vehicleInactive(vehicle.plate), { errorCode: 'vehicle_inactive' });
  const orders: Row<'orders'>[] = [];
  for (const id of input.orderIds) orders.push(await checkOrder(db, storeId, id));
  const iso = input.now.toISOString();
  let current = 0;
  try {
    return await inWriteTransaction(db, async (trx) => {
      const { id } = await trx
        .insertInto('trips')
        .values({
          store_id: storeId,
          // Replaced below by the number made from the id (unique per store).
          ledger_number: `pending-${input.now.getTime()}-${Math.random().toString(36).slice(2)}`,
          driver_id: driver.id,
          vehicle_id: vehicle.id,
          status: 'planned',
          created_by: input.createdBy,
          started_at: null,
          ended_at: null,
          goods_cents: null,
          weight_grams: null,
          created_at: iso,
          updated_at: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const ledger = `${store.storeCode.toUpperCase()}-T${String(id).padStart(6, '0')}`;
      await trx.updateTable('trips').set({ ledger_number: ledger }).where('id', '=', id).execute();
      let position = 0;
      for (const order of orders) {
        current = order.id;
        await insertStop(trx, id, order, ++position, iso);
      }
      return trx.selectFrom('trips').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    });
  } catch (error) {
    return onTripError(db, current, error);
  }
}

export async function addStop(db: Db, storeId: number, tripId: number, orderId: number, now: Date): Promise<void> {
  const trip = await tripRow(db, storeId, tripId);
  const order = await checkOrder(db, storeId, orderId);
  const iso = now.toISOString();
  try {
    await inWriteTransaction(db, async (trx) => {
      await lockPlanned(trx, trip, iso);
      const last = await trx.selectFrom('trip_stops').select((eb) => eb.fn.max('position').as('p')).where('trip_id', '=', trip.id).executeTakeFirst();
      await insertStop(trx, trip.id, order, Number(last?.p ?? 0) + 1, iso);
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    await onTripError(db, orderId, error);
  }
}

export async function removeStop(db: Db, storeId: number, tripId: number, orderId: number, now: Date): Promise<void> {
  const trip = await tripRow(db, storeId, tripId);
  await inWriteTransaction(db, async (trx) => {
    await lockPlanned(trx, trip, now.toISOString());
    const gone = await trx.deleteFrom('trip_stops').where('trip_id', '=', trip.id).where('order_id', '=', orderId).executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) throw new ApiError(404, TRIP_MESSAGES.notOnTrip(orderId, trip.ledger_number), { errorCode: 'stop_not_found' });
    await renumber(trx, trip.id);
  });
}

/** Positions 1…n in the current order (after a removal). */
async function renumber(trx: Db, tripId: number, order?: number[]): Promise<void> {
  const ids = order ?? (await trx.selectFrom('trip_stops').select('order_id').where('trip_id', '=', tripId).orderBy('position').execute()).map((s) => s.order_id);
  for (const [i, id] of ids.entries()) await trx.updateTable('trip_stops').set({ position: i + 1 }).where('trip_id', '=', tripId).where('order_id', '=', id).execute();
}

export async function reorderStops(db: Db, storeId: number, tripId: number, orderIds: number[], now: Date): Promise<void> {
  const trip = await tripRow(db, storeId, tripId);
  await inWriteTransaction(db, async (trx) => {
    await lockPlanned(trx, trip, now.toISOString());
    const have = (await trx.selectFrom('trip_stops').select('order_id').where('trip_id', '=', trip.id).execute()).map((s) => s.order_id);
    const same = have.length === orderIds.length && new Set(orderIds).size === orderIds.length && orderIds.every((id) => have.includes(id));
    if (!same) throw new ApiError(400, TRIP_MESSAGES.reorderSet(trip.ledger_number), { errorCode: 'stops_mismatch', meta: { orderIds: have } });
    await renumber(trx, trip.id, orderIds);
  });
}

/** The stops nearest the store first (ZIP centres; a ZIP the table does not know goes last), ties by current position. */
export async function suggestedOrder(db: Db, store: Store, tripId: number): Promise<TripSuggestedOrder> {
  const trip = await tripRow(db, store.storeId, tripId);
  const stops = (await stopsOf(db, trip.id)).map((s) => ({ ...deliveryOrderView(store, s), position: s.position }));
  stops.sort((a, b) => (a.miles ?? Infinity) - (b.miles ?? Infinity) || a.position - b.position);
  return { orderIds: stops.map((s) => s.id), stops: stops.map((s) => ({ order_id: s.id, zip: s.zip, miles: s.miles })) };
}

/**
 * Start a planned trip, in ONE transaction: the guarded status move (planned → started), the
 * load checked against the store's limits (400 `trip_over_limit` naming each limit and by how much),
 * and every stop's order sent out for delivery (the lifecycle's `send_out`, with its history row and
 * outbox event). Anything refused rolls all of it back.
 */
export async function startTrip(db: Db, store: Store, tripId: number, actor: OrderActor, now: Date): Promise<Row<'trips'>> {
  const trip = await tripRow(db, store.storeId, tripId);
  const limits = await tripLimitsOf(db, store);
  // A Kysely transaction (not a group-commit unit): the lifecycle's moves below run inside it.
  return db.transaction().execute((trx) => startTripIn(trx, store, trip, limits, actor, now));
}

/** The start inside the caller's transaction (the driver's `start` action runs it beside its action record). */
export async function startTripIn(trx: Db, store: Store, trip: Row<'trips'>, limits: TripLimits, actor: OrderActor, now: Date): Promise<Row<'trips'>> {
  const iso = now.toISOString();
  await lockPlanned(trx, trip, iso);
  const stops = await stopsOf(trx, trip.id);
  if (stops.length === 0) throw new ApiError(400, TRIP_MESSAGES.empty(trip.ledger_number), { errorCode: 'trip_empty' });
  for (const o of stops)
    if (o.status !== 'confirmed') throw new ApiError(400, TRIP_MESSAGES.notReady(o.increment_id, o.status), { errorCode: 'order_not_ready' });
  const load = loadOf(stops);
  const over = tripLimitProblems(limits, load);
  if (over.length > 0)
    throw new ApiError(400, TRIP_MESSAGES.overLimit(over.map((p) => p.message)), { errorCode: 'trip_over_limit', meta: { over } });
  await trx
    .updateTable('trips')
    .set({ status: 'started', started_at: iso, updated_at: iso, goods_cents: load.goodsCents, weight_grams: load.weightGrams })
    .where('id', '=', trip.id)
    .execute();
  for (const o of stops) await applyTransition(trx, { storeId: store.storeId, orderId: o.id, action: 'send_out', input: {}, actor, now });
  return trx.selectFrom('trips').selectAll().where('id', '=', trip.id).executeTakeFirstOrThrow();
}
