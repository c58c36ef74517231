/**
 * Idempotency keys of the integration API: every POST/DELETE carries `Idempotency-Key`; the first
 * request with a key does the work and its answer is kept; a repeat with the same key and the same
 * request (method, path, body) gets that answer again without anything being done twice; the same
 * key with a different request is refused 422. Keys are scoped per API key (api_idempotency,
 * migration 0014) and kept 24 hours.
 *
 * Claim first: the work of a route runs in transactions of its own (the import engine, the order
 * lifecycle, the webhook engine), so the key cannot share them. Instead a `pending` row is
 * inserted before the work (the unique index on (api_key_id, key) lets exactly one request win,
 * on both databases, across nodes) and completed with the answer after it. A request that finds a
 * pending row waits for it to complete (polling the row; in-process copies simply await the first
 * one's promise) and then replays it, so ten copies sent at once apply once and all get the same
 * answer. When the work fails unexpectedly (a 5xx) the claim is removed, so a retry is judged
 * again; a 4xx answer is kept and replayed (the request was judged; sending it again will not
 * change the verdict). A claim left pending by a node that died mid-request is taken over after
 * STALE_PENDING_MS — the one case where work could run twice, and only after a crash.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Row } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { canonicalJson, isUniqueViolation } from '../orders/idempotency.ts';

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const KEEP_MS = 24 * 60 * 60 * 1000;
export const STALE_PENDING_MS = 60_000;
/** How long a copy waits for the first request's answer before saying "still running" (409). */
const WAIT_MS = 30_000;
const POLL_MS = 20;

export const IDEMPOTENCY_MESSAGES = {
  missing: 'Send an Idempotency-Key header (1–255 printable characters) with every write, so a retry is never applied twice.',
  reused: 'This Idempotency-Key was already used for a different request; use a new key for a new request.',
  running: 'A request with this Idempotency-Key is still running; try again in a moment.',
} as const;

export interface Answer {
  status: number;
  body: unknown;
}

export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

export function idempotencyKeyOf(header: unknown): string {
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header))
    throw new ApiError(400, IDEMPOTENCY_MESSAGES.missing, { errorCode: 'idempotency_key_required' });
  return header;
}

/** In-process copies of one request wait on the first one's promise instead of polling the database. */
const inFlight = new Map<string, Promise<Answer>>();

export async function idempotent(
  db: Kysely<Database>,
  apiKeyId: number,
  key: string,
  hash: string,
  now: () => Date,
  work: () => Promise<Answer>,
): Promise<Answer> {
  const local = `${apiKeyId}\n${key}`;
  const running = inFlight.get(local);
  if (running) {
    await running.catch(() => undefined);
  }
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const claimed = await claim(db, apiKeyId, key, hash, now());
    if (claimed === 'claimed') {
      const p = runClaimed(db, apiKeyId, key, work);
      inFlight.set(local, p);
      try {
        return await p;
      } finally {
        if (inFlight.get(local) === p) inFlight.delete(local);
      }
    }
    if (claimed.request_hash !== hash) throw new ApiError(422, IDEMPOTENCY_MESSAGES.reused, { errorCode: 'idempotency_key_reused' });
    if (claimed.status === 'completed') return { status: claimed.http_status ?? 200, body: JSON.parse(claimed.response ?? 'null') };
    // The claim's time is on the app's clock (tests pin it), so judge its age on the same clock.
    if (now().getTime() - Date.parse(claimed.created_at) > STALE_PENDING_MS) {
      // Left behind by a node that died mid-request: take it over.
      await db.deleteFrom('api_idempotency').where('id', '=', claimed.id).where('status', '=', 'pending').execute();
      continue;
    }
    if (Date.now() > deadline)
      throw new ApiError(409, IDEMPOTENCY_MESSAGES.running, { errorCode: 'idempotency_key_running', retryAfterSeconds: 1 });
    const other = inFlight.get(local);
    if (other) await other.catch(() => undefined);
    else await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function claim(
  db: Kysely<Database>,
  apiKeyId: number,
  key: string,
  hash: string,
  at: Date,
): Promise<'claimed' | Row<'api_idempotency'>> {
  try {
    await db
      .insertInto('api_idempotency')
      .values({ api_key_id: apiKeyId, key, request_hash: hash, status: 'pending', created_at: at.toISOString() })
      .execute();
    return 'claimed';
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const row = await db
    .selectFrom('api_idempotency')
    .selectAll()
    .where('api_key_id', '=', apiKeyId)
    .where('key', '=', key)
    .executeTakeFirst();
  // Deleted between our insert and read (its request failed): try to claim again.
  return row ?? claim(db, apiKeyId, key, hash, at);
}

async function runClaimed(db: Kysely<Database>, apiKeyId: number, key: string, work: () => Promise<Answer>): Promise<Answer> {
  let answer: Answer;
  try {
    answer = await work();
  } catch (error) {
    if (error instanceof ApiError && error.statusCode < 500) {
      answer = { status: error.statusCode, body: errorBody(error) };
      await complete(db, apiKeyId, key, answer);
      throw error;
    }
    await db
      .deleteFrom('api_idempotency')
      .where('api_key_id', '=', apiKeyId)
      .where('key', '=', key)
      .where('status', '=', 'pending')
      .execute();
    throw error;
  }
  await complete(db, apiKeyId, key, answer);
  return answer;
}

/** The envelope sendError writes (http/envelope.ts), kept so a replay answers the same bytes. */
function errorBody(error: ApiError): unknown {
  return {
    code: error.statusCode,
    result: error.message,
    ...(error.extra?.errorCode ? { errorCode: error.extra.errorCode } : {}),
    ...(error.extra?.meta ? { meta: error.extra.meta } : {}),
  };
}

async function complete(db: Kysely<Database>, apiKeyId: number, key: string, answer: Answer): Promise<void> {
  await db
    .updateTable('api_idempotency')
    .set({ status: 'completed', http_status: answer.status, response: JSON.stringify(answer.body) })
    .where('api_key_id', '=', apiKeyId)
    .where('key', '=', key)
    .execute();
}

/** Drop keys older than KEEP_MS (called now and then by the routes; cheap with the created_at index). */
export async function pruneIdempotency(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('api_idempotency')
    .where('created_at', '<', new Date(now.getTime() - KEEP_MS).toISOString())
    .execute();
}

/**
 * The same contract for work that is one transaction of our own (stock): the key row is inserted
 * first thing inside that transaction and completed with the answer in it, so a key and its work
 * commit together (one commit instead of three, and no claim can be left behind by a crash). A copy
 * racing on the same key waits on the unique index until the first commits (PostgreSQL) or runs
 * after it (SQLite), then fails the insert and replays the stored answer. A refusal thrown by the
 * work rolls the key back with it, so a corrected retry under the same key is judged again.
 */
export async function idempotentTransaction<T>(
  db: Kysely<Database>,
  apiKeyId: number,
  key: string,
  hash: string,
  now: () => Date,
  work: (trx: Kysely<Database>) => Promise<{ answer: Answer; after?: T }>,
): Promise<{ answer: Answer; after?: T; replayed: boolean }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const done = await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('api_idempotency')
          .values({ api_key_id: apiKeyId, key, request_hash: hash, status: 'pending', created_at: now().toISOString() })
          .execute();
        const out = await work(trx);
        await trx
          .updateTable('api_idempotency')
          .set({ status: 'completed', http_status: out.answer.status, response: JSON.stringify(out.answer.body) })
          .where('api_key_id', '=', apiKeyId)
          .where('key', '=', key)
          .execute();
        return out;
      });
      return { ...done, replayed: false };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt > 2) throw error;
    }
    const row = await db
      .selectFrom('api_idempotency')
      .selectAll()
      .where('api_key_id', '=', apiKeyId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) continue;
    if (row.request_hash !== hash) throw new ApiError(422, IDEMPOTENCY_MESSAGES.reused, { errorCode: 'idempotency_key_reused' });
    if (row.status === 'completed')
      return { answer: { status: row.http_status ?? 200, body: JSON.parse(row.response ?? 'null') }, replayed: true };
    // Only a request with this very hash could hold it pending, and that is this route's own path: a crash leftover.
    throw new ApiError(409, IDEMPOTENCY_MESSAGES.running, { errorCode: 'idempotency_key_running', retryAfterSeconds: 1 });
  }
}
