/**
 * Issue 31 "the shopper's data rights", on a 390 px phone: a customer downloads their data from My
 * account (a zip with data.json, CSVs and nothing of anyone else), tries to delete the account while
 * an order is open (refused in words), and once the store completed it deletes the account: the
 * dialog says what goes and what the store keeps, needs DELETE typed, and logs them out. Logging in
 * again with the same phone starts a fresh account (the licence and birthday step of a new phone).
 * Nothing scrolls sideways; axe clean on the page and the dialog.
 *
 * Own data: a new customer and order. The rules themselves (every table, bursts, both databases):
 * apps/server/src/privacy/rights.test.ts.
 */
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { createCustomer, headerLogin, loginByPhone, newCustomer, placeOrder } from '../fixtures/account.ts';
import { completeOrder, OWNER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, passGateByCookie, PORT, storeUrl, test } from '../fixtures/store.ts';

test.use({ viewport: { width: 390, height: 844 } });
test.describe.configure({ timeout: 120_000 });

test('download my data, refused deletion with an open order, then delete the account and start afresh', async ({ page, browser, request }) => {
  const customer = newCustomer({ firstname: 'Rowena', lastname: 'Rights' });
  const { token } = await createCustomer(request, customer);
  const order = await placeOrder(request, token, customer);

  await passGateByCookie(page.context(), 'downtown', 'recreational');
  await page.goto(storeUrl('downtown', '/menu'));
  await loginByPhone(page, customer.phone);
  await page.goto(storeUrl('downtown', '/my-account'));
  const block = page.getByRole('region', { name: 'Your data' });
  await expect(block).toBeVisible();

  // The archive: data.json with the account and the order, a CSV per table.
  const downloading = page.waitForEvent('download');
  await block.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^my-data-downtown-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  const data = JSON.parse(strFromU8(files['data.json'])) as { tables: Record<string, Record<string, unknown>[]> };
  expect(data.tables.customers).toHaveLength(1);
  expect(data.tables.customers[0]).toMatchObject({ firstname: 'Rowena', lastname: 'Rights', email: customer.email });
  expect(data.tables.orders.map((o) => o.increment_id)).toEqual([order.increment_id]);
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['csv/customers.csv', 'csv/orders.csv']));
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);

  // The dialog: what goes, what is kept and for how long; DELETE typed.
  const opener = block.getByRole('button', { name: 'Delete my account' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Kept for 7 years');
  const confirm = dialog.getByLabel('Type DELETE to confirm');
  await expect(confirm).toBeFocused();
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Type DELETE to confirm.');
  await confirm.fill('delete');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'You have orders that are not finished yet. Once they are collected, delivered or cancelled, you can delete your account.',
  );
  await dialog.getByRole('button', { name: 'Keep my account' }).click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  // The store hands the order over; now the account can go.
  const staffContext = await browser.newContext();
  try {
    const staff = await staffContext.newPage();
    await staffLogin(staff, OWNER);
    await expect(staff.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
    await completeOrder(staff, order.order_id);
  } finally {
    await staffContext.close();
  }
  await opener.click();
  await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByText('Your account was deleted.')).toBeVisible();
  await expect(headerLogin(page)).toBeVisible();
  await expect(dialog).toBeHidden();

  // The old session reads nothing any more.
  const me = await request.get(`http://127.0.0.1:${PORT}/api/user/me`, { headers: { host: `downtown.localhost:${PORT}`, authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(401);

  // The same phone again: a new phone's steps, a fresh account without the old orders.
  await loginByPhone(page, customer.phone, { license: 'Recreational', birthday: '1990-04-12' });
  await page.goto(storeUrl('downtown', '/my-account/orders'));
  await expect(page.getByText(order.increment_id)).toHaveCount(0);
  await expectNoSidewaysScroll(page);
});
