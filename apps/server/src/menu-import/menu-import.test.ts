import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { seed } from '../../test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { exportMenuCsv, exportMenuJson, importMenu, type ImportOptions } from './index.ts';
import { escapeCell, unescapeCell } from '../http/csv.ts';
import { COLUMN_BY_NAME, COLUMN_NAMES, REQUIRED_COLUMNS } from './format.ts';
import { MAX_ROWS, parseMenuFile } from './parse.ts';
import { listMenuChanges } from '../menu-admin/audit.ts';

const EXAMPLE_CSV = readFileSync(join(REPO_ROOT, 'examples/menu/example-menu.csv'));
const EXAMPLE_JSON = readFileSync(join(REPO_ROOT, 'examples/menu/example-menu.json'));
const HEADER = 'external_id,sku,name,category,unit,weight_g,price,stock';
const NOW = new Date('2026-06-15T12:00:00.000Z');

/** Store ids of the demo stores file: 1 downtown … 4 harbor. */
const STORE = { a: 1, b: 2, c: 3, d: 4 };

describeEachDatabase('menu import', (getDb) => {
  beforeAll(async () => {
    await seed(getDb());
  });

  const run = (storeId: number, text: string | Buffer, o: Partial<ImportOptions> = {}) =>
    importMenu(getDb().db, {
      storeId,
      source: [typeof text === 'string' ? Buffer.from(text) : text],
      format: 'csv',
      clock: () => NOW,
      ...o,
    });

  async function snapshot(storeId: number) {
    const { db } = getDb();
    const products = await db.selectFrom('products').selectAll().where('store_id', '=', storeId).orderBy('id').execute();
    const ids = products.map((p) => p.id);
    const stock = await db
      .selectFrom('stock')
      .select(['product_id', 'qty', 'version'])
      .where('product_id', 'in', ids)
      .orderBy('product_id')
      .execute();
    const prices = await db.selectFrom('product_prices').selectAll().where('product_id', 'in', ids).orderBy('product_id').execute();
    return JSON.stringify({ products, stock, prices });
  }

  it('plans the example file on a dry run without writing, applies it, and the same file (CSV or JSON) again changes nothing', async () => {
    const before = await snapshot(STORE.d);
    const dry = await run(STORE.d, EXAMPLE_CSV, { dryRun: true });
    expect(dry.problems).toEqual([]);
    expect(dry.outcome).toBe('planned');
    expect(dry.created.map((c) => c.external_id)).toEqual(['POS-1001-1G', 'POS-1001-8TH', 'POS-2001', 'POS-3001']);
    expect(await snapshot(STORE.d)).toBe(before);

    const changed: [number, number[]][] = [];
    const applied = await run(STORE.d, EXAMPLE_CSV, { onChanged: async (s, ids) => void changed.push([s, ids]) });
    expect(applied.outcome).toBe('applied');
    expect(changed).toHaveLength(1);
    expect(changed[0][0]).toBe(STORE.d);
    const { db } = getDb();
    const eighth = await db
      .selectFrom('products')
      .selectAll()
      .where('store_id', '=', STORE.d)
      .where('external_id', '=', 'POS-1001-8TH')
      .executeTakeFirstOrThrow();
    expect(eighth).toMatchObject({
      sku: 'GLC-8TH',
      size: 92,
      uom: 'g',
      thc_percent: 24.5,
      package_id: '1A4060300000123000004568',
      lab_tested_at: '2026-05-02',
    });
    const parent = await db.selectFrom('products').selectAll().where('id', '=', eighth.parent_id!).executeTakeFirstOrThrow();
    expect(parent).toMatchObject({ type_id: 'configurable', sku: 'GLC', external_id: 'POS-1001', name: 'Glacier Cake' });
    expect(changed[0][1]).toEqual(expect.arrayContaining([eighth.id, parent.id]));
    const stock = await db.selectFrom('stock').select('qty').where('product_id', '=', eighth.id).executeTakeFirstOrThrow();
    expect(stock.qty).toBe(18 * 3.5);
    const price = await db.selectFrom('product_prices').selectAll().where('product_id', '=', eighth.id).executeTakeFirstOrThrow();
    expect(price).toMatchObject({
      price_cents: 3500,
      medical_price_cents: 3200,
      special_price_cents: 3000,
      special_from_date: '2026-06-01T00:00:00.000Z',
    });
    const rosin = await db
      .selectFrom('products')
      .select('status')
      .where('store_id', '=', STORE.d)
      .where('external_id', '=', 'POS-3001')
      .executeTakeFirstOrThrow();
    expect(rosin.status).toBe(2); // orderable no: listed, unavailable; stock unchanged
    const source = await db.selectFrom('catalog_sources').select('source').where('store_id', '=', STORE.d).executeTakeFirstOrThrow();
    expect(source.source).toBe('import');

    const after = await snapshot(STORE.d);
    const again = await run(STORE.d, EXAMPLE_CSV, { onChanged: async () => void changed.push([0, []]) });
    expect(again).toMatchObject({ outcome: 'unchanged', created: [], updated: [], removed: [], unchanged: 4 });
    const json = await run(STORE.d, EXAMPLE_JSON, { format: 'json' });
    expect(json).toMatchObject({ outcome: 'unchanged', created: [], updated: [], unchanged: 4, problems: [] });
    expect(changed).toHaveLength(1);
    expect(await snapshot(STORE.d)).toBe(after);
  });

  it('records what an import wrote in the menu history, in its transaction: created, changed cells, removals; nothing for a dry run, problems or no change', async () => {
    const { db } = getDb();
    const audit = { source: 'import' as const, actor: { type: 'staff' as const, id: 4, name: 'Dana Cole' } };
    const history = () =>
      db.selectFrom('menu_changes').selectAll().where('store_id', '=', STORE.a).where('sku', 'like', 'AUD-%').orderBy('id').execute();
    const v1 = [
      HEADER,
      'AUD-1,AUD-1,Audit Kush,Flower > Hybrid,g,3.5,30.00,10',
      'AUD-2,AUD-2,Audit Haze,Flower > Hybrid,g,3.5,32.00,4',
    ].join('\n');
    await run(STORE.a, v1, { audit, dryRun: true });
    expect(await history()).toEqual([]);
    expect((await run(STORE.a, v1, { audit })).outcome).toBe('applied');
    const created = await history();
    expect(created.map((r) => [r.sku, r.field, r.before, r.after, r.source, r.actor_name])).toEqual([
      ['AUD-1', 'created', null, 'Audit Kush', 'import', 'Dana Cole'],
      ['AUD-2', 'created', null, 'Audit Haze', 'import', 'Dana Cole'],
    ]);
    const kush = await db
      .selectFrom('products')
      .select('id')
      .where('store_id', '=', STORE.a)
      .where('external_id', '=', 'AUD-1')
      .executeTakeFirstOrThrow();
    expect(created[0].product_id).toBe(kush.id);
    expect(new Set(created.map((r) => r.batch_id)).size).toBe(1);

    const v2 = [
      HEADER,
      'AUD-1,AUD-1,Audit Kush,Flower > Hybrid,g,3.5,28.00,0',
      'AUD-2,AUD-2,Audit Haze,Flower > Hybrid,g,3.5,32.00,4',
    ].join('\n');
    expect((await run(STORE.a, v2, { audit })).outcome).toBe('applied');
    expect((await run(STORE.a, v2, { audit })).outcome).toBe('unchanged');
    expect((await run(STORE.a, `${v2}\nAUD-3,AUD-3,Bad,Flower > Hybrid,g,3.5,-1,1`, { audit })).outcome).toBe('problems');
    const after = (await history()).slice(created.length);
    expect(after.map((r) => [r.sku, r.field, r.before, r.after])).toEqual([
      ['AUD-1', 'price', '30.00', '28.00'],
      ['AUD-1', 'stock', '10', '0'],
    ]);
  });

  it('stores the product on every history row of an import or an API push, also for a demo item with no external id of its own', async () => {
    const { db } = getDb();
    const rows = parseCsvSync(await exportMenuCsv(db, STORE.b), { columns: true }) as Record<string, string>[];
    const demo = rows.filter((r) => r.external_id === r.sku && r.unit === 'g').slice(0, 2);
    expect(demo).toHaveLength(2);
    const stored = await db
      .selectFrom('products')
      .select(['id', 'sku', 'external_id'])
      .where('store_id', '=', STORE.b)
      .where('sku', 'in', demo.map((r) => r.sku))
      .execute();
    expect(stored.map((p) => p.external_id)).toEqual([null, null]);
    const idOf = new Map(stored.map((p) => [p.sku, p.id]));
    const cols = ['external_id', 'sku', 'name', 'category', 'unit', 'weight_g', 'price', 'stock'];
    const file = (price: (r: Record<string, string>) => string, stock: (r: Record<string, string>) => string) =>
      stringifyCsv([cols, ...demo.map((r) => cols.map((c) => (c === 'price' ? price(r) : c === 'stock' ? stock(r) : r[c])))]);
    // Console import: a quick price change (only the price and stock rows are written).
    const viaImport = await run(STORE.b, file((r) => (Number(r.price) + 1).toFixed(2), (r) => r.stock), {
      audit: { source: 'import', actor: { type: 'staff', id: 4, name: 'Dana Cole' } },
    });
    expect(viaImport.outcome).toBe('applied');
    // Integration API: the same engine, JSON rows, a stock change.
    const viaApi = await importMenu(db, {
      storeId: STORE.b,
      source: [JSON.stringify(demo.map((r) => ({ ...Object.fromEntries(cols.map((c) => [c, r[c]])), price: (Number(r.price) + 1).toFixed(2), stock: '7' })))],
      format: 'json',
      clock: () => NOW,
      audit: { source: 'api', actor: { type: 'api_key', id: 1, name: 'POS' } },
    });
    expect(viaApi.outcome).toBe('applied');
    for (const r of demo) {
      const history = await listMenuChanges(db, STORE.b, { productId: idOf.get(r.sku)! });
      expect(history.map((h) => [h.source, h.field, h.after]).reverse()).toEqual([
        ['import', 'price', (Number(r.price) + 1).toFixed(2)],
        ['api', 'stock', '7'],
      ]);
    }
    const orphans = await db.selectFrom('menu_changes').select('id').where('store_id', '=', STORE.b).where('product_id', 'is', null).execute();
    expect(orphans).toEqual([]);
  });

  it("a stock, orderable or price change of a size writes just those rows; the parent total and both pages' updated_at follow", async () => {
    const { db } = getDb();
    const head = 'external_id,sku,parent_external_id,parent_sku,name,category,unit,weight_g,price,stock,orderable';
    const v1 = [
      head,
      'QK-1G,QK-1G,QK,QK,Quick Kush,Flower > Hybrid,g,1,10.00,20,yes',
      'QK-8,QK-8,QK,QK,Quick Kush,Flower > Hybrid,g,3.5,30.00,4,yes',
    ].join('\n');
    expect((await run(STORE.c, v1, { clock: () => new Date('2026-06-15T12:00:00.000Z') })).outcome).toBe('applied');
    const read = async () => {
      const rows = await db
        .selectFrom('products')
        .leftJoin('stock', 'stock.product_id', 'products.id')
        .leftJoin('product_prices', (j) =>
          j.onRef('product_prices.product_id', '=', 'products.id').on('product_prices.customer_group_id', '=', 0),
        )
        .select([
          'products.sku',
          'products.status',
          'products.name',
          'products.updated_at',
          'stock.qty',
          'stock.is_in_stock',
          'product_prices.price_cents',
        ])
        .where('products.store_id', '=', STORE.c)
        .where('products.sku', 'in', ['QK', 'QK-1G', 'QK-8'])
        .orderBy('products.sku')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.sku, r]));
    };
    const before = await read();
    expect(before.QK.qty).toBe(20 + 4 * 3.5);
    const later = new Date('2026-06-16T09:00:00.000Z');
    const v2 = [
      head,
      'QK-1G,QK-1G,QK,QK,Quick Kush,Flower > Hybrid,g,1,9.50,0,yes',
      'QK-8,QK-8,QK,QK,Quick Kush,Flower > Hybrid,g,3.5,30.00,4,no',
    ].join('\n');
    const r = await run(STORE.c, v2, { clock: () => later });
    expect(r.updated.map((u) => [u.external_id, u.changes!.map((c) => c.column)])).toEqual([
      ['QK-1G', ['price', 'stock']],
      ['QK-8', ['orderable']],
    ]);
    const after = await read();
    expect(after['QK-1G']).toMatchObject({
      qty: 0,
      is_in_stock: 0,
      price_cents: 950,
      status: 1,
      name: before['QK-1G'].name,
      updated_at: later.toISOString(),
    });
    expect(after['QK-8']).toMatchObject({ qty: 14, price_cents: 3000, status: 2, updated_at: later.toISOString() });
    expect(after.QK).toMatchObject({ qty: 14, is_in_stock: 1, name: 'Quick Kush', updated_at: later.toISOString() });
    // What the whole-product writer would have stored: the menu exports the file's cells back.
    expect((await run(STORE.c, v2, { clock: () => later })).outcome).toBe('unchanged');
  });

  it('a write that fails in the database midway leaves nothing written (one transaction) and is reported, not thrown', async () => {
    const before = await snapshot(STORE.b);
    // Two new products given the same parent_sku: the plan does not catch it; the second insert fails.
    const head = 'external_id,sku,parent_external_id,parent_sku,name,category,unit,weight_g,price,stock';
    const file = [
      head,
      'T-1,T-1,T-A,T-SAME,Twin A,Flower > Hybrid,g,1,10.00,1',
      'T-2,T-2,T-B,T-SAME,Twin B,Flower > Hybrid,g,1,10.00,1',
    ].join('\n');
    const r = await run(STORE.b, file);
    expect(r.outcome).toBe('problems');
    expect(r.problems).toEqual([
      { row: 0, column: '', value: '', reason: expect.stringMatching(/could not be written .*nothing was changed/) },
    ]);
    expect(await snapshot(STORE.b)).toBe(before);
  });

  it('a failing change notice is reported, not thrown: the menu stays written', async () => {
    const file = `${HEADER}\nN-1,N-1,Notice Kush,Flower > Sativa,g,1,10.00,2\n`;
    const r = await run(STORE.b, file, { onChanged: async () => Promise.reject(new Error('bus down')) });
    expect(r).toMatchObject({ outcome: 'applied', notifyError: 'bus down' });
    expect((await run(STORE.b, file)).outcome).toBe('unchanged');
  });

  it('reports an update with the before and after of each changed field, and a missing column keeps the field', async () => {
    const file = `${HEADER}\nPOS-2001,MNG-GUM-10,Mango Chill Gummies 10-pack,Edibles > Gummies,ea,30,19.50,54\n`;
    const r = await run(STORE.d, file);
    expect(r.outcome).toBe('applied');
    expect(r.updated).toEqual([
      {
        row: 2,
        external_id: 'POS-2001',
        sku: 'MNG-GUM-10',
        name: 'Mango Chill Gummies 10-pack',
        changes: [
          { column: 'price', before: '22.00', after: '19.50' },
          { column: 'stock', before: '55', after: '54' },
        ],
      },
    ]);
    expect(r.unchanged).toBe(0);
    // The other three variants were not in the file: without --full nothing else is touched.
    expect(r.removed).toEqual([]);
    const { db } = getDb();
    const gummy = await db
      .selectFrom('products')
      .selectAll()
      .where('store_id', '=', STORE.d)
      .where('external_id', '=', 'POS-2001')
      .executeTakeFirstOrThrow();
    expect(gummy.description).toBe('Ten 10 mg gummies.');
    expect(gummy.batch_number).toBe('G-0611');
  });

  it('with --full takes variants missing from the file off the menu (never deletes them); without rows nothing is removed', async () => {
    const { db } = getDb();
    const file = `${HEADER}\nPOS-2001,MNG-GUM-10,Mango Chill Gummies 10-pack,Edibles > Gummies,ea,30,19.50,54\n`;
    const dry = await run(STORE.d, file, { full: true, dryRun: true });
    expect(dry.removed.map((r) => r.external_id).filter((e) => e.startsWith('POS-'))).toEqual(['POS-1001-1G', 'POS-1001-8TH', 'POS-3001']);
    const count = async () => (await db.selectFrom('products').select('id').where('store_id', '=', STORE.d).execute()).length;
    const n = await count();
    const r = await run(STORE.d, file, { full: true });
    expect(r.outcome).toBe('applied');
    expect(await count()).toBe(n);
    const rosin = await db
      .selectFrom('products')
      .select(['visibility'])
      .where('store_id', '=', STORE.d)
      .where('external_id', '=', 'POS-3001')
      .executeTakeFirstOrThrow();
    expect(rosin.visibility).toBe(1);
    const again = await run(STORE.d, file, { full: true });
    expect(again).toMatchObject({ outcome: 'unchanged', removed: [] });
    const empty = await run(STORE.d, `${HEADER}\n`, { full: true, dryRun: true });
    expect(empty.removed).toEqual([]);
  });

  it('a file with problems changes nothing and reports each as row, column, value and reason', async () => {
    const before = await snapshot(STORE.c);
    const rows = [
      'P-1,S-1,Good,Flower > Indica,g,3.5,30.00,4',
      'P-2,S-2,Negative,Flower > Indica,g,3.5,-5,4',
      'P-3,S-3,Words,Flower > Indica,g,3.5,cheap,4',
      'P-4,S-4,Nowhere,Flower > Moonrocks,g,3.5,30.00,4',
      'P-5,S-5,No weight,Flower > Indica,g,,30.00,4',
      'P-1,S-6,Dup,Flower > Indica,g,3.5,30.00,4',
      'P-7,S-7,Huge gummy,Edibles > Gummies,ea,60,9.00,4',
    ];
    const r = await run(STORE.c, [`${HEADER},thc,thc_unit`, ...rows.map((x, i) => `${x},${i === 0 ? '140,%' : ','}`)].join('\n'));
    expect(r.outcome).toBe('problems');
    const by = (row: number) => r.problems.filter((p) => p.row === row).map((p) => [p.column, p.value, p.reason]);
    expect(by(2)).toEqual([['thc', '140', 'THC % cannot be over 100']]);
    expect(by(3)).toEqual([['price', '-5', 'price must not be negative']]);
    // A problem found while reading a row names it by its sku and name as written, as the planning's problems do.
    expect(r.problems.filter((p) => p.row === 3).map((p) => [p.sku, p.name])).toEqual([['S-2', 'Negative']]);
    expect(by(4)).toEqual([['price', 'cheap', 'price must be an amount in dollars such as 12.50']]);
    expect(by(5)[0][0]).toBe('category');
    expect(by(5)[0][2]).toMatch(/unknown category/);
    expect(by(6)).toEqual([['weight_g', '', 'a variant sold by the gram (unit g) needs weight_g']]);
    expect(by(7)).toEqual([['external_id', 'P-1', 'duplicate external_id: also on row 2']]);
    expect(by(8)[0][0]).toBe('weight_g');
    expect(by(8)[0][2]).toMatch(/implausible for an edible/);
    expect(await snapshot(STORE.c)).toBe(before);
  });

  it('a known sku under a new external id is "sku belongs to another variant", also for a demo item (its external id shown as its sku); --adopt-ids gives it the id', async () => {
    const { db } = getDb();
    const rows = parseCsvSync(await exportMenuCsv(db, STORE.c), { columns: true }) as Record<string, string>[];
    const demo = rows.find((r) => r.external_id === r.sku && r.parent_external_id === '' && Number(r.price) > 2 && r.special_price === '')!;
    expect(demo).toBeDefined();
    const cols = ['external_id', 'sku', 'name', 'category', 'unit', 'weight_g', 'price', 'stock'];
    const file = stringifyCsv([cols, cols.map((c) => (c === 'external_id' ? 'POS-NEW-1' : c === 'price' ? '1.00' : demo[c]))]);
    const before = await snapshot(STORE.c);
    const r = await run(STORE.c, file, { dryRun: true });
    expect(r.outcome).toBe('problems');
    expect(r.updated).toEqual([]);
    expect(r.problems.map((p) => [p.row, p.column, p.value, p.reason])).toEqual([
      [2, 'sku', demo.sku, `sku ${demo.sku} belongs to the variant with external_id ${demo.external_id}`],
    ]);
    expect((await run(STORE.c, file)).outcome).toBe('problems');
    expect(await snapshot(STORE.c)).toBe(before);
    // Explicitly moving the demo menu to a POS's ids: the variant takes the new id (once; then it is its own).
    const adopted = await run(STORE.c, file, { adoptExternalIds: true });
    expect(adopted.problems).toEqual([]);
    expect(adopted.updated.map((u) => u.changes?.map((c) => c.column))).toEqual([['external_id', 'price']]);
    const again = stringifyCsv([cols, cols.map((c) => (c === 'external_id' ? 'POS-NEW-2' : c === 'price' ? '1.00' : demo[c]))]);
    const taken = await run(STORE.c, again, { adoptExternalIds: true, dryRun: true });
    expect(taken.problems.map((p) => p.reason)).toEqual([`sku ${demo.sku} belongs to the variant with external_id POS-NEW-1`]);
  });

  it("flags another store's menu file before anything is applied: harbor's real export into downtown (CSV and JSON, dry run and apply)", async () => {
    const { db } = getDb();
    const before = await snapshot(STORE.a);
    const csv = await exportMenuCsv(db, STORE.d);
    const json = await exportMenuJson(db, STORE.d);
    expect(csv.split('\n')[0].split(',')[0]).toBe('store');
    for (const [text, format] of [
      [csv, 'csv'],
      [json, 'json'],
    ] as const)
      for (const o of [{ dryRun: true }, {}, { full: true }, { adoptExternalIds: true }]) {
        const r = await run(STORE.a, text, { format, ...o });
        expect(r.outcome).toBe('problems');
        expect(r.problems[0]).toMatchObject({ row: 0, column: 'store', value: 'harbor' });
        expect(r.problems[0].reason).toMatch(/^this file is the menu of store harbor \(\d+ of \d+ rows say so\), not of downtown: nothing is applied/);
        expect(r.removed).toEqual([]);
      }
    expect(await snapshot(STORE.a)).toBe(before);
    // Its own export carries its own code and changes nothing; an empty store column is no claim.
    expect((await run(STORE.d, csv)).outcome).toBe('unchanged');
    const own = await run(STORE.a, await exportMenuCsv(db, STORE.a));
    expect(own.outcome).toBe('unchanged');
  });

  it("flags a file whose skus are the store's but most external ids unknown (another store's or POS's ids), without a store column", async () => {
    const { db } = getDb();
    const rows = parseCsvSync(await exportMenuCsv(db, STORE.a), { columns: true }) as Record<string, string>[];
    const cols = ['external_id', 'sku', 'name', 'category', 'unit', 'weight_g', 'price', 'stock'];
    const some = rows.filter((r) => r.parent_external_id === '').slice(0, 5);
    expect(some.length).toBe(5);
    const file = stringifyCsv([cols, ...some.map((r, i) => cols.map((c) => (c === 'external_id' ? `OTHER-${i}` : r[c])))]);
    const before = await snapshot(STORE.a);
    const r = await run(STORE.a, file, { dryRun: true });
    expect(r.outcome).toBe('problems');
    expect(r.problems[0]).toMatchObject({ row: 0, column: 'external_id' });
    expect(r.problems[0].reason).toMatch(/^this file looks like another store's menu: 5 of its 5 rows have a sku of downtown under an external id downtown does not know; nothing is applied/);
    expect(r.problems.slice(1).map((p) => p.reason)).toEqual(some.map((s) => `sku ${s.sku} belongs to the variant with external_id ${s.external_id}`));
    expect((await run(STORE.a, file)).outcome).toBe('problems');
    expect(await snapshot(STORE.a)).toBe(before);
  });

  /** A store's real export as rows (column → cell), and back to CSV without the columns named in `drop`. */
  const exportRows = async (storeId: number) => parseCsvSync(await exportMenuCsv(getDb().db, storeId), { columns: true }) as Record<string, string>[];
  const toCsv = (rows: Record<string, string>[], drop: string[] = []) => {
    const cols = Object.keys(rows[0]).filter((c) => !drop.includes(c));
    return stringifyCsv([cols, ...rows.map((r) => cols.map((c) => r[c] ?? ''))]);
  };

  it("flags harbor's export made before the store column existed, imported into downtown, by its content (CSV and JSON); applied only when the operator insists", async () => {
    const harbor = await exportRows(STORE.d);
    const csv = toCsv(harbor, ['store']);
    const json = JSON.stringify(harbor.map(({ store: _s, ...r }) => r));
    const before = await snapshot(STORE.a);
    const menuSize = (await exportRows(STORE.a)).length;
    for (const [text, format] of [
      [csv, 'csv'],
      [json, 'json'],
    ] as const)
      for (const o of [{ dryRun: true }, {}, { full: true }, { adoptExternalIds: true }]) {
        const r = await run(STORE.a, text, { format, ...o });
        expect(r.outcome).toBe('problems');
        // The id-based check cannot see it (every id and sku is shared); the content check does.
        expect(r.problems).toEqual([
          expect.objectContaining({ row: 0, column: '', value: '', code: 'looks_like_another_store' }),
        ]);
        expect(r.problems[0].reason).toMatch(
          new RegExp(
            `^this file looks like another store's menu: compared with downtown's menu of ${menuSize} items it would add (\\d+) new items and change the price or name of (\\d+) of the (\\d+) items it matches; nothing is applied`,
          ),
        );
        const [, created, changed, matched] = r.problems[0].reason.match(/add (\d+) new items and change the price or name of (\d+) of the (\d+)/)!.map(Number);
        expect(created).toBe(r.created.length);
        expect(matched).toBe(r.updated.length + r.unchanged);
        expect(changed * 2).toBeGreaterThan(matched);
        expect(r.removed).toEqual([]);
        expect(r.productIds).toEqual([]);
      }
    expect(await snapshot(STORE.a)).toBe(before);
    // The operator insists (the file is downtown's on purpose): the plan is shown, nothing else blocks it.
    const insisted = await run(STORE.a, csv, { dryRun: true, confirmStore: true });
    expect(insisted.problems).toEqual([]);
    expect(insisted.outcome).toBe('planned');
    expect(insisted.created.length).toBeGreaterThan(20);
    expect(await snapshot(STORE.a)).toBe(before);
  });

  it("does not flag downtown's own weekly update: its export with 10 % of prices changed, 5 new items and stock counts, whole or only the changed rows", async () => {
    const own = await exportRows(STORE.a);
    const cols = Object.keys(own[0]);
    // Every tenth standalone item a dollar dearer (its sale price, if any, stays below), every seventh item's stock recounted.
    let repriced = 0;
    const week = own.map((r, i) => {
      const next = { ...r };
      if (i % 10 === 0) {
        next.price = (Number(r.price) + 1).toFixed(2);
        repriced++;
      }
      if (i % 7 === 0) next.stock = String(Number(r.stock) + 3);
      return next;
    });
    const template = own.find((r) => r.parent_external_id === '' && r.unit === 'ea')!;
    const fresh = Array.from({ length: 5 }, (_, i) => ({
      ...Object.fromEntries(cols.map((c) => [c, template[c]])),
      external_id: `WEEK-NEW-${i}`,
      sku: `WEEK-NEW-${i}`,
      name: `New This Week ${i}`,
      special_price: '',
      special_from: '',
      special_to: '',
      images: '',
    }));
    expect(repriced * 10).toBeGreaterThanOrEqual(own.length);
    const changedOnly = week.filter((r, i) => i % 10 === 0 || i % 7 === 0);
    for (const rows of [
      [...week, ...fresh],
      [...changedOnly, ...fresh],
    ]) {
      const r = await run(STORE.a, toCsv(rows), { dryRun: true });
      expect(r.problems).toEqual([]);
      expect(r.outcome).toBe('planned');
      expect(r.created).toHaveLength(5);
      expect(r.updated.filter((u) => u.changes!.some((c) => c.column === 'price'))).toHaveLength(repriced);
    }
    // And it applies (the next week's file would be judged against this menu).
    const applied = await run(STORE.a, toCsv([...week, ...fresh]));
    expect(applied.outcome).toBe('applied');
  });

  it('bounds weight-discount prices like every other price: $100,000 is refused in the preview, $99,999.99 is stored on every database', async () => {
    const head = 'external_id,sku,name,category,unit,weight_g,price,weight_discounts,stock';
    const before = await snapshot(STORE.c);
    const huge = await run(STORE.c, [head, 'WD-1,WD-1,Big Discount,Flower > Indica,g,1,10.00,7=99999999999.00,1'].join('\n'), { dryRun: true });
    expect(huge.outcome).toBe('problems');
    expect(huge.problems.map((p) => [p.row, p.column, p.reason])).toEqual([
      [2, 'weight_discounts', 'weight_discounts 7 g: the price must be under $100,000'],
    ]);
    const edge = await run(STORE.c, [head, 'WD-1,WD-1,Big Discount,Flower > Indica,g,1,10.00,7=100000.00,1'].join('\n'));
    expect(edge.outcome).toBe('problems');
    expect(await snapshot(STORE.c)).toBe(before);
    const top = await run(STORE.c, [head, 'WD-1,WD-1,Big Discount,Flower > Indica,g,1,10.00,7=99999.99,1'].join('\n'));
    expect(top.problems).toEqual([]);
    expect(top.outcome).toBe('applied');
    const { db } = getDb();
    const stored = await db
      .selectFrom('qty_discounts')
      .innerJoin('products', 'products.id', 'qty_discounts.product_id')
      .select(['qty_discounts.qty_to_buy', 'qty_discounts.price_cents'])
      .where('products.sku', '=', 'WD-1')
      .where('products.store_id', '=', STORE.c)
      .execute();
    expect(stored.map((d) => [Number(d.qty_to_buy), Number(d.price_cents)])).toEqual([[7, 9_999_999]]);
  });

  it('refuses a sku or id that belongs to another product of the store, and a product key that is a variant id', async () => {
    const before = await snapshot(STORE.c);
    const { db } = getDb();
    const bundle = await db
      .selectFrom('products')
      .select('sku')
      .where('store_id', '=', STORE.c)
      .where('type_id', '=', 'bundle')
      .executeTakeFirstOrThrow();
    const head = 'external_id,sku,parent_external_id,parent_sku,name,category,unit,weight_g,price,stock';
    const r = await run(
      STORE.c,
      [
        head,
        `K-1,${bundle.sku},,,Clash,Flower > Indica,g,1,10.00,1`,
        'K-2,K-2,K-3,,Sizes,Flower > Indica,g,1,10.00,1',
        'K-3,K-3,,,Single,Flower > Indica,g,1,10.00,1',
        `K-4,K-4,K-P,${bundle.sku},Parent clash,Flower > Indica,g,3.5,10.00,1`,
      ].join('\n'),
    );
    expect(r.problems.map((p) => [p.row, p.column, p.reason])).toEqual([
      [2, 'sku', `sku ${bundle.sku} is already used by another product of the store`],
      [3, 'parent_external_id', 'K-3 is the id of a variant, not of a product with sizes'],
      [5, 'parent_sku', `sku ${bundle.sku} is already used by another product`],
    ]);
    expect(await snapshot(STORE.c)).toBe(before);
  });

  it('the sizes of one product must agree on the product columns and be sold by the gram; a short row is reported', async () => {
    const head = 'external_id,sku,parent_external_id,name,brand,category,unit,weight_g,price,stock';
    const r = await run(
      STORE.c,
      [
        head,
        'G-1,G-1,G-P,Grape Ape,Acme,Flower > Indica,g,1,10.00,1',
        'G-2,G-2,G-P,Grape Ape,Other Brand,Flower > Indica,g,3.5,30.00,1',
        'G-3,G-3,G-P,Grape Ape,Acme,Flower > Indica,ea,,30.00,1',
        'G-4,G-4,G-P,Grape Ape',
      ].join('\n'),
      { dryRun: true },
    );
    expect(r.problems).toEqual([
      { row: 5, column: '', value: '', reason: 'the row has 4 cells, the header 10' },
      // Each row is named by its sku and name as the file writes them (the console's report shows them).
      { row: 3, sku: 'G-2', name: 'Grape Ape', column: 'brand', value: 'Other Brand', reason: 'brand differs from row 2 of the same product (G-P): "Acme"' },
      { row: 4, sku: 'G-3', name: 'Grape Ape', column: 'unit', value: 'ea', reason: 'the variants of one product are its sizes: unit must be g' },
    ]);
  });

  it('accepts a UTF-8 byte-order mark; reports a file in another encoding, missing and unknown columns', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${HEADER}\nB-1,B-1,Café Kush,Flower > Sativa,g,1,10.00,3\n`)]);
    expect((await run(STORE.c, bom, { dryRun: true })).problems).toEqual([]);
    const latin1 = Buffer.from(`${HEADER}\nB-1,B-1,Caf\xe9 Kush,Flower > Sativa,g,1,10.00,3\n`, 'latin1');
    const bad = await run(STORE.c, latin1, { dryRun: true });
    expect(bad.outcome).toBe('problems');
    expect(bad.problems[0]).toMatchObject({ row: 2, reason: expect.stringMatching(/not UTF-8/) });
    const utf16 = Buffer.from(`\ufeff${HEADER}\n`, 'utf16le');
    expect((await run(STORE.c, utf16)).problems[0].reason).toMatch(/UTF-16/);
    const cols = await run(STORE.c, 'external_id,sku,name,colour\nx,y,z,red\n');
    expect(cols.problems).toEqual(
      expect.arrayContaining([
        { row: 1, column: 'colour', value: 'colour', reason: expect.stringMatching(/unknown column "colour"/) },
        { row: 1, column: 'category', value: '', reason: 'missing column category' },
        { row: 1, column: 'price', value: '', reason: 'missing column price' },
      ]),
    );
  });

  it('reports a row over the size limit, a file over the text limit and one over the row limit (100,000 rows streamed) without writing', async () => {
    const before = await snapshot(STORE.c);
    const big = await run(STORE.c, `${HEADER}\nX-1,X-1,${'a'.repeat(1_000_000)},Flower > Indica,g,1,1.00,1\n`);
    expect(big.outcome).toBe('problems');
    expect(big.problems[0]).toMatchObject({ row: 2, reason: expect.stringMatching(/longer than/) });
    function* many() {
      yield `${HEADER}\n`;
      for (let i = 0; i < 100_000; i += 1000) {
        let chunk = '';
        for (let j = i; j < i + 1000; j++) chunk += `M-${j},M-${j},Menu ${j},Flower > Indica,g,1,10.00,1\n`;
        yield chunk;
      }
    }
    function* long() {
      yield `${HEADER},description\n`;
      for (let i = 0; i < 900; i++) yield `L-${i},L-${i},Long ${i},Flower > Indica,g,1,10.00,1,${'d'.repeat(19_000)}\n`;
    }
    const heavy = await importMenu(getDb().db, { storeId: STORE.c, source: long(), format: 'csv' });
    expect(heavy.rows).toBe(900);
    expect(heavy.problems).toEqual([
      { row: expect.any(Number), column: '', value: '', reason: expect.stringMatching(/more than 16 MB of text/) },
    ]);
    const r = await importMenu(getDb().db, { storeId: STORE.c, source: many(), format: 'csv' });
    expect(r.outcome).toBe('problems');
    expect(r.rows).toBe(100_000);
    expect(r.problems).toEqual([{ row: MAX_ROWS + 2, column: '', value: '', reason: expect.stringMatching(/more than 20000 rows/) }]);
    expect(await snapshot(STORE.c)).toBe(before);
  }, 30_000);

  it('exports the menu (the demo one and an imported one) in a format that re-imports as no change', async () => {
    for (const storeId of [STORE.a, STORE.d]) {
      const csv = await exportMenuCsv(getDb().db, storeId);
      const r = await run(storeId, csv, { dryRun: true });
      expect(r.problems).toEqual([]);
      expect(r.created).toEqual([]);
      expect(r.updated).toEqual([]);
      expect(r.unchanged).toBeGreaterThan(3);
      const json = await exportMenuJson(getDb().db, storeId);
      expect(await run(storeId, json, { dryRun: true, format: 'json' })).toMatchObject({ problems: [], created: [], updated: [] });
    }
  });

  it('rewriting every demo menu row (a price change on each) changes the price and nothing else of the catalogue', async () => {
    const { db } = getDb();
    const storeId = STORE.a;
    const read = async () => {
      const products = await db.selectFrom('products').selectAll().where('store_id', '=', storeId).orderBy('id').execute();
      const ids = products.map((p) => p.id);
      const chunks = async <T>(f: (c: number[]) => Promise<T[]>) =>
        (await Promise.all([0, 1, 2, 3].map((k) => f(ids.filter((_, i) => i % 4 === k))))).flat();
      return {
        products: products.map(({ updated_at: _u, external_id: _e, ...p }) => p),
        stock: (
          await chunks((c) =>
            db
              .selectFrom('stock')
              .select(['product_id', 'qty', 'is_in_stock', 'manage_stock', 'low_stock_threshold'])
              .where('product_id', 'in', c)
              .execute(),
          )
        ).sort((a, b) => a.product_id - b.product_id),
        prices: (await chunks((c) => db.selectFrom('product_prices').selectAll().where('product_id', 'in', c).execute())).sort(
          (a, b) => a.product_id - b.product_id || a.customer_group_id - b.customer_group_id,
        ),
        attrs: (await chunks((c) => db.selectFrom('product_attribute_values').selectAll().where('product_id', 'in', c).execute()))
          .map((a) => `${a.product_id}:${a.attribute_code}=${a.value}`)
          .sort(),
        cats: (
          await chunks((c) =>
            db.selectFrom('product_categories').select(['product_id', 'category_id']).where('product_id', 'in', c).execute(),
          )
        )
          .map((a) => `${a.product_id}:${a.category_id}`)
          .sort(),
        discounts: (await chunks((c) => db.selectFrom('qty_discounts').selectAll().where('product_id', 'in', c).execute()))
          .map((d) => `${d.product_id}:${d.qty_to_buy}=${d.price_cents}`)
          .sort(),
        options: (
          await chunks((c) =>
            db
              .selectFrom('product_configurable_option_values')
              .select(['product_id', 'value_index'])
              .where('product_id', 'in', c)
              .execute(),
          )
        )
          .map((d) => `${d.product_id}:${d.value_index}`)
          .sort(),
      };
    };
    const before = await read();
    const csv = await exportMenuCsv(db, storeId);
    const lines = parseCsvSync(csv) as string[][];
    const priceAt = lines[0].indexOf('price');
    const specialAt = lines[0].indexOf('special_price');
    // A cent more on each price, unless that meets the special price.
    const bumped = lines.map((r, i) =>
      i === 0 ? r : r.map((c, k) => (k === priceAt && !r[specialAt] ? (Number(c) + 0.01).toFixed(2) : c)),
    );
    // Every price of the menu changed looks like another store's file (issue 26): refused until the
    // operator confirms it is the store's own; then exactly the prices change.
    const refused = await run(storeId, stringifyCsv(bumped));
    expect(refused.outcome).toBe('problems');
    expect(refused.problems.map((p) => p.code)).toEqual(['looks_like_another_store']);
    expect(await read()).toEqual(before);
    const r = await run(storeId, stringifyCsv(bumped), { confirmStore: true });
    expect(r.problems).toEqual([]);
    expect(r.updated.length).toBeGreaterThan(100);
    for (const u of r.updated) expect(u.changes!.map((c) => c.column)).toEqual(['price']);
    const after = await read();
    const { prices: p0, options: o0, ...rest0 } = before;
    const { prices: p1, options: o1, ...rest1 } = after;
    expect(rest1).toEqual(rest0);
    expect(p1.map(({ price_cents: _p, ...x }) => x)).toEqual(p0.map(({ price_cents: _p, ...x }) => x));
    expect(p1.filter((x, i) => x.price_cents !== p0[i].price_cents).length).toBe(r.updated.length);
    // A product with sizes offers the sizes it has (the demo listed all five, even without a child).
    for (const o of o1) expect(o0).toContain(o);
  });

  it('never exports a cell a spreadsheet would run as a formula, and reads the escaped cell back', async () => {
    const name = '=HYPERLINK("http://evil.example","x")';
    const file = `${HEADER},description\nF-1,F-1,"${name.replace(/"/g, '""')}",Flower > Hybrid,g,1,10.00,2,"@SUM(1+1)"\n`;
    expect((await run(STORE.b, file)).outcome).toBe('applied');
    const csv = await exportMenuCsv(getDb().db, STORE.b);
    const cells = csv.split(/[\n,]/).map((c) => c.replace(/^"/, ''));
    expect(cells.some((c) => /^[=+\-@\t\r]/.test(c))).toBe(false);
    expect(csv).toContain(`'=HYPERLINK`);
    expect(csv).toContain(`'@SUM(1+1)`);
    expect((await run(STORE.b, csv, { dryRun: true })).updated).toEqual([]);
    const { db } = getDb();
    const p = await db
      .selectFrom('products')
      .select(['name', 'description'])
      .where('store_id', '=', STORE.b)
      .where('external_id', '=', 'F-1')
      .executeTakeFirstOrThrow();
    expect(p).toEqual({ name, description: '@SUM(1+1)' });
  });
});

describe('menu file parser (fuzz)', () => {
  it('never throws, and every row with a bad cell is reported', async () => {
    const cell = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', '-1', '12.50', 'g', 'ea', '%', '"', '\n', 'abc,d', '\ufeff'));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.array(fc.constantFrom(...COLUMN_NAMES, 'bogus'), { minLength: 1, maxLength: 10 }),
          fc.shuffledSubarray([...COLUMN_NAMES], { minLength: 8 }).map((h) => [...new Set([...REQUIRED_COLUMNS, ...h])]),
        ),
        fc.array(fc.array(cell, { maxLength: 10 }), { maxLength: 8 }),
        fc.uint8Array({ maxLength: 40 }),
        async (header, rows, noise) => {
          const text = [
            header.join(','),
            ...rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')),
          ].join('\n');
          const r = await parseMenuFile([Buffer.from(text), noise], { format: 'csv' });
          expect(r.problemCount).toBeGreaterThanOrEqual(r.problems.length);
          for (const p of r.problems) expect(p.reason.length).toBeGreaterThan(0);
          // With a valid header and no noise: every row with a cell its column rejects is reported on that row.
          const headerOk =
            REQUIRED_COLUMNS.every((c) => header.includes(c)) &&
            new Set(header).size === header.length &&
            !header.includes('bogus' as never);
          if (headerOk && noise.length === 0) {
            rows.forEach((cells, i) => {
              if (cells.length <= 1 && (cells[0] ?? '').trim() === '') return; // a blank line
              const bad =
                cells.length !== header.length ||
                header.some((h, k) => 'error' in COLUMN_BY_NAME.get(h)!.parse(unescapeCell(cells[k] ?? '')));
              if (bad) expect(r.problems.some((p) => p.row === i + 2)).toBe(true);
            });
          }
          if (r.problemCount === 0) expect(r.rows.length).toBe(r.rowCount);
          const j = await parseMenuFile([Buffer.from(JSON.stringify(rows)), noise], { format: 'json' });
          if (rows.length > 0) expect(j.problemCount).toBeGreaterThan(0); // arrays are never rows
        },
      ),
      { numRuns: 300 },
    );
  });

  it('escapes exactly the formula-starting cells and unescapes them back', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const e = escapeCell(s);
        expect(/^[=+\-@\t\r]/.test(e)).toBe(false);
        expect(unescapeCell(e)).toBe(s);
      }),
    );
  });
});
