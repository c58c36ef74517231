/**
 * Issue 13: the API's docs page (GET /api/docs) in a real browser: axe clean (WCAG 2.2 AA and best
 * practices) on a desktop and a phone, nothing refused by the API's Content-Security-Policy, every
 * operation of /api/openapi.json listed and reachable from the table of contents by keyboard.
 * Reads only; no data of its own needed.
 */
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`API docs page, ${name}`, () => {
    test.use({ viewport });

    test('is axe clean and runs into no CSP refusal', async ({ page }) => {
      // axe walks every one of the page's ~2,200 elements (all operations, schemas and examples of the
      // document); on a loaded 2-core machine that alone took over 25 s of the 30 s default, so this
      // test gets the triple time of a slow test. What it checks is unchanged.
      test.slow();
      const refused: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
      });
      const response = await page.goto('/api/docs');
      expect(response!.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Verdant API');
      await expectNoAxeViolations(page);
      expect(refused).toEqual([]);
    });
  });
}

test('lists every operation of the document, and the table of contents leads to each by keyboard', async ({ page }) => {
  await page.goto('/api/docs');
  // Read by the page (same origin): the test runner's own resolver knows no *.localhost hosts.
  const doc = await page.evaluate(() => fetch('/api/openapi.json').then((r) => r.json()));
  const operations = Object.entries(doc.paths as Record<string, Record<string, { summary: string }>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, summary: op.summary })),
  );
  expect(operations.length).toBeGreaterThan(40);
  const nav = page.getByRole('navigation', { name: 'Operations' });
  for (const op of operations) {
    await expect(nav.getByRole('link', { name: `${op.method} ${op.path}`, exact: true })).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 3, name: `${op.method} ${op.path}`, exact: true })).toHaveCount(1);
  }
  // Keyboard: focus the link of POST /api/cart/update and follow it; the operation's heading is the target.
  const link = nav.getByRole('link', { name: 'POST /api/cart/update', exact: true });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#op-post-api-cart-update$/);
  const heading = page.getByRole('heading', { level: 3, name: 'POST /api/cart/update', exact: true });
  await expect(heading).toBeInViewport();
  const article = page.getByRole('article', { name: 'POST /api/cart/update' });
  await expect(article.getByRole('heading', { level: 4, name: 'Request body' })).toBeVisible();
  await expect(article).toContainText('Add, change or replace cart lines');
});
