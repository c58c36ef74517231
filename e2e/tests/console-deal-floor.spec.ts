/**
 * Issue 28, "No line is ever below $0.01 (a store setting)": the owner sets the lowest price a deal
 * may leave on a 390 px phone, from the menu. Amounts typed as a rushed manager would ("1,00",
 * "$1", "0") are named at the field in words and nothing is saved; "1.00" saves, the history says
 * what changed and who changed it; the page fits the width and is axe clean. What the floor does
 * to totals, orders, page prices and the offline estimate: apps/server/src/deals/floor.test.ts.
 *
 * Own data: Eastside's `deal-floor` section (put back after); the shared server has no deals.
 */
import { expectQueue, keepSection, OWNER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

test.use({ viewport: { width: 390, height: 844 } });

test('the lowest price after a deal: a mistyped amount is named at the field, 1.00 saves with its history, the phone page fits', async ({ page }) => {
  await staffLogin(page, OWNER);
  await page.getByRole('link', { name: 'Eastside' }).first().click();
  await expectQueue(page);
  const putBack = await keepSection(page, 2, 'deal-floor');
  try {
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Lowest deal price' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Lowest price after a deal' })).toBeVisible();
    await expect(page.getByText('The price now is $0.01 (the default).')).toBeVisible();
    const field = page.getByLabel('Lowest unit price after deals (dollars)');
    await expect(field).toHaveValue('0.01');

    for (const [typed, words] of [
      ['1,00', 'Lowest price: use a point for cents: 1.00, not 1,00.'],
      ['$1', 'Lowest price: type the number without “$”, e.g. 1.'],
      ['0', 'The lowest price is at least 0.01: no unit is ever given away.'],
      ['', 'Enter the lowest price in dollars, from 0.01 to 1000.00.'],
    ] as const) {
      await field.fill(typed);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(field).toBeFocused();
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription(new RegExp(`${words.replace(/[.$()“”]/g, '\\$&')}$`));
    }
    await expectNoAxeViolations(page);
    await expect(page.getByRole('region', { name: 'History of changes' })).toContainText('No changes saved in the console yet.');

    await field.fill('1.00');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lowest price after a deal saved.' })).toBeVisible();
    await expect(page.getByText('The price now is $1.00 (saved in the console).')).toBeVisible();
    const newest = page.getByRole('region', { name: 'History of changes' }).getByRole('row').nth(1);
    await expect(newest).toContainText('minUnitCents: 1 → 100');
    await expect(newest).toContainText('Olivia Owner');
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
  } finally {
    await putBack();
  }
});
