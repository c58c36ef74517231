/**
 * Issue 30 "Loyalty", on a 390 px phone: a customer whose order the store completed sees on
 * My account → Points the balance (the sign-up bonus and the points the completed order earned),
 * the tier and what the next one needs, the date the points expire, and the history; the owner adds
 * a multiplier on the console's Loyalty page, where "3x" is refused at the field in words and "3"
 * saves. Nothing scrolls sideways; axe clean on both pages.
 *
 * Own data: a new customer and order; downtown's `loyalty` section is put back after.
 * The rules themselves (once-only under bursts, never negative, NY, expiry): apps/server/src/loyalty/loyalty.test.ts.
 */
import { createCustomer, loginByPhone, newCustomer, placeOrder } from '../fixtures/account.ts';
import { completeOrder, consoleUrl, keepSection, OWNER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, passGateByCookie, PORT, storeUrl, test } from '../fixtures/store.ts';

test.use({ viewport: { width: 390, height: 844 } });
test.describe.configure({ timeout: 90_000 });

const DOWNTOWN = `downtown.localhost:${PORT}`;

test('points: a completed order shows on the account with tier, expiry and history; the console saves a multiplier, refusing a typo', async ({ page, browser, request }) => {
  // The customer and an order, completed by the store through the console API.
  const customer = newCustomer({ firstname: 'Lola', lastname: 'Points' });
  const { token } = await createCustomer(request, customer);
  const order = await placeOrder(request, token, customer);

  await staffLogin(page, OWNER);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
  await completeOrder(page, order.order_id);
  const account = (await (await request.get(`http://127.0.0.1:${PORT}/api/user/loyalty`, { headers: { host: DOWNTOWN, authorization: `Bearer ${token}` } })).json()) as {
    result: { balance: number; history: { kind: string; points: number }[] };
  };
  const earned = account.result.history.find((e) => e.kind === 'earn')!.points;
  expect(earned).toBeGreaterThan(0);
  expect(account.result.balance).toBe(50 + earned);

  // The shopper's side, in its own browser.
  const shopperContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    await passGateByCookie(shopperContext, 'downtown', 'recreational');
    const shopper = await shopperContext.newPage();
    await shopper.goto(storeUrl('downtown', '/menu'));
    await loginByPhone(shopper, customer.phone);
    await shopper.goto(storeUrl('downtown', '/my-account'));
    await shopper.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Points' }).click();
    await expect(shopper).toHaveURL(storeUrl('downtown', '/my-account/points'));
    const block = shopper.getByRole('region', { name: 'Points' });
    await expect(block.getByTestId('points-balance')).toHaveText(`${50 + earned} points`);
    await expect(block.getByTestId('points-tier')).toHaveText('Member');
    await expect(block.getByTestId('points-next-tier')).toHaveText(/^Spend \$[\d,]+\.\d\d more within 365 days to reach Silver \(1\.25 points per dollar\)\.$/);
    await expect(block.getByTestId('points-expiry')).toHaveText(new RegExp(`^${50 + earned} points expire on \\d{1,2}/\\d{1,2}/\\d{4} unless you complete an order before then\\.$`));
    await expect(block.getByText('2× Tuesdays')).toBeVisible();
    const history = block.getByRole('list', { name: 'Points history, newest first' });
    await expect(history.getByRole('listitem')).toHaveCount(2);
    await expect(history.getByRole('listitem').first()).toContainText(`Earned on order ${order.increment_id}`);
    await expect(history.getByRole('listitem').first()).toContainText(`+${earned} point`);
    await expect(history.getByRole('listitem').nth(1)).toContainText('Sign-up bonus');
    await expectNoSidewaysScroll(shopper);
    await expectNoAxeViolations(shopper);
  } finally {
    await shopperContext.close();
  }

  // The console's Loyalty page: add "3× on pre-rolls", typed "3x" first.
  const putBack = await keepSection(page, 1, 'loyalty');
  try {
    await page.goto(consoleUrl('/stores/1/settings-loyalty'));
    await expect(page.getByRole('heading', { level: 1, name: 'Loyalty programme' })).toBeVisible();
    await expect(page.getByLabel('State rule')).toHaveValue('default');
    await page.getByRole('button', { name: 'Add a multiplier' }).click();
    const added = page.getByRole('group', { name: 'Multiplier 2' });
    await added.getByLabel('Name shoppers read').fill('3× on pre-rolls');
    const value = added.getByLabel('Multiplier (× points)');
    await value.fill('3x');
    await added.getByLabel('Products').selectOption('preroll');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(value).toBeFocused();
    await expect(value).toHaveAttribute('aria-invalid', 'true');
    await expect(value).toHaveAccessibleDescription('Enter the multiplier as a number from 0 to 10 with at most two decimals, e.g. 2 or 1.5.');
    await expect(page.getByRole('alert').filter({ hasText: 'The loyalty programme was not saved:' })).toContainText('Multiplier 2: Enter the multiplier');
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await value.fill('3');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Loyalty programme saved.' })).toBeVisible();
    await expect(value).not.toHaveAttribute('aria-invalid', 'true');
    const saved = await page.evaluate(async () => (await (await fetch('/api/console/stores/1/settings/sections/loyalty')).json()) as { result: { value: { multipliers: unknown[] } } });
    expect(saved.result.value.multipliers).toContainEqual({ label: '3× on pre-rolls', multiplier: 3, products: { kinds: ['preroll'] } });
    await expectNoAxeViolations(page);
  } finally {
    await putBack();
  }
});
