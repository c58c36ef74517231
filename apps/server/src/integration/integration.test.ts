/**
 * The integration API through the real app (demo catalogue, orders placed through the real order
 * route), on SQLite and PostgreSQL: keys (hashed, shown once, revoked, scopes, another store, last
 * used), menu rows, stock with sequences, the orders feed, lifecycle moves, webhooks and
 * idempotency keys. The per-key rate limit and the fuzz test are in their own files.
 */
import { createHash } from 'node:crypto';
import { SIZE_WEIGHTS_GRAMS } from '@verdant/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isPostgres } from '../db/compiled.ts';
import { exportMenuRows } from '../menu-import/index.ts';
import { lifecycleHarness, readyIn, JAR, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { createApiKey } from './keys.ts';
import { api, menuSnapshot, newRow, secretOf, type Caller } from '../../test-support/integration/testing.ts';

describeEachDatabase('integration API', (getDb) => {
  let h: LifecycleHarness;
  let full: Caller;
  let menuOnly: Caller;
  let ordersOnly: Caller;
  let otherStore: Caller;

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    const make = async (storeId: number, scopes: ('menu:write' | 'orders:read' | 'orders:write')[], name: string) =>
      api(h.app, (await createApiKey(h.db, storeId, { name, scopes, createdBy: 'test' }, h.clock.now)).key);
    full = await make(1, ['menu:write', 'orders:read', 'orders:write'], 'Till 1');
    menuOnly = await make(1, ['menu:write'], 'Menu sync');
    ordersOnly = await make(1, ['orders:read'], 'Order screen');
    otherStore = await make(2, ['menu:write', 'orders:read', 'orders:write'], 'Other store till');
  });
  afterAll(async () => {
    await h?.app.close();
  });

  const jarId = async () =>
    (await h.db.selectFrom('products').select('id').where('store_id', '=', 1).where('sku', '=', JAR).executeTakeFirstOrThrow()).id;
  const stockOf = async (productId: number) =>
    h.db.selectFrom('stock').select(['qty', 'is_in_stock', 'version']).where('product_id', '=', productId).executeTakeFirstOrThrow();

  it('keys: created in the console and shown once, stored hashed; unknown, revoked 401; missing scope 403; last used at most once a minute', async () => {
    const created = await h.console('POST', '/api/console/stores/1/api-keys', {
      name: ' POS ',
      scopes: ['orders:read', 'menu:write', 'orders:read'],
    });
    expect(created.status).toBe(200);
    const key: string = created.body.result.key;
    expect(key).toMatch(/^vdk_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
    expect(created.body.result).toMatchObject({
      name: 'POS',
      scopes: ['menu:write', 'orders:read'],
      created_by: 'Olga Owner',
      last_used_at: null,
    });
    const row = await h.db.selectFrom('api_keys').selectAll().where('id', '=', created.body.result.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secretOf(key));
    const list = await h.get('/api/console/stores/1/api-keys');
    expect(JSON.stringify(list.body)).not.toContain(secretOf(key));
    expect(list.body.result.find((k: any) => k.id === row.id)).toMatchObject({
      hint: `vdk_${row.prefix}_…`,
      scopes: ['menu:write', 'orders:read'],
    });

    const pos = api(h.app, key);
    expect((await pos.get('/orders')).status).toBe(200);
    const used = await h.db.selectFrom('api_keys').select('last_used_at').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(used.last_used_at).toBe(h.clock.now.toISOString());
    // Within the minute: not written again; after it: written.
    const start = h.clock.now;
    h.clock.now = new Date(start.getTime() + 30_000);
    await pos.get('/orders');
    expect((await h.db.selectFrom('api_keys').select('last_used_at').where('id', '=', row.id).executeTakeFirstOrThrow()).last_used_at).toBe(
      start.toISOString(),
    );
    h.clock.now = new Date(start.getTime() + 61_000);
    await pos.get('/orders');
    expect((await h.db.selectFrom('api_keys').select('last_used_at').where('id', '=', row.id).executeTakeFirstOrThrow()).last_used_at).toBe(
      h.clock.now.toISOString(),
    );
    h.clock.now = start;

    // Scope: this key has no orders:write.
    const scoped = await pos.post('/orders/000000001/actions', { action: 'confirm' }, 'k-scope');
    expect(scoped.status).toBe(403);
    expect(scoped.body.errorCode).toBe('scope_missing');
    expect((await menuOnly.get('/orders')).status).toBe(403);
    expect((await ordersOnly.post('/stock', { items: [{ sku: JAR, stock: 1, sequence: 1 }] }, 'k-scope-2')).status).toBe(403);

    // Unknown keys, a wrong secret with a real prefix, no header at all.
    expect((await api(h.app, `vdk_${row.prefix}_${'A'.repeat(43)}`).get('/orders')).status).toBe(401);
    expect((await api(h.app, 'nonsense').get('/orders')).status).toBe(401);
    const none = await h.app.inject({ method: 'GET', url: '/api/integration/v1/orders' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toContain('Bearer');

    const revoked = await h.console('POST', `/api/console/stores/1/api-keys/${row.id}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(revoked.body.result.revoked_at).toBe(h.clock.now.toISOString());
    const after = await pos.get('/orders');
    expect(after.status).toBe(401);
    expect(after.body.errorCode).toBe('api_key_invalid');
    // Another store's key cannot be revoked through this store.
    const foreign = await h.db.selectFrom('api_keys').select('id').where('store_id', '=', 2).executeTakeFirstOrThrow();
    expect((await h.console('POST', `/api/console/stores/1/api-keys/${foreign.id}/revoke`, {})).status).toBe(404);
    expect((await otherStore.get('/orders')).status).toBe(200);
  });

  it('keys: a key of one store never touches another store (whatever host the request names)', async () => {
    const order = await h.place();
    const { status } = await h.db.selectFrom('orders').select('status').where('id', '=', order.id).executeTakeFirstOrThrow();
    const seen = await otherStore.get('/orders?limit=200', 'downtown.localhost');
    expect(seen.status).toBe(200);
    expect(seen.body.result.orders.map((o: any) => o.number)).not.toContain(order.increment_id);
    const moved = await otherStore.post(`/orders/${order.increment_id}/actions`, { action: 'cancel', reason: 'other' }, 'other-store-1');
    expect(moved.status).toBe(404);
    expect((await h.db.selectFrom('orders').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status).toBe(status);
    // A sku both stores sell: the store-2 key changes store 2's only.
    const ids = async (sku: string) =>
      Object.fromEntries(
        (await h.db.selectFrom('products').select(['id', 'store_id']).where('sku', '=', sku).execute()).map((p) => [p.store_id, p.id]),
      );
    const shared = await h.db
      .selectFrom('products as a')
      .innerJoin('products as b', 'b.sku', 'a.sku')
      .select('a.sku')
      .where('a.store_id', '=', 1)
      .where('b.store_id', '=', 2)
      .where('a.type_id', '=', 'simple')
      .orderBy('a.sku')
      .executeTakeFirstOrThrow();
    const both = await ids(shared.sku);
    const before1 = await stockOf(both[1]);
    const res = await otherStore.post('/stock', { items: [{ sku: shared.sku, stock: 7, sequence: 1 }] }, 'other-store-2');
    expect(res.status).toBe(200);
    expect(res.body.result.applied).toHaveLength(1);
    expect(await stockOf(both[1])).toEqual(before1);
    const store2 = await h.db.selectFrom('products').select(['uom', 'size']).where('id', '=', both[2]).executeTakeFirstOrThrow();
    expect((await stockOf(both[2])).qty).toBe(store2.uom === 'g' ? 7 * SIZE_WEIGHTS_GRAMS[store2.size!] : 7);
  });

  it('menu rows: create and update in one call, in the menu history as the API key; problems → 422 and nothing written; 1,001 rows refused', async () => {
    const rows = (await exportMenuRows(h.db, 1)).filter((r) => r.unit === 'ea' && r.parent_external_id === null);
    const existing = rows[0];
    const created = newRow(existing.category, 'API-NEW-1');
    const res = await menuOnly.post(
      '/menu/rows',
      {
        rows: [
          created,
          {
            external_id: existing.external_id,
            sku: existing.sku,
            name: existing.name,
            category: existing.category,
            unit: 'ea',
            price: '77.70',
            stock: String(existing.stock),
          },
        ],
      },
      'menu-1',
    );
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ outcome: 'applied', created: ['API-NEW-1'], updated: [existing.external_id] });
    const price = await h.db
      .selectFrom('product_prices')
      .innerJoin('products', 'products.id', 'product_prices.product_id')
      .select('price_cents')
      .where('products.store_id', '=', 1)
      .where('products.sku', '=', existing.sku)
      .executeTakeFirstOrThrow();
    expect(price.price_cents).toBe(7770);
    const history = await h.db.selectFrom('menu_changes').selectAll().where('source', '=', 'api').where('sku', '=', existing.sku).execute();
    expect(
      history.some((c) => c.field === 'price' && c.after === '77.70' && c.actor_type === 'api_key' && c.actor_name === 'Menu sync'),
    ).toBe(true);
    // Every row names its item (a demo item too, whose external id is only its sku), so the item's history shows it.
    const ids = await h.db.selectFrom('products').select(['id', 'sku']).where('store_id', '=', 1).where('sku', 'in', [existing.sku, 'API-NEW-1']).execute();
    const apiRows = await h.db.selectFrom('menu_changes').selectAll().where('source', '=', 'api').where('sku', 'in', [existing.sku, 'API-NEW-1']).execute();
    expect(apiRows.length).toBeGreaterThanOrEqual(2);
    for (const r of apiRows) expect(r.product_id).toBe(ids.find((p) => p.sku === r.sku)!.id);
    // The catalogue (search) knows the new product without a restart.
    const found = await h.app.inject({
      method: 'GET',
      url: '/api/catalog/products?text=Integration%20Gummies&size=20',
      headers: { host: 'downtown.localhost' },
    });
    expect(found.json().result.items.map((p: { sku: string }) => p.sku)).toContain('API-NEW-1');

    // A problem anywhere: nothing written, the problem reported by row and column.
    const before = await menuSnapshot(h.db, 1);
    const bad = await menuOnly.post(
      '/menu/rows',
      { rows: [newRow(existing.category, 'API-NEW-2'), { ...newRow(existing.category, 'API-NEW-3'), price: '-4' }] },
      'menu-2',
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errorCode).toBe('menu_problems');
    expect(bad.body.meta.problems[0]).toMatchObject({ row: 2, column: 'price', value: '-4' });
    expect(await menuSnapshot(h.db, 1)).toEqual(before);

    const dry = await menuOnly.post('/menu/rows', { rows: [newRow(existing.category, 'API-NEW-4')], dry_run: true }, 'menu-3');
    expect(dry.status).toBe(200);
    expect(dry.body.result).toMatchObject({ outcome: 'planned', created: ['API-NEW-4'] });
    expect(await menuSnapshot(h.db, 1)).toEqual(before);

    const many = Array.from({ length: 1001 }, (_, i) => newRow(existing.category, `API-MANY-${i}`));
    const tooMany = await menuOnly.post('/menu/rows', { rows: many }, 'menu-4');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.result).toContain('1000');
    expect(await menuSnapshot(h.db, 1)).toEqual(before);
  });

  it('stock: applied with history and a new stock version; stale and unknown items reported and unchanged; a later item of the same call wins', async () => {
    const id = await jarId();
    const start = await stockOf(id);
    const res = await menuOnly.post(
      '/stock',
      {
        items: [
          { sku: JAR, stock: 40, sequence: 1000 },
          { sku: 'NO-SUCH-SKU', stock: 1, sequence: 5 },
          { external_id: 'NO-SUCH-EXT', stock: 1, sequence: 5 },
          { sku: JAR, stock: 41, sequence: 999 },
        ],
      },
      'stock-1',
    );
    expect(res.status).toBe(200);
    expect(res.body.result.applied).toEqual([expect.objectContaining({ index: 0, sku: JAR, stock: 40, sequence: 1000, orderable: true })]);
    expect(res.body.result.skipped).toEqual([expect.objectContaining({ index: 3, sequence: 999, last_sequence: 1000 })]);
    expect(res.body.result.unknown.map((u: any) => u.index)).toEqual([1, 2]);
    const after = await stockOf(id);
    expect(after).toMatchObject({ qty: 40, is_in_stock: 1 });
    expect(after.version).toBe(start.version + 1);

    // Late: an older sequence after a newer one changes nothing and says why.
    const late = await menuOnly.post('/stock', { items: [{ sku: JAR, stock: 3, sequence: 1000 }] }, 'stock-2');
    expect(late.body.result.skipped[0]).toMatchObject({ index: 0, sequence: 1000, last_sequence: 1000 });
    expect(late.body.result.skipped[0].reason).toMatch(/stale/i);
    expect(await stockOf(id)).toEqual(after);

    // Sold out and not orderable, in the history as the key.
    const out = await menuOnly.post('/stock', { items: [{ sku: JAR, stock: 0, orderable: false, sequence: 1001 }] }, 'stock-3');
    expect(out.body.result.applied[0]).toMatchObject({ stock: 0, orderable: false });
    expect(await stockOf(id)).toMatchObject({ qty: 0, is_in_stock: 0 });
    const changes = await h.db
      .selectFrom('menu_changes')
      .selectAll()
      .where('product_id', '=', id)
      .where('source', '=', 'api')
      .orderBy('id')
      .execute();
    expect(changes.map((c) => [c.field, c.before, c.after, c.actor_name])).toEqual([
      ['stock', String(start.qty), '40', 'Menu sync'],
      ['stock', '40', '0', 'Menu sync'],
      ['orderable', 'yes', 'no', 'Menu sync'],
    ]);
    await menuOnly.post('/stock', { items: [{ sku: JAR, stock: 100_000, orderable: true, sequence: 1002 }] }, 'stock-4');
  });

  it('stock: 20 concurrent updates of one variant with shuffled sequences end at the highest sequence’s value', async () => {
    const id = await jarId();
    const sequences = Array.from({ length: 20 }, (_, i) => 5000 + i);
    // A fixed shuffle (deterministic): the highest is neither first nor last.
    const order = [7, 19, 3, 12, 0, 15, 9, 1, 18, 5, 11, 2, 17, 6, 14, 4, 10, 16, 8, 13].map((i) => sequences[i]);
    const answers = await Promise.all(
      order.map((seq) => menuOnly.post('/stock', { items: [{ sku: JAR, stock: seq - 4000, sequence: seq }] }, `conc-${seq}`)),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await stockOf(id)).toMatchObject({ qty: 5019 - 4000 });
    const seq = await h.db
      .selectFrom('integration_stock_sequences')
      .select('sequence')
      .where('product_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(seq.sequence)).toBe(5019);
    // Each update either applied or was skipped as stale; the highest always applied.
    const applied = answers.filter((a) => a.body.result.applied.length === 1).map((a) => a.body.result.applied[0].sequence);
    expect(applied).toContain(5019);
    expect(answers.filter((a) => a.body.result.skipped.length === 1).length + applied.length).toBe(20);
    // What applied did so in increasing sequence order (a stale one never landed after a newer one).
    const history = await h.db
      .selectFrom('menu_changes')
      .select('after')
      .where('product_id', '=', id)
      .where('field', '=', 'stock')
      .orderBy('id')
      .execute();
    const tail = history.slice(-applied.length).map((r) => Number(r.after));
    expect(tail).toEqual([...tail].sort((a, b) => a - b));
    await menuOnly.post('/stock', { items: [{ sku: JAR, stock: 100_000, sequence: 6000 }] }, 'stock-reset');
  });

  it('orders: every order once over pages of a cursor, also orders placed while paging; a bad cursor 400', async () => {
    const first = await full.get('/orders?limit=200');
    let cursor: string = first.body.result.next;
    const placed = [];
    for (let i = 0; i < 5; i++) placed.push(await h.place());
    const seen: string[] = [];
    let pages = 0;
    for (;;) {
      const page = await full.get(`/orders?since=${encodeURIComponent(cursor)}&limit=2`);
      expect(page.status).toBe(200);
      seen.push(...page.body.result.orders.map((o: any) => o.number));
      cursor = page.body.result.next;
      if (++pages === 1) placed.push(await h.place(), await h.place());
      if (!page.body.result.has_more) break;
    }
    expect(seen).toEqual(placed.map((p) => p.increment_id));
    const again = await full.get(`/orders?since=${encodeURIComponent(cursor)}`);
    expect(again.body.result.orders).toEqual([]);
    expect(again.body.result.next).toBe(cursor);
    // An order that changes comes again after the cursor, with its new status.
    await h.move(placed[0].id, { action: 'cancel', reason: 'other' });
    const changed = await full.get(`/orders?since=${encodeURIComponent(cursor)}`);
    expect(changed.body.result.orders).toEqual([expect.objectContaining({ number: placed[0].increment_id, status: 'cancelled' })]);
    const view = changed.body.result.orders[0];
    expect(view.items[0]).toMatchObject({ sku: JAR, qty: 1 });
    expect(view.customer.name).not.toBe('');
    expect(view.totals.total_cents).toBeGreaterThan(0);
    // Each named tax line as charged (issue 14): they add up to the two tax sums, to the cent.
    expect(view.totals.tax_lines.length).toBeGreaterThan(0);
    const sum = (kind: string) =>
      view.totals.tax_lines.filter((l: any) => l.kind === kind).reduce((a: number, l: any) => a + l.amount_cents, 0);
    expect(sum('excise')).toBe(view.totals.excise_tax_cents);
    expect(sum('sales')).toBe(view.totals.sales_tax_cents);
    expect(view.totals.tax_lines[0]).toEqual({
      code: expect.any(String),
      title: expect.any(String),
      kind: expect.stringMatching(/^(excise|sales)$/),
      rate: expect.any(Number),
      taxable_cents: expect.any(Number),
      amount_cents: expect.any(Number),
    });
    expect((await full.get('/orders?since=bm9wZQ')).status).toBe(400);
    expect((await full.get('/orders?limit=0')).status).toBe(400);
  });

  it('orders: a change whose transaction commits late is not skipped by a cursor (PostgreSQL: the feed waits for it)', async () => {
    const order = await h.place();
    const start = (await full.get('/orders?limit=200')).body.result.next as string;
    if (!isPostgres(h.db)) {
      // One writer at a time: ids commit in order, nothing to wait for. The feed still sees the change.
      await h.db
        .insertInto('order_events')
        .values({
          order_id: order.id,
          store_id: 1,
          at: h.clock.now.toISOString(),
          actor_type: 'system',
          actor_id: null,
          actor_name: null,
          kind: 'note',
          from_status: null,
          to_status: null,
          data: null,
        })
        .execute();
      expect((await full.get(`/orders?since=${encodeURIComponent(start)}`)).body.result.orders.map((o: any) => o.number)).toEqual([
        order.increment_id,
      ]);
      return;
    }
    const other = await h.place();
    let feed: Promise<Awaited<ReturnType<Caller['get']>>> | undefined;
    await h.db.transaction().execute(async (trx) => {
      // Takes an id now, commits after a later order's change is visible.
      await trx
        .insertInto('order_events')
        .values({
          order_id: order.id,
          store_id: 1,
          at: h.clock.now.toISOString(),
          actor_type: 'system',
          actor_id: null,
          actor_name: null,
          kind: 'note',
          from_status: null,
          to_status: null,
          data: null,
        })
        .execute();
      await h.move(other.id, { action: 'cancel', reason: 'other' });
      feed = full.get(`/orders?since=${encodeURIComponent(start)}`);
      // Wait until the feed is waiting for this transaction (its lock request not granted), then commit.
      for (;;) {
        const waiting = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_locks where not granted and locktype = 'relation'`.execute(h.db);
        if (waiting.rows[0].n > 0) break;
        await new Promise((r) => setImmediate(r));
      }
    });
    const page = await feed!;
    expect(page.body.result.orders.map((o: any) => o.number).sort()).toEqual([order.increment_id, other.increment_id].sort());
  });

  it('lifecycle: moves an order by number with the console’s rules and refusals; the API key is the actor', async () => {
    const a = await h.place();
    const b = await h.place();
    // The same refusals as the console (409 not allowed, 400 guard), same codes.
    const apiWrong = await full.post(`/orders/${a.increment_id}/actions`, { action: 'complete' }, 'move-1');
    const consoleWrong = await h.move(b.id, { action: 'complete' });
    expect(apiWrong.status).toBe(consoleWrong.status);
    expect(apiWrong.body.errorCode).toBe(consoleWrong.body.errorCode);
    expect(apiWrong.body.meta.allowed).toEqual(consoleWrong.body.meta.allowed);
    const apiGuard = await full.post(`/orders/${a.increment_id}/actions`, { action: 'confirm' }, 'move-2');
    const consoleGuard = await h.move(b.id, { action: 'confirm' });
    expect([apiGuard.status, apiGuard.body.errorCode, apiGuard.body.result]).toEqual([
      400,
      consoleGuard.body.errorCode,
      consoleGuard.body.result,
    ]);
    expect(consoleGuard.status).toBe(400);

    // 9:30 AM store time (the suite's clock is 5 AM, before downtown opens at 9: see the hours test below).
    const ok = await full.post(`/orders/${a.increment_id}/actions`, { action: 'confirm', ready_by: readyIn(h.clock, 4.5) }, 'move-3');
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({ number: a.increment_id, status: 'confirmed' });
    const event = await h.db
      .selectFrom('order_events')
      .selectAll()
      .where('order_id', '=', a.id)
      .where('kind', '=', 'status')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ actor_type: 'api_key', actor_name: 'Till 1', to_status: 'confirmed' });
    expect((await full.post('/orders/NOPE-1/actions', { action: 'confirm' }, 'move-4')).status).toBe(404);
    expect((await full.post(`/orders/${a.increment_id}/actions`, { action: 'fly' }, 'move-5')).status).toBe(400);
  });

  it('confirm follows the store’s hours as the console’s does: a closed ready-by is 400 store_closed unless confirm_closed: true', async () => {
    const start = h.clock.now;
    try {
      // Monday 2026-06-15 4:52 AM in Sacramento (UTC−7): downtown opens at 9.
      h.clock.now = new Date('2026-06-15T11:52:00.000Z');
      const a = await h.place({ type: 'pickup' });
      const statusOf = async (id: number) =>
        (await h.db.selectFrom('orders').select(['status', 'ready_by', 'version']).where('id', '=', id).executeTakeFirstOrThrow());
      const before = await statusOf(a.id);
      // 5:30 AM: closed. Refused without the field and with an explicit false; nothing changes.
      for (const [extra, idem] of [
        [{}, 'hours-1'],
        [{ confirm_closed: false }, 'hours-2'],
      ] as const) {
        const r = await full.post(`/orders/${a.increment_id}/actions`, { action: 'confirm', ready_by: '2026-06-15T12:30:00.000Z', ...extra }, idem);
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({
          errorCode: 'store_closed',
          result:
            'The store is closed at that ready-by time (Closed · opens 9 AM). Choose a time when it is open, or send confirm_closed: true to confirm anyway.',
          meta: { opensAt: '2026-06-15T16:00:00.000Z' },
        });
      }
      expect(await statusOf(a.id)).toEqual(before);
      // 9 AM, the opening: confirmed without insisting.
      const open = await full.post(`/orders/${a.increment_id}/actions`, { action: 'confirm', ready_by: '2026-06-15T16:00:00.000Z' }, 'hours-3');
      expect(open.status).toBe(200);
      expect(open.body.result).toMatchObject({ status: 'confirmed', ready_by: '2026-06-15T16:00:00.000Z' });

      // The POS insists: confirmed at 5:30 AM, and the history says the store was closed.
      const b = await h.place({ type: 'pickup' });
      const insisted = await full.post(
        `/orders/${b.increment_id}/actions`,
        { action: 'confirm', ready_by: '2026-06-15T12:30:00.000Z', confirm_closed: true },
        'hours-4',
      );
      expect(insisted.status).toBe(200);
      expect(insisted.body.result).toMatchObject({ status: 'confirmed', ready_by: '2026-06-15T12:30:00.000Z' });
      const event = await h.db
        .selectFrom('order_events')
        .selectAll()
        .where('order_id', '=', b.id)
        .where('kind', '=', 'status')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(event).toMatchObject({ actor_type: 'api_key', to_status: 'confirmed' });
      expect(JSON.parse(event.data!)).toEqual({ action: 'confirm', readyBy: '2026-06-15T12:30:00.000Z', storeClosed: true });

      // While open (12:03 PM): a ready-by 20 minutes later is fine; one after closing (9:01 PM) is refused.
      h.clock.now = new Date('2026-06-15T19:03:00.000Z');
      const c = await h.place({ type: 'pickup', body: { slot_start: null } });
      const late = await full.post(`/orders/${c.increment_id}/actions`, { action: 'confirm', ready_by: '2026-06-16T04:01:00.000Z' }, 'hours-5');
      expect([late.status, late.body.errorCode]).toEqual([400, 'store_closed']);
      const soon = await full.post(`/orders/${c.increment_id}/actions`, { action: 'confirm', ready_by: '2026-06-15T19:23:00.000Z' }, 'hours-6');
      expect(soon.status).toBe(200);
      // A move other than confirm never asks about the hours.
      expect((await full.post(`/orders/${c.increment_id}/actions`, { action: 'cancel', reason: 'other' }, 'hours-7')).status).toBe(200);
    } finally {
      h.clock.now = start;
    }
  });

  it('webhooks: subscribe (secret once), list, unsubscribe; the URL rules apply', async () => {
    const created = await ordersOnly.post('/webhooks', { url: 'https://93.184.216.34/pos-hook', events: ['order.created'] }, 'hook-1');
    expect(created.status).toBe(200);
    expect(created.body.result.secret).toMatch(/^whsec_/);
    const list = await ordersOnly.get('/webhooks');
    expect(list.body.result.map((e: any) => e.url)).toContain('https://93.184.216.34/pos-hook');
    expect(JSON.stringify(list.body)).not.toContain(created.body.result.secret);
    expect((await otherStore.get('/webhooks')).body.result.map((e: any) => e.id)).not.toContain(created.body.result.id);
    expect((await otherStore.delete(`/webhooks/${created.body.result.id}`, 'hook-x')).status).toBe(404);
    // Production: private receivers refused (webhooks/url-policy.ts).
    const local = await ordersOnly.post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['order.created'] }, 'hook-2');
    expect(local.status).toBe(400);
    expect(local.body.errorCode).toBe('webhook_url_invalid');
    expect((await ordersOnly.post('/webhooks', { url: 'https://93.184.216.34/x', events: ['nope'] }, 'hook-3')).status).toBe(400);
    const gone = await ordersOnly.delete(`/webhooks/${created.body.result.id}`, 'hook-4');
    expect(gone.status).toBe(200);
    expect((await ordersOnly.get('/webhooks')).body.result.map((e: any) => e.id)).not.toContain(created.body.result.id);
  });

  it('idempotency: required on writes; the same key and body replays without doing it again; another body 422; 10 copies at once apply once', async () => {
    const noKey = await h.app.inject({
      method: 'POST',
      url: '/api/integration/v1/stock',
      headers: { authorization: `Bearer ${menuOnly.key}`, host: 'downtown.localhost' },
      payload: { items: [{ sku: JAR, stock: 1, sequence: 7000 }] },
    });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().errorCode).toBe('idempotency_key_required');

    const id = await jarId();
    const body = { items: [{ sku: JAR, stock: 321, sequence: 7001 }] };
    const first = await menuOnly.post('/stock', body, 'idem-1');
    expect(first.body.result.applied).toHaveLength(1);
    const version = (await stockOf(id)).version;
    const historyCount = async () => (await h.db.selectFrom('menu_changes').select('id').where('product_id', '=', id).execute()).length;
    const changes = await historyCount();
    const replay = await menuOnly.post('/stock', { items: [{ sequence: 7001, stock: 321, sku: JAR }] }, 'idem-1');
    // The stored answer (applied), not a second run (which would say skipped).
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect((await stockOf(id)).version).toBe(version);
    expect(await historyCount()).toBe(changes);
    const reused = await menuOnly.post('/stock', { items: [{ sku: JAR, stock: 322, sequence: 7002 }] }, 'idem-1');
    expect(reused.status).toBe(422);
    expect(reused.body.errorCode).toBe('idempotency_key_reused');
    // The key is the API key's: another key may use the same Idempotency-Key.
    expect((await full.post('/stock', { items: [{ sku: JAR, stock: 5, sequence: 7003 }] }, 'idem-1')).body.result.applied).toHaveLength(1);

    // 10 copies at once: one endpoint, ten identical answers (the same secret).
    const hook = { url: 'https://93.184.216.34/ten', events: ['order.status_changed'] };
    const answers = await Promise.all(Array.from({ length: 10 }, () => ordersOnly.post('/webhooks', hook, 'idem-ten')));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    const rows = await h.db.selectFrom('webhook_endpoints').select('id').where('url', '=', hook.url).execute();
    expect(rows).toHaveLength(1);
    // The stock route keeps its key in the stock's own transaction: 10 copies at once, one write.
    const v0 = (await stockOf(id)).version;
    const h0 = await historyCount();
    const copies = await Promise.all(
      Array.from({ length: 10 }, () => menuOnly.post('/stock', { items: [{ sku: JAR, stock: 77, sequence: 7050 }] }, 'idem-stock-ten')),
    );
    expect(copies.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(copies.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(copies[0].body.result.applied).toHaveLength(1);
    expect((await stockOf(id)).version).toBe(v0 + 1);
    expect(await historyCount()).toBe(h0 + 1);
    // A refused request is answered the same again (its verdict is kept).
    const refused = await full.post('/orders/NOPE-2/actions', { action: 'confirm' }, 'idem-404');
    const refusedAgain = await full.post('/orders/NOPE-2/actions', { action: 'confirm' }, 'idem-404');
    expect([refused.status, refusedAgain.status]).toEqual([404, 404]);
    expect(refusedAgain.body).toEqual(refused.body);
    await menuOnly.post('/stock', { items: [{ sku: JAR, stock: 100_000, sequence: 7100 }] }, 'idem-reset');
  });
});
