/**
 * Migration 0034 (issue 30) replaces the `reward_points` ledger (a sum of deltas) with loyalty
 * accounts and a ledger with the balance after each entry. Proven on both databases: balances
 * carried down to `reward_points` and up again come back as ONE opening `adjust` entry per customer
 * and store (a negative old sum as 0), with the sign-up bonus counted as given; down and up keep
 * every balance.
 */
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test-support/databases.ts';
import { syncStores } from '../index.ts';
import { DEMO_STORES_FILE } from '../../config.ts';
import { readStoresFile } from '../../seed/index.ts';
import { createCustomer } from '../../users/customers.ts';
import { adjustPoints, balanceOf } from '../../loyalty/ledger.ts';
import { migration0034 } from './0034_loyalty.ts';
import { MIGRATIONS } from './index.ts';

const LATER = Object.keys(MIGRATIONS).filter((name) => name > '0034_loyalty').sort();

describeEachDatabase('migration 0034: the loyalty ledger', (getDb) => {
  it('carries each old balance over as one opening entry, and keeps balances through down and up', async () => {
    const t = getDb();
    const db = t.db;
    await syncStores(db, readStoresFile(DEMO_STORES_FILE));
    const now = new Date('2026-06-15T12:00:00.000Z');
    const a = await createCustomer(db, 1, { phone: '+19165553490', licenseType: 'recreational', birthday: '1990-01-01' }, now);
    const b = await createCustomer(db, 2, { phone: '+19165553491', licenseType: 'recreational', birthday: '1990-01-01' }, now);
    const c = await createCustomer(db, 1, { phone: '+19165553492', licenseType: 'recreational', birthday: '1990-01-01' }, now);
    await adjustPoints(db, a.id, 1, 120, now.toISOString());
    await adjustPoints(db, b.id, 2, 30, now.toISOString());
    const before = { a: await balanceOf(db, a.id, 1), b: await balanceOf(db, b.id, 2) };
    expect(before.a).toBe(170); // with downtown's 50-point sign-up bonus

    for (const name of [...LATER].reverse()) await db.transaction().execute((trx) => MIGRATIONS[name]!.down(trx, t.dialect));
    await db.transaction().execute((trx) => migration0034.down(trx, t.dialect));
    const old = db as unknown as import('kysely').Kysely<any>;
    // Old-style rows: c spent more than it had (the old ledger could), a earned more.
    const iso = '2026-06-20T10:00:00.000Z';
    await old.insertInto('reward_points').values({ customer_id: a.id, store_id: 1, delta: 25, reason: 'order_earned', order_id: null, created_at: iso }).execute();
    await old.insertInto('reward_points').values({ customer_id: c.id, store_id: 1, delta: -80, reason: 'order', order_id: null, created_at: iso }).execute();
    await db.transaction().execute((trx) => migration0034.up(trx, t.dialect));
    for (const name of LATER) await db.transaction().execute((trx) => MIGRATIONS[name]!.up(trx, t.dialect));

    expect(await balanceOf(db, a.id, 1)).toBe(before.a + 25);
    expect(await balanceOf(db, b.id, 2)).toBe(before.b);
    // 50 (bonus) − 80: never below 0.
    expect(await balanceOf(db, c.id, 1)).toBe(0);
    const ledger = await db.selectFrom('loyalty_ledger').select(['customer_id', 'kind', 'points', 'balance_after', 'note']).where('customer_id', 'in', [a.id, b.id, c.id]).orderBy('customer_id').execute();
    expect(ledger.map((r) => [r.customer_id, r.kind, Number(r.points), Number(r.balance_after), r.note])).toEqual([
      [a.id, 'adjust', before.a + 25, before.a + 25, 'Opening balance'],
      [b.id, 'adjust', before.b, before.b, 'Opening balance'],
    ]);
    const account = await db.selectFrom('loyalty_accounts').selectAll().where('customer_id', '=', a.id).executeTakeFirstOrThrow();
    expect(account.last_purchase_at).toBe(iso);
    expect(account.bonus_at).not.toBeNull();
    // The carried-over account takes new entries.
    expect(await adjustPoints(db, c.id, 1, 10, iso)).toMatchObject({ balanceAfter: 10 });
  });
});
