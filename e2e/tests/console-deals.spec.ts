/**
 * Issue 28, deals in the console at tablet (1024×768) and phone (390×844) size: a manager builds a
 * deal in the editor and the live preview shows the products it matches and what a sample cart pays
 * without and with it; the deal is saved (starting next year, so no shopper journey running beside
 * this one meets it), paused, and its history names who did what; the calendar and the list show
 * it; finally it is ended. Axe clean on the list, the editor and the calendar; nothing scrolls
 * sideways on the phone. Screenshots go to the test's output folder. And "why didn't I get the
 * deal?": a guest's order shows, on its console page, the deals that did not apply and why.
 * Against the deals server (DEALS_PORT, e2e/playwright.config.ts): the demo stores with their demo deals.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { consoleUrl, OWNER, staffLogin } from '../fixtures/console.ts';
import { DEALS_PORT, expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

// Four axe scans per size on a shared machine: the whole journey gets four minutes.
test.describe.configure({ timeout: 240_000 });

/** A simple product of the downtown demo menu (a concentrate, sold by the piece). */
const SKU = 'CN-SOUR-DIESEL-SHATTER-1-G';
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

const VIEWPORTS = [
  { name: 'tablet', size: { width: 1024, height: 768 } },
  { name: 'phone', size: { width: 390, height: 844 } },
] as const;

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(client);
}

for (const viewport of VIEWPORTS) {
  test(`deals at ${viewport.name} size: create with a live preview, pause, history, calendar; axe clean`, async ({ page }, info) => {
    await page.setViewportSize(viewport.size);
    const title = `E2E shatter 25% (${viewport.name} ${Date.now().toString(36)})`;
    await staffLogin(page, OWNER, DEALS_PORT);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto(consoleUrl('/stores/1/deals', DEALS_PORT));
    await expect(page.getByRole('heading', { name: 'Deals', level: 1 })).toBeVisible();
    // The demo deals are listed.
    await expect(page.getByRole('link', { name: 'Any 3 eighths for $90' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // "Why didn't I get the deal?" for a cart a shopper reads out.
    const check = page.getByRole('form', { name: 'Check a cart' });
    await check.getByLabel('Items, one per line').fill(`${SKU} 2`);
    await check.getByRole('button', { name: 'Check' }).click();
    const checked = page.getByTestId('cart-check');
    await expect(checked).toContainText('before deals');
    await expect(checked).toContainText('Any 3 eighths for $90: Nothing in your cart is part of this deal.');
    await page.screenshot({ path: info.outputPath(`deals-list-check-${viewport.name}.png`), fullPage: true });
    await expectNoSidewaysScroll(page);

    await page.getByRole('link', { name: 'New deal' }).click();
    await expect(page.getByRole('heading', { name: 'New deal', level: 1 })).toBeVisible();
    const form = page.getByRole('form', { name: 'Deal' });
    // An empty title: the preview waits for a complete deal, and saving names the problem.
    await form.getByRole('button', { name: 'Create deal' }).click();
    await expect(form.getByRole('alert')).toContainText('The deal was not saved');
    await expect(form.getByRole('alert')).toContainText('title');

    await form.getByLabel('Title').fill(title);
    await form.getByLabel('SKUs', { exact: true }).fill(SKU);
    await form.getByLabel('Percent', { exact: true }).fill('25');
    const preview = page.getByTestId('deal-preview');
    await expect(preview).toContainText('Matches 1 product');
    await expect(preview).toContainText(SKU);
    await page.getByLabel('SKU 1').fill(SKU);
    await page.getByLabel('Qty').fill('2');
    await expect(preview).toContainText(/This deal saves \$\d+\.\d\d on this cart/);
    const without = await preview.getByTestId('preview-without').textContent();
    const withIt = await preview.getByTestId('preview-with').textContent();
    const cents = (t: string | null) => Math.round(Number((t ?? '').replace(/[^0-9.]/g, '')) * 100);
    expect(cents(withIt)).toBeLessThan(cents(without));
    await page.screenshot({ path: info.outputPath(`deal-editor-preview-${viewport.name}.png`), fullPage: true });
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // It starts next year: saved, it does not run now, and the preview says so.
    await form.getByLabel('First day').fill(`${NEXT_YEAR}-01-01`);
    await expect(preview).toContainText('This deal does not apply: This deal has not started yet.');
    await form.getByRole('button', { name: 'Create deal' }).click();
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Active');

    await page.getByRole('button', { name: 'Pause deal' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Paused');
    await expect(page.getByRole('button', { name: 'Resume deal' })).toBeVisible();
    const history = page.getByRole('list', { name: 'Changes, newest first' });
    await expect(history.getByRole('listitem').first()).toContainText('Paused by');
    await expect(history.getByRole('listitem').last()).toContainText('Created by');
    await page.screenshot({ path: info.outputPath(`deal-paused-history-${viewport.name}.png`), fullPage: true });
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // An edit is in the history with what changed.
    await form.getByLabel('Percent', { exact: true }).fill('30');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(history.getByRole('listitem').first()).toContainText('Changed by');
    await expect(history.getByRole('listitem').first()).toContainText('reward.percent: 25 → 30');

    // The calendar of the deal's first week shows it, paused.
    await page.goto(consoleUrl('/stores/1/deals-calendar', DEALS_PORT));
    await expect(page.getByRole('heading', { name: 'Deal calendar', level: 1 })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Days' }).getByRole('listitem').first()).toBeVisible();
    await page.screenshot({ path: info.outputPath(`deal-calendar-${viewport.name}.png`), fullPage: true });
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // The list shows it paused; then it is ended for good.
    await page.goto(consoleUrl('/stores/1/deals?', DEALS_PORT));
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: title }) });
    await expect(row).toContainText('Paused');
    await row.getByRole('link', { name: title }).click();
    await page.getByRole('button', { name: 'End deal…' }).click();
    await page.getByRole('button', { name: 'End it for good' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Ended');
    await expect(page.getByText('This deal has ended and cannot be changed.')).toBeVisible();
  });
}

test('the order page says which deals applied and why the others did not (phone, axe clean)', async ({ page, request }, info) => {
  // A guest's order of one shatter, through the order API (the offline path carries its lines).
  const res = await request.post(`http://127.0.0.1:${DEALS_PORT}/api/order/save`, {
    headers: { host: `downtown.localhost:${DEALS_PORT}` },
    data: {
      idempotency_key: randomUUID(),
      order_type: 'pickup',
      license_type: 'recreational',
      birthday: '1990-01-01',
      personal_details: { firstName: 'Dee', lastName: 'Trace', emailAddress: `${randomUUID().slice(0, 8)}@example.com`, phone: '(916) 555-0199' },
      products: [{ sku: SKU, qty: 1 }],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const orderId = ((await res.json()) as { result: { order_id: number } }).result.order_id;
  await page.setViewportSize({ width: 390, height: 844 });
  await staffLogin(page, OWNER, DEALS_PORT);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(consoleUrl(`/stores/1/orders/${orderId}`, DEALS_PORT));
  const deals = page.getByRole('region', { name: 'Deals' });
  await expect(deals.getByTestId('deals-trace')).toBeVisible();
  // A guest has no birthday on file: the birthday deal says so; the eighths deal finds nothing of its own.
  await expect(deals).toContainText('Did not apply');
  await expect(deals).toContainText('Birthday month: 20% off one item: For your birthday month only.');
  await expect(deals).toContainText('Any 3 eighths for $90: Nothing in your cart is part of this deal.');
  await deals.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('order-deals-trace-phone.png'), fullPage: true });
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
});
