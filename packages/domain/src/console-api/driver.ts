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
          .max(SIGNATURE_MAX_CHARS, 'The signature image is too large.')
          // The bare prefix (an empty pad) is no signature.
          .regex(/^data:image\/png;base64,[A-Za-z0-9+/]{16,}={0,2}$/, 'The customer must sign.'),
      })
      .strict(),
    /** Failed: the goods stay on the trip and go back in stock once the trip ends. */
    z
      .object({
        ...actionBase,
        kind: z.literal('fail'),
        order_id: dbId('order_id must be an order id'),
        reason: z.enum(STOP_FAILED_REASONS, { message: 'Choose why the delivery failed.' }),
        /** Required when the reason is `other` (the server says so in plain words). */
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

/** The words of refusals the phone shows (the server's; the phone may check the same before sending). */
export const DRIVER_MESSAGES = {
  noteRequired: 'Say in a note why the delivery failed (reason "Other").',
  underAge: (age: number) => `The customer is ${age} on this day: the order cannot be handed over. Mark the stop failed (under age).`,
  underMedicalAge: (age: number, min: number) =>
    `The customer is ${age} on this day, under this store's minimum age of ${min} for medical orders: the order cannot be handed over. Mark the stop failed (under age).`,
  badBirthDate: 'The birth date on the ID is not a real date in the past: check it and enter it again.',
  medcardRequired: "This is a medical order: check the customer's medical card and confirm it before handing over.",
} as const;

/** The note a failed stop needs (reason `other`); null when fine. */
export function failNoteProblem(reason: StopFailedReasonName, note: string | undefined): string | null {
  return reason === 'other' && !(note ?? '').trim() ? DRIVER_MESSAGES.noteRequired : null;
}

/** One order at the end of a trip: what it should bring in against what the driver handed in. */
export interface TripEndOrder {
  order_id: number;
  increment_id: string;
  outcome: 'delivered' | 'failed';
  /** The order's total for a delivered order (paid on delivery), 0 for a failed one. */
  expected_cents: number;
  collected_cents: number;
  /** collected − expected: negative is short. */
  difference_cents: number;
  /** Failed stops: the order was cancelled and its goods went back in stock at this end. */
  restocked: boolean;
}

/** The end of a trip (the `end` action, POST /delivery/trips/:tripId/end): cash against the orders, per order. */
export interface TripEndSummary {
  cash_expected_cents: number;
  cash_collected_cents: number;
  difference_cents: number;
  orders: TripEndOrder[];
  /** Only the orders whose collected cash differs from what was expected. */
  differences: TripEndOrder[];
}

/** The answer to an action (the first time and on every retry of the same action_id). */
export interface DriverActionAnswer {
  action_id: string;
  /** true when this answer was given before (a retry). */
  replayed: boolean;
  trip: TripView;
  /** Only for `end`. */
  end?: TripEndSummary;
}

/**
 * POST /delivery/trips/:tripId/end (managers and owners, from the console): the same end as the
 * phone's `end` action, without an action id (a second end is refused: the trip has ended).
 */
export const tripEndBody = z
  .object({
    cash: z.array(z.object({ order_id: dbId(), cash_cents: z.number().int().min(0).max(100_000_000) }).strict()).max(200),
    note: z.string().trim().max(1000).optional(),
  })
  .strict();
export type TripEndBody = z.input<typeof tripEndBody>;
/** Its answer. */
export interface TripEndAnswer {
  trip: TripView;
  end: TripEndSummary;
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

/** A trip as the driver's phone shows it: the trip, its stops as DriverStopView. */
export type DriverTripView = Omit<TripView, 'stops'> & { stops: DriverStopView[] };

/** GET /delivery/my-trips (a driver login): its planned and started trips, and those that ended today (store's day), newest first. */
export interface DriverMyTrips {
  items: DriverTripView[];
}
