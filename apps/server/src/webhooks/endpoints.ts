/**
 * A store's webhook endpoints and their delivery log, as the console manages them (the routes in
 * ./console-routes.ts validate and call these). Secrets leave the server only in the answers to
 * creating and rotating; every other view leaves them out.
 */
import type { WebhookDeliveryPage, WebhookDeliveryView, WebhookEndpointView, WebhookEndpointWithSecret } from '@verdant/domain/console-api';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../db/tables/console.ts';
import { ApiError } from '../http/envelope.ts';
import { subscribedTypes } from './fanout.ts';
import { newWebhookSecret, ROTATION_OVERLAP_MS } from './signing.ts';

/** More than this many endpoints per store is a mistake, not an integration. */
export const MAX_ENDPOINTS_PER_STORE = 20;

export type { WebhookAttemptView, WebhookDeliveryView, WebhookEndpointView } from '@verdant/domain/console-api';

type EndpointRow = Selectable<WebhookEndpointsTable>;

export function endpointView(row: EndpointRow, now: Date): WebhookEndpointView {
  const overlap =
    row.previous_secret && row.previous_secret_until && row.previous_secret_until > now.toISOString() ? row.previous_secret_until : null;
  return {
    id: row.id,
    store_id: row.store_id,
    url: row.url,
    description: row.description,
    events: subscribedTypes(row.events),
    disabled: row.disabled_at !== null,
    disabled_at: row.disabled_at,
    disabled_reason: row.disabled_reason,
    previous_secret_until: overlap,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const notFound = () => new ApiError(404, 'No such webhook endpoint.', { errorCode: 'webhook_not_found' });

async function endpointRow(db: Kysely<Database>, storeId: number, endpointId: number): Promise<EndpointRow> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', endpointId)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function listEndpoints(db: Kysely<Database>, storeId: number, now: Date): Promise<WebhookEndpointView[]> {
  const rows = await db.selectFrom('webhook_endpoints').selectAll().where('store_id', '=', storeId).orderBy('id').execute();
  return rows.map((r) => endpointView(r, now));
}

export interface NewEndpoint {
  url: string;
  events: string[];
  description?: string | null;
}

/** Create an endpoint; the answer is the only time its secret is shown. */
export async function createEndpoint(
  db: Kysely<Database>,
  storeId: number,
  input: NewEndpoint,
  now: Date,
): Promise<WebhookEndpointWithSecret> {
  const at = now.toISOString();
  const secret = newWebhookSecret();
  const row = await db.transaction().execute(async (trx) => {
    const { n } = await trx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('store_id', '=', storeId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_ENDPOINTS_PER_STORE) {
      throw new ApiError(409, `A store can have at most ${MAX_ENDPOINTS_PER_STORE} webhook endpoints.`, { errorCode: 'webhook_limit' });
    }
    return trx
      .insertInto('webhook_endpoints')
      .values({
        store_id: storeId,
        url: input.url,
        description: input.description ?? null,
        events: JSON.stringify(input.events),
        secret,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return { ...endpointView(row, now), secret };
}

export interface EndpointChanges {
  url?: string;
  events?: string[];
  description?: string | null;
  disabled?: boolean;
}

export async function updateEndpoint(
  db: Kysely<Database>,
  storeId: number,
  endpointId: number,
  changes: EndpointChanges,
  now: Date,
): Promise<WebhookEndpointView> {
  const current = await endpointRow(db, storeId, endpointId);
  const at = now.toISOString();
  const disabled =
    changes.disabled === undefined
      ? {}
      : changes.disabled
        ? current.disabled_at
          ? {}
          : { disabled_at: at, disabled_reason: 'Disabled in the console.' }
        : { disabled_at: null, disabled_reason: null };
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      ...(changes.url !== undefined ? { url: changes.url } : {}),
      ...(changes.events !== undefined ? { events: JSON.stringify(changes.events) } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...disabled,
      updated_at: at,
    })
    .where('id', '=', endpointId)
    .where('store_id', '=', storeId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound();
  return endpointView(row, now);
}

/** Deletes the endpoint with its deliveries and attempts (foreign keys cascade). */
export async function deleteEndpoint(db: Kysely<Database>, storeId: number, endpointId: number): Promise<void> {
  const result = await db.deleteFrom('webhook_endpoints').where('id', '=', endpointId).where('store_id', '=', storeId).executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) throw notFound();
}

/**
 * A new secret; the one it replaces keeps signing beside it for ROTATION_OVERLAP_MS so receivers
 * can switch without losing a delivery. Rotating again during an overlap drops the oldest.
 */
export async function rotateSecret(
  db: Kysely<Database>,
  storeId: number,
  endpointId: number,
  now: Date,
): Promise<WebhookEndpointWithSecret> {
  const current = await endpointRow(db, storeId, endpointId);
  const secret = newWebhookSecret();
  const at = now.toISOString();
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      secret,
      previous_secret: current.secret,
      previous_secret_until: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      updated_at: at,
    })
    .where('id', '=', endpointId)
    .where('store_id', '=', storeId)
    // Two rotations at once: the second must not make the first one's secret the "previous" one unseen.
    .where('secret', '=', current.secret)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new ApiError(409, 'The secret was rotated at the same moment; try again.', { errorCode: 'webhook_rotation_conflict' });
  return { ...endpointView(row, now), secret };
}

export interface DeliveryQuery {
  status?: WebhookDeliveriesTable['status'];
  /** Deliveries with an id below this (the previous page's nextCursor). */
  before?: number;
  limit: number;
}

export async function listDeliveries(
  db: Kysely<Database>,
  storeId: number,
  endpointId: number,
  query: DeliveryQuery,
): Promise<WebhookDeliveryPage> {
  await endpointRow(db, storeId, endpointId);
  let q = deliveries(db)
    .where('d.endpoint_id', '=', endpointId)
    .where('d.store_id', '=', storeId)
    .orderBy('d.id', 'desc')
    .limit(query.limit + 1);
  if (query.status) q = q.where('d.status', '=', query.status);
  if (query.before !== undefined) q = q.where('d.id', '<', query.before);
  const rows = await q.execute();
  const page = rows.slice(0, query.limit);
  const items = await withAttempts(db, page);
  return { items, nextCursor: rows.length > query.limit ? String(page[page.length - 1].id) : null };
}

function deliveries(db: Kysely<Database>) {
  return db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('outbox_events as ev', 'ev.event_id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'ev.type as event_type',
      'd.endpoint_id',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.last_status_code',
      'd.last_error',
      'd.delivered_at',
      'd.created_at',
    ]);
}

type DeliveryRow = Omit<WebhookDeliveryView, 'attempt_log'>;

async function withAttempts(db: Kysely<Database>, rows: DeliveryRow[]): Promise<WebhookDeliveryView[]> {
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .select(['delivery_id', 'attempt', 'started_at', 'duration_ms', 'status_code', 'error', 'response_excerpt', 'node'])
    .where(
      'delivery_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('delivery_id')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    ...r,
    attempt_log: attempts.filter((a) => a.delivery_id === r.id).map(({ delivery_id: _, ...a }) => a),
  }));
}

/**
 * Replay: one more attempt now on an existing delivery (whatever became of it), logged like any
 * other. Refused while an attempt is in flight or when the endpoint is disabled.
 */
export async function replayDelivery(db: Kysely<Database>, storeId: number, deliveryId: number, now: Date): Promise<WebhookDeliveryView> {
  const at = now.toISOString();
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.id', 'd.lease_until', 'd.status', 'e.disabled_at'])
    .where('d.id', '=', deliveryId)
    .where('d.store_id', '=', storeId)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, 'No such webhook delivery.', { errorCode: 'webhook_delivery_not_found' });
  if (row.disabled_at) throw new ApiError(409, 'The endpoint is disabled; enable it first.', { errorCode: 'webhook_endpoint_disabled' });
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: at, lease_until: null, updated_at: at })
    .where('id', '=', deliveryId)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    throw new ApiError(409, 'This delivery is being sent right now; try again in a moment.', { errorCode: 'webhook_delivery_in_flight' });
  }
  const [view] = await withAttempts(db, await deliveries(db).where('d.id', '=', deliveryId).execute());
  return view;
}
