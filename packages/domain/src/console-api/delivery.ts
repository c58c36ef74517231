/**
 * The console's delivery routes (issue 29 "Drivers, vehicles, trips"; apps/server/src/delivery/console-routes.ts),
 * per store under /stores/:storeId. Managers and owners manage drivers, vehicles and trips
 * (`delivery:manage`); budtenders see them (`delivery:read`); a `driver` sees only its own trips
 * (`trips:read`, narrowed to the trips of the driver record linked to the member).
 * The trip limits are the settings section `delivery-trips` (GET/PUT /settings/sections/delivery-trips).
 */
import { z } from 'zod';
import type { TripLimitProblem, TripLimits } from '../delivery-trips.ts';
import { dbId } from './fields.ts';

const text = (field: string, max: number) =>
  z
    .string({ message: `${field} is required.` })
    .trim()
    .min(1, `${field} is required.`)
    .max(max, `${field} is at most ${max} characters.`);

/** GET /delivery/drivers, one driver of it, and every driver write's answer. */
export interface DriverView {
  id: number;
  name: string;
  employee_number: string;
  licence_number: string;
  /** The staff member (role `driver`) who logs in as this driver; null: none. */
  staff_id: number | null;
  active: boolean;
  created_at: string;
  updated_at: string;
}

/** POST /delivery/drivers. */
export const driverCreateBody = z
  .object({
    name: text('Name', 120),
    employee_number: text('Employee number', 40),
    licence_number: text("Driver's licence number", 40),
    staff_id: dbId('staff_id must be a staff id').nullable().optional(),
    active: z.boolean({ message: 'active is true or false.' }).optional(),
  })
  .strict();
/** PATCH /delivery/drivers/:driverId (only the fields given change). DELETE /delivery/drivers/:driverId: only a driver never on a trip (409 otherwise: deactivate instead). */
export const driverUpdateBody = driverCreateBody.partial().strict();
export type DriverCreateBody = z.input<typeof driverCreateBody>;

/** GET /delivery/vehicles, and every vehicle write's answer. */
export interface VehicleView {
  id: number;
  make: string;
  model: string;
  plate: string;
  active: boolean;
  created_at: string;
  updated_at: string;
}

/** POST /delivery/vehicles. */
export const vehicleCreateBody = z
  .object({
    make: text('Make', 60),
    model: text('Model', 60),
    plate: text('Plate', 16).transform((p) => p.toUpperCase()),
    active: z.boolean({ message: 'active is true or false.' }).optional(),
  })
  .strict();
/** PATCH /delivery/vehicles/:vehicleId. DELETE /delivery/vehicles/:vehicleId: only a vehicle never on a trip. */
export const vehicleUpdateBody = vehicleCreateBody.partial().strict();
export type VehicleCreateBody = z.input<typeof vehicleCreateBody>;

export const driverParams = z.object({ storeId: dbId(), driverId: dbId() });
export const vehicleParams = z.object({ storeId: dbId(), vehicleId: dbId() });
export const tripParams = z.object({ storeId: dbId(), tripId: dbId() });
export const tripStopParams = z.object({ storeId: dbId(), tripId: dbId(), orderId: dbId() });

/** An order as dispatch shows it (ready list and a trip's stops). */
export interface DeliveryOrderView {
  id: number;
  increment_id: string;
  status: string;
  customer_name: string;
  address: string;
  zip: string | null;
  /** Miles from the store to the ZIP's centre; null: a ZIP the table does not know. */
  miles: number | null;
  total_cents: number;
  weight_grams: number;
  slot_start: string | null;
  slot_end: string | null;
  ready_by: string | null;
}

/** GET /delivery/ready: confirmed delivery orders on no open trip, grouped by zone, then slot (ASAP: slot null). */
export interface DeliveryReady {
  zones: {
    /** The zone's name; "Outside the zones" when the ZIP falls in none any more. */
    zone: string;
    slots: { slot_start: string | null; slot_end: string | null; orders: DeliveryOrderView[] }[];
  }[];
  count: number;
}

export const TRIP_STATUSES = ['planned', 'started', 'ended'] as const;
export type TripStatusName = (typeof TRIP_STATUSES)[number];

/** GET /delivery/trips?status=: the store's trips, newest first (a driver: its own only). */
export const tripListQuery = z.object({
  status: z.enum(TRIP_STATUSES, { message: `status must be one of: ${TRIP_STATUSES.join(', ')}.` }).optional(),
});

/** GET /delivery/trips/:tripId and every trip write's answer. */
export interface TripView {
  id: number;
  ledger_number: string;
  status: TripStatusName;
  version: number;
  driver: { id: number; name: string; employee_number: string; licence_number: string };
  vehicle: { id: number; make: string; model: string; plate: string };
  created_by: string;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  /** The end of the trip (issue 29 "End of trip"): who ended it, cash expected from the delivered orders and handed in, the note. */
  ended_by: string | null;
  cash_expected_cents: number | null;
  cash_collected_cents: number | null;
  end_note: string | null;
  /** Each stop with what happened at the door (null: not yet) and the cash entered for it at the end. */
  stops: (DeliveryOrderView & {
    position: number;
    outcome: 'delivered' | 'failed' | null;
    failed_reason: 'no_valid_id' | 'not_home' | 'refused' | 'under_age' | 'other' | null;
    outcome_at: string | null;
    cash_cents: number | null;
  })[];
  /** What it carries now (orders' totals after deals; flower-equivalent grams). */
  load: { goods_cents: number; weight_grams: number; orders: number };
  limits: TripLimits;
  /** Limits the load is over now: the trip cannot start until it is empty. */
  over: TripLimitProblem[];
}

/** POST /delivery/trips: a planned trip; every order must be a confirmed delivery order on no open trip. */
export const tripCreateBody = z
  .object({
    driverId: dbId('driverId must be a driver id'),
    vehicleId: dbId('vehicleId must be a vehicle id'),
    orderIds: z.array(dbId('each order id must be an order id'), { message: 'orderIds is a list of order ids.' }).max(200).default([]),
  })
  .strict();
export type TripCreateBody = z.input<typeof tripCreateBody>;

/** POST /delivery/trips/:tripId/stops: add an order as the last stop (409 `order_on_trip` when it is on another open trip). DELETE /delivery/trips/:tripId/stops/:orderId: take it off. */
export const tripAddStopBody = z.object({ orderId: dbId('orderId must be an order id') }).strict();

/** PUT /delivery/trips/:tripId/stops: the new stop order, every order of the trip exactly once. */
export const tripReorderBody = z
  .object({ orderIds: z.array(dbId('each order id must be an order id'), { message: 'orderIds is a list of order ids.' }).min(1).max(200) })
  .strict();

/** GET /delivery/trips/:tripId/suggested-order: the stops nearest the store first (ZIP centres); send `orderIds` to PUT …/stops to use it. */
export interface TripSuggestedOrder {
  orderIds: number[];
  stops: { order_id: number; zip: string | null; miles: number | null }[];
}

/** POST /delivery/trips/:tripId/start: 400 `trip_over_limit` naming each limit and by how much; the orders go out for delivery. */
export const tripStartBody = z.object({}).strict();
