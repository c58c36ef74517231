/**
 * The console's menu routes through the real app and the real staff guard (cookie + CSRF), on SQLite
 * and PostgreSQL: the list (search, filters, sort, paging), quick edits (validation with the import's
 * wording, roles, 409 on a stale edit, the catalogue sees it), bulk actions (≤ 500, one history
 * batch), the history, and the file upload (preview → apply the same file → no change). Every failed
 * edit is checked to have written nothing, history included. (No session, a foreign store, CSRF and
 * role refusals for every console route are also proved by staff/access-contract.test.ts.)
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { staffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { editVariants, StaleEdit } from './edit.ts';

const HOST = 'downtown.localhost';
const STORE = 1;
const BASE = `/api/console/stores/${STORE}/menu`;

interface Item {
  productId: number;
  sku: string;
  externalId: string;
  name: string;
  price: string;
  specialPrice: string;
  stock: number;
  orderable: boolean;
  status: 'active' | 'disabled';
  version: number;
  category: string;
  parentId: number | null;
  weightG: number | null;
  specialState: string | null;
  restoreStock: number | null;
}

describeEachDatabase('console menu routes', (getDb) => {
  let app: FastifyInstance;
  let owner: StaffTestSession;
  let manager: StaffTestSession;
  let budtender: StaffTestSession;
  let otherManager: StaffTestSession;

  beforeAll(async () => {
    const t = getDb();
    ({ app } = await staffTestApp(t));
    // Loaded before the edits, so the test sees them reach a loaded catalogue.
    await app.catalog.ensure(STORE);
    await addStaff(t.db, { email: 'owner@menu.test', role: 'owner', name: 'Olive Owner' });
    await addStaff(t.db, { email: 'manager@menu.test', role: 'manager', storeIds: [STORE], name: 'Mona Manager' });
    await addStaff(t.db, { email: 'bud@menu.test', role: 'budtender', storeIds: [STORE], name: 'Bo Budtender' });
    await addStaff(t.db, { email: 'other@menu.test', role: 'manager', storeIds: [2], name: 'Otto Other' });
    owner = await loginStaff(app, 'owner@menu.test', { ip: '10.240.0.1' });
    manager = await loginStaff(app, 'manager@menu.test', { ip: '10.240.0.2' });
    budtender = await loginStaff(app, 'bud@menu.test', { ip: '10.240.0.3' });
    otherManager = await loginStaff(app, 'other@menu.test', { ip: '10.240.0.4' });
  });
  afterAll(async () => app?.close());

  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, who = manager) => {
    const res = await app.inject({
      method,
      url,
      remoteAddress: '10.240.1.1',
      headers: { host: HOST, ...who.headers },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() as { code: number; result: any; errorCode?: string; meta?: any } };
  };
  const list = async (query = '', who = manager) => {
    const res = await call('GET', `${BASE}${query}`, undefined, who);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result as { items: Item[]; total: number; categories: string[] };
  };
  const historyCount = async () =>
    Number(
      (
        await getDb()
          .db.selectFrom('menu_changes')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** An active, orderable, in-stock variant without a special price that no other test touched. */
  const used = new Set<number>();
  const fresh = async (): Promise<Item> => {
    const { items } = await list('?status=active&stock=in&orderable=yes&size=200');
    const item = items.find((i) => !used.has(i.productId) && !i.specialPrice && Number(i.price) >= 5);
    if (!item) throw new Error('no fresh menu item left in the demo store');
    used.add(item.productId);
    return item;
  };

  it('lists the menu with search, filters, sort and paging; budtenders may read it', async () => {
    const all = await list('?size=200');
    expect(all.total).toBeGreaterThan(5);
    expect(all.items.length).toBe(all.total);
    expect(all.categories.length).toBeGreaterThan(0);
    const first = all.items[0];
    expect(first).toMatchObject({
      productId: expect.any(Number),
      version: expect.any(Number),
      status: expect.stringMatching(/active|disabled/),
    });
    // Search by sku, by name part, by external id (case-insensitive).
    expect((await list(`?q=${encodeURIComponent(first.sku.toLowerCase())}`)).items.map((i) => i.sku)).toContain(first.sku);
    const word = first.name.split(' ')[0].toLowerCase();
    const byWord = await list(`?q=${encodeURIComponent(word)}&size=200`);
    expect(byWord.total).toBeGreaterThan(0);
    expect(byWord.items.every((i) => [i.name, i.sku, i.externalId].some((s) => s.toLowerCase().includes(word)))).toBe(true);
    // Sort by price descending.
    const byPrice = (await list('?sort=price&dir=desc&size=200')).items.map((i) => Number(i.price));
    expect(byPrice).toEqual([...byPrice].sort((a, b) => b - a));
    // Paging: two pages of 3 do not overlap and follow the order of one page of 6.
    const six = (await list('?size=6')).items.map((i) => i.productId);
    const p1 = (await list('?size=3&page=1')).items.map((i) => i.productId);
    const p2 = (await list('?size=3&page=2')).items.map((i) => i.productId);
    expect([...p1, ...p2]).toEqual(six);
    // Category filter: every row is in that category (or below it).
    const cat = all.categories.find((c) => all.items.some((i) => i.category === c))!;
    const inCat = await list(`?category=${encodeURIComponent(cat)}&size=200`);
    expect(inCat.total).toBeGreaterThan(0);
    expect(inCat.items.every((i) => i.category === cat || i.category.startsWith(`${cat} > `))).toBe(true);
    // The budtender reads it too; another store's manager does not.
    expect((await list('?size=1', budtender)).total).toBe(all.total);
    expect((await call('GET', BASE, undefined, otherManager)).status).toBe(403);
    // Bad query: a clear 400.
    const bad = await call('GET', `${BASE}?sort=colour`);
    expect(bad.status).toBe(400);
    expect(bad.body.errorCode).toBe('invalid_request');
  });

  it('a quick price edit is saved in one go, recorded in the history and reaches the catalogue', async () => {
    const item = await fresh();
    const newPrice = (Number(item.price) + 1.25).toFixed(2);
    const res = await call('PATCH', `${BASE}/variants/${item.productId}`, { price: `$${newPrice}`, version: item.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ productId: item.productId, price: newPrice });
    expect(res.body.result.version).toBeGreaterThan(item.version);
    const history = await call('GET', `${BASE}/history?productId=${item.productId}`);
    expect(history.body.result.items[0]).toMatchObject({
      field: 'price',
      before: item.price,
      after: newPrice,
      source: 'console',
      sku: item.sku,
      actor: { type: 'staff', name: 'Mona Manager' },
    });
    // The catalogue (search, pages) has the new price: on the product itself, or on its parent's size.
    type Doc = { sku: string; price: number; configurable_children: Doc[] };
    const docs = app.catalog.catalog(STORE);
    const own = docs.productBySku(item.sku) as unknown as Doc | undefined;
    const indexed =
      own?.sku === item.sku
        ? own
        : (docs.parentOfChild(item.sku) as unknown as Doc | undefined)?.configurable_children.find((c) => c.sku === item.sku);
    expect(indexed?.price).toBe(Math.round(Number(newPrice) * 100));
  });

  it('refuses an invalid edit with the import’s wording and writes nothing', async () => {
    const item = await fresh();
    const before = await historyCount();
    const negative = await call('PATCH', `${BASE}/variants/${item.productId}`, { price: '-3', version: item.version });
    expect(negative.status).toBe(400);
    expect(negative.body).toMatchObject({ errorCode: 'invalid_menu_edit', result: 'price must not be negative' });
    expect(negative.body.meta.problems[0]).toMatchObject({ column: 'price', value: '-3', productId: item.productId });
    const words = await call('PATCH', `${BASE}/variants/${item.productId}`, { price: 'twelve', version: item.version });
    expect(words.body.result).toBe('price must be an amount in dollars such as 12.50');
    const special = await call('PATCH', `${BASE}/variants/${item.productId}`, { specialPrice: item.price, version: item.version });
    expect(special.status).toBe(400);
    expect(special.body.result).toBe('special_price must be below price');
    const window = await call('PATCH', `${BASE}/variants/${item.productId}`, { specialTo: '2026-07-01', version: item.version });
    expect(window.body.result).toBe('a sale window needs special_price');
    const stock = await call('PATCH', `${BASE}/variants/${item.productId}`, { stock: '2.5', version: item.version });
    expect(stock.body.result).toBe('stock must be a whole number of packages');
    const unknownField = await call('PATCH', `${BASE}/variants/${item.productId}`, { colour: 'red', version: item.version });
    expect(unknownField.status).toBe(400);
    const missing = await call('PATCH', `${BASE}/variants/999999`, { stock: '1', version: 0 });
    expect(missing.status).toBe(404);
    // Nothing was written: same values, same version, no history.
    expect(await historyCount()).toBe(before);
    const now = (await list(`?q=${encodeURIComponent(item.sku)}`)).items.find((i) => i.productId === item.productId)!;
    expect(now).toMatchObject({ price: item.price, specialPrice: '', version: item.version });
  });

  it('a stale edit gets 409 with the current values and changes nothing', async () => {
    const item = await fresh();
    const first = await call('PATCH', `${BASE}/variants/${item.productId}`, { stock: String(item.stock + 3), version: item.version });
    expect(first.status).toBe(200);
    const before = await historyCount();
    const stale = await call('PATCH', `${BASE}/variants/${item.productId}`, { stock: '1', version: item.version }, owner);
    expect(stale.status).toBe(409);
    expect(stale.body.errorCode).toBe('stale_edit');
    expect(stale.body.meta.current).toMatchObject({ productId: item.productId, stock: item.stock + 3, version: first.body.result.version });
    expect(await historyCount()).toBe(before);
    // With the current version the owner's edit goes through.
    const retry = await call(
      'PATCH',
      `${BASE}/variants/${item.productId}`,
      { stock: '1', version: stale.body.meta.current.version },
      owner,
    );
    expect(retry.status).toBe(200);
    expect(retry.body.result.stock).toBe(1);
  });

  it('of two simultaneous edits of one version, one is saved and the other gets 409', async () => {
    const item = await fresh();
    const before = await historyCount();
    const [a, b] = await Promise.all([
      call('PATCH', `${BASE}/variants/${item.productId}`, { stock: '7', version: item.version }, owner),
      call('PATCH', `${BASE}/variants/${item.productId}`, { stock: '9', version: item.version }, manager),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const saved = a.status === 200 ? a : b;
    const refused = a.status === 200 ? b : a;
    expect(refused.body.meta.current).toMatchObject({ stock: saved.body.result.stock, version: saved.body.result.version });
    expect(await historyCount()).toBe(before + 1);
  });

  it('the change and its history commit together: a history row that cannot be written undoes the change', async () => {
    // Any two items as they are now (nothing is changed, so the demo store's fresh items are left for other tests).
    const [item, other] = (await list('?status=active&sort=price&dir=desc&size=2')).items;
    const before = await historyCount();
    // actor_name is NOT NULL: the history insert fails after the menu rows were written, in the same transaction.
    await expect(
      editVariants(getDb().db, {
        storeId: STORE,
        edits: [{ productId: item.productId, cells: { price: (Number(item.price) + 1).toFixed(2) }, version: item.version }],
        actor: { type: 'staff', id: null, name: null as unknown as string },
        at: new Date(),
      }),
    ).rejects.toThrow(/null|NOT NULL/i);
    // A stale second edit undoes the first edit's claim of its version too.
    await expect(
      editVariants(getDb().db, {
        storeId: STORE,
        edits: [
          { productId: other.productId, cells: { stock: '2' }, version: other.version },
          { productId: item.productId, cells: { stock: '2' }, version: item.version + 50 },
        ],
        actor: { type: 'staff', id: null, name: 'Test' },
        at: new Date(),
      }),
    ).rejects.toBeInstanceOf(StaleEdit);
    expect(await historyCount()).toBe(before);
    const now = (await list('?size=200')).items;
    expect(now.find((i) => i.productId === item.productId)).toMatchObject({ price: item.price, version: item.version });
    expect(now.find((i) => i.productId === other.productId)).toMatchObject({ stock: other.stock, version: other.version });
  });

  it('a budtender marks an item sold out and back, but may not change prices or status', async () => {
    const item = await fresh();
    const before = await historyCount();
    const price = await call('PATCH', `${BASE}/variants/${item.productId}`, { price: '1.00', version: item.version }, budtender);
    expect(price.status).toBe(403);
    expect(price.body.errorCode).toBe('forbidden');
    const status = await call('PATCH', `${BASE}/variants/${item.productId}`, { status: 'disabled', version: item.version }, budtender);
    expect(status.status).toBe(403);
    expect(await historyCount()).toBe(before);
    const soldOut = await call('PATCH', `${BASE}/variants/${item.productId}`, { stock: 0, version: item.version }, budtender);
    expect(soldOut.status).toBe(200);
    expect(soldOut.body.result).toMatchObject({ stock: 0, orderable: true });
    const history = (await call('GET', `${BASE}/history?productId=${item.productId}`, undefined, budtender)).body.result.items;
    expect(history[0]).toMatchObject({ field: 'stock', before: String(item.stock), after: '0', actor: { name: 'Bo Budtender' } });
    const off = await call(
      'PATCH',
      `${BASE}/variants/${item.productId}`,
      { orderable: false, version: soldOut.body.result.version },
      budtender,
    );
    expect(off.body.result.orderable).toBe(false);
    expect((await list('?stock=out&size=200')).items.map((i) => i.productId)).toContain(item.productId);
  });

  it('bulk actions: one transaction, one history batch, at most 500, roles', async () => {
    const a = await fresh();
    const b = await fresh();
    const c = await fresh();
    const ids = [a.productId, b.productId, c.productId];
    const sold = await call('POST', `${BASE}/bulk`, { productIds: ids, action: 'sold_out' }, budtender);
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    expect(sold.body.result).toMatchObject({ selected: 3, changed: 3 });
    const rows = await getDb().db.selectFrom('menu_changes').selectAll().where('batch_id', '=', sold.body.result.batchId).execute();
    expect(rows.map((r) => [r.product_id, r.field, r.after]).sort()).toEqual(ids.map((id) => [id, 'stock', '0']).sort());
    const back = await call('POST', `${BASE}/bulk`, { productIds: ids, action: 'in_stock', qty: 12 }, budtender);
    expect(back.body.result.changed).toBe(3);
    expect((await list('?stock=out&size=200')).items.map((i) => i.productId)).not.toContain(a.productId);
    // Price ± %: managers only; rounded to the cent.
    const before = await historyCount();
    expect((await call('POST', `${BASE}/bulk`, { productIds: ids, action: 'price_percent', percent: 10 }, budtender)).status).toBe(403);
    expect((await call('POST', `${BASE}/bulk`, { productIds: ids, action: 'disable' }, budtender)).status).toBe(403);
    expect(await historyCount()).toBe(before);
    const up = await call('POST', `${BASE}/bulk`, { productIds: ids, action: 'price_percent', percent: 10 });
    expect(up.body.result.changed).toBe(3);
    const after = (await list(`?q=${encodeURIComponent(a.sku)}`)).items.find((i) => i.productId === a.productId)!;
    expect(after.price).toBe((Math.round(Math.round(Number(a.price) * 100) * 1.1) / 100).toFixed(2));
    // Disable takes them off the menu; enable brings them back.
    await call('POST', `${BASE}/bulk`, { productIds: ids, action: 'disable' });
    expect((await list('?status=disabled&size=200')).items.map((i) => i.productId)).toEqual(expect.arrayContaining(ids));
    await call('POST', `${BASE}/bulk`, { productIds: ids, action: 'enable' });
    // Limits and validation.
    const tooMany = await call('POST', `${BASE}/bulk`, { productIds: Array.from({ length: 501 }, (_, i) => i + 1), action: 'sold_out' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.result).toContain('At most 500 items at once.');
    expect((await call('POST', `${BASE}/bulk`, { productIds: ids, action: 'in_stock' })).body.result).toContain(
      'Back in stock needs a quantity.',
    );
    // One unknown id: nothing of the batch is written.
    const count = await historyCount();
    const partial = await call('POST', `${BASE}/bulk`, { productIds: [...ids, 999999], action: 'sold_out' });
    expect(partial.status).toBe(404);
    expect(await historyCount()).toBe(count);
    expect((await list('?stock=out&size=200')).items.map((i) => i.productId)).not.toContain(a.productId);
  });

  it('a price change that breaks a row rule fails the whole batch', async () => {
    const a = await fresh();
    const b = await fresh();
    // b gets a special just under its price; a 50 % cut makes the special no longer below the price.
    const special = (Number(b.price) - 0.5).toFixed(2);
    expect((await call('PATCH', `${BASE}/variants/${b.productId}`, { specialPrice: special, version: b.version })).status).toBe(200);
    const count = await historyCount();
    const cut = await call('POST', `${BASE}/bulk`, { productIds: [a.productId, b.productId], action: 'price_percent', percent: -50 });
    expect(cut.status).toBe(400);
    expect(cut.body.result).toBe('special_price must be below price');
    expect(cut.body.meta.problems[0]).toMatchObject({ productId: b.productId, column: 'special_price' });
    expect(await historyCount()).toBe(count);
    expect((await list(`?q=${encodeURIComponent(a.sku)}`)).items.find((i) => i.productId === a.productId)!.price).toBe(a.price);
  });

  it('history is paged newest first, per store and per product', async () => {
    const page1 = (await call('GET', `${BASE}/history?limit=3`)).body.result;
    expect(page1.items).toHaveLength(3);
    expect(page1.next).toBe(page1.items[2].id);
    const page2 = (await call('GET', `${BASE}/history?limit=3&before=${page1.next}`)).body.result;
    expect(page2.items[0].id).toBeLessThan(page1.items[2].id);
    const ids = [...page1.items, ...page2.items].map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    // Another store's history is its own (empty here), and not readable by this store's manager.
    expect((await call('GET', `/api/console/stores/2/menu/history`, undefined, manager)).status).toBe(403);
    expect((await call('GET', `/api/console/stores/2/menu/history`, undefined, otherManager)).body.result.items).toEqual([]);
  });

  const upload = async (file: string, query: string, who = manager, type = 'text/csv') => {
    const res = await app.inject({
      method: 'POST',
      url: `${BASE}/import${query}`,
      remoteAddress: '10.240.1.1',
      headers: { host: HOST, ...who.headers, 'content-type': type },
      payload: file,
    });
    return { status: res.statusCode, body: res.json() as { code: number; result: any; errorCode?: string } };
  };

  it('upload: a problem is reported row by row; the fixed file previews, applies once, then is unchanged', async () => {
    const category = (await list('?size=1')).categories[0];
    const header = 'external_id,sku,name,category,unit,weight_g,price,stock\n';
    const bad = `${header}UP-1,UP-1,Console Upload Gummies,${category},ea,,-4.00,10\nUP-2,UP-2,Console Upload Tea,${category},ea,,6.00,3\n`;
    const before = await historyCount();
    const preview = await upload(bad, '');
    expect(preview.status).toBe(200);
    expect(preview.body.result).toMatchObject({ outcome: 'problems', counts: { problems: 1 } });
    expect(preview.body.result.problems[0]).toMatchObject({
      row: 2,
      column: 'price',
      value: '-4.00',
      reason: 'price must not be negative',
    });
    // Applying a file with problems writes nothing either.
    const badApply = await upload(bad, `?apply=${preview.body.result.fileHash}`);
    expect(badApply.body.result.outcome).toBe('problems');
    const fixed = bad.replace('-4.00', '4.00');
    const plan = await upload(fixed, '');
    expect(plan.body.result).toMatchObject({ outcome: 'planned', counts: { created: 2, updated: 0, problems: 0 } });
    expect((await list('?q=console upload')).total).toBe(0);
    expect(await historyCount()).toBe(before);
    // Applying another file than the previewed one is refused.
    const mismatch = await upload(fixed.replace('6.00', '7.00'), `?apply=${plan.body.result.fileHash}`);
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.errorCode).toBe('preview_mismatch');
    // Budtenders do not run imports.
    expect((await upload(fixed, `?apply=${plan.body.result.fileHash}`, budtender)).status).toBe(403);
    const applied = await upload(fixed, `?apply=${plan.body.result.fileHash}`);
    expect(applied.body.result).toMatchObject({ outcome: 'applied', counts: { created: 2 } });
    expect((await list('?q=console upload')).items.map((i) => i.sku).sort()).toEqual(['UP-1', 'UP-2']);
    const history = (await call('GET', `${BASE}/history?limit=2`)).body.result.items;
    expect(history.map((h: { source: string; field: string }) => [h.source, h.field])).toEqual([
      ['import', 'created'],
      ['import', 'created'],
    ]);
    expect(history[0].actor.name).toBe('Mona Manager');
    // The shopper's search finds it without a restart.
    const search = await app.inject({ url: '/api/catalog/products?text=console%20upload', headers: { host: HOST } });
    expect((search.json().result.items as { sku: string }[]).map((p) => p.sku)).toEqual(expect.arrayContaining(['UP-1', 'UP-2']));
    const again = await upload(fixed, '');
    expect(again.body.result).toMatchObject({ outcome: 'planned', counts: { unchanged: 2, created: 0, updated: 0, removed: 0 } });
    const reapplied = await upload(fixed, `?apply=${again.body.result.fileHash}`);
    expect(reapplied.body.result).toMatchObject({ outcome: 'unchanged', counts: { unchanged: 2 } });
    // JSON, and bodies that are not files.
    const json = await upload(
      JSON.stringify([
        { external_id: 'UP-1', sku: 'UP-1', name: 'Console Upload Gummies', category, unit: 'ea', price: '4.00', stock: 10 },
      ]),
      '?format=json',
      manager,
      'application/octet-stream',
    );
    expect(json.body.result).toMatchObject({ outcome: 'planned', counts: { unchanged: 1, updated: 0, created: 0 } });
    expect((await upload('', '')).status).toBe(400);
    expect((await upload('a,b', '?apply=xyz')).status).toBe(400);
  });

  it('upload: a file over 10 MB gets 413 and other content types 415, in the envelope, before anything is read', async () => {
    const big = await upload('x'.repeat(10 * 1024 * 1024 + 1), '');
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 413 });
    const res = await app.inject({
      method: 'POST',
      url: `${BASE}/import`,
      remoteAddress: '10.240.1.1',
      headers: { host: HOST, ...manager.headers, 'content-type': 'text/plain' },
      payload: 'external_id,sku\n',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 415 });
    // A JSON body on the upload is not a file: the route says so.
    const json = await call('POST', `${BASE}/import`, { rows: [] });
    expect(json.status).toBe(400);
    expect(json.body.result).toBe('Choose a menu file (CSV or JSON) to upload.');
  });

  it("upload: harbor's export previewed into downtown is a blocking problem naming both stores; applying it writes nothing", async () => {
    const harbor = await app.inject({ url: '/api/console/stores/4/menu/export.csv', headers: { host: HOST, ...owner.headers } });
    expect(harbor.statusCode).toBe(200);
    const before = await historyCount();
    const preview = await upload(harbor.body, '', owner);
    expect(preview.body.result.outcome).toBe('problems');
    expect(preview.body.result.problems[0]).toMatchObject({ row: 0, column: 'store', value: 'harbor' });
    expect(preview.body.result.problems[0].reason).toMatch(/this file is the menu of store harbor .* not of downtown: nothing is applied/);
    const applied = await upload(harbor.body, `?apply=${preview.body.result.fileHash}`, owner);
    expect(applied.body.result.outcome).toBe('problems');
    expect(await historyCount()).toBe(before);
  });

  it('exports the menu as CSV and JSON that re-import as no change', async () => {
    const csv = await app.inject({ url: `${BASE}/export.csv`, headers: { host: HOST, ...budtender.headers } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename=".+-menu\.csv"/);
    const again = await upload(csv.body, '');
    expect(again.body.result.counts).toMatchObject({ created: 0, updated: 0, removed: 0, problems: 0 });
    expect(again.body.result.counts.unchanged).toBeGreaterThan(5);
    const json = await app.inject({ url: `${BASE}/export.json`, headers: { host: HOST, ...manager.headers } });
    expect(JSON.parse(json.body).length).toBeGreaterThan(5);
  });

  it('search matches every word across name and size ("Blue Dream 1" finds the 1 g, not the 14 g); sizes sort by number', async () => {
    const all = (await list('?size=200')).items;
    const sized = all.filter((i) => i.parentId != null && i.weightG != null);
    const byParent = new Map<number, Item[]>();
    for (const i of sized) byParent.set(i.parentId!, [...(byParent.get(i.parentId!) ?? []), i]);
    const family = [...byParent.values()].find((f) => f.some((i) => i.weightG === 1) && f.some((i) => i.weightG! >= 10))!;
    expect(family).toBeDefined();
    const base = family[0].name.replace(/ [\d.]+ g$/, '');
    const found = await list(`?q=${encodeURIComponent(`${base} 1`)}&size=200`);
    expect(found.items.map((i) => i.productId)).toEqual(family.filter((i) => i.weightG === 1).map((i) => i.productId));
    expect((await list(`?q=${encodeURIComponent(`${base.toUpperCase()}`)}&size=200`)).total).toBeGreaterThanOrEqual(family.length);
    const sorted = (await list(`?q=${encodeURIComponent(base)}&sort=name&size=200`)).items
      .filter((i) => i.parentId === family[0].parentId)
      .map((i) => i.weightG);
    expect(sorted).toEqual([...sorted].sort((a, b) => a! - b!));
    expect(sorted.length).toBeGreaterThanOrEqual(3);
  });

  it('says whether a sale is on now, not yet, or over (an expired one is not what the storefront charges)', async () => {
    const item = (await list('?stock=in&size=200')).items
      .reverse()
      .find((i) => !used.has(i.productId) && !i.specialPrice && Number(i.price) > 5 && i.parentId == null)!;
    used.add(item.productId);
    const special = (Number(item.price) - 1).toFixed(2);
    const patch = async (from: string, to: string, version: number) =>
      call('PATCH', `${BASE}/variants/${item.productId}`, { specialPrice: special, specialFrom: from, specialTo: to, version });
    const past = await patch('2026-05-01', '2026-06-01', item.version);
    expect(past.status, JSON.stringify(past.body)).toBe(200);
    expect(past.body.result.specialState).toBe('expired');
    expect((await list(`?q=${encodeURIComponent(item.sku)}`)).items[0].specialState).toBe('expired');
    const later = await patch('2026-07-01', '2026-07-31', past.body.result.version);
    expect(later.body.result.specialState).toBe('scheduled');
    const now = await patch('2026-06-01', '2026-06-30', later.body.result.version);
    expect(now.body.result.specialState).toBe('current');
  });

  it('a sold-out item knows the count it had, so one action restores it (and nothing once restocked)', async () => {
    const item = (await list('?stock=in&size=200')).items.reverse().find((i) => !used.has(i.productId) && i.stock > 1)!;
    used.add(item.productId);
    const out = await call('PATCH', `${BASE}/variants/${item.productId}`, { stock: 0, version: item.version }, budtender);
    expect(out.status).toBe(200);
    expect(out.body.result).toMatchObject({ stock: 0, restoreStock: item.stock });
    expect((await list(`?q=${encodeURIComponent(item.sku)}`)).items.find((i) => i.productId === item.productId)).toMatchObject({
      restoreStock: item.stock,
    });
    const back = await call('PATCH', `${BASE}/variants/${item.productId}`, { stock: item.stock, version: out.body.result.version }, budtender);
    expect(back.body.result).toMatchObject({ stock: item.stock, restoreStock: null });
  });
});
