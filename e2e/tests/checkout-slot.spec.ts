/**
 * Issue 14 "Hours and time slots": a shopper books a pickup slot at checkout; the thank-you page
 * shows the slot the server booked, and so does the order in the console (queue and detail).
 */
import type { Response } from '@playwright/test';
import { addToCart, notice } from '../fixtures/cart.ts';
import { expectQueue, HARBOR_MANAGER, queueRow, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

test.describe.configure({ timeout: 120_000 });

test('a slot booked at checkout shows on the thank-you page and in the console', async ({ page, context, browser }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  await addToCart(page, '/p/FL-GELATO-RESERVE/gelato-reserve', /^3\.5 g/, 1);
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  await page.goto(storeUrl('downtown', '/checkout'));
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await page.getByLabel('First name').fill('Sol');
  await page.getByLabel('Last name').fill('Ortega');
  await page.getByLabel('E-mail').fill('sol.slot@example.com');
  await page.getByLabel('Phone').fill('(916) 555-0177');
  await page.getByLabel('Date of birth').fill('1990-01-01');

  // The slots the server offers; the shopper picks the second one.
  const when = page.getByLabel('Pickup time');
  await expect(when.locator('option').nth(2)).toBeAttached();
  const chosen = when.locator('option').nth(2);
  const label = (await chosen.textContent())!.replace(/ \(\d+ left\)$/, '');
  const start = (await chosen.getAttribute('value'))!;
  await when.selectOption(start);

  const answer = page.waitForResponse((r: Response) => r.url().includes('/api/order/save') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Place order' }).click();
  const res = await answer;
  expect(res.status()).toBe(200);
  const order = ((await res.json()) as { result: { increment_id: string; slot: { start: string; label: string } } }).result;
  expect(order.slot).toMatchObject({ start, label });
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeFocused();
  await expect(page.getByRole('region', { name: 'Pickup time' })).toContainText(label);

  const staff = await browser.newPage();
  await staffLogin(staff);
  await expectQueue(staff);
  await staff.getByLabel('Number, name or phone').fill(order.increment_id);
  await staff.getByRole('button', { name: 'Search' }).click();
  await expect(queueRow(staff, order.increment_id)).toContainText(`Slot ${label}`);
  await staff.getByRole('link', { name: `#${order.increment_id}` }).click();
  await expect(staff.getByRole('heading', { level: 1, name: `Order #${order.increment_id}` })).toBeVisible();
  await expect(staff.getByText(label, { exact: true })).toBeVisible();
  await staff.close();
});

test('a manager adds a holiday to the store’s hours in the console; the store’s hours say so', async ({ page }) => {
  await staffLogin(page, HARBOR_MANAGER);
  await expect(page).toHaveURL(/\/stores\/\d+\/orders$/);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Hours and slots' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hours and time slots' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Add an exception' }).click();
  await page.getByLabel('Date').last().fill('2030-12-25');
  await page.getByLabel('Label').last().fill('Christmas');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Hours and time slots saved.' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Remove 2030-12-25' })).toBeVisible();
});
