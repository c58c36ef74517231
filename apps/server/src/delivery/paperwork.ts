/**
 * Delivery paperwork (issue 29 "Paperwork"; contract: packages/domain/src/console-api/delivery-records.ts):
 *  - the trip manifest / delivery inventory ledger (California 4 CCR §15418): built from the current
 *    rows every time it is read, so it is "updated at each stop" by construction;
 *  - the end-of-day record per delivery (completion time, customer type, quantity, price, city, county, ZIP)
 *    for one store-local day;
 *  - the delivery request receipt per order (retailer, driver and preparer, customer, goods, totals,
 *    delivery time, the customer's signature);
 *  - a date-range CSV export of every delivery record, and the retention rules: a trip inside the
 *    store's `record-retention` period cannot be deleted, and `purgeDeliveryRecords` removes ended
 *    trips older than it with their stops, signature images and the driver actions that carried them.
 *
 * CSV goes through the product's one writer (../http/csv.ts: RFC 4180 quoting, a leading `'` on cells
 * a spreadsheet would run as a formula). Times in CSV are the store's wall-clock time (the column
 * header names the zone); JSON keeps ISO UTC instants.
 *
 * County: neither the order's address nor the ZIP table (the `zipcodes` package: city, state,
 * centre) holds one, so it is the address's `county` when present and empty otherwise (documented
 * in docs/operators/delivery.md). Package ids: the menu's `package_id` / `batch_number` of the line's
 * product as the menu holds it when read — order lines keep no copy.
 */
import {
  formatAddress,
  formatSortableDateTime,
  retentionCutoff,
  type Store,
} from '@verdant/domain';
import type {
  DeliveryReceipt,
  EndOfDay,
  EndOfDayRecord,
  ManifestStop,
  RecordCustomerType,
  RecordLine,
  TripManifest,
} from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import type { Database, Row } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { csvNumber, toCsv, type CsvCell } from '../http/csv.ts';
import { dayStartUtc, nextDay } from '../orders/lifecycle/store-facts.ts';
import { readSection } from '../store-settings/read.ts';
import { RECORD_RETENTION_SECTION } from './retention-section.ts';
import { tripRow } from './trips.ts';

type Db = Kysely<Database>;

export const PAPERWORK_MESSAGES = {
  orderNotFound: 'No such order in this store.',
  notDelivery: (number: string) => `Order ${number} is a pickup order: delivery receipts are for delivery orders.`,
  tripStarted: (ledger: string) => `Trip ${ledger} is under way: it can be deleted only once it ended and its records are past the retention period.`,
  retained: (ledger: string, years: number, until: string) =>
    `Trip ${ledger} is a delivery record kept ${years} year${years === 1 ? '' : 's'} (the store's record retention): it cannot be deleted before ${until}.`,
} as const;

interface OrderAddress {
  address?: string;
  apt_ste?: string;
  city?: string;
  zip?: string;
  county?: string;
}

function parse<T>(json: string | null): T | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
}

const customerType = (licenseType: string): RecordCustomerType => (licenseType === 'medical' ? 'medical' : 'adult-use');
const firstName = (o: Row<'orders'>) => (parse<{ firstName?: string }>(o.personal_details)?.firstName ?? '').trim();
const grams = (g: number) => Math.round(g * 1000) / 1000;
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

function placeOf(o: Row<'orders'>) {
  const a = parse<OrderAddress>(o.shipping_address) ?? {};
  return { address: formatAddress(o.shipping_address) ?? '', city: text(a.city), zip: text(a.zip), county: text(a.county) };
}

/** The store's wall clock as `YYYY-MM-DD HH:MM` (CSV cells; the header names the zone). */
export function localStamp(iso: string | null, timeZone: string): string {
  return iso ? formatSortableDateTime(iso, timeZone) : '';
}

const dollars = (cents: number) => csvNumber((cents / 100).toFixed(2));

/** Every line of the given orders with the menu's package id and batch, by order id. */
async function linesOf(db: Db, orderIds: readonly number[]): Promise<Map<number, RecordLine[]>> {
  const out = new Map<number, RecordLine[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return out;
  const rows = await db
    .selectFrom('order_items')
    .leftJoin('products', 'products.id', 'order_items.product_id')
    .select([
      'order_items.order_id',
      'order_items.sku',
      'order_items.name',
      'order_items.qty',
      'order_items.uom',
      'order_items.price_cents',
      'order_items.row_total_cents',
      'order_items.discount_cents',
      'order_items.thc_equivalent_grams',
      'products.package_id',
      'products.batch_number',
    ])
    .where('order_items.order_id', 'in', [...orderIds])
    .orderBy('order_items.id')
    .execute();
  for (const r of rows) {
    out.get(r.order_id)?.push({
      sku: r.sku,
      name: r.name,
      qty: r.qty,
      uom: r.uom ?? 'ea',
      package_id: r.package_id ?? null,
      batch_number: r.batch_number ?? null,
      price_cents: r.price_cents,
      row_total_cents: r.row_total_cents - (r.discount_cents ?? 0),
      weight_grams: grams(r.thc_equivalent_grams ?? 0),
    });
  }
  return out;
}

// --- Manifest -----------------------------------------------------------------------------------

export async function tripManifest(db: Db, store: Store, trip: Row<'trips'>, now: Date): Promise<TripManifest> {
  const [driver, vehicle, stops] = await Promise.all([
    db.selectFrom('drivers').selectAll().where('id', '=', trip.driver_id).executeTakeFirstOrThrow(),
    db.selectFrom('vehicles').selectAll().where('id', '=', trip.vehicle_id).executeTakeFirstOrThrow(),
    db
      .selectFrom('trip_stops')
      .innerJoin('orders', 'orders.id', 'trip_stops.order_id')
      .selectAll('orders')
      .select(['trip_stops.position', 'trip_stops.outcome', 'trip_stops.outcome_at', 'trip_stops.failed_reason'])
      .where('trip_stops.trip_id', '=', trip.id)
      .orderBy('trip_stops.position')
      .execute(),
  ]);
  const lines = await linesOf(db, stops.map((s) => s.id));
  const manifestStops: ManifestStop[] = stops.map((s) => {
    const place = placeOf(s);
    return {
      position: s.position,
      order_id: s.id,
      order_number: s.increment_id,
      customer_first_name: firstName(s),
      customer_type: customerType(s.license_type),
      address: place.address,
      city: place.city,
      zip: place.zip,
      outcome: s.outcome,
      outcome_at: s.outcome_at,
      failed_reason: s.failed_reason,
      goods_cents: s.total_cents,
      weight_grams: grams(s.thc_equivalent_grams),
      lines: lines.get(s.id) ?? [],
    };
  });
  const sum = (list: ManifestStop[]) => ({
    goods_cents: list.reduce((t, s) => t + s.goods_cents, 0),
    weight_grams: grams(list.reduce((t, s) => t + s.weight_grams, 0)),
    orders: list.length,
  });
  const place = store.dispensarySettings.place_info;
  return {
    ledger_number: trip.ledger_number,
    status: trip.status,
    store: { name: store.name, license_number: place.license_number, timezone: place.timezone },
    driver: { name: driver.name, employee_number: driver.employee_number, licence_number: driver.licence_number },
    vehicle: { make: vehicle.make, model: vehicle.model, plate: vehicle.plate },
    created_at: trip.created_at,
    started_at: trip.started_at,
    ended_at: trip.ended_at,
    // Delivered goods left the vehicle; failed ones ride back until the trip ends.
    carried: sum(trip.status === 'ended' ? [] : manifestStops.filter((s) => s.outcome !== 'delivered')),
    load: sum(manifestStops),
    stops: manifestStops,
    as_of: now.toISOString(),
  };
}

export function manifestCsv(m: TripManifest): string {
  const tz = m.store.timezone;
  const header = [
    'Ledger number',
    'Driver',
    'Employee number',
    "Driver's licence",
    'Vehicle',
    'Plate',
    `Start time (${tz})`,
    'Stop',
    'Order',
    'Customer type',
    'City',
    'ZIP',
    'Outcome',
    `Outcome time (${tz})`,
    'SKU',
    'Product',
    'Qty',
    'Unit',
    'Package id',
    'Batch',
    'Line total',
    'Weight (g)',
  ];
  const rows: CsvCell[][] = [header];
  const trip = [m.ledger_number, m.driver.name, m.driver.employee_number, m.driver.licence_number, `${m.vehicle.make} ${m.vehicle.model}`, m.vehicle.plate, localStamp(m.started_at, tz)];
  for (const s of m.stops) {
    const stop = [s.position, s.order_number, s.customer_type, s.city, s.zip, s.outcome ?? 'on board', localStamp(s.outcome_at, tz)];
    const lines = s.lines.length ? s.lines : [null];
    for (const l of lines) {
      rows.push([
        ...trip,
        ...stop,
        l?.sku,
        l?.name,
        l?.qty,
        l?.uom,
        l?.package_id,
        l?.batch_number,
        l ? dollars(l.row_total_cents) : null,
        l ? csvNumber(l.weight_grams) : null,
      ]);
    }
  }
  return toCsv(rows);
}

// --- End of day ---------------------------------------------------------------------------------

/**
 * One record per delivery completed on the store-local `date`: a stop marked delivered that day, or
 * a delivery order completed that day on no trip's delivered stop (completed by hand in the console).
 */
export async function endOfDay(db: Db, store: Store, date: string): Promise<EndOfDay> {
  const tz = store.dispensarySettings.place_info.timezone;
  const from = dayStartUtc(date, tz);
  const to = dayStartUtc(nextDay(date), tz);
  const delivered = await db
    .selectFrom('trip_stops')
    .innerJoin('trips', 'trips.id', 'trip_stops.trip_id')
    .innerJoin('orders', 'orders.id', 'trip_stops.order_id')
    .selectAll('orders')
    .select(['trips.ledger_number', 'trip_stops.outcome_at'])
    .where('trips.store_id', '=', store.storeId)
    .where('trip_stops.outcome', '=', 'delivered')
    .where('trip_stops.outcome_at', '>=', from)
    .where('trip_stops.outcome_at', '<', to)
    .execute();
  const completed = await db
    .selectFrom('orders')
    .selectAll()
    .where('store_id', '=', store.storeId)
    .where('order_type', '=', 'delivery')
    .where('status', '=', 'completed')
    .where('status_changed_at', '>=', from)
    .where('status_changed_at', '<', to)
    .execute();
  const seen = new Set(delivered.map((d) => d.id));
  // A completed order delivered on a trip on another day belongs to that day's records.
  const elsewhere = new Set(
    (
      await db
        .selectFrom('trip_stops')
        .select('order_id')
        .where('outcome', '=', 'delivered')
        .where('order_id', 'in', completed.length ? completed.map((o) => o.id) : [0])
        .execute()
    ).map((r) => r.order_id),
  );
  const rows: { order: Row<'orders'>; ledger: string | null; at: string }[] = [
    ...delivered.map((d) => ({ order: d as Row<'orders'>, ledger: d.ledger_number, at: d.outcome_at as string })),
    ...completed.filter((o) => !seen.has(o.id) && !elsewhere.has(o.id)).map((o) => ({ order: o, ledger: null, at: o.status_changed_at as string })),
  ].sort((a, b) => a.at.localeCompare(b.at) || a.order.id - b.order.id);
  const lines = await linesOf(db, rows.map((r) => r.order.id));
  const records: EndOfDayRecord[] = rows.map(({ order, ledger, at }) => {
    const place = placeOf(order);
    const l = lines.get(order.id) ?? [];
    return {
      trip_ledger_number: ledger,
      order_id: order.id,
      order_number: order.increment_id,
      completed_at: at,
      customer_type: customerType(order.license_type),
      quantity: l.reduce((t, x) => t + x.qty, 0),
      items: l.map((x) => `${x.qty} × ${x.name}${x.package_id ? ` [${x.package_id}]` : ''}`).join('; '),
      price_cents: order.total_cents,
      city: place.city,
      county: place.county,
      zip: place.zip,
    };
  });
  return { date, timezone: tz, records };
}

export function endOfDayCsv(day: EndOfDay): string {
  const header = ['Completed', `Completion time (${day.timezone})`, 'Trip', 'Order', 'Customer type', 'Quantity', 'Items', 'Price', 'City', 'County', 'ZIP'];
  return toCsv([
    header,
    ...day.records.map((r) => [
      day.date,
      localStamp(r.completed_at, day.timezone),
      r.trip_ledger_number,
      r.order_number,
      r.customer_type,
      r.quantity,
      r.items,
      dollars(r.price_cents),
      r.city,
      r.county,
      r.zip,
    ]),
  ]);
}

// --- Receipt ------------------------------------------------------------------------------------

export async function deliveryReceipt(db: Db, store: Store, orderId: number): Promise<DeliveryReceipt> {
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).where('store_id', '=', store.storeId).executeTakeFirst();
  if (!order) throw new ApiError(404, PAPERWORK_MESSAGES.orderNotFound, { errorCode: 'order_not_found' });
  if (order.order_type !== 'delivery') throw new ApiError(400, PAPERWORK_MESSAGES.notDelivery(order.increment_id), { errorCode: 'order_not_delivery' });
  // The latest trip the order rode on (a failed stop may have gone out again on a later trip).
  const stop = await db
    .selectFrom('trip_stops')
    .innerJoin('trips', 'trips.id', 'trip_stops.trip_id')
    .innerJoin('drivers', 'drivers.id', 'trips.driver_id')
    .select(['drivers.name', 'drivers.employee_number', 'trip_stops.outcome', 'trip_stops.outcome_at', 'trip_stops.signature_png'])
    .where('trip_stops.order_id', '=', order.id)
    .orderBy('trip_stops.id', 'desc')
    .executeTakeFirst();
  const confirmed = await db
    .selectFrom('order_events')
    .select(['actor_type', 'actor_id', 'actor_name'])
    .where('order_id', '=', order.id)
    .where('kind', '=', 'status')
    .where('to_status', '=', 'confirmed')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const place = store.dispensarySettings.place_info;
  const lines = (await linesOf(db, [order.id])).get(order.id) ?? [];
  const delivered = stop?.outcome === 'delivered' ? stop.outcome_at : order.status === 'completed' ? order.status_changed_at : null;
  return {
    retailer: {
      name: store.name,
      license_number: place.license_number,
      address: formatAddress({ address: place.address.street, city: place.address.city, region: place.address.region_code, zip: place.address.postcode }) ?? '',
      phone: place.phone,
    },
    order_id: order.id,
    order_number: order.increment_id,
    driver: stop ? { name: stop.name, employee_number: stop.employee_number } : null,
    preparer:
      confirmed && confirmed.actor_type === 'staff'
        ? { name: confirmed.actor_name ?? '', staff_number: confirmed.actor_id != null ? `S-${confirmed.actor_id}` : '' }
        : confirmed
          ? { name: confirmed.actor_type === 'system' ? 'Confirmed automatically' : (confirmed.actor_name ?? confirmed.actor_type), staff_number: '' }
          : null,
    customer: {
      first_name: firstName(order),
      customer_number: order.customer_id != null ? `C-${order.customer_id}` : null,
      type: customerType(order.license_type),
    },
    requested_at: order.created_at,
    address: placeOf(order).address,
    lines,
    totals: {
      subtotal_cents: order.subtotal_cents,
      discount_cents: order.discount_cents,
      excise_tax_cents: order.excise_tax_cents,
      sales_tax_cents: order.sales_tax_cents,
      delivery_fee_cents: order.shipping_cents,
      total_cents: order.total_cents,
    },
    delivered_at: delivered ?? null,
    outcome: stop?.outcome ?? null,
    signature_png: stop?.signature_png ?? null,
  };
}

// --- Export -------------------------------------------------------------------------------------

/** Every stop of the trips that started on the store-local days from … to, one line each, oldest first. */
export async function recordsExportCsv(db: Db, store: Store, from: string, to: string): Promise<string> {
  const tz = store.dispensarySettings.place_info.timezone;
  const rows = await db
    .selectFrom('trip_stops')
    .innerJoin('trips', 'trips.id', 'trip_stops.trip_id')
    .innerJoin('drivers', 'drivers.id', 'trips.driver_id')
    .innerJoin('vehicles', 'vehicles.id', 'trips.vehicle_id')
    .innerJoin('orders', 'orders.id', 'trip_stops.order_id')
    .selectAll('orders')
    .select([
      'trips.ledger_number',
      'trips.status as trip_status',
      'trips.started_at as trip_started_at',
      'trips.ended_at as trip_ended_at',
      'drivers.name as driver_name',
      'drivers.employee_number',
      'drivers.licence_number',
      'vehicles.make',
      'vehicles.model',
      'vehicles.plate',
      'trip_stops.position',
      'trip_stops.outcome',
      'trip_stops.outcome_at',
      'trip_stops.failed_reason',
      'trip_stops.id_document',
      'trip_stops.id_checked_at',
      'trip_stops.id_name_matches',
      'trip_stops.cash_cents',
    ])
    .select((eb) => eb.case().when('trip_stops.signature_png', 'is not', null).then(1).else(0).end().as('signed'))
    .where('trips.store_id', '=', store.storeId)
    .where('trips.started_at', '>=', dayStartUtc(from, tz))
    .where('trips.started_at', '<', dayStartUtc(nextDay(to), tz))
    .orderBy('trips.started_at')
    .orderBy('trips.id')
    .orderBy('trip_stops.position')
    .execute();
  const lines = await linesOf(db, rows.map((r) => r.id));
  const header = [
    'Ledger number',
    'Trip status',
    `Trip start (${tz})`,
    `Trip end (${tz})`,
    'Driver',
    'Employee number',
    "Driver's licence",
    'Vehicle',
    'Plate',
    'Stop',
    'Order',
    'Customer first name',
    'Customer number',
    'Customer type',
    `Requested (${tz})`,
    'Address',
    'City',
    'County',
    'ZIP',
    'Items',
    'Quantity',
    'Weight (g)',
    'Total',
    'Outcome',
    `Outcome time (${tz})`,
    'Failed reason',
    'ID document',
    `ID checked (${tz})`,
    'Name matches ID',
    'Signature kept',
    'Cash collected',
  ];
  return toCsv([
    header,
    ...rows.map((r) => {
      const o = r as unknown as Row<'orders'>;
      const place = placeOf(o);
      const l = lines.get(r.id) ?? [];
      return [
        r.ledger_number,
        r.trip_status,
        localStamp(r.trip_started_at, tz),
        localStamp(r.trip_ended_at, tz),
        r.driver_name,
        r.employee_number,
        r.licence_number,
        `${r.make} ${r.model}`,
        r.plate,
        r.position,
        r.increment_id,
        firstName(o),
        r.customer_id != null ? `C-${r.customer_id}` : null,
        customerType(r.license_type),
        localStamp(r.created_at, tz),
        place.address,
        place.city,
        place.county,
        place.zip,
        l.map((x) => `${x.qty} × ${x.name}${x.package_id ? ` [${x.package_id}]` : ''}`).join('; '),
        l.reduce((t, x) => t + x.qty, 0),
        csvNumber(grams(r.thc_equivalent_grams)),
        dollars(r.total_cents),
        r.outcome ?? '',
        localStamp(r.outcome_at, tz),
        r.failed_reason,
        r.id_document,
        localStamp(r.id_checked_at, tz),
        r.id_name_matches == null ? '' : r.id_name_matches ? 'yes' : 'no',
        Number(r.signed) ? 'yes' : 'no',
        r.cash_cents == null ? null : dollars(r.cash_cents),
      ] satisfies CsvCell[];
    }),
  ]);
}

// --- Retention ----------------------------------------------------------------------------------

export async function retentionYears(db: Db, store: Store): Promise<number> {
  return (await readSection(db, store, RECORD_RETENTION_SECTION)).value.years;
}

async function removeTrips(trx: Db, tripIds: readonly number[]): Promise<number> {
  if (tripIds.length === 0) return 0;
  // The driver's actions carry the signature in their payload: they go with the trip.
  await trx.deleteFrom('driver_actions').where('trip_id', 'in', [...tripIds]).execute();
  await trx.deleteFrom('trip_stops').where('trip_id', 'in', [...tripIds]).execute();
  const gone = await trx.deleteFrom('trips').where('id', 'in', [...tripIds]).executeTakeFirst();
  return Number(gone.numDeletedRows);
}

/**
 * Delete one trip: a planned trip (no record yet) at any time; a started one never; an ended one only
 * once it ended more than the retention period ago (409 `records_retained` naming the date). The
 * delete is guarded by the same conditions, so of parallel deletes exactly one removes it.
 */
export async function deleteTrip(db: Db, store: Store, tripId: number, now: Date): Promise<void> {
  const trip = await tripRow(db, store.storeId, tripId);
  const years = await retentionYears(db, store);
  const cutoff = retentionCutoff(now, years).toISOString();
  if (trip.status === 'started') throw new ApiError(409, PAPERWORK_MESSAGES.tripStarted(trip.ledger_number), { errorCode: 'trip_in_progress' });
  if (trip.status === 'ended' && !(trip.ended_at && trip.ended_at < cutoff)) {
    const until = new Date(Date.parse(trip.ended_at ?? now.toISOString()));
    until.setUTCFullYear(until.getUTCFullYear() + years);
    throw new ApiError(409, PAPERWORK_MESSAGES.retained(trip.ledger_number, years, until.toISOString().slice(0, 10)), {
      errorCode: 'records_retained',
      meta: { years, until: until.toISOString() },
    });
  }
  const removed = await db.transaction().execute(async (trx) => {
    // Claim the trip first (the row lock on PostgreSQL; SQLite writes one at a time): only a trip
    // still in the state checked above is deleted.
    const claimed = await trx
      .updateTable('trips')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', trip.id)
      .where((eb) =>
        eb.or([eb('status', '=', 'planned'), eb.and([eb('status', '=', 'ended'), eb('ended_at', '<', cutoff)])]),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return 0;
    return removeTrips(trx, [trip.id]);
  });
  if (removed !== 1) throw new ApiError(404, 'No such trip in this store.', { errorCode: 'trip_not_found' });
}

export interface PurgeResult {
  /** Trips removed per store id. */
  trips: Map<number, number>;
}

/**
 * Remove, per store, the ended trips whose end is older than the store's retention period: their
 * stops (with the ID check record and the signature image) and their driver actions go with them.
 * The orders stay (they are the store's sales records). Safe to run on several nodes at once: each
 * delete is by id, so a trip another node removed first is simply not counted twice.
 */
export async function purgeDeliveryRecords(db: Db, stores: readonly Store[], now: Date): Promise<PurgeResult> {
  const result: PurgeResult = { trips: new Map() };
  for (const store of stores) {
    const cutoff = retentionCutoff(now, await retentionYears(db, store)).toISOString();
    for (;;) {
      const ids = (
        await db
          .selectFrom('trips')
          .select('id')
          .where('store_id', '=', store.storeId)
          .where('status', '=', 'ended')
          .where('ended_at', '<', cutoff)
          .orderBy('id')
          .limit(200)
          .execute()
      ).map((t) => t.id);
      if (ids.length === 0) break;
      const removed = await db.transaction().execute((trx) => removeTrips(trx, ids));
      if (removed) result.trips.set(store.storeId, (result.trips.get(store.storeId) ?? 0) + removed);
      if (ids.length < 200) break;
    }
  }
  return result;
}
