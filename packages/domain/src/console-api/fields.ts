/**
 * Request fields every console route shares (and the integration API with it): database ids and
 * calendar dates. The server validates with these schemas (apps/server/src/http/ids.ts and
 * dates.ts re-export them); the console may use their types.
 *
 * Ids (issue 26): every table id is a PostgreSQL `integer` (int4), so a number past 2^31 - 1 in an
 * id or a cursor made PostgreSQL fail the query (a 500) while SQLite simply found nothing. Every id
 * or id cursor a route takes goes through `dbId` (query strings and path parameters: digits only,
 * 1 … 2,147,483,647) or `isDbId` (ids decoded from an opaque cursor), so both databases answer the
 * same 400 with a message.
 *
 * Dates (issue 26): `YYYY-MM-DD`, a real day of the calendar, between 2000-01-01 and 2099-12-31 —
 * `from=9999-12-31` reached the store-zone day arithmetic, which steps past the year 9999 and
 * answered 500 "Invalid time value". No store has business outside this century.
 */
import { z } from 'zod';

/** The largest PostgreSQL `integer`, and so the largest id of any table. */
export const INT4_MAX = 2_147_483_647;

export const ID_MESSAGE = `must be a whole number from 1 to ${INT4_MAX}`;

export function isDbId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= INT4_MAX;
}

/**
 * A positive int4 id from a query string or path parameter (a number in a JSON body too), with
 * `message` (default: "… must be a whole number from 1 to 2147483647", behind the field's name).
 * The OpenAPI document shows it as an integer from 1 to 2147483647.
 */
export function dbId(message: string = ID_MESSAGE) {
  return z.coerce.number({ message }).int(message).min(1, message).max(INT4_MAX, message);
}

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

/** `{ storeId }`: the store of every /api/console/stores/:storeId/… route. */
export const storeParams = z.object({ storeId: dbId() });
