/**
 * The store-wide export at size (issue 31, apps/server/src/store-export/): an in-process run of the
 * streamed archive over one store of a fresh SQLite database holding BENCH_ORDERS orders (default
 * 300,000) with two lines each, against the same run over 1/10 of them (the baseline, measured in the
 * same process). The archive's bytes go to a sink that counts them (as a download would take them).
 * Reported: seconds, orders per second, archive size, and the peak heap and RSS growth during each
 * run — the point is that memory does not grow with the store (pages of 1,000 rows, backpressure).
 * Orders are written straight into the database, shaped like placed ones.
 *
 *   npx tsx bench/store-export.ts            BENCH_ORDERS=50000 npx tsx bench/store-export.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDatabase, migrateToLatest } from '../apps/server/src/db/index.ts';
import { storeExportStream } from '../apps/server/src/store-export/archive.ts';

const BIG = Number(process.env.BENCH_ORDERS ?? 300_000);
const SMALL = Math.max(1000, Math.floor(BIG / 10));
const FIRST = ['Ana', 'Bob', 'Cara', 'Dan', 'Eve', 'Fay', 'Gus', 'Hana', 'Ivan', 'June'];

type Db = Awaited<ReturnType<typeof createDatabase>>['db'];

async function seed(db: Db, storeId: number, n: number): Promise<void> {
  const now = new Date().toISOString();
  await db.insertInto('stores').values({ id: storeId, code: `bench${storeId}`, name: `Bench ${storeId}`, settings: '{}', created_at: now, updated_at: now }).execute();
  const start = Date.parse('2019-01-01T00:00:00Z');
  for (let chunk = 0; chunk < n; chunk += 500) {
    const size = Math.min(500, n - chunk);
    await db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: size }, (_, k) => {
        const i = chunk + k;
        const at = new Date(start + i * 60_000).toISOString();
        const first = FIRST[i % FIRST.length]!;
        return {
          increment_id: `B${storeId}-${100000 + i}`,
          store_id: storeId,
          customer_id: null,
          idempotency_key: `bench-${storeId}-${i}`,
          status: 'completed' as const,
          order_type: i % 4 === 0 ? ('delivery' as const) : ('pickup' as const),
          license_type: 'recreational' as const,
          subtotal_cents: 2000 + (i % 50) * 100,
          excise_tax_cents: 300,
          sales_tax_cents: 180,
          total_cents: 2480 + (i % 50) * 100,
          personal_details: JSON.stringify({ firstName: first, lastName: 'Stone', emailAddress: `${first.toLowerCase()}${i}@example.com`, phone: `+1916555${String(i % 10000).padStart(4, '0')}` }),
          shipping_address: i % 4 === 0 ? JSON.stringify({ address: `${i} Main St`, city: 'Sacramento', region: 'CA', zip: '95814' }) : null,
          billing_address: null,
          status_changed_at: at,
          created_at: at,
          updated_at: at,
        };
      });
      const ids = await trx.insertInto('orders').values(rows).returning('id').execute();
      await trx
        .insertInto('order_items')
        .values(
          ids.flatMap(({ id }, k) =>
            [0, 1].map((j) => ({
              order_id: id,
              product_id: 1000 + ((k + j) % 40),
              sku: `SKU-${(k + j) % 40}`,
              parent_sku: null,
              name: `Product ${(k + j) % 40}`,
              type_id: 'simple',
              qty: 1 + j,
              size: null,
              uom: 'ea',
              price_cents: 1000 + j * 500,
              row_total_cents: (1 + j) * (1000 + j * 500),
              product_option: null,
            })),
          ),
        )
        .execute();
    });
  }
}

async function run(db: Db, storeId: number) {
  let bytes = 0;
  let peakHeap = 0;
  let peakRss = 0;
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed - heap0);
    peakRss = Math.max(peakRss, m.rss - rss0);
  }, 50);
  const t0 = performance.now();
  const sink = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      // A download at network speed, not memory speed: hand the next chunk over on the next tick.
      if (process.env.BENCH_SYNC_SINK) done(); else setImmediate(done);
    },
  });
  await pipeline(storeExportStream({ db, store: { id: storeId, code: `bench${storeId}`, name: 'Bench' }, now: new Date() }, (e) => { throw e; }), sink);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  return { seconds, bytes, peakHeapMb: peakHeap / 2 ** 20, peakRssMb: peakRss / 2 ** 20 };
}

const dir = await mkdtemp(path.join(tmpdir(), 'store-export-bench-'));
try {
  const handle = await createDatabase({ dataDir: dir });
  await migrateToLatest(handle.db);
  const seedStart = performance.now();
  await seed(handle.db, 901, SMALL);
  await seed(handle.db, 902, BIG);
  console.log(`seeded ${SMALL} + ${BIG} orders (2 lines each) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  const small = await run(handle.db, 901);
  const big = await run(handle.db, 902);
  for (const [name, n, r] of [['baseline', SMALL, small], ['big', BIG, big]] as const)
    console.log(
      `${name.padEnd(8)} ${String(n).padStart(7)} orders: ${r.seconds.toFixed(2)} s, ${Math.round(n / r.seconds)} orders/s, ` +
        `zip ${(r.bytes / 2 ** 20).toFixed(1)} MiB, peak heap +${r.peakHeapMb.toFixed(0)} MiB, peak RSS +${r.peakRssMb.toFixed(0)} MiB`,
    );
  console.log(`ratios big/baseline: time ${(big.seconds / small.seconds).toFixed(1)}x for ${(BIG / SMALL).toFixed(0)}x the orders; peak heap ${(big.peakHeapMb / Math.max(1, small.peakHeapMb)).toFixed(1)}x`);
  await handle.destroy();
} finally {
  await rm(dir, { recursive: true, force: true });
}
