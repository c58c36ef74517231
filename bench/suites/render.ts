import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { load, type LoadResult } from '../lib/http-load.ts';
import { startBareServer, startServer } from '../lib/processes.ts';
import { summariseCpuProfile } from '../lib/cpuprofile-summary.ts';

/**
 * Uncached SSR renders (issue 15: "at least twice today's rate for home, category and product
 * pages, with the same HTML"). `BENCH_ONLY=render npm run bench`, or `npx tsx bench/suites/render.ts`.
 *
 * Every request carries a new `?n=<counter>` query: the output cache keeps no URL with a query
 * string (ssr/output-cache.ts), so each answer is a full render. The baseline is the bare Node
 * server (bench/lib/bare-server.mjs) measured in the same run.
 *
 * Same HTML: each page is fetched once for a fixed URL (`?n=0`, the shopper's cookies), normalised
 * (`normaliseHtml`: nonce, port, instants, asset hashes) and hashed. The hashes are compared with
 * bench/render-html.json, recorded from main at 8ea2ad7 before any render change
 * (`BENCH_RENDER_RECORD=1` records again); the normalised pages go to bench/results/render-html/
 * for a diff when a hash moves. Two runs of unchanged code give the same hashes.
 *
 * BENCH_RENDER_PROFILE=1 runs the server with `--cpu-prof` during the timed loads and prints the
 * profile's top self-time and inclusive functions (bench/lib/cpuprofile-summary.ts).
 */
const PAGES = [
  { kind: 'home', path: '/' },
  { kind: 'category', path: '/menu/flower' },
  { kind: 'product', path: '/p/FL-BLUE-DREAM/blue-dream' },
] as const;

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
  return (nonce ? html.split(nonce).join('__NONCE__') : html)
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://HOST')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'TIME')
    .replace(/(\/assets\/[\w.-]+?)-[\w-]{8}\.(js|css)/g, '$1.$2');
}

function nonceOf(res: Response): string | undefined {
  return /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
}

export async function runRenderSuite() {
  const profile = process.env.BENCH_RENDER_PROFILE === '1';
  if (profile) fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const server = await startServer({}, undefined, profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []);
  const bare = await startBareServer().catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  const host = 'downtown.localhost';
  const shopper = { host, cookie: 'verdant_age=1; verdant_license=recreational' };
  const rows: (LoadResult & { kind: string })[] = [];
  const hashes: Record<string, string> = {};
  const before = profile ? new Set(fs.readdirSync(PROFILE_DIR)) : new Set<string>();
  try {
    for (const page of PAGES) {
      const res = await fetch(`http://127.0.0.1:${server.port}${page.path}?n=0`, { headers: shopper });
      const html = await res.text();
      if (res.status !== 200) throw new Error(`${page.path} answered ${res.status}`);
      const normal = normaliseHtml(html, nonceOf(res));
      fs.mkdirSync(HTML_DIR, { recursive: true });
      fs.writeFileSync(path.join(HTML_DIR, `${page.kind}.html`), normal);
      hashes[page.kind] = crypto.createHash('sha256').update(normal).digest('hex');
    }
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
  if (process.env.BENCH_RENDER_RECORD === '1' || !fs.existsSync(EXPECTED)) {
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
