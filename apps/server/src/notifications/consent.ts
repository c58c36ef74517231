/**
 * The consent ledger (issue 30, table `consent_events`, migration 0033): append-only rows of who
 * granted or withdrew which purpose on which channel in which store, when, through which form and
 * with which words. The rule that reads it is the domain's `decideMessage` (packages/domain/src/consent.ts):
 * marketing only on a standing grant, a withdrawal counts at once, quiet hours in the store's zone.
 *
 * A subject is a customer (customer_id) and/or a contact (E.164 phone, lower-cased e-mail): a
 * message to a customer's phone is judged by the rows of the customer AND of that phone, so an SMS
 * STOP (which only knows the number) stops a logged-in customer's texts as well.
 *
 * A withdrawal also holds back, in its own transaction, the subject's marketing messages not yet
 * sent (message_deliveries with purpose `marketing`, status pending → failed "Not sent: consent
 * withdrawn"): a deferred alert never goes after the shopper said stop.
 */
import type { Kysely, Transaction } from 'kysely';
import { decideMessage, type ConsentAction, type ConsentRecord, type MessageChannel, type MessageDecision, type MessagePurpose, type QuietHours } from '@verdant/domain';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export const WITHDRAWN_ERROR = 'Not sent: consent withdrawn';

export interface ConsentSubject {
  storeId: number;
  customerId?: number | null;
  /** E.164 phone or lower-cased e-mail. */
  contact?: string | null;
}

export interface NewConsent extends ConsentSubject {
  channel: MessageChannel;
  purposes: readonly MessagePurpose[];
  action: ConsentAction;
  source: string;
  words: string | null;
  at: Date;
}

/** The contact as the ledger keys it (phones are already E.164; e-mail addresses are lower-cased). */
export function contactKey(channel: MessageChannel, value: string): string {
  return channel === 'email' ? value.trim().toLowerCase() : value.trim();
}

/** Append the rows (one per purpose); a withdrawal also holds back pending marketing messages. */
export async function recordConsent(db: Db, c: NewConsent): Promise<void> {
  const at = c.at.toISOString();
  await db
    .insertInto('consent_events')
    .values(
      c.purposes.map((purpose) => ({
        store_id: c.storeId,
        customer_id: c.customerId ?? null,
        contact: c.contact ?? null,
        channel: c.channel,
        purpose,
        action: c.action,
        source: c.source,
        words: c.words,
        at,
      })),
    )
    .execute();
  if (c.action === 'withdrawn' && c.purposes.includes('marketing') && c.contact)
    await db
      .updateTable('message_deliveries')
      .set({ status: 'failed', last_error: WITHDRAWN_ERROR, next_attempt_at: null, updated_at: at })
      .where('store_id', '=', c.storeId)
      .where('channel', '=', c.channel)
      .where('recipient', '=', c.contact)
      .where('purpose', '=', 'marketing')
      .where('status', '=', 'pending')
      .execute();
}

/** The subject's rows on a channel, oldest first (ties in `at` by id). */
export async function consentRecords(db: Db, subject: ConsentSubject, channel: MessageChannel): Promise<ConsentRecord[]> {
  const { customerId, contact } = subject;
  if (!customerId && !contact) return [];
  const rows = await db
    .selectFrom('consent_events')
    .select(['channel', 'purpose', 'action', 'at'])
    .where('store_id', '=', subject.storeId)
    .where('channel', '=', channel)
    .where((eb) =>
      eb.or([...(customerId ? [eb('customer_id', '=', customerId)] : []), ...(contact ? [eb('contact', '=', contact)] : [])]),
    )
    .orderBy('at')
    .orderBy('id')
    .execute();
  return rows;
}

/** Whether a message may go to the subject on the channel, and when (the store's zone and quiet hours). */
export async function mayMessage(
  db: Db,
  q: ConsentSubject & { channel: MessageChannel; purpose: MessagePurpose; now: Date; timeZone: string; quietHours?: QuietHours },
): Promise<MessageDecision> {
  const records = await consentRecords(db, q, q.channel);
  return decideMessage({ channel: q.channel, purpose: q.purpose, records, now: q.now, timeZone: q.timeZone, quietHours: q.quietHours });
}
