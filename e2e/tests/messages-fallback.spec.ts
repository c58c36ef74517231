/**
 * Messages that arrive (issue 30): on the messages server (texts and mails through a loopback
 * gateway that reports delivery back), a shopper's order whose texts the carrier rejects. Staff
 * confirm it and mark it ready in the console; the order's page then shows, per message, the
 * channel, the gateway and the state: the confirmation's SMS failed and its e-mail delivered, the
 * ready SMS failed with the provider's error and its fallback e-mail delivered. At tablet and phone
 * width, axe clean, nothing sideways.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { LoopbackGateway } from '../../apps/server/test-support/messages/gateway.ts';
import { consoleCall, consoleUrl, staffLogin } from '../fixtures/console.ts';
import { MESSAGES_GATEWAY_PORT, MESSAGES_PORT, MESSAGES_SECRET } from '../fixtures/messages.ts';
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

const gateway = new LoopbackGateway(MESSAGES_SECRET);

test.beforeAll(async () => {
  await gateway.start(MESSAGES_GATEWAY_PORT);
  gateway.statusBaseUrl = `http://127.0.0.1:${MESSAGES_PORT}`;
});
test.afterAll(() => gateway.stop());

async function expectNoOverflow(page: Page, screen: string): Promise<void> {
  const sizes = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
  expect(sizes.scroll, `${screen} overflows`).toBeLessThanOrEqual(sizes.inner);
}

test.use({ viewport: { width: 1024, height: 768 } });

test('a text the carrier rejects goes again by e-mail; the order page shows each message, its channel, gateway and whether it arrived', async ({ page, request }) => {
  const phone = '(916) 555-0188';
  gateway.fates.set('+19165550188', { fate: 'fail' });
  const email = `fallback-${randomUUID().slice(0, 8)}@example.com`;
  const placed = await request.post(`http://127.0.0.1:${MESSAGES_PORT}/api/order/save`, {
    headers: { host: 'downtown.localhost' },
    data: {
      idempotency_key: randomUUID(),
      order_type: 'pickup',
      license_type: 'recreational',
      birthday: '1990-01-01',
      personal_details: { firstName: 'Fay', lastName: 'Fallback', emailAddress: email, phone },
      products: [{ sku: 'AC-BLACK-CERAMIC-STASH-JAR', qty: 1 }],
      payment_method: 'cashondelivery',
    },
  });
  expect(placed.status(), await placed.text()).toBe(200);
  const order = ((await placed.json()) as { result: { order_id: number; increment_id: string } }).result;

  await staffLogin(page, undefined, MESSAGES_PORT);
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  const confirmed = await consoleCall(page, 'POST', `/orders/${order.order_id}/transitions`, {
    action: 'confirm',
    readyBy: new Date(Date.now() + 30 * 60_000).toISOString(),
    confirmClosed: true,
  });
  expect(confirmed.status).toBe(200);

  await page.goto(consoleUrl(`/stores/1/orders/${order.order_id}`, MESSAGES_PORT));
  await expect(page.getByRole('heading', { level: 1, name: `Order #${order.increment_id}` })).toBeVisible();
  await page.getByRole('button', { name: 'Mark ready for pickup' }).click();

  const list = page.getByRole('list', { name: 'Messages sent' });
  const readySms = list.getByRole('listitem', { name: 'Ready for pickup, SMS: Failed' });
  const readyMail = list.getByRole('listitem', { name: 'Ready for pickup, E-mail: Delivered' });
  // The reports come in after the page read the list: read it again until they are there.
  await expect(async () => {
    await page.reload();
    await expect(readyMail).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(readySms).toContainText('to +19165550188');
  await expect(readySms).toContainText('via gateway');
  await expect(readySms).toContainText('Provider: Carrier rejected the message (30007)');
  await expect(readyMail).toContainText(`to ${email}`);
  await expect(readyMail).toContainText('Fallback for the SMS that did not arrive');
  // The confirmation goes by both (its e-mail is the receipt): no fallback of its own.
  await expect(list.getByRole('listitem', { name: 'Order confirmed, SMS: Failed' })).toBeVisible();
  await expect(list.getByRole('listitem', { name: 'Order confirmed, E-mail: Delivered' })).toBeVisible();
  await expect(list.getByRole('listitem', { name: /^Order confirmed, E-mail/ })).not.toContainText('Fallback for');
  expect(gateway.received.filter((m) => m.to === email).map((m) => m.subject)).toEqual([
    `Order #${order.increment_id} is confirmed`,
    `Order #${order.increment_id} is ready for pickup`,
  ]);
  await expectNoAxeViolations(page);
  await expectNoOverflow(page, 'order messages at 1024 px');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(readyMail).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoOverflow(page, 'order messages at 390 px');
});
