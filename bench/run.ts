/**
 * `npm run bench`: every benchmark, each reported as a ratio against a baseline measured in the
 * same run (machines here are shared and noisy, so absolute numbers alone mean little).
 * Prints a table and writes bench/results/latest.json. Not a test: nothing here fails a build.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runHttpSuite } from './suites/http.ts';
import { runSearchSuite } from './suites/search.ts';
import { runSearchPrecisionSuite } from './suites/search-precision.ts';
import { runCommerceSuite } from './suites/commerce.ts';
import { runLighthouseSuite } from './suites/lighthouse.ts';
import { runConsoleStreamSuite } from './console-stream.ts';
import { runConsoleOrdersSuite } from './console-orders.ts';
import { runMenuImportSuite } from './menu-import.ts';
import { runMenuPropagationSuite } from './menu-propagation.ts';
import { runIntegrationStockSuite } from './integration-stock.ts';
import { runScaleSuite } from './suites/scale.ts';
import { runRenderSuite } from './suites/render.ts';
import { runOfflineSuite } from './suites/offline.ts';
import { runFourTwentySuite } from './suites/four-twenty.ts';
import { runCatalogChangeSuite } from './suites/catalog-change.ts';
import { runDealsSuite } from './suites/deals.ts';
import { runDealsServerSuite } from './suites/deals-server.ts';
import { runStartupSuite } from './suites/startup.ts';
import { runAnalyticsSuite } from './suites/analytics.ts';
import { runPoolsSuite } from './suites/pools.ts';

const BENCH_USAGE = [
  'Usage: npm run bench   (builds first; on a build made before: node --import tsx bench/run.ts)',
  '  BENCH_ONLY=<suites>  a comma-separated subset of the suites.',
  '    In a plain run: http, search, precision, commerce, lighthouse, console-stream, console-orders,',
  '                    import, propagation, integration, render, deals, deals-server, change, startup',
  '    Only when named: scale, offline, fourtwenty, analytics (PostgreSQL), pools',
  '  BENCH_SECONDS        length of each HTTP run (default 8)',
  'Prints tables and writes bench/results/latest.json. Every suite and its variables: docs/developers/benchmarks.md;',
  "today's figures: bench/SCALE.md.",
].join('\n');
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(BENCH_USAGE);
  process.exit(0);
}

const results = {
  startedAt: new Date().toISOString(),
  machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version, memoryGiB: Math.round(os.totalmem() / 2 ** 30) },
  suites: {} as Record<string, unknown>,
};

// BENCH_ONLY=http,search runs a subset (the suites: BENCH_USAGE above).
const only = new Set((process.env.BENCH_ONLY ?? '').split(',').filter(Boolean));
const wanted = (name: string) => only.size === 0 || only.has(name);

if (wanted('http')) results.suites.http = await runHttpSuite();
if (wanted('search')) results.suites.search = await runSearchSuite();
if (wanted('precision')) results.suites.searchPrecision = await runSearchPrecisionSuite();
if (wanted('commerce')) results.suites.commerce = await runCommerceSuite();
if (wanted('lighthouse')) results.suites.lighthouse = await runLighthouseSuite();
if (wanted('console-stream')) results.suites.consoleStream = await runConsoleStreamSuite();
if (wanted('console-orders')) results.suites.consoleOrders = await runConsoleOrdersSuite();
if (wanted('import')) results.suites.menuImport = await runMenuImportSuite();
if (wanted('propagation')) results.suites.menuPropagation = await runMenuPropagationSuite();
if (wanted('integration')) results.suites.integrationStock = await runIntegrationStockSuite();
// Uncached SSR renders of home, category and product pages, with an HTML check (issue 15).
if (wanted('render')) results.suites.render = await runRenderSuite();
// The deals engine alone on a 20-line cart with 200 active deals (issue 28; target p99 < 1 ms).
if (wanted('deals')) results.suites.deals = await runDealsSuite();
// Cart update and totals through the server, a 2,000-product store with 200 deals against the same with none (issue 28).
if (wanted('deals-server')) results.suites.dealsServer = await runDealsServerSuite();
// What one stock change costs a node's catalogue, against a whole-store rebuild (issue 15, the 4/20 run).
if (wanted('change')) results.suites.catalogChange = await runCatalogChangeSuite();
// The compiled server against the TypeScript loader: time to ready, first page, memory (issue 32).
if (wanted('startup')) results.suites.startup = await runStartupSuite();
// Many stores on one node (issue 15): BENCH_SCALE_STORES × BENCH_SCALE_PRODUCTS, default 150 × 2,000.
// Only when asked by name (BENCH_ONLY=scale): it seeds ~1 GB and, until issue 15's lazy catalogue
// lands, the default size runs for minutes into Node's heap limit (bench/SCALE.md).
if (only.has('scale')) results.suites.scale = await runScaleSuite();
// The offline catalogue at 2,000 and 40,000 products in Chromium with CPU ×4 (issue 15): only when named (seeds 40,000 products, minutes).
if (only.has('offline')) results.suites.offline = await runOfflineSuite();
// The 4/20 run (issue 15): two nodes on PostgreSQL + Redis, 150 stores, 50 orders/s for 5 minutes. Only when named (BENCH_ONLY=fourtwenty).
if (only.has('fourtwenty')) results.suites.fourTwenty = await runFourTwentySuite();
// Analytics at size (issue 31): 300,000 orders over a year on PostgreSQL, each dashboard view's p95 vs 300 ms, order saves with and without dashboard reads. Only when named.
if (only.has('analytics')) results.suites.analytics = await runAnalyticsSuite();
// Stores sharded over node pools (issue 32): one node of each of 4 pools (150 stores × 2,000 products each) against one node holding all 600. Only when named (seeds 600 stores once, minutes).
if (only.has('pools')) results.suites.pools = await runPoolsSuite();

const out = path.join(import.meta.dirname, 'results/latest.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
console.log(`\nwrote ${path.relative(process.cwd(), out)}`);
