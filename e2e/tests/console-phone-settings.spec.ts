/**
 * Issue 26, console usability on a phone (390×844): the Hours page and the API keys page fit the
 * screen — the page itself never scrolls sideways (document.scrollingElement.scrollWidth ≤
 * innerWidth); the hours stack, and the API keys table scrolls in its own box, which the keyboard
 * can reach — and both are axe clean. Tablet size (1024×768) too.
 *
 * Own data: an API key named with a word made for this run on Harbor (no other journey counts
 * Harbor's keys); the Hours page of Downtown is only read.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { consoleUrl, OWNER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

const DOWNTOWN = 1;
const HARBOR = 4;

async function noSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `page ${scrollWidth} px wide on a ${innerWidth} px screen`).toBeLessThanOrEqual(innerWidth);
}

for (const size of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 1024, height: 768 },
]) {
  test(`the Hours and API keys pages fit the screen and are axe clean (${size.name})`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await staffLogin(page, OWNER);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();

    await page.goto(consoleUrl(`/stores/${DOWNTOWN}/settings-hours`));
    await expect(page.getByRole('heading', { level: 1, name: 'Hours and time slots' })).toBeVisible();
    await expect(page.getByLabel('Pickup opens on Monday')).toBeVisible();
    await noSidewaysScroll(page);
    // A day's opening and closing are both on screen (stacked on a phone), not cut off.
    await page.getByLabel('Pickup closes on Monday').scrollIntoViewIfNeeded();
    await expect(page.getByLabel('Pickup opens on Monday')).toBeInViewport({ ratio: 1 });
    await expect(page.getByLabel('Pickup closes on Monday')).toBeInViewport({ ratio: 1 });
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `/tmp/settings-shots/hours-${size.name}.png`, fullPage: true });

    await page.goto(consoleUrl(`/stores/${HARBOR}/api-keys`));
    await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
    const name = `Layout POS ${randomUUID().slice(0, 8)}`;
    await page.getByRole('button', { name: 'Create an API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Name (e.g. the POS it is for)').fill(name);
    await dialog.getByRole('button', { name: 'Create the key' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'I copied it' }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toBeVisible();
    await noSidewaysScroll(page);
    // The table's box takes the keyboard's focus, and the arrow keys bring its last column into view.
    const box = page.getByRole('region', { name: /^API keys of .*, scrollable$/ });
    await box.focus();
    await expect(box).toBeFocused();
    for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
    await expect(row.getByRole('button', { name: `Revoke ${name}` })).toBeInViewport({ ratio: 1 });
    await noSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `/tmp/settings-shots/api-keys-${size.name}.png`, fullPage: true });
  });
}
