/**
 * New orders easy to miss (issue 26): when a member of staff first opened the order in the console,
 * and who. An order nobody opened yet is "New" in every console (kept over a reload, on every device)
 * and the console reminds staff of it every 30 s until someone opens it. Null on orders nobody opened.
 */
import type { Kysely } from 'kysely';
import type { DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('opened_at', 'text').execute();
  await db.schema.alterTable('orders').addColumn('opened_by', 'integer').execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('opened_by').execute();
  await db.schema.alterTable('orders').dropColumn('opened_at').execute();
}

export const migration0026: DialectMigration = { up, down };
