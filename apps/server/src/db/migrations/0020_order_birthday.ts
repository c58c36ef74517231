/**
 * Age on every order (issue 14): the order keeps the date of birth it was accepted with (the guest's
 * from checkout, a customer's from the account) and the minimum age it was judged by (21, or the
 * store's medical minimum), so the console shows the age check as it was made even after the
 * account or the store's setting changes. Null on orders placed before this migration.
 */
import type { Kysely } from 'kysely';
import type { DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('birthday', 'text').execute();
  await db.schema.alterTable('orders').addColumn('minimum_age', 'integer').execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('minimum_age').execute();
  await db.schema.alterTable('orders').dropColumn('birthday').execute();
}

export const migration0020: DialectMigration = { up, down };
