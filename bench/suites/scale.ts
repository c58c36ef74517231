/**
 * Many stores on one node (issue 15): a deployment of BENCH_SCALE_STORES stores ×
 * BENCH_SCALE_PRODUCTS products (default 150 × 2,000; `npm run seed -- --stores N --products M`),
 * SQLite, one real server process (`node --import tsx apps/server/src/main.ts`, what `npm run
 * serve` runs) against a bare Node HTTP server started the same way in the same run:
 *  - time to ready (spawn → /api/health answers 200) and RSS at ready;
 *  - the first request to a store nobody has opened: its home page (SSR) and, on another such
 *    store, a search;
 *  - search latency per store (GET /api/catalog/products?text=…, one connection, typo'd strain
 *    names and shopper filters), p50/p99 over a sample of stores, against the bare server's round
 *    trip;
 *  - RSS (and live heap after a full GC) after touching 10 / 50 / all stores (home page + search).
 * The goals: ready < 10 s, RSS < 1.5 GiB, first request < 1 s, search p99 < 5 ms.
 *
 * The seeded data directory is kept between runs (os.tmpdir()/verdant-scale-<S>x<P>; seeding
 * 150 × 2,000 takes about 30 s); BENCH_SCALE_RESEED=1 seeds it again. Other knobs:
 *  BENCH_SCALE_SAMPLE     stores in the search sample (default 10)
 *  BENCH_SCALE_QUERIES    measured searches per round (3 rounds) and sampled store (default 200)
 *  BENCH_SCALE_HEAP_MB    --max-old-space-size of the server (default: Node's own limit; today's
 *                         catalogue at 150 × 2,000 needs more than the default ~4 GiB heap)
 *  BENCH_SCALE_NODE_ARGS  extra node flags for the server, space-separated (e.g. --max-semi-space-size=64)
 *  BENCH_SCALE_PROFILE=1  first a start with --cpu-prof, stopped at ready: the start-up profile is
 *                         summarised (self time by function and by file) and kept under
 *                         bench/results/scale-profile/
 *  BENCH_SCALE_SNAPSHOT=1 a V8 heap snapshot at ready (bench/results/scale-profile/, large: use a
 *                         small deployment) — summarise it with bench/lib/heap-summary.ts
 *
 *   BENCH_ONLY=scale npm run bench     or     npx tsx bench/suites/scale.ts
 *   BENCH_SCALE_STORES=30 BENCH_SCALE_PRODUCTS=2000 npx tsx bench/suites/scale.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { STRAINS } from '../../apps/server/src/seed/data/strains.ts';
import { summariseCpuProfile, type CpuProfileSummary } from '../lib/cpuprofile-summary.ts';
import { REPO_ROOT, freePort, seedDeployment } from '../lib/processes.ts';

export const MiB = 2 ** 20;
export const REFERENCE_DATE = '2026-06-15T12:00:00Z';
export const PROBE = path.join(import.meta.dirname, '../lib/memory-probe.mjs');
const PROFILE_DIR = path.join(import.meta.dirname, '../results/scale-profile');
const WARMUP = 30;
const ROUNDS = 3;
const GOALS = { readyS: 10, rssGiB: 1.5, firstRequestMs: 1000, searchP99Ms: 5 };

export const envInt = (name: string, fallback: number) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
};

export interface Seeded {
  dataDir: string;
  storesFile: string;
  codes: string[];
  /** Seed time when seeded in this run (null: reused). */
  seedMs: number | null;
}

/** The seeded deployment, reused when its marker says it is complete. */
export function ensureDeployment(stores: number, products: number): Seeded {
  const dataDir = path.join(os.tmpdir(), `verdant-scale-${stores}x${products}`);
  const storesFile = path.join(dataDir, 'stores.json');
  const marker = path.join(dataDir, 'bench-seeded.json');
  let seedMs: number | null = null;
  if (process.env.BENCH_SCALE_RESEED === '1' || !fs.existsSync(marker)) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    console.log(`scale: seeding ${stores} stores × ${products} products into ${dataDir} …`);
    seedMs = seedDeployment({ stores, products, dataDir, referenceDate: REFERENCE_DATE });
    fs.writeFileSync(
      marker,
      JSON.stringify({ stores, products, referenceDate: REFERENCE_DATE, seedMs, at: new Date().toISOString() }) + '\n',
    );
  }
  const codes = (JSON.parse(fs.readFileSync(storesFile, 'utf8')) as { stores: { storeCode: string }[] }).stores.map((s) => s.storeCode);
  return { dataDir, storesFile, codes, seedMs };
}

/** VmRSS and VmHWM (peak) of a process, in MiB. */
export function rssOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: Math.round(kib('VmRSS') / 1024), peakMiB: Math.round(kib('VmHWM') / 1024) };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function get(port: number, urlPath: string, host = 'localhost'): Promise<{ status: number; bytes: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, headers: { host }, agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

export interface Started {
  child: ChildProcess;
  port: number;
  readyMs: number;
  output: () => string;
  stop(): Promise<number | null>;
}

/** Spawn and time until `readyPath` answers 200 (polled every 10 ms; the spawn is the start). */
export async function spawnAndWait(args: string[], env: NodeJS.ProcessEnv, port: number, readyPath: string, timeoutMs: number): Promise<Started> {
  let output = '';
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 60_000).unref();
    });
  while (performance.now() - t0 < timeoutMs) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const elapsed = Math.round(performance.now() - t0);
      throw Object.assign(
        new Error(`process exited (${child.exitCode ?? child.signalCode}) after ${elapsed} ms, before ready:\n${output.slice(-3000)}`),
        {
          elapsedMs: elapsed,
        },
      );
    }
    try {
      const res = await get(port, readyPath);
      if (res.status === 200) return { child, port, readyMs: Math.round(performance.now() - t0), output: () => output, stop };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await stop();
  throw new Error(`not ready within ${timeoutMs} ms:\n${output.slice(-3000)}`);
}

async function startServer(seeded: Seeded, opts: { profile?: boolean; snapshot?: string; probeFile: string }): Promise<Started> {
  const port = await freePort();
  const heapMb = process.env.BENCH_SCALE_HEAP_MB;
  const args = [
    '--expose-gc',
    ...(heapMb ? [`--max-old-space-size=${heapMb}`] : []),
    // Extra V8/Node flags for the server under test (e.g. `--max-semi-space-size=8`), space-separated.
    ...(process.env.BENCH_SCALE_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ...(opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []),
    '--import',
    PROBE,
    '--import',
    'tsx',
    'apps/server/src/main.ts',
  ];
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: seeded.dataDir,
    STORES_FILE: seeded.storesFile,
    DATABASE_URL: '',
    // One node: the change bus stays in-process.
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_MS: '0',
    NODE_ENV: 'production',
    MEMORY_PROBE_FILE: opts.probeFile,
    MEMORY_PROBE_SNAPSHOT: opts.snapshot ?? '',
  };
  return spawnAndWait(args, env, port, '/api/health', 15 * 60_000);
}

export interface Probe {
  rssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
  arrayBuffersMiB: number;
  spaces: Record<string, number>;
  snapshot: { file: string; ms: number } | null;
}

/** Ask the server's memory probe for its breakdown (after a full GC). */
export async function probe(child: ChildProcess, file: string): Promise<Probe> {
  const before = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { sequence: number }).sequence : 0;
  child.kill('SIGUSR2');
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    if (fs.existsSync(file)) {
      const r = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        sequence: number;
        memory: NodeJS.MemoryUsage;
        spaces: { name: string; used: number }[];
        snapshot: Probe['snapshot'];
      };
      if (r.sequence > before) {
        const m = (n: number) => Math.round(n / MiB);
        return {
          rssMiB: m(r.memory.rss),
          heapUsedMiB: m(r.memory.heapUsed),
          heapTotalMiB: m(r.memory.heapTotal),
          externalMiB: m(r.memory.external),
          arrayBuffersMiB: m(r.memory.arrayBuffers),
          spaces: Object.fromEntries(r.spaces.filter((s) => s.used > MiB).map((s) => [s.name, m(s.used)])),
          snapshot: r.snapshot,
        };
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('memory probe did not answer');
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
export const r2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Deterministic, distinct search requests (the list route keeps identical answers for a minute, so a
 * repeated URL would measure that cache, not search): strain names or product words, with a dropped
 * letter or cut short as while typing, some with a shopper filter.
 */
function searchPaths(count: number, seed: number): string[] {
  const extra = ['gummies', 'live resin', 'pre-roll', 'vape cart', 'chocolate', 'tincture', 'indica flower', 'sativa'];
  const filters = ['', '&price=0-50', '&sale=1', '&staff_pick=1', '&sizes=92', '&price=50-100'];
  const paths = new Set<string>();
  for (let j = 0; paths.size < count && j < count * 50; j++) {
    const k = ((j + 1) * 2654435761 + seed * 40503) >>> 0;
    let text = k % 5 === 4 ? extra[(k >>> 3) % extra.length] : STRAINS[(k >>> 3) % STRAINS.length].name.toLowerCase();
    const variant = (k >>> 9) % 4;
    if (variant === 1 && text.length > 5) {
      const at = 1 + ((k >>> 12) % (text.length - 3));
      text = text.slice(0, at) + text.slice(at + 1); // a dropped letter
    } else if (variant === 2 && text.length > 6) {
      text = text.slice(0, text.length - 1 - ((k >>> 12) % 3)); // still typing
    }
    paths.add(`/api/catalog/products?text=${encodeURIComponent(text)}&size=24${filters[(k >>> 15) % filters.length]}`);
  }
  return [...paths];
}

export const hostOf = (code: string) => `${code}.localhost`;

async function touchStore(port: number, code: string, i: number): Promise<{ homeMs: number; searchMs: number }> {
  const home = await get(port, '/', hostOf(code));
  if (home.status !== 200) throw new Error(`home of ${code}: ${home.status}`);
  const search = await get(port, searchPaths(1, i)[0], hostOf(code));
  if (search.status !== 200) throw new Error(`search of ${code}: ${search.status}`);
  return { homeMs: r2(home.ms), searchMs: r2(search.ms) };
}

interface ScaleSearch {
  store: string;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  roundsP99Ms: number[];
}

export interface ScaleResult {
  stores: number;
  productsPerStore: number;
  seedMs: number | null;
  heapLimitMb: string;
  /** The machine's 1-minute load average when the run started and ended (2 cores: above 2 is contention). */
  loadAverage: { start: number; end: number };
  bare: { readyMs: number; rssMiB: number; roundTripP50Ms: number; roundTripP99Ms: number };
  server:
    | { crashed: string; readyMs: null }
    | {
        readyMs: number;
        rssAtReadyMiB: number;
        peakRssAtReadyMiB: number;
        atReady: Probe;
        firstRequest: { store: string; homeMs: number; searchMs: number }[];
        /** null when every store is in the search sample (nobody left unopened). */
        firstHomeMaxMs: number | null;
        firstSearchMaxMs: number | null;
        search: ScaleSearch[];
        searchP99MaxMs: number;
        /** Measured searches per round and store. */
        queries: number;
        touched: { stores: number; rssMiB: number; heapUsedMiB: number; heapTotalMiB: number; externalMiB: number }[];
      };
  profile?: CpuProfileSummary & { file: string; readyMs: number };
  goals: typeof GOALS;
}

export async function runScaleSuite(): Promise<ScaleResult> {
  const stores = envInt('BENCH_SCALE_STORES', 150);
  const products = envInt('BENCH_SCALE_PRODUCTS', 2000);
  // At least two stores stay out of the sample (when there are three or more): the first-request figures need stores nobody opened.
  const sampleSize = Math.min(envInt('BENCH_SCALE_SAMPLE', 10), Math.max(1, stores - 2));
  const queries = envInt('BENCH_SCALE_QUERIES', 200);
  const loadStart = r2(os.loadavg()[0]);
  const seeded = ensureDeployment(stores, products);
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  // Profiles and snapshots are large and per machine: never committed.
  fs.writeFileSync(path.join(PROFILE_DIR, '.gitignore'), '*\n');
  const probeFile = path.join(os.tmpdir(), `verdant-scale-probe-${process.pid}.json`);

  // Baseline: the bare server, spawned and timed the same way; its round trip is the search floor.
  const barePort = await freePort();
  const bare = await spawnAndWait(
    [path.join(import.meta.dirname, '../lib/bare-server.mjs'), String(barePort)],
    process.env,
    barePort,
    '/',
    10_000,
  );
  const bareRss = rssOf(bare.child.pid!).rssMiB;
  const trips: number[] = [];
  for (let i = 0; i < 500; i++) trips.push((await get(barePort, '/')).ms);
  trips.sort((a, b) => a - b);
  await bare.stop();
  const bareResult = {
    readyMs: bare.readyMs,
    rssMiB: bareRss,
    roundTripP50Ms: r2(percentile(trips, 50)),
    roundTripP99Ms: r2(percentile(trips, 99)),
  };

  const result: ScaleResult = {
    stores,
    productsPerStore: products,
    seedMs: seeded.seedMs,
    heapLimitMb: process.env.BENCH_SCALE_HEAP_MB || 'node default',
    loadAverage: { start: loadStart, end: loadStart },
    bare: bareResult,
    server: { crashed: '', readyMs: null },
    goals: GOALS,
  };

  if (process.env.BENCH_SCALE_PROFILE === '1') {
    const before = new Set(fs.readdirSync(PROFILE_DIR));
    const node = await startServer(seeded, { profile: true, probeFile });
    await node.stop();
    const file = fs.readdirSync(PROFILE_DIR).find((f) => f.endsWith('.cpuprofile') && !before.has(f));
    if (file) {
      const summary = summariseCpuProfile(path.join(PROFILE_DIR, file));
      result.profile = { file: path.relative(REPO_ROOT, path.join(PROFILE_DIR, file)), readyMs: node.readyMs, ...summary };
    }
  }

  let node: Started;
  try {
    node = await startServer(seeded, {
      probeFile,
      snapshot: process.env.BENCH_SCALE_SNAPSHOT === '1' ? path.join(PROFILE_DIR, `ready-${stores}x${products}.heapsnapshot`) : undefined,
    });
  } catch (error) {
    // Today's all-stores-in-memory catalogue can run out of heap before it is ready: that is a figure too.
    const message = (error as Error).message;
    const oom = /heap out of memory|Allocation failed/i.exec(message);
    const after = (error as { elapsedMs?: number }).elapsedMs;
    result.server = {
      crashed:
        (oom ? `heap out of memory (${oom[0]})` : message.slice(0, 500)) + (after === undefined ? '' : ` after ${r2(after / 1000)} s`),
      readyMs: null,
    };
    report(result);
    return result;
  }
  try {
    const atReadyRss = rssOf(node.child.pid!);
    const atReady = await probe(node.child, probeFile);

    // Stores in the search sample: spread over the list; first-request stores: others nobody opened yet.
    const step = stores / sampleSize;
    const sample = Array.from({ length: sampleSize }, (_, i) => seeded.codes[Math.floor(i * step)]);
    const untouched = seeded.codes.filter((c) => !sample.includes(c));
    const firstStores = Array.from({ length: Math.min(5, Math.floor(untouched.length / 2)) }, (_, i) => [
      untouched[untouched.length - 1 - 2 * i],
      untouched[untouched.length - 2 - 2 * i],
    ]);
    const firstRequest: { store: string; homeMs: number; searchMs: number }[] = [];
    for (const [homeStore, searchStore] of firstStores) {
      const home = await get(node.port, '/', hostOf(homeStore));
      const search = await get(node.port, searchPaths(1, 3)[0], hostOf(searchStore));
      if (home.status !== 200 || search.status !== 200) throw new Error(`first request: ${home.status} / ${search.status}`);
      firstRequest.push({ store: `${homeStore} / ${searchStore}`, homeMs: r2(home.ms), searchMs: r2(search.ms) });
    }

    // Per store: ROUNDS rounds of distinct requests, the round with the median p99 reported (the
    // machines are shared: one busy neighbour moves a single round's tail by several ms).
    const search: ScaleSearch[] = [];
    for (const [i, code] of sample.entries()) {
      const paths = searchPaths(WARMUP + ROUNDS * queries, i);
      for (const p of paths.slice(0, WARMUP)) await get(node.port, p, hostOf(code)); // not measured
      const rounds: { p50Ms: number; p99Ms: number; maxMs: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const times: number[] = [];
        for (const p of paths.slice(WARMUP + round * queries, WARMUP + (round + 1) * queries)) {
          const res = await get(node.port, p, hostOf(code));
          if (res.status !== 200) throw new Error(`search ${p} on ${code}: ${res.status}`);
          times.push(res.ms);
        }
        times.sort((a, b) => a - b);
        rounds.push({ p50Ms: r2(percentile(times, 50)), p99Ms: r2(percentile(times, 99)), maxMs: r2(times[times.length - 1]) });
      }
      rounds.sort((a, b) => a.p99Ms - b.p99Ms);
      search.push({ store: code, ...rounds[Math.floor(ROUNDS / 2)], roundsP99Ms: rounds.map((r) => r.p99Ms) });
    }

    // Touch stores in order (home + one search each); memory after 10, 50 and all of them.
    const tiers = [...new Set([10, 50, stores].filter((n) => n <= stores))];
    const touched: { stores: number; rssMiB: number; heapUsedMiB: number; heapTotalMiB: number; externalMiB: number }[] = [];
    let done = 0;
    for (const tier of tiers) {
      for (; done < tier; done++) await touchStore(node.port, seeded.codes[done], done);
      const p = await probe(node.child, probeFile);
      touched.push({
        stores: tier,
        rssMiB: p.rssMiB,
        heapUsedMiB: p.heapUsedMiB,
        heapTotalMiB: p.heapTotalMiB,
        externalMiB: p.externalMiB,
      });
    }

    result.server = {
      readyMs: node.readyMs,
      rssAtReadyMiB: atReadyRss.rssMiB,
      peakRssAtReadyMiB: atReadyRss.peakMiB,
      atReady,
      firstRequest,
      firstHomeMaxMs: firstRequest.length ? Math.max(...firstRequest.map((f) => f.homeMs)) : null,
      firstSearchMaxMs: firstRequest.length ? Math.max(...firstRequest.map((f) => f.searchMs)) : null,
      search,
      searchP99MaxMs: Math.max(...search.map((s) => s.p99Ms)),
      queries,
      touched,
    };
  } finally {
    await node.stop();
    fs.rmSync(probeFile, { force: true });
  }
  report(result);
  return result;
}

const firstNote = (max: number | null, n: number) =>
  max === null ? 'n/a: every store is in the search sample' : `max ${max} ms over ${n} stores`;

function report(r: ScaleResult): void {
  r.loadAverage.end = r2(os.loadavg()[0]);
  const out = path.join(import.meta.dirname, `../results/scale-${r.stores}x${r.productsPerStore}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), ...r }, null, 2) + '\n');

  const perProduct = (mib: number) => `${r2((mib * 1024) / (r.stores * r.productsPerStore))} KiB/product`;
  console.log(
    `\nscale: ${r.stores} stores × ${r.productsPerStore} products, one node on SQLite (heap limit: ${r.heapLimitMb})` +
      (r.seedMs !== null ? `, seeded in ${r2(r.seedMs / 1000)} s this run` : ', seeded data reused') +
      `; load average ${r.loadAverage.start} → ${r.loadAverage.end} on ${os.cpus().length} cores`,
  );
  const s = r.server;
  const rows: Record<string, Record<string, string | number>> = {
    'bare Node HTTP server': {
      'ready s': r2(r.bare.readyMs / 1000),
      'RSS MiB': r.bare.rssMiB,
      goal: '',
      note: `round trip p50 ${r.bare.roundTripP50Ms} ms, p99 ${r.bare.roundTripP99Ms} ms`,
    },
  };
  if (s.readyMs === null) {
    rows['verdant server'] = { 'ready s': 'never', 'RSS MiB': '', goal: `< ${GOALS.readyS} s`, note: `crashed: ${s.crashed}` };
  } else {
    rows['verdant server: ready'] = {
      'ready s': r2(s.readyMs / 1000),
      'RSS MiB': s.rssAtReadyMiB,
      goal: `< ${GOALS.readyS} s, < ${GOALS.rssGiB * 1024} MiB`,
      note: `× bare: ready ${r2(s.readyMs / r.bare.readyMs)}, RSS ${r2(s.rssAtReadyMiB / r.bare.rssMiB)}; heap ${s.atReady.heapUsedMiB} MiB live (whole heap / products: ${perProduct(s.atReady.heapUsedMiB)}), peak RSS ${s.peakRssAtReadyMiB} MiB`,
    };
    rows['first request, unopened store: home'] = {
      'ready s': '',
      'RSS MiB': '',
      goal: `< ${GOALS.firstRequestMs} ms`,
      note: firstNote(s.firstHomeMaxMs, s.firstRequest.length),
    };
    rows['first request, unopened store: search'] = {
      'ready s': '',
      'RSS MiB': '',
      goal: `< ${GOALS.firstRequestMs} ms`,
      note: firstNote(s.firstSearchMaxMs, s.firstRequest.length),
    };
    const p50s = s.search.map((x) => x.p50Ms).sort((a, b) => a - b);
    rows['search p99 per store (HTTP)'] = {
      'ready s': '',
      'RSS MiB': '',
      goal: `< ${GOALS.searchP99Ms} ms`,
      note: `worst store ${s.searchP99MaxMs} ms (median of ${ROUNDS} rounds of ${s.queries}), median p50 ${percentile(p50s, 50)} ms over ${s.search.length} stores (bare round trip p99 ${r.bare.roundTripP99Ms} ms)`,
    };
    for (const t of s.touched)
      rows[`after touching ${t.stores} stores`] = {
        'ready s': '',
        'RSS MiB': t.rssMiB,
        goal: '',
        note: `heap ${t.heapUsedMiB} MiB live of ${t.heapTotalMiB} MiB V8 heap; external ${t.externalMiB} MiB`,
      };
  }
  console.table(rows);
  if (r.profile) {
    console.log(`start-up CPU profile (${r.profile.file}, ${r2(r.profile.totalMs / 1000)} s sampled): self time by file`);
    console.table(r.profile.byFile.slice(0, 12));
    console.log('self time by function');
    console.table(r.profile.byFunction.slice(0, 15));
    console.log('repository functions by inclusive time');
    console.table(r.profile.inclusive.slice(0, 15));
  }
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runScaleSuite();
}
