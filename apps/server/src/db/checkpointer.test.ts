import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test-support/databases.ts';
import { SQLITE_FILE_NAME } from './index.ts';

describe('SQLite checkpoints in a worker thread', () => {
  it('copies committed pages into the database file without the serving connection checkpointing', async () => {
    const t = await createTestDatabase('sqlite');
    try {
      const file = join(t.dataDir, SQLITE_FILE_NAME);
      await sql`create table checkpoint_probe (body text not null)`.execute(t.db);
      const before = statSync(file).size;
      // ~2 MB: far below the serving connection's own threshold (~40 MB), so only the worker copies it.
      for (let i = 0; i < 20; i++) {
        await t.db.transaction().execute(async (trx) => {
          for (let k = 0; k < 10; k++) await sql`insert into checkpoint_probe (body) values (${'x'.repeat(10_000)})`.execute(trx);
        });
      }
      const deadline = Date.now() + 10_000;
      while (statSync(file).size < before + 2_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(statSync(file).size).toBeGreaterThanOrEqual(before + 2_000_000);
      const { rows } = await sql<{ n: number }>`select count(*) as n from checkpoint_probe`.execute(t.db);
      expect(Number(rows[0].n)).toBe(200);
    } finally {
      // Closes the worker's connection, then the serving one (which removes the WAL).
      await t.cleanup();
    }
  });

  it('lets a script end normally after destroy(), and works in an ES module process', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verdant-checkpointer-'));
    try {
      const script = [
        `import { createDatabase } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'index.ts')).href)};`,
        `const handle = await createDatabase({ dataDir: ${JSON.stringify(dataDir)} });`,
        `await new Promise((r) => setTimeout(r, 400));`,
        'await handle.destroy();',
        "console.log('after destroy');",
      ].join('\n');
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
      expect(run.stderr).not.toMatch(/checkpoint/i);
      expect(run.stdout.trim()).toBe('after destroy');
      expect(run.status).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
