/**
 * How a real server process starts when something it needs is taken or missing:
 * - two processes on one SQLite DATA_DIR: the second exits with one line naming the directory and
 *   the first process; the lock is released on shutdown and after a crash (kill -9);
 * - Redis unreachable at start: one line naming REDIS_URL (password redacted), then the node waits
 *   and serves once Redis answers (docs/operators/deployment.md documents this).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { freePort, RedisProxy, sleep, START_MS, startNode, within, type ServerNode } from '../../test-support/multinode/harness.ts';

// Bounds for a loaded 2-core machine (a node may take ~20 s to start there): up to three starts a test.
const TEST_MS = 3 * START_MS + 30_000;

describe('starting a server process', () => {
  const nodes: ServerNode[] = [];
  const dirs: string[] = [];
  let proxy: RedisProxy | undefined;
  const node = async (env: Record<string, string>) => {
    const n = startNode(env, await freePort());
    nodes.push(n);
    return n;
  };
  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((n) => n.stop()));
    await proxy?.cut();
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'one SQLite DATA_DIR serves one process: the second exits with one line; kill -9 and shutdown release it',
    async () => {
      const DATA_DIR = mkdtempSync(join(tmpdir(), 'verdant-lock-'));
      dirs.push(DATA_DIR);
      const first = await node({ DATA_DIR });
      await first.ready();

      const second = await node({ DATA_DIR });
      expect(await second.exited).toBe(1);
      const lines = second.output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`DATA_DIR ${DATA_DIR} is in use by another server process (pid ${first.process.pid})`);
      // The first one still serves.
      expect((await fetch(`${first.base}/api/health`)).status).toBe(200);

      // A crash releases it (the operating system drops the lock with the process).
      first.process.kill('SIGKILL');
      await first.exited;
      const third = await node({ DATA_DIR });
      await third.ready();
      // So does a shutdown: the directory can be taken at once.
      await third.stop();
      expect(await third.exited).toBe(0);
      lockDataDir(DATA_DIR).release();
    },
    TEST_MS,
  );

  it(
    'a taken port: one line, exit 1, and nothing locked, migrated or seeded',
    async () => {
      const DATA_DIR = mkdtempSync(join(tmpdir(), 'verdant-port-'));
      dirs.push(DATA_DIR);
      const port = await freePort();
      const squatter = net.createServer();
      await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
      try {
        const n = startNode({ DATA_DIR }, port);
        nodes.push(n);
        expect(await n.exited).toBe(1);
        expect(n.output().trim().split('\n')).toEqual([
          `Port ${port} on 127.0.0.1 is already in use (another server?): stop it or set PORT to a free port.`,
        ]);
        expect(existsSync(join(DATA_DIR, 'verdant.sqlite'))).toBe(false);
        expect(existsSync(join(DATA_DIR, 'server.lock'))).toBe(false);
      } finally {
        await new Promise((resolve) => squatter.close(resolve));
      }
    },
    TEST_MS,
  );

  it(
    'Redis unreachable at start: one line naming REDIS_URL without its password, then it waits and serves once Redis answers',
    async () => {
      const port = await freePort();
      const n = await node({ REDIS_URL: `redis://:s3cret-pw@127.0.0.1:${port}`, REDIS_PREFIX: `verdant-test-${process.pid}:` });
      const line = `Redis at redis://:***@127.0.0.1:${port} (REDIS_URL) cannot be reached`;
      await within('the unreachable line', START_MS, async () => n.output().includes(line));
      // It keeps waiting (retrying every second) without repeating itself, and does not listen yet.
      await sleep(2500);
      expect(n.output().split(line)).toHaveLength(2);
      expect(n.output()).not.toContain('s3cret-pw');
      expect(n.output()).not.toMatch(/MaxRetriesPerRequestError/);
      await expect(fetch(`${n.base}/api/health`)).rejects.toThrow();

      proxy = await RedisProxy.start({ port });
      await n.ready();
      expect(n.output()).toContain(`Redis at redis://:***@127.0.0.1:${port} answers now; starting.`);
    },
    TEST_MS,
  );
});
