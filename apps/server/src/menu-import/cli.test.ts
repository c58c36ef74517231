/**
 * `npm run import` (SQLite under a temp DATA_DIR; the engine's rules run on both databases in
 * menu-import.test.ts): argument parsing, exit codes, the printed report, export and re-import,
 * and the change notice a running server hears on the catalogue bus (REDIS_URL).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisBus, type CatalogChange } from '../catalog/change-bus.ts';
import { DEMO_STORES_FILE, REPO_ROOT } from '../config.ts';
import { seed } from '../../test-support/catalog/test-app.ts';
import { createDatabase, migrateToLatest } from '../db/index.ts';
import { parseImportArgs, runImportCli } from './cli.ts';
import { compiledEntry } from '../../test-support/compiled.ts';

const EXAMPLE = join(REPO_ROOT, 'examples/menu/example-menu.csv');

describe('parseImportArgs', () => {
  it('reads an import and an export, and refuses bad input with the usage text', () => {
    expect(parseImportArgs(['--store', 'Harbor', 'menu.csv', '--dry-run'])).toEqual({
      command: 'import',
      store: 'harbor',
      file: 'menu.csv',
      format: 'csv',
      dryRun: true,
      full: false,
      adoptIds: false,
      confirmStore: false,
    });
    expect(parseImportArgs(['--store', 'harbor', '--full', 'm.json'])).toMatchObject({ format: 'json', full: true });
    expect(parseImportArgs(['--store', 'harbor', '--adopt-ids', 'm.csv'])).toMatchObject({ adoptIds: true });
    expect(parseImportArgs(['--store', 'harbor', '--confirm-store', 'm.csv'])).toMatchObject({ confirmStore: true });
    expect(parseImportArgs(['--store', 'harbor', '--export', 'out.csv'])).toEqual({
      command: 'export',
      store: 'harbor',
      file: 'out.csv',
      format: 'csv',
    });
    expect(() => parseImportArgs(['menu.csv'])).toThrow(/--store is required[\s\S]*Usage:/);
    expect(() => parseImportArgs(['--store', 'harbor'])).toThrow(/exactly one file/);
    expect(() => parseImportArgs(['--store', 'harbor', 'a.csv', 'b.csv'])).toThrow(/exactly one file/);
    expect(() => parseImportArgs(['--store', 'harbor', 'menu.xlsx'])).toThrow(/\.csv or \.json/);
    expect(() => parseImportArgs(['--store', 'harbor', '--colour', 'x', 'a.csv'])).toThrow(/Usage:/);
  });
});

describe('npm run import', () => {
  let dataDir: string;
  const prefix = `verdant-import-test-${process.pid}-${Date.now()}:`;
  const env = () => ({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', STORES_FILE: '', REDIS_URL: '', REDIS_PREFIX: prefix });
  async function cli(args: string[], extraEnv: Record<string, string> = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runImportCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: { ...env(), ...extraEnv } });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'verdant-import-cli-'));
    const { db, destroy } = await createDatabase({ dataDir });
    await migrateToLatest(db);
    await seed({ db, dialect: 'sqlite', dataDir } as never);
    await destroy();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('as a real process: a dry run prints the plan and exits 0; usage errors exit 2', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [compiledEntry('import'), ...args], {
        cwd: REPO_ROOT,
        env: env(),
        encoding: 'utf8',
        timeout: 60_000,
      });
    const dry = run('--store', 'harbor', EXAMPLE, '--dry-run');
    expect(dry.stderr).toBe('');
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain('Dry run: 4 rows. Would create 4, update 0, unchanged 0.');
    expect(dry.stdout).toContain('+ row 3: POS-1001-8TH GLC-8TH Glacier Cake');
    const usage = run(EXAMPLE);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/--store is required/);
  }, 90_000);

  it('applies, tells the running servers on the change bus, and the same file again is "Nothing to change"', async () => {
    const heard: CatalogChange[] = [];
    const listener = redisBus({ url: process.env.REDIS_URL!, channel: `${prefix}catalog-changed`, name: 'import-test' });
    await listener.subscribe(
      (c) => heard.push(c),
      () => undefined,
    );
    try {
      const applied = await cli(['--store', 'harbor', EXAMPLE], { REDIS_URL: process.env.REDIS_URL! });
      expect(applied.err).toBe('');
      expect(applied.code).toBe(0);
      expect(applied.out).toContain('4 rows. Created 4, updated 0, unchanged 0.');
      expect(applied.out).toContain('The servers were told');
      for (let i = 0; i < 200 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(heard).toHaveLength(1);
      expect(heard[0].storeId).toBe(4);
      expect(heard[0].productIds).toHaveLength(5); // four variants and the Glacier Cake parent
    } finally {
      await listener.close();
    }
    const again = await cli(['--store', 'harbor', EXAMPLE]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('Nothing to change.');
  });

  it('exits 1 with every problem as row, column, value and reason, and changes nothing', async () => {
    const file = join(dataDir, 'bad.csv');
    writeFileSync(
      file,
      'external_id,sku,name,category,unit,weight_g,price,stock\nPOS-2001,MNG-GUM-10,Mango,Edibles > Gummies,ea,60,-3,5\n',
    );
    const r = await cli(['--store', 'harbor', file]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('1 problem in 1 row; nothing was changed.');
    expect(r.out).toContain('row 2, price "-3": price must not be negative');
    const unknown = await cli(['--store', 'nowhere', file]);
    expect(unknown.code).toBe(2);
    expect((await cli(['--store', 'harbor', join(dataDir, 'missing.csv')])).code).toBe(2);
  });

  it("refuses another store's export (harbor's into downtown) before anything is applied, and says why", async () => {
    const file = join(dataDir, 'harbor-menu.csv');
    expect((await cli(['--store', 'harbor', '--export', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8').split('\n')[1]).toMatch(/^harbor,/);
    for (const flags of [['--dry-run'], [], ['--full'], ['--adopt-ids']]) {
      const r = await cli(['--store', 'downtown', file, ...flags]);
      expect(r.code).toBe(1);
      expect(r.out).toContain('nothing was changed.');
      expect(r.out.split('\n')[1]).toMatch(/^  the file, store "harbor": this file is the menu of store harbor \(\d+ of \d+ rows say so\), not of downtown: nothing is applied/);
    }
    expect((await cli(['--store', 'harbor', file])).out).toContain('Nothing to change.');
  });

  it("refuses harbor's export without its store column in downtown by its content; --confirm-store lets it through", async () => {
    const exported = join(dataDir, 'harbor-for-content.csv');
    expect((await cli(['--store', 'harbor', '--export', exported])).code).toBe(0);
    // A harbor export made before the store column existed: the column gone, every id and sku shared with downtown.
    const rows = parseCsvSync(readFileSync(exported, 'utf8')) as string[][];
    const at = rows[0].indexOf('store');
    const file = join(dataDir, 'harbor-no-store.csv');
    writeFileSync(file, stringifyCsv(rows.map((r) => r.filter((_, k) => k !== at))));
    // The picture the example (imported into harbor above) names goes with the file, as an export's would.
    copyFileSync(join(REPO_ROOT, 'examples/menu/glacier-cake.jpg'), join(dataDir, 'glacier-cake.jpg'));
    const before = (await cli(['--store', 'downtown', '--export', join(dataDir, 'downtown-before.csv')])).code;
    expect(before).toBe(0);
    for (const flags of [['--dry-run'], [], ['--full']]) {
      const r = await cli(['--store', 'downtown', file, ...flags]);
      expect(r.code).toBe(1);
      expect(r.out.split('\n')[0]).toBe(`1 problem in ${rows.length - 1} rows; nothing was changed.`);
      expect(r.out.split('\n')[1]).toMatch(
        /^  the file: this file looks like another store's menu: compared with downtown's menu of \d+ items it would add \d+ new items and change the price or name of \d+ of the \d+ items it matches; nothing is applied\. .*--confirm-store on the command line/,
      );
    }
    expect((await cli(['--store', 'downtown', '--export', join(dataDir, 'downtown-after.csv')])).code).toBe(0);
    expect(readFileSync(join(dataDir, 'downtown-after.csv'), 'utf8')).toBe(readFileSync(join(dataDir, 'downtown-before.csv'), 'utf8'));
    const insisted = await cli(['--store', 'downtown', file, '--dry-run', '--confirm-store']);
    expect(insisted.code, insisted.out).toBe(0);
    expect(insisted.out).toMatch(/^Dry run: \d+ rows\. Would create [1-9]\d*, update [1-9]\d*/);
  });

  it('exports the menu as CSV and JSON that import as no change', async () => {
    for (const name of ['menu.csv', 'menu.json']) {
      const file = join(dataDir, name);
      const exported = await cli(['--store', 'harbor', '--export', file]);
      expect(exported.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toContain('POS-1001-8TH');
      const again = await cli(['--store', 'harbor', file, '--full']);
      expect(again.out).toContain('Nothing to change.');
      expect(again.code).toBe(0);
    }
  });
});

describe('npm run import into a deployment of its own stores, before its server ever started', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'verdant-import-own-'));
    const demo = JSON.parse(readFileSync(DEMO_STORES_FILE, 'utf8'));
    const store = { ...demo.stores[0], storeCode: 'greenleaf', name: 'Green Leaf Cannabis', url: 'https://greenleaf.example' };
    writeFileSync(join(dir, 'stores.json'), JSON.stringify({ defaultStoreCode: 'greenleaf', hostRules: {}, stores: [store] }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the store's categories first, so the first menu applies; its pictures go into the media", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const env = { ...process.env, DATA_DIR: join(dir, 'data'), DATABASE_URL: '', STORES_FILE: join(dir, 'stores.json'), REDIS_URL: '' };
    const code = await runImportCli(['--store', 'greenleaf', EXAMPLE], { out: (l) => out.push(l), err: (l) => err.push(l), env });
    expect(err.join('\n')).toBe('');
    expect(out.join('\n')).toContain('4 rows. Created 4, updated 0, unchanged 0.');
    expect(code).toBe(0);
    const { db, destroy } = await createDatabase({ dataDir: join(dir, 'data') });
    try {
      const products = await db
        .selectFrom('products')
        .select(['external_id', 'image'])
        .where('external_id', 'is not', null)
        .orderBy('id')
        .execute();
      expect(products.map((p) => p.external_id)).toEqual(['POS-1001', 'POS-1001-1G', 'POS-1001-8TH', 'POS-2001', 'POS-3001']);
      const parent = products[0];
      expect(parent.image).toMatch(/^\/catalog\/import\/[0-9a-f]{32}\.jpg$/);
      expect(readFileSync(join(dir, 'data/media', parent.image!))).toEqual(readFileSync(join(REPO_ROOT, 'examples/menu/glacier-cake.jpg')));
    } finally {
      await destroy();
    }
  }, 60_000);
});
