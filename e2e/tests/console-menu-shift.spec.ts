/**
 * The console's Menu page on a Saturday shift (issue 26), at tablet (1024×768) and phone (390×844):
 * the search matches words across name and size ("<name> 1" is the 1 g only) and lives in the
 * address (a reload keeps it); sizes sort by number; an expired sale shows the price the storefront
 * charges and the sale as ended, in the store's time zone; "Mark sold out" is an action — Escape
 * backs out of its confirm, and "Restock to N" puts back the count it had. The imported potency and
 * lab facts reach the shopper's card and product page. Axe clean at both sizes.
 *
 * Own data: Harbor (as console-menu.spec.ts), a product named with a word made for this run.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { consoleUrl, HARBOR_MANAGER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

const HARBOR = 4;
const MENU = `/stores/${HARBOR}/menu`;
const SIZES = ['14', '1', '28', '3.5', '7']; // out of order in the file on purpose

const runWord = () =>
  randomUUID()
    .replace(/-/g, '')
    .slice(0, 8)
    .replace(/[0-9]/g, (d) => 'qwxzvkjyph'[Number(d)]);

function menuFile(word: string): Buffer {
  const header =
    'external_id,sku,parent_external_id,name,brand,category,strain_type,unit,weight_g,price,special_price,special_from,special_to,stock,thc,thc_unit,batch,lab_test_date,coa_url\n';
  const rows = SIZES.map((g) => {
    const sale = g === '1' ? '9.00,2026-01-01,2026-01-31' : ',,';
    const price = (12 * Number(g)).toFixed(2);
    return `Q-${word}-${g},Q-${word.toUpperCase()}-${g.replace('.', '_')},Q-${word},Quasar ${word},Journey Farms,Flower > Indica,Indica,g,${g},${price},${sale},${g === '7' ? 9 : 5},24.5,%,B-${word},2026-05-02,https://lab.example/coa/${word}.pdf`;
  });
  return Buffer.from(header + rows.join('\n') + '\n');
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
}

for (const size of [
  { name: 'tablet', width: 1024, height: 768 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`menu on a shift (${size.name}): word search in the address, sizes by number, expired sale, sold out with Escape and Restock; the shopper sees the potency`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    const word = runWord();
    const name = `Quasar ${word}`;
    await staffLogin(page, HARBOR_MANAGER);
    await expect(page).toHaveURL(consoleUrl(`/stores/${HARBOR}/orders`));
    await page.goto(consoleUrl(MENU));
    await expect(page.getByRole('heading', { level: 1, name: 'Menu' })).toBeVisible();

    await page.getByRole('button', { name: 'Import a file' }).click();
    const panel = page.getByRole('region', { name: 'Import a menu file' });
    // Another store's file (its rows say downtown) is refused as a whole before anything is applied.
    const foreign = menuFile(word)
      .toString()
      .split('\n')
      .map((line, i) => (line ? `${i === 0 ? 'store' : 'downtown'},${line}` : line))
      .join('\n');
    await panel.getByLabel('Menu file').setInputFiles({ name: 'downtown.csv', mimeType: 'text/csv', buffer: Buffer.from(foreign) });
    await panel.getByRole('button', { name: 'Check the file' }).click();
    const fileProblems = panel.getByTestId('file-problems');
    await expect(fileProblems).toContainText('This file cannot be applied:');
    await expect(fileProblems).toContainText('This file is the menu of store downtown (5 of 5 rows say so), not of harbor: nothing is applied.');
    await expect(panel.getByRole('button', { name: /^Apply/ })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await shot(page, `import-${size.name}-foreign`);
    // A file without a store column whose content is another store's (every price different from
    // harbor's): refused as a whole until the manager ticks "This is harbor's menu" and checks again.
    // (Read by the page itself: the console's own export link, with the member's cookie.)
    const exported = await page.evaluate(async (url) => {
      const res = await fetch(url, { credentials: 'same-origin' });
      return { status: res.status, text: await res.text() };
    }, `/api/console/stores/${HARBOR}/menu/export.csv`);
    expect(exported.status).toBe(200);
    const exportRows = parseCsv(exported.text) as string[][];
    const storeAt = exportRows[0].indexOf('store');
    const priceAt = exportRows[0].indexOf('price');
    const specialAt = exportRows[0].indexOf('special_price');
    const repriced = exportRows.map((r, i) =>
      r
        .map((c, k) => (i > 0 && k === priceAt && !r[specialAt] ? (Number(c) + 1).toFixed(2) : c))
        .filter((_, k) => k !== storeAt),
    );
    await panel.getByLabel('Menu file').setInputFiles({ name: 'old-export.csv', mimeType: 'text/csv', buffer: Buffer.from(stringifyCsv(repriced)) });
    await panel.getByRole('button', { name: 'Check the file' }).click();
    await expect(fileProblems).toContainText("This file looks like another store's menu: compared with harbor's menu of");
    await expect(panel.getByRole('button', { name: /^Apply/ })).toHaveCount(0);
    const insist = panel.getByRole('checkbox', { name: /^This is harbor's menu/ });
    await expect(insist).not.toBeChecked();
    await expectNoAxeViolations(page);
    await shot(page, `import-${size.name}-looks-foreign`);
    await insist.check();
    await panel.getByRole('button', { name: 'Check the file' }).click();
    await expect(panel.getByRole('heading', { name: 'What this file would change' })).toBeVisible();
    await expect(fileProblems).toHaveCount(0);
    await expect(panel.getByRole('button', { name: /^Apply these \d+ changes$/ })).toBeVisible();
    // Not applied here (harbor's prices stay as other journeys expect them); a new file is judged afresh.
    await panel.getByLabel('Menu file').setInputFiles({ name: 'shift.csv', mimeType: 'text/csv', buffer: menuFile(word) });
    await panel.getByRole('button', { name: 'Check the file' }).click();
    await panel.getByRole('button', { name: 'Apply these 5 changes' }).click();
    // Said once, by the menu page's notice (the panel's own status stays empty after applying).
    await expect(page.getByTestId('menu-announcer')).toHaveText('Menu updated: 5 new, 0 updated, 0 unchanged.');
    await page.getByRole('button', { name: 'Import a file' }).click();

    // "<name> 1": the words match across name and size — the 1 g, not the 14 g; the address keeps it.
    const search = page.getByLabel('Search name, brand, SKU or POS id');
    await search.fill(`${name} 1`);
    const rows = page.getByRole('table', { name: 'Menu items' }).locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`${name} 1 g`);
    await expect(page).toHaveURL(new RegExp(`[?&]q=Quasar(\\+|%20)${word}(\\+|%20)1(&|$)`));
    await page.reload();
    await expect(page.getByLabel('Search name, brand, SKU or POS id')).toHaveValue(`${name} 1`);
    await expect(rows).toHaveCount(1);
    // The expired sale: the price charged now, the sale as ended, in the store's time zone (no raw UTC).
    await expect(rows.first()).toContainText('$12.00');
    const note = rows.first().getByTestId('sale-note');
    await expect(note).toHaveText(/^Sale \$9\.00 ended Jan 3[01], 2026, \d{1,2}:\d{2} [AP]M$/);
    // The edit dialog reads the stored UTC sale dates in the store's time zone too.
    await rows.first().getByRole('button', { name: `Edit ${name} 1 g` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Special until (empty = open-ended)')).toHaveAccessibleDescription(/^Store time: Jan 3[01], 2026, \d{1,2}:\d{2} [AP]M$/);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    // Every size, in number order.
    await search.fill(name);
    await expect(rows).toHaveCount(5);
    const names = await rows.locator('td:nth-child(2) .font-semibold').allTextContents();
    expect(names).toEqual(['1', '3.5', '7', '14', '28'].map((g) => `${name} ${g} g`));
    await expectNoAxeViolations(page);
    await shot(page, `menu-${size.name}-sizes`);

    // Mark sold out: Escape backs out of the confirm; confirmed, "Restock to 9" puts the count back.
    const seven = page.getByTestId(`menu-row-Q-${word.toUpperCase()}-7`);
    await seven.getByRole('button', { name: `Mark sold out: ${name} 7 g` }).click();
    const confirm = seven.getByRole('button', { name: 'Confirm sold out' });
    await expect(confirm).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expect(seven.getByRole('button', { name: `Mark sold out: ${name} 7 g` })).toBeFocused();
    await seven.getByRole('button', { name: `Mark sold out: ${name} 7 g` }).click();
    await seven.getByRole('button', { name: 'Confirm sold out' }).click();
    await expect(page.getByTestId('menu-announcer')).toHaveText(`${name} 7 g is marked sold out. Restock to 9 undoes it.`);
    const restock = seven.getByRole('button', { name: /^Restock to 9/ });
    await expect(restock).toBeFocused();
    await expectNoAxeViolations(page);
    await shot(page, `menu-${size.name}-sold-out`);
    await restock.click();
    await expect(page.getByTestId('menu-announcer')).toHaveText(`${name} 7 g is back in stock (9).`);
    await expect(seven.getByRole('button', { name: /^Restock to/ })).toHaveCount(0);
    await expect(seven.locator('td').nth(3)).toHaveText('9');

    // The shopper: the card and the page show THC 24.5%; the page the lab date, batch and COA link.
    const context = await browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': size.name === 'phone' ? '10.77.3.2' : '10.77.3.1' },
      serviceWorkers: 'block',
      viewport: { width: size.width, height: size.height },
    });
    try {
      await passGateByCookie(context, 'harbor', 'recreational');
      const shop = await context.newPage();
      await expect(async () => {
        await shop.goto(storeUrl('harbor', `/menu?q=${encodeURIComponent(name.toLowerCase())}`));
        await expect(shop.getByRole('link', { name, exact: true }).first()).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 10_000 });
      const card = shop.locator('article.card', { has: shop.getByRole('link', { name, exact: true }) }).first();
      await expect(card).toContainText('THC 24.5%');
      await card.getByRole('link', { name, exact: true }).click();
      await expect(shop.getByRole('heading', { level: 1 })).toHaveText(name);
      const lab = shop.getByTestId('lab-facts');
      await expect(lab).toContainText('Lab tested5/2/2026');
      await expect(lab).toContainText(`BatchB-${word}`);
      await expect(lab.getByRole('link', { name: /^Certificate of analysis \(COA\)/ })).toHaveAttribute('href', `https://lab.example/coa/${word}.pdf`);
      await expect(shop.getByText('24.5%').first()).toBeVisible();
      await expectNoAxeViolations(shop);
      await lab.scrollIntoViewIfNeeded();
      await shop.screenshot({ path: test.info().outputPath(`product-${size.name}.png`) });
    } finally {
      await context.close();
    }
  });
}
