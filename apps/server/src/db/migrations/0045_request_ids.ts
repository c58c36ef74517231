/**
 * Issue 32: the request id that wrote an outbox event (`outbox_events.request_id`, null for events
 * no request caused: jobs, the seed). The consumers log it with what the event caused — the message
 * sent, the webhook attempt (which also sends it as `X-Request-Id`) — so one id follows an order
 * from its request to the texts and webhooks it set off. Messages and webhook deliveries reach it
 * through their `event_id`.
 */
import type { Kysely } from 'kysely';
import type { DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox_events').addColumn('request_id', 'text').execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox_events').dropColumn('request_id').execute();
}

export const migration0045: DialectMigration = { up, down };
