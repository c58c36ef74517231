/**
 * The /order-tracking form (issue 12): a guest looks an order up by its number and the phone it
 * was placed with. One reader for the route action (no JavaScript needed) and the browser.
 */
import { FIELD_MESSAGES, MESSAGES, phoneRule } from '@verdant/domain';
import type { TrackedOrder, TrackingQuery } from '../api/order-tracking.ts';

export const TRACKING_FIELDS = { number: 'number', phone: 'phone' } as const;
export type TrackingField = keyof typeof TRACKING_FIELDS;

export const TRACKING_COPY = {
  title: 'Order tracking',
  lead: 'Enter your order number and the phone number you ordered with to see where your order is.',
  numberLabel: 'Order number',
  numberHint: 'On your confirmation, for example DO-100042.',
  phoneLabel: 'Phone number',
  submit: 'Track order',
  unavailable: 'Order tracking is not available right now. Please call the store.',
} as const;

export type TrackingErrors = Partial<Record<TrackingField, string>>;

/** What the action answers; the page renders it the same with or without JavaScript. */
export type TrackingResult =
  | { kind: 'invalid'; query: TrackingQuery; errors: TrackingErrors }
  | { kind: 'failed'; query: TrackingQuery; message: string }
  | { kind: 'found'; query: TrackingQuery; order: TrackedOrder };

/** The form's two fields, trimmed (the number upper-cased: `do-100042` is `DO-100042`), and their problems. */
export function readTrackingForm(form: Pick<FormData, 'get'>): { query: TrackingQuery; errors: TrackingErrors | null } {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v.trim().slice(0, 64) : '';
  };
  const query = { number: text(TRACKING_FIELDS.number).toUpperCase(), phone: text(TRACKING_FIELDS.phone) };
  const errors: TrackingErrors = {};
  if (!query.number) errors.number = MESSAGES.fieldRequired;
  if (!query.phone) errors.phone = MESSAGES.fieldRequired;
  else if (phoneRule(query.phone)) errors.phone = FIELD_MESSAGES.phone;
  return { query, errors: Object.keys(errors).length ? errors : null };
}

/** The status and text of a refusal the server worded for the shopper (404, 429), else null (a fault). */
export function refusalOf(error: unknown): { status: number; message: string } | null {
  if (!error || typeof error !== 'object') return null;
  const e = error as { statusCode?: unknown; status?: unknown; message?: unknown };
  const status = typeof e.statusCode === 'number' ? e.statusCode : typeof e.status === 'number' ? e.status : null;
  if (status == null || status < 400 || status >= 500 || typeof e.message !== 'string' || !e.message) return null;
  return { status, message: e.message };
}
