/**
 * Issue 29 "The driver's phone", at 390×844: a driver logs in and lands on its trips, opens the
 * trip, starts it, delivers stop 1 with the ID check and the customer's signature (drawn on the
 * pad) — its answer lost on the way back, so the phone sends the same action again and the server
 * answers it from memory — then drives into a dead zone: marks stop 2 failed (not home) and
 * delivers stop 3 offline, sees "2 actions waiting to send", reloads the page offline (the
 * console's service worker opens it, the queue is still there), comes back online, sees "All
 * sent", and ends the trip with the cash. The server, asked as a manager, applied each action
 * exactly once, and a retried action changes nothing. Axe clean on every screen and dialog;
 * nothing overflows at 390 px.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { consoleUrl, dbAll, OWNER, STAFF_PASSWORD } from '../fixtures/console.ts';
import { orderableEighth } from '../fixtures/stock.ts';
import { expect, expectNoAxeViolations, PORT, test } from '../fixtures/store.ts';

test.use({ serviceWorkers: 'allow', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
test.describe.configure({ timeout: 180_000 });

const API = `http://127.0.0.1:${PORT}/api/console`;
const HOST = `downtown.localhost:${PORT}`;
const STORE = 1;
const DRIVER_PASSWORD = 'amber kettle north violin';
const SHOTS = '/tmp/driver-shots';

type Session = { cookie: string; csrfToken: string };

async function signIn(request: APIRequestContext, email: string, password: string): Promise<Session> {
  const login = await request.post(`${API}/session`, { headers: { host: HOST }, data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  return {
    cookie: /verdant_staff=[^;]+/.exec(login.headers()['set-cookie'] ?? '')![0],
    csrfToken: ((await login.json()) as { result: { csrfToken: string } }).result.csrfToken,
  };
}

async function call<T>(request: APIRequestContext, s: Session, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const res = await request.fetch(`${API}${path}`, { method, headers: { host: HOST, cookie: s.cookie, 'x-csrf-token': s.csrfToken }, data });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBe(200);
  return ((await res.json()) as { result: T }).result;
}

/** A guest's delivery order, confirmed by the manager: ready for a trip. */
async function deliveryOrder(request: APIRequestContext, manager: Session, firstName: string): Promise<{ id: number; increment_id: string }> {
  const product = orderableEighth();
  const res = await request.post(`http://127.0.0.1:${PORT}/api/order/save`, {
    headers: { host: HOST },
    data: {
      idempotency_key: randomUUID(),
      order_type: 'delivery',
      license_type: 'recreational',
      birthday: '1990-01-01',
      personal_details: { firstName, lastName: 'Door', emailAddress: `${randomUUID().slice(0, 8)}@example.com`, phone: '(916) 555-0142' },
      products: [{ sku: product.sku, qty: 1, size: product.size }],
      shipping_address: { city: 'Sacramento', zip: '95814', address: '900 J St', apt_ste: '2B' },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const placed = ((await res.json()) as { result: { order_id: number; increment_id: string } }).result;
  await call(request, manager, 'POST', `/stores/${STORE}/orders/${placed.order_id}/transitions`, {
    action: 'confirm',
    readyBy: new Date(Date.now() + 30 * 60_000).toISOString(),
    confirmClosed: true,
  });
  return { id: placed.order_id, increment_id: placed.increment_id };
}

async function expectNoOverflow(page: Page, screen: string): Promise<void> {
  const sizes = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
  expect(sizes.scroll, `${screen} overflows`).toBeLessThanOrEqual(sizes.inner);
}

async function screen(page: Page, name: string): Promise<void> {
  await expectNoAxeViolations(page);
  await expectNoOverflow(page, name);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Signs on the pad with the mouse: a few strokes across it. */
async function sign(page: Page): Promise<void> {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height * 0.6);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * 20, box.y + box.height * (i % 2 ? 0.3 : 0.7), { steps: 3 });
  await page.mouse.up();
  await expect(page.getByText('Signed', { exact: true })).toBeVisible();
}

/** The ID check, the signature and "Mark delivered" in the open Deliver dialog. */
async function deliver(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Deliver', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Deliver to ${name}` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('ID document').selectOption({ label: "Driver's licence" });
  await dialog.getByLabel('Date of birth on the ID').fill('1990-01-01');
  await expect(dialog.getByText(/^Age \d+ today\.$/)).toBeVisible();
  await dialog.getByLabel('The name on the ID matches the order').check();
  await sign(page);
  await dialog.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(dialog).toBeHidden();
}

test('a driver delivers a trip through a dead zone: each action applied once, the queue kept through a reload', async ({ page, context, request }) => {
  const manager = await signIn(request, OWNER, STAFF_PASSWORD);
  const tag = randomUUID().slice(0, 6);
  // Names take letters only: the tag spelled in letters.
  const word = [...tag].map((c) => String.fromCharCode(97 + (parseInt(c, 16) % 26))).join('');
  const Word = word[0].toUpperCase() + word.slice(1);
  const email = `driver-${tag}@journey.verdant.test`;
  const staff = await call<{ id: number }>(request, manager, 'POST', '/staff', {
    email,
    name: `Dana ${Word}`,
    role: 'driver',
    storeIds: [STORE],
    password: DRIVER_PASSWORD,
  });
  const driver = await call<{ id: number }>(request, manager, 'POST', `/stores/${STORE}/delivery/drivers`, {
    name: `Dana ${Word}`,
    employee_number: `E-${tag}`,
    licence_number: `D${tag}`,
    staff_id: staff.id,
  });
  const vehicle = await call<{ id: number }>(request, manager, 'POST', `/stores/${STORE}/delivery/vehicles`, {
    make: 'Toyota',
    model: 'Prius',
    plate: `7${tag}`.slice(0, 7).toUpperCase(),
  });
  const names = ['Ada', 'Ben', 'Cleo'];
  const orders: { id: number; increment_id: string }[] = [];
  for (const name of names) orders.push(await deliveryOrder(request, manager, `${name}${word}`));
  const trip = await call<{ id: number; ledger_number: string; stops: { id: number; total_cents: number }[] }>(
    request,
    manager,
    'POST',
    `/stores/${STORE}/delivery/trips`,
    { driverId: driver.id, vehicleId: vehicle.id, orderIds: orders.map((o) => o.id) },
  );
  const totals = orders.map((o) => trip.stops.find((s) => s.id === o.id)!.total_cents);
  const first = (i: number) => `${names[i]}${word}`;

  // Every action the phone sends, as sent.
  const sent: { action_id: string; kind: string; order_id?: number }[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/delivery/actions')) sent.push(r.postDataJSON());
  });

  // Sign in: a driver lands on its trips, not on the order queue.
  await page.goto(consoleUrl('/login'));
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password').fill(DRIVER_PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(consoleUrl(`/stores/${STORE}/driver`));
  await expect(page.getByRole('heading', { level: 1, name: 'Today' })).toBeVisible();
  await expect(page.getByTestId('queue-banner')).toHaveText('All sent');
  // The order pages are not a driver's: back to its trips.
  await page.goto(consoleUrl(`/stores/${STORE}/orders`));
  await expect(page).toHaveURL(consoleUrl(`/stores/${STORE}/driver`));
  await screen(page, 'today');

  await page.getByRole('link', { name: new RegExp(`Trip ${trip.ledger_number}`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Trip ${trip.ledger_number}` })).toBeVisible();
  const next = page.getByRole('region', { name: /Next stop/ });
  await expect(next).toContainText(first(0));
  await expect(next.getByRole('link', { name: /^Call/ })).toHaveAttribute('href', /^tel:/);
  await expect(next.getByRole('link', { name: /^Text/ })).toHaveAttribute('href', /^sms:/);
  await expect(next.getByRole('link', { name: /^Navigate/ })).toHaveAttribute('href', /^https?:/);
  await screen(page, 'trip-planned');

  await page.getByRole('button', { name: 'Start trip' }).click();
  await expect(page.getByText('On the road', { exact: true })).toBeVisible();
  await expect(page.getByTestId('queue-banner')).toHaveText('All sent');

  // The service worker controls the page and keeps the shell before the dead zone.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
  await page.waitForFunction(async () => !!(await caches.match('/console/')), null, { timeout: 15_000 });

  // Stop 1: the Deliver dialog says what is missing, warns at once of an under-age birth date.
  await page.getByRole('button', { name: 'Deliver', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Deliver to ${first(0)}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('ID document')).toBeFocused();
  await expect(dialog.getByRole('group', { name: "Customer's signature" })).toHaveAccessibleDescription(/A signature is required/);
  await dialog.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(dialog.getByText("Still needed before marking delivered: the ID document, the date of birth, the name check, the customer's signature.")).toBeVisible();
  const young = new Date();
  young.setFullYear(young.getFullYear() - 19);
  await dialog.getByLabel('Date of birth on the ID').fill(young.toISOString().slice(0, 10));
  await expect(dialog.getByText(/^Under 21: the customer is 1[89] today\./)).toBeVisible();
  await screen(page, 'deliver-dialog');
  // Escape closes it; focus is back on Deliver.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Deliver', exact: true })).toBeFocused();

  // The answer to stop 1 is lost on the way back: the server applied it, the phone keeps it and sends it again.
  let dropped = false;
  let lost!: () => void;
  const answerLost = new Promise<void>((resolve) => (lost = resolve));
  await page.route('**/delivery/actions', async (route) => {
    if (!dropped && route.request().postDataJSON().kind === 'deliver') {
      dropped = true;
      // To the server (by its loopback address: Node does not resolve *.localhost), then the answer is lost.
      const request = route.request();
      const applied = await route.fetch({
        url: request.url().replace(`//${HOST}`, `//127.0.0.1:${PORT}`),
        headers: { ...(await request.allHeaders()), host: HOST },
      });
      expect(applied.status(), await applied.text()).toBe(200);
      await route.abort('connectionreset');
      return lost();
    }
    return route.continue();
  });
  await deliver(page, first(0));
  await answerLost;
  await expect(page.getByTestId('queue-banner')).toHaveText('1 action waiting to send');
  await expect(page.getByText('Delivered — waiting to send')).toBeVisible();
  await page.unroute('**/delivery/actions');
  // Sent again by itself (every 20 s while anything waits; "Send now" does it at once).
  await expect(page.getByTestId('queue-banner')).toHaveText('All sent', { timeout: 30_000 });
  await expect(page.getByText('Delivered', { exact: true })).toBeVisible();
  await expect(next).toContainText(first(1));

  // The dead zone: stop 2 not home, stop 3 delivered, both kept on the phone.
  await context.setOffline(true);
  await expect(page.getByTestId('queue-banner')).toHaveText('Offline — nothing waiting to send');
  await page.getByRole('button', { name: 'Could not deliver' }).click();
  const fail = page.getByRole('dialog', { name: `Could not deliver to ${first(1)}` });
  await expect(fail).toBeVisible();
  await fail.getByRole('radio', { name: 'Not home' }).check();
  await screen(page, 'fail-dialog');
  await fail.getByRole('button', { name: 'Mark failed' }).click();
  await expect(fail).toBeHidden();
  await expect(page.getByRole('heading', { name: /Next stop/ })).toBeFocused();
  await deliver(page, first(2));
  await expect(page.getByTestId('queue-banner')).toHaveText('Offline — 2 actions waiting to send');
  await expect(page.getByText('Failed: Not home — waiting to send')).toBeVisible();
  await expect(page.getByText('Delivered — waiting to send')).toBeVisible();
  await screen(page, 'trip-offline');

  // A reload in the dead zone: the worker opens the page, the queue is still on the phone.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: `Trip ${trip.ledger_number}` })).toBeVisible();
  await expect(page.getByTestId('queue-banner')).toHaveText('Offline — 2 actions waiting to send');
  await expect(page.getByText('Failed: Not home — waiting to send')).toBeVisible();

  // Back online: sent in order, "All sent".
  await context.setOffline(false);
  await expect(page.getByTestId('queue-banner')).toHaveText('All sent', { timeout: 20_000 });
  await expect(page.getByText('Failed: Not home', { exact: true })).toBeVisible();
  await expect(page.getByText('waiting to send')).toHaveCount(0);

  // End of trip: the cash prefilled with each delivered order's total; stop 3 hands in $5 less.
  await page.getByRole('link', { name: 'End of trip' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `End trip ${trip.ledger_number}` })).toBeVisible();
  const cash1 = page.getByLabel(new RegExp(`^Order #${orders[0].increment_id}`));
  const cash3 = page.getByLabel(new RegExp(`^Order #${orders[2].increment_id}`));
  await expect(cash1).toHaveValue((totals[0] / 100).toFixed(2));
  await cash3.fill(((totals[2] - 500) / 100).toFixed(2));
  await expect(page.getByText('Short by $5.00').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Returned goods' })).toContainText(`Order #${orders[1].increment_id}`);
  await screen(page, 'end-trip');
  await page.getByRole('button', { name: 'End trip' }).click();
  await expect(page.getByRole('heading', { name: 'Trip ended' })).toBeVisible();
  await expect(page.getByTestId('queue-banner')).toHaveText('All sent');
  await screen(page, 'trip-ended');

  // The server, asked as a manager: each action once.
  const kinds = sent.map((s) => s.kind);
  expect(kinds.filter((k) => k === 'deliver').length).toBe(3); // stop 1 twice (the lost answer), stop 3 once
  const unique = [...new Set(sent.map((s) => s.action_id))];
  expect(unique.length).toBe(5); // start, deliver 1, fail 2, deliver 3, end
  const ended = await call<{
    status: string;
    version: number;
    cash_collected_cents: number | null;
    stops: { id: number; outcome: string | null; failed_reason: string | null }[];
  }>(request, manager, 'GET', `/stores/${STORE}/delivery/trips/${trip.id}`);
  expect(ended.status).toBe('ended');
  expect(orders.map((o) => ended.stops.find((s) => s.id === o.id)!.outcome)).toEqual(['delivered', 'failed', 'delivered']);
  expect(ended.stops.find((s) => s.id === orders[1].id)!.failed_reason).toBe('not_home');
  expect(ended.cash_collected_cents).toBe(totals[0] + totals[2] - 500);
  const statuses: string[] = [];
  for (const o of orders) statuses.push((await call<{ status: string }>(request, manager, 'GET', `/stores/${STORE}/orders/${o.id}`)).status);
  expect(statuses).toEqual(['completed', 'cancelled', 'completed']);
  const rows = dbAll<{ action_id: string; n: number }>(
    'SELECT action_id, COUNT(*) AS n FROM driver_actions WHERE action_id IN (' + unique.map(() => '?').join(',') + ') GROUP BY action_id',
    ...unique,
  );
  expect(rows.map((r) => r.n)).toEqual([1, 1, 1, 1, 1]);

  // A retry of stop 3's delivery, as the phone would send it: the kept answer, nothing applied again.
  const driverSession = await signIn(request, email, DRIVER_PASSWORD);
  const again = sent.find((s) => s.kind === 'deliver' && s.order_id === orders[2].id)!;
  const replay = await call<{ replayed: boolean }>(request, driverSession, 'POST', `/stores/${STORE}/delivery/actions`, again);
  expect(replay.replayed).toBe(true);
  const after = await call<{ version: number }>(request, manager, 'GET', `/stores/${STORE}/delivery/trips/${trip.id}`);
  expect(after.version).toBe(ended.version);

  // The phone reported its queue: nothing pending from it now.
  const devices = (await call<{ items: { device_id: string; pending: number; staff_id: number | null }[] }>(request, manager, 'GET', `/stores/${STORE}/delivery/devices`)).items;
  const mine = devices.filter((d) => d.staff_id === staff.id);
  expect(mine.length).toBe(1);
  expect(mine[0].pending).toBe(0);
});
