import { MESSAGES } from '@verdant/domain';
import type { Request } from '@playwright/test';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';
import { addToCart, cartToken, notice, openCart, serverTotals, storeApi, totalsRow, usd } from '../fixtures/cart.ts';

const GELATO = '/p/FL-GELATO-RESERVE/gelato-reserve';

test.beforeEach(async ({ context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
});

test('an empty cart cannot enter checkout', async ({ page }) => {
  await page.goto(storeUrl('downtown', '/checkout'));
  await expect(page.getByRole('alert').filter({ hasText: 'Shopping cart is empty, so checkout cannot be entered.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse the menu' })).toHaveAttribute('href', '/menu');
  await expect(page.getByRole('button', { name: 'Place order' })).toHaveCount(0);
});

test('fields are checked on submit: summary, messages by the fields, focus on the first', async ({ page }) => {
  await addToCart(page, GELATO, /^1 g/, 1);
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  await page.goto(storeUrl('downtown', '/checkout'));
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '5 fields need your attention:' })).toBeVisible();
  await expect(page.getByLabel('First name')).toBeFocused();
  await expect(page.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('First name')).toHaveAccessibleDescription(MESSAGES.fieldRequired);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('L');
  await page.getByLabel('E-mail').fill('ada@');
  await page.getByLabel('Phone').fill('555');
  await page.getByRole('radio', { name: /^Delivery/ }).check();
  await page.getByLabel('Street address').fill('1 Main St');
  await page.getByLabel('City').fill('New York');
  await page.getByLabel('ZIP code').fill('10001');
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByLabel('Last name')).toBeFocused();
  await expect(page.getByLabel('Last name')).toHaveAccessibleDescription('Name must have at least 2 letters');
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription('Please provide valid e-mail address.');
  await expect(page.getByLabel('Phone')).toHaveAccessibleDescription('Please provide valid phone number');
  await expect(page.getByLabel('Date of birth')).toHaveAccessibleDescription(/Please enter your birthday$/);
  // The server places the ZIP (New York) and refuses it, with the distance and a way out.
  await expect(page.getByLabel('ZIP code')).toHaveAccessibleDescription(/ZIP 10001 is [\d.]+ miles from the store, outside its 10-mile delivery area\. Choose pickup/);
  await expectNoAxeViolations(page);
});

test('place a delivery order with WELCOME10: $5.00 fee, the server’s order number on the thank-you page', async ({ page, request }) => {
  await addToCart(page, GELATO, /^3\.5 g/, 1);
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  const cart = await openCart(page);
  await cart.getByRole('link', { name: 'Proceed to checkout' }).click();
  await expect(page).toHaveURL(storeUrl('downtown', '/checkout'));
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();

  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('E-mail').fill('ada@example.com');
  await page.getByLabel('Phone').fill('(916) 555-0100');
  await page.getByLabel('Date of birth').fill('1990-01-01'); // age on every order (issue 14)
  await page.getByRole('textbox', { name: 'Coupon code' }).fill('WELCOME10');
  await page.getByRole('button', { name: 'Apply coupon' }).click();
  await expect(page.getByText('Coupon WELCOME10 applied', { exact: true })).toBeVisible();
  const review = page.getByRole('region', { name: '4. Review your order' });
  await expect(totalsRow(review, 'Discount (WELCOME10)')).toHaveText(/^−\$\d+\.\d{2}$/);

  await expect(page.getByRole('radio', { name: /^Pickup — Free/ })).toBeChecked();
  await page.getByRole('radio', { name: 'Delivery — $5.00 incl. tax Within 10 miles of the store' }).check();
  await page.getByLabel('Street address').fill('1001 K Street');
  await page.getByLabel('City').fill('Sacramento');
  await page.getByLabel('ZIP code').fill('95816');
  await page.getByLabel('ZIP code').blur();
  await expect(page.getByText(/^We deliver here: [\d.]+ miles from the store\.$/)).toBeVisible();
  await expect(totalsRow(review, 'Shipping')).toHaveText('$5.00 incl. tax');

  await expect(review.getByRole('heading', { name: MESSAGES.payOnDeliveryTitle })).toBeVisible();
  await expect(review.getByText(MESSAGES.payOnDeliveryText)).toBeVisible();
  const t = await serverTotals(request, await cartToken(page));
  expect(t).toMatchObject({ shipping_incl_tax: 500, coupon_code: 'WELCOME10' });
  await expect(totalsRow(review, /^Total$/)).toHaveText(usd(t.grand_total));
  await expectNoAxeViolations(page);

  let sent: Request | null = null;
  page.on('request', (r) => {
    if (r.url().includes('/api/order/save')) sent = r;
  });
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeFocused();
  await expect(page).toHaveURL(storeUrl('downtown', '/checkout?thank-you'));
  const number = (await page.getByTestId('order-number').textContent())!.trim();
  expect(number).toMatch(/^DO-\d{6}$/);
  await expect(page.getByRole('button', { name: 'Cart, 0 items' })).toHaveCount(0); // checkout mode: no cart button
  expect(sent).not.toBeNull();

  // The order exists on the server: the same idempotency key answers the same order, never a second one.
  const payload = sent!.postDataJSON() as { idempotency_key: string; shipping_address: { lat: number }; coupon: string };
  expect(payload.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
  expect(payload.coupon).toBe('WELCOME10');
  const replay = await storeApi(request).post('/api/order/save', payload);
  expect(replay.status()).toBe(200);
  expect(replay.headers()['idempotent-replayed']).toBe('true');
  expect(((await replay.json()) as { result: { increment_id: string; total: number } }).result).toMatchObject({ increment_id: number, total: t.grand_total });

  // The cart was emptied without a sync; the header shows it once we leave checkout.
  await page.getByRole('link', { name: 'Back to the menu' }).first().click();
  await expect(page.getByRole('button', { name: 'Cart, 0 items' })).toBeVisible();
});
