/**
 * The console's Menu page (issue 13): a member who runs the menu uploads a file, sees the problem
 * row the check reports, fixes the file, checks it again and applies it; a shopper in another
 * browser finds the new product by search without a restart; the member marks it sold out in two
 * taps and the shopper's product page says it is sold out.
 *
 * Own data: the Harbor store (no other journey looks at its menu) and products whose names carry a
 * word made for this run. Harbor's demo manager (staff/demo.ts) runs it.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { consoleUrl, HARBOR_MANAGER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

const HARBOR = 4;
const MENU = `/stores/${HARBOR}/menu`;

/** A word no demo product has: letters only, so search treats it as one term. */
function runWord(): string {
  return randomUUID()
    .replace(/-/g, '')
    .slice(0, 8)
    .replace(/[0-9]/g, (d) => 'qwxzvkjyph'[Number(d)]);
}

function menuFile(word: string, gummyPrice: string): Buffer {
  const header = 'external_id,sku,name,brand,category,unit,price,stock,description\n';
  const rows = [
    `J-${word}-1,J-${word.toUpperCase()}-GUM,Zephyr ${word} Gummies,Journey Kitchen,Edibles > Gummies,ea,${gummyPrice},12,Made for the menu journey.`,
    `J-${word}-2,J-${word.toUpperCase()}-CHOC,Zephyr ${word} Chocolate,Journey Kitchen,Edibles > Gummies,ea,9.50,4,Made for the menu journey.`,
  ];
  return Buffer.from(header + rows.join('\n') + '\n');
}

/** Sign in as Harbor's manager (one store: the console opens its orders), open its Menu from the navigation. */
async function openHarborMenu(page: Page) {
  await staffLogin(page, HARBOR_MANAGER);
  await expect(page).toHaveURL(consoleUrl(`/stores/${HARBOR}/orders`));
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Menu', exact: true }).click();
  await expect(page).toHaveURL(consoleUrl(MENU));
  await expect(page.getByRole('heading', { level: 1, name: 'Menu' })).toBeVisible();
}

async function shopper(browser: Browser, forwardedFor: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': forwardedFor }, serviceWorkers: 'block' });
  await passGateByCookie(context, 'harbor', 'recreational');
  return { context, page: await context.newPage() };
}

test('the manager imports a menu file, fixes the reported row, applies it; a shopper finds it; sold out in two taps', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const word = runWord();
  const gummy = `Zephyr ${word} Gummies`;
  await openHarborMenu(page);

  // Upload a file with a negative price: the check reports the row, column, value and reason.
  await page.getByRole('button', { name: 'Import a file' }).click();
  const panel = page.getByRole('region', { name: 'Import a menu file' });
  await panel.getByLabel('Menu file').setInputFiles({ name: 'harbor-menu.csv', mimeType: 'text/csv', buffer: menuFile(word, '-4.00') });
  await panel.getByRole('button', { name: 'Check the file' }).click();
  await expect(panel.getByTestId('import-status')).toHaveText('The file has 1 problem; nothing was changed.');
  const problems = panel.getByRole('table', { name: 'Problems' });
  await expect(problems.getByRole('row')).toHaveCount(2);
  // The row is named by its sku and name beside its number.
  await expect(problems.getByRole('row').nth(1).getByRole('cell')).toHaveText([
    '2',
    `J-${word.toUpperCase()}-GUM — ${gummy}`,
    'price',
    '-4.00',
    'price must not be negative',
  ]);
  await expect(panel.getByRole('button', { name: /^Apply/ })).toHaveCount(0);

  // Fix the file, check it again, apply exactly what was checked.
  await panel.getByLabel('Menu file').setInputFiles({ name: 'harbor-menu.csv', mimeType: 'text/csv', buffer: menuFile(word, '14.00') });
  await panel.getByRole('button', { name: 'Check the file' }).click();
  await expect(panel.getByRole('heading', { name: 'What this file would change' })).toBeFocused();
  await expect(panel.getByTestId('import-status')).toHaveText(
    'Checked: 2 new, 0 updated, 0 unchanged. Nothing is changed until you apply it.',
  );
  await panel.getByRole('button', { name: 'Apply these 2 changes' }).click();
  // Said once: the menu page's notice (announced once), not again in the panel.
  await expect(page.getByTestId('menu-announcer')).toHaveText('Menu updated: 2 new, 0 updated, 0 unchanged.');
  await expect(panel.getByRole('heading', { name: 'Applied' })).toBeVisible();
  await expect(panel.getByTestId('import-status')).toHaveText('');
  await expect(page.getByRole('status').filter({ hasText: 'Menu updated' })).toHaveCount(1);
  await expect(page.getByText('Menu updated: 2 new, 0 updated, 0 unchanged.', { exact: true })).toHaveCount(2); // the notice and its announcer

  // A shopper in another browser finds the new product by search (no restart, no reload of the server).
  const shop = await shopper(browser, '10.77.1.1');
  try {
    await shop.page.goto(storeUrl('harbor', `/menu?q=${encodeURIComponent(`zephyr ${word} gummies`)}`));
    const link = shop.page.getByRole('link', { name: gummy, exact: true });
    await expect(link.first()).toBeVisible();
    await link.first().click();
    await expect(shop.page.getByRole('heading', { level: 1 })).toHaveText(gummy);
    await expect(shop.page.getByText('This choice is sold out.')).toHaveCount(0);
    const productUrl = shop.page.url();

    // The manager finds it in the console on a phone and marks it sold out: tap "Sold out", tap
    // "Confirm sold out" — both in reach without scrolling the table sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Search name, brand, SKU or POS id').fill(word);
    const row = page.getByTestId(`menu-row-J-${word.toUpperCase()}-GUM`);
    await expect(row).toBeVisible();
    // Scrolled down to the row (the import panel is above the table), its buttons are on screen.
    await row.getByText(gummy, { exact: true }).scrollIntoViewIfNeeded();
    await expect(row.getByRole('button', { name: `Sold out: ${gummy}` })).toBeInViewport();
    await row.getByRole('button', { name: `Sold out: ${gummy}` }).click();
    await expect(row.getByRole('button', { name: 'Confirm sold out' })).toBeFocused();
    await expect(row.getByRole('button', { name: 'Confirm sold out' })).toBeInViewport();
    await row.getByRole('button', { name: 'Confirm sold out' }).click();
    await expect(page.getByTestId('menu-announcer')).toHaveText(`${gummy} is marked sold out.`);
    await expect(row.getByText('Sold out', { exact: true })).toBeVisible();

    // The shopper's product page says so (the page is read again until the change has reached it).
    await expect(async () => {
      await shop.page.goto(productUrl);
      await expect(shop.page.getByText('This choice is sold out.')).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });

    // Bulk: select the chocolate too and take both off online ordering in one action.
    const chocolate = page.getByTestId(`menu-row-J-${word.toUpperCase()}-CHOC`);
    await row.getByRole('checkbox', { name: `Select ${gummy}` }).check();
    await chocolate.getByRole('checkbox', { name: `Select Zephyr ${word} Chocolate` }).check();
    const bar = page.getByRole('region', { name: 'Selected items' });
    await expect(bar).toContainText('2 selected');
    await bar.getByRole('button', { name: 'Not orderable online' }).click();
    await expect(page.getByTestId('menu-announcer')).toHaveText('Not orderable online: 2 of 2 selected items changed.');
    await expect(chocolate.getByText('Not orderable')).toBeVisible();
    await expect(bar).toHaveCount(0);

    // The history shows who did what.
    await row.getByRole('button', { name: `History of ${gummy}` }).click();
    const history = page.getByRole('table', { name: 'Menu changes' });
    // Newest first: the bulk action, then the sold out (who, what, before, after, how).
    await expect(history.getByRole('row').nth(1).getByRole('cell').nth(1)).toHaveText('Hana Harbor');
    await expect(history.getByRole('row').nth(1).getByRole('cell').nth(3)).toHaveText('orderable');
    await expect(history.getByRole('row').nth(2).getByRole('cell')).toHaveText([
      /\d/,
      'Hana Harbor',
      `J-${word.toUpperCase()}-GUM`,
      'stock',
      '12',
      '0',
      'Console',
    ]);
  } finally {
    await shop.context.close();
  }
});

test('the Menu page has no axe violations, with the import and history panels open', async ({ page }) => {
  // Three axe runs over a page of 50 rows with their buttons: slow on a loaded machine.
  test.setTimeout(120_000);
  await openHarborMenu(page);
  await expect(page.getByRole('table', { name: 'Menu items' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Import a file' }).click();
  await expect(page.getByRole('region', { name: 'Import a menu file' })).toBeVisible();
  await page.getByRole('button', { name: 'History', exact: true }).click();
  await expect(page.getByRole('region', { name: /^History/ })).toBeVisible();
  await expectNoAxeViolations(page);
  // The edit dialog: focus moves into it, and back to its button when it closes.
  const edit = page.getByRole('button', { name: /^(Edit|Restock or edit) / }).first();
  await edit.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Price ($)')).toBeFocused();
  // A wrong price is refused in the import's words, next to the field, which takes focus.
  await dialog.getByLabel('Price ($)').fill('-1');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please correct the marked fields.');
  await expect(dialog.getByLabel('Price ($)')).toHaveAccessibleDescription('price must not be negative');
  await expect(dialog.getByLabel('Price ($)')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Price ($)')).toBeFocused();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(edit).toBeFocused();
});
