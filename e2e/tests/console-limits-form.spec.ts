/**
 * Issue 26, console usability: purchase-limit buckets are edited in a form — a bucket added and
 * removed with buttons, its name, id, unit, window and caps as fields, what counts toward a flower-
 * equivalent bucket as ticks and figures — each mistake named at its field as soon as the focus
 * moves on, and the JSON behind a switch for power users. Tablet and phone size, axe clean, no
 * sideways page scroll.
 *
 * Own data: none written (Downtown's limits page is edited and left unsaved).
 */
import type { Locator, Page } from '@playwright/test';
import { consoleUrl, OWNER, staffLogin } from '../fixtures/console.ts';
import { axe, expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

const DOWNTOWN = 1;
const CAP_PROBLEM = 'A cap is a number above 0 in the bucket’s unit, “no cap” or “not sold”.';

/** Axe on the page at tablet size; on a phone on the limits form (the page's history table is another change's). */
async function axeClean(page: Page, whole: boolean) {
  if (whole) return expectNoAxeViolations(page);
  const results = await axe(page).include('form[aria-label="Purchase limits"]').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

async function typeAndLeave(field: Locator, text: string) {
  await field.fill(text);
  await field.press('Tab');
}

for (const size of [
  { name: 'tablet', width: 1024, height: 768 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`limits form: a bucket added, its mistakes named at the field, removed again; JSON behind a switch (${size.name})`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await staffLogin(page, OWNER);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
    await page.goto(consoleUrl(`/stores/${DOWNTOWN}/settings-limits`));
    await expect(page.getByRole('heading', { level: 1, name: 'Purchase limits' })).toBeVisible();

    const toggle = page.getByRole('button', { name: 'Edit as JSON' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByLabel('Buckets (JSON)')).toHaveCount(0);
    const buckets = page.getByRole('group', { name: /^Bucket \d+:/ });
    const before = await buckets.count();
    expect(before).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Add a bucket' }).click();
    await expect(buckets).toHaveCount(before + 1);
    const bucket = buckets.last();
    await expect(bucket.getByLabel('Name', { exact: true })).toBeFocused();
    await bucket.getByLabel('Name', { exact: true }).fill('Edibles THC');
    await expect(bucket).toHaveAccessibleName(`Bucket ${before + 1}: Edibles THC`);

    // Mistakes are named at their field once the focus moves on, before any Save.
    const id = bucket.getByLabel('Id', { exact: true });
    await typeAndLeave(id, 'Edibles');
    await expect(id).toHaveAttribute('aria-invalid', 'true');
    await expect(id).toHaveAccessibleDescription(/Id: lowercase letters, digits, “-” and “_”, starting with a letter, at most 40\.$/);
    await expect(page.getByRole('alert').filter({ hasText: 'The purchase limits were not saved:' })).toHaveCount(0);
    await id.fill('edibles-thc');
    await expect(id).not.toHaveAttribute('aria-invalid', 'true');

    await bucket.getByLabel('Counted in').selectOption({ label: 'Milligrams of THC' });
    const recResident = bucket.getByLabel('Edibles THC: cap, recreational resident');
    await typeAndLeave(recResident, '0');
    await expect(recResident).toHaveAccessibleDescription(CAP_PROBLEM);
    await recResident.fill('1000');
    await bucket.getByLabel('Edibles THC: cap, recreational non-resident').fill('500');
    await bucket.getByLabel('Edibles THC: cap, medical resident').fill('no cap');
    await bucket.getByLabel('Edibles THC: cap, medical non-resident').fill('not sold');
    await bucket.getByLabel('Edibles THC: window').selectOption({ label: 'Rolling days' });
    const days = bucket.getByLabel('Edibles THC: days in the window');
    await days.fill('400');
    await days.press('Tab');
    await expect(days).toHaveAccessibleDescription('Enter a whole number of days from 1 to 366.');
    await days.fill('30');
    await expect(days).not.toHaveAttribute('aria-invalid', 'true');

    // A flower-equivalent bucket says what counts, and at what rate.
    await bucket.getByLabel('Counted in').selectOption({ label: 'Grams of flower equivalent' });
    await expect(bucket.getByRole('checkbox', { name: 'Counts g of flower' })).toBeChecked();
    await bucket.getByRole('checkbox', { name: 'Counts g of concentrate' }).check();
    const rate = bucket.getByLabel('Edibles THC: g of concentrate counts as grams of flower');
    await typeAndLeave(rate, '-3.5');
    await expect(rate).toHaveAccessibleDescription('Counts as (g of flower): a number above 0, at most 3 decimals.');
    await rate.fill('3.5');
    await axeClean(page, size.name === 'tablet');
    const widths = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
    expect(widths.scroll, 'no sideways page scroll').toBeLessThanOrEqual(widths.inner);
    await page.screenshot({ path: `/tmp/settings-shots/limits-${size.name}.png`, fullPage: true });

    // The JSON holds the same bucket.
    await toggle.click();
    const doc = JSON.parse(await page.getByLabel('Buckets (JSON)').inputValue()) as { buckets: Record<string, unknown>[] };
    expect(doc.buckets.at(-1)).toEqual({
      id: 'edibles-thc',
      label: 'Edibles THC',
      unit: 'flower_equivalent_g',
      counts: { flower_g: { amount: 1, counts_as: 1 }, concentrate_g: { amount: 1, counts_as: 3.5 } },
      caps: { recreational: { resident: 1000, non_resident: 500 }, medical: { resident: 'no_cap', non_resident: 'not_sold' } },
      window: { type: 'rolling_days', days: 30 },
    });
    await toggle.click();

    // Removed again with its button; the focus stays in the form.
    await buckets.last().getByRole('button', { name: 'Remove bucket Edibles THC' }).click();
    await expect(buckets).toHaveCount(before);
    await expect(page.locator(':focus')).toHaveCount(1);
    await axeClean(page, size.name === 'tablet');
  });
}
