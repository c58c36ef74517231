import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreRegistry } from '../stores/registry.ts';
import { parseSeedArgs } from './seed.ts';
import { compiledEntry } from '../../test-support/compiled.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
// `--import tsx` resolves from the working directory; the tests run elsewhere on purpose.

describe('parseSeedArgs', () => {
  it('reads the options and defaults to 150 products', () => {
    expect(parseSeedArgs([])).toEqual({ products: 150, dataDir: undefined, referenceDate: undefined, force: false });
    expect(parseSeedArgs(['--products', '40', '--data-dir', 'x', '--reference-date', '2026-06-15', '--force'])).toEqual({
      products: 40,
      dataDir: 'x',
      referenceDate: new Date('2026-06-15'),
      force: true,
    });
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
    spawnSync(process.execPath, [compiledEntry(script.endsWith('migrate.ts') ? 'migrate' : 'seed'), ...args], {
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

describe('parseSeedArgs --stores (issue 15, a deployment of many stores)', () => {
  it('reads the store count and where the stores file goes', () => {
    expect(parseSeedArgs(['--stores', '150', '--products', '2000'])).toEqual({
      products: 2000,
      dataDir: undefined,
      referenceDate: undefined,
      force: false,
      stores: 150,
    });
    expect(parseSeedArgs(['--stores', '3', '--stores-file', 'out/stores.json'])).toMatchObject({
      stores: 3,
      storesFile: 'out/stores.json',
    });
  });

  it('rejects a bad count, and a stores file without a count, with the usage line', () => {
    for (const bad of ['0', '-2', '2.5', 'lots', '1e2', '10000', '']) {
      expect(() => parseSeedArgs([`--stores=${bad}`]), bad).toThrow(
        /--stores must be an integer from 1 to 9999\nUsage: npm run seed -- \[--stores N/,
      );
    }
    // Node's parser refuses a missing value or an unknown option; the usage line follows its message.
    expect(() => parseSeedArgs(['--stores'])).toThrow(/argument missing[^]*\nUsage: npm run seed/);
    expect(() => parseSeedArgs(['--store', '3'])).toThrow(/Unknown option '--store'[^]*\nUsage: npm run seed/);
    expect(() => parseSeedArgs(['--stores-file', 'x.json'])).toThrow(/--stores-file goes with --stores[^]*Usage: npm run seed/);
  });
});

describe('seed --stores (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdant-cli-stores-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const dataDir = join(dir, 'data');
  const run = (args: string[]) =>
    spawnSync(process.execPath, [compiledEntry('seed'), ...args], {
      cwd: tmpdir(),
      // STORES_FILE set to the demo's on purpose: --stores writes and seeds its own file instead.
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', STORES_FILE: join(repoRoot, 'apps/server/config/stores.demo.json') },
      encoding: 'utf8',
    });

  it('writes the stores file to the data directory, seeds every store and says how to start on it', () => {
    const res = run(['--stores', '2', '--products', '12', '--reference-date', '2026-06-15T12:00:00Z']);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    const file = join(dataDir, 'stores.json');
    expect(res.stdout).toContain(`Wrote 2 stores to ${file}`);
    expect(res.stdout).toMatch(/2\/2 store-002: \d+ product rows/);
    expect(res.stdout).toMatch(/Seeded 2 stores × 12 products \(\d+ product rows, \d+ rows\) into sqlite/);
    expect(res.stdout).toContain(`STORES_FILE=${file} DATA_DIR=${dataDir} npm start`);
    expect(StoreRegistry.fromFile(file).stores.map((s) => s.storeCode)).toEqual(['store-001', 'store-002']);
    expect(existsSync(join(dataDir, 'media', 'catalog', 'product', 'FL-BLUE-DREAM.svg'))).toBe(true);
  });

  it('writes the stores file where --stores-file says', () => {
    const out = join(dir, 'elsewhere', 'chain.json');
    const res = run(['--stores', '3', '--products', '10', '--stores-file', out]);
    expect(res.status, res.stderr).toBe(0);
    expect(StoreRegistry.fromFile(out).stores).toHaveLength(3);
  });

  it('exits 1 with the usage on a bad count', () => {
    const res = run(['--stores', 'none']);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('--stores must be an integer from 1 to 9999');
  });
});
