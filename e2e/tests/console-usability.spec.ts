/**
 * Issue 26 "Console usability", the shift on a tablet and a phone: a delivery order's whole address
 * with a map link, the confirm form's ready-by (the booked slot, the store's hours), new orders that
 * cannot be missed, phone and tablet layouts without sideways scrolling, and the keyboard's way
 * through the queue. Real server and Chromium; orders placed through the order API as guests.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { consoleUrl, dbAll, expectQueue, keepSection, OWNER, queueRow, staffLogin, storeClock } from '../fixtures/console.ts';
import { storeApi } from '../fixtures/cart.ts';
import { axe, expect, expectNoAxeViolations, PORT, test } from '../fixtures/store.ts';
import { orderableEighth } from '../fixtures/stock.ts';
import { createCustomer, newCustomer } from '../fixtures/account.ts';

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

/** A simple product in stock at a store (for an order whose product does not matter). */
async function simpleInStock(request: APIRequestContext, code: string): Promise<string> {
  const api = storeApi(request, code);
  const items = ((await (await api.get('/api/catalog/products?size=50&license_type=medical')).json()).result.items as {
    sku: string;
    type_id: string;
    license_type?: string;
  }[]).filter((i) => i.type_id === 'simple' && i.license_type !== 'medical');
  const skus = items.slice(0, 15).map((i) => i.sku);
  const stock = (await (await api.get(`/api/stock/list?skus=${skus.join(',')}`)).json()).result as { sku: string; status: string }[];
  const sku = skus.find((s) => stock.some((x) => x.sku === s && x.status === 'ok'));
  expect(sku, `a simple product in stock at ${code}`).toBeTruthy();
  return sku!;
}

test.describe('ready-by while the store is closed, at 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  // Wellness (store 3) is closed for pickup for the day while this runs: every Wellness order meanwhile
  // is taken for its next slot (the demo's "outside hours: next slot"), and the hours are put back after.
  test('closed all day: the order is booked for its next slot, the confirm form says the store is closed and starts at that slot', async ({
    page,
    request,
  }) => {
    await staffLogin(page, OWNER);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
    const WELLNESS = 3;
    const putBack = await keepSection(page, WELLNESS, 'hours');
    try {
      const today = storeClock(new Date()).date;
      const saved = await page.evaluate(
        async ({ store, today }) => {
          const url = `/api/console/stores/${store}/settings/sections/hours`;
          const { result } = (await (await fetch(url)).json()) as { result: { value: { exceptions: unknown[] }; version: number } };
          const session = (await (await fetch('/api/console/session')).json()) as { result: { csrfToken: string } };
          const value = { ...result.value, exceptions: [...result.value.exceptions, { date: today, order_types: ['pickup'], closed: true, label: 'Stocktake' }] };
          const put = await fetch(url, {
            method: 'PUT',
            headers: { 'content-type': 'application/json', 'x-csrf-token': session.result.csrfToken },
            body: JSON.stringify({ value, version: result.version }),
          });
          return put.status;
        },
        { store: WELLNESS, today },
      );
      expect(saved).toBe(200);

      const sku = await simpleInStock(request, 'wellness');
      const res = await storeApi(request, 'wellness').post('/api/order/save', {
        idempotency_key: randomUUID(),
        order_type: 'pickup',
        license_type: 'medical',
        birthday: '1980-01-01',
        personal_details: { firstName: 'Cleo', lastName: 'Closed', emailAddress: 'cleo.closed@example.com', phone: '(916) 555-0161' },
        products: [{ sku, qty: 1 }],
      });
      expect(res.status(), await res.text()).toBe(200);
      const order = ((await res.json()) as { result: { order_id: number; increment_id: string; slot: { start: string; label: string } | null } }).result;
      expect(order.slot, 'taken for the next slot, not today').not.toBeNull();
      expect(storeClock(new Date(order.slot!.start)).date > today).toBe(true);

      await page.goto(consoleUrl(`/stores/${WELLNESS}/orders/${order.order_id}`));
      await expect(page.getByRole('heading', { level: 1, name: `Order #${order.increment_id}` })).toBeFocused();
      await page.getByRole('button', { name: 'Confirm', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm the order' });
      await expect(dialog.getByTestId('confirm-slot')).toHaveText(order.slot!.label);
      await expect(dialog.getByText(/^Closed · opens /)).toBeVisible();
      const start = storeClock(new Date(order.slot!.start));
      await expect(dialog.getByLabel('Date')).toHaveValue(start.date);
      await expect(dialog.getByLabel('Ready by')).toHaveValue(start.input);
      await expect(dialog.getByLabel('Store closed — confirm anyway')).toHaveCount(0);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
      // What the old form offered: twenty minutes from now, today, while closed. Refused without the tick.
      const soon = new Date(Date.now() + 20 * 60_000);
      await dialog.getByLabel('Date').fill(storeClock(soon).date);
      await dialog.getByLabel('Ready by').fill(storeClock(soon).input);
      await expect(dialog.getByLabel('Store closed — confirm anyway')).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Confirm the order' })).toBeDisabled();
      if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/390-confirm-closed.png` });
      // Back to the slot: Enter confirms it.
      await dialog.getByLabel('Date').fill(start.date);
      await dialog.getByLabel('Ready by').fill(start.input);
      await expect(dialog.getByLabel('Store closed — confirm anyway')).toHaveCount(0);
      await dialog.getByLabel('Ready by').press('Enter');
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('article').locator('header')).toContainText('Confirmed');
      expect(dbAll<{ ready_by: string }>('select ready_by from orders where id = ?', order.order_id)[0].ready_by).toBe(
        new Date(order.slot!.start).toISOString(),
      );
    } finally {
      await putBack();
    }
  });
});

/**
 * In the page before the app: a Notification that records what it shows (permission asked on a
 * click, granted) and an AudioContext that counts chimes (two tones each), so the journey can tell
 * what staff would see and hear.
 */
async function recordAlerts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __notes: string[]; __tones: number; Notification: unknown; AudioContext: unknown };
    w.__notes = [];
    w.__tones = 0;
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      static requestPermission(): Promise<NotificationPermission> {
        FakeNotification.permission = 'granted';
        return Promise.resolve('granted');
      }
      onclick: (() => void) | null = null;
      constructor(title: string) {
        w.__notes.push(title);
      }
      close(): void {}
    }
    w.Notification = FakeNotification;
    const node = () => ({ connect: (next: unknown) => next ?? node() });
    class FakeAudio {
      currentTime = 0;
      destination = {};
      createOscillator() {
        return { ...node(), type: 'sine', frequency: { value: 0 }, start: () => void (w.__tones += 1), stop: () => undefined };
      }
      createGain() {
        return { ...node(), gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined } };
      }
    }
    w.AudioContext = FakeAudio;
  });
}

const chimes = (page: Page) => page.evaluate(() => (window as unknown as { __tones: number }).__tones / 2);

test.describe('new orders at 1024×768', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('a new order alerts on any page, reminds every 30 s until opened, keeps its New flag over a reload; mute is per session', async ({
    page,
    context,
    request,
  }) => {
    await recordAlerts(page);
    await page.clock.install();
    await staffLogin(page);
    await expectQueue(page);
    // Staff are on the Menu page, not the queue.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Menu' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /Menu/ })).toBeVisible();
    const mute = page.getByRole('button', { name: /^Mute sound/ });
    await expect(mute).toHaveAttribute('aria-pressed', 'false');
    await expect(mute).toHaveAccessibleName('Mute sound (sound on)');
    // System notifications: asked on a click.
    await page.getByRole('button', { name: /^Turn on desktop alerts/ }).click();
    await expect(page.getByRole('button', { name: /^Turn on desktop alerts/ })).toHaveCount(0);

    const before = await chimes(page);
    const order = await placeGuest(request, { name: 'Nina New' });
    const banner = page.getByRole('region', { name: /new orders? waiting/ });
    const mine = banner.getByRole('listitem').filter({ hasText: `#${order.incrementId}` });
    await expect(mine).toBeVisible({ timeout: 5000 });
    await expect(mine).toContainText('pickup · waiting under 1 min');
    await expect(page.getByTestId('live-announcer').getByText(`New pickup order #${order.incrementId}.`, { exact: true })).toBeAttached();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __notes: string[] }).__notes)).toContain(`New pickup order #${order.incrementId}`);
    await expect.poll(() => chimes(page)).toBeGreaterThan(before);
    // The tab title counts the new orders on any page.
    await expect(page).toHaveTitle(/^\(\d+\) Menu · Verdant console$/);
    await expectNoAxeViolations(page);

    // Not opened: the chime comes again every 30 s, and the wait counts up.
    for (let i = 0; i < 2; i++) {
      const n = await chimes(page);
      await page.clock.fastForward(30_000);
      // (At least: other journeys' orders may chime too.)
      await expect.poll(() => chimes(page)).toBeGreaterThanOrEqual(n + 1);
    }
    await page.clock.fastForward(60_000);
    await expect(mine).toContainText(/waiting [1-5] min/);

    // Muted: it shows, and the reminders are silent.
    await mute.click();
    await expect(mute).toHaveAttribute('aria-pressed', 'true');
    await expect(mute).toHaveAccessibleName('Mute sound (muted)');
    const silent = await chimes(page);
    await page.clock.fastForward(30_000);
    await page.clock.fastForward(30_000);
    expect(await chimes(page)).toBe(silent);

    // A reload keeps the New flag (the server's: nobody opened the order) and the mute (same session).
    await page.reload();
    await expect(mine).toBeVisible();
    await expect(page.getByRole('button', { name: /^Mute sound/ })).toHaveAttribute('aria-pressed', 'true');
    // A new tab is a new session: sound on.
    const other = await context.newPage();
    await other.goto(page.url());
    await expect(other.getByRole('button', { name: /^Mute sound/ })).toHaveAttribute('aria-pressed', 'false');
    await other.close();

    // In the queue: New, and how long it has waited.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Orders' }).click();
    await expectQueue(page);
    await page.getByLabel('Number, name or phone').fill(order.incrementId);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = queueRow(page, order.incrementId);
    await expect(row.getByText('New', { exact: true })).toBeVisible();
    await expect(row.getByTestId('waiting')).toHaveText(/^Waiting \d+ min$/);

    // On the queue the banner names it (the row is the link); opening it ends the alert, after a reload too; the heading has the focus.
    await expect(mine).toBeVisible();
    await expect(mine.getByRole('link')).toHaveCount(0);
    await row.getByRole('link', { name: `#${order.incrementId}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Order #${order.incrementId}` })).toBeFocused();
    await expect(page.getByRole('list', { name: 'New orders' }).getByRole('link', { name: `#${order.incrementId}` })).toHaveCount(0);
    await expect.poll(() => dbAll<{ opened_at: string | null }>('select opened_at from orders where id = ?', order.id)[0].opened_at).not.toBeNull();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: `Order #${order.incrementId}` })).toBeVisible();
    await expect(page.getByRole('list', { name: 'New orders' }).getByRole('link', { name: `#${order.incrementId}` })).toHaveCount(0);
  });

  test('one member opening a new order ends its alert in every other console at once', async ({ page, browser, request, extraHTTPHeaders }) => {
    await staffLogin(page);
    await expectQueue(page);
    const otherContext = await browser.newContext({ extraHTTPHeaders, serviceWorkers: 'block', viewport: { width: 1024, height: 768 } });
    const other = await otherContext.newPage();
    await staffLogin(other, OWNER);
    await other.getByRole('link', { name: 'Verdant Downtown' }).first().click();
    await expectQueue(other);
    // The owner is on Settings when the order comes in.
    await other.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    const order = await placeGuest(request, { name: 'Otto Other' });
    const otherItem = other.getByRole('list', { name: 'New orders' }).getByRole('link', { name: `#${order.incrementId}` });
    await expect(otherItem).toBeVisible({ timeout: 5000 });
    await page.bringToFront();
    await openOrder(page, order.incrementId);
    await expect(otherItem).toHaveCount(0, { timeout: 5000 });
    await otherContext.close();
  });

  test('the queue sorts by time slot, earliest due first', async ({ page, request }) => {
    const slots = await request.get(`http://127.0.0.1:${PORT}/api/order/slots?order_type=pickup`, { headers: { host: DOWNTOWN } });
    const list = ((await slots.json()) as { result: { slots: { start: string }[] } }).result.slots;
    // Placed first, due first; then placed later, due last: newest first shows the later one first.
    const early = await placeGuest(request, { slot: list[1].start, name: 'Eli Early' });
    const late = await placeGuest(request, { slot: list.at(-1)!.start, name: 'Lou Late' });
    await staffLogin(page);
    await expectQueue(page);
    const ids = async () => page.locator('tbody tr[data-order]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order')));
    await expect.poll(async () => (await ids()).indexOf(early.incrementId)).toBeGreaterThanOrEqual(0);
    expect((await ids()).indexOf(late.incrementId)).toBeLessThan((await ids()).indexOf(early.incrementId));
    await page.getByLabel('Sort').selectOption({ label: 'Due first (time slot)' });
    await expect(page).toHaveURL(/[?&]sort=slot/);
    await expect.poll(async () => (await ids()).indexOf(early.incrementId) < (await ids()).indexOf(late.incrementId)).toBe(true);
    await expectNoAxeViolations(page);
  });
});

test.describe('keyboard at 1024×768', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('a skip link to the orders list and the arrow keys reach the second order in four key presses; the opened order’s heading has the focus', async ({
    page,
    request,
  }) => {
    // A name of this run's own, searched: other journeys' orders arriving meanwhile do not move the rows.
    const word = `Rov${randomUUID().replace(/[^a-f]/g, '').slice(0, 6)}`;
    await placeGuest(request, { name: `Kim ${word}` });
    await placeGuest(request, { name: `Kit ${word}` });
    await staffLogin(page);
    await expectQueue(page);
    await page.goto(`${page.url()}?q=${word}`);
    await expectQueue(page);
    const links = page.locator('#orders-list tbody a[data-row]');
    await expect(links).toHaveCount(2);
    const second = (await links.nth(1).textContent())!;
    // Only one order link is in the Tab order.
    await expect(page.locator('#orders-list tbody a[tabindex="0"]')).toHaveCount(1);

    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to the orders list' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(links.nth(1)).toBeFocused();
    await expect(links.nth(1)).toHaveText(second);
    // Four presses. Home/End and ArrowUp move too, and Tab leaves the list from the current order.
    await page.keyboard.press('End');
    await expect(links.last()).toBeFocused();
    await page.keyboard.press('Home');
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: `Order ${second}` })).toBeFocused();
  });

  test('with no order to show, the skip link still lands on the orders list (its target is always there)', async ({ page }) => {
    await staffLogin(page);
    await expectQueue(page);
    await page.goto(`${page.url()}?q=Nobody${randomUUID().replace(/[^a-f]/g, '').slice(0, 8)}`);
    await expect(page.getByRole('status').filter({ hasText: 'No orders match.' })).toBeVisible();
    await expect(page.locator('#orders-list')).toHaveCount(1);
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to the orders list' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('#orders-list')).toBeFocused();
    await expectNoAxeViolations(page);
  });
});

/** Every console page an owner has, by its heading. */
const PAGES: { path: (store: number) => string; heading: RegExp }[] = [
  { path: (s) => `/stores/${s}/orders`, heading: /^Orders$/ },
  { path: (s) => `/stores/${s}/menu`, heading: /Menu/ },
  { path: (s) => `/stores/${s}/reports`, heading: /report/i },
  { path: (s) => `/stores/${s}/settings`, heading: /^Order settings$/ },
  { path: (s) => `/stores/${s}/settings-hours`, heading: /Hours/ },
  { path: (s) => `/stores/${s}/settings-zones`, heading: /zones/i },
  { path: (s) => `/stores/${s}/settings-limits`, heading: /limits/i },
  { path: (s) => `/stores/${s}/settings-tax`, heading: /Tax/ },
  { path: (s) => `/stores/${s}/settings-age`, heading: /Age/ },
  { path: (s) => `/stores/${s}/settings-deal-floor`, heading: /Lowest price after a deal/ },
  { path: (s) => `/stores/${s}/settings-deal-display`, heading: /How deals are shown/ },
  { path: (s) => `/stores/${s}/webhooks`, heading: /Webhooks/ },
  { path: (s) => `/stores/${s}/api-keys`, heading: /API keys/ },
  { path: (s) => `/stores/${s}/delivery-records`, heading: /^Delivery records$/ },
  { path: (s) => `/stores/${s}/delivery-records/end-of-day`, heading: /^Deliveries of / },
  { path: (s) => `/stores/${s}/settings-record-retention`, heading: /^Delivery record retention$/ },
  { path: () => '/staff', heading: /Staff/ },
  { path: () => '/account', heading: /account|Account/ },
];

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
]) {
  test.describe(`layout at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('every console page fits the width (no sideways scrolling), is axe clean, and leads back to the orders', async ({ page, request }, testInfo) => {
      test.setTimeout(240_000);
      const order = await placeGuest(request, { type: 'delivery', name: 'Lay Out' });
      await staffLogin(page, OWNER);
      await expect(page).toHaveURL(/\/console\/?$/);
      await page.getByRole('link', { name: 'Downtown' }).first().click();
      await expectQueue(page);
      const store = Number(/\/stores\/(\d+)\//.exec(page.url())![1]);
      const narrow = viewport.width < 768;
      const overflow = () => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
      const shot = async (name: string) => {
        const file = testInfo.outputPath(`${viewport.width}-${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/${viewport.width}-${name}.png`, fullPage: true });
      };

      const problems: string[] = [];
      const pages = [...PAGES.slice(0, 1), { path: (s: number) => `/stores/${s}/orders/${order.id}`, heading: new RegExp(`^Order #${order.incrementId}$`) }, ...PAGES.slice(1)];
      for (const p of pages) {
        await page.goto(consoleUrl(p.path(store)));
        await expect(page.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
        await page.waitForLoadState('networkidle');
        const name = p.path(store).split('/').filter(Boolean).slice(-1)[0].replace(/^\d+$/, 'order');
        await shot(name);
        const wider = await overflow();
        if (wider > 0) problems.push(`${name}: ${wider} px wider than the window`);
        const results = await axe(page).analyze();
        for (const v of results.violations) problems.push(`${name}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
        // The way back to the orders: in the navigation (behind the Menu button on a phone).
        const nav = page.getByRole('navigation', { name: 'Console' });
        if (narrow) {
          const menu = page.getByRole('button', { name: 'Menu' });
          await expect(menu).toHaveAttribute('aria-expanded', 'false');
          await expect(nav).toBeHidden();
          await menu.click();
          await expect(menu).toHaveAttribute('aria-expanded', 'true');
        }
        await expect(nav.getByRole('link', { name: 'Orders' })).toBeVisible();
        if (narrow && p === pages[0]) {
          await shot('menu-open');
          expect(await overflow()).toBeLessThanOrEqual(0);
          await expectNoAxeViolations(page);
        }
      }
      expect(problems).toEqual([]);
      // From Account (the last page), Orders is one click away.
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Orders' }).click();
      await expectQueue(page);
      if (narrow) await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');

      // A customer's order page: every action button and Verify / Reject whole and inside the window.
      const customer = newCustomer({ firstname: 'Vera', lastname: 'Fication' });
      const { token } = await createCustomer(request, customer);
      const product = orderableEighth();
      const placed = await request.post(`http://127.0.0.1:${PORT}/api/order/save`, {
        headers: { host: DOWNTOWN, authorization: `Bearer ${token}` },
        data: {
          idempotency_key: randomUUID(),
          order_type: 'pickup',
          license_type: 'recreational',
          personal_details: { firstName: customer.firstname, lastName: customer.lastname, emailAddress: customer.email, phone: customer.phone },
          products: [{ sku: product.sku, qty: 1, size: product.size }],
        },
      });
      expect(placed.status(), await placed.text()).toBe(200);
      const customerOrder = ((await placed.json()) as { result: { order_id: number; increment_id: string } }).result;
      await page.goto(consoleUrl(`/stores/${store}/orders/${customerOrder.order_id}`));
      await expect(page.getByRole('heading', { level: 1, name: `Order #${customerOrder.increment_id}` })).toBeVisible();
      await shot('customer-order');
      expect(await overflow()).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
      const actions = page.getByRole('list', { name: 'Order actions' }).getByRole('button');
      await expect(actions.first()).toBeVisible();
      await expect(page.getByRole('button', { name: 'Verify ID' })).toBeVisible();
      for (const button of [...(await actions.all()), page.getByRole('button', { name: 'Verify ID' }), page.getByRole('button', { name: 'Reject ID' })]) {
        const box = (await button.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        expect(await button.evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true);
      }
      await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveText('Cancel order');
    });
  });
}
