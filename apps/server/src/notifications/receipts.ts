/**
 * Messages that arrive (issue 30): the provider's delivery reports and the fallback on the other channel.
 *
 * A row the sender handed to a gateway that reports back (SMS_RECEIPTS / MAIL_RECEIPTS) and that
 * answered with its own id waits for a receipt (`receipt = 'awaiting'`). Then:
 *  - `delivered` is final: a repeated or late callback of any kind never moves it back;
 *  - `failed` / `undelivered` from the provider, or no receipt within the wait (RECEIPT_WAIT_MS,
 *    MESSAGE_RECEIPT_WAIT_SECONDS), or the sender giving up after its retries, writes ONE fallback row:
 *    the same message rendered for the other channel at planning time (`fallback_*` columns), to the
 *    address the shopper gave there, when the consent rule allows that purpose on that channel.
 * Once only: each change is a guarded UPDATE (`… WHERE receipt = 'awaiting'`), so of a burst of
 * callbacks on any number of nodes one moves the row; and the fallback row sits behind the messages'
 * unique key (event_id, channel, recipient, template) with ON CONFLICT DO NOTHING.
 * A provider that reports nothing (the outbox) never waits, so never falls back.
 */
import type { Kysely } from 'kysely';
import type { Database, DeliveryChannel, Row } from '../db/schema.ts';
import { mayMessage } from './consent.ts';
import { queueMessages } from './queue.ts';

/**
 * 15 minutes: carriers report most texts within seconds to a few minutes; a pickup order's "ready"
 * message that has not arrived after 15 minutes is worth sending again by e-mail, while a shorter
 * wait would send many second copies of texts whose receipts are merely slow.
 */
export const RECEIPT_WAIT_MS = 15 * 60_000;

/** Looks again 10 × 200 ms for an id not (yet) recorded. */
const UNKNOWN_ID_RETRIES = 10;

export const REPORTED_STATUSES = ['delivered', 'failed', 'undelivered'] as const;
export type ReportedStatus = (typeof REPORTED_STATUSES)[number];

export interface ReceiptDeps {
  db: Kysely<Database>;
  /** The store's IANA zone (quiet hours of a marketing fallback). */
  timeZoneOf: (storeId: number) => string | undefined;
  now?: () => Date;
}

type FallbackSource = Pick<
  Row<'message_deliveries'>,
  | 'id'
  | 'event_id'
  | 'store_id'
  | 'order_id'
  | 'customer_id'
  | 'template'
  | 'purpose'
  | 'fallback_channel'
  | 'fallback_recipient'
  | 'fallback_subject'
  | 'fallback_body'
>;

const FALLBACK_COLUMNS = [
  'id',
  'event_id',
  'store_id',
  'order_id',
  'customer_id',
  'template',
  'purpose',
  'fallback_channel',
  'fallback_recipient',
  'fallback_subject',
  'fallback_body',
] as const;

/**
 * Write the row's fallback on the other channel (once: behind the unique key); true when a new row
 * was written. Nothing when the row has none or consent on that channel does not allow it.
 */
export async function writeFallback(deps: ReceiptDeps, row: FallbackSource): Promise<boolean> {
  if (!row.fallback_channel || !row.fallback_recipient || row.fallback_body === null) return false;
  const t = (deps.now ?? (() => new Date()))();
  const decision = await mayMessage(deps.db, {
    storeId: row.store_id,
    customerId: row.customer_id,
    contact: row.fallback_recipient,
    channel: row.fallback_channel,
    purpose: row.purpose ?? 'transactional',
    now: t,
    timeZone: deps.timeZoneOf(row.store_id) ?? 'UTC',
  });
  if (!decision.send) return false;
  const at = t.toISOString();
  const fallback = {
    event_id: row.event_id,
    store_id: row.store_id,
    order_id: row.order_id,
    customer_id: row.customer_id,
    channel: row.fallback_channel,
    recipient: row.fallback_recipient,
    template: row.template,
    purpose: row.purpose,
    subject: row.fallback_subject,
    body: row.fallback_body,
    fallback_of: row.id,
    next_attempt_at: decision.at.toISOString(),
  };
  return (await queueMessages(deps.db, [fallback], at)) > 0;
}

export interface ReceiptOutcome {
  /** A message with this provider id exists on the channel. */
  found: boolean;
  /** This call wrote a fallback row (the sender should look for due rows). */
  fallback: boolean;
}

/**
 * A provider's report for its message id on a channel. Idempotent: `delivered` is final; a failure
 * moves only a row still waiting (or without a receipt, or given up waiting: its fallback, if any,
 * exists already and the unique key keeps it one).
 */
export async function recordReceipt(
  deps: ReceiptDeps,
  report: { channel: DeliveryChannel; providerId: string; status: ReportedStatus; error?: string },
): Promise<ReceiptOutcome> {
  const { db } = deps;
  const at = (deps.now ?? (() => new Date()))().toISOString();
  const find = () =>
    db.selectFrom('message_deliveries').select(FALLBACK_COLUMNS).where('channel', '=', report.channel).where('provider_id', '=', report.providerId).execute();
  let rows = await find();
  // A fast gateway may report before the sender has written down the id it answered: look again
  // for a moment before calling the id unknown.
  for (let i = 0; !rows.length && i < UNKNOWN_ID_RETRIES; i++) {
    await new Promise((r) => setTimeout(r, 200));
    rows = await find();
  }
  if (!rows.length) return { found: false, fallback: false };
  let fallback = false;
  for (const row of rows) {
    if (report.status === 'delivered') {
      await db
        .updateTable('message_deliveries')
        .set({ receipt: 'delivered', receipt_at: at, updated_at: at })
        .where('id', '=', row.id)
        .where('status', '=', 'sent')
        .where((eb) => eb.or([eb('receipt', 'is', null), eb('receipt', '!=', 'delivered')]))
        .execute();
      continue;
    }
    const error = report.error?.trim() ? `Provider: ${report.error.trim()}`.slice(0, 500) : `Provider: ${report.status}`;
    const moved = await db
      .updateTable('message_deliveries')
      .set({ receipt: 'failed', receipt_at: at, last_error: error, updated_at: at })
      .where('id', '=', row.id)
      .where('status', '=', 'sent')
      .where((eb) => eb.or([eb('receipt', 'is', null), eb('receipt', 'in', ['awaiting', 'no_receipt'])]))
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 1 && (await writeFallback(deps, row))) fallback = true;
  }
  return { found: true, fallback };
}

/**
 * Rows still waiting for a receipt after `waitMs` become `no_receipt` and get their fallback (each
 * once: the guarded UPDATE picks one node). Returns how many fallback rows were written.
 */
export async function expireReceipts(deps: ReceiptDeps, waitMs: number, limit = 100): Promise<number> {
  const t = (deps.now ?? (() => new Date()))();
  const at = t.toISOString();
  const rows = await deps.db
    .selectFrom('message_deliveries')
    .select(FALLBACK_COLUMNS)
    .where('receipt', '=', 'awaiting')
    .where('sent_at', '<=', new Date(t.getTime() - waitMs).toISOString())
    .orderBy('id')
    .limit(limit)
    .execute();
  let written = 0;
  for (const row of rows) {
    const moved = await deps.db
      .updateTable('message_deliveries')
      .set({ receipt: 'no_receipt', receipt_at: at, updated_at: at })
      .where('id', '=', row.id)
      .where('receipt', '=', 'awaiting')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 1 && (await writeFallback(deps, row))) written++;
  }
  return written;
}
