/**
 * Idempotency keys of order saves. The key row is inserted first thing inside the order's
 * transaction and completed with the response in the same transaction, so another request only
 * ever sees no key (go ahead) or a completed one (replay it). Two requests racing on one key:
 * PostgreSQL makes the second insert wait for the first transaction, then fail on the unique
 * index; SQLite runs the transactions one after the other. Either way the loser reads the
 * winner's row and answers with its response. A failed order leaves no key behind (rollback),
 * so a retry is judged again.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Row } from '../db/schema.ts';
import { BODY_MESSAGES, MAX_JSON_DEPTH } from '../http/body-policy.ts';
import { ApiError } from '../http/envelope.ts';
import { CART_MESSAGES as M } from '../cart/messages.ts';

export const ORDER_SCOPE = 'order.save';

/**
 * JSON with sorted keys: the same payload always hashes the same. Bodies deeper than
 * MAX_JSON_DEPTH are refused by the JSON parser already (http/body-policy.ts); a value that got
 * here another way is a 400 too, never a stack overflow.
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (value && typeof value === 'object' && depth >= MAX_JSON_DEPTH)
    throw new ApiError(400, BODY_MESSAGES.tooDeep, { errorCode: 'body_too_deep' });
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestHash(storeId: number, payload: unknown): string {
  return createHash('sha256').update(`${storeId}\n${canonicalJson(payload)}`).digest('hex');
}

export function findKey(db: Kysely<Database>, key: string): Promise<Row<'idempotency_keys'> | undefined> {
  return db.selectFrom('idempotency_keys').selectAll().where('scope', '=', ORDER_SCOPE).where('key', '=', key).executeTakeFirst();
}

export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** The first answer for this key, or 422 when the key was used for another payload (or store). */
export function replay(row: Row<'idempotency_keys'>, storeId: number, hash: string): StoredAnswer {
  if (row.store_id !== storeId || row.request_hash !== hash) throw new ApiError(422, M.idempotencyKeyReused);
  if (row.status !== 'completed' || row.response == null) throw new ApiError(409, 'This order is still being placed; try again in a moment.');
  return { status: row.http_status ?? 200, body: JSON.parse(row.response) };
}

/** A unique-index violation on either dialect (pg 23505, SQLite SQLITE_CONSTRAINT_UNIQUE / PRIMARYKEY). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  if (e.code === '23505') return true;
  return typeof e.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT') && /UNIQUE|PRIMARY/i.test(`${e.code} ${String(e.message)}`);
}
