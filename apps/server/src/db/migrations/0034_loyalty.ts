/**
 * Loyalty (issue 30): the points ledger and one account row per customer and store.
 *  - loyalty_accounts: the balance (never below 0: every change is a conditional
 *    `UPDATE … SET balance = balance + :d WHERE … AND balance + :d >= 0`), the last completed
 *    purchase (expiry counts from it), when the sign-up bonus was given (once), and the last-purchase
 *    instant an expiry reminder was queued for (once per period without a purchase).
 *  - loyalty_ledger: every change, with the balance after it: kind earn | reverse | redeem | bonus |
 *    expire | adjust. Unique (order_id, kind): an order earns once, redeems once and is reversed
 *    once, whatever the burst; unique (customer_id, store_id) where kind = 'bonus': one sign-up bonus.
 * The old `reward_points` ledger (sum of deltas) is carried over as ONE opening `adjust` entry per
 * customer and store (its balance, floored at 0), then dropped. Accounts carried over count as
 * having had their sign-up bonus (they signed up before the programme) and their last activity as
 * their last purchase, so their points do not expire on the day a store turns expiry on.
 */
import { sql, type Kysely } from 'kysely';
import { index, notNull, ref, withId, zero, type DialectMigration, type SqlDialect } from './helpers.ts';

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await withId(dialect)(db.schema.createTable('loyalty_accounts'))
    .addColumn('customer_id', 'integer', ref('customers.id'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('balance', 'integer', zero)
    .addColumn('last_purchase_at', 'text')
    .addColumn('bonus_at', 'text')
    .addColumn('reminded_for', 'text')
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .addCheckConstraint('loyalty_accounts_balance_check', sql`balance >= 0`)
    .execute();
  await index(db, 'loyalty_accounts', ['customer_id', 'store_id'], true);
  await index(db, 'loyalty_accounts', ['store_id', 'last_purchase_at']);

  await withId(dialect)(db.schema.createTable('loyalty_ledger'))
    .addColumn('customer_id', 'integer', ref('customers.id'))
    .addColumn('store_id', 'integer', ref('stores.id', 'restrict'))
    .addColumn('order_id', 'integer', ref('orders.id', 'set null', true))
    // earn | reverse | redeem | bonus | expire | adjust
    .addColumn('kind', 'text', notNull)
    .addColumn('points', 'integer', notNull)
    .addColumn('balance_after', 'integer', notNull)
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();
  await index(db, 'loyalty_ledger', ['order_id', 'kind'], true);
  await index(db, 'loyalty_ledger', ['customer_id', 'store_id', 'id']);
  await db.schema
    .createIndex('loyalty_ledger_one_bonus_key')
    .on('loyalty_ledger')
    .columns(['customer_id', 'store_id'])
    .unique()
    .where(sql.ref('kind'), '=', sql.lit('bonus'))
    .execute();

  // The old ledger, one opening entry per customer and store.
  const at = new Date().toISOString();
  const old = await db
    .selectFrom('reward_points')
    .select(['customer_id', 'store_id', sql<number>`sum(delta)`.as('balance'), sql<string>`max(created_at)`.as('last_at')])
    .groupBy(['customer_id', 'store_id'])
    .execute();
  for (const r of old as { customer_id: number; store_id: number; balance: number | string; last_at: string }[]) {
    const balance = Math.max(0, Number(r.balance));
    await db
      .insertInto('loyalty_accounts')
      .values({ customer_id: r.customer_id, store_id: r.store_id, balance, last_purchase_at: r.last_at, bonus_at: at, reminded_for: null, created_at: at, updated_at: at })
      .execute();
    if (balance > 0)
      await db
        .insertInto('loyalty_ledger')
        .values({ customer_id: r.customer_id, store_id: r.store_id, order_id: null, kind: 'adjust', points: balance, balance_after: balance, note: 'Opening balance', created_at: at })
        .execute();
  }
  await db.schema.dropTable('reward_points').execute();
}

async function down(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await withId(dialect)(db.schema.createTable('reward_points'))
    .addColumn('customer_id', 'integer', ref('customers.id'))
    .addColumn('store_id', 'integer', ref('stores.id'))
    .addColumn('delta', 'integer', notNull)
    .addColumn('reason', 'text', notNull)
    .addColumn('order_id', 'integer', ref('orders.id', 'set null', true))
    .addColumn('created_at', 'text', notNull)
    .execute();
  await index(db, 'reward_points', ['customer_id', 'created_at']);
  // One row per balance, dated at the account's last purchase (expiry counts from it when going up again).
  const accounts = await db.selectFrom('loyalty_accounts').select(['customer_id', 'store_id', 'balance', 'last_purchase_at', 'created_at']).where('balance', '>', 0).execute();
  for (const a of accounts)
    await db
      .insertInto('reward_points')
      .values({ customer_id: a.customer_id, store_id: a.store_id, delta: a.balance, reason: 'opening', order_id: null, created_at: a.last_purchase_at ?? a.created_at })
      .execute();
  await db.schema.dropTable('loyalty_ledger').execute();
  await db.schema.dropTable('loyalty_accounts').execute();
}

export const migration0034: DialectMigration = { up, down };
