/**
 * Booking an order's time slot, inside the order's transaction (orders/place.ts). The slot chosen at
 * checkout is checked again against the store's hours at `now` (the browser's list may be stale),
 * then counted with a guarded update of its counter row:
 *
 *   INSERT INTO slot_bookings (…, taken) VALUES (…, 0) ON CONFLICT DO NOTHING;
 *   UPDATE slot_bookings SET taken = taken + 1 WHERE store_id = … AND order_type = … AND slot_start = … AND taken < :capacity
 *
 * An order whose update changed no row fails whole (409): the slot is full. PostgreSQL (READ
 * COMMITTED) makes a concurrent update of the same row wait and re-check `taken < capacity` on the
 * committed value; SQLite runs one write transaction at a time. So a slot of capacity 5 takes
 * exactly 5 orders however many arrive at once. Counter rows are locked after the stock rows (place.ts
 * takes stock first) and in time order, so two orders never wait on each other in a cycle.
 *
 * No slot chosen (ASAP): while the store is open for that order type the order is ASAP (no slot);
 * outside ordering hours the store's `outside_hours` setting refuses it with the status line
 * ("Closed · opens 9 AM") or books the first slot with room.
 */
import { availableSlots, hoursStatus, SLOT_MESSAGES, slotAt, slotLabel, type HoursSettings, type Slot, type Store } from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { boundSettingsOf, sectionOf } from '../store-settings/read.ts';
import { HOURS } from './section.ts';

type Db = Kysely<Database>;

export interface BookedSlot {
  start: string;
  end: string;
  /** `6/15/2026 13:00 – 13:30` in the store's zone. */
  label: string;
}

/**
 * The store's hours read on `conn` (the order's transaction: the slot is checked against the hours of
 * that moment), through the app's settings service (store-settings sectionOf). No service bound (a
 * test that places orders without an app): no slots.
 */
export async function hoursOf(conn: Db, store: Store): Promise<HoursSettings | null> {
  return boundSettingsOf(store) ? (await sectionOf(conn, store, HOURS)).value : null;
}

export const zoneOf = (store: Store) => store.dispensarySettings.place_info.timezone;

/** Orders counted per slot start of a store and order type, from `from` on. */
export async function takenSlots(db: Db, storeId: number, orderType: 'pickup' | 'delivery', from: Date): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('slot_bookings')
    .select(['slot_start', 'taken'])
    .where('store_id', '=', storeId)
    .where('order_type', '=', orderType)
    .where('slot_start', '>=', from.toISOString())
    .execute();
  return new Map(rows.map((r) => [r.slot_start, Number(r.taken)]));
}

/** Count one order into a slot; false when it is full. */
async function take(trx: Db, storeId: number, orderType: string, slot: Slot, capacity: number | null): Promise<boolean> {
  await trx
    .insertInto('slot_bookings')
    .values({ store_id: storeId, order_type: orderType, slot_start: slot.start, taken: 0 })
    .onConflict((oc) => oc.columns(['store_id', 'order_type', 'slot_start']).doNothing())
    .execute();
  let q = trx
    .updateTable('slot_bookings')
    .set((eb) => ({ taken: eb('taken', '+', 1) }))
    .where('store_id', '=', storeId)
    .where('order_type', '=', orderType)
    .where('slot_start', '=', slot.start);
  if (capacity != null) q = q.where('taken', '<', capacity);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The slot this order is booked for (null: ASAP), counted in `trx`; throws 409 with the shopper's
 * message when the chosen slot is gone or full, or when the store refuses orders while closed.
 */
export async function bookOrderSlot(
  trx: Db,
  store: Store,
  hours: HoursSettings | null,
  orderType: 'pickup' | 'delivery',
  requested: string | null | undefined,
  now: Date,
): Promise<BookedSlot | null> {
  if (!hours) return null;
  const zone = zoneOf(store);
  const rules = hours[orderType].slots;
  const asBooked = (s: Slot): BookedSlot => ({ start: s.start, end: s.end, label: slotLabel(s.start, s.end, zone) });
  if (requested) {
    const slot = slotAt(hours, orderType, zone, now, requested);
    if (!slot) throw new ApiError(409, SLOT_MESSAGES.slotUnavailable, { errorCode: 'slot_unavailable' });
    if (!(await take(trx, store.storeId, orderType, slot, rules.capacity)))
      throw new ApiError(409, SLOT_MESSAGES.slotFull, { errorCode: 'slot_full' });
    return asBooked(slot);
  }
  const status = hoursStatus(hours, orderType, zone, now);
  if (status.open) return null;
  if (hours.outside_hours === 'refuse') throw new ApiError(409, SLOT_MESSAGES.closedRefused(status.label), { errorCode: 'store_closed' });
  for (const slot of availableSlots(hours, orderType, zone, now, await takenSlots(trx, store.storeId, orderType, now))) {
    if (await take(trx, store.storeId, orderType, slot, rules.capacity)) return asBooked(slot);
  }
  throw new ApiError(409, SLOT_MESSAGES.noSlots, { errorCode: 'no_slots' });
}

/** A cancelled or no-show order gives its place back (once: called from releaseGoods after its claim). */
export async function releaseSlot(trx: Db, order: { store_id: number; order_type: string; slot_start: string | null }): Promise<void> {
  if (!order.slot_start) return;
  await trx
    .updateTable('slot_bookings')
    .set((eb) => ({ taken: eb('taken', '-', 1) }))
    .where('store_id', '=', order.store_id)
    .where('order_type', '=', order.order_type)
    .where('slot_start', '=', order.slot_start)
    .where('taken', '>', 0)
    .execute();
}
