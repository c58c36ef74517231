import type { Locator, Page } from '@playwright/test';
import { expect, passGateByCookie, test } from '../fixtures/store.ts';
import { notice, openCart } from '../fixtures/cart.ts';

const BLUE_DREAM = '/p/FL-BLUE-DREAM/blue-dream';
const ADDED = 'Product has been added to the cart!';

test.beforeEach(async ({ context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
});

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The shown notice's box does not meet any of the controls'. */
async function expectClear(noticeBox: Locator, controls: Locator[]) {
  const box = (await noticeBox.boundingBox())!;
  for (const control of controls) {
    const c = (await control.boundingBox())!;
    expect(overlap(box, c), `the notice ${JSON.stringify(box)} covers ${JSON.stringify(c)}`).toBe(false);
  }
}

function productControls(page: Page) {
  return {
    add: page.getByRole('button', { name: 'Add to cart' }),
    qty: page.getByRole('textbox', { name: /^Quantity of / }),
  };
}

test('phone: the "added" notice keeps clear of the quantity and Add to cart, wherever they sit on screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(BLUE_DREAM);
  const { add, qty } = productControls(page);
  await expect(add).toBeEnabled();
  const card = page.locator('[data-notifications="status"] > *').filter({ hasText: ADDED });

  // Low on the screen, where a notice at the bottom edge would sit on it.
  await add.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - window.innerHeight + 8));
  let box = (await add.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(card).toBeVisible();
  await expectClear(card, [add, qty]);
  await card.getByRole('button', { name: 'OK' }).click();
  await expect(card).toHaveCount(0);

  // High on the screen: the notice is not put over it either.
  await add.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 140));
  box = (await add.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.locator('[data-notifications="status"]').getByText('Product quantity has been updated!')).toBeVisible();
  await expectClear(page.locator('[data-notifications="status"] > *'), [add, qty]);
});

test('a notice does not follow the shopper to another page (checkout)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.clock.install();
  await page.goto(BLUE_DREAM);
  await productControls(page).add.click();
  await expect(notice(page, ADDED)).toBeVisible();
  const cart = await openCart(page);
  await expect(notice(page, ADDED)).toBeVisible();
  // Time stands still from here: no timer can take the notice away, only leaving the page.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
  await cart.getByRole('link', { name: 'Proceed to checkout' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await expect(page.locator('[data-notifications] > *')).toHaveCount(0);
});

test('a notice with "Proceed to checkout" stays until dismissed (not gone after 5 s)', async ({ page }) => {
  await page.clock.install();
  await page.goto(BLUE_DREAM);
  await productControls(page).add.click();
  const card = page.locator('[data-notifications="status"] > *').filter({ hasText: ADDED });
  await expect(card).toBeVisible();
  await page.mouse.move(0, 0);
  await page.clock.runFor(30_000);
  await expect(card.getByRole('button', { name: 'Proceed to checkout' })).toBeVisible();
  await card.getByRole('button', { name: 'OK' }).click();
  await expect(card).toHaveCount(0);
});

test('keyboard: Add to cart keeps the focus, and the result is announced', async ({ page }) => {
  await page.goto(BLUE_DREAM);
  const { add } = productControls(page);
  await expect(add).toBeEnabled();
  await add.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-notifications="status"]')).toContainText(ADDED);
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
  await expect(add).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-notifications="status"]')).toContainText('Product quantity has been updated!');
  await expect(add).toBeFocused();
});

test('keyboard: toggling a sidebar filter keeps the focus on it, and the new count is announced', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/menu');
  const filters = page.getByRole('form', { name: 'Filters' });
  const box = filters.getByRole('checkbox').first();
  const id = (await box.getAttribute('id'))!;
  const label = (await filters.locator(`label[for="${id}"]`).textContent())!;
  const count = /, (\d+) products?$/.exec(label)![1];
  const status = page.getByRole('main').getByRole('status');
  await box.focus();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/\?/);
  await expect(status).toHaveText(new RegExp(`^${count} products?`));
  await expect(page.locator(`[id="${id}"]`)).toBeFocused();
  await expect(page.locator(`[id="${id}"]`)).toBeChecked();
  // And off again, still from the keyboard.
  await page.keyboard.press('Space');
  await expect(page).not.toHaveURL(/\?/);
  await expect(page.locator(`[id="${id}"]`)).toBeFocused();
  await expect(page.locator(`[id="${id}"]`)).not.toBeChecked();
});
