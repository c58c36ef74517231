/**
 * Issue 12 "The shopper is told": a logged-in shopper's open order page shows the order's status
 * as a timeline and follows it live: when the store confirms the order (through the console API,
 * the server's transition service), the page shows Confirmed with the ready-by time within a few
 * seconds, without a reload, and says so in a polite live region.
 */
import { expect, expectNoAxeViolations, passGateByCookie, PORT, storeUrl, test } from '../fixtures/store.ts';
import { createCustomer, loginByPhone, newCustomer, placeOrderAs, PNG_FILE } from '../fixtures/account.ts';
import { consoleApi, STORE_TIME_ZONE, storeClock } from '../fixtures/console.ts';

// Long journeys (registration, login, checkout, several axe scans) on a shared, busy machine.
test.describe.configure({ timeout: 150_000 });

test.beforeEach(async ({ context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
});

test('the open order page follows the order: Submitted, then Confirmed with its ready-by time, without a reload, announced', async ({
  page,
  request,
}) => {
  const customer = newCustomer({ firstname: 'Mae', lastname: 'Jemison' });
  const { token } = await createCustomer(request, customer);
  const number = await placeOrderAs(request, token, customer);

  await page.goto(storeUrl('downtown', '/menu'));
  await loginByPhone(page, customer.phone);
  await page.goto(storeUrl('downtown', `/my-account/orders/${number}`));
  const status = page.getByRole('region', { name: 'Order status' });
  await expect(status.getByTestId('order-status-label')).toHaveText('Submitted');
  const steps = status.getByRole('list', { name: 'Order progress' }).getByRole('listitem');
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(0)).toHaveAttribute('aria-current', 'step');
  await expect(steps.nth(0).locator('time')).toHaveCount(1);
  await expect(status.getByTestId('order-ready-by')).toHaveCount(0);
  const live = status.getByRole('status');
  await expect(live).toHaveText('');
  await expectNoAxeViolations(page);
  // Survives only if the page is never loaded again.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

  const staff = await consoleApi(request);
  const stores = await staff.get<{ id: number; code: string; timezone: string }[]>('/stores');
  const store = stores.find((s) => s.code === 'downtown')!;
  const list = await staff.get<{ items: { id: number; increment_id: string }[] }>(
    `/stores/${store.id}/orders?q=${encodeURIComponent(number)}`,
  );
  const order = list.items.find((o) => o.increment_id === number)!;
  expect(order).toBeTruthy();
  // Two hours ahead, on the minute (the console's time field has no seconds).
  const readyBy = new Date(Math.ceil((Date.now() + 2 * 3_600_000) / 60_000) * 60_000).toISOString();
  const moved = await staff.post(`/stores/${store.id}/orders/${order.id}/transitions`, { action: 'confirm', readyBy, confirmClosed: true });
  expect(moved.status(), await moved.text()).toBe(200);

  // The page asks every 5 s while visible: Confirmed shows within ~6 s of the move.
  expect(store.timezone).toBe(STORE_TIME_ZONE);
  const expectedReadyBy = `Ready by ${storeClock(new Date(readyBy)).shown}`;
  await expect(status.getByTestId('order-status-label')).toHaveText('Confirmed', { timeout: 6_500 });
  await expect(status.getByTestId('order-ready-by')).toHaveText(expectedReadyBy);
  await expect(live).toHaveText(`Your order is now Confirmed. ${expectedReadyBy}.`);
  await expect(steps.nth(1)).toHaveAttribute('aria-current', 'step');
  await expect(steps.nth(1).locator('time')).toHaveCount(1);
  await expect(steps.nth(0)).not.toHaveAttribute('aria-current', 'step');
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await expectNoAxeViolations(page);
});

test('a cancelled order shows why, in the store’s words, and stops asking', async ({ page, request }) => {
  const customer = newCustomer({ firstname: 'Katherine', lastname: 'Johnson' });
  const { token } = await createCustomer(request, customer);
  const number = await placeOrderAs(request, token, customer);
  const staff = await consoleApi(request);
  const store = (await staff.get<{ id: number; code: string }[]>('/stores')).find((s) => s.code === 'downtown')!;
  const order = (
    await staff.get<{ items: { id: number; increment_id: string }[] }>(`/stores/${store.id}/orders?q=${encodeURIComponent(number)}`)
  ).items.find((o) => o.increment_id === number)!;
  const message = 'The Blue Dream eighth sold out this morning. Sorry!';
  const moved = await staff.post(`/stores/${store.id}/orders/${order.id}/transitions`, { action: 'cancel', reason: 'sold_out', message });
  expect(moved.status(), await moved.text()).toBe(200);

  await page.goto(storeUrl('downtown', '/menu'));
  await loginByPhone(page, customer.phone);
  let asked = 0;
  page.on('request', (r) => {
    if (r.url().includes(`/api/user/order/${number}`)) asked += 1;
  });
  await page.goto(storeUrl('downtown', `/my-account/orders/${number}`));
  const status = page.getByRole('region', { name: 'Order status' });
  await expect(status.getByTestId('order-status-label')).toHaveText('Cancelled');
  await expect(status.getByTestId('order-cancelled')).toContainText('Reason: Sold out');
  await expect(status.getByTestId('order-cancelled')).toContainText(message);
  const current = status.locator('[aria-current="step"]');
  await expect(current).toHaveCount(1);
  await expect(current).toContainText('Cancelled');
  await expectNoAxeViolations(page);
  // A final status is never asked for again. An absence has no condition to poll for: wait one
  // polling interval (5 s) and a little more, then count.
  const seen = asked;
  await page.waitForTimeout(5_600);
  expect(asked).toBe(seen);
});

// Written at the deadline and not yet run once (the shared e2e lock was busy): enable after a green run.
test('a medical order held for verification says which documents, links to them, and the documents say what staff decided', async ({
  page,
  request,
}) => {
  const customer = newCustomer({
    firstname: 'Frances',
    lastname: 'Allen',
    license_type: 'medical',
    medcard_number: 'MC-20261125',
    medcard_expiry: '2030-12-31',
  });
  const { token } = await createCustomer(request, customer);
  const upload = await request.post(`http://127.0.0.1:${PORT}/api/user/upload?kind=id`, {
    headers: { host: `downtown.localhost:${PORT}`, authorization: `Bearer ${token}` },
    multipart: { file: PNG_FILE },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const number = await placeOrderAs(request, token, customer);

  await passGateByCookie(page.context(), 'downtown', 'medical');
  await page.goto(storeUrl('downtown', '/menu'));
  await loginByPhone(page, customer.phone);
  await page.goto(storeUrl('downtown', `/my-account/orders/${number}`));
  const status = page.getByRole('region', { name: 'Order status' });
  await expect(status.getByTestId('order-status-label')).toHaveText('Submitted');
  await expect(status.getByTestId('order-hold')).toHaveText(
    'Held for verification: We need to verify your ID and medical card before the store can confirm your order. Check or upload your documents',
  );
  await expectNoAxeViolations(page);

  // Staff reject the ID with a reason the customer reads on their account.
  const staff = await consoleApi(request);
  const store = (await staff.get<{ id: number; code: string }[]>('/stores')).find((s) => s.code === 'downtown')!;
  const listed = (
    await staff.get<{ items: { id: number; increment_id: string }[] }>(`/stores/${store.id}/orders?q=${encodeURIComponent(number)}`)
  ).items;
  const detail = await staff.get<{ customer: { id: number } }>(
    `/stores/${store.id}/orders/${listed.find((o) => o.increment_id === number)!.id}`,
  );
  const reason = 'The photo is blurry: please upload a sharper one.';
  const reviewed = await staff.post(`/stores/${store.id}/customers/${detail.customer.id}/verification`, {
    document: 'id',
    decision: 'rejected',
    reason,
  });
  expect(reviewed.status(), await reviewed.text()).toBe(200);

  await status.getByRole('link', { name: 'Check or upload your documents' }).click();
  await expect(page).toHaveURL(storeUrl('downtown', '/my-account#documents-title'));
  const documents = page.getByRole('region', { name: 'Your documents' });
  await expect(documents.getByTestId('document-status-id')).toHaveText(`ID: rejected: ${reason}`);
  await expect(documents.getByText('Not uploaded yet')).toHaveCount(1);
  await expectNoAxeViolations(page);
});
