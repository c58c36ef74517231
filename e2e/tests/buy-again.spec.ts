/**
 * Buy again (issue 30) on a phone: a customer with a completed order of two accessories, one since
 * re-priced by the store and the other sold out, taps "Buy again" on the order's page, reads both
 * changes in words (with similar products for the sold-out one), and finds the cart at today's price.
 * Scrolled down, the phone header keeps search and cart on screen (issue 30's menu item). Axe clean,
 * nothing wider than the screen.
 *
 * Own data: two Downtown accessories no other journey looks at; the store's changes go through the
 * console API as its owner, and are put back at the end whatever happened.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { createCustomer, loginByPhone, newCustomer } from '../fixtures/account.ts';
import { usd } from '../fixtures/cart.ts';
import { completeOrder, consoleCall, consoleUrl, OWNER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, PORT, storeUrl, test } from '../fixtures/store.ts';

const RE_PRICED = 'AC-SAGE-BAMBOO-ROLLING-TRAY';
const SOLD_OUT = 'AC-SMELL-PROOF-STASH-BAG';
const DOWNTOWN = 1;

test.describe.configure({ timeout: 90_000 });
test.use({ viewport: { width: 390, height: 844 } });

interface MenuItem {
  productId: number;
  sku: string;
  name: string;
  price: string;
  stock: number;
  version: number;
  specialState: string | null;
}

async function menuItem(staff: Page, sku: string): Promise<MenuItem> {
  const r = await consoleCall<{ items: MenuItem[] }>(staff, 'GET', `/menu?q=${encodeURIComponent(sku)}`);
  expect(r.status).toBe(200);
  const item = r.result.items.find((i) => i.sku === sku);
  expect(item, sku).toBeTruthy();
  return item!;
}

async function edit(staff: Page, sku: string, cells: Record<string, unknown>): Promise<void> {
  const item = await menuItem(staff, sku);
  const r = await consoleCall(staff, 'PATCH', `/menu/variants/${item.productId}`, { ...cells, version: item.version });
  expect(r.status, JSON.stringify(r.result)).toBe(200);
}

test('Buy again on a phone: a changed price and a sold-out line said plainly, the cart at today’s price', async ({ page, context, browser, request }) => {
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await staffLogin(staff, OWNER);
  await expect(staff.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
  await staff.goto(consoleUrl(`/stores/${DOWNTOWN}/orders`));
  const repriced = await menuItem(staff, RE_PRICED);
  const soldOut = await menuItem(staff, SOLD_OUT);
  expect(repriced.specialState, 'no sale on the re-priced product').toBeNull();

  // A customer and a completed pickup order of one of each.
  const customer = newCustomer();
  const { token } = await createCustomer(request, customer);
  const saved = await request.post(`http://127.0.0.1:${PORT}/api/order/save`, {
    headers: { host: `downtown.localhost:${PORT}`, authorization: `Bearer ${token}` },
    data: {
      idempotency_key: randomUUID(),
      order_type: 'pickup',
      license_type: 'recreational',
      personal_details: { firstName: customer.firstname, lastName: customer.lastname, emailAddress: customer.email, phone: customer.phone },
      products: [
        { sku: RE_PRICED, qty: 1 },
        { sku: SOLD_OUT, qty: 1 },
      ],
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const placed = ((await saved.json()) as { result: { order_id: number; increment_id: string } }).result;
  await completeOrder(staff, placed.order_id);

  // Since then the store lowered one price by $3 and sold out of the other.
  const then = Math.round(Number(repriced.price) * 100);
  const now = then - 300;
  try {
    await edit(staff, RE_PRICED, { price: (now / 100).toFixed(2) });
    await edit(staff, SOLD_OUT, { stock: 0 });

    await passGateByCookie(context, 'downtown', 'recreational');
    await page.goto(storeUrl('downtown', `/my-account/orders/${placed.increment_id}`));
    await loginByPhone(page, customer.phone);
    await expect(page.getByRole('heading', { level: 2, name: `Order ${placed.increment_id}` })).toBeVisible();

    await page.getByRole('button', { name: 'Buy again' }).click();
    const result = page.getByTestId('buy-again-result');
    await expect(result.getByText(`Added 1 item from order ${placed.increment_id} to your cart, at today’s prices.`)).toBeVisible();
    await expect(result.getByText(`${repriced.name} is now ${usd(now)}, was ${usd(then)}`)).toBeVisible();
    await expect(result.getByText(`${soldOut.name} is sold out`)).toBeVisible();
    // Similar products in stock, as links to their pages.
    const similar = result.getByRole('listitem').filter({ hasText: `${soldOut.name} is sold out` }).getByRole('link');
    expect(await similar.count()).toBeGreaterThanOrEqual(1);
    expect(await similar.count()).toBeLessThanOrEqual(2);
    await expect(similar.first()).toHaveAttribute('href', /^\/p\//);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page);

    // Scrolled down, the phone header keeps its search and cart on screen (issue 30), axe clean.
    await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
    await expect(page.getByRole('banner').getByRole('button', { name: /^Cart, 1 item$/ })).toBeInViewport();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Search', exact: true })).toBeInViewport();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Menu', exact: true })).not.toBeInViewport();
    await expectNoAxeViolations(page);

    // The cart holds the re-priced product at today's price, and not the sold-out one.
    await result.getByRole('button', { name: 'See your cart' }).click();
    const cart = page.getByRole('dialog', { name: 'Your cart' });
    await expect(cart).toBeVisible();
    const lines = cart.getByRole('list', { name: 'Cart items' }).getByRole('listitem');
    await expect(lines).toHaveCount(1);
    await expect(lines.first().getByRole('paragraph').filter({ hasText: repriced.name })).toBeVisible();
    await expect(lines.first().getByText(`${usd(now)} each`)).toBeVisible();
    await expect(page.getByRole('button', { name: /^Cart, 1 item$/ })).toBeAttached();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page);
  } finally {
    await edit(staff, RE_PRICED, { price: repriced.price });
    await edit(staff, SOLD_OUT, { stock: soldOut.stock });
    await staffContext.close();
  }
});
