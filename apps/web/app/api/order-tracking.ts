/**
 * `POST /api/order-tracking {number, phone}` (issue 12): a guest's order by its number and the
 * phone it was placed with. The answer is the order's status and timeline and nothing else of the
 * customer's; any mismatch is one 404 text, and lookups are limited per address (429), both shown
 * as the server words them.
 */
import type { OrderKind, TimelineStep } from '@verdant/domain';
import { callApi } from './envelope.ts';

export interface TrackedOrder {
  increment_id: string;
  status: string;
  status_label: string;
  order_type: OrderKind;
  created_at: string;
  ready_by: string | null;
  timeline: TimelineStep[];
  cancel_message: string | null;
  /** The booked time slot (issue 14), label in the store's zone (`6/15/2026 13:00 – 13:30`); null: as soon as possible. */
  slot?: { start: string; end: string; label: string } | null;
  /** Issue 29: on a started trip, "Your driver is on the way — you are stop 3, about 25 minutes"; else null. */
  trip?: { stop: number; minutes: number; text: string } | null;
}

export interface TrackingQuery {
  number: string;
  phone: string;
}

export const trackOrder = (query: TrackingQuery) => callApi<TrackedOrder>('/api/order-tracking', { method: 'POST', body: query });
