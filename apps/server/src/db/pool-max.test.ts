/**
 * PG_POOL_MAX (issue 32): a node opens at most that many PostgreSQL connections; more queries at once
 * wait for one. Every node's pool counts against the server's max_connections, so a deployment of many
 * nodes sizes it (bench/SCALE.md, "Pools").
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createDatabase } from './index.ts';

const PG_URL = process.env.TEST_DATABASE_URL;

describe('PG_POOL_MAX', () => {
  it('defaults to 10 and refuses 0 with the variable named', () => {
    expect(loadConfig({}).pgPoolMax).toBe(10);
    expect(loadConfig({ PG_POOL_MAX: '4' }).pgPoolMax).toBe(4);
    expect(() => loadConfig({ PG_POOL_MAX: '0' })).toThrow(/PG_POOL_MAX/);
  });

  it.runIf(PG_URL || process.env.CI === 'true')('caps the connections one process opens: 6 slow queries at once through a pool of 2', async () => {
    if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set (CI=true: PostgreSQL tests must run)');
    const { db, pool, destroy } = await createDatabase({ databaseUrl: PG_URL, dataDir: '/nonexistent', poolMax: 2 });
    try {
      let waitingSeen = 0;
      const queries = Array.from({ length: 6 }, () => sql`select pg_sleep(0.15), pg_backend_pid() as pid`.execute(db));
      // Sampled while they run: never more than 2 open, the rest queued.
      const sampler = setInterval(() => (waitingSeen = Math.max(waitingSeen, pool!.waitingCount)), 10);
      const rows = (await Promise.all(queries)).map((r) => (r.rows[0] as { pid: number }).pid);
      clearInterval(sampler);
      expect(new Set(rows).size).toBeLessThanOrEqual(2);
      expect(pool!.totalCount).toBeLessThanOrEqual(2);
      expect(waitingSeen).toBeGreaterThan(0);
    } finally {
      await destroy();
    }
  });
});
