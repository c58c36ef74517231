/**
 * Issue 14 "Hours and time slots", as a shopper sees them outside checkout: the slot booked at
 * checkout on the order-tracking page, and a holiday added for today making the store's footer and
 * contact page say it is closed and when it opens (the store's hours settings, not its flat opening
 * hours). Dates are the journeys' own (storeClock), not the product's formatter.
 */
import type { Page, Response } from '@playwright/test';
import { addToCart, notice } from '../fixtures/cart.ts';
import { OWNER, staffLogin, storeClock } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

test.describe.configure({ timeout: 120_000 });

test('a slot booked at checkout shows on the order-tracking page', async ({ page, context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  await addToCart(page, '/p/FL-GELATO-RESERVE/gelato-reserve', /^3\.5 g/, 1);
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  await page.goto(storeUrl('downtown', '/checkout'));
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await page.getByLabel('First name').fill('Tomás');
  await page.getByLabel('Last name').fill('Quintero');
  await page.getByLabel('E-mail').fill('tomas.tracking@example.com');
  await page.getByLabel('Phone').fill('(916) 555-0184');
  await page.getByLabel('Date of birth').fill('1988-04-02');
  const when = page.getByLabel('Pickup time');
  const chosen = when.locator('option').nth(1);
  await expect(chosen).toBeAttached();
  const start = (await chosen.getAttribute('value'))!;
  await when.selectOption(start);

  const answer = page.waitForResponse((r: Response) => r.url().includes('/api/order/save') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Place order' }).click();
  const res = await answer;
  expect(res.status()).toBe(200);
  const order = ((await res.json()) as { result: { increment_id: string; slot: { start: string; end: string } } }).result;
  expect(order.slot.start).toBe(new Date(start).toISOString());
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeFocused();
  // The label as the journeys write it: M/D/YYYY HH:mm – HH:mm in the store's zone.
  const label = `${storeClock(new Date(order.slot.start)).shown} – ${storeClock(new Date(order.slot.end)).input}`;

  await page.goto(storeUrl('downtown', '/order-tracking'));
  await page.getByLabel('Order number').fill(order.increment_id);
  await page.getByLabel('Phone number').fill('916-555-0184');
  await page.getByRole('button', { name: 'Track order' }).click();
  const result = page.getByRole('region', { name: `Order ${order.increment_id}` });
  await expect(result.getByRole('heading', { level: 2 })).toBeFocused();
  await expect(result.getByTestId('tracking-slot')).toHaveText(`Pickup time: ${label}`);
  await expectNoAxeViolations(page);
});

type Exception = { date: string; label: string; order_types: string[]; closed: boolean };

/** Change the store's hours section's exceptions through the console API, in the signed-in staff's session (over the version read). */
async function changeExceptions(page: Page, storeId: number, change: (exceptions: Exception[]) => Exception[]): Promise<number> {
  const url = `/api/console/stores/${storeId}/settings/sections/hours`;
  const read = await page.evaluate(
    async (url) => (await (await fetch(url)).json()) as { result: { value: { exceptions: Exception[] }; version: number } },
    url,
  );
  const value = { ...read.result.value, exceptions: change(read.result.value.exceptions) };
  return page.evaluate(
    async ({ url, value, version }) => {
      const session = (await (await fetch('/api/console/session')).json()) as { result: { csrfToken: string } };
      const put = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.result.csrfToken },
        body: JSON.stringify({ value, version }),
      });
      return put.status;
    },
    { url, value, version: read.result.version },
  );
}

test('a holiday added for today makes the footer and the contact page say closed and when the store opens', async ({
  page,
  context,
  browser,
}) => {
  // Eastside (store 2): no other journey places orders there, so a day closed for a moment changes no one else's checkout.
  await passGateByCookie(context, 'eastside', 'recreational');
  // The contact page as it is before the holiday (kept by the output cache for a minute).
  await page.goto(storeUrl('eastside', '/contact'));
  const hours = page.getByRole('region', { name: 'Opening hours' });
  await expect(hours.getByTestId('hours-status-pickup')).toBeVisible();
  await expect(hours.getByText('Store party')).toHaveCount(0);

  const staff = await browser.newPage();
  await staffLogin(staff, OWNER);
  await expect(staff.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
  const now = storeClock(new Date());
  const [m, d, y] = now.shown.split(' ')[0].split('/');
  const today = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  const holiday: Exception = { date: today, label: 'Store party', order_types: ['pickup', 'delivery'], closed: true };
  expect(await changeExceptions(staff, 2, (list) => [...list, holiday])).toBe(200);
  try {
    // Eastside opens 10:00 every day: closed all today, it opens tomorrow at 10.
    await page.reload();
    await expect(hours.getByTestId('hours-status-pickup')).toHaveText('Closed · opens tomorrow 10 AM');
    await expect(hours.getByRole('listitem').filter({ hasText: 'Store party' })).toHaveText(
      `Store party · ${now.shown.split(' ')[0]}: Closed`,
    );
    // The holiday closes delivery too: one set of hours.
    await expect(hours.getByText('Delivery orders are taken in the same hours.')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto(storeUrl('eastside'));
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByTestId('hours-status-pickup')).toHaveText('Closed · opens tomorrow 10 AM');
    await expect(footer.getByText(`Store party · ${now.shown.split(' ')[0]}: Closed`)).toBeVisible();
    await expectNoAxeViolations(page);
  } finally {
    expect(await changeExceptions(staff, 2, (list) => list.filter((e) => !(e.date === today && e.label === 'Store party')))).toBe(200);
    await staff.close();
  }
  await page.reload();
  await expect(page.getByRole('contentinfo').getByText('Store party')).toHaveCount(0);
});
