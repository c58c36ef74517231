/**
 * The driver's phone and the end of a trip (issue 29 "The driver's phone"), per store under
 * /stores/:storeId (server: apps/server/src/delivery/driver-routes.ts; the phone view:
 * apps/console/src/routes/driver*.tsx).
 *
 * Every action the phone takes goes through one route, POST /delivery/actions, under an `action_id`
 * the phone makes (a UUID) when the driver taps. The phone keeps actions it could not send (a dead
 * zone) in its own queue and sends them again, in order, when the network returns; the server keeps
 * the first answer to each `action_id` (table driver_actions) and gives it again to a retry, so an
 * action is never lost and never applied twice, even when the same action arrives twice at once.
 * The phone also reports how many actions still wait on it (POST /delivery/devices/report) so the
 * console can show what is pending from each phone.
 */
import { z } from 'zod';
import type { TripView } from './delivery.ts';
import { dbId } from './fields.ts';

export const STOP_FAILED_REASONS = ['no_valid_id', 'not_home', 'refused', 'under_age', 'other'] as const;
export type StopFailedReasonName = (typeof STOP_FAILED_REASONS)[number];
export const STOP_FAILED_REASON_LABELS: Readonly<Record<StopFailedReasonName, string>> = {
  no_valid_id: 'No valid ID',
  not_home: 'Not home',
  refused: 'Refused',
  under_age: 'Under age',
  other: 'Other',
};

export const ID_DOCUMENTS = ['drivers_licence', 'state_id', 'passport', 'military_id'] as const;
export type IdDocumentName = (typeof ID_DOCUMENTS)[number];
export const ID_DOCUMENT_LABELS: Readonly<Record<IdDocumentName, string>> = {
  drivers_licence: "Driver's licence",
  state_id: 'State ID card',
  passport: 'Passport',
  military_id: 'Military ID',
};

/** A signature as the phone draws it: a PNG data URL, at most this many characters. */
export const SIGNATURE_MAX_CHARS = 200_000;

const isoDate = z.string({ message: 'Birth date is YYYY-MM-DD.' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Birth date is YYYY-MM-DD.');

/** The ID check at the door: the server checks the age on the store's date today and that the name matches. */
export const idCheckBody = z
  .object({
    document: z.enum(ID_DOCUMENTS, { message: `document must be one of: ${ID_DOCUMENTS.join(', ')}.` }),
    birth_date: isoDate,
    name_matches: z.literal(true, { message: 'Confirm that the name on the ID is the name on the order.' }),
    /** Medical orders: the medical card was checked too. */
    medcard_checked: z.boolean().optional(),
  })
  .strict();

const actionBase = {
  /** The phone's id for this action (a UUID), the same on every retry. */
  action_id: z.string().uuid('action_id must be a UUID.'),
  /** The phone (a random id kept on it), to show what is pending per phone. */
  device_id: z.string().min(8).max(64).optional(),
  /** When the driver did it, by the phone's clock (ISO-8601). */
  taken_at: z.string().datetime({ offset: true, message: 'taken_at is an ISO-8601 time.' }).optional(),
  trip_id: dbId('trip_id must be a trip id'),
};

export const driverActionBody = z.discriminatedUnion(
  'kind',
  [
    /** Start a planned trip (as POST /delivery/trips/:tripId/start: limits checked, orders go out). */
    z.object({ ...actionBase, kind: z.literal('start') }).strict(),
    /** Delivered: the ID check and the customer's signature; the order is completed. */
    z
      .object({
        ...actionBase,
        kind: z.literal('deliver'),
        order_id: dbId('order_id must be an order id'),
        id_check: idCheckBody,
        signature_png: z
          .string({ message: 'The customer must sign.' })
          .startsWith('data:image/png;base64,', 'The signature must be a PNG image.')
          .max(SIGNATURE_MAX_CHARS, 'The signature image is too large.'),
      })
      .strict(),
    /** Failed: the goods stay on the trip and go back in stock once the trip ends. */
    z
      .object({
        ...actionBase,
        kind: z.literal('fail'),
        order_id: dbId('order_id must be an order id'),
        reason: z.enum(STOP_FAILED_REASONS, { message: 'Choose why the delivery failed.' }),
        note: z.string().trim().max(500).optional(),
      })
      .strict(),
    /** End the trip: cash collected per delivered order; failed stops' goods go back in stock (once). */
    z
      .object({
        ...actionBase,
        kind: z.literal('end'),
        cash: z.array(z.object({ order_id: dbId(), cash_cents: z.number().int().min(0).max(100_000_000) }).strict()).max(200),
        note: z.string().trim().max(1000).optional(),
      })
      .strict(),
  ],
  { message: 'kind must be one of: start, deliver, fail, end.' },
);
export type DriverActionBody = z.input<typeof driverActionBody>;

/** The answer to an action (the first time and on every retry of the same action_id). */
export interface DriverActionAnswer {
  action_id: string;
  /** true when this answer was given before (a retry). */
  replayed: boolean;
  trip: TripView;
}

/** POST /delivery/devices/report: what still waits on the phone. */
export const deviceReportBody = z
  .object({
    device_id: z.string().min(8).max(64),
    pending: z.number().int().min(0).max(10_000),
    oldest_pending_at: z.string().datetime({ offset: true }).nullable(),
  })
  .strict();

/** GET /delivery/devices: each phone's last report (managers and dispatch). */
export interface DriverDeviceView {
  device_id: string;
  staff_id: number | null;
  staff_name: string | null;
  pending: number;
  oldest_pending_at: string | null;
  seen_at: string;
}

/** A stop as the driver's phone shows it (GET /delivery/my-trips): the order's goods and how to reach the customer. */
export interface DriverStopView {
  order_id: number;
  increment_id: string;
  position: number;
  customer_first_name: string;
  address: string;
  /** A maps link for the address (no outside service is called by Verdant). */
  navigation_url: string;
  /** tel:/sms: links: the customer's number, or the store's when the store keeps customers' numbers from drivers. */
  call_url: string;
  text_url: string;
  license_type: 'recreational' | 'medical';
  items: { name: string; size: string | null; qty: number; package_id: string | null }[];
  total_cents: number;
  outcome: 'delivered' | 'failed' | null;
  failed_reason: StopFailedReasonName | null;
  outcome_at: string | null;
}
