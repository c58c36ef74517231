/**
 * One delivery attempt, start to finish: claim the delivery with a lease (only the node whose
 * UPDATE changed the row sends, so two nodes never send one delivery at once), POST the signed
 * body, log the attempt, and decide what follows: 2xx succeeded; 410 Gone disables the endpoint
 * (the receiver asked us to stop); anything else (refused connection, timeout, 3xx, 4xx, 5xx)
 * waits for the next slot of the retry schedule or the receiver's Retry-After, whichever is later,
 * and fails once the schedule is spent. A node that dies mid-attempt leaves a lease that expires,
 * and another node tries again (at least once; receivers de-duplicate on `webhook-id`).
 */
import type { Kysely, Updateable } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { WebhookDeliveriesTable } from '../db/tables/console.ts';
import { nextRetryDelay, parseRetryAfter } from './schedule.ts';
import { activeSecrets, signedHeaders } from './signing.ts';
import { webhookUrlProblem, type UrlPolicy } from './url-policy.ts';

export interface SenderOptions {
  db: Kysely<Database>;
  /** Who makes the attempts (`leased_by`, `webhook_attempts.node`). */
  node: string;
  retrySchedule: readonly number[];
  urlPolicy: UrlPolicy;
  now: () => Date;
  /** Per attempt (default 15 s). */
  timeoutMs: number;
  /** How long a claim holds; must exceed timeoutMs so a slow attempt is not sent twice. */
  leaseMs: number;
  random?: () => number;
  /** Issue 32: one line per attempt, with the request id of the event's request (`reqId`). */
  log?: { info(obj: object, msg: string): void };
}

/** What a receiver's answer may say back, at most (the log keeps 500 characters of it). */
const EXCERPT_CHARS = 500;
const READ_LIMIT_BYTES = 64 * 1024;

/** Claim `deliveryId` for this node; true when this node now holds it. */
export async function claimDelivery(o: SenderOptions, deliveryId: number): Promise<boolean> {
  const now = o.now();
  const result = await o.db
    .updateTable('webhook_deliveries')
    .set({ lease_until: new Date(now.getTime() + o.leaseMs).toISOString(), leased_by: o.node })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now.toISOString())]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ids of pending deliveries whose time has come and that nobody holds, oldest first. */
export async function dueDeliveries(o: SenderOptions, limit: number): Promise<number[]> {
  const now = o.now().toISOString();
  const rows = await o.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * When the next pending delivery nobody holds is due (ISO) or null; lets the loop sleep exactly
 * that long. Deliveries another node holds are left to the poll: counting them (already due) would
 * wake this node every few ms for as long as that node's attempt takes.
 */
export async function nextDueAt(db: Kysely<Database>, now: Date): Promise<string | null> {
  const at = now.toISOString();
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
    .executeTakeFirst();
  return (row?.at as string | null | undefined) ?? null;
}

type DeliveryUpdate = Updateable<WebhookDeliveriesTable>;

interface Outcome {
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  retryAfter: string | null;
}

/** Send one claimed delivery and record the result. */
export async function attemptDelivery(o: SenderOptions, deliveryId: number): Promise<void> {
  const row = await o.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('outbox_events as ev', 'ev.event_id', 'd.event_id')
    .select([
      'd.id',
      'd.attempts',
      'd.event_id',
      'e.id as endpoint_id',
      'e.url',
      'e.secret',
      'e.previous_secret',
      'e.previous_secret_until',
      'e.disabled_at',
      'ev.type',
      'ev.payload',
      'ev.created_at as event_at',
      'ev.request_id',
    ])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
  if (!row) return;
  // Only while this node still holds the claim (a lease that ran out may have passed to another).
  const finish = (values: DeliveryUpdate) =>
    o.db.updateTable('webhook_deliveries').set(values).where('id', '=', deliveryId).where('leased_by', '=', o.node).execute();

  if (row.disabled_at) {
    await finish({ status: 'disabled', lease_until: null, updated_at: o.now().toISOString() });
    return;
  }

  const started = o.now();
  // The body is the same on every attempt (its timestamp is the event's); the signature's is now.
  const body = JSON.stringify({ type: row.type, timestamp: row.event_at, data: JSON.parse(row.payload) });
  const t0 = performance.now();
  const outcome = await post(o, row.url, row.event_id, body, activeSecrets(row, started), row.request_id);
  const durationMs = Math.round(performance.now() - t0);
  const attempt = row.attempts + 1;
  o.log?.info(
    { reqId: row.request_id ?? undefined, eventId: row.event_id, deliveryId, endpointId: row.endpoint_id, attempt, status: outcome.statusCode, ms: durationMs },
    'webhook attempt',
  );
  const at = o.now();
  await o.db
    .insertInto('webhook_attempts')
    .values({
      delivery_id: deliveryId,
      attempt,
      started_at: started.toISOString(),
      duration_ms: durationMs,
      status_code: outcome.statusCode,
      error: outcome.error,
      response_excerpt: outcome.excerpt,
      node: o.node,
    })
    .execute();

  const base: DeliveryUpdate = {
    attempts: attempt,
    last_status_code: outcome.statusCode,
    last_error: outcome.error,
    lease_until: null,
    updated_at: at.toISOString(),
  };
  const code = outcome.statusCode;
  if (code !== null && code >= 200 && code < 300) {
    await finish({ ...base, status: 'succeeded', next_attempt_at: null, delivered_at: at.toISOString() });
    return;
  }
  if (code === 410) {
    await disableForGone(o, row.endpoint_id, deliveryId, base);
    return;
  }
  const delay = nextRetryDelay(attempt, o.retrySchedule, o.random);
  if (delay === null) {
    await finish({ ...base, status: 'failed', next_attempt_at: null });
    return;
  }
  const wait = Math.max(delay, parseRetryAfter(outcome.retryAfter, at) ?? 0);
  await finish({ ...base, next_attempt_at: new Date(at.getTime() + wait).toISOString() });
}

/** 410 Gone: the endpoint is switched off with the reason, and its waiting deliveries with it. */
async function disableForGone(o: SenderOptions, endpointId: number, deliveryId: number, base: DeliveryUpdate): Promise<void> {
  const at = o.now().toISOString();
  await o.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_deliveries')
      .set({ ...base, status: 'disabled', next_attempt_at: null })
      .where('id', '=', deliveryId)
      .where('leased_by', '=', o.node)
      .execute();
    await trx
      .updateTable('webhook_endpoints')
      .set({ disabled_at: at, disabled_reason: 'The receiver answered 410 Gone.', updated_at: at })
      .where('id', '=', endpointId)
      .where('disabled_at', 'is', null)
      .execute();
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'disabled', next_attempt_at: null, updated_at: at })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .execute();
  });
}

async function post(o: SenderOptions, url: string, id: string, body: string, secrets: string[], requestId: string | null): Promise<Outcome> {
  const problem = await webhookUrlProblem(url, o.urlPolicy);
  if (problem) return { statusCode: null, error: problem, excerpt: null, retryAfter: null };
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Verdant-Webhooks/1',
        // Issue 32: the id of the shopper's or staff member's request that caused the event, for the receiver's logs.
        ...(requestId ? { 'x-request-id': requestId } : {}),
        ...signedHeaders(secrets, id, o.now(), body),
      },
      body,
      // Receivers answer; they do not send us elsewhere (a redirect could lead inside the network).
      redirect: 'manual',
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    const excerpt = await readExcerpt(res);
    return { statusCode: res.status, error: null, excerpt, retryAfter: res.headers.get('retry-after') };
  } catch (err) {
    return { statusCode: null, error: describeError(err), excerpt: null, retryAfter: null };
  }
}

/** The first characters of the answer, reading no more than READ_LIMIT_BYTES of it. */
async function readExcerpt(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < READ_LIMIT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
  return text === '' ? null : text;
}

function describeError(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'Timed out.';
  const cause = e?.cause;
  if (cause?.code) return `${cause.code}: ${cause.message ?? e.message}`.slice(0, 500);
  return String(e?.message ?? err).slice(0, 500);
}
