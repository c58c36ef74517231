/**
 * A started trip's progress as the shopper sees it (issue 29 "The shopper"): for each stop not yet
 * recorded, how many such stops come before it and about how many minutes until the driver is there
 * (@verdant/domain trip-progress.ts works the minutes out from the ZIP centres, the store's pace in
 * the `delivery-trips` section, and where the driver last recorded a stop). Read by the order page
 * (GET /api/user/order/:id), order tracking (POST /api/order-tracking and the /order-tracking page)
 * and the "about 10 minutes away" message (./after-stop.ts). No driver position is read or shown.
 */
import {
  DEFAULT_TRIP_PACE,
  remainingStopMinutes,
  tripProgress,
  type LatLng,
  type Store,
  type TripPace,
  type TripProgress,
} from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { zipLocation } from '../shipping/zip-location.ts';
import { readSection } from '../store-settings/read.ts';
import { DELIVERY_TRIPS_SECTION } from './limits-section.ts';

type Db = Kysely<Database>;

/** The store as the stores file gave it (the `stores` row keeps the whole object, db/stores-sync.ts); null: unknown. */
export async function storeOfId(db: Db, storeId: number): Promise<Store | null> {
  const row = await db.selectFrom('stores').select('settings').where('id', '=', storeId).executeTakeFirst();
  if (!row) return null;
  try {
    return JSON.parse(row.settings) as Store;
  } catch {
    return null;
  }
}

export interface TripDelivery {
  pace: TripPace;
  nearMessage: 'sms' | 'email';
}

/** The store's pace and near-message channel (`delivery-trips`; absent fields: the domain's defaults). */
export async function tripDeliverySettings(db: Db, store: Store): Promise<TripDelivery> {
  const value = (await readSection(db, store, DELIVERY_TRIPS_SECTION)).value;
  return {
    pace: { average_mph: value.average_mph ?? DEFAULT_TRIP_PACE.average_mph, minutes_per_stop: value.minutes_per_stop ?? DEFAULT_TRIP_PACE.minutes_per_stop },
    nearMessage: value.near_message ?? 'sms',
  };
}

export interface RemainingStop {
  stopId: number;
  orderId: number;
  position: number;
  nearNotifiedAt: string | null;
  /** Stops before this one with no outcome yet. */
  stopsAhead: number;
  /** Unrounded estimate from now. */
  minutes: number;
}

function zipPoint(shippingAddress: string | null): LatLng | null {
  if (!shippingAddress) return null;
  try {
    const zip = (JSON.parse(shippingAddress) as { zip?: string }).zip;
    return zip ? zipLocation(zip) : null;
  } catch {
    return null;
  }
}

/**
 * Every stop of the trip not yet recorded, in stop order, with its estimate: the driver is taken to
 * be at the stop recorded last (by its time; the store when none is), driving on through the rest.
 */
export async function remainingStops(db: Db, store: Store, tripId: number, pace: TripPace): Promise<RemainingStop[]> {
  const stops = await db
    .selectFrom('trip_stops')
    .innerJoin('orders', 'orders.id', 'trip_stops.order_id')
    .select([
      'trip_stops.id as stop_id',
      'trip_stops.order_id',
      'trip_stops.position',
      'trip_stops.outcome',
      'trip_stops.outcome_at',
      'trip_stops.near_notified_at',
      'orders.shipping_address',
    ])
    .where('trip_stops.trip_id', '=', tripId)
    .orderBy('trip_stops.position')
    .execute();
  const recorded = stops.filter((s) => s.outcome != null);
  const last = recorded.reduce<(typeof recorded)[number] | null>(
    (a, s) => (!a || (s.outcome_at ?? '') > (a.outcome_at ?? '') || ((s.outcome_at ?? '') === (a.outcome_at ?? '') && s.position > a.position) ? s : a),
    null,
  );
  const place = store.dispensarySettings.place_info;
  const from: LatLng | null = last ? zipPoint(last.shipping_address) : { lat: place.lat, lng: place.lng };
  const rest = stops.filter((s) => s.outcome == null);
  const minutes = remainingStopMinutes(from, rest.map((s) => zipPoint(s.shipping_address)), pace);
  return rest.map((s, i) => ({
    stopId: s.stop_id,
    orderId: s.order_id,
    position: s.position,
    nearNotifiedAt: s.near_notified_at,
    stopsAhead: i,
    minutes: minutes[i]!,
  }));
}

/**
 * What the shopper reads about the trip of an order out for delivery: null unless the order is a
 * stop of a started trip not yet recorded (then nothing about the trip is said).
 */
export async function orderTripProgress(db: Db, order: { id: number; store_id: number; status: string }, store?: Store | null): Promise<TripProgress | null> {
  if (order.status !== 'out_for_delivery') return null;
  const mine = await db
    .selectFrom('trip_stops')
    .innerJoin('trips', 'trips.id', 'trip_stops.trip_id')
    .select(['trip_stops.trip_id', 'trip_stops.outcome'])
    .where('trip_stops.order_id', '=', order.id)
    .where('trip_stops.open', '=', 1)
    .where('trips.status', '=', 'started')
    .where('trips.store_id', '=', order.store_id)
    .executeTakeFirst();
  if (!mine || mine.outcome != null) return null;
  const s = store ?? (await storeOfId(db, order.store_id));
  if (!s) return null;
  const { pace } = await tripDeliverySettings(db, s);
  const stop = (await remainingStops(db, s, mine.trip_id, pace)).find((r) => r.orderId === order.id);
  return stop ? tripProgress(stop.stopsAhead, stop.minutes) : null;
}
