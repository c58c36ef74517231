/**
 * The offline catalogue at 2,000 and 40,000 products (issue 15), in real Chromium (/usr/bin/chromium)
 * with a mid-range phone's CPU (CDP `Emulation.setCPUThrottlingRate` 4).
 *
 * For each store size it seeds (once, kept under the OS temp dir) `npm run seed -- --stores 1
 * --products N --data-dir DIR`, starts the server on it (production build, SQLite, one node) and:
 *  - measures the snapshot from Node: bytes on the wire (gzip, brotli) and decoded, compact
 *    (`?format=2`) and version 1 (`/api/catalog/snapshot`, what main's storefront downloads);
 *  - opens the store's home in a fresh browser context as a returning shopper (age-gate cookies),
 *    the service worker allowed (offline, the page's lazy chunks come from its precache; main's
 *    also kept a copy of the snapshot in Cache Storage, which this change stops), and records, from
 *    navigation until an offline search answered:
 *      longest main-thread task and how many passed 200 ms (PerformanceObserver 'longtask'), over
 *      the whole time, from the snapshot request until stored, and during the offline search;
 *      time until the copy is in IndexedDB (the page starts the download 5 s after load, then when
 *      idle: OfflineStatus.tsx), and until an offline search (context.setOffline(true), instant
 *      search in the header) shows the expected product first;
 *      JS heap peak of the page (CDP Performance.getMetrics) and of the catalogue worker (CDP
 *      Runtime.getHeapUsage on the worker target), sampled every 500 ms;
 *      IndexedDB usage, the origin's whole usage and the quota (navigator.storage.estimate) at the end.
 * The BASELINE, in the same run: main's storefront (format 1 downloaded and indexed on the page's
 * main thread) at 2,000 products, served from BENCH_OFFLINE_BASELINE_ROOT: a checkout of
 * main before the compact snapshot (b6d2f0c) with `npm ci && npm run build` done, e.g.
 * `git worktree add /tmp/offline-base b6d2f0c`. Unset, the baseline rows are left out (and the run says so). At 40,000 products the baseline is only run with BENCH_OFFLINE_BASELINE_40K=1: the
 * tab was killed there (issue 15).
 *
 * `BENCH_ONLY=offline npm run bench` (only when named: it seeds ~40,000 products and takes minutes)
 * or `npx tsx bench/suites/offline.ts`. BENCH_OFFLINE_PRODUCTS=2000,40000 picks the sizes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chromium, type CDPSession, type Page } from 'playwright';
import { REPO_ROOT, freePort } from '../lib/processes.ts';
import { decodeSnapshot, type CompactSnapshot } from '../../apps/server/src/catalog/snapshot-format.ts';

const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
const SIZES = (process.env.BENCH_OFFLINE_PRODUCTS ?? '2000,40000').split(',').map(Number);
const BASELINE_ROOT = process.env.BENCH_OFFLINE_BASELINE_ROOT ?? '';
const CPU_RATE = 4;
const HOST = 'store-001.localhost';
const STORE = 'store-001';
const READY_TIMEOUT_MS = 10 * 60_000;
const SEARCH_TIMEOUT_MS = 5 * 60_000;
/** A directory: a Chromium trace (timeline + JS samples) of each run's offline search is written there. */
const TRACE_DIR = process.env.BENCH_OFFLINE_TRACE ?? '';
/** BENCH_OFFLINE_CONTROL=0 leaves out the control runs (quicker, when only the figures of this branch are wanted). */
const CONTROL = process.env.BENCH_OFFLINE_CONTROL !== '0';
/** Another built checkout (`npm ci && npm run build` done) whose storefront runs beside this one, alternated. */
const COMPARE_ROOT = process.env.BENCH_OFFLINE_COMPARE_ROOT ?? '';
/** Browser runs of each subject per store size (alternated with the compared checkout). */
const ROUNDS = Number(process.env.BENCH_OFFLINE_ROUNDS ?? 1);

interface Wire {
  identity: number;
  gzip: number;
  br: number | null;
}

interface BrowserRun {
  label: string;
  products: number;
  crashed: boolean;
  error?: string;
  /** Main-thread long tasks from navigation until the offline answer (page load and hydration included). */
  longestTaskMs: number;
  tasksOver200ms: number;
  /** The same, only from the snapshot request until the copy is stored (download, decode, store; the index too in this branch). */
  longestTaskWhileLoadingMs: number;
  tasksOver200msWhileLoading: number;
  /** The same, during the offline search (typing, the answer, rendering the results; main's page indexes here). */
  longestTaskSearchMs: number;
  tasksOver200msSearch: number;
  storedMs: number | null;
  searchMs: number | null;
  readyMs: number | null;
  searchFound: boolean;
  pageHeapPeakMiB: number;
  workerHeapPeakMiB: number | null;
  workerHeapAfterGcMiB: number | null;
  idbUsageMiB: number | null;
  /** Everything the origin stores (IndexedDB, Cache Storage, service worker scripts). */
  originUsageMiB: number | null;
  quotaMiB: number | null;
}

function seedDir(products: number): string {
  const dir = process.env[`BENCH_OFFLINE_DATA_${products}`] ?? path.join(os.tmpdir(), `verdant-bench-offline-${products}`);
  if (!fs.existsSync(path.join(dir, 'stores.json'))) {
    console.log(`  seeding 1 store × ${products} products into ${dir}…`);
    const r = spawnSync('npm', ['run', 'seed', '--', '--stores', '1', '--products', String(products), '--data-dir', dir], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: '' },
    });
    if (r.status !== 0) throw new Error(`seed failed (${r.status})`);
  }
  return dir;
}

/** A data directory serves one process: the compared checkout gets a copy of the database (the images are shared). */
function compareDir(dir: string): string {
  const copy = `${dir}-compare`;
  if (!fs.existsSync(path.join(copy, 'stores.json'))) {
    fs.mkdirSync(copy, { recursive: true });
    for (const f of ['verdant.sqlite', 'auth-secret'])
      if (fs.existsSync(path.join(dir, f))) fs.copyFileSync(path.join(dir, f), path.join(copy, f));
    fs.symlinkSync(path.join(dir, 'media'), path.join(copy, 'media'));
    fs.copyFileSync(path.join(dir, 'stores.json'), path.join(copy, 'stores.json'));
  }
  return copy;
}

async function startServer(root: string, dataDir: string): Promise<{ port: number; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STORES_FILE: path.join(dataDir, 'stores.json'),
      DATABASE_URL: '',
      REDIS_URL: '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_MS: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server in ${root} exited with ${child.exitCode}`);
    try {
      if ((await get(port, '/api/health')).status === 200) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('server not ready');
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
    });
  return { port, child, stop };
}

/** A raw GET (no decompression): the bytes as they cross the wire. */
function get(
  port: number,
  p: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: p, headers: { host: HOST, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function wire(port: number, p: string): Promise<{ wire: Wire; text: string }> {
  const gz = await get(port, p, { 'accept-encoding': 'gzip' });
  if (gz.status !== 200) throw new Error(`${p}: ${gz.status}`);
  const text = (gz.headers['content-encoding'] === 'gzip' ? gunzipSync(gz.body) : gz.body).toString('utf8');
  const br = await get(port, p, { 'accept-encoding': 'br' });
  const brBytes = br.headers['content-encoding'] === 'br' ? br.body.length : null;
  if (brBytes !== null && brotliDecompressSync(br.body).toString('utf8') !== text) throw new Error('brotli copy differs');
  return { wire: { identity: Buffer.byteLength(text), gzip: gz.body.length, br: brBytes }, text };
}

/** A product the online search finds first by its own name: what the offline search must find too. */
async function searchTarget(port: number, compactText: string): Promise<{ query: string; name: string }> {
  const products = decodeSnapshot(JSON.parse(compactText) as CompactSnapshot).content.products;
  for (let i = Math.floor(products.length * 0.73); i < products.length; i++) {
    const query = products[i].name;
    const res = await get(port, `/api/catalog/products?text=${encodeURIComponent(query)}&size=1`);
    const first = (JSON.parse(res.body.toString('utf8')) as { result?: { items?: { name: string }[] } }).result?.items?.[0];
    if (first?.name === query) return { query, name: query };
  }
  throw new Error('no product found by its own name');
}

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Heap of the page's dedicated workers, through the page's CDP session (non-flattened target sessions). */
function watchWorkerHeap(cdp: CDPSession) {
  const sessions = new Set<string>();
  let nextId = 1;
  let peak: number | null = null;
  let last: number | null = null;
  const series: [number, number][] = [];
  const t0 = Date.now();
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string } }) => {
    if (e.targetInfo.type === 'worker') sessions.add(e.sessionId);
  });
  cdp.on('Target.detachedFromTarget', (e: { sessionId: string }) => sessions.delete(e.sessionId));
  cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const m = JSON.parse(e.message) as { result?: { usedSize?: number } };
    if (typeof m.result?.usedSize === 'number') {
      peak = Math.max(peak ?? 0, m.result.usedSize);
      series.push([Math.round((Date.now() - t0) / 100) / 10, mib(m.result.usedSize)]);
      last = (last ?? 0) + m.result.usedSize;
    }
  });
  return {
    start: () =>
      cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false }).catch(() => undefined),
    sample: async () => {
      for (const sessionId of sessions) {
        await cdp
          .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: nextId++, method: 'Runtime.getHeapUsage' }) })
          .catch(() => undefined);
      }
    },
    peak: () => peak,
    /** [seconds since the watch began, MiB] of every sample. */
    series: () => series,
    /** Live heap of the workers after a full GC (what the index keeps), in bytes. */
    async afterGc(): Promise<number | null> {
      const ids: number[] = [];
      for (const sessionId of sessions) {
        const id = nextId++;
        ids.push(id);
        await cdp
          .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method: 'HeapProfiler.collectGarbage' }) })
          .catch(() => undefined);
      }
      await new Promise((r) => setTimeout(r, 1000));
      last = null;
      await this.sample();
      await new Promise((r) => setTimeout(r, 500));
      return last;
    },
  };
}

async function pageHeap(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
}

const storedInIdb = (page: Page) =>
  page.evaluate(
    (key) =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open(`verdant-cache-${key.split(':')[1]}`);
        open.onupgradeneeded = () => open.result.createObjectStore('keyval');
        open.onsuccess = () => {
          try {
            // count(): the record is not read into the page (format 1 keeps the whole snapshot in it).
            const req = open.result.transaction('keyval').objectStore('keyval').count(key);
            req.onsuccess = () => (open.result.close(), resolve(req.result > 0));
            req.onerror = () => (open.result.close(), resolve(false));
          } catch {
            open.result.close();
            resolve(false);
          }
        };
        open.onerror = () => resolve(false);
      }),
    `verdant:${STORE}:catalog-snapshot`,
  );

/**
 * One shopper's page. With `controlMs`, the CONTROL for the long-task figures: the same page, same
 * throttling, same machine load, with the snapshot request refused, watched for that long (its
 * "while loading" window starts 5 s after navigation, when the page would ask for the snapshot),
 * then the same search done online (its "search" figures: the page's own work for the search).
 */
async function browserRun(
  label: string,
  port: number,
  products: number,
  target: { query: string; name: string },
  controlMs?: number,
): Promise<BrowserRun> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--enable-precise-memory-info'] });
  const run: BrowserRun = {
    label,
    products,
    crashed: false,
    longestTaskMs: 0,
    tasksOver200ms: 0,
    longestTaskWhileLoadingMs: 0,
    tasksOver200msWhileLoading: 0,
    longestTaskSearchMs: 0,
    tasksOver200msSearch: 0,
    storedMs: null,
    searchMs: null,
    readyMs: null,
    searchFound: false,
    pageHeapPeakMiB: 0,
    workerHeapPeakMiB: null,
    workerHeapAfterGcMiB: null,
    idbUsageMiB: null,
    originUsageMiB: null,
    quotaMiB: null,
  };
  let sampler: NodeJS.Timeout | undefined;
  try {
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const url = `http://${HOST}:${port}/`;
    await context.addCookies([
      { name: 'verdant_age', value: '1', url },
      { name: 'verdant_license', value: 'recreational', url },
    ]);
    const page = await context.newPage();
    page.on('crash', () => (run.crashed = true));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_RATE });
    await cdp.send('Performance.enable');
    const workers = watchWorkerHeap(cdp);
    await workers.start();
    await page.addInitScript(() => {
      const w = window as unknown as { __longtasks: [number, number][] };
      w.__longtasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longtasks.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
    });
    let heapPeak = 0;
    sampler = setInterval(() => {
      void pageHeap(cdp).then(
        (h) => (heapPeak = Math.max(heapPeak, h)),
        () => undefined,
      );
      void workers.sample();
    }, 500);
    // When the snapshot was asked for (by the worker, or by main's page), in wall-clock ms.
    let requestedAt: number | null = null;
    page.on('request', (r) => {
      if (requestedAt === null && r.url().includes('/api/catalog/snapshot')) requestedAt = Date.now();
    });
    if (controlMs !== undefined) await context.route('**/api/catalog/snapshot**', (r) => r.abort());
    const t0 = performance.now();
    const navigatedAt = Date.now();
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    const deadline = Date.now() + READY_TIMEOUT_MS;
    if (controlMs !== undefined) {
      await new Promise((r) => setTimeout(r, controlMs));
      requestedAt = navigatedAt + 5000;
    } else
      while (!(await storedInIdb(page))) {
        if (run.crashed || Date.now() > deadline) throw new Error(run.crashed ? 'page crashed' : 'not stored in time');
        await new Promise((r) => setTimeout(r, 250));
      }
    if (controlMs === undefined) run.storedMs = Math.round(performance.now() - t0);
    const storedAt = Date.now();
    // The control does the same search ONLINE (no snapshot, nothing indexing in a worker): what the
    // page's own work for it (opening the panel, typing, rendering the answer) costs on this machine now.
    {
      const tracing = TRACE_DIR !== '';
      if (tracing) {
        fs.mkdirSync(TRACE_DIR, { recursive: true });
        await browser.startTracing(page, {
          path: path.join(TRACE_DIR, `offline-search-${products}-${controlMs === undefined ? 'subject' : 'control'}-${Date.now()}.json`),
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'toplevel',
            'v8',
            'disabled-by-default-v8.gc',
            'blink.user_timing',
          ],
        });
      }
      try {
        await offlineSearch();
      } finally {
        if (tracing) await browser.stopTracing();
      }
    }
    async function offlineSearch() {
      // Offline, the page's lazy chunks (the search panel; main's catalogue engine) come from the
      // service worker's precache: wait until it controls the page.
      await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: READY_TIMEOUT_MS });
      await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
      const panel = page.getByRole('dialog', { name: 'Search the menu' });
      await panel.getByRole('searchbox', { name: 'Search the menu' }).waitFor();
      if (controlMs === undefined) await context.setOffline(true);
      const t1 = performance.now();
      await panel.getByRole('searchbox', { name: 'Search the menu' }).fill(target.query);
      const first = panel.getByRole('list', { name: 'Search results' }).getByRole('listitem').first();
      await first.waitFor({ timeout: SEARCH_TIMEOUT_MS });
      run.searchFound = ((await first.textContent()) ?? '').includes(target.name);
      run.searchMs = Math.round(performance.now() - t1);
      run.readyMs = Math.round(performance.now() - t0);
    }
    const { tasks, timeOrigin } = await page.evaluate(() => ({
      tasks: (window as unknown as { __longtasks: [number, number][] }).__longtasks,
      timeOrigin: performance.timeOrigin,
    }));
    const durations = tasks.map(([, d]) => d);
    run.longestTaskMs = Math.round(Math.max(0, ...durations));
    run.tasksOver200ms = durations.filter((d) => d > 200).length;
    const from = requestedAt === null ? 0 : requestedAt - timeOrigin;
    const stored = storedAt - timeOrigin;
    const loading = tasks.filter(([start, d]) => start + d >= from && start < stored).map(([, d]) => d);
    const search = tasks.filter(([start]) => start >= stored).map(([, d]) => d);
    run.longestTaskWhileLoadingMs = Math.round(Math.max(0, ...loading));
    run.tasksOver200msWhileLoading = loading.filter((d) => d > 200).length;
    run.longestTaskSearchMs = Math.round(Math.max(0, ...search));
    run.tasksOver200msSearch = search.filter((d) => d > 200).length;
    const estimate = await page.evaluate(async () => {
      const e = (await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: { indexedDB?: number } };
      return { idb: e.usageDetails?.indexedDB ?? null, usage: e.usage ?? 0, quota: e.quota ?? 0 };
    });
    run.idbUsageMiB = estimate.idb === null ? null : mib(estimate.idb);
    run.originUsageMiB = mib(estimate.usage);
    run.quotaMiB = mib(estimate.quota);
    await workers.sample();
    await new Promise((r) => setTimeout(r, 300));
    run.pageHeapPeakMiB = mib(Math.max(heapPeak, await pageHeap(cdp)));
    const workerPeak = workers.peak();
    run.workerHeapPeakMiB = workerPeak === null ? null : mib(workerPeak);
    clearInterval(sampler);
    const kept = await workers.afterGc();
    run.workerHeapAfterGcMiB = kept === null ? null : mib(kept);
    if (process.env.BENCH_OFFLINE_SERIES === '1')
      console.log(`  worker heap [s, MiB] (${label}): ${JSON.stringify(workers.series().filter((_, i) => i % 2 === 0))}`);
  } catch (error) {
    run.error = (error as Error).message.split('\n')[0];
  } finally {
    clearInterval(sampler);
    await browser.close().catch(() => undefined);
  }
  return run;
}

export async function runOfflineSuite() {
  console.log('\n== offline catalogue (Chromium, CPU ×4) ==');
  const loadavg = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const wires: Record<string, { compact: Wire; v1: Wire }> = {};
  const runs: BrowserRun[] = [];
  const baselineBuilt = BASELINE_ROOT !== '' && fs.existsSync(path.join(BASELINE_ROOT, 'apps/web/build/client'));
  if (!baselineBuilt) console.log('offline: no baseline rows (set BENCH_OFFLINE_BASELINE_ROOT to a built checkout of b6d2f0c)');
  for (const products of SIZES) {
    const dir = seedDir(products);
    const server = await startServer(REPO_ROOT, dir);
    let target: { query: string; name: string };
    try {
      const compact = await wire(server.port, '/api/catalog/snapshot?format=2');
      const v1 = await wire(server.port, '/api/catalog/snapshot');
      wires[products] = { compact: compact.wire, v1: v1.wire };
      target = await searchTarget(server.port, compact.text);
      console.log(
        `  ${products} products: compact ${JSON.stringify(compact.wire)}, v1 ${JSON.stringify(v1.wire)}; search "${target.query}"`,
      );
      // With a second checkout to compare (same format 2 and worker, e.g. main before a change to
      // them): both servers up, their runs alternated round by round on the same machine load.
      const other = COMPARE_ROOT ? await startServer(COMPARE_ROOT, compareDir(dir)) : null;
      try {
        for (let round = 0; round < ROUNDS; round++) {
          runs.push(await browserRun('compact, worker (this branch)', server.port, products, target));
          console.log('  ', JSON.stringify(runs.at(-1)));
          if (other) {
            runs.push(await browserRun(`compare: ${path.basename(COMPARE_ROOT)}`, other.port, products, target));
            console.log('  ', JSON.stringify(runs.at(-1)));
          }
        }
      } finally {
        await other?.stop();
      }
      // The control: what the machine's load alone does to main-thread tasks over as long.
      if (CONTROL) runs.push(await browserRun('control: no snapshot', server.port, products, target, runs.at(-1)!.readyMs ?? 30_000));
      if (CONTROL) console.log('  ', JSON.stringify(runs.at(-1)));
    } finally {
      await server.stop();
    }
    const baseline = baselineBuilt && (products <= 2000 || process.env.BENCH_OFFLINE_BASELINE_40K === '1');
    if (baseline) {
      const main = await startServer(BASELINE_ROOT, dir);
      try {
        runs.push(await browserRun('format 1, main thread (baseline)', main.port, products, target));
        console.log('  ', JSON.stringify(runs.at(-1)));
      } finally {
        await main.stop();
      }
    }
  }
  console.log(
    `\n  load average at start: ${loadavg}; at end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    '  wire (bytes)   ' +
      Object.entries(wires)
        .map(([n, w]) => `${n}: gzip ${w.compact.gzip} vs v1 ${w.v1.gzip}`)
        .join('; '),
  );
  console.table(
    runs.map((r) => ({
      run: r.label,
      products: r.products,
      'longest task ms': r.longestTaskMs,
      'tasks >200ms': r.tasksOver200ms,
      'longest while loading': r.longestTaskWhileLoadingMs,
      '>200ms while loading': r.tasksOver200msWhileLoading,
      'longest in search': r.longestTaskSearchMs,
      '>200ms in search': r.tasksOver200msSearch,
      'stored ms': r.storedMs,
      'offline search ms': r.searchMs,
      found: r.searchFound,
      'page heap MiB': r.pageHeapPeakMiB,
      'worker heap MiB': r.workerHeapPeakMiB,
      'worker after GC': r.workerHeapAfterGcMiB,
      'IDB MiB': r.idbUsageMiB,
      'origin MiB': r.originUsageMiB,
      'quota MiB': r.quotaMiB,
      error: r.error ?? (r.crashed ? 'crashed' : ''),
    })),
  );
  // Per subject and size, over its rounds: runs with a task over 200 ms in the offline search, the
  // longest such task (median and max), and the worker heap peak (median and max).
  const groups = new Map<string, BrowserRun[]>();
  for (const r of runs) groups.set(`${r.label} @ ${r.products}`, [...(groups.get(`${r.label} @ ${r.products}`) ?? []), r]);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
  for (const [name, rs] of groups) {
    const search = rs.map((r) => r.longestTaskSearchMs);
    const loading = rs.map((r) => r.longestTaskWhileLoadingMs);
    const heap = rs.map((r) => r.workerHeapPeakMiB ?? 0);
    console.log(
      `  ${name}: ${rs.length} run(s); runs with a task > 200 ms while loading ${rs.filter((r) => r.tasksOver200msWhileLoading > 0).length}, ` +
        `in the search ${rs.filter((r) => r.tasksOver200msSearch > 0).length}; longest task while loading median ${median(loading)} / max ${Math.max(...loading)} ms, ` +
        `in the search median ${median(search)} / max ${Math.max(...search)} ms; worker heap peak median ${median(heap)} / max ${Math.max(...heap)} MiB; ` +
        `found ${rs.filter((r) => r.searchFound).length}/${rs.length}${rs.some((r) => r.error) ? `; errors: ${rs.map((r) => r.error ?? '').join(' | ')}` : ''}`,
    );
  }
  return {
    cpuThrottlingRate: CPU_RATE,
    loadavgAtStart: loadavg,
    loadavgAtEnd: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    wire: wires,
    runs,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runOfflineSuite();
  const out = path.join(REPO_ROOT, 'bench/results/offline.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
}
