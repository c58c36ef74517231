/**
 * After a driver recorded a stop (delivered or failed; the driver routes call this once the stop's
 * transaction committed): every stop of the trip still to come whose estimate is now at most
 * NEAR_MINUTES (10) gets the "about 10 minutes away" message (issue 29 "The shopper"), once.
 *
 * Once-only: the stop's `near_notified_at` is set by `UPDATE trip_stops SET near_notified_at = …
 * WHERE id = … AND near_notified_at IS NULL` and the message row is written in the same transaction
 * only when that update changed the row — of a burst of parallel calls (two drivers' phones syncing,
 * a retried action) exactly one writes it (PostgreSQL: the row lock makes the others see it set;
 * SQLite: one writer at a time). The message row's key (`trip-stop-near:{stop id}`, the channel, the
 * recipient, the template) refuses a second copy as well. A stop told once is not told again when a
 * later stop is recorded.
 *
 * The channel is the store's choice (`delivery-trips` near_message: `sms` by default); a customer
 * without a phone gets the e-mail, and without an e-mail the SMS. The sender (notifications/sender.ts)
 * sends the row like every other order message. A failure here must not undo the recorded stop: the
 * caller catches and logs it.
 */
import { DELIVERY_PROGRESS_MESSAGES, NEAR_MINUTES, type Store } from '@verdant/domain';
import type { Kysely } from 'kysely';
import { inWriteTransaction } from '../db/group-commit.ts';
import type { Database } from '../db/schema.ts';
import { toE164 } from '../users/phone.ts';
import { remainingStops, storeOfId, tripDeliverySettings } from './progress.ts';
import { queueMessages, type QueuedMessage } from '../notifications/queue.ts';

type Db = Kysely<Database>;

/** The message_deliveries template of the near message. */
export const NEAR_TEMPLATE = 'order_driver_near';

interface Contact {
  firstName?: string;
  lastName?: string;
  emailAddress?: string;
  phone?: string;
}

function contactOf(json: string): Contact {
  try {
    return JSON.parse(json) as Contact;
  } catch {
    return {};
  }
}

/** Returns how many stops were told now (0 when none was near, or each was told before). */
export async function afterStopRecorded(db: Db, storeId: number, tripId: number, now: Date = new Date()): Promise<number> {
  const trip = await db.selectFrom('trips').select(['id', 'status']).where('id', '=', tripId).where('store_id', '=', storeId).executeTakeFirst();
  if (!trip || trip.status !== 'started') return 0;
  const store = await storeOfId(db, storeId);
  if (!store) return 0;
  const settings = await tripDeliverySettings(db, store);
  const near = (await remainingStops(db, store, tripId, settings.pace)).filter((s) => s.minutes <= NEAR_MINUTES && s.nearNotifiedAt == null);
  let told = 0;
  for (const stop of near) if (await tellNear(db, store, stop.stopId, settings.nearMessage, now)) told += 1;
  return told;
}

async function tellNear(db: Db, store: Store, stopId: number, chosen: 'sms' | 'email', now: Date): Promise<boolean> {
  const iso = now.toISOString();
  return inWriteTransaction(db, async (trx) => {
    const moved = await trx
      .updateTable('trip_stops')
      .set({ near_notified_at: iso })
      .where('id', '=', stopId)
      .where('near_notified_at', 'is', null)
      .where('outcome', 'is', null)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    const order = await trx
      .selectFrom('trip_stops')
      .innerJoin('orders', 'orders.id', 'trip_stops.order_id')
      .select(['orders.id', 'orders.increment_id', 'orders.status', 'orders.personal_details'])
      .where('trip_stops.id', '=', stopId)
      .executeTakeFirstOrThrow();
    // Only an order still on its way is told (one taken back meanwhile is marked, not messaged).
    if (order.status !== 'out_for_delivery') return false;
    const who = contactOf(order.personal_details);
    const phone = who.phone ? toE164(who.phone) : null;
    const email = who.emailAddress?.trim() || null;
    const channel = chosen === 'email' ? (email ? 'email' : phone ? 'sms' : null) : phone ? 'sms' : email ? 'email' : null;
    if (!channel) return false;
    const render = (c: 'sms' | 'email') =>
      c === 'sms'
        ? { subject: null, body: DELIVERY_PROGRESS_MESSAGES.nearSms(store.name, order.increment_id) }
        : (({ subject, text }) => ({ subject, body: text }))(
            DELIVERY_PROGRESS_MESSAGES.nearEmail(store.name, order.increment_id, [who.firstName, who.lastName].filter(Boolean).join(' ')),
          );
    const body = render(channel);
    // Issue 30: the store's chosen channel is the preferred one; the other, when the order has it, is the fallback.
    const other = channel === 'sms' ? 'email' : 'sms';
    const otherAddress = other === 'sms' ? phone : email;
    const fallback = otherAddress
      ? (({ subject, body: text }) => ({ fallback_channel: other, fallback_recipient: otherAddress, fallback_subject: subject, fallback_body: text }))(render(other))
      : {};
    const message: QueuedMessage = {
      event_id: `trip-stop-near:${stopId}`,
      store_id: store.storeId,
      order_id: order.id,
      channel,
      recipient: channel === 'sms' ? phone! : email!,
      template: NEAR_TEMPLATE,
      ...body,
      ...fallback,
    };
    await queueMessages(trx, [message], iso);
    return true;
  });
}
