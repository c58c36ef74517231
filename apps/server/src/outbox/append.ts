/**
 * The transactional outbox (ARCHITECTURE "The store's side"): a change others must hear of is
 * written as an `outbox_events` row IN THE SAME TRANSACTION as the change, so no committed change
 * is ever without its event and no event exists for a change that rolled back. The dispatcher
 * (./dispatcher.ts) hands events on after the commit: console pushes, shopper/store messages,
 * signed webhooks. Call `app.outbox.kick()` after the commit so they go out at once (the
 * dispatcher also polls, and other nodes hear through Redis).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { OrderEventPayload, OutboxEventType } from '@verdant/domain/console-api';
import type { Database } from '../db/schema.ts';
import { currentRequestId } from '../http/request-context.ts';

// The event types and the order event's payload are the console's contract too (its live stream).
export { OUTBOX_EVENT_TYPES, WEBHOOK_EVENT_TYPES, type OrderEventPayload, type OutboxEventType } from '@verdant/domain/console-api';

export interface NewOutboxEvent {
  storeId: number;
  type: OutboxEventType;
  orderId: number | null;
  payload: OrderEventPayload;
  /** ISO; the change's own time. */
  at: string;
}

/** A new public event id: `evt_` + 24 random base64url characters. */
export function newEventId(): string {
  return `evt_${randomBytes(18).toString('base64url')}`;
}

/** Write the event inside the caller's transaction; returns its public id. */
export async function appendOutboxEvent(trx: Kysely<Database>, event: NewOutboxEvent): Promise<string> {
  const eventId = newEventId();
  await trx
    .insertInto('outbox_events')
    .values({
      event_id: eventId,
      store_id: event.storeId,
      type: event.type,
      order_id: event.orderId,
      payload: JSON.stringify(event.payload),
      created_at: event.at,
      // Issue 32: the request that caused it, followed into the messages and webhooks it sets off.
      request_id: currentRequestId() ?? null,
    })
    .execute();
  return eventId;
}
