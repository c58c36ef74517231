/**
 * Issue 29 "The shopper", on a phone (390×844): a guest's delivery order is stop 2 of a started trip;
 * the tracking page says "Your driver is on the way — you are stop 2, about N minutes" (axe clean,
 * nothing overflows); the stop ahead is recorded (written to the database as the driver routes do)
 * and the open page changes by itself to "you are next" and says so in its live region. The same
 * look-up without JavaScript (a plain form POST) shows the progress in the server's page.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { APIRequestContext, Page } from '@playwright/test';
import { uniquePhone } from '../fixtures/account.ts';
import { consoleCall, consoleUrl, dbAll, OWNER, staffLogin } from '../fixtures/console.ts';
import { orderableEighth } from '../fixtures/stock.ts';
import { expect, expectNoAxeViolations, passGateByCookie, PORT, storeUrl, test } from '../fixtures/store.ts';

test.describe.configure({ timeout: 150_000 });

const DOWNTOWN = `downtown.localhost:${PORT}`;

/** A guest's delivery order through the order API: its id and number. */
async function placeDelivery(request: APIRequestContext, phone: string, zip: string): Promise<{ id: number; increment_id: string }> {
  const product = orderableEighth();
  const res = await request.post(`http://127.0.0.1:${PORT}/api/order/save`, {
    headers: { host: DOWNTOWN },
    data: {
      idempotency_key: randomUUID(),
      order_type: 'delivery',
      license_type: 'recreational',
      birthday: '1990-01-01',
      personal_details: { firstName: 'Tess', lastName: 'Tracker', emailAddress: `${randomUUID().slice(0, 8)}@example.com`, phone },
      products: [{ sku: product.sku, qty: 1, size: product.size }],
      shipping_address: { address: '1 Capitol Mall', city: 'Sacramento', zip },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const result = ((await res.json()) as { result: { order_id: number; increment_id: string } }).result;
  return { id: result.order_id, increment_id: result.increment_id };
}

/** Confirm both orders, build a trip with them in this order and start it, through the console API as the signed-in owner. */
async function startTrip(page: Page, orderIds: number[]): Promise<number> {
  for (const id of orderIds) {
    const confirmed = await consoleCall(page, 'POST', `/orders/${id}/transitions`, { action: 'confirm', readyBy: new Date(Date.now() + 30 * 60_000).toISOString(), confirmClosed: true });
    expect(confirmed.status, JSON.stringify(confirmed.result)).toBe(200);
  }
  const drivers = (await consoleCall<{ items: { id: number; active: boolean }[] }>(page, 'GET', '/delivery/drivers')).result.items;
  const vehicles = (await consoleCall<{ items: { id: number; active: boolean }[] }>(page, 'GET', '/delivery/vehicles')).result.items;
  const trip = await consoleCall<{ id: number }>(page, 'POST', '/delivery/trips', { driverId: drivers.find((d) => d.active)!.id, vehicleId: vehicles.find((v) => v.active)!.id, orderIds });
  expect(trip.status, JSON.stringify(trip.result)).toBe(200);
  const start = await consoleCall(page, 'POST', `/delivery/trips/${trip.result.id}/start`, {});
  expect(start.status, JSON.stringify(start.result)).toBe(200);
  return trip.result.id;
}

/** What the driver routes write when the driver records a stop (the journey writes it straight to the e2e server's SQLite). */
function recordStop(tripId: number, orderId: number): void {
  const require = createRequire(import.meta.url);
  const Sqlite = require('better-sqlite3') as new (file: string, opts?: object) => { prepare(sql: string): { run(...a: unknown[]): { changes: number } }; close(): void };
  const db = new Sqlite(path.join(process.env.E2E_DATA_DIR!, 'verdant.sqlite'), { timeout: 5000 });
  try {
    const at = new Date().toISOString();
    const done = db
      .prepare("update trip_stops set outcome = 'delivered', outcome_at = ?, outcome_by = 'Dana Whitfield' where trip_id = ? and order_id = ? and outcome is null")
      .run(at, tripId, orderId);
    expect(done.changes).toBe(1);
  } finally {
    db.close();
  }
}

async function lookUp(page: Page, number: string, phone: string) {
  await page.getByLabel(/^Order number/).fill(number);
  await page.getByLabel(/^Phone number/).fill(phone);
  await page.getByRole('button', { name: 'Track order' }).click();
}

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the tracking page shows the stop and the minutes, and changes to "you are next" when the stop ahead is recorded; without JavaScript too', async ({
    page,
    browser,
    request,
    extraHTTPHeaders,
  }) => {
    const phone = uniquePhone();
    const ahead = await placeDelivery(request, uniquePhone(), '95816');
    const mine = await placeDelivery(request, phone, '95818');
    const staff = await browser.newPage();
    await staffLogin(staff, OWNER);
    await expect(staff.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
    await staff.goto(consoleUrl('/stores/1/orders'));
    const tripId = await startTrip(staff, [ahead.id, mine.id]);
    expect(dbAll<{ status: string }>('select status from orders where id = ?', mine.id)[0]!.status).toBe('out_for_delivery');
    // The first stop is about 6 minutes from the store: told at the start, once, by SMS; the shopper's stop 2 is not near yet.
    const near = (orderId: number) => dbAll<{ channel: string; body: string }>("select channel, body from message_deliveries where order_id = ? and template = 'order_driver_near'", orderId);
    expect(near(ahead.id)).toEqual([{ channel: 'sms', body: `Verdant Downtown: order #${ahead.increment_id} is about 10 minutes away. Have your ID ready.` }]);
    expect(near(mine.id)).toEqual([]);

    await passGateByCookie(page.context(), 'downtown', 'recreational');
    await page.goto(storeUrl('downtown', '/order-tracking'));
    await lookUp(page, mine.increment_id, phone);
    const result = page.getByTestId('tracking-result');
    await expect(result.getByTestId('order-status-label')).toHaveText('Out for delivery');
    const progress = result.getByTestId('trip-progress');
    await expect(progress).toHaveText(/^Your driver is on the way — you are stop 2, about \d+ minutes$/);
    const minutesBefore = Number(/about (\d+) minutes/.exec((await progress.textContent())!)![1]);
    expect(minutesBefore).toBeGreaterThan(5);
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: test.info().outputPath('delivery-progress-stop-2.png'), fullPage: true });

    // The driver records the stop ahead: the open page changes by itself (its status refresh, every 15 s).
    recordStop(tripId, ahead.id);
    await expect(progress).toHaveText(/^Your driver is on the way — you are next, about \d+ minutes?$/, { timeout: 25_000 });
    await expect(result.getByTestId('order-status-live')).toHaveText(/^Your driver is on the way — you are next, about \d+ minutes?\.$/);
    const minutesAfter = Number(/about (\d+) minute/.exec((await progress.textContent())!)![1]);
    expect(minutesAfter).toBeLessThan(minutesBefore);
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: test.info().outputPath('delivery-progress-next.png'), fullPage: true });

    // Without JavaScript: the form posts, and the server's page shows the progress.
    const plainContext = await browser.newContext({ extraHTTPHeaders, javaScriptEnabled: false, serviceWorkers: 'block', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await passGateByCookie(plainContext, 'downtown', 'recreational');
    const plain = await plainContext.newPage();
    await plain.goto(storeUrl('downtown', '/order-tracking'));
    await lookUp(plain, mine.increment_id, phone);
    await expect(plain.getByTestId('tracking-result').getByTestId('trip-progress')).toHaveText(/^Your driver is on the way — you are next, about \d+ minutes?$/);
    await plainContext.close();
    await staff.close();
  });
});
