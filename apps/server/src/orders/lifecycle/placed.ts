/**
 * What placing an order adds inside its own transaction (../place.ts): the 'placed' history row
 * (which also records the stock the order took, so a cancellation gives back exactly that), the
 * `order.created` outbox event, and — when the store turned auto-confirm on and the order waits
 * for no document — the move to confirmed with a ready-by time `auto_confirm_minutes` ahead,
 * recorded as the system's with its own `order.status_changed` event.
 */
import type { OrderStatus, Store } from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { appendOutboxEvent } from '../../outbox/append.ts';
import { orderPayload, SYSTEM_ACTOR } from './transitions.ts';
import { holdOf, orderSettings, type StoreFacts } from './store-facts.ts';
import { orderLineDeals } from '../../deals/order-lines.ts';

/** The deals of a new order for its `order.created` event (webhooks, issue 28): each line a deal discounted, each deal's share. */
async function dealPayload(trx: Kysely<Database>, orderId: number, total: number) {
  if (total <= 0) return { deal_discount_cents: 0, deal_lines: [] };
  const items = await trx
    .selectFrom('order_items')
    .select(['sku', 'deal_discount_cents', 'deal_discounts'])
    .where('order_id', '=', orderId)
    .where('deal_discount_cents', '>', 0)
    .orderBy('id')
    .execute();
  return {
    deal_discount_cents: total,
    deal_lines: items.map((i) => ({
      sku: i.sku,
      deal_discount_cents: i.deal_discount_cents,
      deals: orderLineDeals(i.deal_discounts).map((d) => ({ id: d.id, title: d.title, discount_cents: d.discount_cents })),
    })),
  };
}

/** Writes the placed order's history and events; returns the status the order ends in. */
export async function recordPlaced(
  trx: Kysely<Database>,
  store: Store,
  orderId: number,
  taken: ReadonlyMap<number, number>,
  now: Date,
): Promise<OrderStatus> {
  const iso = now.toISOString();
  const facts: StoreFacts = {
    id: store.storeId,
    code: store.storeCode,
    name: store.name,
    timezone: store.dispensarySettings.place_info.timezone || 'UTC',
  };
  const order = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const p = JSON.parse(order.personal_details) as { firstName?: string; lastName?: string };
  await trx
    .insertInto('order_events')
    .values({
      order_id: order.id,
      store_id: order.store_id,
      at: iso,
      actor_type: 'customer',
      actor_id: order.customer_id,
      actor_name: [p.firstName, p.lastName].filter(Boolean).join(' ') || null,
      kind: 'placed',
      from_status: null,
      to_status: 'submitted',
      data: JSON.stringify({ stock: Object.fromEntries(taken) }),
    })
    .execute();
  await appendOutboxEvent(trx, {
    storeId: order.store_id,
    type: 'order.created',
    orderId: order.id,
    payload: { ...orderPayload(order, facts, null), ...(await dealPayload(trx, order.id, order.deal_discount_cents)) },
    at: iso,
  });

  const settings = await orderSettings(trx, order.store_id);
  if (!settings.auto_confirm) return 'submitted';
  const docs =
    order.customer_id != null
      ? ((await trx
          .selectFrom('customers')
          .select(['id_status', 'medcard_status', 'medcard_expiry'])
          .where('id', '=', order.customer_id)
          .executeTakeFirst()) ?? null)
      : null;
  if (holdOf(order, docs, facts.timezone).length) return 'submitted';
  return autoConfirmInTransaction(trx, order.id, facts, settings.auto_confirm_minutes, now);
}

/** Confirm a submitted order as the system (guarded like every move); 'submitted' when it had moved meanwhile. */
export async function autoConfirmInTransaction(
  trx: Kysely<Database>,
  orderId: number,
  store: StoreFacts,
  minutes: number,
  now: Date,
): Promise<OrderStatus> {
  const iso = now.toISOString();
  // Ready `minutes` from now — or at the start of the slot the shopper booked, when that is later
  // (issue 26: an order placed at night for the 9 AM slot is not "ready by 04:53").
  const booked = await trx.selectFrom('orders').select('slot_start').where('id', '=', orderId).executeTakeFirst();
  const soon = now.getTime() + minutes * 60_000;
  const slot = booked?.slot_start ? Date.parse(booked.slot_start) : NaN;
  const readyBy = new Date(Number.isFinite(slot) && slot > soon ? slot : soon).toISOString();
  const moved = await trx
    .updateTable('orders')
    .set((eb) => ({ status: 'confirmed', ready_by: readyBy, version: eb('version', '+', 1), status_changed_at: iso, updated_at: iso }))
    .where('id', '=', orderId)
    .where('status', '=', 'submitted')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return 'submitted';
  const order = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  await trx
    .insertInto('order_events')
    .values({
      order_id: order.id,
      store_id: order.store_id,
      at: iso,
      actor_type: SYSTEM_ACTOR.type,
      actor_id: null,
      actor_name: SYSTEM_ACTOR.name,
      kind: 'status',
      from_status: 'submitted',
      to_status: 'confirmed',
      data: JSON.stringify({ action: 'confirm', readyBy, auto: true }),
    })
    .execute();
  await appendOutboxEvent(trx, {
    storeId: order.store_id,
    type: 'order.status_changed',
    orderId: order.id,
    payload: orderPayload(order, store, 'submitted'),
    at: iso,
  });
  return 'confirmed';
}
