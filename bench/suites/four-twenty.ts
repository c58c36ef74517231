/**
 * The 4/20 run (issue 15, "A 4/20 run"): two real server nodes on one PostgreSQL database and one
 * Redis, BENCH_420_STORES stores × BENCH_420_PRODUCTS products (default 150 × 2,000, seeded by
 * `npm run seed -- --stores N --products M` into a database of its own), shoppers browsing and
 * searching across every store while orders arrive at a fixed rate (default 50/s) for
 * BENCH_420_SECONDS (default 300) after a warm-up. The issue's goals: 0 errors, p99 < 300 ms for
 * pages and API, no oversold stock, memory flat from minute 1 to minute 5.
 *
 * What runs:
 *  - node A and node B: `node --import tsx apps/server/src/main.ts` (what `npm run serve` runs),
 *    NODE_ENV=production, the built storefront, same DATABASE_URL, REDIS_URL (own prefix) and
 *    AUTH_SECRET, WRITE_RATE_LIMIT=0, each with --expose-gc and bench/lib/memory-probe.mjs preloaded
 *    (SIGUSR2 → memory breakdown after a full GC: asked only twice, at the end of the first measured
 *    minute and right after the load, since a full GC under load adds the pauses it measures);
 *    CATALOG_MAX_STORES: the number of stores taking traffic unless set in the environment — a chain
 *    whose every store sells sizes the catalogue to hold them all (150 × 2,000 at ~7 KiB per listed
 *    product ≈ 2 GiB live per node); below that every request to a store past the budget rebuilds
 *    one, and the run measures rebuilds, not shopping (the first full run here did exactly that);
 *  - before the load, each node is primed: one home page per store (two at a time), timed — what a
 *    node restarted in the morning goes through before the doors open;
 *  - the bare Node server (bench/lib/bare-server.mjs): the round-trip baseline, sent a trickle of
 *    requests during the same window by the same generator;
 *  - the load generator (bench/lib/four-twenty-load.mjs) in a process of its own: open model
 *    (fixed arrival rates), order journeys cart create → add a line → totals → pickup → place,
 *    browsing (home, category and product pages, searches) with Zipf-like store popularity.
 * Sampled every 5 s from /proc: RSS and CPU time of each node, CPU time of the generator, PostgreSQL
 * and Redis (to tell which saturates), the load average.
 * After the run: a database check (no stock below zero; for each contended variant, ordered ≤
 * initial stock and final = initial − ordered; every accepted order persisted exactly once), then
 * node B is killed (SIGKILL) and started again: spawn → /api/health and → a store's page, and a
 * stock change made through node A (an order) timed until node B shows it.
 *
 * Knobs (BENCH_420_…): STORES (150), PRODUCTS (2000), SECONDS (300), WARMUP_S (30),
 * ORDERS_PER_S (50), BROWSE_PER_S (60), BARE_PER_S (20), STORE_SKEW (1: store k weighs 1/k; 0
 * uniform), CONTENDED (8 variants), CONTENDED_STOCK (30 units each), CONTENDED_SHARE (0.1 of
 * orders), DRAIN_S (60: how long the generator waits for answers after the window), ACTIVE_STORES (all: traffic to the first N stores only, e.g. fewer than CATALOG_MAX_STORES
 * to measure without catalogue builds), LATE_MS (250: an order starting later than this is a miss), MAX_IN_FLIGHT (500),
 * RESEED=1 (seed again), PG_URL (postgres://postgres@127.0.0.1:5432), PROFILE=1 (--cpu-prof on
 * both nodes, summarised: node A's profile is written when it stops; node B is killed), SETTLE_S (180),
 * NODE_ARGS (extra node flags for both nodes, e.g. `--max-semi-space-size=64 --max-old-space-size=6144`).
 * REDIS_URL (default redis://127.0.0.1:6379). Findings: bench/SCALE.md, "The 4/20 run".
 *
 *   BENCH_ONLY=fourtwenty npm run bench     or     npx tsx bench/suites/four-twenty.ts
 *   BENCH_420_STORES=10 BENCH_420_PRODUCTS=200 BENCH_420_SECONDS=20 BENCH_420_ORDERS_PER_S=10 npx tsx bench/suites/four-twenty.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { summariseCpuProfile } from '../lib/cpuprofile-summary.ts';
import { REPO_ROOT, freePort, seedDeployment } from '../lib/processes.ts';

const MiB = 2 ** 20;
const REFERENCE_DATE = '2026-06-15T12:00:00Z';
const PROBE = path.join(import.meta.dirname, '../lib/memory-probe.mjs');
const LOAD = path.join(import.meta.dirname, '../lib/four-twenty-load.mjs');
const RESULTS = path.join(import.meta.dirname, '../results');
const PROFILE_DIR = path.join(RESULTS, 'four-twenty-profile');
const AUTH_SECRET = 'four-twenty-bench-secret-0123456789abcdef';
const GOALS = { errors: 0, p99Ms: 300, restartS: 10, propagationMs: 2000 };
const SAMPLE_MS = 5000;
const CLK_TCK = 100;

const envNum = (name: string, fallback: number) => {
  const raw = process.env[`BENCH_420_${name}`];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`BENCH_420_${name} must be a number ≥ 0, got ${raw}`);
  return n;
};
const r1 = (n: number) => Math.round(n * 10) / 10;
const r2 = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
function latency(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s.length ? s[s.length - 1] : null };
}

// ---------------------------------------------------------------- the database

interface Deployment {
  url: string;
  database: string;
  dataDir: string;
  storesFile: string;
  seedMs: number | null;
}

async function admin(base: string, sql: string): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: `${base}/postgres` });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

/** The seeded database (created, migrated and seeded once; BENCH_420_RESEED=1 again). */
async function ensureDeployment(stores: number, products: number): Promise<Deployment> {
  const base = (process.env.BENCH_420_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
  const database = `verdant_bench_fourtwenty_${stores}x${products}`;
  const dataDir = path.join(os.tmpdir(), `verdant-fourtwenty-${stores}x${products}`);
  const storesFile = path.join(dataDir, 'stores.json');
  const marker = path.join(dataDir, 'bench-seeded.json');
  const url = `${base}/${database}`;
  const exists = (await admin(base, `select 1 from pg_database where datname = '${database}'`)).rowCount === 1;
  let seedMs: number | null = null;
  if (process.env.BENCH_420_RESEED === '1' || !exists || !fs.existsSync(marker)) {
    await admin(base, `drop database if exists ${database} with (force)`);
    await admin(base, `create database ${database}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    console.log(`fourtwenty: seeding ${stores} stores × ${products} products into PostgreSQL ${database} …`);
    seedMs = seedDeployment({ stores, products, dataDir, referenceDate: REFERENCE_DATE, databaseUrl: url });
    fs.writeFileSync(marker, JSON.stringify({ stores, products, database, seedMs, at: new Date().toISOString() }) + '\n');
  }
  return { url, database, dataDir, storesFile, seedMs };
}

interface StorePlan {
  code: string;
  storeId: number;
  host: string;
  license: 'recreational' | 'medical';
  recreational: boolean;
  categories: string[];
  products: string[];
  searches: string[];
  orderSkus: string[];
}

interface Contended {
  host: string;
  storeId: number;
  sku: string;
  productId: number;
  stock: number;
}

const WORDS = [
  'gummies',
  'live resin',
  'pre-roll',
  'vape',
  'chocolate',
  'tincture',
  'indica',
  'sativa',
  'hybrid',
  'grinder',
  'kush mints',
  'blue dream',
  'sour diesel',
  'gelato',
  'wedding cake',
  'papers',
];

/**
 * Per store: the pages a shopper opens and the searches they type (from the database), the
 * accessories orders buy (stock set high every run so they never run out: not cannabis, so purchase
 * limits never refuse them), and the contended variants (stock set low every run).
 */
async function plan(db: pg.Client, storesFile: string, active: number, contendedCount: number, contendedStock: number) {
  const file = JSON.parse(fs.readFileSync(storesFile, 'utf8')) as {
    stores: { storeCode: string; storeId: number; dispensarySettings: { license_recreational: boolean; license_medical: boolean } }[];
  };
  const cats = await db.query<{ store_id: number; url_path: string }>(
    `select store_id, url_path from categories where is_active = 1 and level >= 2 and product_count > 0 order by store_id, position, id`,
  );
  // Product pages by their canonical path (/p/{sku}/{slug}: packages/domain/src/urls.ts), which answer 200 without a redirect.
  const prods = await db.query<{ store_id: number; sku: string; slug: string }>(
    `select store_id, sku, slug from (select store_id, sku, slug, row_number() over (partition by store_id order by id) as k
       from products where parent_id is null and status = 1 and visibility in (2, 4)) t where k % 50 = 1`,
  );
  const buyable = await db.query<{ store_id: number; id: number; sku: string }>(
    `select store_id, id, sku from (select p.store_id, p.id, p.sku, row_number() over (partition by p.store_id order by p.id) as k
       from products p join stock s on s.product_id = p.id
       where p.parent_id is null and p.type_id = 'simple' and p.status = 1 and p.visibility = 4 and p.canna_type in (4, 6)
         and p.license_type in ('both', 'recreational') and exists (select 1 from product_prices pp where pp.product_id = p.id)) t
     where k <= 12`,
  );
  const by = <T extends { store_id: number }>(rows: T[]) => {
    const m = new Map<number, T[]>();
    for (const r of rows) m.set(r.store_id, [...(m.get(r.store_id) ?? []), r]);
    return m;
  };
  const catsBy = by(cats.rows);
  const prodsBy = by(prods.rows);
  const buyBy = by(buyable.rows);
  const stores: StorePlan[] = file.stores.map((s, i) => {
    const recreational = s.dispensarySettings.license_recreational;
    const code = s.storeCode;
    return {
      code,
      storeId: s.storeId,
      host: `${code}.localhost`,
      license: recreational ? 'recreational' : 'medical',
      recreational,
      categories: (catsBy.get(s.storeId) ?? []).slice(0, 12).map((c) => `/${c.url_path}`),
      products: (prodsBy.get(s.storeId) ?? []).map((p) => `/p/${encodeURIComponent(p.sku)}/${encodeURIComponent(p.slug)}`),
      // As typed: whole words or cut short by a letter or two (the API wants 3 characters at least).
      searches: WORDS.map(
        (w, k) => `/api/catalog/products?text=${encodeURIComponent(w.length > 5 ? w.slice(0, w.length - ((i + k) % 3)) : w)}&size=24`,
      ),
      orderSkus: recreational ? (buyBy.get(s.storeId) ?? []).slice(1).map((b) => b.sku) : [],
    };
  });
  // Contended: the first buyable of recreational stores spread over the list (never also an ordinary pick).
  const rec = stores.slice(0, active).filter((s) => s.recreational && (buyBy.get(s.storeId)?.length ?? 0) > 1);
  const contended: Contended[] = [];
  for (let k = 0; k < Math.min(contendedCount, rec.length); k++) {
    const s = rec[Math.floor((k * rec.length) / Math.min(contendedCount, rec.length))];
    const b = buyBy.get(s.storeId)![0];
    contended.push({ host: s.host, storeId: s.storeId, sku: b.sku, productId: b.id, stock: contendedStock });
  }
  const ordinaryIds = [...buyBy.values()].flatMap((rows) => rows.slice(1).map((r) => r.id));
  await db.query(`update stock set qty = 1000000, is_in_stock = 1, manage_stock = 1 where product_id = any($1)`, [ordinaryIds]);
  await db.query(`update stock set qty = $2, is_in_stock = 1, manage_stock = 1 where product_id = any($1)`, [
    contended.map((c) => c.productId),
    contendedStock,
  ]);
  return { stores: stores.slice(0, active), contended };
}

// ---------------------------------------------------------------- processes

interface Node {
  name: string;
  port: number;
  child: ChildProcess;
  probeFile: string;
  dataDir: string;
  output(): string;
}

function spawnNode(name: string, port: number, env: Record<string, string>, profile: boolean): Node {
  const probeFile = path.join(os.tmpdir(), `verdant-fourtwenty-probe-${name}-${process.pid}.json`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `verdant-fourtwenty-node-${name}-`));
  const child = spawn(
    process.execPath,
    [
      // --expose-gc: the probe's two readings (live heap) follow a full GC; nothing else calls it.
      '--expose-gc',
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []),
      // Extra V8/Node flags for both nodes (e.g. `--max-semi-space-size=64`), space-separated.
      ...(process.env.BENCH_420_NODE_ARGS ?? '').split(' ').filter(Boolean),
      '--import',
      PROBE,
      '--import',
      'tsx',
      'apps/server/src/main.ts',
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        MEMORY_PROBE_FILE: probeFile,
        MEMORY_PROBE_SNAPSHOT: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  return { name, port, child, probeFile, dataDir, output: () => out };
}

/** A request over node:http: fetch() drops a `host` header, which names the store here (every store would be the default one). */
function send(
  method: string,
  port: number,
  p: string,
  host: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: p, headers: { host, ...headers }, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${host}${p}: no answer within 30 s`)));
    req.on('error', reject);
    req.end(body);
  });
}
const get = (port: number, p: string, host: string, headers: Record<string, string> = {}) => send('GET', port, p, host, headers);

/** Poll every 10 ms until `check` is true; returns the ms since `t0` (performance.now()). */
async function until(node: Node, what: string, timeoutMs: number, t0: number, check: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (node.child.exitCode !== null || node.child.signalCode !== null)
      throw new Error(`${node.name} exited before ${what}:\n${node.output().slice(-3000)}`);
    try {
      if (await check()) return Math.round(performance.now() - t0);
    } catch {
      /* not listening yet */
    }
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`${node.name}: ${what} not within ${timeoutMs} ms:\n${node.output().slice(-3000)}`);
    await sleep(10);
  }
}

async function stopNode(node: Node, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    node.child.once('exit', () => resolve());
    node.child.kill(signal);
    setTimeout(() => node.child.kill('SIGKILL'), 30_000).unref();
  });
}

function rssMiB(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024);
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) of one process, or of every process whose command name matches. */
function cpuOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return NaN;
  }
}
function cpuOfCommand(pattern: RegExp): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (pattern.test(comm)) total += cpuOf(Number(entry));
    } catch {
      /* gone */
    }
  }
  return total;
}

/** The node's live heap: the probe's reading after a full GC (bench/lib/memory-probe.mjs). */
async function heapOf(node: Node): Promise<{ heapUsedMiB: number; heapTotalMiB: number; rssMiB: number } | null> {
  const before = fs.existsSync(node.probeFile) ? (JSON.parse(fs.readFileSync(node.probeFile, 'utf8')) as { sequence: number }).sequence : 0;
  node.child.kill('SIGUSR2');
  // Generous: right after the load a node may still be working off queued requests.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const r = JSON.parse(fs.readFileSync(node.probeFile, 'utf8')) as { sequence: number; memory: NodeJS.MemoryUsage };
      if (r.sequence > before)
        return {
          heapUsedMiB: Math.round(r.memory.heapUsed / MiB),
          heapTotalMiB: Math.round(r.memory.heapTotal / MiB),
          rssMiB: Math.round(r.memory.rss / MiB),
        };
    } catch {
      /* not written yet */
    }
    await sleep(20);
  }
  return null;
}

interface Sample {
  t: number;
  load1: number;
  nodes: { name: string; rssMiB: number | null; cpuS: number }[];
  generatorCpuS: number;
  postgresCpuS: number;
  redisCpuS: number;
}

// ---------------------------------------------------------------- the run

export async function runFourTwentySuite() {
  const stores = envNum('STORES', 150);
  const products = envNum('PRODUCTS', 2000);
  const seconds = envNum('SECONDS', 300);
  const warmupS = envNum('WARMUP_S', 30);
  const ordersPerS = envNum('ORDERS_PER_S', 50);
  const browsePerS = envNum('BROWSE_PER_S', 60);
  const barePerS = envNum('BARE_PER_S', 20);
  const profile = process.env.BENCH_420_PROFILE === '1';
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const load = { start: r2(os.loadavg()[0]), end: 0 };
  const deployment = await ensureDeployment(stores, products);
  fs.mkdirSync(RESULTS, { recursive: true });
  if (profile) {
    fs.mkdirSync(PROFILE_DIR, { recursive: true });
    fs.writeFileSync(path.join(PROFILE_DIR, '.gitignore'), '*\n');
  }

  const db = new pg.Client({ connectionString: deployment.url });
  await db.connect();
  const { stores: storePlans, contended } = await plan(
    db,
    deployment.storesFile,
    envNum('ACTIVE_STORES', stores) || stores,
    envNum('CONTENDED', 8),
    envNum('CONTENDED_STOCK', 30),
  );
  const runStartedAt = new Date();

  const env = {
    DATABASE_URL: deployment.url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `verdant-bench-420-${process.pid}:`,
    AUTH_SECRET,
    STORES_FILE: deployment.storesFile,
    WRITE_RATE_LIMIT: '0',
    NODE_ENV: 'production',
    SERVE_STOREFRONT: 'true',
    LOG_LEVEL: 'warn',
    // No proxy to drain from: a stopped node closes at once (issue 32's drain is for a proxy's health check).
    SHUTDOWN_DRAIN_MS: '0',
    CATALOG_MAX_STORES: process.env.CATALOG_MAX_STORES ?? String(storePlans.length),
  };
  const barePort = await freePort();
  // Whatever happens below, nothing this run started outlives it.
  const children: ChildProcess[] = [];
  const nodeDirs: Node[] = [];
  const spawnTracked = (name: string, port: number, prof: boolean) => {
    const n = spawnNode(name, port, env, prof);
    children.push(n.child);
    nodeDirs.push(n);
    return n;
  };
  try {
    const bare = spawn(process.execPath, [path.join(import.meta.dirname, '../lib/bare-server.mjs'), String(barePort)], { stdio: 'ignore' });
    children.push(bare);
    const nodes = [spawnTracked('A', await freePort(), profile), spawnTracked('B', await freePort(), profile)];
    const ready: number[] = [];
    const t0 = performance.now();
    for (const n of nodes)
      ready.push(await until(n, '/api/health', 120_000, t0, async () => (await get(n.port, '/api/health', 'localhost')).status === 200));
    await until(nodes[0], 'bare', 10_000, performance.now(), async () => (await fetch(`http://127.0.0.1:${barePort}/`)).ok);
    // Prime: every store taking traffic opened once on each node (its catalogue built), two at a time.
    const primeStarted = performance.now();
    const primeMs = await Promise.all(
      nodes.map(async (n) => {
        const queue = [...storePlans];
        const worker = async () => {
          for (let s = queue.shift(); s; s = queue.shift()) {
            const res = await get(n.port, '/', s.host, { cookie: `verdant_age=1; verdant_license=${s.license}` });
            if (res.status !== 200) throw new Error(`priming ${s.host} on node ${n.name}: ${res.status}`);
          }
        };
        await Promise.all([worker(), worker()]);
        return Math.round(performance.now() - primeStarted);
      }),
    );
    console.log(
      `fourtwenty: primed ${storePlans.length} stores on each node in ${primeMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(' / ')}`,
    );

    const samples: Sample[] = [];
    let generator: ChildProcess | null = null;
    // RSS and CPU every SAMPLE_MS from /proc (costs the nodes nothing); the live heap only twice, at the
    // end of the first measured minute and right after the load, since each reading is a full GC.
    const heaps: { at: string; t: number; nodes: Awaited<ReturnType<typeof heapOf>>[] }[] = [];
    const sampler = (startedAt: number) => {
      samples.push({
        t: Math.round((performance.now() - startedAt) / 100) / 10,
        load1: r2(os.loadavg()[0]),
        nodes: nodes.map((n) => ({
          name: n.name,
          rssMiB: rssMiB(n.child.pid!),
          cpuS: cpuOf(n.child.pid!),
        })),
        generatorCpuS: generator?.pid ? cpuOf(generator.pid) : 0,
        postgresCpuS: cpuOfCommand(/^postgres/),
        redisCpuS: cpuOfCommand(/^redis-server/),
      });
    };

    const configFile = path.join(os.tmpdir(), `verdant-fourtwenty-load-${process.pid}.json`);
    const outFile = `${configFile}.out`;
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        nodes: nodes.map((n) => n.port),
        barePort,
        warmupS,
        seconds,
        ordersPerS,
        browsePerS,
        barePerS,
        storeSkew: envNum('STORE_SKEW', 1),
        contended: contended.map((c) => ({ host: c.host, sku: c.sku })),
        contendedShare: envNum('CONTENDED_SHARE', 0.1),
        lateMs: envNum('LATE_MS', 250),
        maxInFlight: envNum('MAX_IN_FLIGHT', 500),
        drainS: envNum('DRAIN_S', 60),
        stores: storePlans.map((s) => ({
          host: s.host,
          license: s.license,
          categories: s.categories.length ? s.categories : ['/'],
          products: s.products.length ? s.products : ['/'],
          searches: s.searches,
          orderSkus: s.orderSkus,
        })),
        out: outFile,
      }),
    );

    console.log(
      `fourtwenty: ${stores} stores × ${products} products on PostgreSQL (${deployment.database}), 2 nodes ready in ${ready.map((r) => `${r2(r / 1000)} s`).join(' / ')}; ` +
        `load: ${ordersPerS} orders/s + ${browsePerS} browse/s for ${warmupS} s warm-up + ${seconds} s; load average ${load.start}`,
    );
    const loadStartedAt = performance.now();
    generator = spawn(process.execPath, [LOAD, configFile], { stdio: ['ignore', 'inherit', 'inherit'] });
    children.push(generator);
    const generatorExit = new Promise<number | null>((resolve) => generator!.once('exit', (code) => resolve(code)));
    let sampling = true;
    const sampling$ = (async () => {
      while (sampling) {
        sampler(loadStartedAt);
        await Promise.race([sleep(SAMPLE_MS), generatorExit]);
      }
    })();
    const firstMinuteAt = (warmupS + Math.min(60, seconds / 2)) * 1000;
    const firstHeap = (async () => {
      await Promise.race([sleep(firstMinuteAt), generatorExit]);
      if (sampling)
        heaps.push({
          at: 'end of the first measured minute',
          t: r1((performance.now() - loadStartedAt) / 1000),
          nodes: await Promise.all(nodes.map((n) => heapOf(n))),
        });
    })();
    const code = await generatorExit;
    sampling = false;
    await sampling$;
    await firstHeap;
    sampler(loadStartedAt);
    heaps.push({
      at: 'right after the load',
      t: r1((performance.now() - loadStartedAt) / 1000),
      nodes: await Promise.all(nodes.map((n) => heapOf(n))),
    });
    if (code !== 0) throw new Error(`load generator exited with ${code}`);
    const out = JSON.parse(fs.readFileSync(outFile, 'utf8')) as LoadOut;
    fs.rmSync(configFile, { force: true });
    fs.rmSync(outFile, { force: true });

    // ---- the database after the run ----
    const keys = out.accepted.map((a) => a.key);
    const negative = Number((await db.query(`select count(*) as n from stock where qty < 0`)).rows[0].n);
    const persisted = await db.query<{ idempotency_key: string; n: string }>(
      `select idempotency_key, count(*) as n from orders where idempotency_key = any($1) group by idempotency_key`,
      [keys],
    );
    const persistedTwice = persisted.rows.filter((r) => Number(r.n) !== 1).length;
    const keySet = new Set(keys);
    const sinceRun = await db.query<{ idempotency_key: string }>(`select idempotency_key from orders where created_at >= $1`, [
      runStartedAt.toISOString(),
    ]);
    const unanswered = sinceRun.rows.filter((r) => !keySet.has(r.idempotency_key)).length;
    const contendedCheck = [];
    for (const c of contended) {
      // Every order of this run that holds the variant: those answered 200 and those the server
      // placed after the generator had given up waiting (persistedWithoutA200): both took stock.
      const ordered = Number(
        (
          await db.query(
            `select coalesce(sum(oi.qty), 0) as n from order_items oi join orders o on o.id = oi.order_id where o.created_at >= $1 and oi.sku = $2 and o.store_id = $3`,
            [runStartedAt.toISOString(), c.sku, c.storeId],
          )
        ).rows[0].n,
      );
      const finalQty = Number((await db.query(`select qty from stock where product_id = $1`, [c.productId])).rows[0].qty);
      const answered = out.accepted.filter((a) => a.sku === c.sku && a.host === c.host).length;
      contendedCheck.push({
        sku: c.sku,
        store: c.host,
        initial: c.stock,
        ordered,
        answered200: answered,
        final: finalQty,
        // No oversell: what was ordered fits the stock, and the stock went down by exactly that.
        ok: ordered <= c.stock && finalQty === c.stock - ordered && finalQty >= 0 && answered <= ordered,
      });
    }
    const dbCheck = {
      variantsBelowZero: negative,
      acceptedOrders: keys.length,
      persisted: persisted.rows.length,
      persistedMoreThanOnce: persistedTwice,
      persistedWithoutA200: unanswered,
      contended: contendedCheck,
      ok: negative === 0 && persisted.rows.length === keys.length && persistedTwice === 0 && contendedCheck.every((c) => c.ok),
    };

    // ---- restart: kill -9 node B, start it again ----
    // First node A works off what the load left queued (requests the generator gave up on still run
    // on the server): it must answer its health check within 100 ms before anything is timed.
    // (At most SETTLE_S, default 180: an overloaded node may take longer; then it goes on, and says so.)
    const settleLimitMs = envNum('SETTLE_S', 180) * 1000;
    const settleMs = await until(nodes[0], 'node A settled', settleLimitMs, performance.now(), async () => {
      const t = performance.now();
      return (await get(nodes[0].port, '/api/health', 'localhost')).status === 200 && performance.now() - t < 100;
    }).catch(() => null);
    const store = storePlans.find((s) => s.recreational && s.orderSkus.length > 0)!;
    const cookie = `verdant_age=1; verdant_license=${store.license}`;
    let restart: RestartResult;
    const propagation: number[] = [];
    let propagationError: string | null = null;
    // Baseline for the restart, at the same moment: spawn → first answer of the bare Node server.
    const bareStartPort = await freePort();
    const bareStartedAt = performance.now();
    const bare2 = spawn(process.execPath, [path.join(import.meta.dirname, '../lib/bare-server.mjs'), String(bareStartPort)], {
      stdio: 'ignore',
    });
    children.push(bare2);
    const bareStartMs = await until(
      nodes[0],
      'bare start',
      30_000,
      bareStartedAt,
      async () => (await fetch(`http://127.0.0.1:${bareStartPort}/`)).ok,
    );
    bare2.kill('SIGTERM');
    try {
      await stopNode(nodes[1], 'SIGKILL');
      const restartPort = await freePort();
      const restartedAt = performance.now();
      const b2 = spawnTracked('B', restartPort, false);
      const healthMs = await until(
        b2,
        '/api/health',
        120_000,
        restartedAt,
        async () => (await get(b2.port, '/api/health', 'localhost')).status === 200,
      );
      const pageMs = await until(
        b2,
        'a store page',
        120_000,
        restartedAt,
        async () => (await get(b2.port, '/', store.host, { cookie })).status === 200,
      );
      restart = { settleMs, bareStartMs, healthMs, pageMs, ok: pageMs < GOALS.restartS * 1000 };

      // ---- a change made through node A (an order takes stock), seen on node B ----
      try {
        const sku = store.orderSkus[0];
        const shown = async (port: number) => {
          const r = await get(port, `/api/catalog/product/${encodeURIComponent(sku)}`, store.host);
          if (r.status !== 200) throw new Error(`product ${sku}: ${r.status} ${r.text.slice(0, 200)}`);
          return (JSON.parse(r.text) as { result: { stock: { qty: number } } }).result.stock.qty;
        };
        for (let i = 0; i < 5; i++) {
          const before = await shown(b2.port);
          await shown(nodes[0].port);
          const placed = await send(
            'POST',
            nodes[0].port,
            '/api/order/save',
            store.host,
            { 'content-type': 'application/json' },
            JSON.stringify({
              idempotency_key: randomUUID(),
              products: [{ sku, qty: 1 }],
              order_type: 'pickup',
              personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' },
              birthday: '1990-01-01',
              payment_method: 'cashondelivery',
            }),
          );
          if (placed.status !== 200) throw new Error(`order through node A: ${placed.status} ${placed.text}`);
          const since = performance.now();
          propagation.push(await until(b2, 'the change on node B', 10_000, since, async () => (await shown(b2.port)) === before - 1));
        }
      } catch (error) {
        propagationError = String((error as Error).message).slice(0, 500);
      }
      await stopNode(b2);
    } catch (error) {
      restart = { settleMs, bareStartMs, healthMs: null, pageMs: null, ok: false, error: String((error as Error).message).slice(0, 500) };
    }
    await stopNode(nodes[0]);
    const profiles = profile
      ? fs
          .readdirSync(PROFILE_DIR)
          .filter((f) => f.endsWith('.cpuprofile'))
          .map((f) => path.join(PROFILE_DIR, f))
          .filter((f) => fs.statSync(f).mtimeMs >= Date.now() - (seconds + warmupS + 600) * 1000)
      : [];
    load.end = r2(os.loadavg()[0]);

    const result = summarise({
      stores,
      products,
      seedMs: deployment.seedMs,
      database: deployment.database,
      catalogMaxStores: env.CATALOG_MAX_STORES,
      rates: { ordersPerS, browsePerS, barePerS, warmupS, seconds, activeStores: storePlans.length, storeSkew: envNum('STORE_SKEW', 1) },
      readyMs: ready,
      primeMs,
      load,
      out,
      samples,
      heaps,
      dbCheck,
      restart,
      propagationMs: propagation,
      propagationError,
      profiles: profiles.map((f) => ({ file: path.relative(REPO_ROOT, f), ...summariseCpuProfile(f) })),
    });
    return result;
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await db.end().catch(() => undefined);
    for (const n of nodeDirs) {
      fs.rmSync(n.dataDir, { recursive: true, force: true });
      fs.rmSync(n.probeFile, { force: true });
    }
  }
}

interface RestartResult {
  /** Node A: from the end of the load until its health check answers within 100 ms (null: not within BENCH_420_SETTLE_S). */
  settleMs: number | null;
  /** Spawn → first answer of the bare Node server, just before (the machine's start-up floor at that moment). */
  bareStartMs: number;
  /** Spawn → /api/health 200, and → a store's home page 200. */
  healthMs: number | null;
  pageMs: number | null;
  ok: boolean;
  error?: string;
}

// ---------------------------------------------------------------- the report

interface Bucket {
  latency: Record<'page' | 'search' | 'api' | 'order' | 'journey' | 'bare', number[]>;
  count: Record<'page' | 'search' | 'api' | 'order' | 'bare', number>;
  byNode: { requests: number; errors: number }[];
  errors: number;
  refusals: number;
  ordersAccepted: number;
  ordersScheduled: number;
  ordersMissed: number;
  ordersLate: number;
  ordersDropped: number;
  journeysFailed: number;
  ordersRefused: number;
  browseScheduled: number;
  browseMissed: number;
  startLagMs: number[];
}
interface LoadOut {
  warmupS: number;
  seconds: number;
  measuredMs: number;
  minutes: Record<string, Bucket>;
  errorSamples: Record<string, number>;
  refusalKinds: Record<string, number>;
  accepted: { key: string; host: string; sku: string; contended: boolean; measured: boolean }[];
  /** Requests (journeys, page views) still unanswered BENCH_420_DRAIN_S after the window: left, not awaited. */
  unfinished: number;
}

function merge(buckets: Bucket[]): Bucket {
  const m: Bucket = JSON.parse(JSON.stringify(buckets[0]));
  for (const b of buckets.slice(1)) {
    for (const k of Object.keys(m.latency) as (keyof Bucket['latency'])[]) m.latency[k].push(...b.latency[k]);
    for (const k of Object.keys(m.count) as (keyof Bucket['count'])[]) m.count[k] += b.count[k];
    b.byNode.forEach((n, i) => {
      m.byNode[i].requests += n.requests;
      m.byNode[i].errors += n.errors;
    });
    for (const k of [
      'errors',
      'refusals',
      'ordersAccepted',
      'ordersScheduled',
      'ordersMissed',
      'ordersLate',
      'ordersDropped',
      'journeysFailed',
      'browseScheduled',
      'browseMissed',
    ] as const)
      m[k] += b[k];
    m.startLagMs.push(...b.startLagMs);
  }
  return m;
}

function figures(b: Bucket, seconds: number) {
  const requests = b.count.page + b.count.search + b.count.api + b.count.order;
  const api = [...b.latency.search, ...b.latency.api, ...b.latency.order];
  return {
    seconds: r1(seconds),
    requestsPerS: r1(requests / seconds),
    // Orders placed (200) per second, and orders answered (placed or refused as expected, e.g. sold out) per second.
    ordersPerS: r1(b.ordersAccepted / seconds),
    ordersAnsweredPerS: r1((b.ordersAccepted + b.ordersRefused) / seconds),
    ordersRefused: b.ordersRefused,
    ordersScheduled: b.ordersScheduled,
    ordersAccepted: b.ordersAccepted,
    ordersMissed: b.ordersMissed,
    ordersLate: b.ordersLate,
    ordersDropped: b.ordersDropped,
    journeysFailed: b.journeysFailed,
    refusals: b.refusals,
    errors: b.errors,
    browseMissed: b.browseMissed,
    byNode: b.byNode,
    startLag: latency(b.startLagMs),
    pages: latency(b.latency.page),
    search: latency(b.latency.search),
    orderSteps: latency(b.latency.api),
    orderSave: latency(b.latency.order),
    api: latency(api),
    journey: latency(b.latency.journey),
    bare: latency(b.latency.bare),
  };
}

function summarise(r: {
  stores: number;
  products: number;
  seedMs: number | null;
  database: string;
  catalogMaxStores: string;
  rates: {
    ordersPerS: number;
    browsePerS: number;
    barePerS: number;
    warmupS: number;
    seconds: number;
    activeStores: number;
    storeSkew: number;
  };
  readyMs: number[];
  primeMs: number[];
  load: { start: number; end: number };
  out: LoadOut;
  samples: Sample[];
  heaps: { at: string; t: number; nodes: ({ heapUsedMiB: number; heapTotalMiB: number; rssMiB: number } | null)[] }[];
  dbCheck: Record<string, unknown> & { ok: boolean };
  restart: RestartResult;
  propagationMs: number[];
  propagationError: string | null;
  profiles: unknown[];
}) {
  const measured = Object.entries(r.out.minutes)
    .filter(([m]) => Number(m) >= 0)
    .sort(([a], [b]) => Number(a) - Number(b));
  const totalS = r.out.measuredMs / 1000;
  const perMinute = measured.map(([m, b]) => {
    const secs = Math.min(60, totalS - Number(m) * 60);
    const from = r.rates.warmupS + Number(m) * 60;
    const inMinute = r.samples.filter((s) => s.t >= from && s.t <= from + secs + 0.5);
    const first = inMinute[0];
    const last = inMinute[inMinute.length - 1];
    const dt = first && last ? last.t - first.t : 0;
    const cpu = (a: number, b: number) => (dt > 0 ? Math.round(((b - a) / dt) * 100) : null);
    return {
      minute: Number(m) + 1,
      ...figures(b, secs),
      rssMiB: last ? last.nodes.map((n) => n.rssMiB) : [],
      load1: last?.load1 ?? null,
      cpuPercent:
        first && last
          ? {
              nodeA: cpu(first.nodes[0].cpuS, last.nodes[0].cpuS),
              nodeB: cpu(first.nodes[1].cpuS, last.nodes[1].cpuS),
              generator: cpu(first.generatorCpuS, last.generatorCpuS),
              postgres: cpu(first.postgresCpuS, last.postgresCpuS),
              redis: cpu(first.redisCpuS, last.redisCpuS),
            }
          : null,
    };
  });
  const overall = figures(merge(measured.map(([, b]) => b)), totalS);
  const m1 = perMinute[0];
  const mN = perMinute[perMinute.length - 1];
  const memory = {
    rssFirstMinuteMiB: m1?.rssMiB ?? [],
    rssLastMinuteMiB: mN?.rssMiB ?? [],
    // Live heap after a full GC (MiB, node A / B): end of the first measured minute, right after the load.
    liveHeap: r.heaps.map((h) => ({ at: h.at, t: h.t, heapUsedMiB: h.nodes.map((n) => n?.heapUsedMiB ?? null) })),
    rssRatioLastToFirst: (mN?.rssMiB ?? []).map((v, i) => (v && m1?.rssMiB[i] ? r2(v / m1.rssMiB[i]!) : null)),
  };
  const sortedProp = [...r.propagationMs].sort((a, b) => a - b);
  const goals = {
    zeroErrors: { target: 0, actual: overall.errors, met: overall.errors === 0 },
    ordersSustained: {
      target: r.rates.ordersPerS,
      actual: overall.ordersPerS,
      missed: overall.ordersMissed,
      // Every order started on time and every journey ended in an order or an expected refusal.
      met: overall.ordersMissed === 0 && overall.journeysFailed === 0,
    },
    pagesP99: { target: GOALS.p99Ms, actual: overall.pages.p99, met: (overall.pages.p99 ?? Infinity) < GOALS.p99Ms },
    apiP99: { target: GOALS.p99Ms, actual: overall.api.p99, met: (overall.api.p99 ?? Infinity) < GOALS.p99Ms },
    noOversell: { met: r.dbCheck.ok },
    memoryFlat: {
      rssRatio: memory.rssRatioLastToFirst,
      met: memory.rssRatioLastToFirst.length === 2 && memory.rssRatioLastToFirst.every((x) => x !== null && x <= 1.1),
    },
    restart: { target: `< ${GOALS.restartS} s`, actualMs: r.restart.pageMs, met: r.restart.ok },
    propagation: {
      target: `< ${GOALS.propagationMs} ms`,
      maxMs: sortedProp[sortedProp.length - 1] ?? null,
      met: r.propagationError === null && (sortedProp[sortedProp.length - 1] ?? Infinity) < GOALS.propagationMs,
    },
  };
  const result = {
    at: new Date().toISOString(),
    stores: r.stores,
    productsPerStore: r.products,
    database: `postgres ${r.database}`,
    seedMs: r.seedMs,
    catalogMaxStores: r.catalogMaxStores,
    rates: r.rates,
    nodesReadyMs: r.readyMs,
    nodesPrimedMs: r.primeMs,
    loadAverage: r.load,
    machine: { cpus: os.cpus().length, node: process.version },
    overall,
    perMinute,
    memory,
    unfinishedAfterDrain: r.out.unfinished,
    errorSamples: r.out.errorSamples,
    refusalKinds: r.out.refusalKinds,
    dbCheck: r.dbCheck,
    restart: r.restart,
    propagationMs: r.propagationMs,
    propagationError: r.propagationError,
    goals,
    samples: r.samples,
    heaps: r.heaps,
    profiles: r.profiles,
  };
  const file = path.join(RESULTS, `fourtwenty-${r.stores}x${r.products}.json`);
  fs.writeFileSync(file, JSON.stringify(result, null, 2) + '\n');

  const p = (l: { p50: number | null; p95: number | null; p99: number | null }) => `${l.p50 ?? '–'} / ${l.p95 ?? '–'} / ${l.p99 ?? '–'}`;
  console.log(
    `\nfourtwenty: ${r.stores} × ${r.products}, 2 nodes on PostgreSQL + Redis, CATALOG_MAX_STORES ${r.catalogMaxStores}; ${r.rates.ordersPerS} orders/s + ${r.rates.browsePerS} browse/s scheduled over ${r.rates.activeStores} stores (skew ${r.rates.storeSkew}); load average ${r.load.start} → ${r.load.end} on ${os.cpus().length} cores`,
  );
  console.table(
    Object.fromEntries(
      [
        ...perMinute.map((m) => [`minute ${m.minute}`, m] as const),
        ['overall', { ...overall, minute: 'all', rssMiB: mN?.rssMiB, load1: r.load.end, cpuPercent: null }] as const,
      ].map(([k, m]) => [
        k,
        {
          'req/s': m.requestsPerS,
          'orders/s placed': m.ordersPerS,
          'answered/s': m.ordersAnsweredPerS,
          missed: m.ordersMissed,
          refused: m.refusals,
          errors: m.errors,
          'pages p50/95/99': p(m.pages),
          'API p50/95/99': p(m.api),
          'order save p50/95/99': p(m.orderSave),
          'bare p99': m.bare.p99 ?? '–',
          'RSS A/B MiB': (m.rssMiB ?? []).join(' / '),
          'CPU % A/B/gen/pg': m.cpuPercent
            ? `${m.cpuPercent.nodeA}/${m.cpuPercent.nodeB}/${m.cpuPercent.generator}/${m.cpuPercent.postgres}`
            : '',
          load: m.load1 ?? '',
        },
      ]),
    ),
  );
  console.log('refusals (expected):', r.out.refusalKinds);
  if (r.out.unfinished)
    console.log(`unfinished ${r.out.unfinished} requests/journeys when the generator stopped waiting (BENCH_420_DRAIN_S)`);
  if (Object.keys(r.out.errorSamples).length) console.log('errors:', r.out.errorSamples);
  console.log(
    'RSS A/B MiB, first → last measured minute:',
    `${memory.rssFirstMinuteMiB.join(' / ')} → ${memory.rssLastMinuteMiB.join(' / ')} (× ${memory.rssRatioLastToFirst.join(' / ')}); live heap after a full GC:`,
    r.heaps.map((h) => `${h.at} (t ${h.t} s): ${h.nodes.map((n) => n?.heapUsedMiB ?? '?').join(' / ')} MiB`).join('; '),
  );
  console.log('database check:', JSON.stringify(r.dbCheck));
  console.log(
    `node A settled ${r.restart.settleMs ?? 'not'} ms after the load; restart (kill -9 node B): health ${r.restart.healthMs} ms, a store page ${r.restart.pageMs} ms (bare server spawn → answer ${r.restart.bareStartMs} ms)` +
      (r.restart.error ? ` — failed: ${r.restart.error}` : '') +
      `; change through A seen on B: ${r.propagationMs.join(', ')} ms` +
      (r.propagationError ? ` — failed: ${r.propagationError}` : ''),
  );
  console.table(goals);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runFourTwentySuite();
  process.exit(0);
}
