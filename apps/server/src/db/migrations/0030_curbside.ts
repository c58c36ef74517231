/**
 * Curbside pickup (issue 29): the shopper's "I'm here" on the order. `curbside_arrived_at` is the
 * first arrival (kept by a COALESCE in one guarded UPDATE, so a burst of taps writes one time); the
 * car and bay are the latest the shopper sent. All null on orders nobody arrived for.
 */
import type { Kysely } from 'kysely';
import type { DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('curbside_arrived_at', 'text').execute();
  await db.schema.alterTable('orders').addColumn('curbside_car', 'text').execute();
  await db.schema.alterTable('orders').addColumn('curbside_bay', 'text').execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('curbside_bay').execute();
  await db.schema.alterTable('orders').dropColumn('curbside_car').execute();
  await db.schema.alterTable('orders').dropColumn('curbside_arrived_at').execute();
}

export const migration0030: DialectMigration = { up, down };
