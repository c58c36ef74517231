/**
 * The directory's search stays on the indexes (migration 0041) with 10,000 customers in the store,
 * on both databases: EXPLAIN of each kind of search names the index and never scans the table, and
 * a search answers in well under the console's patience.
 */
import { CompiledQuery } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { seedDemo, readStoresFile } from '../seed/index.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { pageQuery, planSearch, searchCustomers } from './directory.ts';
import { customerRow } from '../../test-support/customers/rows.ts';

const COUNT = 10_000;
const FIRST = ['Ana', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jo'];

describeEachDatabase('customer directory indexes', (getDb) => {
  beforeAll(async () => {
    const t = getDb();
    await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), { dataDir: t.dataDir, productsPerStore: 10 });
    const iso = new Date().toISOString();
    for (let start = 0; start < COUNT; start += 500) {
      await t.db
        .insertInto('customers')
        .values(
          Array.from({ length: 500 }, (_, k) => {
            const i = start + k;
            const fields = {
              store_id: 1 + (i % 2),
              phone: `+1916${String(2000000 + i).padStart(7, '0')}`,
              email: `shopper${i}@index.test`,
              firstname: FIRST[i % FIRST.length],
              lastname: `Surname${i}`,
            };
            return customerRow(fields, iso);
          }),
        )
        .execute();
    }
    if (t.dialect === 'postgres') await t.db.executeQuery(CompiledQuery.raw('analyze customers'));
  }, 120_000);

  it('answers names, e-mails and phones from the indexes, never by scanning the customers', async () => {
    const { db, dialect } = getDb();
    const plan = async (q: string) => {
      const c = pageQuery(db, 1, planSearch(q), 1).compile();
      const explain = dialect === 'postgres' ? 'explain ' : 'explain query plan ';
      const result = await db.executeQuery(CompiledQuery.raw(explain + c.sql, [...c.parameters]));
      return (result.rows as Record<string, unknown>[]).map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n');
    };
    const cases: [string, RegExp[]][] = [
      ['surname123', [/customers_store_id_lower_firstname_idx/, /customers_store_id_lower_lastname_idx/, /customers_store_id_email_c_idx|customers_store_id_email_idx/]],
      ['ana surname12', [/customers_store_id_lower_firstname_idx|customers_store_id_lower_lastname_idx/]],
      ['shopper12@index', [/customers_store_id_email_c_idx|customers_store_id_email_idx/]],
      ['(916) 200-0142', [/customers_store_id_phone_key/]],
    ];
    for (const [q, indexes] of cases) {
      const p = await plan(q);
      if (process.env.SHOW_PLANS) console.log(`${dialect} ${q}:\n${p}`);
      for (const index of indexes) expect(p, `${q}:\n${p}`).toMatch(index);
      expect(p, `${q}:\n${p}`).not.toMatch(/Seq Scan on customers|SCAN customers\b(?! USING)/);
      // Nor the store's every row by an index of the store alone.
      expect(p, `${q}:\n${p}`).not.toMatch(/USING (COVERING )?INDEX \w+ \(store_id=\?\)$/m);
    }
  });

  it('finds the right customers among 10,000, quickly', async () => {
    const { db } = getDb();
    const started = performance.now();
    const byName = await searchCustomers(db, 1, { q: 'surname123', page: 1 }, true);
    const byPhone = await searchCustomers(db, 1, { q: '916-200-0142', page: 1 }, true);
    const byEmail = await searchCustomers(db, 1, { q: 'SHOPPER1234@', page: 1 }, true);
    const elapsed = performance.now() - started;
    // Store 1 holds the even numbers: Surname1230, …32, …34, …36, …38 (123 itself is store 2's).
    expect(byName.items.every((i) => i.name.includes('Surname123'))).toBe(true);
    expect(byName.total).toBe(5);
    expect(byPhone.items.map((i) => i.phone)).toEqual(['+19162000142']);
    expect(byEmail.items.map((i) => i.email)).toEqual(['shopper1234@index.test']);
    expect(elapsed).toBeLessThan(2000);
  });
});
