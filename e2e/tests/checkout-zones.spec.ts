/**
 * Delivery zones (issue 14): Harbor's manager replaces the store's delivery radius by a ZIP-list
 * zone in the console (a mistake in the JSON is named before anything is saved); a shopper whose
 * address is outside every zone is refused at checkout with the server's message and pickup
 * offered, and places the order as pickup.
 *
 * Own data: the Harbor store, whose delivery no other journey uses; the zone keeps Harbor's own
 * ZIP (94607), so a delivery there would still be taken.
 */
import { consoleUrl, HARBOR_MANAGER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';
import { notice, storeApi } from '../fixtures/cart.ts';

const HARBOR = 4;
const zone = (zips: string[]) => ({
  zones: [{ type: 'zips', name: 'Jack London', fee: 400, fee_incl_tax: 500, minimum_order: 0, free_over: null, eta_minutes: 40, zips }],
});

test('an address outside every delivery zone is refused at checkout with pickup offered', async ({ page, browser, request }) => {
  test.setTimeout(60_000);
  // The manager sets Harbor's zones in the console.
  await staffLogin(page, HARBOR_MANAGER);
  await expect(page).toHaveURL(consoleUrl(`/stores/${HARBOR}/orders`));
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Delivery zones' }).click();
  await expect(page).toHaveURL(consoleUrl(`/stores/${HARBOR}/settings-zones`));
  await expect(page.getByRole('heading', { level: 1, name: 'Delivery zones' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Zones now' })).toContainText('Within 12 miles');
  const json = page.getByLabel('Zones (JSON)');
  await json.fill(JSON.stringify(zone(['946'])));
  await page.getByRole('button', { name: 'Save zones' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The zones were not saved:' })).toContainText(
    'zones.0.zips.0: a ZIP code is 5 digits',
  );
  await expect(json).toBeFocused();
  await expect(json).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);
  await json.fill(JSON.stringify(zone(['94607'])));
  await page.getByRole('button', { name: 'Save zones' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Delivery zones saved.' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Zones now' })).toContainText('ZIP 94607');

  // A shopper of Harbor, in a browser of their own.
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.114' }, serviceWorkers: 'block' });
  await passGateByCookie(context, 'harbor', 'recreational');
  const shop = await context.newPage();
  const harbor = storeApi(request, 'harbor');
  const items = (
    (await (await harbor.get('/api/catalog/products?size=50')).json()).result.items as { sku: string; type_id: string; slug: string }[]
  ).filter((i) => i.type_id === 'simple');
  const stock = (
    await (
      await harbor.get(
        `/api/stock/list?skus=${items
          .slice(0, 15)
          .map((i) => i.sku)
          .join(',')}`,
      )
    ).json()
  ).result as {
    sku: string;
    status: string;
  }[];
  const pick = items.find((i) => stock.some((s) => s.sku === i.sku && s.status === 'ok'))!;
  expect(pick).toBeTruthy();
  await shop.goto(storeUrl('harbor', `/p/${pick.sku}/${pick.slug}`));
  await shop.getByRole('button', { name: 'Add to cart' }).click();
  await expect(notice(shop, 'Product has been added to the cart!')).toBeVisible();

  await shop.goto(storeUrl('harbor', '/checkout'));
  await shop.getByLabel('First name').fill('Ada');
  await shop.getByLabel('Last name').fill('Lovelace');
  await shop.getByLabel('E-mail').fill('ada.zones@example.com');
  await shop.getByLabel('Phone').fill('(510) 555-0100');
  // Age on every order (issue 14, built alongside): the date of birth where the checkout asks for it.
  const birthday = shop.getByLabel('Date of birth');
  if ((await birthday.count()) > 0) await birthday.fill('1990-01-01');
  // The delivery option says what the store's zones charge and where they reach (no more the old radius).
  const deliveryOption = shop.getByRole('radio', { name: /^Delivery/ });
  await expect(deliveryOption).toHaveAccessibleName('Delivery — $5.00 incl. tax To Jack London');
  await deliveryOption.check();
  await expect(shop.getByLabel('ZIP code')).toHaveAccessibleDescription(/^We deliver to Jack London\./);
  await shop.getByLabel('Street address').fill('3900 Piedmont Ave');
  await shop.getByLabel('City').fill('Oakland');
  await shop.getByLabel('ZIP code').fill('94611');
  await shop.getByLabel('ZIP code').blur();
  // Refused by the server from the ZIP, with pickup offered.
  const refusal = 'We don’t deliver to ZIP 94611: it is outside this store’s delivery zones. Choose pickup or another address.';
  // (After the field's hint, "We deliver to Jack London.")
  await expect(shop.getByLabel('ZIP code')).toHaveAccessibleDescription(new RegExp(`${refusal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  await shop.getByRole('button', { name: 'Place order' }).click();
  await expect(shop.getByLabel('ZIP code')).toBeFocused();
  await expect(shop.getByRole('heading', { name: 'Thank you for your order' })).toHaveCount(0);
  await expectNoAxeViolations(shop);

  // Harbor's own ZIP is in the zone: the checkout names the zone, its fee and time.
  await shop.getByLabel('ZIP code').fill('94607');
  await shop.getByLabel('ZIP code').blur();
  await expect(shop.getByText('Jack London: delivery $5.00 incl. tax, about 40 min.', { exact: true })).toBeVisible();

  // The contact page tells of the zone too (the save dropped the store's cached pages).
  const contact = await context.newPage();
  await contact.goto(storeUrl('harbor', '/contact'));
  await expect(contact.getByText('Pickup in store, or delivery to Jack London:')).toBeVisible();
  await expect(contact.getByRole('list', { name: 'Delivery zones' })).toHaveText('Jack London: $5.00 incl. tax, about 40 min');
  await expectNoAxeViolations(contact);
  await contact.close();

  // Pickup, as offered: the order is placed.
  await shop.getByRole('radio', { name: /^Pickup — Free/ }).check();
  await shop.getByRole('button', { name: 'Place order' }).click();
  await expect(shop.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeFocused();
  await context.close();
});
