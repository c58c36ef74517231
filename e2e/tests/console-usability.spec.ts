/**
 * Issue 26 "Console usability", the shift on a tablet and a phone: a delivery order's whole address
 * with a map link, the confirm form's ready-by (the booked slot, the store's hours), new orders that
 * cannot be missed, phone and tablet layouts without sideways scrolling, and the keyboard's way
 * through the queue. Real server and Chromium; orders placed through the order API as guests.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { dbAll, expectQueue, queueRow, staffLogin, storeClock } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, PORT, test } from '../fixtures/store.ts';
import { orderableEighth } from '../fixtures/stock.ts';

test.describe.configure({ timeout: 120_000 });

const DOWNTOWN = `downtown.localhost:${PORT}`;
const ADDRESS = { city: 'Sacramento', zip: '95814', address: '900 J St', apt_ste: '2B' };

/** A guest order through the order API; answers its number and id. */
async function placeGuest(
  request: APIRequestContext,
  opts: { type?: 'pickup' | 'delivery'; slot?: string | null; name?: string } = {},
): Promise<{ incrementId: string; id: number }> {
  const type = opts.type ?? 'pickup';
  const [first, last] = (opts.name ?? 'Gina Guest').split(' ');
  const product = orderableEighth();
  const res = await request.post(`http://127.0.0.1:${PORT}/api/order/save`, {
    headers: { host: DOWNTOWN },
    data: {
      idempotency_key: randomUUID(),
      order_type: type,
      license_type: 'recreational',
      birthday: '1990-01-01',
      personal_details: { firstName: first, lastName: last, emailAddress: `${randomUUID().slice(0, 8)}@example.com`, phone: '(916) 555-0142' },
      products: [{ sku: product.sku, qty: type === 'delivery' ? 2 : 1, size: product.size }],
      ...(type === 'delivery' ? { shipping_address: ADDRESS } : {}),
      ...(opts.slot ? { slot: opts.slot } : {}),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const result = ((await res.json()) as { result: { increment_id: string; order_id: number } }).result;
  return { incrementId: result.increment_id, id: result.order_id };
}

async function openOrder(page: Page, incrementId: string): Promise<void> {
  await page.getByLabel('Number, name or phone').fill(incrementId);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: `#${incrementId}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Order #${incrementId}` })).toBeVisible();
}

for (const viewport of [
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('a delivery order shows its whole address and a map link, on the order page and in the queue', async ({ page, request }) => {
      const order = await placeGuest(request, { type: 'delivery', name: 'Dora Delivery' });
      await staffLogin(page);
      await expectQueue(page);
      await page.getByLabel('Number, name or phone').fill(order.incrementId);
      await page.getByRole('button', { name: 'Search' }).click();
      const row = queueRow(page, order.incrementId);
      await expect(row.getByTestId('delivery-address')).toContainText('900 J St, Apt 2B, Sacramento 95814');
      await row.getByRole('link', { name: `#${order.incrementId}` }).click();
      await expect(page.getByRole('heading', { level: 1, name: `Order #${order.incrementId}` })).toBeVisible();
      const address = page.getByRole('region', { name: 'Delivery and notes' }).getByTestId('delivery-address');
      await expect(address).toHaveText(/^900 J St\s*Apt 2B\s*Sacramento 95814\s*Map of 900 J St, Apt 2B, Sacramento 95814 \(new tab\)$/);
      const map = address.getByRole('link', { name: 'Map of 900 J St, Apt 2B, Sacramento 95814 (new tab)' });
      await expect(map).toHaveAttribute('href', 'https://www.google.com/maps/search/?api=1&query=900%20J%20St%2C%20Sacramento%2095814');
      await expect(map).toHaveAttribute('target', '_blank');
      await expectNoAxeViolations(page);
    });
  });
}

test.describe('ready-by at 1024×768', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('the confirm form starts at the booked slot; a time when the store is closed needs “confirm anyway”', async ({ page, request }) => {
    // A slot the store offers (the second: never one that starts within the lead time).
    const slots = await request.get(`http://127.0.0.1:${PORT}/api/order/slots?order_type=pickup`, { headers: { host: DOWNTOWN } });
    const slot = ((await slots.json()) as { result: { slots: { start: string; end: string; label: string }[] } }).result.slots[1];
    const order = await placeGuest(request, { slot: slot.start, name: 'Sam Slot' });

    await staffLogin(page);
    await expectQueue(page);
    await openOrder(page, order.incrementId);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm the order' });
    await expect(dialog.getByTestId('confirm-slot')).toHaveText(slot.label);
    const start = storeClock(new Date(slot.start));
    await expect(dialog.getByLabel('Ready by')).toBeFocused();
    await expect(dialog.getByLabel('Ready by')).toHaveValue(start.input);
    await expect(dialog.getByLabel('Date')).toHaveValue(start.date);
    await expect(dialog).toContainText('Suggested: the start of the time slot the shopper booked.');
    await expectNoAxeViolations(page);

    // 5 AM the day after the slot: downtown opens at 9 or 10 every day, so it is closed whatever the hour now.
    const closed = new Date(Date.parse(slot.start) + 86_400_000);
    const closedDate = storeClock(closed).date;
    await dialog.getByLabel('Date').fill(closedDate);
    await dialog.getByLabel('Ready by').fill('05:00');
    await expect(dialog.getByText('The store is closed for pickup orders at that time.')).toBeVisible();
    const insist = dialog.getByLabel('Store closed — confirm anyway');
    await expect(insist).not.toBeChecked();
    await expect(dialog.getByRole('button', { name: 'Confirm the order' })).toBeDisabled();
    // Enter in the field confirms nothing while the box is unticked.
    await dialog.getByLabel('Ready by').press('Enter');
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(page);

    // The server refuses the same time without the tick, whatever a browser sends.
    const refused = await page.evaluate(
      async ({ id, readyBy }) => {
        const session = (await (await fetch('/api/console/session')).json()) as { result: { csrfToken: string } };
        const stores = (await (await fetch('/api/console/stores')).json()) as { result: { id: number; code: string }[] };
        const store = stores.result.find((s) => s.code === 'downtown')!;
        const res = await fetch(`/api/console/stores/${store.id}/orders/${id}/transitions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.result.csrfToken },
          body: JSON.stringify({ action: 'confirm', readyBy }),
        });
        return { status: res.status, body: (await res.json()) as { errorCode: string } };
      },
      // Noon UTC is 4 or 5 AM in Sacramento.
      { id: order.id, readyBy: `${closedDate}T12:00:00.000Z` },
    );
    expect(refused).toMatchObject({ status: 400, body: { errorCode: 'store_closed' } });

    await insist.check();
    await dialog.getByRole('button', { name: 'Confirm the order' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('article').locator('header')).toContainText('Confirmed');
    await expect(page.getByRole('definition').filter({ hasText: /, 5:00 AM$/ })).toBeVisible();
    const history = dbAll<{ data: string }>("select data from order_events where order_id = ? and to_status = 'confirmed'", order.id);
    expect(JSON.parse(history[0].data)).toMatchObject({ action: 'confirm', storeClosed: true });
  });
});
