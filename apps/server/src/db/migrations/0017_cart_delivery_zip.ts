/**
 * `carts.delivery_zip` (issue 14, delivery zones): the ZIP code of the delivery address the
 * server last accepted at shipping-information, so the cart's totals charge that address's zone
 * fee (zones differ in fee, minimum and free-delivery threshold). Null for pickup and before an
 * address was given. The order is judged again from the address it is placed with.
 */
import type { Kysely } from 'kysely';
import type { DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('carts').addColumn('delivery_zip', 'text').execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('carts').dropColumn('delivery_zip').execute();
}

export const migration0017: DialectMigration = { up, down };
