/**
 * `carts.ordered_at`: when the cart was turned into an order (null while it is open). Placing an
 * order empties the cart but keeps its row (a browser may still hold the token); the mark keeps
 * cart/create from handing an ordered cart to the customer's other devices. The index serves that
 * lookup: a customer's most recent carts in a store.
 */
import type { Kysely } from 'kysely';
import { index, type DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('carts').addColumn('ordered_at', 'text').execute();
  await index(db, 'carts', ['customer_id', 'store_id', 'updated_at']);
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('carts_customer_id_store_id_updated_at_idx').ifExists().execute();
  await db.schema.alterTable('carts').dropColumn('ordered_at').execute();
}

export const migration0008: DialectMigration = { up, down };
