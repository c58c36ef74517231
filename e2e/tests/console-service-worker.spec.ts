/**
 * The storefront's service worker shares the host with the store console: it must leave console
 * pages and staff-only files to the network, so nothing of the staff side lands in a storefront
 * cache (a shared counter tablet that also browsed the shop keeps no console page, no ID image).
 */
import { expectQueue, staffLogin } from '../fixtures/console.ts';
import { expect, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

test.use({ serviceWorkers: 'allow' });

test('console pages and staff-only requests never enter the storefront caches', async ({ page, context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  await page.goto(storeUrl('downtown', '/'));
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await staffLogin(page);
  await expectQueue(page);
  // An image request to a staff-only route, as the order page makes for an uploaded ID.
  await page.evaluate(async () => {
    const img = new Image();
    img.src = '/api/console/session';
    await new Promise((resolve) => {
      img.onload = img.onerror = resolve;
    });
  });
  // The storefront page visited before is cached: the worker is caching.
  await page.goto(storeUrl('downtown', '/'));
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
    return urls;
  });
  expect(cached).toContain('/');
  expect(cached.filter((p) => p.startsWith('/console') || p.startsWith('/api/console'))).toEqual([]);
});
