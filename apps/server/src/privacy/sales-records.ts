/**
 * Sales records past the store's period (issue 31): what the daily retention job (./job.ts) does to an
 * order once the store's `data-retention` salesRecordYears have passed since it was placed
 * (domain salesRecordExpired). The one source of truth for how long an order is kept is that
 * setting; delivery records (trips, stops with the ID check and the signature) have their own
 * setting, `record-retention`, and their own purge (delivery/paperwork.ts purgeDeliveryRecords).
 *
 * "Purge" is decided here (docs/operators/retention.md "Sales records past their period"): the order
 * is reduced to its **anonymous totals**, not deleted. Tax returns already filed were made from the
 * store's daily report, which sums the orders' totals and their tax lines by day; deleting the rows
 * would make a re-run of a filed period disagree with what was filed. What goes is everything that
 * says who bought what: the lines, the timeline, the messages sent, the names, phone, e-mail, street,
 * date of birth, search keys, car, staff who opened it, the order save's stored retry answer. What stays: number, store, status, order and
 * licence type, payment method, the dates, the money columns (subtotal, discounts, taxes, fee, total),
 * the tax lines (order_tax_lines: code, rate, taxable amount, amount) and the place of sale (city,
 * region, ZIP: the tax jurisdiction).
 *
 * Rules:
 *  - only final orders (completed, cancelled, no-show) are purged; an order still on a delivery stop
 *    waits: its stop is a delivery record kept under `record-retention`, and the purge of those
 *    removes the stop first (so an order is kept for the longer of the two periods, never shorter);
 *  - idempotent and safe on several nodes at once: a batch is claimed by `UPDATE … SET purged_at
 *    WHERE id IN (…) AND purged_at IS NULL RETURNING id` in the transaction that strips the rows, so
 *    an order is purged, and counted, by exactly one caller; a second run finds nothing to do.
 */
import { FINAL_STATUSES, retentionCutoff, salesRecordExpired } from '@verdant/domain';
import type { Db } from '../orders/lifecycle/store-facts.ts';
import { ORDER_SCOPE } from '../orders/idempotency.ts';
import { keepPlace } from './personal-data.ts';

const BATCH = 200;

/** What a purged order's personal details read (the console and receipts show this). */
export const PURGED_DETAILS = { firstName: 'Purged', lastName: 'sales record', emailAddress: '', phone: '' } as const;

/**
 * Purge the store's orders whose sales-record period is over at `now`; returns how many this call
 * purged (another node's purges are not counted here).
 */
export async function purgeSalesRecords(db: Db, storeId: number, salesRecordYears: number, now: Date): Promise<number> {
  const iso = now.toISOString();
  // Every order placed before the cutoff is past its period (salesRecordKeptUntil counts calendar
  // years from the placing; the per-row check below settles 29 February).
  const cutoff = retentionCutoff(now, salesRecordYears).toISOString();
  let purged = 0;
  let afterId = 0;
  for (;;) {
    const rows = await db
      .selectFrom('orders')
      .select(['id', 'created_at'])
      .where('store_id', '=', storeId)
      .where('purged_at', 'is', null)
      .where('created_at', '<=', cutoff)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1]!.id;
    const due = rows.filter((r) => salesRecordExpired(r, { salesRecordYears }, now)).map((r) => r.id);
    if (due.length) purged += await purgeBatch(db, storeId, due, iso);
    if (rows.length < BATCH) break;
  }
  return purged;
}

async function purgeBatch(db: Db, storeId: number, ids: number[], iso: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('orders')
      .set({
        purged_at: iso,
        customer_id: null,
        personal_details: JSON.stringify({ ...PURGED_DETAILS, purged_at: iso }),
        search_phone: '',
        search_phone_rev: '',
        search_name: '',
        search_surname: '',
        birthday: null,
        curbside_car: null,
        curbside_bay: null,
        cancel_message: null,
        opened_by: null,
        updated_at: iso,
      })
      .where('store_id', '=', storeId)
      .where('id', 'in', ids)
      .where('purged_at', 'is', null)
      .where('status', 'in', [...FINAL_STATUSES])
      // An order on a delivery stop waits for the delivery records' own period (record-retention).
      .where((eb) => eb.not(eb.exists(eb.selectFrom('trip_stops').select('trip_stops.id').whereRef('trip_stops.order_id', '=', 'orders.id'))))
      .returning(['id', 'idempotency_key', 'shipping_address', 'billing_address'])
      .execute();
    if (claimed.length === 0) return 0;
    const mine = claimed.map((c) => c.id);
    for (const c of claimed)
      if (c.shipping_address != null || c.billing_address != null)
        await trx
          .updateTable('orders')
          .set({ shipping_address: keepPlace(c.shipping_address), billing_address: keepPlace(c.billing_address) })
          .where('id', '=', c.id)
          .execute();
    await trx.deleteFrom('order_items').where('order_id', 'in', mine).execute();
    await trx.deleteFrom('order_events').where('order_id', 'in', mine).execute();
    // The order save's stored answer (for a retry of the same key) repeats the shopper's details.
    await trx.deleteFrom('idempotency_keys').where('scope', '=', ORDER_SCOPE).where('store_id', '=', storeId).where('key', 'in', claimed.map((c) => c.idempotency_key)).execute();
    await trx.deleteFrom('message_deliveries').where('store_id', '=', storeId).where('order_id', 'in', mine).execute();
    await trx.updateTable('outbox_events').set({ payload: JSON.stringify({ purged_at: iso }) }).where('order_id', 'in', mine).execute();
    // The deal's counts stay (a deal's history); the shopper's phone key goes.
    await trx.updateTable('deal_redemptions').set({ customer_key: 'purged' }).where('order_id', 'in', mine).execute();
    await trx.updateTable('loyalty_ledger').set({ order_id: null }).where('order_id', 'in', mine).execute();
    await trx.updateTable('document_views').set({ order_id: null }).where('order_id', 'in', mine).execute();
    return mine.length;
  });
}
