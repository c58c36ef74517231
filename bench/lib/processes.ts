import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitFor(url: string, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export interface Running {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
}

/**
 * The storefront server on a fresh demo database (SQLite in a new temp DATA_DIR), on a free port
 * unless one is given.
 */
export async function startServer(
  extraEnv: Record<string, string> = {},
  fixedPort?: number,
  /** Node flags before the script, e.g. `--cpu-prof` (not allowed in NODE_OPTIONS). */
  nodeArgs: string[] = [],
): Promise<Running & { dataDir: string }> {
  const port = fixedPort ?? (await freePort());
  // A DATA_DIR given (a seeded one) is used as it is; otherwise a new, empty one.
  const dataDir = extraEnv.DATA_DIR || fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-bench-'));
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    // SHUTDOWN_DRAIN_MS 0: no proxy to drain from; stop()'s SIGTERM closes at once (within its 5 s).
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', SHUTDOWN_DRAIN_MS: '0', ...extraEnv, DATA_DIR: dataDir },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitFor(`http://127.0.0.1:${port}/api/health`, 120_000, child);
  return { port, child, dataDir, stop: stopper(child) };
}

/** The baseline: a bare Node http server answering a fixed JSON body, in its own process. */
export async function startBareServer(): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-server.mjs'), String(port)], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitFor(`http://127.0.0.1:${port}/`, 10_000, child);
  return { port, child, stop: stopper(child) };
}

/**
 * `npm run seed -- --stores N --products M` (the seed CLI, run directly) into `dataDir`, on SQLite there or on PostgreSQL
 * when `databaseUrl` is given, with a fixed reference date so every bench seeds the same catalogue. Returns the time it
 * took; throws with the CLI's stderr when it fails.
 */
export function seedDeployment(opts: { stores: number; products: number; dataDir: string; referenceDate: string; databaseUrl?: string }): number {
  const t0 = performance.now();
  const args = ['--stores', String(opts.stores), '--products', String(opts.products), '--data-dir', opts.dataDir];
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/seed.ts', ...args, '--reference-date', opts.referenceDate], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: opts.databaseUrl ?? '', STORES_FILE: '' },
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  if (res.status !== 0) throw new Error(`seed failed (${res.status}):\n${res.stderr}`);
  return Math.round(performance.now() - t0);
}
