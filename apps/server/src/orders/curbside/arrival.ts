/**
 * The shopper's "I'm here" (issue 29, curbside pickup; migration 0030). The link (./link.ts) names
 * the order; each use then asks the order itself: a pickup order of a store that offers curbside,
 * ready for pickup (not before, not once completed or cancelled). The first arrival time is kept by
 * one guarded UPDATE (`curbside_arrived_at = COALESCE(curbside_arrived_at, now)`), so a burst of
 * taps — on PostgreSQL the row lock, on SQLite the single writer — records one arrival; a later
 * "I'm here" only changes the car or bay. Each one pushes an `order.updated` to the consoles with the
 * arrival, which chime and show it in the queue.
 */
import type { Store } from '@verdant/domain';
import { CURBSIDE_MESSAGES, type CurbsideArrival, type CurbsideSettings, type CurbsideView } from '@verdant/domain';
import type { Row } from '../../db/schema.ts';
import { inWriteTransaction } from '../../db/group-commit.ts';
import { ApiError } from '../../http/envelope.ts';
import { appendOutboxEvent } from '../../outbox/append.ts';
import { sectionOf } from '../../store-settings/read.ts';
import type { Db, StoreFacts } from '../lifecycle/store-facts.ts';
import { orderPayload } from '../lifecycle/transitions.ts';
import { readCurbsideToken } from './link.ts';
import { CURBSIDE_SECTION } from './section.ts';

export function arrivalOf(order: Pick<Row<'orders'>, 'curbside_arrived_at' | 'curbside_car' | 'curbside_bay'>): CurbsideArrival | null {
  return order.curbside_arrived_at ? { arrived_at: order.curbside_arrived_at, car: order.curbside_car ?? null, bay: order.curbside_bay ?? null } : null;
}

/** Why "I'm here" cannot be sent for this order now (null: it can). */
function closedReason(order: Row<'orders'>, settings: CurbsideSettings): string | null {
  if (order.order_type !== 'pickup') return CURBSIDE_MESSAGES.notPickup;
  if (order.status === 'completed') return CURBSIDE_MESSAGES.completed;
  if (order.status === 'cancelled') return CURBSIDE_MESSAGES.cancelled;
  if (!settings.offered) return CURBSIDE_MESSAGES.notOffered;
  if (order.status !== 'ready_for_pickup') return CURBSIDE_MESSAGES.notReady;
  return null;
}

async function orderOfToken(db: Db, store: Store, secret: Uint8Array | string, token: string, now: Date): Promise<Row<'orders'>> {
  const check = readCurbsideToken(secret, store.storeId, token, now);
  if (!check.ok)
    throw check.reason === 'expired'
      ? new ApiError(410, CURBSIDE_MESSAGES.expired, { errorCode: 'link_expired' })
      : new ApiError(404, CURBSIDE_MESSAGES.badLink, { errorCode: 'link_invalid' });
  const order = await db.selectFrom('orders').selectAll().where('id', '=', check.orderId).where('store_id', '=', store.storeId).executeTakeFirst();
  if (!order) throw new ApiError(404, CURBSIDE_MESSAGES.badLink, { errorCode: 'link_invalid' });
  return order;
}

export async function curbsideView(db: Db, store: Store, secret: Uint8Array | string, token: string, now: Date): Promise<CurbsideView> {
  const order = await orderOfToken(db, store, secret, token, now);
  const settings = (await sectionOf(db, store, CURBSIDE_SECTION)).value;
  const message = closedReason(order, settings);
  return {
    increment_id: order.increment_id,
    store_name: store.name,
    timezone: store.dispensarySettings.place_info.timezone,
    open: message === null,
    message,
    bays: settings.bays,
    instructions: settings.instructions,
    arrival: arrivalOf(order),
  };
}

export function storeFactsOf(store: Store): StoreFacts {
  return { id: store.storeId, code: store.storeCode, name: store.name, timezone: store.dispensarySettings.place_info.timezone };
}

/** Record "I'm here"; answers the page's view after it. Refusals: 404/410 (link), 409 (order state), 400 (form). */
export async function recordArrival(
  db: Db,
  store: Store,
  secret: Uint8Array | string,
  token: string,
  input: { car: string; bay: string },
  now: Date,
): Promise<CurbsideView> {
  const order = await orderOfToken(db, store, secret, token, now);
  const settings = (await sectionOf(db, store, CURBSIDE_SECTION)).value;
  const closed = closedReason(order, settings);
  if (closed) throw new ApiError(409, closed, { errorCode: 'curbside_closed' });
  if (input.bay && !settings.bays.includes(input.bay)) throw new ApiError(400, CURBSIDE_MESSAGES.unknownBay, { errorCode: 'unknown_bay' });
  const iso = now.toISOString();
  const facts = storeFactsOf(store);
  const after = await inWriteTransaction(db, async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set((eb) => ({
        curbside_arrived_at: eb.fn.coalesce('curbside_arrived_at', eb.val(iso)),
        curbside_car: input.car || null,
        curbside_bay: input.bay || null,
      }))
      .where('id', '=', order.id)
      .where('store_id', '=', store.storeId)
      .where('status', '=', 'ready_for_pickup')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return null;
    const row = await trx.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    const arrival = arrivalOf(row)!;
    await appendOutboxEvent(trx, {
      storeId: store.storeId,
      type: 'order.updated',
      orderId: row.id,
      payload: { ...orderPayload(row, facts, row.status), curbside: arrival },
      at: iso,
    });
    return row;
  });
  // The order moved on between the read and the write (staff completed or cancelled it): say what it is now.
  if (!after) return curbsideView(db, store, secret, token, now).then((view) => {
    throw new ApiError(409, view.message ?? CURBSIDE_MESSAGES.notReady, { errorCode: 'curbside_closed' });
  });
  return { ...(await curbsideView(db, store, secret, token, now)), arrival: arrivalOf(after) };
}
