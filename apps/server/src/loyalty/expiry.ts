/**
 * The hourly loyalty job (issue 30), on every node (like the delivery-records purge):
 *  - expiry: a balance whose last purchase (or, with none, the account's opening) is `expiry.days`
 *    or more ago goes to 0 with one `expire` entry. Two nodes at once expire it once: the debit is
 *    clamped to the balance read under the row lock, and a second run finds 0 and writes nothing.
 *  - reminder: `expiry.reminderDays` before that, one message to the customer (SMS to the phone, and
 *    an e-mail when the account has one), queued as `message_deliveries` rows in the transaction that
 *    claims the reminder (`reminded_for` = the last-purchase instant it is for; a purchase starts a
 *    new period and a new reminder). The notifications sender sends them after the commit, with its
 *    retries. The reminder is a marketing message: each channel goes only with the customer's standing
 *    marketing consent on it (the consent ledger, notifications/consent.ts), and a reminder due in the
 *    quiet hours waits for their end in the store's zone. Without consent on either channel the
 *    reminder is still claimed (no message, and no asking again every hour for that period).
 */
import { expiryOf, formatDate, type Store } from '@verdant/domain';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { inWriteTransaction } from '../db/group-commit.ts';
import { sectionOf } from '../store-settings/read.ts';
import { toE164 } from '../users/phone.ts';
import { contactKey, mayMessage } from '../notifications/consent.ts';
import { postEntry, type Db } from './ledger.ts';
import { LOYALTY_SECTION } from './section.ts';
import { every } from '../jobs/every.ts';
import { queueMessages } from '../notifications/queue.ts';

const DAY_MS = 86_400_000;
const BATCH = 200;
export const LOYALTY_REMINDER_TEMPLATE = 'loyalty_expiry_reminder';

export interface LoyaltyJobResult {
  expired: number;
  reminded: number;
}

export function reminderText(storeName: string, points: number, expiresOn: string): { sms: string; subject: string; body: string } {
  const sms = `${storeName}: your ${points} reward points expire on ${expiresOn}. Order before then to keep them.`;
  return { sms, subject: `Your ${points} reward points expire on ${expiresOn}`, body: `${sms}\n\nYou can see your points under My account → Points.` };
}

const activity = sql<string>`coalesce(last_purchase_at, created_at)`;

export async function runLoyaltyJob(db: Db, stores: readonly Store[], now: Date): Promise<LoyaltyJobResult> {
  const result: LoyaltyJobResult = { expired: 0, reminded: 0 };
  const iso = now.toISOString();
  for (const store of stores) {
    const { value: p } = await sectionOf(db, store, LOYALTY_SECTION);
    if (p.expiry.days <= 0) continue;
    const cutoff = new Date(now.getTime() - p.expiry.days * DAY_MS).toISOString();
    for (;;) {
      const due = await db
        .selectFrom('loyalty_accounts')
        .select(['id', 'customer_id'])
        .where('store_id', '=', store.storeId)
        .where('balance', '>', 0)
        .where(activity, '<=', cutoff)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      for (const a of due) {
        const done = await inWriteTransaction(db, (trx) =>
          postEntry(trx, { customerId: a.customer_id, storeId: store.storeId, orderId: null, kind: 'expire', points: -Number.MAX_SAFE_INTEGER, clamp: true, note: `No purchase in ${p.expiry.days} days`, iso }),
        );
        if (done) result.expired++;
      }
      if (due.length < BATCH) break;
    }
    if (p.expiry.reminderDays <= 0) continue;
    const remindFrom = new Date(now.getTime() - (p.expiry.days - p.expiry.reminderDays) * DAY_MS).toISOString();
    const due = await db
      .selectFrom('loyalty_accounts')
      .innerJoin('customers', 'customers.id', 'loyalty_accounts.customer_id')
      .select(['loyalty_accounts.id', 'loyalty_accounts.customer_id', 'loyalty_accounts.balance', 'customers.phone', 'customers.email', sql<string>`coalesce(loyalty_accounts.last_purchase_at, loyalty_accounts.created_at)`.as('since')])
      .where('loyalty_accounts.store_id', '=', store.storeId)
      .where('loyalty_accounts.balance', '>', 0)
      .where(sql<string>`coalesce(loyalty_accounts.last_purchase_at, loyalty_accounts.created_at)`, '<=', remindFrom)
      .where(sql<string>`coalesce(loyalty_accounts.last_purchase_at, loyalty_accounts.created_at)`, '>', cutoff)
      .where(sql<boolean>`(loyalty_accounts.reminded_for is null or loyalty_accounts.reminded_for <> coalesce(loyalty_accounts.last_purchase_at, loyalty_accounts.created_at))`)
      .orderBy('loyalty_accounts.id')
      .limit(1000)
      .execute();
    for (const a of due) {
      const sent = await inWriteTransaction(db, async (trx) => {
        const claimed = await trx
          .updateTable('loyalty_accounts')
          .set({ reminded_for: a.since, updated_at: iso })
          .where('id', '=', a.id)
          .where((eb) => eb.or([eb('reminded_for', 'is', null), eb('reminded_for', '!=', a.since)]))
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) return false;
        const dates = expiryOf(p, a.since)!;
        const text = reminderText(store.name, Number(a.balance), formatDate(dates.expiresAt, store.dispensarySettings.place_info.timezone));
        const eventId = `loyalty-expiry:${a.id}:${a.since}`;
        const phone = toE164(a.phone);
        const candidates = [
          ...(phone ? [{ channel: 'sms' as const, recipient: phone, subject: null, body: text.sms }] : []),
          ...(a.email ? [{ channel: 'email' as const, recipient: contactKey('email', a.email), subject: text.subject, body: text.body }] : []),
        ];
        const rows = [];
        for (const m of candidates) {
          const decision = await mayMessage(trx, { storeId: store.storeId, customerId: a.customer_id, contact: m.recipient, channel: m.channel, purpose: 'marketing', now, timeZone: store.dispensarySettings.place_info.timezone });
          if (decision.send) rows.push({ ...m, next_attempt_at: decision.at.toISOString() });
        }
        await queueMessages(
          trx,
          rows.map((m) => ({ event_id: eventId, store_id: store.storeId, order_id: null, customer_id: a.customer_id, template: LOYALTY_REMINDER_TEMPLATE, ...m, purpose: 'marketing' as const })),
          iso,
        );
        return true;
      });
      if (sent) result.reminded++;
    }
  }
  return result;
}

/** Run the job every `intervalMs` (default hourly; 0: never, tests run it by hand). */
export function startLoyaltyJob(app: FastifyInstance, deps: { db: Db; stores: readonly Store[]; now?: () => Date; intervalMs?: number }): void {
  const interval = deps.intervalMs ?? 3_600_000;
  if (interval <= 0) return;
  const now = deps.now ?? (() => new Date());
  every(
    app,
    interval,
    'loyalty job',
    () => runLoyaltyJob(deps.db, deps.stores, now()),
    (r) => {
      if (r.expired || r.reminded) app.log.info(r, 'loyalty points expired / reminders queued');
      if (r.reminded) (app as unknown as { outboxDispatcher?: { sender?: { wake(): void } } }).outboxDispatcher?.sender?.wake();
    },
  );
}
