/**
 * Curbside pickup (issue 29 "The shopper"): the store setting `curbside` (offered or not, its bays,
 * what the shopper is told) and the words of the shopper's "I'm here" page. The server
 * (apps/server/src/orders/curbside/) records the arrival once; the console shows it live.
 * The zod schemas are in ./curbside-schema.ts: the shopper's page imports this module, and zod stays
 * on the server and in the console (apps/server/src/console/bundles.test.ts).
 */
export interface CurbsideSettings {
  /** Whether the store offers curbside pickup (default: no). */
  offered: boolean;
  /** The numbered parking bays the shopper may pick (empty: the shopper describes the car only). */
  bays: string[];
  /** Shown on the "I'm here" page, e.g. "Park in a marked bay by the side door." */
  instructions: string;
}

export const DEFAULT_CURBSIDE_SETTINGS: CurbsideSettings = { offered: false, bays: [], instructions: '' };

export const CURBSIDE_CAR_MAX = 120;

/** What the shopper reads when the link cannot be used, and the form's errors. */
export const CURBSIDE_MESSAGES = {
  badLink: 'This link does not work. Please open the link in the latest message from the store.',
  expired: 'This link has expired. Please call the store or come inside to pick up your order.',
  notOffered: 'This store does not offer curbside pickup right now. Please come inside to pick up your order.',
  notReady: 'Your order is not ready yet. We will send you a message with a new link when it is ready for pickup.',
  completed: 'This order was already picked up. Thank you!',
  cancelled: 'This order was cancelled, so there is nothing to pick up.',
  notPickup: 'This order is a delivery order: there is nothing to pick up at the store.',
  carOrBay: 'Please describe your car or choose your bay.',
  carTooLong: `Please describe your car in at most ${CURBSIDE_CAR_MAX} characters.`,
  unknownBay: 'Please choose one of the bays listed.',
} as const;

/** The arrival as the console and the shopper's page show it. */
export interface CurbsideArrival {
  /** ISO: the first "I'm here" (a later one changes the car or bay, never this). */
  arrived_at: string;
  car: string | null;
  bay: string | null;
}

/** GET /api/curbside/:token. */
export interface CurbsideView {
  increment_id: string;
  store_name: string;
  /** The store's IANA time zone (the arrival time is shown in it). */
  timezone: string;
  /** Whether "I'm here" may be sent now; when not, `message` says why. */
  open: boolean;
  message: string | null;
  bays: string[];
  instructions: string;
  arrival: CurbsideArrival | null;
}
