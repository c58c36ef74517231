/**
 * `npm run dev` logs for people: the server part of the script (after its build step) runs through
 * pino-pretty, so a developer reads `[10:42:07] INFO: …` lines, not JSON. Runs the script's own
 * command line (minus the build, the storefront and the watch restarts, which change nothing here).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from './config.ts';
import { AUTH_SECRET, freePort } from '../test-support/multinode/harness.ts';

it('npm run dev prints readable log lines, not JSON', async () => {
  const script = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.dev;
  const serve = script.slice(script.indexOf('&&') + 2).trim().replace(' --watch', '');
  expect(serve).toMatch(/apps\/server\/src\/main\.ts \| pino-pretty/);
  const dataDir = mkdtempSync(join(tmpdir(), 'verdant-dev-'));
  const port = await freePort();
  const child = spawn('sh', ['-c', serve], {
    cwd: REPO_ROOT,
    detached: true,
    env: { ...process.env, PATH: `${join(REPO_ROOT, 'node_modules/.bin')}:${process.env.PATH}`, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SERVE_STOREFRONT: 'false', LOG_LEVEL: 'info', AUTH_SECRET, DATABASE_URL: '', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no store line within 60 s:\n${out}`)), 60_000);
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes(`http://downtown.localhost:${port}/`)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
  const lines = out.split('\n').filter((l) => l.trim() !== '');
  // eslint-disable-next-line no-control-regex
  const plain = lines.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''));
  expect(plain.some((l) => /^\[\d\d:\d\d:\d\d\] INFO: Verdant Downtown: http:\/\/downtown\.localhost:\d+\/$/.test(l))).toBe(true);
  expect(plain.filter((l) => l.trimStart().startsWith('{"level"'))).toEqual([]);
}, 90_000);
