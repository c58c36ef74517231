/**
 * Calendar dates in requests (`from`/`to` of the console's order queue and daily report, a medical
 * card's expiry): `YYYY-MM-DD`, a real day of the calendar, between 2000-01-01 and 2099-12-31.
 *
 * Why bounded (issue 26): `from=9999-12-31` reached the store-zone day arithmetic, which steps past
 * the year 9999 and answered 500 "Invalid time value". No store has business outside this century,
 * so anything else is refused as 400 with a message before any handler runs.
 */
import { z } from 'zod';

export const DATE_MIN = '2000-01-01';
export const DATE_MAX = '2099-12-31';

export const DATE_MESSAGES = {
  format: 'Dates are YYYY-MM-DD.',
  notADate: 'Not a date.',
  range: `Dates must be between ${DATE_MIN} and ${DATE_MAX}.`,
} as const;

/** Whether `YYYY-MM-DD` names a real day (not 2026-02-30, which `Date.parse` rolls into March). */
export function isCalendarDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === date;
}

/** A request's calendar date; the first problem found is the 400's message. */
export const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, DATE_MESSAGES.format)
  .refine(isCalendarDate, DATE_MESSAGES.notADate)
  .refine((d) => d >= DATE_MIN && d <= DATE_MAX, DATE_MESSAGES.range);
