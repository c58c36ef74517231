/**
 * Messages that arrive (issue 30): what the provider said about each message, and the fallback.
 * message_deliveries gain
 *  - customer_id: the customer a message is for, when known (its consent rows count at send time);
 *  - provider (`outbox` | `http`) and provider_id: which gateway took the message and the id it
 *    answered with (the key of its delivery-status callbacks);
 *  - receipt: null (the provider reports nothing) | awaiting | delivered | failed | no_receipt, and
 *    receipt_at: when it changed;
 *  - fallback_channel / fallback_recipient / fallback_subject / fallback_body: the same message
 *    rendered for the other channel at planning time (null: no fallback), and fallback_of: the row a
 *    fallback row stands in for.
 */
import type { Kysely } from 'kysely';
import { index, type DialectMigration } from './helpers.ts';

const COLUMNS: [string, 'integer' | 'text'][] = [
  ['customer_id', 'integer'],
  ['provider', 'text'],
  ['provider_id', 'text'],
  ['receipt', 'text'],
  ['receipt_at', 'text'],
  ['fallback_of', 'integer'],
  ['fallback_channel', 'text'],
  ['fallback_recipient', 'text'],
  ['fallback_subject', 'text'],
  ['fallback_body', 'text'],
];

async function up(db: Kysely<any>): Promise<void> {
  for (const [name, type] of COLUMNS) await db.schema.alterTable('message_deliveries').addColumn(name, type).execute();
  await index(db, 'message_deliveries', ['channel', 'provider_id']);
  await index(db, 'message_deliveries', ['receipt', 'sent_at']);
  await index(db, 'message_deliveries', ['fallback_of']);
}

async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['message_deliveries_channel_provider_id_idx', 'message_deliveries_receipt_sent_at_idx', 'message_deliveries_fallback_of_idx'])
    await db.schema.dropIndex(name).execute();
  for (const [name] of [...COLUMNS].reverse()) await db.schema.alterTable('message_deliveries').dropColumn(name).execute();
}

export const migration0035: DialectMigration = { up, down };
