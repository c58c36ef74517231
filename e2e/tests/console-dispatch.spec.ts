/**
 * Issue 29, the dispatch board at tablet size (1024×768): a manager adds a vehicle (the form's
 * messages are the shared schema's), builds a trip from three ready delivery orders, reorders the
 * stops with the keyboard (Move up / Move down keep the focus on the moved stop) and by dragging a
 * stop's handle, uses the suggested order (nearest the store first), meets the store's trip limit
 * (set low through the delivery-trips settings section first, put back after): the board says the
 * trip is over and Start is refused with the server's sentence naming the limit and by how much;
 * takes an order off and starts the trip. Axe clean on every page and dialog. At phone size
 * (390×844) the board, a trip and the drivers page do not scroll sideways. Then (the driver-actions
 * server): one stop delivered and one failed as the phone sends them, a phone reporting what still
 * waits on it; the trip page shows each stop's outcome, the manager ends the trip with the cash
 * $1.00 short and sees the difference; the board's Phones panel shows the phone. Screenshots go to the
 * test's output folder.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { consoleCall, consoleUrl, keepSection, staffLogin } from '../fixtures/console.ts';
import { orderableEighth } from '../fixtures/stock.ts';
import { expect, expectNoAxeViolations, PORT, test } from '../fixtures/store.ts';

test.describe.configure({ timeout: 180_000 });

const MANAGER = 'manager@demo.verdant.test';
/** Three Sacramento ZIPs in downtown's delivery radius at different distances from the store. */
const ADDRESSES = [
  { address: '2400 Florin Rd', city: 'Sacramento', zip: '95822' },
  { address: '5100 Folsom Blvd', city: 'Sacramento', zip: '95819' },
  { address: '1500 C St', city: 'Sacramento', zip: '95811' },
];

/** A 1×1 PNG: the customer's signature as the phone would send it. */
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, width: window.innerWidth }));
  expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(width);
}

/** A guest's delivery order through the checkout API: its id and number. */
async function placeDeliveryOrder(request: APIRequestContext, n: number, address: (typeof ADDRESSES)[number]): Promise<{ id: number; number: string }> {
  const res = await request.post(`http://127.0.0.1:${PORT}/api/order/save`, {
    headers: { host: `downtown.localhost:${PORT}` },
    data: {
      idempotency_key: randomUUID(),
      order_type: 'delivery',
      license_type: 'recreational',
      personal_details: { firstName: 'Dora', lastName: `Dispatch${'abc'[n]}`, emailAddress: `dispatch-${randomUUID()}@example.com`, phone: `(916) 555-01${40 + n}` },
      birthday: '1990-01-01',
      payment_method: 'cashondelivery',
      shipping_address: address,
      products: [{ ...orderableEighth(), qty: 1 }],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const result = ((await res.json()) as { result: { order_id: number; increment_id: string } }).result;
  return { id: result.order_id, number: result.increment_id };
}

/** The stops' order numbers as the trip page lists them. */
async function stopNumbers(page: Page): Promise<string[]> {
  const texts = await page.getByTestId('stop').allInnerTexts();
  return texts.map((t) => /#([A-Z0-9-]+)/.exec(t)?.[1] ?? '?');
}

test('dispatch at tablet size: a vehicle, a trip from ready orders, reorder by keyboard and drag, suggested order, over the limit, start; axe clean', async ({ page, request }, info) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const orders: { id: number; number: string }[] = [];
  for (const [i, a] of ADDRESSES.entries()) orders.push(await placeDeliveryOrder(request, i, a));

  await staffLogin(page, MANAGER);
  await expect(page).toHaveURL(/\/stores\/1\/orders/);
  // Confirm the three (what makes a delivery order ready to go).
  const readyBy = new Date(Date.now() + 2 * 3600_000).toISOString();
  for (const o of orders)
    expect((await consoleCall(page, 'POST', `/orders/${o.id}/transitions`, { action: 'confirm', readyBy, confirmClosed: true })).status).toBe(200);
  // A low limit: at most 2 orders per trip (put back whatever happens).
  const restore = await keepSection(page, 1, 'delivery-trips');
  try {
    const read = await page.evaluate(async () => (await (await fetch('/api/console/stores/1/settings/sections/delivery-trips')).json()) as { result: { version: number } });
    expect(
      (await consoleCall(page, 'PUT', '/settings/sections/delivery-trips', {
        value: { preset: 'custom', max_goods_cents: null, max_weight_grams: null, max_orders: 2 },
        version: read.result.version,
      })).status,
    ).toBe(200);

    // --- A vehicle ---
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Dispatch' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dispatch' })).toBeVisible();
    await page.getByRole('link', { name: 'Vehicles' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Vehicles' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Vehicles' }).getByRole('row')).not.toHaveCount(1);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Add a vehicle' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a vehicle' });
    await expect(dialog.getByLabel('Make')).toBeFocused();
    // Sent empty: the shared schema's words, at each field, the first field focused.
    await dialog.getByRole('button', { name: 'Add the vehicle' }).click();
    await expect(dialog.getByText('Make is required.')).toBeVisible();
    await expect(dialog.getByText('Plate is required.')).toBeVisible();
    await expect(dialog.getByLabel('Make')).toBeFocused();
    await expectNoAxeViolations(page);
    const plate = `E2E${randomUUID().slice(0, 5)}`.toUpperCase();
    await dialog.getByLabel('Make').fill('Kia');
    await dialog.getByLabel('Model').fill('Niro EV');
    await dialog.getByLabel('Plate').fill(plate.toLowerCase());
    await dialog.getByRole('button', { name: 'Add the vehicle' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: `Kia Niro EV ${plate} was added.` })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: plate })).toContainText('Active');
    await expect(page.getByRole('button', { name: 'Add a vehicle' })).toBeFocused();

    // --- The drivers page (and its dialog) ---
    await page.getByRole('link', { name: 'Drivers' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Drivers' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'Dana Whitfield' })).toContainText('Dana Whitfield');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Edit Marco Ibarra' }).click();
    const driverDialog = page.getByRole('dialog', { name: 'Edit Marco Ibarra' });
    await expect(driverDialog.getByLabel('Name')).toHaveValue('Marco Ibarra');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(driverDialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Edit Marco Ibarra' })).toBeFocused();

    // --- The board: pick the three, a driver and the new vehicle ---
    await page.getByRole('link', { name: 'Dispatch board' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dispatch' })).toBeVisible();
    for (const o of orders) await page.getByRole('checkbox', { name: new RegExp(`#${o.number}`) }).check();
    await expect(page.getByText('3 orders picked.')).toBeVisible();
    await page.getByLabel('Driver').selectOption({ label: 'Marco Ibarra (D-102)' });
    await page.getByLabel('Vehicle').selectOption({ label: `Kia Niro EV (${plate})` });
    await page.screenshot({ path: info.outputPath('dispatch-board-tablet.png'), fullPage: true });
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Create the trip' }).click();

    // --- The trip ---
    await expect(page.getByRole('heading', { level: 1, name: /^Trip DOWNTOWN-T\d+/ })).toBeVisible();
    const ledger = /DOWNTOWN-T\d+/.exec((await page.getByRole('heading', { level: 1 }).textContent())!)![0];
    await expect(page.getByRole('status').filter({ hasText: 'was created with 3 stops.' })).toBeVisible();
    const [a, b, c] = orders.map((o) => o.number);
    expect(await stopNumbers(page)).toEqual([a, b, c]);
    // Over the limit already, in words, before anyone presses Start.
    const overText = 'This trip has 3 orders, 1 over the limit of 2 orders per trip.';
    await expect(page.getByText('Over the limit: this trip cannot start until it is fixed.')).toBeVisible();
    await expect(page.getByText(overText)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: info.outputPath('dispatch-trip-tablet.png'), fullPage: true });

    // Keyboard: the first stop down (focus stays on it), then down again; then up.
    await page.getByRole('button', { name: `Move #${a} down` }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => stopNumbers(page)).toEqual([b, a, c]);
    await expect(page.getByRole('status').filter({ hasText: `Order #${a} is now stop 2 of 3.` })).toBeVisible();
    await expect(page.getByRole('button', { name: `Move #${a} down` })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect.poll(() => stopNumbers(page)).toEqual([b, c, a]);
    // At the bottom its Move down is disabled: the focus went to its Move up.
    await expect(page.getByRole('button', { name: `Move #${a} up` })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect.poll(() => stopNumbers(page)).toEqual([b, a, c]);
    await page.reload();
    await expect.poll(() => stopNumbers(page)).toEqual([b, a, c]);

    // Drag: the first stop's handle below the last stop (the list scrolled into view first).
    await page.getByRole('heading', { name: /^Stops/ }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
    const handle = (await page.getByTestId('drag-handle').nth(0).boundingBox())!;
    const lastStop = (await page.getByTestId('stop').nth(2).boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2, lastStop.y + lastStop.height - 4, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => stopNumbers(page)).toEqual([a, c, b]);
    await expect(page.getByRole('status').filter({ hasText: `Order #${b} is now stop 3 of 3.` })).toBeVisible();
    await page.reload();
    await expect.poll(() => stopNumbers(page)).toEqual([a, c, b]);

    // Suggested order: nearest the store first (the miles each stop shows never go down).
    await page.getByRole('button', { name: 'Use suggested order' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The stops are now in the suggested order' })).toBeVisible();
    const miles = (await page.getByTestId('stop').allInnerTexts()).map((t) => Number(/([\d.]+) mi/.exec(t)?.[1]));
    expect(miles.every((m) => Number.isFinite(m))).toBe(true);
    expect([...miles].sort((x, y) => x - y)).toEqual(miles);
    // 95811 is nearest downtown's store, then 95819, then 95822.
    const suggested = await stopNumbers(page);
    expect(suggested).toEqual([c, b, a]);

    // Start over the limit: refused, the server naming the limit and by how much.
    await page.getByRole('button', { name: 'Start the trip' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'This trip cannot start' });
    await expect(refusal).toContainText(overText);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: info.outputPath('dispatch-over-limit-tablet.png'), fullPage: true });

    // Fix it: the farthest stop off the trip; it is ready to go again.
    const last = suggested[2];
    await page.getByRole('button', { name: `Take #${last} off the trip` }).click();
    await expect(page.getByRole('status').filter({ hasText: `Order #${last} was taken off the trip` })).toBeVisible();
    await expect(page.getByTestId('stop')).toHaveCount(2);
    await expect(page.getByText(overText)).toBeHidden();
    await expect(page.getByLabel('Add an order (last stop)').locator('option', { hasText: `#${last}` })).toHaveCount(1);
    await page.getByRole('button', { name: 'Start the trip' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'started: its orders are out for delivery.' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Started');
    await expect(page.getByRole('button', { name: /Move #/ })).toHaveCount(0);
    await expectNoAxeViolations(page);

    // The board lists it under Started (tabs: arrow keys).
    await page.getByRole('link', { name: '← Dispatch board' }).click();
    await page.getByRole('tab', { name: 'Planned' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Started' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel')).toContainText('Marco Ibarra');
    await expect(page.getByRole('tabpanel')).toContainText(plate);
    await expectNoAxeViolations(page);
    // The order taken off waits on the board again.
    await expect(page.getByRole('checkbox', { name: new RegExp(`#${last}`) })).toBeVisible();

    // --- At the doors (the driver's actions, sent here as the phone would) and the end of the trip ---
    await page.getByRole('tabpanel').getByRole('link', { name: ledger }).click();
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(`^Trip ${ledger}`) })).toBeVisible();
    const tripId = Number(/trips\/(\d+)/.exec(page.url())![1]);
    const idOf = (n: string) => orders.find((o) => o.number === n)!.id;
    const [done, missed] = suggested.slice(0, 2);
    const deviceId = `e2e-phone-${randomUUID().slice(0, 8)}`;
    expect(
      (await consoleCall(page, 'POST', '/delivery/actions', {
        action_id: randomUUID(),
        device_id: deviceId,
        kind: 'deliver',
        trip_id: tripId,
        order_id: idOf(done),
        id_check: { document: 'drivers_licence', birth_date: '1990-01-01', name_matches: true },
        signature_png: `data:image/png;base64,${PNG_1PX}`,
      })).status,
    ).toBe(200);
    expect(
      (await consoleCall(page, 'POST', '/delivery/actions', { action_id: randomUUID(), device_id: deviceId, kind: 'fail', trip_id: tripId, order_id: idOf(missed), reason: 'not_home' })).status,
    ).toBe(200);
    const since = new Date(Date.now() - 5 * 60_000).toISOString();
    expect((await consoleCall(page, 'POST', '/delivery/devices/report', { device_id: deviceId, pending: 2, oldest_pending_at: since })).status).toBe(200);
    await page.reload();
    const outcomes = page.getByTestId('stop-outcome');
    await expect(outcomes.nth(0)).toContainText('Delivered');
    await expect(outcomes.nth(1)).toContainText('Failed: Not home');
    // The manager's end: the delivered order's cash, $1.00 short; the difference shows as it is typed.
    const end = page.getByRole('form', { name: 'End the trip' });
    const cashField = end.getByLabel(`#${done}`);
    const total = Number((await cashField.inputValue()).replace(/[^\d.]/g, ''));
    await cashField.fill((total - 1).toFixed(2));
    await expect(end.getByText('$1.00 short')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: info.outputPath('dispatch-end-tablet.png'), fullPage: true });
    await end.getByRole('button', { name: 'End the trip' }).click();
    const summary = page.getByTestId('end-summary');
    await expect(summary).toContainText(`handed in $${(total - 1).toFixed(2)}: $1.00 short.`);
    await expect(summary).toContainText(`#${done}: expected $${total.toFixed(2)}, handed in $${(total - 1).toFixed(2)} — $1.00 short`);
    await expect(summary).toContainText(`Back in stock: #${missed}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Ended');
    await expectNoAxeViolations(page);

    // The board: the phone with what still waits on it.
    await page.getByRole('link', { name: '← Dispatch board' }).click();
    const phones = page.getByRole('table', { name: 'Phones' });
    await expect(phones.getByRole('row').filter({ hasText: '2 actions waiting' }).filter({ hasText: 'Marco Manager' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: info.outputPath('dispatch-phones-tablet.png'), fullPage: true });
  } finally {
    await restore();
  }
});

test('dispatch at phone size (390×844): board, a trip and the drivers page do not scroll sideways', async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await staffLogin(page, MANAGER);
  await expect(page).toHaveURL(/\/stores\/1\/orders/);
  await page.goto(consoleUrl('/stores/1/dispatch'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dispatch' })).toBeVisible();
  await expect(page.getByRole('tabpanel')).toBeVisible();
  await expect(page.getByRole('tabpanel').getByRole('link').first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: info.outputPath('dispatch-board-phone.png'), fullPage: true });
  // The demo's sample trip (a planned trip of three stops).
  await page.getByRole('tabpanel').getByRole('link').last().click();
  await expect(page.getByRole('heading', { level: 1, name: /^Trip / })).toBeVisible();
  await expect(page.getByTestId('stop').first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: info.outputPath('dispatch-trip-phone.png'), fullPage: true });
  await page.goto(consoleUrl('/stores/1/drivers'));
  await expect(page.getByRole('heading', { level: 1, name: 'Drivers' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Dana Whitfield' }).first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: info.outputPath('dispatch-drivers-phone.png'), fullPage: true });
  await page.goto(consoleUrl('/stores/1/vehicles'));
  await expect(page.getByRole('heading', { level: 1, name: 'Vehicles' })).toBeVisible();
  await expectNoSidewaysScroll(page);
});
