import { overLimitMessage } from '@verdant/domain';
import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';
import { notice, openCart } from '../fixtures/cart.ts';

/**
 * Issue 30: quick add from a category page on a phone — "Add <name> to cart" on a product without
 * choices, a size chooser on a product with sizes — through the product page's cart action (its
 * licence, limit and stock checks, then the server's); the price says its weight and per gram.
 */
test.use({ viewport: { width: 390, height: 844 } });

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'nothing scrolls sideways').toBeLessThanOrEqual(0);
}

async function hydrated(page: Page) {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

const card = (page: Page, name: string) => page.locator('article.card').filter({ has: page.getByRole('link', { name, exact: true }) });

test.describe('quick add on cards (recreational shopper, 390 px)', () => {
  test.beforeEach(async ({ context }) => {
    await passGateByCookie(context, 'downtown', 'recreational');
  });

  test('a product without choices and a sized one from category pages: added, counted, announced; nothing moves or overflows', async ({ page, browser }) => {
    await page.goto(storeUrl('downtown', '/menu/edibles'));
    await hydrated(page);
    const add = page.getByRole('button', { name: /^Add .+ to cart$/ }).first();
    await expect(add).toBeVisible();
    // Its name names the product; the visible words are the usual ones.
    const name = /^Add (.+) to cart$/.exec((await add.textContent())!.trim())![1];
    await expect(add).toHaveAccessibleName(`Add ${name} to cart`);
    // Seen: "Add to cart", spaced (the product's name is for screen readers).
    const seen = await add.evaluate((b) => {
      const copy = b.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('.sr-only').forEach((e) => e.remove());
      return copy.textContent;
    });
    expect(seen).toBe('Add to cart');
    // An edible states its THC: its card compares by the price of 10 mg.
    await expect(page.locator('[data-unit-price]').filter({ hasText: '/10 mg THC' }).first()).toBeVisible();
    await noSidewaysScroll(page);
    await expectNoAxeViolations(page);

    await add.click();
    await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
    // Announced by the page's polite notice region, which was there before the notice.
    await expect(page.locator('[data-notifications="status"][aria-live="polite"]')).toContainText('Product has been added to the cart!');
    await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
    await expect(add).toBeFocused();

    await page.goto(storeUrl('downtown', '/menu/flower'));
    await hydrated(page);
    const blueDream = card(page, 'Blue Dream');
    // "from $X / 1 g" (read "from $X for 1 g"): the lowest price says the weight it is for.
    await expect(blueDream.locator('p.mt-auto')).toContainText(/from \$\d+\.\d\d \/ +for \d+(\.\d)? g/);
    const choose = blueDream.getByRole('button', { name: 'Choose size of Blue Dream' });
    await choose.click();
    const dialog = page.getByRole('dialog', { name: 'Choose a size: Blue Dream' });
    await expect(dialog).toBeVisible();
    const sizes = dialog.getByRole('list', { name: 'Sizes' }).getByRole('button');
    await expect(sizes.first()).toBeFocused();
    // Each size with what the cart charges and its price per gram.
    await expect(dialog.getByRole('button', { name: /^Add 3\.5 g \(1\/8 oz\) to cart, .*\$\d+\.\d\d per gram$/ })).toBeVisible();
    await noSidewaysScroll(page);
    const box = await dialog.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    expect(box!.y + box!.height).toBeLessThanOrEqual(844 + 1);
    await expectNoAxeViolations(page);

    await dialog.getByRole('button', { name: /^Add 7 g \(1\/4 oz\) to cart/ }).click();
    await expect(dialog).toBeHidden();
    await expect(choose).toBeFocused();
    await expect(page.getByRole('button', { name: 'Cart, 2 items' })).toBeVisible();
    await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
    const cart = await openCart(page);
    await expect(cart.getByText('Size 7 g (1/4 oz)')).toBeVisible();
    await expect(cart.getByRole('list', { name: 'Cart items' }).getByRole('listitem')).toHaveCount(2);
    await page.keyboard.press('Escape');

    // Without JavaScript the card is what it was (its link), and the slot the button takes is
    // already there: the card is the same height before and after the page runs.
    const heightNow = (await blueDream.boundingBox())!.height;
    const noJs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    try {
      await passGateByCookie(noJs, 'downtown', 'recreational');
      const plain = await noJs.newPage();
      await plain.goto(storeUrl('downtown', '/menu/flower'));
      const plainCard = card(plain, 'Blue Dream');
      await expect(plainCard.getByRole('button')).toHaveCount(2); // the wishlist and compare toggles only
      expect((await plainCard.boundingBox())!.height).toBe(heightNow);
    } finally {
      await noJs.close();
    }
  });

  test('keyboard: the size chooser opens with Enter, closes with Escape, and the focus comes back', async ({ page }) => {
    await page.goto(storeUrl('downtown', '/menu/flower'));
    await hydrated(page);
    const choose = card(page, 'Blue Dream').getByRole('button', { name: 'Choose size of Blue Dream' });
    await choose.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Choose a size: Blue Dream' });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(choose).toBeFocused();
    // Tab order: the chooser opens on the first size, and Tab stays inside the dialog.
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Sizes' }).getByRole('button').first()).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(choose).toBeFocused();
  });

  test('the purchase limit: a quick add past 28.5 g is refused with the spec’s message', async ({ page }) => {
    await page.goto(storeUrl('downtown', '/menu/flower'));
    await hydrated(page);
    const choose = card(page, 'Blue Dream').getByRole('button', { name: 'Choose size of Blue Dream' });
    const dialog = page.getByRole('dialog', { name: 'Choose a size: Blue Dream' });
    await choose.click();
    await dialog.getByRole('button', { name: /^Add 28 g \(1 oz\) to cart/ }).click();
    await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();

    await choose.click();
    await dialog.getByRole('button', { name: /^Add 3\.5 g \(1\/8 oz\) to cart/ }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('alert').filter({ hasText: overLimitMessage(3) })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
    const cart = await openCart(page);
    await expect(cart.getByText('THC-equivalent: 28 g of 28.5 g')).toBeVisible();
    await expect(cart.getByRole('list', { name: 'Cart items' }).getByRole('listitem')).toHaveCount(1);
  });
});
