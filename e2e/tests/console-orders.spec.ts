/**
 * Issue 12, the store console: staff work the order queue live while shoppers order. Real server,
 * real Chromium (staff and shopper in separate browser contexts), the database read directly for
 * what the browser cannot see (the SMS outbox, stock).
 */
import { randomUUID } from 'node:crypto';
import { ageOn } from '@verdant/domain';
import type { APIRequestContext, Page, Response } from '@playwright/test';
import { createCustomer, loginByPhone, newCustomer, type NewCustomer } from '../fixtures/account.ts';
import { addToCart, notice } from '../fixtures/cart.ts';
import { consoleUrl, dbAll, expectQueue, fillReadyBy, queueRow, staffLogin, storeClock } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, PORT, storeUrl, test } from '../fixtures/store.ts';
import { orderableEighth } from '../fixtures/stock.ts';

test.describe.configure({ timeout: 180_000 });

/** A pickup order placed through the API as the customer; answers its number. */
async function placePickup(
  request: APIRequestContext,
  token: string,
  customer: NewCustomer,
  product: { sku: string; size: number },
): Promise<string> {
  const res = await request.post(`http://127.0.0.1:${PORT}/api/order/save`, {
    headers: { host: `downtown.localhost:${PORT}`, authorization: `Bearer ${token}` },
    data: {
      idempotency_key: randomUUID(),
      order_type: 'pickup',
      license_type: customer.license_type,
      personal_details: { firstName: customer.firstname, lastName: customer.lastname, emailAddress: customer.email, phone: customer.phone },
      products: [{ sku: product.sku, qty: 1, size: product.size }],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { result: { increment_id: string } }).result.increment_id;
}

/** A flower with an eighth in stock that no journey names (nor the order reserve of fixtures/stock.ts). */
function spareEighth(): string {
  const named = ['FL-ACDC', 'FL-APPLE-FRITTER', 'FL-BLUE-DREAM', 'FL-BLUEBERRY', 'FL-GELATO-RESERVE', 'FL-HEADBAND-POPCORN', 'FL-JACK-HERER', 'FL-KUSH-MINTS-PRIVATE-STOCK', 'FL-SUNSET-SHERBET'];
  const rows = dbAll<{ sku: string }>(
    `select p.sku from stock s join products p on p.id = s.product_id
     where p.store_id = 1 and p.sku like 'FL-%-8TH' and s.is_in_stock = 1 and s.qty >= 7 order by p.sku`,
  );
  const pick = rows.map((r) => r.sku.replace(/-8TH$/, '')).find((b) => !named.includes(b));
  if (!pick) throw new Error('no spare flower eighth in the demo stock');
  return pick;
}

/** The order's page in the console, found through the queue's search. */
async function openFromQueue(page: Page, incrementId: string): Promise<void> {
  await page.getByLabel('Number, name or phone').fill(incrementId);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: `#${incrementId}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Order #${incrementId}` })).toBeVisible();
}

function orderStatus(page: Page) {
  return page.getByRole('article').locator('header');
}

test.describe('at 1024×768', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('a shopper’s pickup order appears live; staff confirm with a ready-by time, mark it ready (SMS sent) and complete it after the ID check', async ({
    page,
    browser,
    request,
    extraHTTPHeaders,
  }) => {
    await staffLogin(page);
    await expectQueue(page);

    // The shopper, in a browser of their own, orders at the storefront.
    const customer = newCustomer({ firstname: 'Cora', lastname: 'Queue' });
    await createCustomer(request, customer);
    // As every journey's own context: this shopper's address, and no service worker (pwa.spec.ts is about it).
    const shopperContext = await browser.newContext({ extraHTTPHeaders, serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
    await passGateByCookie(shopperContext, 'downtown', 'recreational');
    const shopper = await shopperContext.newPage();
    await shopper.goto(storeUrl('downtown', '/menu'));
    await loginByPhone(shopper, customer.phone);
    await addToCart(shopper, storeUrl('downtown', '/p/FL-GELATO-RESERVE/gelato-reserve'), /^3\.5 g/, 1);
    await expect(notice(shopper, 'Product has been added to the cart!')).toBeVisible();
    await shopper.goto(storeUrl('downtown', '/checkout'));
    await expect(shopper.getByLabel('E-mail')).toBeVisible();
    await shopper.getByLabel('First name').fill(customer.firstname);
    await shopper.getByLabel('Last name').fill(customer.lastname);
    await shopper.getByLabel('E-mail').fill(customer.email);
    await shopper.getByLabel('Phone').fill(customer.phone);
    await expect(shopper.getByRole('radio', { name: /^Pickup — Free/ })).toBeChecked();
    const saved = shopper.waitForResponse((r: Response) => r.url().includes('/api/order/save') && r.request().method() === 'POST');
    await shopper.getByRole('button', { name: 'Place order' }).click();
    const res = await saved;
    expect(res.status()).toBe(200);
    const incrementId = ((await res.json()) as { result: { increment_id: string } }).result.increment_id;

    // Live: in the queue within 2 s of the order call returning, without a reload; marked new, in the title, announced.
    // (The staff window is brought to the front: a window behind another gets no animation frames, which clicks wait for.)
    await page.bringToFront();
    const row = queueRow(page, incrementId);
    await expect(row).toBeVisible({ timeout: 2000 });
    await expect(row.getByText('New', { exact: true })).toBeVisible();
    await expect(row).toContainText('Submitted');
    await expect(row).toContainText('Cora Queue');
    await expect(page).toHaveTitle(/^\(\d+\) Orders · Verdant console$/);
    await expect(page.getByTestId('live-announcer').getByText(`New pickup order #${incrementId}.`, { exact: true })).toBeAttached();

    // Confirm with a ready-by time half an hour from now (the store's clock).
    await row.getByRole('link', { name: `#${incrementId}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Order #${incrementId}` })).toBeVisible();
    const readyAt = new Date(Date.now() + 30 * 60_000);
    const readyBy = storeClock(readyAt);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm the order' });
    await expect(confirm).toBeVisible();
    await fillReadyBy(confirm, readyAt);
    await confirm.getByRole('button', { name: 'Confirm the order' }).click();
    await expect(confirm).toBeHidden();
    await expect(orderStatus(page)).toContainText('Confirmed');
    await expect(page.getByRole('status').filter({ hasText: `Order #${incrementId}: Confirmed.` })).toBeVisible();

    // The shopper's order page says Confirmed and when it will be ready.
    await shopper.goto(storeUrl('downtown', `/my-account/orders/${incrementId}`));
    await expect(shopper.getByTestId('order-status-label')).toHaveText('Confirmed');
    await expect(shopper.getByTestId('order-ready-by')).toContainText(`Ready by ${readyBy.shown}`);

    // Ready for pickup: the shopper's SMS is in the outbox.
    await page.bringToFront();
    await page.getByRole('button', { name: 'Mark ready for pickup' }).click();
    await expect(orderStatus(page)).toContainText('Ready for pickup');
    const orderId = dbAll<{ id: number }>('select id from orders where increment_id = ?', incrementId)[0].id;
    await expect
      .poll(
        () =>
          dbAll<{ channel: string; body: string }>(
            "select channel, body from message_deliveries where order_id = ? and template = 'order_ready_for_pickup' and channel = 'sms'",
            orderId,
          ),
        {
          timeout: 10_000,
        },
      )
      .toEqual([expect.objectContaining({ channel: 'sms', body: expect.stringContaining(incrementId) })]);

    // Complete only after ticking the ID check (age today shown).
    await page.getByRole('button', { name: 'Complete', exact: true }).click();
    const complete = page.getByRole('dialog', { name: 'Complete the order' });
    const submit = complete.getByRole('button', { name: 'Complete the order' });
    await expect(submit).toBeDisabled();
    await complete.getByLabel(`I checked the customer’s ID (age ${ageOn(customer.birthday, new Date())} today)`).check();
    await submit.click();
    await expect(complete).toBeHidden();
    await expect(orderStatus(page)).toContainText('Completed');

    // The history tells who did what.
    const history = page.getByRole('list', { name: 'Order history' });
    await expect(history.getByRole('listitem').filter({ hasText: 'Submitted → Confirmed' })).toContainText('Bea Budtender');
    await expect(history.getByRole('listitem').filter({ hasText: 'Confirmed → Ready for pickup' })).toContainText('Bea Budtender');
    await expect(history.getByRole('listitem').filter({ hasText: 'Ready for pickup → Completed' })).toContainText('ID checked');
    await shopperContext.close();
  });

  // Issue 26: the dialog says what happens to stock for the chosen reason; "Sold out" does not put it back.
  for (const { reason, sku, restocks, message } of [
    { reason: 'Customer request', sku: 'FL-SUNSET-SHERBET', restocks: true, message: 'Cancelled as you asked on the phone.' },
    // An eighth no other journey orders or shows: this one leaves it an eighth short for the rest of the run.
    { reason: 'Sold out', sku: '', restocks: false, message: 'Sorry, the last eighth went this morning.' },
  ]) {
    test(`cancelling for “${reason}” ${restocks ? 'puts its stock back' : 'keeps its stock out'}, says so first, and tells the shopper why`, async ({
      page,
      request,
    }) => {
      const base = sku || spareEighth();
      const product = { sku: `${base}-8TH`, size: 92 };
      const stock = () =>
        dbAll<{ sku: string; qty: number; is_in_stock: number }>(
          `select p.sku, s.qty, s.is_in_stock from stock s join products p on p.id = s.product_id where p.store_id = 1 and p.sku like '${base}%' order by p.sku`,
        );
      const customer = newCustomer({ firstname: 'Carl', lastname: 'Cancel' });
      const { token } = await createCustomer(request, customer);
      const before = stock();
      const incrementId = await placePickup(request, token, customer, product);
      const taken = stock();
      expect(taken).not.toEqual(before);

      await staffLogin(page);
      await expectQueue(page);
      await openFromQueue(page, incrementId);
      await page.getByRole('button', { name: 'Cancel order' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel the order' });
      const stockNote = dialog.getByTestId('cancel-stock');
      await expect(stockNote).toHaveText('Choose a reason: “Sold out” keeps the items out of stock; every other reason puts them back.');
      await dialog.getByLabel('Reason').selectOption({ label: reason });
      await expect(stockNote).toHaveText(restocks ? /^Its items go back to stock/ : /^Stock is not put back/);
      await expect(dialog.getByRole('button', { name: 'Cancel the order' })).toHaveAccessibleDescription(
        restocks ? /^Its items go back to stock/ : /^Stock is not put back/,
      );
      await dialog.getByLabel('Message to the shopper').fill(message);
      await dialog.getByRole('button', { name: 'Cancel the order' }).click();
      await expect(dialog).toBeHidden();
      await expect(orderStatus(page)).toContainText('Cancelled');
      await expect(page.getByRole('definition').filter({ hasText: message })).toBeVisible();
      expect(stock()).toEqual(restocks ? before : taken);
      // Nothing more to do with a cancelled order.
      await expect(page.getByRole('list', { name: 'Order actions' })).toHaveCount(0);
    });
  }
});

test.describe('at 768×1024 (tablet)', () => {
  test.use({ viewport: { width: 768, height: 1024 } });

  test('axe: the queue, an order and its confirm and cancel dialogs', async ({ page, request }) => {
    const customer = newCustomer({ firstname: 'Axel', lastname: 'Scan' });
    const { token } = await createCustomer(request, customer);
    const incrementId = await placePickup(request, token, customer, orderableEighth());

    await staffLogin(page);
    await expectQueue(page);
    await expectNoAxeViolations(page);
    await openFromQueue(page, incrementId);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Confirm the order' }).getByLabel('Ready by')).toBeFocused();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await expect(page.getByRole('dialog', { name: 'Cancel the order' }).getByLabel('Reason')).toBeFocused();
    await expectNoAxeViolations(page);
  });

  test('keyboard only: queue → order → confirm dialog (focus in, Escape gives it back) → confirmed → ready → complete with the ID check', async ({
    page,
    request,
  }) => {
    const customer = newCustomer({ firstname: 'Kai', lastname: 'Keys' });
    const { token } = await createCustomer(request, customer);
    const incrementId = await placePickup(request, token, customer, orderableEighth());

    await staffLogin(page);
    await expectQueue(page);

    // Mute: a toggle button whose state survives a reload.
    const mute = page.getByRole('button', { name: 'Mute sound' });
    await expect(mute).toHaveAttribute('aria-pressed', 'false');
    await mute.focus();
    await page.keyboard.press('Enter');
    await expect(mute).toHaveAttribute('aria-pressed', 'true');
    await page.reload();
    await expect(page.getByRole('button', { name: 'Mute sound' })).toHaveAttribute('aria-pressed', 'true');

    await page.getByLabel('Number, name or phone').focus();
    await page.keyboard.type(incrementId);
    await page.keyboard.press('Enter');
    const link = page.getByRole('link', { name: `#${incrementId}` });
    await expect(link).toHaveCount(1);
    await link.focus();
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { level: 1, name: `Order #${incrementId}` });
    await expect(heading).toBeVisible();

    // Focus moves into the dialog (ready-by, default now + 20 min); Escape closes it and gives focus back.
    const confirmButton = page.getByRole('button', { name: 'Confirm', exact: true });
    await confirmButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Confirm the order' });
    const readyBy = dialog.getByLabel('Ready by');
    await expect(readyBy).toBeFocused();
    await expect(readyBy).toHaveValue(/^\d{2}:\d{2}$/);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(confirmButton).toBeFocused();
    // Its Close button and the opener clicked in the same task (before the dialog's queued 'close'
    // event): the dialog is open again, focus in it, not shut by that late event; Escape closes it.
    await page.keyboard.press('Enter');
    await expect(readyBy).toBeFocused();
    await page.evaluate(() => {
      const close = document.querySelector<HTMLButtonElement>('dialog[open] button[data-close]');
      const opener = [...document.querySelectorAll<HTMLButtonElement>('ul[aria-label="Order actions"] button')].find(
        (b) => b.textContent?.trim() === 'Confirm',
      );
      if (!close || !opener) throw new Error('no Close button or no Confirm button');
      close.click();
      opener.click();
    });
    await expect(readyBy).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // For real: Enter opens, the default time is kept, Enter in the field sends; focus goes to the order's heading.
    await page.keyboard.press('Enter');
    await expect(readyBy).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(orderStatus(page)).toContainText('Confirmed');
    await expect(heading).toBeFocused();

    // Ready, then the complete dialog: its required check by Space, its button by Tab and Enter.
    await page.getByRole('button', { name: 'Mark ready for pickup' }).focus();
    await page.keyboard.press('Enter');
    await expect(orderStatus(page)).toContainText('Ready for pickup');
    await page.getByRole('button', { name: 'Complete', exact: true }).focus();
    await page.keyboard.press('Enter');
    const complete = page.getByRole('dialog', { name: 'Complete the order' });
    const idCheck = complete.getByRole('checkbox', { name: /^I checked the customer’s ID \(age \d+ today\)$/ });
    await expect(idCheck).toBeFocused();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Space');
    await expect(idCheck).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(complete.getByRole('button', { name: 'Complete the order' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(complete).toBeHidden();
    await expect(orderStatus(page)).toContainText('Completed');
    await expect(heading).toBeFocused();
  });
});
