/**
 * Issue 15: the offline catalogue is downloaded, stored and indexed by a dedicated worker, not by
 * the page. After a reload with no network, the instant search is answered by a new worker from the
 * copy in IndexedDB.
 */
import { expect, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

test.use({ serviceWorkers: 'allow' });

test('offline search is served by the catalogue worker from IndexedDB after a reload', async ({ page, context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  await page.goto(storeUrl('downtown', '/'));
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // Reload under the service worker's control (so the page and the worker's script open offline).
  const worker = page.waitForEvent('worker', (w) => /catalog-worker/.test(w.url()));
  const snapshot = page.waitForResponse((r) => r.url().includes('/api/catalog/snapshot?format=2') && r.status() === 200);
  await page.reload();
  // A fetch's resource-timing entry is recorded when its body has arrived, not with the headers that
  // resolve waitForResponse: on a busy machine the check below ran before the body was in (the
  // worker had fetched it, but had no entry yet). Wait for the body, then for the entry.
  await (await snapshot).finished();
  const catalogWorker = await worker;
  // The worker fetched it, the page did not.
  const fetchedBy = (scope: { evaluate: (f: () => boolean) => Promise<boolean> }) =>
    scope.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/api/catalog/snapshot')));
  await expect.poll(() => fetchedBy(catalogWorker)).toBe(true);
  expect(await fetchedBy(page)).toBe(false);
  // Stored: the record the page may read says so.
  await expect
    .poll(() =>
      catalogWorker.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            const open = indexedDB.open('verdant-cache-downtown');
            open.onsuccess = () => {
              const get = open.result.transaction('keyval').objectStore('keyval').get('verdant:downtown:catalog-snapshot');
              get.onsuccess = () => resolve(get.result?.v?.stored === true);
              get.onerror = () => resolve(false);
            };
            open.onerror = () => resolve(false);
          }),
      ),
    )
    .toBe(true);

  await context.setOffline(true);
  const offlineWorker = page.waitForEvent('worker', (w) => /catalog-worker/.test(w.url()));
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'You are offline' })).toContainText('browsing the menu as of');
  await offlineWorker;
  await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
  const panel = page.getByRole('dialog', { name: 'Search the menu' });
  await panel.getByRole('searchbox', { name: 'Search the menu' }).fill('blue drem');
  await expect(panel.getByRole('list', { name: 'Search results' }).getByRole('listitem').first()).toContainText(/Blue Dream/i);
  await context.setOffline(false);
});
