/**
 * Issue 12 "The shopper is told": /order-tracking lets a guest look an order up by its number and
 * the phone it was placed with, showing the order's timeline and nothing else of the customer's,
 * with the server's own words for a mismatch (404) and for too many look-ups (429); it works
 * without JavaScript, and its answers are never indexed or cached.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, passGateByCookie, PORT, storeUrl, test } from '../fixtures/store.ts';
import { addToCart, notice } from '../fixtures/cart.ts';
import { uniqueEmail, uniquePhone } from '../fixtures/account.ts';
import { orderableEighth } from '../fixtures/stock.ts';

const NOT_FOUND = 'We could not find an order with that number and phone number.';
const GELATO = '/p/FL-GELATO-RESERVE/gelato-reserve';

// Long journeys (registration, login, checkout, several axe scans) on a shared, busy machine.
test.describe.configure({ timeout: 150_000 });

test.beforeEach(async ({ context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
});

/** A guest's pickup order through the API (no token): its number. */
async function placeGuestOrder(
  request: APIRequestContext,
  who: { first: string; last: string; email: string; phone: string },
): Promise<string> {
  const res = await request.post(`http://127.0.0.1:${PORT}/api/order/save`, {
    headers: { host: `downtown.localhost:${PORT}` },
    data: {
      idempotency_key: randomUUID(),
      order_type: 'pickup',
      license_type: 'recreational',
      personal_details: { firstName: who.first, lastName: who.last, emailAddress: who.email, phone: who.phone },
      birthday: '1990-01-01',
      payment_method: 'cashondelivery',
      products: [{ ...orderableEighth(), qty: 1 }],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { result: { increment_id: string } }).result.increment_id;
}

async function lookUp(page: Page, number: string, phone: string) {
  await page.getByLabel(/^Order number/).fill(number);
  await page.getByLabel(/^Phone number/).fill(phone);
  await page.getByRole('button', { name: 'Track order' }).click();
}

test('a guest orders at checkout, then finds the order by number and phone: its timeline and nothing else', async ({ page }) => {
  const who = { first: 'Grace', last: 'Hopper', email: uniqueEmail('grace'), phone: uniquePhone() };
  await addToCart(page, GELATO, /^1 g/, 1);
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  await page.goto(storeUrl('downtown', '/checkout'));
  await page.getByLabel('First name').fill(who.first);
  await page.getByLabel('Last name').fill(who.last);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Phone').fill(who.phone);
  await page.getByLabel('Date of birth').fill('1990-01-01'); // age on every order (issue 14)
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeFocused();
  const number = (await page.getByTestId('order-number').textContent())!.trim();
  // The thank-you page shows where the order is, too.
  const thankYouStatus = page.getByTestId('thank-you-status');
  await expect(thankYouStatus.getByTestId('order-status-label')).toHaveText('Submitted');
  await expect(thankYouStatus.locator('[aria-current="step"]')).toContainText('Submitted');

  await page.goto(storeUrl('downtown', '/order-tracking'));
  await expect(page.getByRole('heading', { level: 1, name: 'Order tracking' })).toBeVisible();
  await expectNoAxeViolations(page);

  // Wrong phone: the server's words, announced, and no order.
  await lookUp(page, number, uniquePhone());
  const error = page.getByRole('alert').filter({ hasText: NOT_FOUND });
  await expect(error).toHaveText(NOT_FOUND);
  await expect(error).toBeFocused();
  await expect(page.getByTestId('tracking-result')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The number as typed in lower case and the phone in another format find it.
  await lookUp(page, number.toLowerCase(), who.phone.replace(/\D/g, ''));
  const result = page.getByRole('region', { name: `Order ${number}` });
  await expect(result).toBeVisible();
  await expect(result.getByRole('heading', { name: `Order ${number}` })).toBeFocused();
  await expect(page.getByRole('alert').filter({ hasText: NOT_FOUND })).toHaveCount(0);
  await expect(result.getByTestId('order-status-label')).toHaveText('Submitted');
  const steps = result.getByRole('list', { name: 'Order progress' }).getByRole('listitem');
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(0)).toHaveAttribute('aria-current', 'step');
  await expect(steps.nth(0)).toContainText('Submitted');
  await expect(steps.nth(1)).toContainText('Confirmed');
  await expect(steps.nth(2)).toContainText('Ready for pickup');
  await expect(steps.nth(3)).toContainText('Completed');
  await expect(result.locator('[aria-current="step"]')).toHaveCount(1);
  // Nothing else of the customer's: no name, e-mail, phone, items or totals.
  const main = page.getByRole('main');
  for (const secret of [who.first, who.last, who.email, 'Gelato', '$']) await expect(main).not.toContainText(secret);
  await expect(page.locator('meta[name="robots"][content*="noindex"]')).not.toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('the form says which field is missing or wrong, next to it', async ({ page }) => {
  await page.goto(storeUrl('downtown', '/order-tracking'));
  await page.getByRole('button', { name: 'Track order' }).click();
  const number = page.getByLabel(/^Order number/);
  await expect(number).toBeFocused();
  await expect(number).toHaveAttribute('aria-invalid', 'true');
  await expect(number).toHaveAccessibleDescription(/Field is required/);
  await expect(page.getByLabel(/^Phone number/)).toHaveAccessibleDescription('Field is required');

  await lookUp(page, 'DO-100001', 'call me');
  await expect(page.getByLabel(/^Phone number/)).toBeFocused();
  await expect(page.getByLabel(/^Phone number/)).toHaveAccessibleDescription('Please provide valid phone number');
  await expect(number).not.toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);
});

test('without JavaScript: the form posts, the answer is the timeline, never indexed nor cached', async ({
  browser,
  request,
  extraHTTPHeaders,
}) => {
  const who = { first: 'Alan', last: 'Turing', email: uniqueEmail('alan'), phone: uniquePhone() };
  const number = await placeGuestOrder(request, who);
  const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders });
  await passGateByCookie(context, 'downtown', 'recreational');
  const page = await context.newPage();
  await page.goto(storeUrl('downtown', '/order-tracking'));
  await lookUp(page, number, '0000');
  await expect(page.getByLabel(/^Phone number/)).toHaveAccessibleDescription('Please provide valid phone number');

  await page.getByLabel(/^Phone number/).fill(uniquePhone());
  const refused = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/order-tracking'));
  await page.getByRole('button', { name: 'Track order' }).click();
  expect((await refused).status()).toBe(404);
  await expect(page.getByRole('alert')).toHaveText(NOT_FOUND);

  await page.getByLabel(/^Phone number/).fill(who.phone);
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/order-tracking'));
  await page.getByRole('button', { name: 'Track order' }).click();
  const res = await answered;
  expect(res.status()).toBe(200);
  expect(res.headers()['x-robots-tag']).toContain('noindex');
  expect(res.headers()['cache-control']).toContain('no-store');
  const result = page.getByRole('region', { name: `Order ${number}` });
  await expect(result.getByTestId('order-status-label')).toHaveText('Submitted');
  await expect(result.locator('[aria-current="step"]')).toContainText('Submitted');
  await expect(page.getByRole('main')).not.toContainText(who.last);
  await expect(page.locator('meta[name="robots"][content*="noindex"]')).not.toHaveCount(0);
  await context.close();
});

test('too many look-ups from one address: the server’s 429 words on the page', async ({ page, request }) => {
  const api = (phone: string) =>
    request.post(`http://127.0.0.1:${PORT}/api/order-tracking`, {
      headers: { host: `downtown.localhost:${PORT}` },
      data: { number: 'DO-999999', phone },
    });
  // Ten a minute per address (this journey's own, fixtures/store.ts).
  for (let i = 0; i < 10; i++) expect((await api(uniquePhone())).status()).toBe(404);
  const over = await api(uniquePhone());
  expect(over.status()).toBe(429);
  const words = ((await over.json()) as { result: string }).result;
  expect(words).not.toBe('');

  await page.goto(storeUrl('downtown', '/order-tracking'));
  await lookUp(page, 'DO-999999', uniquePhone());
  await expect(page.getByRole('alert')).toHaveText(words);
  await expect(page.getByTestId('tracking-result')).toHaveCount(0);
});
