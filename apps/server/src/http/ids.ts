/**
 * Ids and id cursors in requests (issue 26): every table id is a PostgreSQL `integer` (int4), so a
 * number past 2^31 - 1 in an id or a cursor made PostgreSQL fail the query (a 500) while SQLite
 * simply found nothing. Every id or id cursor a route takes goes through `dbId` (query strings and
 * path parameters: digits only, 1 … 2,147,483,647) or `isDbId` (ids decoded from an opaque
 * cursor), so both databases answer the same 400 with a message.
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
