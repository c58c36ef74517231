import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSeedArgs } from './seed.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
// `--import tsx` resolves from the working directory; the tests run elsewhere on purpose.
const tsxLoader = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

describe('parseSeedArgs', () => {
  it('reads the options and defaults to 150 products', () => {
    expect(parseSeedArgs([])).toEqual({ products: 150, dataDir: undefined, referenceDate: undefined, force: false });
    expect(parseSeedArgs(['--products', '40', '--data-dir', 'x', '--reference-date', '2026-06-15', '--force'])).toEqual(
      {
        products: 40,
        dataDir: 'x',
        referenceDate: new Date('2026-06-15'),
        force: true,
      },
    );
  });

  it('rejects bad input with the usage line', () => {
    expect(() => parseSeedArgs(['--products', '3'])).toThrow(/Usage: npm run seed/);
    expect(() => parseSeedArgs(['--products', 'many'])).toThrow(/at least 10/);
    expect(() => parseSeedArgs(['--reference-date', 'soon'])).toThrow(/ISO date/);
    expect(() => parseSeedArgs(['--colour', 'green'])).toThrow();
  });
});

describe('seed and migrate commands (SQLite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdant-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  // From another working directory, to prove paths resolve from the repository, not the cwd.
  const run = (script: string, args: string[]) =>
    spawnSync(process.execPath, ['--import', tsxLoader, join(repoRoot, script), ...args], {
      cwd: tmpdir(),
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', STORES_FILE: '' },
      encoding: 'utf8',
    });

  it('migrates, seeds and reports what it wrote', () => {
    const res = run('apps/server/src/cli/seed.ts', ['--products', '12', '--reference-date', '2026-06-15T12:00:00Z']);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('Applied migrations: 0001_initial');
    expect(res.stdout).toContain('Seeded 4 stores × 12 products into sqlite');
    expect(res.stdout).toMatch(/downtown\s+store 1: \d+ product rows/);
    expect(existsSync(join(dataDir, 'verdant.sqlite'))).toBe(true);
    expect(existsSync(join(dataDir, 'media', 'catalog', 'product', 'FL-BLUE-DREAM.svg'))).toBe(true);
  });

  it('reports an up-to-date database on migrate', () => {
    const res = run('apps/server/src/cli/migrate.ts', []);
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('is up to date');
  });

  it('exits 1 with a message on bad arguments', () => {
    const res = run('apps/server/src/cli/seed.ts', ['--products', '2']);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('--products must be an integer');
  });
});
