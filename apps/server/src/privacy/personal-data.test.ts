/**
 * The registry covers the schema (issue 31): every table of both live databases has an entry, and a
 * table with a column that can hold a customer (customer_id, a phone, an e-mail, a contact, a
 * recipient, personal details, a signature) is not marked as holding nothing. A new table or
 * column added without thinking about deletion fails here.
 */
import { expect, it } from 'vitest';
import { describeEachDatabase, ownTables, tableNames } from '../../test-support/databases.ts';
import { PERSONAL_DATA } from './personal-data.ts';

const PERSONAL_COLUMN = /(^|_)(customer_id|customer_key|phone|email|contact|recipient|personal_details|signature_png|birthday|birth_date|firstname|lastname)$/;
/** Staff and integration tables name staff, never shoppers (their entry says so). */
const NOT_SHOPPERS = new Set(['staff', 'staff_login_throttle', 'drivers', 'store_order_settings']);

describeEachDatabase('personal-data registry', (getDb) => {
  it('has an entry for every table, and none of them with a personal column says it holds nothing', async () => {
    const t = getDb();
    const names = (await tableNames(t)).filter((n) => !n.startsWith('kysely_'));
    expect(names.filter((n) => !(n in PERSONAL_DATA))).toEqual([]);
    expect(Object.keys(PERSONAL_DATA).filter((n) => !names.includes(n))).toEqual([]);
    const tables = await ownTables(t);
    const missing: string[] = [];
    for (const table of tables) {
      if (!names.includes(table.name) || NOT_SHOPPERS.has(table.name)) continue;
      const personal = table.columns.filter((c) => PERSONAL_COLUMN.test(c.name)).map((c) => c.name);
      const rule = PERSONAL_DATA[table.name as keyof typeof PERSONAL_DATA];
      if (personal.length && rule.holds == null) missing.push(`${table.name} (${personal.join(', ')})`);
      if (rule.holds != null && rule.deletion !== 'delete' && rule.deletion !== 'none' && !rule.anonymised?.length) missing.push(`${table.name}: keeps rows but names no anonymised column`);
    }
    expect(missing).toEqual([]);
  });

  it('gives every table that holds personal data a way to erase it', () => {
    const noErase = Object.entries(PERSONAL_DATA).filter(([, r]) => r.holds != null && !r.erase).map(([t]) => t);
    expect(noErase).toEqual([]);
  });
});
