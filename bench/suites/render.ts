import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, type LoadResult } from '../lib/http-load.ts';
import { freePort, REPO_ROOT, startBareServer, startServer, type Running } from '../lib/processes.ts';
import { summariseCpuProfile } from '../lib/cpuprofile-summary.ts';
import { undoInstantDedupe } from '../lib/render-normalise.ts';

/**
 * Uncached SSR renders (issue 15: "at least twice today's rate for home, category and product
 * pages, with the same HTML"). `BENCH_ONLY=render npm run bench`, or `npx tsx bench/suites/render.ts`.
 *
 * Every request carries a new `?n=<counter>` query: the output cache keeps no URL with a query
 * string (ssr/output-cache.ts), so each answer is a full render. The baseline is the bare Node
 * server (bench/lib/bare-server.mjs) measured in the same run.
 *
 * Same HTML: each page is fetched once for a fixed URL (`?n=0`, the shopper's cookies), normalised
 * (`normaliseHtml`: nonce, port, instants, asset hashes, one React Router flag) and hashed. The hashes are compared with
 * bench/render-html.json, recorded from main at 8ea2ad7 before any render change
 * (`BENCH_RENDER_RECORD=1` records again); the normalised pages go to bench/results/render-html/
 * for a diff when a hash moves. Two runs of unchanged code give the same hashes.
 *
 * BENCH_RENDER_PROFILE=1 runs the server with `--cpu-prof` during the timed loads and prints the
 * profile's top self-time and inclusive functions (bench/lib/cpuprofile-summary.ts).
 * BENCH_RENDER_PAGES=home,product limits the run (and so the profile) to those pages.
 *
 * A/B: BENCH_RENDER_BASELINE_DIR=<a built checkout of other code> (e.g. main: `git worktree add
 * /tmp/base main && cd /tmp/base && npm ci && npm run build`) also starts that checkout's server
 * and loads both in alternating rounds (BENCH_RENDER_ROUNDS, default 3; the order flips each
 * round), reporting each page's median req/s of both and the median of the per-round ratios, so
 * a loaded machine slows both alike. The baseline's HTML hashes are checked too.
 */
const ALL_PAGES = [
  { kind: 'home', path: '/' },
  { kind: 'category', path: '/menu/flower' },
  { kind: 'product', path: '/p/FL-BLUE-DREAM/blue-dream' },
] as const;
const PAGES = process.env.BENCH_RENDER_PAGES
  ? ALL_PAGES.filter((p) => process.env.BENCH_RENDER_PAGES!.split(',').includes(p.kind))
  : ALL_PAGES;

const EXPECTED = path.join(import.meta.dirname, '../render-html.json');
const PROFILE_DIR = path.join(import.meta.dirname, '../results/render-profile');
/** The normalised pages of the last run, to diff when a hash moves. */
const HTML_DIR = path.join(import.meta.dirname, '../results/render-html');

/**
 * What differs between two renders of the same page on the same code, and nothing else: the CSP
 * nonce (random per answer), the server's port (canonical/og/JSON-LD URLs), instants (the root's
 * `renderedAt`, the product page's `now`, and the demo seed's dates, written relative to the time
 * it ran) and the content hash in built asset names (they move whenever any client code does).
 */
export function normaliseHtml(html: string, nonce: string | undefined): string {
  // The root's renderedAt and the product page's now in the same millisecond: written as when they differ.
  html = undoInstantDedupe(html);
  return (nonce ? html.split(nonce).join('__NONCE__') : html)
    // React Router copies its future flags into the page for the browser's router. Loaders take the
    // server's Request since 2026-11-26 (apps/web/react-router.config.ts), a flag the browser's router
    // does not read: the one difference in pages rendered before and after, so both are written as before.
    .replace('"v8_passThroughRequests":true', '"v8_passThroughRequests":false')
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://HOST')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'TIME')
    .replace(/(\/assets\/[\w.-]+?)-[\w-]{8}\.(js|css)/g, '$1.$2');
}

function nonceOf(res: Response): string | undefined {
  return /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
}

/** The storefront server of another checkout (built), on a fresh demo database, as startServer does for this one. */
async function startServerAt(root: string, nodeArgs: string[] = []): Promise<Running> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-bench-'));
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', SHUTDOWN_DRAIN_MS: '0' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`baseline server in ${root} did not start`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { port, child, stop };
}

const shopperHeaders = { host: 'downtown.localhost', cookie: 'verdant_age=1; verdant_license=recreational' };

async function fetchPage(port: number, pagePath: string): Promise<{ res: Response; html: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${pagePath}?n=0`, { headers: shopperHeaders });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`${pagePath} answered ${res.status}`);
  return { res, html };
}

/**
 * Each page's normalised HTML hash, from its first render and from a repeat render after the first
 * one's fragments (product cards, app/lib/fragment-cache.ts) went into the cache: the HTML check
 * holds only if both match what was recorded.
 */
async function pageHashes(port: number, dir?: string): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const page of PAGES) {
    for (const pass of ['first', 'repeat'] as const) {
      // The fragment cache fills after the turn that rendered the page: let it.
      if (pass === 'repeat') await new Promise((resolve) => setTimeout(resolve, 100));
      const { res, html } = await fetchPage(port, page.path);
      const normal = normaliseHtml(html, nonceOf(res));
      const hash = crypto.createHash('sha256').update(normal).digest('hex');
      if (pass === 'first') hashes[page.kind] = hash;
      else if (hash !== hashes[page.kind]) {
        console.log(`${page.kind}: the repeat render differs from the first`);
        hashes[page.kind] = `repeat differs: ${hash}`;
      }
      if (dir && (pass === 'first' || hash !== hashes[page.kind])) {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, `${page.kind}${pass === 'repeat' ? '.repeat' : ''}.html`), normal);
      }
    }
  }
  return hashes;
}

/** CPU time (user + system, all threads) a process has used so far, in seconds (Linux). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Uncached renders of one page: a 1 s warm-up, then BENCH_SECONDS (default 8) of
 * BENCH_RENDER_CONNECTIONS (default 50) connections.
 * Besides req/s, renders per CPU-second of the server process: on a machine shared with other
 * work, req/s moves with what else runs, while the CPU a render costs moves much less.
 */
async function timedRenders(server: Running, pagePath: string): Promise<{ rps: number; perCpuSec: number }> {
  let n = 0;
  const opts = {
    url: `http://127.0.0.1:${server.port}${pagePath}`,
    headers: shopperHeaders,
    connections: Number(process.env.BENCH_RENDER_CONNECTIONS ?? 50),
    requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: `${pagePath}?n=${Date.now()}-${++n}` }) }],
  };
  await autocannon({ ...opts, duration: 1 });
  const cpu0 = cpuSeconds(server.child.pid!);
  const r = await autocannon({ ...opts, duration: Number(process.env.BENCH_SECONDS ?? 8) });
  const cpu = cpuSeconds(server.child.pid!) - cpu0;
  if (r.errors || r.non2xx) throw new Error(`${pagePath}: ${r.errors} errors, ${r.non2xx} non-2xx answers`);
  return { rps: Math.round(r.requests.average), perCpuSec: Math.round(r.requests.total / cpu) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** BENCH_RENDER_BASELINE_DIR set: this checkout's server against another's, alternating rounds. */
export async function runRenderAb(baselineDir: string) {
  const rounds = Number(process.env.BENCH_RENDER_ROUNDS ?? 3);
  const loadBefore = fs.readFileSync('/proc/loadavg', 'utf8').trim();
  // Both started the same way; BENCH_RENDER_NODE_ARGS (e.g. `--max-semi-space-size=64`) go to ours only.
  const ours = await startServerAt(REPO_ROOT, (process.env.BENCH_RENDER_NODE_ARGS ?? '').split(' ').filter(Boolean));
  const base = await startServerAt(baselineDir).catch(async (error: unknown) => {
    await ours.stop();
    throw error;
  });
  const expected = JSON.parse(fs.readFileSync(EXPECTED, 'utf8')) as Record<string, string>;
  const perPage: Record<string, Record<'ours' | 'base' | 'ratios' | 'oursCpu' | 'baseCpu' | 'cpuRatios', number[]>> = {};
  let sameHtml: Record<string, { ours: boolean; base: boolean }> = {};
  try {
    const [h, hb] = [await pageHashes(ours.port, HTML_DIR), await pageHashes(base.port, `${HTML_DIR}-baseline`)];
    sameHtml = Object.fromEntries(PAGES.map((p) => [p.kind, { ours: h[p.kind] === expected[p.kind], base: hb[p.kind] === expected[p.kind] }]));
    console.log('same HTML as recorded:', sameHtml);
    // The recorded pages hold the footer's open-now line of the hour they were recorded at ("Open
    // now · closes 9 PM"): at another hour both servers differ from them alike. Both servers'
    // pages of this run, first and repeat render, compared with each other:
    console.log('same HTML as the baseline:', Object.fromEntries(PAGES.map((p) => [p.kind, h[p.kind] === hb[p.kind]])));
    for (let round = 0; round < rounds; round++) {
      for (const page of PAGES) {
        const order = round % 2 === 0 ? (['base', 'ours'] as const) : (['ours', 'base'] as const);
        const got: Record<string, { rps: number; perCpuSec: number }> = {};
        for (const who of order) {
          const server = who === 'ours' ? ours : base;
          got[who] = await timedRenders(server, page.path);
        }
        const entry = (perPage[page.kind] ??= { ours: [], base: [], ratios: [], oursCpu: [], baseCpu: [], cpuRatios: [] });
        entry.ours.push(got.ours.rps);
        entry.base.push(got.base.rps);
        entry.ratios.push(got.ours.rps / got.base.rps);
        entry.oursCpu.push(got.ours.perCpuSec);
        entry.baseCpu.push(got.base.perCpuSec);
        entry.cpuRatios.push(got.ours.perCpuSec / got.base.perCpuSec);
        console.log(
          `round ${round + 1} ${page.kind}: baseline ${got.base.rps} req/s, ${got.base.perCpuSec} per CPU-s; ` +
            `ours ${got.ours.rps} req/s, ${got.ours.perCpuSec} per CPU-s (x${(got.ours.rps / got.base.rps).toFixed(2)} req/s, ` +
            `x${(got.ours.perCpuSec / got.base.perCpuSec).toFixed(2)} per CPU-s)`,
        );
      }
    }
  } finally {
    await Promise.all([ours.stop(), base.stop()]);
  }
  const loadAfter = fs.readFileSync('/proc/loadavg', 'utf8').trim();
  const rows = Object.entries(perPage).map(([kind, e]) => ({
    page: kind,
    'base req/s': median(e.base),
    'ours req/s': median(e.ours),
    'x req/s': Number(median(e.ratios).toFixed(2)),
    'base /CPU-s': median(e.baseCpu),
    'ours /CPU-s': median(e.oursCpu),
    'x /CPU-s': Number(median(e.cpuRatios).toFixed(2)),
    'rounds (x /CPU-s)': e.cpuRatios.map((r) => r.toFixed(2)).join(' '),
  }));
  console.table(rows);
  console.log(`load average before: ${loadBefore}; after: ${loadAfter}`);
  return { baselineDir, rounds, rows, sameHtml, loadBefore, loadAfter };
}

export async function runRenderSuite() {
  if (process.env.BENCH_RENDER_BASELINE_DIR) return runRenderAb(process.env.BENCH_RENDER_BASELINE_DIR);
  const profile = process.env.BENCH_RENDER_PROFILE === '1';
  if (profile) fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const server = await startServer({}, undefined, profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []);
  const bare = await startBareServer().catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  const shopper = shopperHeaders;
  const rows: (LoadResult & { kind: string })[] = [];
  let hashes: Record<string, string> = {};
  const before = profile ? new Set(fs.readdirSync(PROFILE_DIR)) : new Set<string>();
  try {
    hashes = await pageHashes(server.port, HTML_DIR);
    rows.push({ kind: 'baseline', ...(await load({ name: 'bare node http (baseline)', url: `http://127.0.0.1:${bare.port}/` })) });
    for (const page of PAGES) {
      const url = `http://127.0.0.1:${server.port}${page.path}`;
      rows.push({
        kind: page.kind,
        ...(await load({ name: `GET ${page.path}?n (${page.kind}, render)`, url, headers: shopper, uniqueQuery: true })),
      });
    }
  } finally {
    await Promise.all([bare.stop(), server.stop()]);
  }
  const baseline = rows[0].requestsPerSec;
  const table = rows.map((r) => ({ ...r, ratioToBare: Number((r.requestsPerSec / baseline).toFixed(4)) }));
  console.table(
    table.map((r) => ({
      page: r.name,
      'req/s': r.requestsPerSec,
      'p50 ms': r.p50Ms,
      'p99 ms': r.p99Ms,
      'x bare': r.ratioToBare,
      errors: r.errors + r.non2xx,
    })),
  );

  let sameHtml: Record<string, boolean> | undefined;
  if ((process.env.BENCH_RENDER_RECORD === '1' || !fs.existsSync(EXPECTED)) && PAGES.length === ALL_PAGES.length) {
    fs.writeFileSync(EXPECTED, JSON.stringify(hashes, null, 2) + '\n');
    console.log(`recorded HTML hashes in ${path.relative(process.cwd(), EXPECTED)}`);
  } else {
    const expected = JSON.parse(fs.readFileSync(EXPECTED, 'utf8')) as Record<string, string>;
    sameHtml = Object.fromEntries(PAGES.map((p) => [p.kind, expected[p.kind] === hashes[p.kind]]));
    console.log('same HTML as recorded:', sameHtml);
  }

  let profileSummary: ReturnType<typeof summariseCpuProfile> | undefined;
  if (profile) {
    const file = fs.readdirSync(PROFILE_DIR).find((f) => f.endsWith('.cpuprofile') && !before.has(f));
    if (file) {
      profileSummary = summariseCpuProfile(path.join(PROFILE_DIR, file), 15);
      console.log(`profile: ${path.relative(process.cwd(), path.join(PROFILE_DIR, file))}`);
      console.table(profileSummary.byFunction.slice(0, 15));
      console.table(profileSummary.inclusive.slice(0, 15));
    }
  }
  return {
    rows: table,
    hashes,
    sameHtml,
    profile: profileSummary && { byFunction: profileSummary.byFunction.slice(0, 15), inclusive: profileSummary.inclusive.slice(0, 15) },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) await runRenderSuite();
