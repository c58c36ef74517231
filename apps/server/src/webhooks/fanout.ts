/**
 * Fan-out: outbox events become webhook deliveries. For each event not yet handled by the
 * webhooks consumer (`outbox_events.webhooks_at` null), one `webhook_deliveries` row per enabled
 * endpoint of the event's store subscribed to its type, then the event is marked. The unique
 * (event_id, endpoint_id) makes a second pass over the same event (another node, a crash between
 * insert and mark) harmless: at least once in, exactly one row out.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { WEBHOOK_EVENT_TYPES } from '../outbox/append.ts';

const subscribable = new Set<string>(WEBHOOK_EVENT_TYPES);

/** Events marked, and deliveries written for them (some may have been there already: another node's fan-out). */
export interface FanOut {
  events: number;
  deliveries: number;
}

/** Hand on up to `limit` waiting events (oldest first). */
export async function fanOutWebhookEvents(db: Kysely<Database>, now: Date, limit = 100): Promise<FanOut> {
  const events = await db
    .selectFrom('outbox_events')
    .select(['id', 'event_id', 'store_id', 'type'])
    .where('webhooks_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
  if (events.length === 0) return { events: 0, deliveries: 0 };

  const storeIds = [...new Set(events.filter((e) => subscribable.has(e.type)).map((e) => e.store_id))];
  const endpoints =
    storeIds.length === 0
      ? []
      : await db
          .selectFrom('webhook_endpoints')
          .select(['id', 'store_id', 'events'])
          .where('store_id', 'in', storeIds)
          .where('disabled_at', 'is', null)
          .execute();
  const at = now.toISOString();
  const rows = events.flatMap((event) =>
    !subscribable.has(event.type)
      ? []
      : endpoints
          .filter((ep) => ep.store_id === event.store_id && subscribedTypes(ep.events).includes(event.type))
          .map((ep) => ({
            event_id: event.event_id,
            endpoint_id: ep.id,
            store_id: event.store_id,
            status: 'pending' as const,
            next_attempt_at: at,
            created_at: at,
            updated_at: at,
          })),
  );
  // Rows first, then the mark: a crash between the two only repeats the (idempotent) insert.
  if (rows.length > 0) {
    await db
      .insertInto('webhook_deliveries')
      .values(rows)
      .onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing())
      .execute();
  }
  await db
    .updateTable('outbox_events')
    .set({ webhooks_at: at })
    .where(
      'id',
      'in',
      events.map((e) => e.id),
    )
    .where('webhooks_at', 'is', null)
    .execute();
  return { events: events.length, deliveries: rows.length };
}

/** An endpoint's `events` column (JSON list); anything unreadable subscribes to nothing. */
export function subscribedTypes(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}
