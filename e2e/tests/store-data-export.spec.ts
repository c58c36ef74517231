/**
 * Issue 31, the store-wide export: the owner opens Download store data from the menu, reads what the
 * archive holds and the file format (every file and column), clicks the download and gets a zip whose
 * CSV and JSON files parse, with the order just placed in it to the cent. A manager sees no such page
 * entry and the server refuses them. Tablet size, axe clean.
 */
import fs from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { consoleUrl, expectQueue, OWNER, staffLogin } from '../fixtures/console.ts';
import { createCustomer, newCustomer, placeOrder } from '../fixtures/account.ts';
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

test.describe.configure({ timeout: 90_000 });
test.use({ viewport: { width: 1024, height: 768 } });

test('the owner downloads the store data and the archive holds the new order', async ({ page, request, browser }, testInfo) => {
  const customer = newCustomer({ firstname: 'Exa', lastname: 'Porter' });
  const { token } = await createCustomer(request, customer);
  const { order_id: orderId, increment_id: number } = await placeOrder(request, token, customer);

  await staffLogin(page, OWNER);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
  await page.goto(consoleUrl('/stores/1/orders'));
  // The owner's menu has the entry (a manager's has not, below).
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Download store data', exact: true }).click();
  await expect(page).toHaveURL(consoleUrl('/stores/1/store-data'));
  await expect(page.getByRole('heading', { level: 1, name: 'Download store data' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'What the download holds' })).toBeVisible();
  await page.getByRole('link', { name: 'File format: every file and column' }).click();
  await page.getByText('orders.csv, orders.json').click();
  await expect(page.getByRole('table', { name: 'Columns of orders' }).getByRole('cell', { name: 'total_cents', exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: testInfo.outputPath('store-data-1024.png'), fullPage: true });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('main').getByRole('link', { name: 'Download store data', exact: true }).click()]);
  expect(download.suggestedFilename()).toMatch(/^store-data-downtown-\d{4}-\d{2}-\d{2}\.zip$/);
  const file = testInfo.outputPath('store-data.zip');
  await download.saveAs(file);
  const files = unzipSync(new Uint8Array(fs.readFileSync(file)));
  for (const name of ['customers', 'consents', 'orders', 'order_lines', 'menu', 'deals']) {
    expect(files[`${name}.csv`], name).toBeDefined();
    expect(Array.isArray(JSON.parse(strFromU8(files[`${name}.json`]!))), name).toBe(true);
  }
  const orders = JSON.parse(strFromU8(files['orders.json']!)) as { id: number; number: string; total_cents: number; first_name: string }[];
  const mine = orders.find((o) => o.id === orderId)!;
  expect(mine).toMatchObject({ number, first_name: 'Exa' });
  const csv = strFromU8(files['orders.csv']!);
  expect(csv.split('\n')[0]).toMatch(/^id,number,status,/);
  const row = csv.split('\n').find((l) => l.startsWith(`${orderId},${number},`))!;
  expect(row).toContain(`,${mine.total_cents},${(mine.total_cents / 100).toFixed(2)},`);
  expect(JSON.parse(strFromU8(files['manifest.json']!))).toMatchObject({ format: 'verdant-store-export/1', store: { id: 1, code: 'downtown' } });

  // A manager: no entry in the menu, and the server refuses the download.
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, baseURL: consoleUrl('/') });
  const manager = await context.newPage();
  await staffLogin(manager, 'manager@demo.verdant.test');
  // A manager of one store lands on its queue.
  await expectQueue(manager);
  await expect(manager.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Reports' })).toHaveCount(1);
  await expect(manager.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Download store data' })).toHaveCount(0);
  expect(await manager.evaluate(() => fetch('/api/console/stores/1/export.zip').then((r) => r.status))).toBe(403);
  await context.close();
});
