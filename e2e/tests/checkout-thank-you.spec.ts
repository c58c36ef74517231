/**
 * Issue 11 journeys: the product page shows what the cart charges (14 g weight deal), the checkout
 * review shows what the order charges with reward points, one delivery fee everywhere, pickup is
 * paid at pickup, and the thank-you page shows the server's order: items, totals, where it goes
 * and what happens next.
 */
import { chosenUnitPrice, DELIVERY_FEE, PAYMENT_COPY, unitPrice, type CatalogProduct } from '@verdant/domain';
import type { Page, Response } from '@playwright/test';
import { expect, expectNoAxeViolations, passGateByCookie, PORT, storeUrl, test } from '../fixtures/store.ts';
import { addToCart, cartToken, notice, serverTotals, storeApi, totalsRow, usd } from '../fixtures/cart.ts';
import { createCustomer, loginByPhone, newCustomer, placeOrderAs } from '../fixtures/account.ts';

const GELATO_SKU = 'FL-GELATO-RESERVE';
const GELATO = `/p/${GELATO_SKU}/gelato-reserve`;

interface OrderAnswer {
  increment_id: string;
  total: number;
  subtotal: number;
  discount: number;
  shipping: number;
  credits_used: number;
  excise_taxes: number;
  sales_taxes: number;
  /** Each of the store's named tax lines charged on the order (issue 14). */
  tax_lines: { code: string; title: string; rate: number; amount: number }[];
  items: { name: string; qty: number; row_total: number }[];
  shipping_address: { address: string; city: string; zip: string } | null;
  pickup: { name: string; street: string; city: string; postcode: string; phone: string; hours: { days: string; hours: string }[] } | null;
}

test.beforeEach(async ({ context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
});

async function fillPersonal(page: Page, who = { first: 'Ada', last: 'Lovelace', email: 'ada@example.com', phone: '(916) 555-0100' }) {
  await page.getByLabel('First name').fill(who.first);
  await page.getByLabel('Last name').fill(who.last);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Phone').fill(who.phone);
}

/** Places the order and answers what the server said (the thank-you page must show just that). */
async function placeOrder(page: Page): Promise<OrderAnswer> {
  const answer = page.waitForResponse((r: Response) => r.url().includes('/api/order/save') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Place order' }).click();
  const res = await answer;
  expect(res.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeFocused();
  return ((await res.json()) as { result: OrderAnswer }).result;
}

async function expectThankYouShows(page: Page, order: OrderAnswer) {
  await expect(page.getByTestId('order-number')).toHaveText(order.increment_id);
  await expect(page.getByTestId('order-total')).toHaveText(usd(order.total));
  const items = page.getByTestId('order-items').getByRole('listitem');
  await expect(items).toHaveCount(order.items.length);
  for (const [i, item] of order.items.entries()) {
    await expect(items.nth(i)).toContainText(item.name);
    await expect(items.nth(i)).toContainText(`× ${item.qty}`);
    await expect(items.nth(i)).toContainText(usd(item.row_total));
  }
  // The receipt states each of the store's named tax lines with the server's amount (issue 14); they make up the two tax sums.
  expect(order.tax_lines.length).toBeGreaterThan(0);
  expect(order.tax_lines.reduce((a, l) => a + l.amount, 0)).toBe(order.excise_taxes + order.sales_taxes);
  const totals = page.getByTestId('order-totals');
  for (const line of order.tax_lines) {
    const label = totals.locator('dt').filter({ hasText: `${line.title} (${line.rate}%)` });
    await expect(label).toHaveCount(1);
    await expect(label.locator('xpath=following-sibling::dd[1]')).toHaveText(usd(line.amount));
  }
  await expect(totals.locator('dt').filter({ hasText: /^(Cannabis excise tax|Sales tax)$/ })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'What happens next' })).toBeVisible();
}

test('product page, 14 g: the headline and the size show the weight deal, and the cart charges exactly that', async ({ page, request }) => {
  const doc = ((await (await storeApi(request).get(`/api/catalog/product?sku=${GELATO_SKU}`)).json()) as { result: CatalogProduct }).result;
  const half = doc.configurable_children.find((c) => c.size === 94)!;
  const now = new Date();
  const charge = chosenUnitPrice(half, doc, now).final_price;
  // The case: a weight deal below the size's own price ($161.00 against $175.00).
  expect(charge).toBeLessThan(unitPrice(half, now).final_price);

  await page.goto(GELATO);
  const size = page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: /^14 g/ });
  await size.check();
  await expect(page).toHaveURL(new RegExp(`/p/${GELATO_SKU}/gelato-reserve/${half.sku}`));
  await expect(page.getByTestId('product-price')).toContainText(usd(charge));
  await expect(page.getByTestId('product-price').locator('.font-bold')).toHaveText(usd(charge));
  await expect(page.locator('label[for="size-94"]')).toContainText(usd(charge));

  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  const token = await cartToken(page);
  await expect
    .poll(async () => ((await (await storeApi(request).get(`/api/cart/pull?cartId=${token}`)).json()) as { result: { sku: string; price: number }[] }).result.map((l) => l.price))
    .toEqual([charge]);
  expect((await serverTotals(request, token)).subtotal).toBe(charge);
  await expectNoAxeViolations(page);
});

test('reward points: the review shows the order’s total and discount, and the thank-you page the same', async ({ page, request }) => {
  const customer = newCustomer({ firstname: 'Rosa', lastname: 'Diaz' });
  const { token } = await createCustomer(request, customer);
  await placeOrderAs(request, token, customer); // earns reward points

  await page.goto(storeUrl('downtown', '/menu'));
  await loginByPhone(page, customer.phone);
  await addToCart(page, GELATO, /^3\.5 g/, 1);
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  await page.goto(storeUrl('downtown', '/checkout'));
  await fillPersonal(page, { first: customer.firstname, last: customer.lastname, email: customer.email, phone: customer.phone });
  // A customer is not asked: the account's birthday is the order's (issue 14).
  await expect(page.getByLabel('Date of birth')).toHaveCount(0);
  await page.getByLabel('Reward points to redeem').fill('2');

  const review = page.getByRole('region', { name: '4. Review your order' });
  await expect(totalsRow(review, /^Discount/)).toHaveText('−$0.02');
  // The customer's cart answers the customer's token only.
  const cart = await cartToken(page);
  const totals = async () => {
    const res = await request.get(`http://127.0.0.1:${PORT}/api/cart/totals?cartId=${cart}`, { headers: { host: `downtown.localhost:${PORT}`, authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { result: { discount_amount: number; grand_total: number; credits_used: number } }).result;
  };
  await expect.poll(async () => (await totals()).credits_used).toBe(2);
  const t = await totals();
  expect(t.discount_amount).toBe(2);
  await expect(totalsRow(review, /^Total$/)).toHaveText(usd(t.grand_total));
  const shown = (await totalsRow(review, /^Total$/).textContent())!.trim();

  const order = await placeOrder(page);
  expect(usd(order.total)).toBe(shown);
  expect(order).toMatchObject({ credits_used: 2, discount: 2 });
  await expectThankYouShows(page, order);
  await expect(page.getByTestId('order-totals')).toContainText('incl. 2 reward points');
  await expectNoAxeViolations(page);
});

test('pickup: paid at pickup; the thank-you page shows the items, totals, the store’s address and hours', async ({ page }) => {
  await addToCart(page, GELATO, /^1 g/, 2);
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  await page.goto(storeUrl('downtown', '/checkout'));
  await fillPersonal(page);
  await page.getByLabel('Date of birth').fill('1990-01-01'); // a guest's age on every order (issue 14)
  await expect(page.getByRole('radio', { name: /^Pickup — Free/ })).toBeChecked();
  const review = page.getByRole('region', { name: '4. Review your order' });
  await expect(review.getByText(PAYMENT_COPY.pickup.text)).toBeVisible();
  await expect(page.getByText(PAYMENT_COPY.delivery.text)).toHaveCount(0);
  await expect(page.getByText('Pay at pickup', { exact: true })).toBeVisible();

  const order = await placeOrder(page);
  expect(order.pickup).not.toBeNull();
  expect(order.shipping_address).toBeNull();
  await expectThankYouShows(page, order);
  const place = page.getByTestId('pickup-place');
  await expect(place.getByRole('heading', { name: `Pickup at ${order.pickup!.name}` })).toBeVisible();
  await expect(place).toContainText(order.pickup!.street);
  await expect(place).toContainText(order.pickup!.postcode);
  await expect(place.getByRole('link', { name: order.pickup!.phone })).toBeVisible();
  for (const h of order.pickup!.hours) await expect(place.locator('dt', { hasText: h.days }).first()).toBeVisible();
  await expect(place.locator('dd').first()).toHaveText(order.pickup!.hours[0].hours);
  await expect(page.getByText(`You pay at pickup: ${usd(order.total)}`)).toBeVisible();
  await expect(page.getByTestId('delivery-address')).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('delivery: one fee on the delivery page and at checkout; the thank-you page shows the address and the fee', async ({ page }) => {
  const fee = usd(DELIVERY_FEE.inclTax);
  await page.goto(storeUrl('downtown', '/delivery'));
  await expect(page.getByRole('main')).toContainText(`Delivery costs ${fee} including tax`);
  await expect(page.getByRole('main')).not.toContainText(usd(DELIVERY_FEE.beforeTax));

  await addToCart(page, GELATO, /^3\.5 g/, 1);
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  await page.goto(storeUrl('downtown', '/checkout'));
  await fillPersonal(page);
  await page.getByLabel('Date of birth').fill('1990-01-01'); // a guest's age on every order (issue 14)
  await page.getByRole('radio', { name: new RegExp(`^Delivery — \\${fee} incl\\. tax`) }).check();
  await page.getByLabel('Street address').fill('1001 K Street');
  await page.getByLabel('City').fill('Sacramento');
  await page.getByLabel('ZIP code').fill('95816');
  await page.getByLabel('ZIP code').blur();
  await expect(page.getByText(/^We deliver here: [\d.]+ miles from the store\.$/)).toBeVisible();
  const review = page.getByRole('region', { name: '4. Review your order' });
  await expect(totalsRow(review, 'Shipping')).toHaveText(`${fee} incl. tax`);
  await expect(review.getByText(PAYMENT_COPY.delivery.text)).toBeVisible();

  const order = await placeOrder(page);
  expect(order.shipping).toBe(DELIVERY_FEE.inclTax);
  expect(order.pickup).toBeNull();
  await expectThankYouShows(page, order);
  const address = page.getByTestId('delivery-address');
  await expect(address).toContainText(order.shipping_address!.address);
  await expect(address).toContainText(`${order.shipping_address!.city} ${order.shipping_address!.zip}`);
  await expect(page.getByTestId('order-totals')).toContainText(fee);
  await expect(page.getByTestId('pickup-place')).toHaveCount(0);
  await expectNoAxeViolations(page);
});
