/**
 * Every integration route fed random requests WITH a valid key of every scope (the app-wide fuzz
 * test, http/fuzz.test.ts, only reaches the key check): random bodies near the real shapes (menu
 * columns with junk cells, stock items with wrong types, actions, webhook URLs), random cursors,
 * numbers and ids. No answer is a 5xx, every refusal is the JSON envelope, and a refused write
 * leaves the menu, the stock, the history, the orders and the webhook endpoints exactly as they
 * were (nothing half-applied). Deterministic (fixed seeds), bounded, on SQLite and PostgreSQL.
 */
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { registry } from '../../test-support/cart/testing.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { COLUMN_NAMES, exportMenuRows } from '../menu-import/index.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { describeEachDatabase, type TestDatabase } from '../../test-support/databases.ts';
import { createApiKey } from './keys.ts';
import { api, menuSnapshot, type Caller } from '../../test-support/integration/testing.ts';

const RUNS = 40;

const junk = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('-1', '1e309', '101', 'yes', 'g', 'ea', '', ' ', '=cmd|x', '\u202e', '9007199254740993'),
);

async function state(t: TestDatabase): Promise<string> {
  const orders = await t.db.selectFrom('orders').select(['id', 'status', 'version']).orderBy('id').execute();
  const hooks = await t.db.selectFrom('webhook_endpoints').select(['id', 'url']).orderBy('id').execute();
  const seqs = await t.db.selectFrom('integration_stock_sequences').selectAll().orderBy('product_id').execute();
  return `${await menuSnapshot(t.db, 1)}\n${JSON.stringify(orders)}\n${JSON.stringify(hooks)}\n${JSON.stringify(seqs)}`;
}

describeEachDatabase('integration API fuzz', (getDb) => {
  let app: FastifyInstance;
  let pos: Caller;
  let skus: string[];
  let category: string;
  let n = 0;

  beforeAll(async () => {
    const t = getDb();
    await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), {
      dataDir: t.dataDir,
      referenceDate: new Date('2026-06-15T12:00:00Z'),
      productsPerStore: 10,
    });
    app = await buildApp({
      config: { dataDir: t.dataDir, demoMode: false, production: true, logLevel: 'silent' },
      registry,
      db: t.db,
      logger: false,
      integrationRateLimit: { max: 0, windowSeconds: 60 },
    });
    pos = api(
      app,
      (await createApiKey(t.db, 1, { name: 'Fuzz', scopes: ['menu:write', 'orders:read', 'orders:write'], createdBy: 'test' }, new Date()))
        .key,
    );
    const rows = await exportMenuRows(t.db, 1);
    skus = rows.map((r) => r.sku);
    category = rows[0].category;
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Send, then check: no 5xx, envelope on refusals, and a refusal changed nothing. */
  const check = async (send: () => Promise<{ status: number; body: any }>) => {
    const before = await state(getDb());
    const res = await send();
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.body).toMatchObject({ code: res.status, result: expect.any(String) });
      expect(await state(getDb())).toBe(before);
    }
  };

  it('menu rows: junk cells and columns never 5xx, refused rows write nothing', async () => {
    const row = fc.dictionary(fc.constantFrom(...COLUMN_NAMES, 'bogus', '__proto__'), junk, { maxKeys: 12 });
    const nearValid = fc.record({
      external_id: fc.constantFrom('FZ-1', 'FZ-2', ''),
      sku: fc.constantFrom('FZ-1', 'FZ-2', ...skus.slice(0, 2)),
      name: fc.string({ maxLength: 30 }),
      category: fc.constantFrom(category, 'Nope > Nothing', ''),
      unit: fc.constantFrom('ea', 'g', 'kg'),
      price: junk,
      stock: junk,
    });
    const body = fc.oneof(
      fc.record({ rows: fc.array(fc.oneof(row, nearValid), { maxLength: 4 }), dry_run: fc.option(fc.boolean(), { nil: undefined }) }),
      fc.jsonValue({ maxDepth: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => check(() => pos.post('/menu/rows', b, `fz-menu-${++n}`))),
      { numRuns: RUNS, seed: 1301 },
    );
  });

  it('stock: wrong types, unknown ids, stale sequences never 5xx, refused batches write nothing', async () => {
    const item = fc.record(
      {
        sku: fc.oneof(fc.constantFrom(...skus), fc.string({ maxLength: 10 })),
        external_id: fc.oneof(fc.constantFrom(...skus), fc.string({ maxLength: 10 })),
        stock: fc.oneof(fc.integer({ min: -5, max: 500 }), junk),
        orderable: fc.oneof(fc.boolean(), junk),
        sequence: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(Number.MAX_SAFE_INTEGER + 2), junk),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(fc.record({ items: fc.array(item, { maxLength: 6 }) }), fc.jsonValue({ maxDepth: 3 }));
    await fc.assert(
      fc.asyncProperty(body, async (b) => check(() => pos.post('/stock', b, `fz-stock-${++n}`))),
      { numRuns: RUNS, seed: 1302 },
    );
  });

  it('orders, actions, webhooks: random cursors, numbers, bodies and ids never 5xx', async () => {
    const request = fc.oneof(
      fc.record({
        kind: fc.constant('feed' as const),
        since: fc.string({ maxLength: 30 }),
        limit: fc.oneof(fc.string({ maxLength: 5 }), fc.integer()),
      }),
      fc.record({
        kind: fc.constant('action' as const),
        number: fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constant('000000001')),
        body: fc.oneof(
          fc.record(
            { action: fc.oneof(fc.constantFrom('confirm', 'cancel', 'complete', 'mark_ready'), fc.string()), ready_by: junk, reason: junk },
            { requiredKeys: ['action'] },
          ),
          fc.jsonValue({ maxDepth: 2 }),
        ),
      }),
      fc.record({
        kind: fc.constant('hook' as const),
        body: fc.oneof(
          fc.record({
            url: fc.oneof(fc.webUrl(), fc.string(), fc.constantFrom('http://127.0.0.1/x', 'https://10.0.0.1/y', 'ftp://x')),
            events: fc.array(fc.string(), { maxLength: 3 }),
          }),
          fc.jsonValue({ maxDepth: 2 }),
        ),
      }),
      fc.record({ kind: fc.constant('unhook' as const), id: fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.integer()) }),
    );
    await fc.assert(
      fc.asyncProperty(request, async (r) =>
        check(() => {
          if (r.kind === 'feed')
            return pos.get(`/orders?since=${encodeURIComponent(r.since)}&limit=${encodeURIComponent(String(r.limit))}`);
          if (r.kind === 'action') return pos.post(`/orders/${encodeURIComponent(r.number)}/actions`, r.body, `fz-act-${++n}`);
          if (r.kind === 'hook') return pos.post('/webhooks', r.body, `fz-hook-${++n}`);
          return pos.delete(`/webhooks/${encodeURIComponent(String(r.id))}`, `fz-unhook-${++n}`);
        }),
      ),
      { numRuns: RUNS * 2, seed: 1303 },
    );
  });
});
