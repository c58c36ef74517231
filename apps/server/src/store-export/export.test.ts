/**
 * The store-wide export (issue 31) through the real app on SQLite and PostgreSQL: an owner's
 * download unzips; every CSV parses with its header row and every JSON parses; a known order's
 * totals and lines are right to the cent (cents and dollars); a cell a spreadsheet would run gets
 * its leading `'` and quoted cells survive; another store's customers, consents and deals are absent;
 * managers, budtenders and drivers get 403; pages smaller than the data give the same archive; the
 * docs name every column.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { customerRow } from '../../test-support/customers/rows.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { unescapeCell } from '../http/csv.ts';
import { storeExportStream } from './archive.ts';
import { EXPORT_FILES } from './files.ts';

const URL_A = '/api/console/stores/1/export.zip';
type Row = Record<string, string>;

describeEachDatabase('the store-wide export', (getDb) => {
  let h: LifecycleHarness;
  const tag = `${process.pid}${Math.floor(Math.random() * 1e4)}`;
  let manager: StaffTestSession;
  let budtender: StaffTestSession;
  let driver: StaffTestSession;

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    const iso = h.clock.now.toISOString();
    for (const [role, storeIds] of [['manager', [1, 2]], ['budtender', [1]], ['driver', [1]]] as const)
      await addStaff(h.db, { email: `${role}-${tag}@export.test`, role, storeIds: [...storeIds] });
    manager = await loginStaff(h.app, `manager-${tag}@export.test`, { ip: '10.201.0.1' });
    budtender = await loginStaff(h.app, `budtender-${tag}@export.test`, { ip: '10.201.0.2' });
    driver = await loginStaff(h.app, `driver-${tag}@export.test`, { ip: '10.201.0.3' });
    // A customer whose name a spreadsheet would run, with a quote and a comma; another store's customer.
    await h.db.insertInto('customers').values(customerRow({ store_id: 1, phone: '+15550001111', email: 'a@x.test', firstname: '=HYPERLINK("http://evil")', lastname: 'Smith, "Jr"' }, iso)).execute();
    await h.db.insertInto('customers').values(customerRow({ store_id: 2, phone: '+15550002222', email: 'other-store@x.test', firstname: 'Other', lastname: 'Store' }, iso)).execute();
    for (const store_id of [1, 2])
      await h.db.insertInto('consent_events').values({ store_id, customer_id: null, contact: `+1555000${store_id}999`, channel: 'sms', purpose: 'marketing', action: 'granted', source: 'test', words: '+Yes, text me', at: iso }).execute();
    for (const store_id of [1, 2])
      await h.db
        .insertInto('deals')
        .values({ store_id, code: `X${store_id}-${tag}`, external_id: null, kind: 'percent', title: `Deal of store ${store_id}`, status: 'ended', record: JSON.stringify({ id: `X${store_id}` }), created_at: iso, created_by: 'test', updated_at: iso, updated_by: 'test' })
        .execute();
  });
  afterAll(async () => h?.app.close());

  const download = (session: StaffTestSession, url = URL_A) => h.app.inject({ method: 'GET', url, headers: session.headers });

  function open(bytes: Uint8Array) {
    const files = unzipSync(bytes);
    const csv = (name: string): Row[] => parse(strFromU8(files[`${name}.csv`]!), { columns: true, skip_empty_lines: true });
    const json = (name: string): Record<string, unknown>[] => JSON.parse(strFromU8(files[`${name}.json`]!));
    return { files, csv, json, manifest: JSON.parse(strFromU8(files['manifest.json']!)) };
  }

  it('an owner downloads every file; each parses, a known order is right to the cent, another store is absent', async () => {
    const order = await h.place({ qty: 2 });
    const res = await download(h.owner);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="store-data-[a-z0-9_-]+-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(res.headers['cache-control']).toBe('no-store, private');
    const zip = open(res.rawPayload);

    const names = EXPORT_FILES.flatMap((f) => [`${f.name}.csv`, `${f.name}.json`]);
    expect(Object.keys(zip.files).sort()).toEqual([...names, 'manifest.json'].sort());
    expect(zip.manifest).toMatchObject({ format: 'verdant-store-export/1', store: { id: 1 }, documentation: 'docs/operators/export.md' });
    for (const f of EXPORT_FILES) {
      const csv = zip.csv(f.name);
      const json = zip.json(f.name);
      // The header row is the documented column list; the JSON has the same rows without the dollars twins.
      expect(strFromU8(zip.files[`${f.name}.csv`]!).split('\n')[0]).toBe(f.columns.map((c) => c.name).join(','));
      expect(csv.length).toBe(json.length);
      expect(zip.manifest.files).toContainEqual(expect.objectContaining({ name: `${f.name}.csv`, rows: csv.length }));
      if (json[0]) expect(Object.keys(json[0])).toEqual(f.columns.filter((c) => !c.csvOnly).map((c) => c.name));
    }

    // The known order, to the cent.
    const row = await h.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    const csvOrder = zip.csv('orders').find((o) => o.id === String(order.id))!;
    const jsonOrder = zip.json('orders').find((o) => o.id === order.id)!;
    expect(row.subtotal_cents).toBe(2 * 2699);
    for (const m of ['subtotal', 'discount', 'excise_tax', 'sales_tax', 'delivery_fee', 'total'] as const) {
      const cents = { subtotal: row.subtotal_cents, discount: row.discount_cents, excise_tax: row.excise_tax_cents, sales_tax: row.sales_tax_cents, delivery_fee: row.shipping_cents, total: row.total_cents }[m];
      expect(jsonOrder[`${m}_cents`]).toBe(cents);
      expect(csvOrder[`${m}_cents`]).toBe(String(cents));
      expect(csvOrder[`${m}_dollars`]).toBe((cents / 100).toFixed(2));
    }
    expect(csvOrder).toMatchObject({ number: order.increment_id, status: 'submitted', order_type: 'pickup', placed_at: row.created_at });
    expect(jsonOrder.first_name).toBe(JSON.parse(row.personal_details).firstName);
    const lines = zip.json('order_lines').filter((l) => l.order_id === order.id);
    expect(lines).toEqual([expect.objectContaining({ order_number: order.increment_id, qty: 2, price_cents: 2699, row_total_cents: 5398 })]);
    expect(zip.csv('order_lines').find((l) => l.order_id === String(order.id))).toMatchObject({ price_dollars: '26.99', row_total_dollars: '53.98' });
    const storeOrders = await h.db.selectFrom('orders').select('id').where('store_id', '=', 1).execute();
    expect(zip.json('orders').map((o) => o.id)).toEqual(storeOrders.map((o) => o.id).sort((a, b) => a - b));

    // Formula injection: the CSV cell carries a leading ', quoting survives; the JSON keeps the value as is.
    const evil = zip.csv('customers').find((c) => c.phone === `'+15550001111`)!;
    expect(evil.first_name).toBe(`'=HYPERLINK("http://evil")`);
    expect(unescapeCell(evil.first_name!)).toBe('=HYPERLINK("http://evil")');
    expect(evil.last_name).toBe('Smith, "Jr"');
    expect(zip.json('customers').find((c) => c.phone === '+15550001111')).toMatchObject({ first_name: '=HYPERLINK("http://evil")', id_verified: false });
    // The phone's leading + is escaped too: text, never a formula (the docs say so).
    expect(zip.csv('consents').find((c) => unescapeCell(c.contact!) === '+15550001999')?.words).toBe(`'+Yes, text me`);
    expect(Object.keys(zip.csv('customers')[0]!)).not.toContain('password_hash');

    // Another store's rows are nowhere in the archive.
    const all = Object.values(zip.files).map((b) => strFromU8(b)).join('\n');
    for (const foreign of ['other-store@x.test', '+15550002222', '+15550002999', `X2-${tag}`]) expect(all).not.toContain(foreign);
    expect(all).toContain(`X1-${tag}`);
    expect(zip.json('deals').find((d) => d.code === `X1-${tag}`)).toMatchObject({ record: { id: 'X1' } });
    expect(zip.csv('menu').length).toBeGreaterThan(0);
  });

  it('refuses everyone but owners, and a member outside the store', async () => {
    for (const s of [manager, budtender, driver]) expect((await download(s)).statusCode).toBe(403);
    expect((await download(manager)).json()).toMatchObject({ errorCode: 'forbidden' });
    expect((await download(budtender, '/api/console/stores/2/export.zip')).json()).toMatchObject({ errorCode: 'store_forbidden' });
    expect((await h.app.inject({ method: 'GET', url: URL_A })).statusCode).toBe(401);
  });

  it('a burst of parallel downloads each gets the whole archive; pages smaller than the data give the same rows', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => download(h.owner)));
    const sizes = answers.map((a) => open(a.rawPayload).json('orders').length);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(sizes).size).toBe(1);
    const chunks: Buffer[] = [];
    const stream = storeExportStream({ db: h.db, store: { id: 1, code: 'downtown', name: 'Downtown' }, now: h.clock.now, pageSize: 2 }, (e) => {
      throw e;
    });
    for await (const c of stream) chunks.push(c as Buffer);
    const small = open(new Uint8Array(Buffer.concat(chunks)));
    const whole = open(answers[0]!.rawPayload);
    for (const f of EXPORT_FILES) expect(small.json(f.name)).toEqual(whole.json(f.name));
  });

  it('a download abandoned after its first bytes stops reading, without an error', async () => {
    const errors: unknown[] = [];
    const stream = storeExportStream({ db: h.db, store: { id: 1, code: 'downtown', name: 'Downtown' }, now: h.clock.now, pageSize: 1 }, (e) => errors.push(e));
    const first = await new Promise<Buffer>((resolve) => stream.once('data', resolve));
    expect(first.length).toBeGreaterThan(0);
    stream.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect(errors).toEqual([]);
    expect(stream.destroyed).toBe(true);
  });

  it('docs/operators/export.md names every file and every column', () => {
    const doc = readFileSync(new URL('../../../../docs/operators/export.md', import.meta.url), 'utf8');
    const missing = EXPORT_FILES.flatMap((f) => [`${f.name}.csv`, ...f.columns.map((c) => `\`${c.name}\``)].filter((n) => !doc.includes(n)).map((n) => `${f.name}: ${n}`));
    expect(missing).toEqual([]);
  });
});
