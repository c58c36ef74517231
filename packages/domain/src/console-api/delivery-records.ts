/**
 * Delivery paperwork (issue 29 "Paperwork"; apps/server/src/delivery/paperwork-routes.ts), per
 * store under /stores/:storeId/delivery-records. Every record is built from the current rows each
 * time it is read (the ledger is "updated at each stop"); nothing is copied into another table.
 *
 *   GET /delivery-records/trips/:tripId/manifest, GET /delivery-records/trips/:tripId/manifest.csv
 *       trips:read      the trip manifest / delivery inventory ledger (a driver: its own trip only)
 *   GET /delivery-records/end-of-day?date=, GET /delivery-records/end-of-day.csv?date=
 *       delivery:read   one record per delivery completed that store-local day
 *   GET /delivery-records/orders/:orderId/receipt
 *       delivery:read   the delivery request receipt of one delivery order
 *   GET /delivery-records/export.csv?from=&to=
 *       delivery:read   every delivery record (one line per stop) of trips started in the range
 *   DELETE /delivery-records/trips/:tripId
 *       delivery:manage a trip: refused (409 records_retained) inside the retention period
 *
 * The retention period is the settings section `record-retention` (GET/PUT /settings/sections/record-retention).
 * Package ids: the menu's `package_id` (and `batch_number`) of the item's product as the menu holds it
 * now — the order line keeps no copy — so null when the menu has none or the product is gone.
 */
import { z } from 'zod';
import { dateSchema, dbId } from './fields.ts';

/** Customer type on the records: adult-use (the order's licence type `recreational`) or medical. */
export type RecordCustomerType = 'adult-use' | 'medical';

export interface RecordLine {
  sku: string;
  name: string;
  qty: number;
  /** The unit the line is sold in: `g` (weighed) or `ea`. */
  uom: string;
  /** The menu's package tag / batch of the product (null: the menu has none). */
  package_id: string | null;
  batch_number: string | null;
  price_cents: number;
  row_total_cents: number;
  /** Flower-equivalent grams of the line. */
  weight_grams: number;
}

export interface ManifestStop {
  position: number;
  order_id: number;
  order_number: string;
  customer_first_name: string;
  customer_type: RecordCustomerType;
  address: string;
  city: string | null;
  zip: string | null;
  /** null: not yet recorded. */
  outcome: 'delivered' | 'failed' | null;
  outcome_at: string | null;
  failed_reason: string | null;
  goods_cents: number;
  weight_grams: number;
  lines: RecordLine[];
}

/** GET /delivery-records/trips/:tripId/manifest. */
export interface TripManifest {
  ledger_number: string;
  status: 'planned' | 'started' | 'ended';
  store: { name: string; license_number: string; timezone: string };
  driver: { name: string; employee_number: string; licence_number: string };
  vehicle: { make: string; model: string; plate: string };
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  /** Goods still in the vehicle (stops not delivered) and the whole load, value and flower-equivalent weight. */
  carried: { goods_cents: number; weight_grams: number; orders: number };
  load: { goods_cents: number; weight_grams: number; orders: number };
  stops: ManifestStop[];
  /** When this was read: the ledger is built from the rows at this moment. */
  as_of: string;
}

export interface EndOfDayRecord {
  trip_ledger_number: string | null;
  order_id: number;
  order_number: string;
  completed_at: string;
  customer_type: RecordCustomerType;
  quantity: number;
  /** Each line as `qty × name [package]`. */
  items: string;
  price_cents: number;
  city: string | null;
  /** From the address when it holds one; the ZIP table has no county (see docs/operators/delivery.md). */
  county: string | null;
  zip: string | null;
}

/** GET /delivery-records/end-of-day?date=YYYY-MM-DD (the store's calendar day). */
export interface EndOfDay {
  date: string;
  timezone: string;
  records: EndOfDayRecord[];
}
export const endOfDayQuery = z.object({ date: dateSchema }).strict();

/** GET /delivery-records/orders/:orderId/receipt. */
export interface DeliveryReceipt {
  retailer: { name: string; license_number: string; address: string; phone: string };
  order_id: number;
  order_number: string;
  /** The driver who carried it (null: on no trip yet). */
  driver: { name: string; employee_number: string } | null;
  /** The staff member who confirmed (prepared) it, from the order's history; `staff_number` is the staff id. */
  preparer: { name: string; staff_number: string } | null;
  customer: { first_name: string; customer_number: string | null; type: RecordCustomerType };
  requested_at: string;
  address: string;
  lines: RecordLine[];
  totals: {
    subtotal_cents: number;
    discount_cents: number;
    excise_tax_cents: number;
    sales_tax_cents: number;
    delivery_fee_cents: number;
    total_cents: number;
  };
  delivered_at: string | null;
  outcome: 'delivered' | 'failed' | null;
  /** data:image/png;base64,… of the customer's signature; null: none (yet, or purged). */
  signature_png: string | null;
}

/** GET /delivery-records/export.csv?from=&to= (store-local days, trips by start day; at most 400 days). */
export const RECORDS_EXPORT_MAX_DAYS = 400;
export const recordsExportQuery = z
  .object({ from: dateSchema, to: dateSchema })
  .strict()
  .refine((q) => q.from <= q.to, 'from must not be after to.')
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < RECORDS_EXPORT_MAX_DAYS, `At most ${RECORDS_EXPORT_MAX_DAYS} days per export.`);

export const recordsTripParams = z.object({ storeId: dbId(), tripId: dbId() });
export const recordsOrderParams = z.object({ storeId: dbId(), orderId: dbId() });

/** GET /delivery-records/trips: recent trips for the records page (newest first). */
export interface RecordsTripItem {
  id: number;
  ledger_number: string;
  status: 'planned' | 'started' | 'ended';
  driver_name: string;
  started_at: string | null;
  ended_at: string | null;
  stops: { order_id: number; order_number: string; outcome: 'delivered' | 'failed' | null }[];
}
