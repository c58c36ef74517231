/**
 * Issue 32: the server as production runs it (the compiled bundle, `node apps/server/dist/main.mjs`,
 * what `npm run serve` runs) against the TypeScript loader (`node --import tsx apps/server/src/main.ts`,
 * what ran before and `npm run dev` still runs), in the same run, alternating, on one demo data
 * directory seeded once: time from spawn to `/api/health` answering, the first storefront page
 * (its store's catalogue built), and resident memory then.
 *
 * `BENCH_ONLY=startup npm run bench` (builds first); BENCH_STARTUP_RUNS starts of each (default 5).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, REPO_ROOT } from '../lib/processes.ts';

type Mode = 'compiled' | 'tsx';
const ARGS: Record<Mode, string[]> = {
  compiled: ['--enable-source-maps', 'apps/server/dist/main.mjs'],
  tsx: ['--import', 'tsx', 'apps/server/src/main.ts'],
};

interface Start {
  readyMs: number;
  firstPageMs: number;
  rssMiB: number;
}

async function startOnce(mode: Mode, dataDir: string): Promise<Start> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, ARGS[mode], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, SHUTDOWN_DRAIN_MS: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${mode}: exited with ${child.exitCode}`);
      if (performance.now() - t0 > 60_000) throw new Error(`${mode}: not ready in 60 s`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const readyMs = performance.now() - t0;
    const p0 = performance.now();
    const page = await fetch(`http://127.0.0.1:${port}/`, { headers: { host: `downtown.localhost:${port}`, cookie: 'verdant_age=recreational' } });
    await page.text();
    if (!page.ok) throw new Error(`${mode}: the home page answered ${page.status}`);
    const firstPageMs = performance.now() - p0;
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { readyMs, firstPageMs, rssMiB: rssKiB / 1024 };
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

export async function runStartupSuite() {
  if (!fs.existsSync(path.join(REPO_ROOT, 'apps/server/dist/main.mjs'))) throw new Error('startup: run `npm run build` first (apps/server/dist/main.mjs)');
  const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-bench-startup-'));
  // The first start seeds the demo catalogue; every measured start opens it as it is.
  await startOnce('compiled', dataDir);
  const measured: Record<Mode, Start[]> = { compiled: [], tsx: [] };
  for (let i = 0; i < runs; i++) {
    for (const mode of (i % 2 ? ['tsx', 'compiled'] : ['compiled', 'tsx']) as Mode[]) measured[mode].push(await startOnce(mode, dataDir));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  const summary = (mode: Mode) => ({
    readyMs: Math.round(median(measured[mode].map((s) => s.readyMs))),
    firstPageMs: Math.round(median(measured[mode].map((s) => s.firstPageMs))),
    rssMiB: Math.round(median(measured[mode].map((s) => s.rssMiB))),
  });
  const compiled = summary('compiled');
  const tsx = summary('tsx');
  const result = {
    runs,
    compiled,
    tsx,
    ratios: {
      ready: +(compiled.readyMs / tsx.readyMs).toFixed(2),
      firstPage: +(compiled.firstPageMs / tsx.firstPageMs).toFixed(2),
      rss: +(compiled.rssMiB / tsx.rssMiB).toFixed(2),
    },
  };
  console.log('\nServer start (median of %d each, alternating): compiled vs tsx', runs);
  console.table({ compiled, tsx, 'compiled / tsx': { readyMs: result.ratios.ready, firstPageMs: result.ratios.firstPage, rssMiB: result.ratios.rss } });
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await runStartupSuite();
