/**
 * Sends pending `message_deliveries` rows through the SMS provider and the mailer the accounts use.
 * Several nodes run it at once: a node first takes a row's lease (`UPDATE … SET lease_until WHERE
 * id = ? AND status = 'pending' AND (lease_until IS NULL OR lease_until < now)`) and sends only when
 * its update changed the row, so one row is sent by one node. A failure records the error and
 * retries after 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h; the 8th failure marks the row `failed`.
 * A node that dies mid-send leaves the lease to expire (60 s) and another node sends again: a
 * message may, rarely, arrive twice; it is never lost. State lives in the rows, so restarts keep
 * pending work. In the demo (outbox providers) `sent` means "written to the log".
 */
import type { Kysely } from 'kysely';
import type { SmsProvider } from '../auth/sms.ts';
import type { Database } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
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
}

export interface MessageSender {
  start(): void;
  /** Look for due rows now (after new rows were written). */
  wake(): void;
  /** Send what is due now; resolves with how many rows this call sent or failed. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

interface Row {
  id: number;
  channel: 'sms' | 'email';
  recipient: string;
  subject: string | null;
  body: string;
  attempts: number;
}

export function createMessageSender(options: MessageSenderOptions): MessageSender {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const schedule = options.retrySchedule ?? RETRY_SCHEDULE_MS;
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const batchSize = options.batchSize ?? 50;

  async function due(at: string): Promise<Row[]> {
    return db
      .selectFrom('message_deliveries')
      .select(['id', 'channel', 'recipient', 'subject', 'body', 'attempts'])
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

  async function deliver(row: Row): Promise<void> {
    if (row.channel === 'sms') {
      if (!options.sms.sendText) throw new Error('The SMS provider cannot send plain messages');
      await options.sms.sendText(row.recipient, row.body);
    } else {
      await options.mailer.send({ to: row.recipient, subject: row.subject ?? '', text: row.body });
    }
  }

  async function sendOne(row: Row): Promise<void> {
    const attempts = row.attempts + 1;
    try {
      await deliver(row);
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
      return;
    }
    const at = now().toISOString();
    await db
      .updateTable('message_deliveries')
      .set({ status: 'sent', attempts, sent_at: at, next_attempt_at: null, lease_until: null, last_error: null, updated_at: at })
      .where('id', '=', row.id)
      .execute();
  }

  async function pass(turn: PollTurn): Promise<number> {
    let count = 0;
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
