/**
 * The store's hours as the storefront shows them (issue 14 "Hours and time slots": "open now /
 * opens at" everywhere the store's hours are shown), from the store's hours settings — weekly hours
 * per order type and the dated exceptions (holidays) — which the server puts in the root data
 * (PublicStore.hours), so a page renders them without a request of its own.
 *
 * Decisions where the issue is silent:
 * - The store's opening hours are its pickup hours (a shopper walks in when pickup is open);
 *   delivery hours are shown where delivery is described.
 * - The week table lists the days the settings name, Monday first (as on a shop door and the stores
 *   file; the console saves Sunday first). A store without hours settings of its own gets the
 *   default section, derived from its opening hours (place_info.hours), so it shows what it showed.
 * - Exceptions in the next two weeks are listed under the table ("Thanksgiving 11/26/2026: Closed").
 */
import {
  formatDate,
  formatHoursRange,
  hoursFromOpeningHours,
  hoursStatus,
  zonedInstant,
  weekTable,
  type HoursEntry,
  type HoursException,
  type HoursOrderType,
  type HoursSettings,
  type HoursStatus,
} from '@verdant/domain';

/** How far ahead the pages list exceptions (the status line looks 16 days ahead itself). */
export const EXCEPTIONS_AHEAD_DAYS = 14;

/** The settings a page shows: the store's own, or the default from its opening hours. */
export function hoursOrDefault(hours: HoursSettings | null | undefined, openingHours: readonly HoursEntry[]): HoursSettings {
  return hours ?? hoursFromOpeningHours(openingHours);
}

/** `Open now · closes 9 PM` / `Closed · opens tomorrow 9 AM` for an order type at `now`, exceptions included. */
export function storeStatus(hours: HoursSettings, type: HoursOrderType, timeZone: string, now: Date): HoursStatus {
  return hoursStatus(hours, type, timeZone, now);
}

/** The weekly hours of an order type as the week table and summary show them, Monday first (domain, shared with the order's answer). */
export { weekTable };

/** Whether delivery keeps the pickup hours: the same week, and every exception for both or neither. */
export function sameHours(hours: HoursSettings): boolean {
  const week = (t: HoursOrderType) => JSON.stringify(weekTable(hours, t));
  return week('pickup') === week('delivery') && hours.exceptions.every((e) => e.order_types.length === 2);
}

export interface ExceptionLine {
  date: string;
  /** `11/26/2026` */
  shown: string;
  label: string;
  /** `Closed` or `10:00 AM – 2:00 PM` */
  hours: string;
}

/** The exceptions of an order type from today (store zone) for `days` days, in date order. */
export function upcomingExceptions(
  hours: HoursSettings,
  type: HoursOrderType,
  timeZone: string,
  now: Date,
  days = EXCEPTIONS_AHEAD_DAYS,
): ExceptionLine[] {
  const today = storeDate(now, timeZone);
  const last = storeDate(new Date(zonedInstant(today, 12 * 60, timeZone).getTime() + days * 86_400_000), timeZone);
  return hours.exceptions
    .filter((e) => e.order_types.includes(type) && e.date >= today && e.date <= last)
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((e) => exceptionLine(e, timeZone));
}

function exceptionLine(e: HoursException, timeZone: string): ExceptionLine {
  return {
    date: e.date,
    shown: formatDate(zonedInstant(e.date, 12 * 60, timeZone), timeZone),
    label: e.label,
    hours: e.closed ? 'Closed' : formatHoursRange(e.open!, e.close!),
  };
}

/** The store's calendar date (YYYY-MM-DD) of an instant, from the domain's M/D/YYYY formatter. */
function storeDate(at: Date, timeZone: string): string {
  const [m, d, y] = formatDate(at, timeZone).split('/');
  return `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
}
