/**
 * Stock-update throughput of the integration API (issue 13): POST /api/integration/v1/stock with
 * batches of 1, 100 and 1,000 items against one server (fresh demo database, SQLite), each request
 * with a new Idempotency-Key and new, growing sequences and changing values, so items are really
 * written (stock row, sequence, menu history, catalogue reindex of the touched products). Concurrent
 * requests name overlapping variants, so an item whose request lost the race is reported stale:
 * rows/s counts the rows processed (applied or skipped). First 1,000 variants are added through
 * POST /menu/rows (its time is reported too).
 * Reported: requests/s, rows/s, p50/p99 latency per batch size, and as the baseline in the same run
 * `GET /api/health` requests/s on the same server (the cost of a request through the app at all).
 *
 *   BENCH_ONLY=integration npm run bench   or   npx tsx bench/integration-stock.ts
 *   (BENCH_SECONDS per measurement, default 8)
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { createDatabase } from '../apps/server/src/db/index.ts';
import { createApiKey } from '../apps/server/src/integration/keys.ts';
import { exportMenuRows } from '../apps/server/src/menu-import/index.ts';
import { load } from './lib/http-load.ts';
import { startServer } from './lib/processes.ts';

const HOST = 'downtown.localhost';

export async function runIntegrationStockSuite() {
  const server = await startServer({ INTEGRATION_RATE_LIMIT: '0', WRITE_RATE_LIMIT: '0' });
  const seconds = Number(process.env.BENCH_SECONDS ?? 8);
  try {
    // The key goes straight into the server's database (SQLite in WAL mode: a second connection is fine).
    const handle = await createDatabase({ dataDir: server.dataDir });
    const { key } = await createApiKey(handle.db, 1, { name: 'bench', scopes: ['menu:write'], createdBy: 'bench' }, new Date());
    const category = (await exportMenuRows(handle.db, 1))[0].category;
    const base = `http://127.0.0.1:${server.port}`;
    // 1,000 more variants through the API itself (one menu-rows call), so a batch of 1,000 names 1,000 different variants.
    const t0 = performance.now();
    const seeded = await fetch(`${base}/api/integration/v1/menu/rows`, {
      method: 'POST',
      headers: {
        host: HOST,
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'idempotency-key': `bench-seed-${process.pid}`,
      },
      body: JSON.stringify({
        rows: Array.from({ length: 1000 }, (_, i) => ({
          external_id: `BENCH-${i}`,
          sku: `BENCH-${i}`,
          name: `Bench Item ${i}`,
          category,
          unit: 'ea',
          price: '10.00',
          stock: '5',
        })),
      }),
    });
    const menuRowsMs = Math.round(performance.now() - t0);
    if (seeded.status !== 200) throw new Error(`menu rows answered ${seeded.status}: ${await seeded.text()}`);
    const skus = (
      await handle.db.selectFrom('products').select('sku').where('store_id', '=', 1).where('type_id', '=', 'simple').orderBy('id').execute()
    ).map((p) => p.sku);
    await handle.destroy();
    console.log(`\n  menu rows: 1,000 new variants in one call in ${menuRowsMs} ms (${Math.round(1000 / (menuRowsMs / 1000))} rows/s)`);
    const baseline = await load({ name: 'GET /api/health', url: `${base}/api/health`, headers: { host: HOST }, connections: 10 });

    let counter = 0;
    const results = [];
    for (const batch of [1, 100, 1000]) {
      // Never larger than the store's variants (a repeat in one batch would be reported stale, not written).
      const size = Math.min(batch, skus.length);
      const run = (duration: number) =>
        autocannon({
          url: `${base}/api/integration/v1/stock`,
          method: 'POST',
          connections: batch === 1000 ? 2 : 8,
          duration,
          requests: [
            {
              setupRequest: (req: autocannon.Request) => {
                const n = ++counter;
                const items = Array.from({ length: size }, (_, i) => ({
                  sku: skus[(n * 7 + i) % skus.length],
                  stock: (n + i) % 50,
                  sequence: n,
                }));
                return {
                  ...req,
                  headers: {
                    host: HOST,
                    'content-type': 'application/json',
                    authorization: `Bearer ${key}`,
                    'idempotency-key': `bench-${process.pid}-${n}`,
                  },
                  body: JSON.stringify({ items }),
                };
              },
            },
          ],
        });
      await run(2);
      const r = await run(seconds);
      results.push({
        batch: size,
        requestsPerSec: Math.round(r.requests.average * 10) / 10,
        rowsPerSec: Math.round(r.requests.average * size),
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
        vsHealth: Math.round(((r.requests.average * size) / baseline.requestsPerSec) * 1000) / 1000,
      });
    }
    console.log('\nintegration stock API (SQLite, one server)');
    console.log(`  baseline GET /api/health: ${baseline.requestsPerSec} req/s`);
    for (const r of results)
      console.log(
        `  batch ${String(r.batch).padStart(4)}: ${String(r.requestsPerSec).padStart(7)} req/s, ${String(r.rowsPerSec).padStart(7)} rows/s (${r.vsHealth}× health req/s), p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, non-2xx ${r.non2xx}, errors ${r.errors}`,
      );
    return { baseline, batches: results, variants: skus.length, menuRows1000Ms: menuRowsMs };
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await runIntegrationStockSuite();
}
