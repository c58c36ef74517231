/**
 * The console queue's indexed search, both databases: migration 0011 fills the search keys of the
 * orders placed before it (the same keys placing writes now), and a search by phone, name or order
 * number reads the `(store_id, key)` indexes, never the store's whole order list (the query plan).
 * The search's results through the route are in ../console-routes.test.ts.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORES_FILE } from '../../config.ts';
import { syncStores } from '../../db/index.ts';
import { MIGRATIONS } from '../../db/migrations/index.ts';
import type { Database } from '../../db/schema.ts';
import { readStoresFile } from '../../seed/stores-file.ts';
import { describeEachDatabase } from '../../../test-support/databases.ts';
import { encodeCursor, pageQuery, type OrderQuery } from './list.ts';
import { orderSearchKeys, searchTerms } from './search-keys.ts';

const AT = '2026-06-15T12:00:00.000Z';
const STORE = { id: 1, code: 'downtown', name: 'Downtown', timezone: 'America/Los_Angeles' };

let seq = 0;
const order = (storeId: number, details: string, at = AT) => ({
  increment_id: `ZZ-${++seq}`,
  store_id: storeId,
  customer_id: null,
  idempotency_key: `search-test-${seq}-${Math.random()}`,
  status: 'submitted' as const,
  order_type: 'pickup' as const,
  license_type: 'recreational' as const,
  subtotal_cents: 1000,
  total_cents: 1000,
  personal_details: details,
  created_at: at,
  updated_at: at,
});
const contact = (firstName: string, lastName: string, phone: string) =>
  JSON.stringify({ firstName, lastName, emailAddress: 'x@example.com', phone });

describe('order search keys', () => {
  it('keeps the E.164 digits, their reverse, and folded "first last" / "last first"', () => {
    expect(orderSearchKeys({ firstName: ' José ', lastName: 'Núñez-García', phone: '(916) 555-0142' })).toEqual({
      search_phone: '19165550142',
      search_phone_rev: '24105556191',
      search_name: 'jose nunez garcia',
      search_surname: 'nunez garcia jose',
    });
    for (const phone of ['9165550142', '+1 916 555 0142', '1-916-555-0142', '916.555.0142'])
      expect(orderSearchKeys({ phone }).search_phone, phone).toBe('19165550142');
    // Not a valid number: its digits as typed, still searchable.
    expect(orderSearchKeys({ phone: '555-01' }).search_phone).toBe('55501');
    expect(orderSearchKeys({ firstName: 'Björk', lastName: 'Straße' }).search_name).toBe('bjork strasse');
  });

  it('turns what staff type into prefix ranges on the keys and the order number', () => {
    const t = searchTerms('(916) 555-0142', 'DO')!;
    expect(t.phone).toEqual([
      { column: 'search_phone', range: { from: '9165550142', to: '9165550143' } },
      { column: 'search_phone', range: { from: '19165550142', to: '19165550143' } },
      { column: 'search_phone_rev', range: { from: '2410555619', to: '241055561:' } },
    ]);
    expect(t.name).toEqual([]);
    // "+" means the country code is typed: no default one is put in front.
    expect(searchTerms('+1 916 555', 'DO')!.phone.map((p) => p.range.from)).toEqual(['1916555', '5556191']);
    expect(searchTerms('Ana  RÉYES', 'DO')!.name.map((n) => [n.column, n.range.from])).toEqual([
      ['search_name', 'ana reyes'],
      ['search_surname', 'ana reyes'],
    ]);
    expect(searchTerms('do-1000', 'DO')!.number).toEqual({ from: 'DO-1000', to: 'DO-1001' });
    expect(searchTerms('do100042', 'DO')!.number).toEqual({ from: 'DO-100042', to: 'DO-100043' });
    expect(searchTerms('100042', 'DO')!.number).toEqual({ from: 'DO-100042', to: 'DO-100043' });
    for (const nothing of ['', '  ', '%', '-']) expect(searchTerms(nothing, 'DO'), JSON.stringify(nothing)).toBeNull();
  });
});

describeEachDatabase(
  'migration 0011: order search keys and their indexes',
  (getDb) => {
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      const { db, dialect } = getDb();
      for (const [name, m] of Object.entries(MIGRATIONS)) if (name < '0011') await m.up(db, dialect);
      await syncStores(db, readStoresFile(DEMO_STORES_FILE), new Date(AT));
      const insert = async (key: string, storeId: number, details: string) => {
        const row = (await (db as Kysely<any>)
          .insertInto('orders')
          .values(order(storeId, details))
          .returning('id')
          .executeTakeFirstOrThrow()) as {
          id: number;
        };
        ids[key] = row.id;
      };
      await insert('ana', 1, contact('Ana', 'Reyes', '(916) 555-0101'));
      await insert('jose', 1, contact('JOSÉ', 'Núñez', '+1 916 555 0202'));
      await insert('other', 2, contact('Ana', 'Reyes', '916.555.0101'));
      await insert('junk', 1, 'not json');
      await MIGRATIONS['0011_order_search'].up(db, dialect);
    });

    it('fills the keys of the orders placed before, as placing writes them now', async () => {
      const { db } = getDb();
      const rows = await db
        .selectFrom('orders')
        .select(['id', 'personal_details', 'search_phone', 'search_phone_rev', 'search_name', 'search_surname'])
        .orderBy('id')
        .execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(ids.ana)).toMatchObject({
        search_phone: '19165550101',
        search_phone_rev: '10105556191',
        search_name: 'ana reyes',
        search_surname: 'reyes ana',
      });
      expect(byId.get(ids.jose)).toMatchObject({ search_phone: '19165550202', search_name: 'jose nunez', search_surname: 'nunez jose' });
      expect(byId.get(ids.other)).toMatchObject({ search_phone: '19165550101', search_name: 'ana reyes' });
      expect(byId.get(ids.junk)).toMatchObject({ search_phone: '', search_phone_rev: '', search_name: '', search_surname: '' });
      for (const id of [ids.ana, ids.jose, ids.other]) {
        const { id: _id, personal_details, ...keys } = byId.get(id)!;
        expect(keys).toEqual(orderSearchKeys(JSON.parse(personal_details)));
      }
    });

    it('searches by phone, name and order number through the (store_id, key) indexes', async () => {
      const { db, dialect } = getDb();
      // A store of some size, so that a full scan would be a real choice for the planner.
      const rows = Array.from({ length: 3000 }, (_, i) => {
        const at = new Date(Date.parse(AT) - i * 60_000).toISOString();
        const who = { firstName: `First${i % 97}`, lastName: `Last${i % 89}`, phone: `(916) 555-${String(i).padStart(4, '0')}` };
        return { ...order(1 + (i % 2), JSON.stringify(who), at), ...orderSearchKeys(who) };
      });
      for (let i = 0; i < rows.length; i += 500)
        await db
          .insertInto('orders')
          .values(rows.slice(i, i + 500))
          .execute();
      if (dialect === 'postgres') await db.executeQuery(CompiledQuery.raw('analyze orders'));

      const plan = async (q: string, more: Omit<OrderQuery, 'q' | 'limit'> = {}) => {
        const c = pageQuery(db, STORE, { q, limit: 50, ...more }).compile();
        const explain = dialect === 'postgres' ? 'explain ' : 'explain query plan ';
        const result = await db.executeQuery(CompiledQuery.raw(explain + c.sql, [...c.parameters]));
        return (result.rows as Record<string, unknown>[]).map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n');
      };
      const cases: [string, RegExp[]][] = [
        ['0142', [/orders_store_id_search_phone_rev_idx/]],
        ['(916) 555-0142', [/orders_store_id_search_phone_idx/, /orders_store_id_search_phone_rev_idx/]],
        ['ana reyes', [/orders_store_id_search_name_idx/, /orders_store_id_search_surname_idx/]],
        // PostgreSQL may range over the unique number index as well as over (store_id, increment_id).
        ['DO-100042', [/orders_store_id_increment_id_idx|orders_increment_id_key/]],
      ];
      const wholeList = /Seq Scan on orders|SCAN orders\b|orders_store_id_created_at_idx|orders_store_id_status_created_at_idx/;
      for (const [q, indexes] of cases) {
        const p = await plan(q);
        for (const index of indexes) expect(p, `${q}:\n${p}`).toMatch(index);
        // Never the whole table, nor the store's whole order list.
        expect(p, `${q}:\n${p}`).not.toMatch(wholeList);
      }
      // Filters and a page cursor with a search: still the search's ranges, not the store's list by date or status.
      const filteredPage = {
        status: ['submitted' as const],
        type: 'pickup' as const,
        from: '2026-06-01',
        to: '2026-06-15',
        cursor: encodeCursor(AT, 999_999),
      };
      for (const q of ['0142', 'ana reyes']) {
        const p = await plan(q, filteredPage);
        expect(p, `${q} (filtered page):\n${p}`).toMatch(/orders_store_id_search_/);
        expect(p, `${q} (filtered page):\n${p}`).not.toMatch(wholeList);
      }
    });
  },
  { migrate: false },
);
