/**
 * Lighthouse 12.8.2 (node API, default config = mobile preset: simulated slow 4G and 4x CPU
 * slowdown) on the home, a category and a product page of the demo store `downtown`, served by the
 * real server on a fresh demo database. Each page runs RUNS times in a new headless Chromium and
 * the table reports medians (each column its own median): the machine is shared, so performance
 * scores move with other work on it; Lighthouse's own CPU `benchmarkIndex` is recorded per run to
 * show how contended the CPU was.
 *
 * The shopper is a returning one: the age-gate cookies go in as an extra `Cookie` header on every
 * request, so the page measured is the store page, not the gate overlay.
 *
 * Initial JavaScript: every script request Lighthouse saw during the page load (its network-requests
 * audit: the entry, its modulepreloads and anything imported before the page went idle). The
 * server sends the smallest copy made at build time (scripts/compress-assets.mjs) that the browser
 * accepts — over plain http Chromium asks for gzip, not brotli — so `transfer` is what crossed the
 * wire (gzip level 9, plus headers); `gz` gzips the same files from build/client (zlib level 6, the
 * usual server default). Targets (issue 15): performance ≥ 95, accessibility 100, initial JS ≤ 100 KiB gz.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { REPO_ROOT, startServer } from '../lib/processes.ts';

const STORE_HOST = 'downtown.localhost';
const COOKIE = 'verdant_age=1; verdant_license=recreational';
const RUNS = Number(process.env.BENCH_LH_RUNS ?? 3);
// BENCH_LH_PAGES=category,product runs only those pages (default: all three).
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'category', path: '/menu/flower' },
  { name: 'product', path: '/p/FL-BLUE-DREAM/blue-dream' },
].filter((p) => !process.env.BENCH_LH_PAGES || process.env.BENCH_LH_PAGES.split(',').includes(p.name));
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const CLIENT_DIR = path.join(REPO_ROOT, 'apps/web/build/client');
const RESULTS_DIR = path.join(REPO_ROOT, 'bench/results');
const TARGETS = { performance: 95, accessibility: 100, initialJsGzKiB: 100 };

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
  statusCode?: number;
}

interface Run {
  scores: Record<(typeof CATEGORIES)[number], number>;
  metrics: { fcpMs: number; lcpMs: number; tbtMs: number; cls: number; speedIndexMs: number };
  benchmarkIndex: number;
  html: { transferBytes: number; bytes: number };
  scripts: { url: string; transferBytes: number; bytes: number; gzBytes: number }[];
  /** Audits that did not pass (score < 1) in a scored category, for the report. */
  flagged: { id: string; category: string; score: number | null; displayValue?: string }[];
  /** The whole Lighthouse report (JSON), kept for the median run only. */
  report: string;
}

const gzCache = new Map<string, number>();
function gzSizeOf(url: string): number {
  const { pathname } = new URL(url);
  const cached = gzCache.get(pathname);
  if (cached !== undefined) return cached;
  const file = path.join(CLIENT_DIR, pathname);
  const size = fs.existsSync(file) ? zlib.gzipSync(fs.readFileSync(file), { level: 6 }).length : NaN;
  gzCache.set(pathname, size);
  return size;
}

/** One Lighthouse run in a new tab; Lighthouse clears the origin's cache and storage first. */
async function runOnce(url: string, chromePort: number): Promise<Run> {
  const result = await lighthouse(url, {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    extraHeaders: { Cookie: COOKIE },
  });
  if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id];
  const num = (id: string) => Math.round(Number(audit(id)?.numericValue ?? NaN));
  const items = ((audit('network-requests')?.details as { items?: NetworkItem[] } | undefined)?.items ?? []).filter(
    (i) => i.statusCode === undefined || i.statusCode < 400,
  );
  const doc = items.find((i) => i.resourceType === 'Document');
  const origin = new URL(url).origin;
  const scripts = items
    .filter((i) => i.resourceType === 'Script' && i.url.startsWith(origin))
    .map((i) => ({ url: new URL(i.url).pathname, transferBytes: i.transferSize ?? 0, bytes: i.resourceSize ?? 0, gzBytes: gzSizeOf(i.url) }));
  const flagged: Run['flagged'] = [];
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const a = audit(ref.id);
      if (!a || a.scoreDisplayMode === 'notApplicable' || a.scoreDisplayMode === 'informative' || a.scoreDisplayMode === 'manual') continue;
      if (a.score !== null && a.score >= 1) continue;
      if (category === 'performance' && ref.weight === 0 && a.score !== null && a.score >= 0.9) continue;
      flagged.push({ id: a.id, category, score: a.score, displayValue: a.displayValue });
    }
  }
  return {
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? NaN) * 100)])) as Run['scores'],
    metrics: {
      fcpMs: num('first-contentful-paint'),
      lcpMs: num('largest-contentful-paint'),
      tbtMs: num('total-blocking-time'),
      cls: Number(Number(audit('cumulative-layout-shift')?.numericValue ?? NaN).toFixed(3)),
      speedIndexMs: num('speed-index'),
    },
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    html: { transferBytes: doc?.transferSize ?? NaN, bytes: doc?.resourceSize ?? NaN },
    scripts,
    flagged,
    report: typeof result.report === 'string' ? result.report : JSON.stringify(lhr),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const kib = (bytes: number) => Number((bytes / 1024).toFixed(1));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export async function runLighthouseSuite() {
  // BENCH_LH_PORT pins the server's port (and BENCH_LH_PORT + 1 Chromium's debugging port).
  const fixedPort = process.env.BENCH_LH_PORT ? Number(process.env.BENCH_LH_PORT) : undefined;
  const server = await startServer({}, fixedPort);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox'],
    ...(fixedPort ? { port: fixedPort + 1 } : {}),
  });
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const loadBefore = os.loadavg();
  const pages: Record<string, unknown>[] = [];
  try {
    for (const page of PAGES) {
      // Sanity (and warm-up): the page answers 200 with the store page, not the age gate.
      const res = await fetch(`http://127.0.0.1:${server.port}${page.path}`, { headers: { host: STORE_HOST, cookie: COOKIE } });
      const html = await res.text();
      if (res.status !== 200 || html.includes('inert=""') || !html.includes('Verdant Downtown')) {
        throw new Error(`${page.path} answered ${res.status} (or showed the age gate) before Lighthouse ran`);
      }
      // Warm the server's image cache (resized on first request) so no run pays for it.
      const images = [...new Set([...html.matchAll(/src="(\/img\/[^"]+)"/g)].map((m) => m[1]))];
      await Promise.all(images.map((src) => fetch(`http://127.0.0.1:${server.port}${src}`, { headers: { host: STORE_HOST } }).then((r) => r.arrayBuffer())));
      const url = `http://${STORE_HOST}:${server.port}${page.path}`;
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) {
        const run = await runOnce(url, chrome.port);
        runs.push(run);
        console.log(
          `lighthouse ${page.name} #${i + 1}: perf ${run.scores.performance} a11y ${run.scores.accessibility} bp ${run.scores['best-practices']} seo ${run.scores.seo} ` +
            `LCP ${run.metrics.lcpMs} ms TBT ${run.metrics.tbtMs} ms (benchmarkIndex ${run.benchmarkIndex})`,
        );
      }
      const medianRun = [...runs].sort((a, b) => a.scores.performance - b.scores.performance)[Math.floor(runs.length / 2)];
      // The full report of the median run, next to latest.json (git-ignored), for the details.
      fs.writeFileSync(path.join(RESULTS_DIR, `lighthouse-${page.name}.json`), medianRun.report);
      const scores = Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((r) => r.scores[c]))])) as Run['scores'];
      const initialJs = {
        method: 'Script requests in Lighthouse network-requests; gz = zlib level 6 of the same build/client files',
        files: medianRun.scripts.length,
        transferKiB: kib(sum(medianRun.scripts.map((s) => s.transferBytes))),
        rawKiB: kib(sum(medianRun.scripts.map((s) => s.bytes))),
        gzKiB: kib(sum(medianRun.scripts.map((s) => s.gzBytes))),
        scripts: medianRun.scripts,
      };
      pages.push({
        page: page.name,
        path: page.path,
        scores,
        perfRuns: runs.map((r) => r.scores.performance),
        metrics: Object.fromEntries(
          Object.keys(medianRun.metrics).map((k) => [k, median(runs.map((r) => r.metrics[k as keyof Run['metrics']]))]),
        ),
        benchmarkIndex: runs.map((r) => r.benchmarkIndex),
        htmlKiB: { decoded: kib(medianRun.html.bytes), transfer: kib(medianRun.html.transferBytes) },
        initialJs,
        flagged: medianRun.flagged,
        targets: {
          performanceAtLeast95: { target: TARGETS.performance, actual: scores.performance, met: scores.performance >= TARGETS.performance },
          accessibility100: { target: TARGETS.accessibility, actual: scores.accessibility, met: scores.accessibility >= TARGETS.accessibility },
          initialJsAtMost100KiBGz: { target: TARGETS.initialJsGzKiB, actual: initialJs.gzKiB, met: initialJs.gzKiB <= TARGETS.initialJsGzKiB },
        },
      });
    }
  } finally {
    chrome.kill();
    await server.stop();
  }
  const loadAfter = os.loadavg();
  console.table(
    pages.map((p: any) => ({
      page: p.page,
      perf: p.scores.performance,
      a11y: p.scores.accessibility,
      'best-pr.': p.scores['best-practices'],
      seo: p.scores.seo,
      'LCP ms': p.metrics.lcpMs,
      'TBT ms': p.metrics.tbtMs,
      'JS KiB gz': p.initialJs.gzKiB,
      'JS KiB sent': p.initialJs.transferKiB,
      'HTML KiB': p.htmlKiB.decoded,
      'HTML KiB sent': p.htmlKiB.transfer,
      'perf runs': p.perfRuns.join('/'),
    })),
  );
  for (const p of pages as any[]) {
    if (p.flagged.length) console.log(`${p.page} flagged: ${p.flagged.map((f: Run['flagged'][number]) => `${f.id}${f.displayValue ? ` (${f.displayValue})` : ''}`).join(', ')}`);
  }
  console.log(`load average 1 min: ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after, on ${os.cpus().length} CPUs`);
  return {
    runsPerPage: RUNS,
    preset: 'mobile (Lighthouse 12.8.2 default config)',
    loadAverage: { before: loadBefore, after: loadAfter },
    pages,
  };
}
