/**
 * What one stock change costs a node's catalogue (issue 15, the 4/20 run): every order changes the
 * stock of what it sold, and each node that holds the store reindexes those products
 * (CatalogIndexManager.catalogChanged → read the product's rows → StoreCatalog.applyProducts). In the
 * 4/20 run that is 50 changes a second on each node, so its cost is paid per order, twice.
 *
 * In-process, on SQLite, one seeded store of BENCH_CHANGE_PRODUCTS (default 2,000) products: the
 * store is loaded through ensure(), then BENCH_CHANGE_ROUNDS (default 300) single-product stock
 * changes are written to the database and announced, one after another, each timed in CPU time of
 * this process (user + system: the machine's other work does not count) and in wall time.
 * Each product is changed twice: announced as any product change (the product's rows read from
 * every table, ~20 queries) and then, back up, as a stock-only change (`{ stockOnly: true }`, what
 * orders, releases and no-shows announce: the stock rows alone, apps/server/src/catalog/stock-patch.ts).
 * On SQLite the reads run in this process, so their CPU counts here; on PostgreSQL it is the server's.
 * Baseline in the same run: a whole-store rebuild of the same store (catalogChanged without product
 * ids), what a change would cost without the incremental path. Reported: CPU ms per change of each
 * kind, per rebuild, and the ratios.
 *
 *   BENCH_ONLY=change npm run bench     or     npx tsx bench/suites/catalog-change.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { CatalogIndexManager } from '../../apps/server/src/catalog/index-manager.ts';
import { createDatabase } from '../../apps/server/src/db/index.ts';
import { readStoresFile } from '../../apps/server/src/seed/index.ts';
import { seedDeployment } from '../lib/processes.ts';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
};

export interface CatalogChangeResult {
  products: number;
  rounds: number;
  changeCpuMs: { p50: number; p99: number; mean: number };
  changeWallMs: { p50: number; p99: number };
  stockOnlyCpuMs: { p50: number; p99: number; mean: number };
  stockOnlyWallMs: { p50: number; p99: number };
  rebuildCpuMs: number;
  ratio: number;
  /** Stock-only change / product change, mean CPU. */
  stockOnlyRatio: number;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const r3 = (n: number) => Math.round(n * 1000) / 1000;

export async function runCatalogChangeSuite(): Promise<CatalogChangeResult> {
  const products = envInt('BENCH_CHANGE_PRODUCTS', 2000);
  const rounds = envInt('BENCH_CHANGE_ROUNDS', 300);
  const dataDir = path.join(os.tmpdir(), `verdant-catalog-change-1x${products}`);
  const marker = path.join(dataDir, 'bench-seeded.json');
  if (!fs.existsSync(marker)) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    seedDeployment({ stores: 1, products, dataDir, referenceDate: '2026-06-15T12:00:00Z' });
    fs.writeFileSync(marker, JSON.stringify({ products, at: new Date().toISOString() }) + '\n');
  }
  const stores = readStoresFile(path.join(dataDir, 'stores.json')).stores;
  const storeId = stores[0].storeId;
  const { db, destroy } = await createDatabase({ dataDir });
  const manager = new CatalogIndexManager({ db, stores, clock: () => new Date('2026-06-15T12:00:00Z') });
  try {
    await manager.start();
    await manager.ensure(storeId);
    // Products that carry stock: listed simple products and the sizes of configurable ones alike.
    const ids = (
      await db
        .selectFrom('stock')
        .innerJoin('products', 'products.id', 'stock.product_id')
        .select('stock.product_id as id')
        .where('products.store_id', '=', storeId)
        .orderBy('stock.product_id')
        .execute()
    ).map((r) => r.id);
    // Down one as a product change, back up as a stock-only change: stock stays what the seed wrote.
    const change = async (i: number, stockOnly: boolean) => {
      const id = ids[(i * 7919) % ids.length];
      await sql`update stock set qty = qty + ${stockOnly ? 1 : -1} where product_id = ${id}`.execute(db);
      await manager.catalogChanged(storeId, [id], { stockOnly });
    };
    for (let i = 0; i < 20; i++) {
      // warm the code paths
      await change(i, false);
      await change(i, true);
    }
    const cpu: number[] = [];
    const wall: number[] = [];
    const stockCpu: number[] = [];
    const stockWall: number[] = [];
    const timed = async (i: number, stockOnly: boolean) => {
      const c0 = cpuMs();
      const t0 = performance.now();
      await change(i, stockOnly);
      (stockOnly ? stockWall : wall).push(performance.now() - t0);
      (stockOnly ? stockCpu : cpu).push(cpuMs() - c0);
    };
    const patchesBefore = manager.stats.stockPatches;
    // Blocks of ten of each kind, alternating (the machine's noise falls on both): a product change
    // drops what the catalogue keeps for stock patches (which documents embed which), so the first
    // stock-only change after one rebuilds it, as after a menu change in a store taking orders.
    for (let b = 0; b < rounds; b += 10) {
      for (let i = b; i < Math.min(rounds, b + 10); i++) await timed(i, false);
      for (let i = b; i < Math.min(rounds, b + 10); i++) await timed(i, true);
    }
    if (manager.stats.stockPatches - patchesBefore !== rounds) throw new Error('a stock-only change was not patched from the stock rows');
    const rebuilds: number[] = [];
    for (let i = 0; i < 5; i++) {
      const c0 = cpuMs();
      await manager.catalogChanged(storeId);
      rebuilds.push(cpuMs() - c0);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const meanCpu = mean(cpu);
    const meanStockCpu = mean(stockCpu);
    for (const xs of [cpu, wall, stockCpu, stockWall]) xs.sort((a, b) => a - b);
    rebuilds.sort((a, b) => a - b);
    const rebuildCpuMs = rebuilds[2];
    const result: CatalogChangeResult = {
      products,
      rounds,
      changeCpuMs: { p50: r3(pct(cpu, 50)), p99: r3(pct(cpu, 99)), mean: r3(meanCpu) },
      changeWallMs: { p50: r3(pct(wall, 50)), p99: r3(pct(wall, 99)) },
      stockOnlyCpuMs: { p50: r3(pct(stockCpu, 50)), p99: r3(pct(stockCpu, 99)), mean: r3(meanStockCpu) },
      stockOnlyWallMs: { p50: r3(pct(stockWall, 50)), p99: r3(pct(stockWall, 99)) },
      rebuildCpuMs: r3(rebuildCpuMs),
      ratio: r3(meanCpu / rebuildCpuMs),
      stockOnlyRatio: r3(meanStockCpu / meanCpu),
    };
    console.log(
      `\ncatalog-change: one stock change on a store of ${products} products (${rounds} changes of each kind; load average ${os.loadavg()[0].toFixed(2)})`,
    );
    console.table({
      'one stock change (catalogChanged with its id)': {
        'CPU ms p50': result.changeCpuMs.p50,
        'CPU ms p99': result.changeCpuMs.p99,
        'CPU ms mean': result.changeCpuMs.mean,
        'wall ms p50 / p99': `${result.changeWallMs.p50} / ${result.changeWallMs.p99}`,
      },
      'one stock change announced stock-only': {
        'CPU ms p50': result.stockOnlyCpuMs.p50,
        'CPU ms p99': result.stockOnlyCpuMs.p99,
        'CPU ms mean': result.stockOnlyCpuMs.mean,
        'wall ms p50 / p99': `${result.stockOnlyWallMs.p50} / ${result.stockOnlyWallMs.p99}`,
      },
      'baseline: the store rebuilt (median of 5)': {
        'CPU ms p50': result.rebuildCpuMs,
        'CPU ms p99': '',
        'CPU ms mean': '',
        'wall ms p50 / p99': '',
      },
      'change / rebuild': { 'CPU ms p50': '', 'CPU ms p99': '', 'CPU ms mean': result.ratio, 'wall ms p50 / p99': '' },
      'stock-only / change': { 'CPU ms p50': '', 'CPU ms p99': '', 'CPU ms mean': result.stockOnlyRatio, 'wall ms p50 / p99': '' },
    });
    return result;
  } finally {
    await manager.close();
    await destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runCatalogChangeSuite();
