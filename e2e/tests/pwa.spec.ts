/**
 * Issue 6 (first part): the service worker, the per-store manifest, and pages read offline.
 * Service workers are blocked in the other journeys (playwright.config.ts); allowed here.
 */
import { expect, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

test.use({ serviceWorkers: 'allow' });

const OFFLINE_MESSAGE = 'The product, category or CMS page is not available in Offline mode. Redirecting to Home.';

test('each store links its own manifest and installs as its own app', async ({ page, context }) => {
  await passGateByCookie(context, 'eastside', 'recreational');
  await page.goto(storeUrl('eastside', '/'));
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  // Fetched by the page (Chromium resolves *.localhost; Node's resolver may not).
  const manifest = await page.evaluate(async (url) => (await fetch(url)).json(), href!);
  expect(manifest).toMatchObject({ name: 'Verdant Eastside', start_url: '/', display: 'standalone', theme_color: '#7c2d12' });
  const iconType = await page.evaluate(async (src) => (await fetch(src)).headers.get('content-type'), manifest.icons[0].src as string);
  expect(iconType).toBe('image/png');
});

test('the service worker controls the page, and visited pages open offline; others say so and go home', async ({ page, context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  await page.goto(storeUrl('downtown', '/'));
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The first load was not controlled yet (clients.claim makes it so): reload under the worker.
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
  await page.goto(storeUrl('downtown', '/menu/flower'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const heading = await page.getByRole('heading', { level: 1 }).textContent();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading!);

  await page.goto(storeUrl('downtown', '/p/NEVER-VISITED/never-visited'));
  await expect(page.getByRole('alert')).toHaveText(OFFLINE_MESSAGE);
  // …then home, from the cache.
  await page.waitForURL(storeUrl('downtown', '/'), { timeout: 10_000 });
  await expect(page.locator('header')).toBeVisible();
  await context.setOffline(false);
});

test('the home is precached as /pwa.html when the worker installs: offline it opens without a visit', async ({ page, context }) => {
  await passGateByCookie(context, 'harbor', 'recreational');
  // The first page is not the home; the worker installs from it.
  await page.goto(storeUrl('harbor', '/menu/flower'));
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(async () => (await (await caches.open('verdant-pages')).keys()).map((r) => new URL(r.url).pathname))).toEqual(expect.arrayContaining(['/', '/pwa.html']));
  await context.setOffline(true);
  for (const path of ['/pwa.html', '/']) {
    await page.goto(storeUrl('harbor', path));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verdant Harbor');
  }
  await context.setOffline(false);
});

test('offline, the menu runs on the catalogue snapshot: categories, filters, sort, typo search, a product; the banner says how fresh it is', async ({ page, context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  // Since issue 15 the compact snapshot (?format=2), fetched by the offline catalogue worker.
  const snapshot = page.waitForResponse((r) => r.url().includes('/api/catalog/snapshot?format=2') && r.status() === 200);
  await page.goto(storeUrl('downtown', '/'));
  await snapshot;
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  await context.setOffline(true);
  await expect(page.getByRole('status').filter({ hasText: 'You are offline' })).toContainText(/browsing the menu as of \d{1,2}\/\d{1,2}\/\d{4} \d\d:\d\d;/);

  // A category never opened online: its data comes from the snapshot.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Menu' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Menu');
  await page.getByRole('navigation', { name: 'Subcategories' }).getByRole('link', { name: 'Flower' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Flower');
  const filters = page.getByRole('complementary', { name: 'Product filters' });
  await filters.getByRole('group', { name: 'Size' }).getByRole('checkbox', { name: /^3\.5 g \(1\/8 oz\)/ }).check();
  await expect(filters.getByRole('checkbox', { name: /^3\.5 g/ })).toBeChecked();
  await page.getByLabel('Sort by').selectOption({ label: 'Price: Low to high' });
  await expect(page).toHaveURL(/sort=price_asc/);
  const cards = page.getByRole('main').getByRole('article');
  await expect(cards.first()).toBeVisible();

  // Search with a typo, as the full results page.
  await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
  const panel = page.getByRole('dialog', { name: 'Search the menu' });
  await panel.getByRole('searchbox', { name: 'Search the menu' }).fill('blue drem');
  // Instant results come from the snapshot too.
  await expect(panel.getByRole('list', { name: 'Search results' }).getByRole('listitem').first()).toContainText(/Blue Dream/i);
  await panel.getByRole('searchbox', { name: 'Search the menu' }).press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search results for “blue drem”');
  const first = page.getByRole('main').getByRole('article').first();
  await expect(first).toContainText(/Blue Dream/i);

  // A product page from the snapshot.
  await first.getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/Blue Dream/i);
  await context.setOffline(false);
});
