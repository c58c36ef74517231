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
  /** Migration 0031: the end of the trip (who ended it, cash expected from the delivered orders, cash handed in, a note on differences). */
  ended_by: string | null;
  cash_expected_cents: number | null;
  cash_collected_cents: number | null;
  end_note: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type StopOutcome = 'delivered' | 'failed';
export type StopFailedReason = 'no_valid_id' | 'not_home' | 'refused' | 'under_age' | 'other';
export type IdDocument = 'drivers_licence' | 'state_id' | 'passport' | 'military_id';

export interface TripStopsTable {
  id: Generated<number>;
  trip_id: number;
  order_id: number;
  /** 1, 2, … in the order the driver goes. */
  position: number;
  /** 1 while the trip is open, null once it ended: unique with order_id (an order on one open trip). */
  open: Defaulted<1 | null>;
  created_at: Timestamp;
  /** Migration 0031: null until the driver records the stop. */
  outcome: StopOutcome | null;
  outcome_at: Timestamp | null;
  /** The staff member's name, as the ledger shows it. */
  outcome_by: string | null;
  failed_reason: StopFailedReason | null;
  failed_note: string | null;
  /** The ID check at the door (delivered stops). */
  id_document: IdDocument | null;
  /** YYYY-MM-DD as read from the ID. */
  id_birth_date: string | null;
  id_name_matches: Flag | null;
  id_checked_at: Timestamp | null;
  /** data:image/png;base64,… of the customer's signature (at most 200 KB). */
  signature_png: string | null;
  /** Cash the driver collected for this order, entered at the end of the trip. */
  cash_cents: number | null;
  /** Set once, when a failed stop's goods went back in stock at the end of the trip. */
  restocked_at: Timestamp | null;
  /** Set once, when the "about 10 minutes away" message went out. */
  near_notified_at: Timestamp | null;
}

/** Migration 0031: every action a driver's phone sent, under the phone's own id (answered again on a retry, never applied twice). */
export interface DriverActionsTable {
  id: Generated<number>;
  store_id: number;
  action_id: string;
  staff_id: number | null;
  device_id: string | null;
  trip_id: number | null;
  kind: string;
  /** JSON as sent. */
  payload: string;
  answer_status: number;
  /** JSON answered the first time. */
  answer: string;
  /** When the driver did it, by the phone's clock. */
  taken_at: Timestamp | null;
  received_at: Timestamp;
}

/** Migration 0031: what each driver's phone last reported of its offline queue. */
export interface DriverDevicesTable {
  id: Generated<number>;
  store_id: number;
  device_id: string;
  staff_id: number | null;
  pending: Defaulted<number>;
  oldest_pending_at: Timestamp | null;
  seen_at: Timestamp;
}
