/**
 * Issue 32: stores sharded over node pools. BENCH_POOLS_POOLS pools (default 4) share a deployment of
 * BENCH_POOLS_POOLS × BENCH_POOLS_STORES stores (default 4 × 150 = 600) × BENCH_POOLS_PRODUCTS
 * products (default 2,000), SQLite, seeded once under the temp directory like the scale suite's
 * (`verdant-scale-600x2000`, reused between runs; BENCH_SCALE_RESEED=1 seeds again).
 *
 * Measured, each node alone on the machine (a pool's nodes are separate machines in production; one at
 * a time here so two nodes do not share the two cores), the compiled server (`apps/server/dist/main.mjs`,
 * what `npm run serve` runs):
 *  - one node of each pool (POOLS_FILE + NODE_POOL): time to ready, RSS at ready, the first request to
 *    each of its stores (home page, SSR, its catalogue built then), RSS and live heap after every store of
 *    its pool was opened (after a full GC, through bench/lib/memory-probe.mjs);
 *  - the baseline in the same run: one node holding all the stores (no pools file), the same figures
 *    after every one of the stores was opened.
 * The pools are the consistent hash of the store codes (apps/server/src/pools/), as a deployment gets
 * them without overrides: their sizes are reported, not forced to be equal.
 *
 *   BENCH_ONLY=pools npm run bench        or        npx tsx bench/suites/pools.ts
 *   BENCH_POOLS_POOLS=2 BENCH_POOLS_STORES=20 BENCH_POOLS_PRODUCTS=500 npx tsx bench/suites/pools.ts
 *
 * Knobs: BENCH_POOLS_HEAP_MB (--max-old-space-size of the one-node baseline, default 8192: 600 stores'
 * catalogues do not fit Node's default heap), BENCH_POOLS_SKIP_BASELINE=1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StoresFile } from '@verdant/domain';
import { parsePoolsFile, type PoolsFile } from '../../apps/server/src/pools/pools.ts';
import { freePort } from '../lib/processes.ts';
import { PROBE, ensureDeployment, envInt, get, hostOf, percentile, probe, r2, rssOf, spawnAndWait, type Started } from './scale.ts';

interface NodeFigures {
  label: string;
  stores: number;
  readyMs: number;
  rssAtReadyMiB: number;
  firstRequest: { p50Ms: number; p95Ms: number; maxMs: number; totalS: number };
  afterAll: { rssMiB: number; heapUsedMiB: number; peakRssMiB: number };
  rssPerStoreMiB: number;
}

export interface PoolsResult {
  pools: number;
  storesPerPool: number;
  productsPerStore: number;
  totalStores: number;
  poolSizes: Record<string, number>;
  loadAverage: { start: number; end: number };
  poolNodes: NodeFigures[];
  oneNode: NodeFigures | null;
  ratios: { maxPoolRssVsOneNode: number | null; meanPoolReadyVsOneNode: number | null } | null;
}

async function measureNode(label: string, env: Record<string, string>, codes: string[], heapMb?: number): Promise<NodeFigures> {
  const port = await freePort();
  const probeFile = path.join(os.tmpdir(), `verdant-pools-probe-${process.pid}-${label}.json`);
  fs.rmSync(probeFile, { force: true });
  const args = ['--expose-gc', ...(heapMb ? [`--max-old-space-size=${heapMb}`] : []), '--import', PROBE, '--enable-source-maps', 'apps/server/dist/main.mjs'];
  const server: Started = await spawnAndWait(
    args,
    {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // Stopped between measurements: no proxy to drain from.
      SHUTDOWN_DRAIN_MS: '0',
      // Every store the node is to hold fits its catalogue budget: the figures are memory held, not rebuilds.
      CATALOG_MAX_STORES: String(codes.length),
      MEMORY_PROBE_FILE: probeFile,
    },
    port,
    '/api/health',
    10 * 60_000,
  );
  try {
    const atReady = rssOf(server.child.pid!);
    const firsts: number[] = [];
    const t0 = performance.now();
    for (const code of codes) {
      const home = await get(port, '/', hostOf(code));
      if (home.status !== 200) throw new Error(`${label}: home of ${code} answered ${home.status}`);
      firsts.push(home.ms);
    }
    const totalS = (performance.now() - t0) / 1000;
    const mem = await probe(server.child, probeFile);
    const peak = rssOf(server.child.pid!).peakMiB;
    firsts.sort((a, b) => a - b);
    const figures: NodeFigures = {
      label,
      stores: codes.length,
      readyMs: server.readyMs,
      rssAtReadyMiB: atReady.rssMiB,
      firstRequest: { p50Ms: r2(percentile(firsts, 50)), p95Ms: r2(percentile(firsts, 95)), maxMs: r2(firsts.at(-1)!), totalS: r2(totalS) },
      afterAll: { rssMiB: mem.rssMiB, heapUsedMiB: mem.heapUsedMiB, peakRssMiB: peak },
      rssPerStoreMiB: r2((mem.rssMiB - atReady.rssMiB) / codes.length),
    };
    console.log(
      `pools: ${label}: ${codes.length} stores, ready ${figures.readyMs} ms (${atReady.rssMiB} MiB), first home p50 ${figures.firstRequest.p50Ms} ms p95 ${figures.firstRequest.p95Ms} ms max ${figures.firstRequest.maxMs} ms, after all ${mem.rssMiB} MiB RSS (${mem.heapUsedMiB} MiB heap)`,
    );
    return figures;
  } finally {
    await server.stop();
    fs.rmSync(probeFile, { force: true });
  }
}

export async function runPoolsSuite(): Promise<PoolsResult> {
  const poolCount = envInt('BENCH_POOLS_POOLS', 4);
  const perPool = envInt('BENCH_POOLS_STORES', 150);
  const products = envInt('BENCH_POOLS_PRODUCTS', 2000);
  const heapMb = envInt('BENCH_POOLS_HEAP_MB', 8192);
  const total = poolCount * perPool;
  const load0 = os.loadavg()[0]!;
  const seeded = ensureDeployment(total, products);

  // The pools file a deployment would write (one node per pool is enough to measure a node), checked
  // against the stores file as a node checks it at start.
  const poolsFile: PoolsFile = {
    pools: Array.from({ length: poolCount }, (_, i) => ({ name: `pool-${i + 1}`, nodes: [{ name: `pool-${i + 1}-a`, address: `10.0.${i}.1:3000` }] })),
    stores: {},
  };
  const assignment = parsePoolsFile(poolsFile, JSON.parse(fs.readFileSync(seeded.storesFile, 'utf8')) as Pick<StoresFile, 'stores'>);
  const poolsPath = path.join(seeded.dataDir, `pools-${poolCount}.json`);
  fs.writeFileSync(poolsPath, JSON.stringify(poolsFile, null, 2) + '\n');

  const poolSizes: Record<string, number> = {};
  const poolNodes: NodeFigures[] = [];
  for (const pool of poolsFile.pools) {
    const codes = assignment.storesOf.get(pool.name)!;
    poolSizes[pool.name] = codes.length;
    poolNodes.push(
      await measureNode(pool.name, { DATA_DIR: seeded.dataDir, STORES_FILE: seeded.storesFile, POOLS_FILE: poolsPath, NODE_POOL: pool.name }, codes),
    );
  }
  const oneNode =
    process.env.BENCH_POOLS_SKIP_BASELINE === '1'
      ? null
      : await measureNode('one node, all stores', { DATA_DIR: seeded.dataDir, STORES_FILE: seeded.storesFile }, seeded.codes, heapMb);

  const maxPoolRss = Math.max(...poolNodes.map((n) => n.afterAll.rssMiB));
  const meanReady = poolNodes.reduce((s, n) => s + n.readyMs, 0) / poolNodes.length;
  const result: PoolsResult = {
    pools: poolCount,
    storesPerPool: perPool,
    productsPerStore: products,
    totalStores: total,
    poolSizes,
    loadAverage: { start: r2(load0), end: r2(os.loadavg()[0]!) },
    poolNodes,
    oneNode,
    ratios: oneNode
      ? { maxPoolRssVsOneNode: r2(maxPoolRss / oneNode.afterAll.rssMiB), meanPoolReadyVsOneNode: r2(meanReady / oneNode.readyMs) }
      : null,
  };
  printTable(result);
  return result;
}

function printTable(r: PoolsResult): void {
  console.log(`\npools: ${r.pools} pools over ${r.totalStores} stores × ${r.productsPerStore} products (load average ${r.loadAverage.start} → ${r.loadAverage.end})`);
  console.table(
    [...r.poolNodes, ...(r.oneNode ? [r.oneNode] : [])].map((n) => ({
      node: n.label,
      stores: n.stores,
      'ready ms': n.readyMs,
      'RSS at ready MiB': n.rssAtReadyMiB,
      'first home p50 ms': n.firstRequest.p50Ms,
      'first home p95 ms': n.firstRequest.p95Ms,
      'first home max ms': n.firstRequest.maxMs,
      'RSS after all MiB': n.afterAll.rssMiB,
      'heap after all MiB': n.afterAll.heapUsedMiB,
      'MiB per store': n.rssPerStoreMiB,
    })),
  );
  if (r.ratios) console.log(`pools: largest pool node's RSS ${r.ratios.maxPoolRssVsOneNode}× the one node's; mean ready ${r.ratios.meanPoolReadyVsOneNode}×`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runPoolsSuite();
}
