/**
 * Sends pending `message_deliveries` rows through the SMS provider and the mailer the accounts use.
 * Several nodes run it at once: a node first takes a row's lease (`UPDATE … SET lease_until WHERE
 * id = ? AND status = 'pending' AND (lease_until IS NULL OR lease_until < now)`) and sends only when
 * its update changed the row, so one row is sent by one node. A failure records the error and
 * retries after 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h; the 8th failure marks the row `failed`.
 * A node that dies mid-send leaves the lease to expire (60 s) and another node sends again: a
 * message may, rarely, arrive twice; it is never lost. State lives in the rows, so restarts keep
 * pending work. In the demo (outbox providers) `sent` means "written to the log".
 *
 * Issue 30: just before sending, consent is asked again (a withdrawal recorded after planning stops
 * the message: status `failed`, "Not sent: consent withdrawn"; marketing in quiet hours waits). The
 * gateway's id is kept (`provider_id`); a gateway that reports back makes the row wait for its
 * receipt, and a failure, a missing receipt or giving up writes the fallback on the other channel
 * (./receipts.ts).
 */
import type { Kysely, Selectable } from 'kysely';
import type { SmsProvider } from '../auth/sms.ts';
import type { Database, MessageDeliveriesTable } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { WITHDRAWN_ERROR, mayMessage } from './consent.ts';
import { RECEIPT_WAIT_MS, expireReceipts, writeFallback, type ReceiptDeps } from './receipts.ts';
import { pollLoop, type PollTurn } from '../jobs/poll-loop.ts';

/** Delay after the 1st, 2nd, … failure. */
export const RETRY_SCHEDULE_MS: readonly number[] = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000];
export const MAX_ATTEMPTS = 8;
export const LEASE_MS = 60_000;

export interface MessageSenderOptions {
  db: Kysely<Database>;
  sms: SmsProvider;
  mailer: Mailer;
  now?: () => Date;
  pollMs?: number;
  leaseMs?: number;
  retrySchedule?: readonly number[];
  maxAttempts?: number;
  batchSize?: number;
  onError?: (err: unknown) => void;
  /** The store's IANA zone, for consent's quiet hours at send time (unknown store: UTC). */
  timeZoneOf?: (storeId: number) => string | undefined;
  /** How long a sent message waits for its provider's receipt before the fallback (default RECEIPT_WAIT_MS). */
  receiptWaitMs?: number;
  /** Issue 32: a line per message sent or failed, with the request id of the event that caused it (`reqId`). */
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export const NO_CONSENT_ERROR = 'Not sent: no consent';

export interface MessageSender {
  start(): void;
  /** Look for due rows now (after new rows were written). */
  wake(): void;
  /** Send what is due now; resolves with how many rows this call sent or failed. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

const ROW_COLUMNS = [
  'id',
  'event_id',
  'store_id',
  'order_id',
  'customer_id',
  'template',
  'purpose',
  'channel',
  'recipient',
  'subject',
  'body',
  'attempts',
  'fallback_channel',
  'fallback_recipient',
  'fallback_subject',
  'fallback_body',
] as const;
type Row = Pick<Selectable<MessageDeliveriesTable>, (typeof ROW_COLUMNS)[number]>;

interface Sent {
  provider: string;
  providerId: string | null;
  /** The provider reports delivery: the row waits for its receipt. */
  awaitsReceipt: boolean;
}

export function createMessageSender(options: MessageSenderOptions): MessageSender {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const schedule = options.retrySchedule ?? RETRY_SCHEDULE_MS;
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const batchSize = options.batchSize ?? 50;
  const receiptDeps: ReceiptDeps = { db, now, timeZoneOf: (id) => options.timeZoneOf?.(id) };
  const receiptWaitMs = options.receiptWaitMs ?? RECEIPT_WAIT_MS;

  async function due(at: string): Promise<Row[]> {
    return db
      .selectFrom('message_deliveries')
      .select(ROW_COLUMNS)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', at)]))
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .orderBy('id')
      .limit(batchSize)
      .execute();
  }

  async function lease(id: number): Promise<boolean> {
    const t = now();
    const at = t.toISOString();
    const result = await db
      .updateTable('message_deliveries')
      .set({ lease_until: new Date(t.getTime() + leaseMs).toISOString(), updated_at: at })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async function deliver(row: Row): Promise<Sent> {
    if (row.channel === 'sms') {
      if (!options.sms.sendText) throw new Error('The SMS provider cannot send plain messages');
      const answer = await options.sms.sendText(row.recipient, row.body);
      const providerId = answer?.id ?? null;
      return { provider: options.sms.name ?? 'sms', providerId, awaitsReceipt: !!options.sms.receipts && providerId !== null };
    }
    const answer = await options.mailer.send({ to: row.recipient, subject: row.subject ?? '', text: row.body });
    const providerId = answer?.id ?? null;
    return { provider: options.mailer.name ?? 'mail', providerId, awaitsReceipt: !!options.mailer.receipts && providerId !== null };
  }

  /**
   * Consent asked again at send time (issue 30): a withdrawal recorded after planning stops the row
   * (and its fallback goes where consent allows); marketing that reached quiet hours waits. True: send now.
   */
  async function stillAllowed(row: Row): Promise<boolean> {
    const t = now();
    const decision = await mayMessage(db, {
      storeId: row.store_id,
      customerId: row.customer_id,
      contact: row.recipient,
      channel: row.channel,
      purpose: row.purpose ?? 'transactional',
      now: t,
      timeZone: options.timeZoneOf?.(row.store_id) ?? 'UTC',
    });
    if (decision.send && !decision.deferred) return true;
    const at = t.toISOString();
    await db
      .updateTable('message_deliveries')
      .set(
        decision.send
          ? { next_attempt_at: decision.at.toISOString(), lease_until: null, updated_at: at }
          : { status: 'failed', last_error: decision.reason === 'withdrawn' ? WITHDRAWN_ERROR : NO_CONSENT_ERROR, next_attempt_at: null, lease_until: null, updated_at: at },
      )
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .execute();
    // The fallback row is due at once: the next pass (within pollMs) sends it.
    if (!decision.send) await writeFallback(receiptDeps, row);
    return false;
  }

  async function sendOne(row: Row): Promise<void> {
    const attempts = row.attempts + 1;
    if (!(await stillAllowed(row))) return;
    let sent: Sent;
    try {
      sent = await deliver(row);
    } catch (err) {
      const t = now();
      const giveUp = attempts >= maxAttempts;
      const delay = schedule[Math.min(attempts - 1, schedule.length - 1)] ?? 60_000;
      await db
        .updateTable('message_deliveries')
        .set({
          status: giveUp ? 'failed' : 'pending',
          attempts,
          last_error: String((err as Error)?.message ?? err).slice(0, 500),
          next_attempt_at: giveUp ? null : new Date(t.getTime() + delay).toISOString(),
          lease_until: null,
          updated_at: t.toISOString(),
        })
        .where('id', '=', row.id)
        .execute();
      if (options.log) options.log.warn({ ...(await traceOf(row)), attempt: attempts, givenUp: giveUp, err: (err as Error)?.message }, 'message not sent');
      // Given up: the message goes by the other channel where it can.
      if (giveUp) await writeFallback(receiptDeps, row);
      return;
    }
    const at = now().toISOString();
    await db
      .updateTable('message_deliveries')
      .set({
        status: 'sent',
        attempts,
        sent_at: at,
        next_attempt_at: null,
        lease_until: null,
        last_error: null,
        updated_at: at,
        provider: sent.provider,
        provider_id: sent.providerId,
        receipt: sent.awaitsReceipt ? 'awaiting' : null,
      })
      .where('id', '=', row.id)
      .execute();
    if (options.log) options.log.info({ ...(await traceOf(row)), provider: sent.provider }, 'message sent');
  }

  /** What a log line says of a message: its row, event and the request id of the event's request. */
  async function traceOf(row: Row) {
    const event = await db.selectFrom('outbox_events').select('request_id').where('event_id', '=', row.event_id).executeTakeFirst();
    return { reqId: event?.request_id ?? undefined, messageId: row.id, eventId: row.event_id, channel: row.channel, template: row.template };
  }

  /** Sent rows whose receipt did not come in time: their fallback (./receipts.ts). */
  async function overdueReceipts(): Promise<void> {
    await expireReceipts(receiptDeps, receiptWaitMs);
  }

  async function pass(turn: PollTurn): Promise<number> {
    let count = 0;
    await overdueReceipts();
    for (;;) {
      const rows = await due(now().toISOString());
      for (const row of rows) {
        if (turn.stopped) return count;
        if (!(await lease(row.id))) continue;
        await sendOne(row);
        count++;
      }
      if (!turn.more(rows.length >= batchSize)) return count;
    }
  }

  // The loop (start, wake, drain, stop) is the workers' one polling loop (../jobs/poll-loop.ts).
  return pollLoop({ pass, pollMs, onError: options.onError });
}
