/**
 * A deployment with its own stores file on an empty database (issue 13, "Menu in the console"): a
 * real server process (`main.ts`, SQLite in a fresh DATA_DIR, Redis for the change bus) starts with
 * an EMPTY menu — no demo product, every category hidden from navigation (product_count 0) but
 * there for an import to name — and the first `npm run import` (the CLI's code, run here in the
 * test process, another process than the server, as on a real machine) makes the product
 * searchable and its categories visible without a restart, within the 2 s promise.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORES_FILE } from '../config.ts';
import { runImportCli } from '../menu-import/cli.ts';
import { call, freePort, REDIS_URL, START_MS, startNode, STOP_MS, within, type ServerNode } from '../../test-support/multinode/harness.ts';

const HOST = 'greenleaf.localhost';

/** One store of our own: the demo's first store under another code and name (not the demo file). */
function customStoresFile(dir: string): string {
  const demo = JSON.parse(readFileSync(DEMO_STORES_FILE, 'utf8'));
  const store = { ...demo.stores[0], storeCode: 'greenleaf', name: 'Green Leaf Cannabis', url: 'https://greenleaf.example' };
  const file = join(dir, 'stores.json');
  writeFileSync(file, JSON.stringify({ defaultStoreCode: 'greenleaf', hostRules: {}, stores: [store] }, null, 2));
  return file;
}

describe('a deployment with its own STORES_FILE on an empty database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdant-empty-menu-'));
  const dataDir = join(dir, 'data');
  const env = {
    DATA_DIR: dataDir,
    STORES_FILE: customStoresFile(dir),
    REDIS_URL,
    REDIS_PREFIX: `verdant-empty-${process.pid}-${Math.random().toString(36).slice(2)}:`,
  };
  let node: ServerNode;
  const get = (path: string) => call(node, 'GET', path, undefined, HOST);
  const found = async (text: string) =>
    ((await get(`/api/catalog/products?text=${encodeURIComponent(text)}&size=20`)).result.items as { sku: string }[]).map((p) => p.sku);
  const menuCategories = async () =>
    (
      (await get('/api/catalog/categories?is_active=1&product_count_gt=0')).result.items as { url_path: string; product_count: number }[]
    ).map((c) => `${c.url_path}:${c.product_count}`);

  beforeAll(async () => {
    node = startNode(env, await freePort());
    await node.ready();
  }, START_MS + 10_000);
  afterAll(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, STOP_MS + 10_000);

  it('starts with no product and every category hidden, then the first import is searchable without a restart', async () => {
    expect(node.output()).not.toMatch(/demo catalogue loaded/);
    const all = await get('/api/catalog/products?size=50');
    expect(all.status).toBe(200);
    expect(all.result.total).toBe(0);
    expect(await found('blue dream')).toEqual([]);
    expect(await menuCategories()).toEqual([]);
    // The taxonomy a menu file names is there (hidden while empty), and the static pages.
    const categories = (await get('/api/catalog/categories')).result.items as { url_path: string }[];
    expect(categories.map((c) => c.url_path)).toEqual(expect.arrayContaining(['menu/flower', 'menu/flower/indica']));
    expect((await get('/api/cms/page?identifier=terms')).status).toBe(200);

    const file = join(dir, 'first-menu.csv');
    writeFileSync(
      file,
      [
        'external_id,sku,name,brand,category,unit,weight_g,price,stock',
        'GL-1,GL-GLACIER-8TH,Glacier Cake,North Ridge,Flower > Indica,g,3.5,35.00,12',
      ].join('\n'),
    );
    const out: string[] = [];
    const code = await runImportCli(['--store', 'greenleaf', file], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
      env: { ...process.env, ...env, DATABASE_URL: '' },
    });
    expect(code, out.join('\n')).toBe(0);
    expect(out.join('\n')).toMatch(/The servers were told/);
    const told = performance.now();
    await within(
      'the imported product is found by search',
      2000,
      async () => (await found('glacier cake')).includes('GL-GLACIER-8TH'),
      told,
    );
    await within('its categories show in the menu', 2000, async () => (await menuCategories()).includes('menu/flower/indica:1'), told);
    expect(await menuCategories()).toEqual(expect.arrayContaining(['menu:1', 'menu/flower:1', 'menu/flower/indica:1']));
    expect((await get('/api/catalog/products?size=50')).result.total).toBe(1);
  });
});
