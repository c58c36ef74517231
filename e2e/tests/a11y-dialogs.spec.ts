import { expect, expectNoAxeViolations, passGateByCookie, test } from '../fixtures/store.ts';
import { addToCart, notice, openCart } from '../fixtures/cart.ts';

/**
 * axe (WCAG 2.0–2.2 A/AA and best practices, e2e/fixtures/store.ts) on what a11y-pages.spec.ts
 * does not open: the full search-results page, the phone filters drawer while open, the licence
 * change dialog, and the cart's remove and clear confirmations; on a desktop and on a phone,
 * wherever each exists at that width. One test a width opens them in turn (axe runs are the cost).
 */
const BLUE_DREAM = '/p/FL-BLUE-DREAM/blue-dream';
const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 }, drawer: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, drawer: true },
];

for (const { name, viewport, drawer } of VIEWPORTS) {
  test.describe(`axe WCAG 2.2 AA on open dialogs, ${name}`, () => {
    test.use({ viewport });

    test.beforeEach(async ({ context }) => {
      await passGateByCookie(context, 'downtown', 'recreational');
    });

    test('search results page, filters drawer, licence change, cart remove and clear confirmations', async ({ page }) => {
      test.setTimeout(90_000);
      const main = page.getByRole('main');

      await test.step('the full search-results page', async () => {
        await page.goto('/menu?q=blue');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(main.getByRole('link', { name: /Blue Dream/ }).first()).toBeVisible();
        await expectNoAxeViolations(page);
      });

      await test.step(drawer ? 'the filters drawer, open' : 'no filters drawer on a desktop (the sidebar shows)', async () => {
        const button = main.getByRole('button', { name: /^Filters/ });
        if (!drawer) {
          await expect(button).toBeHidden();
          await expect(page.getByRole('complementary', { name: 'Product filters' })).toBeVisible();
          return;
        }
        await button.click();
        const dialog = page.getByRole('dialog', { name: 'Filters' });
        await expect(dialog).toBeVisible();
        await expect(dialog.getByRole('group').first()).toBeVisible();
        await expectNoAxeViolations(page);
        await dialog.getByRole('button', { name: 'Close filters' }).click();
        await expect(dialog).toBeHidden();
        await expect(button).toBeFocused();
      });

      await test.step('the licence change dialog, open', async () => {
        const change = page.getByRole('banner').getByRole('button', { name: /Change shopping type/ });
        await change.click();
        const dialog = page.getByRole('dialog', { name: 'Change shopping type' });
        await expect(dialog).toBeVisible();
        await expect(dialog.getByRole('radio', { name: /Recreational/ })).toBeFocused();
        await expectNoAxeViolations(page);
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await expect(dialog).toBeHidden();
        await expect(change).toBeFocused();
      });

      await test.step('the cart’s remove and clear confirmations, open', async () => {
        await addToCart(page, BLUE_DREAM, /^1 g/, 1);
        await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
        const cart = await openCart(page);
        await cart.getByRole('button', { name: 'Remove Blue Dream 1 g' }).click();
        const remove = cart.getByRole('group', { name: 'Remove Blue Dream 1 g?' });
        await expect(remove.getByRole('button', { name: 'Yes, remove' })).toBeFocused();
        await expectNoAxeViolations(page);
        await remove.getByRole('button', { name: 'Keep it' }).click();
        await expect(remove).toBeHidden();

        await cart.getByRole('button', { name: 'Clear cart' }).click();
        const clear = cart.getByRole('group', { name: 'Clear cart?' });
        await expect(clear.getByRole('button', { name: 'Yes, clear cart' })).toBeFocused();
        await expectNoAxeViolations(page);
      });
    });
  });
}
