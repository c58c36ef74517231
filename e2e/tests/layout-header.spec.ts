import { expect, passGateByCookie, test } from '../fixtures/store.ts';
import type { Locator, Page } from '@playwright/test';

const WIDTHS = [360, 390, 768, 1024, 1280, 1536];

/** Every control of the header a shopper may need: the main destinations and the tools. */
function headerTargets(page: Page): { name: string; locator: Locator }[] {
  const banner = page.getByRole('banner');
  const nav = banner.getByRole('navigation', { name: 'Main' });
  return [
    ...['Menu', 'Deals', 'Sale', 'Store info'].map((name) => ({ name, locator: nav.getByRole('link', { name, exact: true }) })),
    { name: 'Search', locator: banner.getByRole('button', { name: /^Search/ }) },
    { name: 'Wishlist', locator: banner.getByRole('button', { name: 'Wishlist 3 items' }) },
    { name: 'Compare', locator: banner.getByRole('link', { name: 'Compare 2 products' }) },
    { name: 'Log in', locator: banner.getByRole('button', { name: 'Log in' }) },
    { name: 'Cart', locator: banner.getByRole('button', { name: 'Cart, 1 item' }) },
    { name: 'Shopping type', locator: banner.getByRole('button', { name: /Change shopping type/ }) },
  ];
}

/** Inside the viewport, and the element a tap at its centre lands on is the control itself. */
async function expectReachable(page: Page, name: string, locator: Locator, width: number) {
  await expect(locator, `${name} at ${width} px`).toBeVisible();
  const box = (await locator.boundingBox())!;
  expect(box.x, `${name} left edge at ${width} px`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${name} right edge at ${width} px`).toBeLessThanOrEqual(width);
  expect(box.width, `${name} is not squeezed at ${width} px`).toBeGreaterThanOrEqual(24);
  const hit = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return at !== null && el.contains(at);
  });
  expect(hit, `a tap on ${name}'s centre hits ${name} at ${width} px`).toBe(true);
  // Its whole label shows: nothing of it is clipped by a scroll strip or a narrow box.
  const clipped = await locator.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(clipped, `${name} is not clipped at ${width} px`).toBe(false);
}

test('header: every destination and tool is visible and tappable at 360–1536 px, with counts showing', async ({ page, context }) => {
  test.setTimeout(60_000);
  await passGateByCookie(context, 'downtown', 'recreational');
  await page.setViewportSize({ width: 1280, height: 900 });
  // Counts in the header make the tools wider: 3 in the wishlist, 2 to compare, 1 in the cart.
  await page.goto('/menu');
  const main = page.getByRole('main');
  for (let i = 0; i < 3; i++) await main.getByRole('button', { name: /^Add to wishlist/ }).nth(i).click();
  for (let i = 0; i < 2; i++) await main.getByRole('button', { name: /^Add to compare/ }).nth(i).click();
  await page.goto('/p/FL-BLUE-DREAM/blue-dream');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();

  for (const width of WIDTHS) {
    await test.step(`${width} px`, async () => {
      await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
      await page.goto('/');
      await expect(page.getByRole('banner').getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
      const overflow = await page.evaluate(() => {
        const header = document.querySelector('header')!;
        return { header: header.scrollWidth - header.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth };
      });
      expect(overflow, `no horizontal overflow at ${width} px`).toEqual({ header: 0, page: 0 });
      for (const { name, locator } of headerTargets(page)) await expectReachable(page, name, locator, width);
    });
  }
});

test('header: a tap on "Sale" and on "Store info" on a phone opens those pages', async ({ page, context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const nav = page.getByRole('banner').getByRole('navigation', { name: 'Main' });
  // A real tap at the link's place (not a click dispatched to the element).
  const tap = async (name: string) => {
    const box = (await nav.getByRole('link', { name, exact: true }).boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  };
  await tap('Sale');
  await expect(page).toHaveURL(/\/sale$/);
  await tap('Store info');
  await expect(page).toHaveURL(/\/contact$/);
});

test('after the age gate the store opens at its top, header in view, focus on the page', async ({ page }) => {
  for (const size of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    await page.context().clearCookies();
    await page.setViewportSize(size);
    await page.goto('/');
    const gate = page.getByRole('dialog', { name: 'Are you 21 or older?' });
    // The app runs (the gate is a true modal) before the shopper answers.
    await expect(page.locator('dialog[data-age-gate]:modal')).toHaveCount(1);
    await gate.getByRole('checkbox', { name: 'I certify that I am 21 years old or older' }).check();
    await gate.getByRole('group', { name: 'How are you shopping today?' }).getByRole('radio', { name: 'Recreational' }).check();
    await gate.getByRole('button', { name: 'Enter store' }).click();
    await expect(gate).toBeHidden();
    await expect(page.locator('#main-content')).toBeFocused();
    expect(await page.evaluate(() => window.scrollY), `scrolled at ${size.width} px`).toBe(0);
    await expect(page.getByRole('banner')).toBeInViewport({ ratio: 1 });
  }
});
