/**
 * Issue 14, "A store's settings are edited by its managers in the console (validated, recorded in
 * the history)": for delivery zones, tax lines, purchase limits and the age check, the owner (the
 * demo's only member who manages Eastside and Wellness) saves a change and the storefront's API
 * answers by it; a wrong value is refused at its field with the field's message; a save over a
 * version someone else saved meanwhile is refused with their value shown; the history names the
 * change and who made it; each page is axe clean. A budtender reads a settings page but cannot save.
 *
 * Own data: Eastside (zones, tax, limits) and Wellness (age), whose settings no other journey
 * counts on; each test a section of its own, so they run side by side.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { storeApi } from '../fixtures/cart.ts';
import { BUDTENDER, consoleUrl, OWNER, staffLogin, storeClock } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

const EASTSIDE = 2;
const WELLNESS = 3;

/** The owner, signed in, on a settings page of a store, in two tabs of one session: `a` edits, `b` saves meanwhile. */
async function ownerOn(
  browser: Browser,
  storeId: number,
  page: string,
  heading: string,
): Promise<{ a: Page; b: Page; close(): Promise<void> }> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const a = await context.newPage();
  await staffLogin(a, OWNER);
  await expect(a.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
  const b = await context.newPage();
  for (const p of [a, b]) {
    await p.goto(consoleUrl(`/stores/${storeId}/${page}`));
    await expect(p.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  return { a, b, close: () => context.close() };
}

/** The history's newest row: when (Nov 25, 2026, 2:05 PM), who, what changed. */
function newestChange(page: Page) {
  return page.getByRole('region', { name: 'History of changes' }).getByRole('row').nth(1);
}

/** A simple product in stock at a store (for carts and orders of the journeys' own). */
async function productInStock(request: APIRequestContext, code: string, license: 'recreational' | 'medical'): Promise<string> {
  const api = storeApi(request, code);
  const items = (
    (await (await api.get(`/api/catalog/products?size=50&license_type=${license}`)).json()).result.items as {
      sku: string;
      type_id: string;
      license_type?: string;
    }[]
  ).filter((i) => i.type_id === 'simple' && i.license_type !== 'medical');
  const skus = items.slice(0, 15).map((i) => i.sku);
  expect(skus.length, `simple products at ${code}`).toBeGreaterThan(0);
  const listed = await api.get(`/api/stock/list?skus=${skus.join(',')}`);
  expect(listed.status(), await listed.text()).toBe(200);
  const stock = (await listed.json()).result as { sku: string; status: string }[];
  const sku = skus.find((s) => stock.some((x) => x.sku === s && x.status === 'ok'));
  expect(sku, `a simple product in stock at ${code}`).toBeTruthy();
  return sku!;
}

/** A guest cart at Eastside with one product in it; answers its token. */
async function eastsideCart(request: APIRequestContext): Promise<string> {
  const api = storeApi(request, 'eastside');
  const token = ((await (await api.post('/api/cart/create', { license_type: 'recreational' })).json()) as { result: string }).result;
  const sku = await productInStock(request, 'eastside', 'recreational');
  const added = await api.post(`/api/cart/update?cartId=${encodeURIComponent(token)}`, { cartItem: { sku, qty: 1 } });
  expect(added.status(), await added.text()).toBe(200);
  return token;
}

test.describe.configure({ timeout: 60_000 });

test('zones: the owner sets a ZIP zone; a wrong ZIP is named at the field, a stale save shows the current zones; the cart charges the fee', async ({
  browser,
  request,
}) => {
  const { a, b, close } = await ownerOn(browser, EASTSIDE, 'settings-zones', 'Delivery zones');
  await expectNoAxeViolations(a);
  const zone = (name: string, zip: string, feeInclTax: number) => ({
    zones: [
      {
        type: 'zips',
        name,
        fee: feeInclTax - 100,
        fee_incl_tax: feeInclTax,
        minimum_order: 0,
        free_over: null,
        eta_minutes: 35,
        zips: [zip],
      },
    ],
  });
  const json = a.getByLabel('Zones (JSON)');
  // The JSON editor is for power users, behind a switch (the form is issue 26's; see console-zones-form.spec.ts).
  for (const p of [a, b]) await p.getByRole('button', { name: 'Edit as JSON' }).click();

  // A wrong ZIP: refused before sending, at the field.
  await json.fill(JSON.stringify(zone('Folsom East', '9581', 700)));
  await a.getByRole('button', { name: 'Save zones' }).click();
  await expect(a.getByRole('alert').filter({ hasText: 'The zones were not saved:' })).toContainText(
    'zones.0.zips.0: a ZIP code is 5 digits',
  );
  await expect(json).toBeFocused();
  await expect(json).toHaveAttribute('aria-invalid', 'true');
  await expect(json).toHaveAccessibleDescription(/zones\.0\.zips\.0: a ZIP code is 5 digits$/);
  await expectNoAxeViolations(a);

  // Someone saves in the other tab meanwhile; this tab's save is stale and shows their zones.
  await b.getByLabel('Zones (JSON)').fill(JSON.stringify(zone('East Sac', '95819', 600)));
  await b.getByRole('button', { name: 'Save zones' }).click();
  await expect(b.getByRole('status').filter({ hasText: 'Delivery zones saved.' })).toBeVisible();
  await json.fill(JSON.stringify(zone('Folsom East', '95819', 700)));
  await a.getByRole('button', { name: 'Save zones' }).click();
  await expect(a.getByRole('alert').filter({ hasText: 'Someone saved these zones meanwhile.' })).toBeVisible();
  await expect(a.getByRole('table', { name: 'Zones now' })).toContainText('East Sac');
  await expect(json).toHaveValue(/"name": "East Sac"/);

  // The form edits the same zones in dollars: a wrong amount is marked at its field, named in words.
  await a.getByRole('button', { name: 'Edit as JSON' }).click();
  const eastSac = a.getByRole('group', { name: /^Zone 1: East Sac/ });
  await expect(eastSac.getByLabel('ZIP codes')).toHaveValue('95819');
  const feeCell = eastSac.getByLabel('Fee including tax ($)');
  await expect(feeCell).toHaveValue('6.00');
  await feeCell.fill('seven');
  await a.getByRole('button', { name: 'Save zones' }).click();
  await expect(feeCell).toHaveAttribute('aria-invalid', 'true');
  await expect(feeCell).toHaveAccessibleDescription(/Fee including tax: enter an amount in dollars, e\.g\. 5\.00\.$/);
  await expect(a.getByRole('alert').filter({ hasText: 'The zones were not saved:' })).toContainText(
    'Zone 1 (East Sac): Fee including tax: enter an amount in dollars, e.g. 5.00.',
  );
  await expectNoAxeViolations(a);
  await feeCell.fill('7.00');
  await eastSac.getByLabel('Fee before tax ($)').fill('6.00');
  await eastSac.getByLabel('Zone name').fill('Folsom East');
  await a.getByRole('button', { name: 'Save zones' }).click();
  await expect(a.getByRole('status').filter({ hasText: 'Delivery zones saved.' })).toBeVisible();
  await expect(a.getByRole('table', { name: 'Zones now' })).toContainText('Folsom East');
  const newest = newestChange(a);
  await expect(newest).toContainText('Olivia Owner');
  await expect(newest).toContainText('zones.0.name: "East Sac" → "Folsom East"');
  await expect(newest).toContainText('zones.0.fee_incl_tax: 600 → 700');
  // When, in the console's one date style (lib/format.ts): Nov 25, 2026, 2:05 PM.
  await expect(newest).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M/);
  await expectNoAxeViolations(a);

  // The storefront: delivery to 95819 is the zone's, at its fee.
  const token = await eastsideCart(request);
  const methods = (await (await storeApi(request, 'eastside').get(`/api/cart/shipping-methods?cartId=${token}`)).json()).result as {
    method_code: string;
    price_incl_tax: number;
  }[];
  expect(methods.find((m) => m.method_code === 'delivery')?.price_incl_tax).toBe(700);
  const info = await storeApi(request, 'eastside').post(`/api/cart/shipping-information?cartId=${token}`, {
    addressInformation: {
      shipping_method_code: 'delivery',
      shippingAddress: { zip: '95819', city: 'Sacramento', address: '4410 Folsom Blvd' },
    },
  });
  expect(info.status(), await info.text()).toBe(200);
  const answer = (await info.json()).result as { zone: { name: string; fee_incl_tax: number }; totals: { shipping_incl_tax: number } };
  expect(answer.zone).toMatchObject({ name: 'Folsom East', fee_incl_tax: 700 });
  expect(answer.totals.shipping_incl_tax).toBe(700);
  await close();
});

test('tax: the owner changes a line’s rate; 120 % is refused at the field, a stale save shows the current lines; the cart’s tax follows', async ({
  browser,
  request,
}) => {
  const token = await eastsideCart(request);
  type Line = { code: string; kind: string; rate: number; amount: number };
  const taxLines = async () =>
    ((await (await storeApi(request, 'eastside').get(`/api/cart/totals?cartId=${token}`)).json()).result as { tax_lines: Line[] })
      .tax_lines;
  const before = (await taxLines()).find((l) => l.kind === 'sales')!;
  expect(before.amount).toBeGreaterThan(0);

  const { a, b, close } = await ownerOn(browser, EASTSIDE, 'settings-tax', 'Tax lines');
  await expectNoAxeViolations(a);
  const salesLine = a
    .getByRole('group', { name: /^Line \d+: / })
    .filter({ has: a.getByRole('combobox', { name: 'Kind' }).locator('option:checked', { hasText: 'Sales' }) });
  const rate = salesLine.getByLabel('Rate (%)');

  await rate.fill('120');
  await a.getByRole('button', { name: 'Save' }).click();
  await expect(rate).toBeFocused();
  await expect(rate).toHaveAttribute('aria-invalid', 'true');
  await expect(rate).toHaveAccessibleDescription('The rate must be at most 100 %');
  await expect(a.getByRole('alert').filter({ hasText: 'The tax lines were not saved:' })).toContainText(
    /Line \d › Rate \(%\): The rate must be at most 100 %/,
  );
  await expectNoAxeViolations(a);

  // The other tab saves 9.25 % meanwhile; this tab's 9.5 % is stale and the page shows 9.25.
  const bSales = b
    .getByRole('group', { name: /^Line \d+: / })
    .filter({ has: b.getByRole('combobox', { name: 'Kind' }).locator('option:checked', { hasText: 'Sales' }) });
  await bSales.getByLabel('Rate (%)').fill('9.25');
  await b.getByRole('button', { name: 'Save' }).click();
  await expect(b.getByRole('status').filter({ hasText: 'Tax lines saved.' })).toBeVisible();
  await rate.fill('9.5');
  await a.getByRole('button', { name: 'Save' }).click();
  await expect(a.getByRole('alert').filter({ hasText: 'Someone saved the tax lines meanwhile.' })).toBeVisible();
  await expect(rate).toHaveValue('9.25');

  // Tax classes are typed as a list: a trailing comma stays while typing (the ids go to the line as they parse).
  const classes = salesLine.getByLabel('Product tax classes (comma-separated, empty: all)');
  const ids = await classes.inputValue();
  await classes.fill(`${ids},`);
  await expect(classes).toHaveValue(`${ids},`);
  await classes.fill(ids);
  await rate.fill('9.5');
  await a.getByRole('button', { name: 'Save' }).click();
  await expect(a.getByRole('status').filter({ hasText: 'Tax lines saved.' })).toBeVisible();
  await expect(newestChange(a)).toContainText('Olivia Owner');
  await expect(newestChange(a)).toContainText(/lines\.\d\.rate: 9\.25 → 9\.5/);
  await expectNoAxeViolations(a);

  // The cart's sales line is charged at 9.5 % on the same base: the cents follow the rate.
  const after = (await taxLines()).find((l) => l.code === before.code)!;
  expect(after.rate).toBe(9.5);
  expect(Math.abs(after.amount - (before.amount * 9.5) / before.rate)).toBeLessThanOrEqual(1);
  await close();
});

test('limits: the owner picks the California preset and edits a cap and a window; a wrong cap is refused at its cell, a stale save shows the current model; the cart’s meters follow', async ({
  browser,
  request,
}) => {
  const token = await eastsideCart(request);
  type Meter = { bucket: string; window: { type: string; days?: number }; cap: number };
  const meters = async () =>
    ((await (await storeApi(request, 'eastside').get(`/api/cart/limits?cartId=${token}`)).json()).result as { meters: Meter[] }).meters;
  expect((await meters()).map((m) => m.window.type)).toEqual(['transaction']);

  const { a, b, close } = await ownerOn(browser, EASTSIDE, 'settings-limits', 'Purchase limits');
  await expectNoAxeViolations(a);
  const model = a.getByLabel('Buckets (JSON)');
  // The JSON is for power users, behind a switch (the buckets' form: console-limits-form.spec.ts).
  await a.getByRole('button', { name: 'Edit as JSON' }).click();
  await model.fill('{ "buckets": [] }');
  await a.getByRole('button', { name: 'Save' }).click();
  await expect(model).toBeFocused();
  await expect(model).toHaveAttribute('aria-invalid', 'true');
  await expect(model).toHaveAccessibleDescription(/buckets: a limit model needs at least one bucket$/);
  await expectNoAxeViolations(a);

  // The other tab saves Nevada meanwhile; this tab's California is stale and shows Nevada.
  await b.getByLabel('Start from a state preset').selectOption({ label: 'Nevada' });
  await b.getByRole('button', { name: 'Save' }).click();
  await expect(b.getByRole('status').filter({ hasText: 'Purchase limits saved.' })).toBeVisible();
  await a.getByLabel('Start from a state preset').selectOption({ label: 'California' });
  await a.getByRole('button', { name: 'Save' }).click();
  await expect(a.getByRole('alert').filter({ hasText: 'Someone saved the purchase limits meanwhile.' })).toBeVisible();
  await expect(a.getByLabel('Start from a state preset').locator('option:checked')).toHaveText('Nevada');

  await a.getByLabel('Start from a state preset').selectOption({ label: 'California' });
  await a.getByRole('checkbox', { name: /Count a customer’s orders at every store of the same licence holder/ }).check();
  await a.getByLabel(/^Licence holder/).fill('Verdant Holdings');
  // Caps and windows in the form: a wrong cap is named at its field; flower for recreational residents 20 g over 14 days.
  await a.getByRole('button', { name: 'Edit as JSON' }).click();
  const cap = a.getByLabel('Flower: cap, recreational resident');
  await expect(cap).toHaveValue('28.5');
  await cap.fill('lots');
  await a.getByRole('button', { name: 'Save' }).click();
  await expect(cap).toBeFocused();
  await expect(cap).toHaveAttribute('aria-invalid', 'true');
  await expect(cap).toHaveAccessibleDescription('A cap is a number above 0 in the bucket’s unit, “no cap” or “not sold”.');
  await expectNoAxeViolations(a);
  await cap.fill('20');
  await expect(cap).not.toHaveAttribute('aria-invalid', 'true');
  await a.getByLabel('Flower: window').selectOption({ label: 'Rolling days' });
  await a.getByLabel('Flower: days in the window').fill('14');
  await a.getByRole('button', { name: 'Edit as JSON' }).click();
  await expect(a.getByLabel('Buckets (JSON)')).toHaveValue(/"resident": 20,\s+"non_resident": 28\.5/);
  await a.getByRole('button', { name: 'Save' }).click();
  await expect(a.getByRole('status').filter({ hasText: 'Purchase limits saved.' })).toBeVisible();
  await expect(a.getByRole('table', { name: 'The buckets as they will be enforced' })).toContainText('Concentrate');
  await expect(newestChange(a)).toContainText('Olivia Owner');
  await expect(newestChange(a)).toContainText('preset: "NV" → "CA"');
  await expectNoAxeViolations(a);

  // The cart's meters are California's as edited: flower 20 g over 14 days (a guest's residency unknown: the
  // stricter cap), concentrate 8 g per calendar day.
  const now = await meters();
  expect(now.map((m) => [m.bucket, m.window.type, m.window.days ?? null, m.cap])).toEqual([
    ['flower', 'rolling_days', 14, 20],
    ['concentrate', 'day', null, 8],
  ]);
  await close();
});

/** The date of birth of someone 19 today in the demo stores' zone. */
function nineteenToday(): string {
  const [month, day, year] = storeClock(new Date()).shown.split(' ')[0].split('/').map(Number);
  // On 2/29 the birthday 19 years back is 2/28 (that year has no 2/29): still 19 today.
  const d = month === 2 && day === 29 ? 28 : day;
  return `${year - 19}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

test('age: the owner lets 18-year-old patients order at Wellness; 17 is refused at the field, a stale save shows the current age; a 19-year-old’s medical order is then taken', async ({
  browser,
  request,
}) => {
  const sku = await productInStock(request, 'wellness', 'medical');
  const order = () =>
    storeApi(request, 'wellness').post('/api/order/save', {
      idempotency_key: randomUUID(),
      order_type: 'pickup',
      license_type: 'medical',
      birthday: nineteenToday(),
      personal_details: { firstName: 'Nia', lastName: 'Nineteen', emailAddress: 'nia.nineteen@example.com', phone: '(916) 555-0190' },
      payment_method: 'cashondelivery',
      products: [{ sku, qty: 1 }],
    });
  const refused = await order();
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ result: 'Sorry, you must be 21 years old or older to continue.' });

  const { a, b, close } = await ownerOn(browser, WELLNESS, 'settings-age', 'Age check');
  await expectNoAxeViolations(a);
  const age = a.getByLabel('Minimum age for medical orders');
  await age.fill('17');
  await a.getByRole('button', { name: 'Save' }).click();
  await expect(age).toBeFocused();
  await expect(age).toHaveAttribute('aria-invalid', 'true');
  await expect(age).toHaveAccessibleDescription(/Enter a whole number of years from 18 to 21\.$/);
  await expectNoAxeViolations(a);

  await b.getByLabel('Minimum age for medical orders').fill('20');
  await b.getByRole('button', { name: 'Save' }).click();
  await expect(b.getByRole('status').filter({ hasText: 'Age check saved.' })).toBeVisible();
  await age.fill('18');
  await a.getByRole('button', { name: 'Save' }).click();
  await expect(a.getByRole('alert').filter({ hasText: 'Someone saved the age check meanwhile.' })).toBeVisible();
  await expect(age).toHaveValue('20');

  await age.fill('18');
  await a.getByRole('button', { name: 'Save' }).click();
  await expect(a.getByRole('status').filter({ hasText: 'Age check saved.' })).toBeVisible();
  await expect(newestChange(a)).toContainText('Olivia Owner');
  await expect(newestChange(a)).toContainText('medicalMinimumAge: 20 → 18');
  await expectNoAxeViolations(a);

  const taken = await order();
  expect(taken.status(), await taken.text()).toBe(200);
  await close();
});

test('hours: an exception without a date is named at its field before anything is saved', async ({ browser }) => {
  const { a, close } = await ownerOn(browser, EASTSIDE, 'settings-hours', 'Hours and time slots');
  await expect(a.getByRole('region', { name: 'History of changes' })).toContainText('No changes saved in the console yet.');
  await a.getByRole('button', { name: 'Add an exception' }).click();
  await a.getByRole('button', { name: 'Save' }).click();
  const date = a.getByLabel('Date').last();
  await expect(date).toBeFocused();
  await expect(date).toHaveAttribute('aria-invalid', 'true');
  await expect(date).toHaveAccessibleDescription('Enter the date.');
  await expect(a.getByRole('alert').filter({ hasText: 'The hours were not saved:' })).toContainText('Exception 1 › Date: Enter the date.');
  await expectNoAxeViolations(a);
  // Fixed, the field stops being marked at once; nothing was saved.
  await date.fill('2030-07-04');
  await expect(date).not.toHaveAttribute('aria-invalid', 'true');
  await expect(a.getByRole('region', { name: 'History of changes' })).toContainText('No changes saved in the console yet.');
  await close();
});

test('a budtender reads a settings page, cannot change it, and the server refuses their save', async ({ page }) => {
  await staffLogin(page, BUDTENDER);
  await expect(page).toHaveURL(/\/stores\/1\/orders$/);
  // No settings link for a budtender; the page itself opens read-only.
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Tax lines' })).toHaveCount(0);
  await page.goto(consoleUrl('/stores/1/settings-tax'));
  await expect(page.getByRole('heading', { level: 1, name: 'Tax lines' })).toBeVisible();
  await expect(page.getByText('You can read these settings; only the store’s managers can change them.')).toBeVisible();
  await expect(page.getByLabel('Rate (%)').first()).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'History of changes' })).toHaveCount(0);
  await expectNoAxeViolations(page);

  const status = await page.evaluate(async () => {
    const session = (await (await fetch('/api/console/session')).json()) as { result: { csrfToken: string } };
    const read = (await (await fetch('/api/console/stores/1/settings/sections/tax')).json()) as {
      result: { value: unknown; version: number };
    };
    const put = await fetch('/api/console/stores/1/settings/sections/tax', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-csrf-token': session.result.csrfToken },
      body: JSON.stringify({ value: read.result.value, version: read.result.version }),
    });
    return put.status;
  });
  expect(status).toBe(403);
});
