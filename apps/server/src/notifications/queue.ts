/**
 * Queue messages for the sender (./sender.ts): rows of `message_deliveries`, pending with no attempt
 * yet, written behind the unique key (event_id, channel, recipient, template) with ON CONFLICT DO
 * NOTHING, so a planner that runs twice for one event (at-least-once consumers, two nodes, a retry)
 * queues each message once. Used by every planner: order messages, the fallback, back-in-stock
 * alerts, loyalty reminders and the driver's "about 10 minutes away".
 */
import type { Insertable, Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema.ts";
import type { MessageDeliveriesTable } from "../db/tables/console.ts";

/** A message to queue: everything but the sender's own state; `next_attempt_at` defaults to `at` (send now). */
export type QueuedMessage = Omit<
  Insertable<MessageDeliveriesTable>,
  "status" | "attempts" | "created_at" | "updated_at"
>;

/** Queue the rows (once each); resolves with how many were new. */
export async function queueMessages(
  db: Kysely<Database> | Transaction<Database>,
  rows: readonly QueuedMessage[],
  at: string,
): Promise<number> {
  if (!rows.length) return 0;
  const result = await db
    .insertInto("message_deliveries")
    .values(
      rows.map((m) => ({
        next_attempt_at: at,
        ...m,
        status: "pending" as const,
        attempts: 0,
        created_at: at,
        updated_at: at,
      })),
    )
    .onConflict((oc) =>
      oc.columns(["event_id", "channel", "recipient", "template"]).doNothing(),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}
