import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

/**
 * A deployment with its own stores file on an empty database (issue 13): its own server process
 * (this journey's, on a free port, beside the demo server of the other journeys) with one store,
 * `greenleaf`, and no products. The shopper sees "Menu coming soon" on the home and category pages
 * (accessible, and category pages are noindex), then the store's first `npm run import` (the real
 * command, another process; the server hears it through Redis) puts the product on the menu, found
 * by search without a restart.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

test.describe('a new store before its first menu import', () => {
  test.describe.configure({ mode: 'serial' });
  let server: ChildProcess;
  let port: number;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const url = (p: string) => `http://greenleaf.localhost:${port}${p}`;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-e2e-empty-'));
    const demo = JSON.parse(fs.readFileSync(path.join(ROOT, 'apps/server/config/stores.demo.json'), 'utf8'));
    const store = { ...demo.stores[0], storeCode: 'greenleaf', name: 'Green Leaf Cannabis', url: 'https://greenleaf.example' };
    const storesFile = path.join(dir, 'stores.json');
    fs.writeFileSync(storesFile, JSON.stringify({ defaultStoreCode: 'greenleaf', hostRules: {}, stores: [store] }));
    port = await freePort();
    env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: '',
      STORES_FILE: storesFile,
      REDIS_URL,
      REDIS_PREFIX: `verdant-e2e-empty:${path.basename(dir)}:`,
      LOG_LEVEL: 'warn',
      // Stopped in afterAll with no proxy to drain from (issue 32's drain is for a proxy's health check).
      SHUTDOWN_DRAIN_MS: '0',
    };
    // The compiled server of this run's build (what production and the other journeys' servers run).
    server = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.mjs'], { cwd: ROOT, env, stdio: 'ignore' });
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status ?? 0, {
        timeout: 100_000,
        intervals: [200],
      })
      .toBe(200);
  });
  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const gone = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await gone;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  test.beforeEach(async ({ context }) => {
    await context.addCookies([
      { name: 'verdant_age', value: '1', url: url('/') },
      { name: 'verdant_license', value: 'recreational', url: url('/') },
    ]);
  });

  test('home and category pages say "Menu coming soon", accessibly; category pages are noindex', async ({ page }) => {
    await page.goto(url('/'));
    await expect(page.getByRole('heading', { level: 1, name: 'Green Leaf Cannabis' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Menu coming soon' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Hours & directions' }).last()).toBeVisible();
    await expectNoAxeViolations(page);

    for (const p of ['/menu', '/menu/flower']) {
      await page.goto(url(p));
      await expect(page.getByRole('heading', { level: 1, name: 'Menu coming soon' })).toBeVisible();
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    }
    await expectNoAxeViolations(page);
  });

  test('the first import puts the product on the menu without a restart', async ({ page }) => {
    const file = path.join(dir, 'menu.csv');
    fs.writeFileSync(
      file,
      'external_id,sku,name,brand,category,unit,weight_g,price,stock\nGL-1,GL-GLACIER-8TH,Glacier Cake,North Ridge,Flower > Indica,g,3.5,35.00,12\n',
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/menu-import/cli.ts', '--store', 'greenleaf', file], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/The servers were told/);

    await expect
      .poll(
        async () => {
          await page.goto(url('/menu?q=glacier'));
          return page
            .getByRole('main')
            .getByRole('link', { name: /Glacier Cake/ })
            .count();
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    await page.goto(url('/'));
    await expect(page.getByRole('heading', { name: 'Menu coming soon' })).toHaveCount(0);
  });

  test('sold out by the next import: the page says so, search drops it, the shopper holding it is told at checkout', async ({ page }) => {
    await page.goto(url('/menu?q=glacier'));
    await page
      .getByRole('main')
      .getByRole('link', { name: /Glacier Cake/ })
      .first()
      .click();
    await expect(page.getByRole('heading', { level: 1, name: /Glacier Cake/ })).toBeVisible();
    const productUrl = page.url();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.locator('[data-notifications]').getByText('Product has been added to the cart!')).toBeVisible();

    const file = path.join(dir, 'sold-out.csv');
    fs.writeFileSync(
      file,
      'external_id,sku,name,brand,category,unit,weight_g,price,stock\nGL-1,GL-GLACIER-8TH,Glacier Cake,North Ridge,Flower > Indica,g,3.5,35.00,0\n',
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/menu-import/cli.ts', '--store', 'greenleaf', file], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);

    await expect
      .poll(
        async () => {
          await page.goto(productUrl);
          return page.getByText(/sold out/i).count();
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    await page.goto(url('/menu?q=glacier'));
    await expect(page.getByRole('main').getByRole('link', { name: /Glacier Cake/ })).toHaveCount(0);
    // The checkout re-reads the cart's stock: the line stays and says it is out of stock.
    await page.goto(url('/checkout'));
    await expect(page.getByRole('main').getByText('Out of stock!').first()).toBeVisible();
  });
});
