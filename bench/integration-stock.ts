/**
 * Stock-update throughput of the integration API (issue 13): POST /api/integration/v1/stock with
 * batches of 1, 100 and 1,000 items against one server (fresh demo database, SQLite), each request
 * with a new Idempotency-Key and new, growing sequences and changing values, so every item is
 * really written (stock row, sequence, menu history, catalogue reindex of the touched products).
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
    const skus = (
      await handle.db.selectFrom('products').select('sku').where('store_id', '=', 1).where('type_id', '=', 'simple').orderBy('id').execute()
    ).map((p) => p.sku);
    await handle.destroy();
    const base = `http://127.0.0.1:${server.port}`;
    const baseline = await load({ name: 'GET /api/health', url: `${base}/api/health`, headers: { host: HOST }, connections: 10 });

    let counter = 0;
    const results = [];
    for (const batch of [1, 100, 1000]) {
      // A batch larger than the store's variants repeats skus; a repeat in one batch is reported stale, so cap at the variants.
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
    return { baseline, batches: results, variants: skus.length };
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await runIntegrationStockSuite();
}
