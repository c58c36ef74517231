/**
 * Issue 27: the console split by route. The order queue comes with the entry script alone (sent
 * compressed); a page in a chunk of its own loads on a deep link with the top bar in place; a
 * navigation that waits for a chunk keeps the current page and says "Loading page…" only when
 * it takes a while; a chunk that cannot be loaded says so, with a way out. Real server and Chromium.
 */
import type { Page, Route } from '@playwright/test';
import { consoleUrl, expectQueue, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

test.describe.configure({ timeout: 120_000 });

/** Manager of downtown only: lands on its queue, and may open Reports and Webhooks. */
const MANAGER = 'manager@demo.verdant.test';

/** The store's console path the member landed on (`/stores/<id>`), from the queue's address. */
function storePath(page: Page): string {
  const m = /\/console(\/stores\/\d+)\/orders$/.exec(new URL(page.url()).pathname);
  expect(m, page.url()).not.toBeNull();
  return m![1]!;
}

/** Every console script the page asks for, in order (file names without the assets/ folder). */
function scriptsOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (req) => {
    const m = /\/console\/assets\/([^/?]+\.js)$/.exec(new URL(req.url()).pathname);
    if (m) seen.push(m[1]!);
  });
  return seen;
}

for (const size of [
  { name: 'tablet', viewport: { width: 1024, height: 768 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ viewport: size.viewport });

    test('the queue needs the entry script only, sent compressed; a deep link to a lazy page keeps the top bar', async ({ page }) => {
      await staffLogin(page);
      await expectQueue(page);
      const store = storePath(page);

      // A fresh load of the queue (what a counter tablet does each morning), with every other
      // chunk refused: the queue needs the entry script alone (the ahead-of-time fetches fail quietly).
      const others = /\/console\/assets\/(?!index-)[^/]+\.js$/;
      await page.route(others, (route) => route.abort());
      const entry = page.waitForResponse((res) => /\/console\/assets\/index-[^/]+\.js$/.test(res.url()));
      await page.goto(consoleUrl(`${store}/orders`));
      const entryResponse = await entry;
      expect(await entryResponse.headerValue('content-encoding')).toBe('br');
      await expectQueue(page);
      await expect(page.getByRole('alert')).toHaveCount(0);
      await page.unroute(others);
      const scripts = scriptsOf(page);

      // A deep link to a page in its own chunk: the shell's top bar, then the page.
      await page.goto(consoleUrl(`${store}/menu`));
      await expect(page.getByRole('heading', { level: 1, name: 'Menu' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Console' }).or(page.getByRole('button', { name: 'Menu' }))).not.toHaveCount(0);
      expect(scripts.some((s) => /^menu-/.test(s))).toBe(true);
      // The title leads with the count of new orders while there are any (other journeys place orders).
      await expect(page).toHaveTitle(/^(\(\d+\) )?Menu · Verdant console$/);
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    });

    test('a navigation waiting for its chunk keeps the page and says "Loading page…" only once it takes a while', async ({ page }) => {
      // Hold the Reports chunk until released (also its ahead-of-time fetch: the navigation waits for the same file).
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let asked = 0;
      await page.route(/\/console\/assets\/reports-[^/]+\.js$/, async (route: Route) => {
        asked++;
        await released;
        await route.continue();
      });
      await staffLogin(page, MANAGER);
      await expectQueue(page);
      const store = storePath(page);
      await page.goto(consoleUrl(`${store}/menu`));
      const menu = page.getByRole('heading', { level: 1, name: 'Menu' });
      await expect(menu).toBeVisible();
      const status = page.getByRole('status').filter({ hasText: 'Loading page…' });
      await expect(status).toHaveCount(0);

      const nav = page.getByRole('navigation', { name: 'Console' });
      if (!(await nav.isVisible())) await page.getByRole('button', { name: 'Menu' }).click();
      await nav.getByRole('link', { name: 'Reports' }).click();
      // The menu stays on screen while the chunk is held: no blank page, no flash.
      await expect(status).toBeVisible();
      await expect(menu).toBeVisible();
      expect(asked).toBeGreaterThan(0);
      await expectNoAxeViolations(page);

      release();
      await expect(page.getByRole('heading', { level: 1, name: 'Daily report' })).toBeVisible();
      await expect(status).toHaveCount(0);
      await expect(page).toHaveURL(consoleUrl(`${store}/reports`));
    });

    test('a page whose chunk cannot be loaded says so, with the top bar and a reload button', async ({ page }) => {
      // As after a new deploy removed the old chunk (or the connection dropped).
      await page.route(/\/console\/assets\/webhooks-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'Not found' }));
      await staffLogin(page, MANAGER);
      await expectQueue(page);
      await page.goto(consoleUrl(`${storePath(page)}/webhooks`));
      const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
      await expect(alert).toBeVisible();
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(alert.getByRole('button', { name: 'Reload the console' })).toBeVisible();
      await expectNoAxeViolations(page);

      // Once the chunk is there again, the button brings the page.
      await page.unroute(/\/console\/assets\/webhooks-[^/]+\.js$/);
      await alert.getByRole('button', { name: 'Reload the console' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    });
  });
}
