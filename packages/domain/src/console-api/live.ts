/**
 * The store's live order events (GET /stores/:storeId/events, Server-Sent Events;
 * apps/server/src/realtime/console-routes.ts): `event: ready` at connect, `event: order` per order
 * event of the store with a `LiveOrderEvent` as its data.
 */
import type { OrderStatus } from '../order-lifecycle.ts';
import type { CurbsideArrival } from '../curbside.ts';

/** `order.updated`: something staff see changed without a status move (a document verified); console push only. */
export const OUTBOX_EVENT_TYPES = ['order.created', 'order.status_changed', 'order.updated'] as const;
export type OutboxEventType = (typeof OUTBOX_EVENT_TYPES)[number];
/** What webhook endpoints may subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['order.created', 'order.status_changed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

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
  /** The shopper's curbside "I'm here" (issue 29; on that `order.updated` push): first arrival time, latest car and bay. */
  curbside?: CurbsideArrival | null;
  /** On `order.created` (issue 28): the deals' part of the order's discount, and each line a deal discounted with each deal's share. */
  deal_discount_cents?: number;
  deal_lines?: { sku: string; deal_discount_cents: number; deals: { id: string; title: string; discount_cents: number }[] }[];
}

/** The data of an `event: order` frame. */
export interface LiveOrderEvent extends OrderEventPayload {
  event_id: string;
  type: OutboxEventType;
}

/** The data of the `event: ready` frame. */
export interface LiveReady {
  store_id: number;
}
