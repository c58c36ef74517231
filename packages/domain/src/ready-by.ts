/**
 * The ready-by time staff give when confirming an order (issue 26: Confirm offered now + 20 minutes
 * at 4:52 AM with the store closed, and the shopper read "Ready for pickup by 04:53. Pickup 09:00 -
 * 09:30"). The rule:
 *  - the default is the start of the slot the shopper booked; without a (future) slot, twenty
 *    minutes from now (rounded up to five) if the store is open then; otherwise the next opening;
 *  - a ready-by when the store is closed for the order's type (weekly hours and exceptions of the
 *    store setting `hours`) is refused unless staff tick "Store closed — confirm anyway".
 * A ready-by exactly at closing time counts as open (the order is ready as the door closes).
 */
import { hoursStatus, openIntervals, type HoursOrderType } from './hours/slots.ts';
import type { HoursSettings } from './hours/schema.ts';
import { todayInZone } from './forms.ts';

export const READY_BY_PREP_MINUTES = 20;

export type ReadyByBasis = 'slot' | 'soon' | 'next_open';

export interface ReadyByPlan {
  /** ISO instant the confirm form starts with. */
  default: string;
  basis: ReadyByBasis;
  /** Whether the store is open now for the order's type. */
  open_now: boolean;
  /** `Open now · closes 9 PM` / `Closed · opens 9 AM` (hours/slots.ts). */
  status_label: string;
  /** The store's opening intervals from yesterday over the next days (ISO), for the form to warn before the server refuses. */
  open: { start: string; end: string }[];
}

export const READY_BY_MESSAGES = {
  storeClosed: (label: string) =>
    `The store is closed at that ready-by time (${label}). Choose a time when it is open, or tick “Store closed — confirm anyway”.`,
  /** The integration API's wording: the POS insists with a field, not a checkbox. */
  storeClosedApi: (label: string) =>
    `The store is closed at that ready-by time (${label}). Choose a time when it is open, or send confirm_closed: true to confirm anyway.`,
} as const;

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

function intervalsAround(settings: HoursSettings, type: HoursOrderType, timeZone: string, at: Date, days: number) {
  return openIntervals(settings, type, timeZone, addDays(todayInZone(at, timeZone), -1), days + 1);
}

/** Whether the store is open for the order type at an instant (closing time included). */
export function openAt(settings: HoursSettings, type: HoursOrderType, timeZone: string, at: Date): boolean {
  const t = at.getTime();
  return intervalsAround(settings, type, timeZone, at, 2).some((i) => i.start.getTime() <= t && t <= i.end.getTime());
}

/** What the confirm form offers for an order, at `now`. */
export function readyByPlan(
  settings: HoursSettings,
  type: HoursOrderType,
  timeZone: string,
  now: Date,
  slotStart: string | null | undefined,
): ReadyByPlan {
  const status = hoursStatus(settings, type, timeZone, now);
  const intervals = intervalsAround(settings, type, timeZone, now, 16);
  const open = intervals.filter((i) => i.end.getTime() > now.getTime()).slice(0, 8);
  const plan = (at: Date, basis: ReadyByBasis): ReadyByPlan => ({
    default: at.toISOString(),
    basis,
    open_now: status.open,
    status_label: status.label,
    open: open.map((i) => ({ start: i.start.toISOString(), end: i.end.toISOString() })),
  });
  const slot = slotStart ? Date.parse(slotStart) : NaN;
  if (Number.isFinite(slot) && slot > now.getTime()) return plan(new Date(slot), 'slot');
  const step = 5 * 60_000;
  const soon = new Date(Math.ceil((now.getTime() + READY_BY_PREP_MINUTES * 60_000) / step) * step);
  if (openAt(settings, type, timeZone, soon)) return plan(soon, 'soon');
  const next = intervals.find((i) => i.start.getTime() > now.getTime());
  return next ? plan(next.start, 'next_open') : plan(soon, 'soon');
}
