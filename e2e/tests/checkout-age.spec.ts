/**
 * Age on every order (issue 14): a guest who passed the age gate but is under 21 on the order date
 * (in the store's time zone) is refused at checkout, by the field, with the spec's words, and no
 * order is sent; the server refuses an order without a date of birth on its own.
 */
import { randomUUID } from 'node:crypto';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';
import { addToCart, notice, storeApi } from '../fixtures/cart.ts';
import { orderableEighth } from '../fixtures/stock.ts';
import { storeClock } from '../fixtures/console.ts';

const GELATO = '/p/FL-GELATO-RESERVE/gelato-reserve';
const UNDER_21 = 'Sorry, you must be 21 years old or older to continue.';

/** The date of birth of someone who turns 21 tomorrow in the demo stores' zone: 20 years and 364 days old today. */
function turns21Tomorrow(): string {
  // Today in the store's zone, from the journeys' own store clock (M/D/YYYY HH:mm).
  const [month, day, year] = storeClock(new Date()).shown.split(' ')[0].split('/').map(Number);
  const d = new Date(Date.UTC(year, month - 1, day));
  d.setUTCFullYear(d.getUTCFullYear() - 21);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

test.beforeEach(async ({ context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
});

test('a guest under 21 is refused at checkout, on the date field, and no order is sent', async ({ page }) => {
  await addToCart(page, GELATO, /^1 g/, 1);
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  await page.goto(storeUrl('downtown', '/checkout'));
  await page.getByLabel('First name').fill('Young');
  await page.getByLabel('Last name').fill('Shopper');
  await page.getByLabel('E-mail').fill('young.shopper@example.com');
  await page.getByLabel('Phone').fill('(916) 555-0120');
  const birthday = page.getByLabel('Date of birth');
  await expect(birthday).toHaveAttribute('type', 'date');
  await expect(birthday).toHaveAttribute('autocomplete', 'bday');
  await birthday.fill(turns21Tomorrow());
  let sent = 0;
  page.on('request', (r) => void (r.url().includes('/api/order/save') && sent++));
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'One field needs your attention:' })).toContainText(`Date of birth: ${UNDER_21}`);
  await expect(birthday).toBeFocused();
  await expect(birthday).toHaveAttribute('aria-invalid', 'true');
  await expect(birthday).toHaveAccessibleDescription(new RegExp(`${UNDER_21.replace(/\./g, '\\.')}$`));
  await expectNoAxeViolations(page);
  expect(sent).toBe(0);
  await expect(page).toHaveURL(storeUrl('downtown', '/checkout'));
});

test('the server refuses a guest order without a date of birth, whatever the browser did', async ({ request }) => {
  const res = await storeApi(request).post('/api/order/save', {
    idempotency_key: randomUUID(),
    order_type: 'pickup',
    license_type: 'recreational',
    personal_details: { firstName: 'No', lastName: 'Birthday', emailAddress: 'no.birthday@example.com', phone: '(916) 555-0121' },
    payment_method: 'cashondelivery',
    products: [{ ...orderableEighth(), qty: 1 }],
  });
  expect(res.status()).toBe(400);
  expect(await res.json()).toMatchObject({ code: 400, result: 'Please enter your birthday' });
});
