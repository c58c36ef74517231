/**
 * Issue 15: loaders get the server's own Request (React Router's `v8_passThroughRequests`), so on a
 * client navigation their request is the `.data` request (`/menu/flower.data?…&_routes=…`), and
 * they must read the address from their `url` argument. A page reached by a client navigation is
 * the page a document load of the same address shows: same final address (mapped aliases and
 * redirects included), title, heading, canonical link, listing and form values.
 */
import type { Page } from '@playwright/test';
import { expect, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

const PATHS = [
  '/menu/flower?size=92&price=0-50',
  '/menu?q=blue+dream&sort=price_asc',
  '/terms',
  '/create-password?email=nobody%40example.com&token=not-a-real-token',
  '/blue-dream',
  '/no/such/page',
];

async function seen(page: Page) {
  return page.evaluate(() => ({
    address: location.pathname + location.search,
    title: document.title,
    heading: document.querySelector('h1')?.textContent ?? null,
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
    cards: [...document.querySelectorAll('main article')].map((a) => a.querySelector('a')?.getAttribute('href')),
    inputs: [...document.querySelectorAll<HTMLInputElement>('main input[name]')].map((i) => `${i.name}=${i.value}`),
  }));
}

// One test per address: each is two page loads and a client navigation, with its own time budget
// (all six in one test took most of the 30 s on a loaded machine).
for (const path of PATHS) {
  test(`a client navigation to ${path} shows what a document load of the same address shows`, async ({ page, context }) => {
    await passGateByCookie(context, 'downtown', 'recreational');
    await page.goto(storeUrl('downtown', path));
    await expect(page.locator('h1').first()).toBeVisible();
    // Settled: a page's mount effects may change what is seen (the password page takes the reset
    // token out of the address), and they have run once <html data-hydrated> is set.
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    const loaded = await seen(page);

    await page.goto(storeUrl('downtown', '/'));
    // Hydrated: React has committed the page (root.tsx marks <html data-hydrated> from an effect,
    // which runs after the router's subscriptions). The router object exists, initialized, before
    // that: a navigation started then ran against a router nobody listened to yet, and the page
    // stayed on `/`.
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await page.evaluate(() => ((window as unknown as { __marker: string }).__marker = 'same document'));
    const dataRequests: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (new URL(r.url()).pathname.endsWith('.data')) dataRequests.push(r.url());
    };
    page.on('request', onRequest);
    await page.evaluate(async (to) => {
      const router = (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter;
      await router.navigate(to);
    }, path);
    page.off('request', onRequest);
    await expect(page).toHaveTitle(loaded.title);
    expect(dataRequests.length, path).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe('same document');
    // The same page once its mount effects have run after the navigation as after the load.
    await expect.poll(() => seen(page), { message: path }).toEqual(loaded);
  });
}

