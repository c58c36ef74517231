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
import type { OrderStatus } from '@verdant/domain';
import type { Database } from '../db/schema.ts';

/** `order.updated`: something staff see changed without a status move (a document verified); console push only. */
export const OUTBOX_EVENT_TYPES = ['order.created', 'order.status_changed', 'order.updated'] as const;
/** What webhook endpoints may subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['order.created', 'order.status_changed'] as const;
export type OutboxEventType = (typeof OUTBOX_EVENT_TYPES)[number];

/**
 * What an order event carries: thin (ids and the status move), as Standard Webhooks recommend;
 * receivers fetch the rest.
 */
export interface OrderEventPayload {
  order_id: number;
  increment_id: string;
  store_code: string;
  status: OrderStatus;
  previous_status: OrderStatus | null;
  order_type: 'pickup' | 'delivery';
  /** The order's `version` after the change (consoles ignore older pushes). */
  version: number;
  /** ISO */
  ready_by?: string | null;
  cancel_reason?: string | null;
  /** When staff first opened the order (issue 26; on that `order.updated` push only). */
  opened_at?: string | null;
}

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
    .values({ event_id: eventId, store_id: event.storeId, type: event.type, order_id: event.orderId, payload: JSON.stringify(event.payload), created_at: event.at })
    .execute();
  return eventId;
}
