/**
 * Analytics at size (issue 31), on PostgreSQL: a year of a busy store — 300,000 orders over 365
 * days, generated in SQL with its rollups (apps/server/src/analytics/history.ts) — behind a real
 * server process, logged in as the demo owner:
 *  - each dashboard view (7, 30, 90 and 365 days, each compared with the period before; the
 *    across-stores view of a year): p50 / p95 / max of sequential requests, against the 300 ms p95
 *    target;
 *  - order saves (POST /api/order/save, 4 at a time for BENCH_SECONDS) alone, with two managers
 *    reading the year view once a second each, and with two readers loading it without pause:
 *    p50 / p95 and the ratios to the saves alone (measured between the runs, in the same run; the
 *    analytics consumer applies every saved order in all of them).
 *
 *   BENCH_ONLY=analytics npm run bench     or     node --import tsx bench/suites/analytics.ts
 * BENCH_ANALYTICS_PG_URL (default postgres://postgres@127.0.0.1:5432), BENCH_ANALYTICS_ORDERS (300000).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createDatabase } from '../../apps/server/src/db/index.ts';
import { seedHistory } from '../../apps/server/src/analytics/history.ts';
import { createFunnelCounter } from '../../apps/server/src/analytics/funnel.ts';
import { sql } from 'kysely';
import { startServer } from '../lib/processes.ts';

const HOST = 'downtown.localhost';
const STORE_ID = 1;
const ORDERS = Number(process.env.BENCH_ANALYTICS_ORDERS ?? 300_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const VIEW_REQUESTS = 40;
const TARGET_P95_MS = 300;

async function admin(base: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: `${base}/postgres` });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)].toFixed(1));
};
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export async function runAnalyticsSuite() {
  const base = (process.env.BENCH_ANALYTICS_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
  const database = 'verdant_bench_analytics';
  await admin(base, `drop database if exists ${database} with (force)`);
  await admin(base, `create database ${database}`);
  const url = `${base}/${database}`;
  const server = await startServer({ DATABASE_URL: url, WRITE_RATE_LIMIT: '0' });
  const handle = await createDatabase({ databaseUrl: url, dataDir: server.dataDir });
  const web = `http://127.0.0.1:${server.port}`;
  const today = new Date().toISOString().slice(0, 10);
  try {
    const seedStarted = performance.now();
    const seeded = await seedHistory(handle.db, { storeId: STORE_ID, timeZone: 'America/Los_Angeles', orders: ORDERS, days: 365, endDay: today });
    const seedMs = Math.round(performance.now() - seedStarted);
    console.log(`analytics: ${seeded.orders} orders, ${seeded.rollupRows} rollup rows in ${seedMs} ms`);

    const login = await fetch(`${web}/api/console/session`, {
      method: 'POST',
      headers: { host: HOST, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@demo.verdant.test', password: 'verdant-demo-staff' }),
    });
    if (login.status !== 200) throw new Error(`console login answered ${login.status}: ${await login.text()}`);
    const cookie = /^(verdant_staff=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    if (!cookie) throw new Error('no staff cookie');
    const get = async (path: string) => {
      const t = performance.now();
      const r = await fetch(web + path, { headers: { host: HOST, cookie } });
      const body = await r.text();
      if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${body.slice(0, 200)}`);
      return performance.now() - t;
    };
    const view = (days: number, grain: string) => `/api/console/stores/${STORE_ID}/analytics?from=${addDays(today, 1 - days)}&to=${today}&grain=${grain}&compare=1`;
    const views: [string, string][] = [
      ['7 days vs previous (by day)', view(7, 'day')],
      ['30 days vs previous (by day)', view(30, 'day')],
      ['90 days vs previous (by week)', view(90, 'week')],
      ['365 days vs previous (by month)', view(365, 'month')],
      ['365 days, across stores (by month)', `/api/console/analytics?from=${addDays(today, -364)}&to=${today}&grain=month&compare=1`],
      ['365 days, CSV of products', `/api/console/stores/${STORE_ID}/analytics.csv?table=product&from=${addDays(today, -364)}&to=${today}&grain=month&compare=1`],
    ];
    const viewRows = [];
    for (const [name, path] of views) {
      for (let i = 0; i < 3; i++) await get(path);
      const ms: number[] = [];
      for (let i = 0; i < VIEW_REQUESTS; i++) ms.push(await get(path));
      const p95 = pct(ms, 95);
      viewRows.push({ view: name, 'p50 ms': pct(ms, 50), 'p95 ms': p95, 'max ms': pct(ms, 100), 'p95 / target': Number((p95 / TARGET_P95_MS).toFixed(3)) });
    }

    // The funnel: what a write per page view would cost, against counting in memory and one flush.
    const COUNTS = 1000;
    let t = performance.now();
    for (let i = 0; i < COUNTS; i++)
      await sql`insert into analytics_funnel (store_id, day, step, count) values (2, ${today}, 'visit', 1)
                on conflict (store_id, day, step) do update set count = analytics_funnel.count + 1`.execute(handle.db);
    const perRequestUs = ((performance.now() - t) / COUNTS) * 1000;
    const counter = createFunnelCounter(handle.db, { flushMs: 3_600_000 });
    t = performance.now();
    for (let i = 0; i < COUNTS; i++) counter.count(2, 'America/Los_Angeles', 'product_view');
    await counter.stop();
    const batchedUs = ((performance.now() - t) / COUNTS) * 1000;
    const funnel = { counts: COUNTS, perRequestWriteUs: Number(perRequestUs.toFixed(1)), batchedUs: Number(batchedUs.toFixed(2)), ratio: Number((perRequestUs / batchedUs).toFixed(1)) };

    // Order saves: an accessory with endless stock, 4 savers at a time.
    const product = await handle.db
      .selectFrom('products')
      .innerJoin('product_prices', 'product_prices.product_id', 'products.id')
      .select(['products.id', 'products.sku'])
      .where('products.store_id', '=', STORE_ID)
      .where('products.type_id', '=', 'simple')
      .where('products.canna_type', '=', 4)
      .where('products.status', '=', 1)
      .where('products.license_type', '=', 'both')
      .orderBy('products.id')
      .executeTakeFirstOrThrow();
    await handle.db.updateTable('stock').set({ qty: 1e9, is_in_stock: 1, manage_stock: 1 }).where('product_id', '=', product.id).execute();
    const person = { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' };
    const save = async () => {
      const t = performance.now();
      const r = await fetch(`${web}/api/order/save`, {
        method: 'POST',
        headers: { host: HOST, 'content-type': 'application/json' },
        body: JSON.stringify({ idempotency_key: randomUUID(), order_type: 'pickup', personal_details: person, birthday: '1990-01-01', payment_method: 'cashondelivery', products: [{ sku: product.sku, qty: 1 }] }),
      });
      await r.text();
      if (r.status !== 200) throw new Error(`order/save answered ${r.status}`);
      return performance.now() - t;
    };
    /** 4 savers for SECONDS; with `readers`, that many loops reading the year view, `paceMs` apart (0: without pause). */
    const saves = async (readers: number, paceMs = 0) => {
      const until = performance.now() + SECONDS * 1000;
      const ms: number[] = [];
      let reads = 0;
      const saver = async () => {
        while (performance.now() < until) ms.push(await save());
      };
      const reader = async () => {
        while (performance.now() < until) {
          const took = await get(views[3][1]);
          reads++;
          if (paceMs > took) await new Promise((r) => setTimeout(r, paceMs - took));
        }
      };
      await Promise.all([...Array.from({ length: 4 }, saver), ...Array.from({ length: readers }, reader)]);
      return { ms, reads };
    };
    await saves(0); // warm-up
    const alone = await saves(0);
    const paced = await saves(2, 1000);
    const alone2 = await saves(0);
    const flat = await saves(2, 0);
    const alone3 = await saves(0);
    const baseline = [...alone.ms, ...alone2.ms, ...alone3.ms];
    const row = (run: string, r: { ms: number[]; reads: number }) => ({ run, saves: r.ms.length, 'p50 ms': pct(r.ms, 50), 'p95 ms': pct(r.ms, 95), 'dashboard reads': r.reads });
    const saveRows = [
      row('order save alone (baseline, between the runs)', { ms: baseline, reads: 0 }),
      row('… while 2 managers read the year view, 1/s each', paced),
      row('… while 2 readers load the year view without pause', flat),
    ];
    const ratio = (i: number) => ({
      p50: Number((saveRows[i]['p50 ms'] / saveRows[0]['p50 ms']).toFixed(2)),
      p95: Number((saveRows[i]['p95 ms'] / saveRows[0]['p95 ms']).toFixed(2)),
    });
    const ratios = { pacedReaders: ratio(1), flatOutReaders: ratio(2) };
    // Every saved order reached the rollups (the consumer keeps up under load).
    await new Promise((r) => setTimeout(r, 2000));
    const lagging = await handle.db.selectFrom('outbox_events').select((eb) => eb.fn.countAll<string>().as('n')).where('analytics_at', 'is', null).executeTakeFirstOrThrow();
    console.table(viewRows);
    console.log('funnel, µs per counted step: a write per request', funnel.perRequestWriteUs, '/ batched in memory', funnel.batchedUs);
    console.table(saveRows);
    console.log('order save with dashboard reads / alone:', ratios, 'outbox events not yet applied 2 s after:', Number(lagging.n));
    return { orders: seeded.orders, rollupRows: seeded.rollupRows, seedMs, targetP95Ms: TARGET_P95_MS, views: viewRows, funnel, orderSave: saveRows, orderSaveRatios: ratios, unappliedAfter2s: Number(lagging.n) };
  } finally {
    await handle.destroy();
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
    await admin(base, `drop database if exists ${database} with (force)`).catch(() => undefined);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await runAnalyticsSuite();
}
