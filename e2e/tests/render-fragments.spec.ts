/**
 * Issue 15: product cards, and the header's and footer's parts, come from the server's fragment
 * cache (apps/web/app/lib/fragment-cache.ts) once a page has rendered them. The browser hydrates
 * its normal components over that markup: no hydration error or warning, and the cards' and the
 * header's buttons and links work as on a fully rendered page.
 * Each URL carries a fresh query so the output cache (which keeps no URL with a query) stays out
 * of it: the first visit renders the cards and fills the cache, the second is written from it.
 */
import { accountDialog, headerLogin } from '../fixtures/account.ts';
import type { Page } from '@playwright/test';
import { openCart } from '../fixtures/cart.ts';
import { expect, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

const PAGES = ['/', '/menu/flower', '/p/FL-BLUE-DREAM/blue-dream'];

/** The page's console errors and warnings and its uncaught errors, as they come. */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    // Playwright's own notice (playwright.config.ts blocks service workers), not the page's.
    if (m.text() === 'Service Worker registration blocked by Playwright') return;
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

test('pages written from cached cards hydrate without errors or warnings, and the cards work', async ({ page, context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  const problems = consoleProblems(page);
  let n = 0;
  for (const path of PAGES) {
    for (const visit of ['renders the cards', 'from the cache']) {
      n++;
      await page.goto(storeUrl('downtown', `${path}?render=${n}`));
      // Hydrated: React has attached its handlers (the search button opens the dialog client-side).
      await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
      const panel = page.getByRole('dialog', { name: 'Search the menu' });
      await expect(panel).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(panel).toBeHidden();
      expect(problems, `${path}: ${visit}`).toEqual([]);
    }
  }

  // A card past the eager ones (those are never cached) on the category page: its save button
  // toggles, and its name link navigates client-side.
  await page.goto(storeUrl('downtown', `/menu/flower?render=${++n}`));
  const card = page.locator('article.card').nth(6);
  const save = card.getByRole('button', { name: /Add to wishlist/ });
  await expect(save).toHaveAttribute('aria-pressed', 'false');
  await save.click();
  await expect(save).toHaveAttribute('aria-pressed', 'true');
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
  const link = card.locator('h3 a');
  const href = await link.getAttribute('href');
  await link.click();
  await expect(page).toHaveURL(storeUrl('downtown', href!));
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
  expect(problems).toEqual([]);
});

test('a header, footer, filter panel and product body written from the cache hydrate; buttons, filters, sizes and links work', async ({
  page,
  context,
}) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  const problems = consoleProblems(page);
  // The first visit renders the header and footer (and fills the cache), the second is written from it.
  for (const n of [1, 2]) await page.goto(storeUrl('downtown', `/menu/flower?chrome=${n}`));
  const banner = page.getByRole('banner');
  const nav = banner.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Menu' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Sale' })).not.toHaveAttribute('aria-current');

  // Hydrated header buttons: wishlist, cart, log in open their dialogs.
  await banner.getByRole('button', { name: /^Wishlist/ }).click();
  await expect(page.getByRole('dialog', { name: 'Wishlist' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Wishlist' })).toBeHidden();
  const cart = await openCart(page);
  await page.keyboard.press('Escape');
  await expect(cart).toBeHidden();
  await headerLogin(page).click();
  await expect(accountDialog(page, 'Log in')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(accountDialog(page, 'Log in')).toBeHidden();

  // The filter panel (from the cache too) and the breadcrumbs work hydrated: a filter applies at
  // once, client-side.
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
  const filters = page.getByRole('complementary', { name: 'Product filters' });
  await filters
    .getByRole('group', { name: 'Price' })
    .getByRole('checkbox', { name: /^< \$50/ })
    .check();
  await expect(page).toHaveURL(/[?&]price=0-50\b/);
  await expect(filters.getByRole('checkbox', { name: /^< \$50/ })).toBeChecked();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Menu' })).toHaveAttribute('href', '/menu');

  // The open-now line is the server's (the cached footer's), and the footer's and header's links
  // navigate client-side: the page's window survives, the current link follows.
  await expect(page.getByTestId('hours-status-pickup')).toHaveText(/^(Open now|Closed)/);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Contact us' }).click();
  await expect(page).toHaveURL(storeUrl('downtown', '/contact'));
  await expect(nav.getByRole('link', { name: 'Store info' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Menu' })).not.toHaveAttribute('aria-current');
  await nav.getByRole('link', { name: 'Sale' }).click();
  await expect(page).toHaveURL(storeUrl('downtown', '/sale'));
  await expect(nav.getByRole('link', { name: 'Sale' })).toHaveAttribute('aria-current', 'page');
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);

  // A product page written from the cache (sizes, facts, description, tags): choosing a size works
  // hydrated (the child sku goes into the URL, the price follows).
  for (const n of [1, 2]) await page.goto(storeUrl('downtown', `/p/FL-BLUE-DREAM/blue-dream?chrome=${n}`));
  const sevenGrams = page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: /^7 g \(1\/4 oz\)/ });
  await expect(page.getByRole('heading', { name: 'Good to know' })).toBeVisible();
  await sevenGrams.check();
  await expect(page).toHaveURL(storeUrl('downtown', '/p/FL-BLUE-DREAM/blue-dream/FL-BLUE-DREAM-QTR?chrome=2'));
  await expect(sevenGrams).toBeChecked();
  expect(problems).toEqual([]);
});
