import { STATIC_PAGE_IDENTIFIERS } from '@verdant/domain';
import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, passGateByCookie, test } from '../fixtures/store.ts';
import { notice, openCart } from '../fixtures/cart.ts';
import { accountDialog, createCustomer, headerLogin, loginByPhone, newCustomer, placeOrderAs } from '../fixtures/account.ts';

/**
 * axe (WCAG 2.0–2.2 A/AA and best practices, e2e/fixtures/store.ts) on every kind of page and
 * every dialog, on a desktop and on a phone.
 */
const BLUE_DREAM = '/p/FL-BLUE-DREAM/blue-dream';
const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

async function scan(page: Page, path: string) {
  await test.step(path, async () => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoAxeViolations(page);
  });
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`axe WCAG 2.2 AA, ${name}`, () => {
    test.use({ viewport });

    test('the age gate', async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('dialog[data-age-gate]:modal')).toHaveCount(1);
      await expectNoAxeViolations(page);
    });

    test.describe('a shopper past the gate', () => {
      test.beforeEach(async ({ context }) => {
        await passGateByCookie(context, 'downtown', 'recreational');
      });

      // One test a page: home, category, sale, product, contact, each static page, 404.
      // ('sale' is also a static page identifier: each path once.)
      for (const path of new Set(['/', '/menu', '/sale', BLUE_DREAM, '/contact', ...STATIC_PAGE_IDENTIFIERS.map((p) => `/${p}`), '/no-such-page'])) {
        test(`page ${path}`, async ({ page }) => {
          await scan(page, path);
        });
      }

      test('page /compare (with a product)', async ({ page }) => {
        await page.goto('/menu');
        await page.getByRole('main').getByRole('button', { name: /^Add to compare/ }).first().click();
        await scan(page, '/compare');
      });

      test('dialogs: search, wishlist, cart, login; a notice on screen', async ({ page }) => {
        test.setTimeout(60_000);
        await page.goto(BLUE_DREAM);
        await page.getByRole('button', { name: /^Add to wishlist/ }).first().click();
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
        await expectNoAxeViolations(page);

        await page.getByRole('banner').getByRole('button', { name: /^Search/ }).click();
        const search = page.getByRole('dialog', { name: 'Search the menu' });
        await search.getByRole('searchbox', { name: 'Search the menu' }).fill('blue');
        await expect(search.getByRole('link').first()).toBeVisible();
        await expectNoAxeViolations(page);
        await search.getByRole('button', { name: 'Close search' }).click();
        await expect(search).toBeHidden();

        await page.getByRole('banner').getByRole('button', { name: /^Wishlist/ }).click();
        await expect(page.getByRole('dialog', { name: 'Wishlist' })).toBeVisible();
        await expectNoAxeViolations(page);
        await page.keyboard.press('Escape');

        await openCart(page);
        await expectNoAxeViolations(page);
        await page.keyboard.press('Escape');

        await headerLogin(page).click();
        await expect(accountDialog(page, 'Log in')).toBeVisible();
        await expectNoAxeViolations(page);
      });

      test('checkout, and its error summary (targets at least 24×24 px)', async ({ page }) => {
        await page.goto(BLUE_DREAM);
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
        await scan(page, '/checkout');
        await page.getByRole('button', { name: 'Place order' }).click();
        const summary = page.getByRole('alert').filter({ hasText: 'fields need your attention:' });
        await expect(summary).toBeVisible();
        const links = summary.getByRole('link');
        expect(await links.count()).toBeGreaterThan(1);
        for (const box of await Promise.all((await links.all()).map((l) => l.boundingBox()))) {
          expect(box!.height, 'summary link height').toBeGreaterThanOrEqual(24);
          expect(box!.width, 'summary link width').toBeGreaterThanOrEqual(24);
        }
        await expectNoAxeViolations(page);
      });

      test('account pages and the profile dialog', async ({ page, request }) => {
        test.setTimeout(90_000);
        const customer = newCustomer();
        const { token } = await createCustomer(request, customer);
        await placeOrderAs(request, token, customer);
        await page.goto('/');
        await loginByPhone(page, customer.phone);
        for (const path of ['/my-account', '/my-account/shipping-details', '/my-account/newsletter', '/my-account/orders', '/my-account/reviews', '/my-account/recently-viewed']) await scan(page, path);
        await page.getByRole('banner').getByRole('button', { name: /^Your account: / }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await expectNoAxeViolations(page);
      });
    });
  });
}
