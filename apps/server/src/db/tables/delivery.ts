/**
 * Row types of delivery trips (migration 0029, issue 29): a store's drivers and vehicles, its trips
 * and their stops. Conventions are in ../schema.ts; what each column means: the migration.
 */
import type { Generated } from 'kysely';
import type { Defaulted, Flag, Timestamp } from './common.ts';

export interface DriversTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  employee_number: string;
  /** The driver's licence number (the CA delivery inventory ledger names it). */
  licence_number: string;
  /** The staff member (role `driver`) who logs in as this driver; null: no login. */
  staff_id: number | null;
  active: Defaulted<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VehiclesTable {
  id: Generated<number>;
  store_id: number;
  make: string;
  model: string;
  /** Unique per store. */
  plate: string;
  active: Defaulted<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type TripStatus = 'planned' | 'started' | 'ended';

export interface TripsTable {
  id: Generated<number>;
  store_id: number;
  /** Unique per store: the delivery inventory ledger's number. */
  ledger_number: string;
  driver_id: number;
  vehicle_id: number;
  status: TripStatus;
  version: Defaulted<number>;
  created_by: string;
  started_at: Timestamp | null;
  ended_at: Timestamp | null;
  /** What the trip carried when it started (orders' totals after deals; flower-equivalent grams). */
  goods_cents: number | null;
  weight_grams: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TripStopsTable {
  id: Generated<number>;
  trip_id: number;
  order_id: number;
  /** 1, 2, … in the order the driver goes. */
  position: number;
  /** 1 while the trip is open, null once it ended: unique with order_id (an order on one open trip). */
  open: Defaulted<1 | null>;
  created_at: Timestamp;
}
