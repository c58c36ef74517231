/**
 * `GET /api/order/slots?order_type=` (issue 14 "Hours and time slots"): whether the store takes an
 * order as soon as possible now, and the time slots with room. The server checks the chosen slot
 * again when the order is saved (a slot that filled meanwhile answers 409 with the message to show).
 */
import { callApi } from './envelope.ts';

export interface SlotOffer {
  start: string;
  end: string;
  /** The store-zone text, from the server (M/D/YYYY HH:mm – HH:mm). */
  label: string;
  remaining: number | null;
}

export interface SlotsAnswer {
  order_type: 'pickup' | 'delivery';
  status: { open: boolean; label: string; opensAt: string | null };
  asap: boolean;
  outside_hours: 'refuse' | 'next_slot';
  slots: SlotOffer[];
}

export function fetchSlots(orderType: 'pickup' | 'delivery'): Promise<SlotsAnswer> {
  return callApi<SlotsAnswer>('/api/order/slots', { method: 'GET', query: { order_type: orderType } });
}
