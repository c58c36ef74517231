/**
 * Issue 26, the daily report and the settings pages on a tablet and a phone: the report adds up on
 * the page (gross − discounts + excise + sales tax + delivery fee = total, per day and in all,
 * with a completed delivery order's fee in it), dates read in the console's one style and the zone
 * in words ("Pacific time", never America/Los_Angeles), and every scroll container (the report
 * table, the zones table, each settings history) is a named region the keyboard reaches and
 * scrolls. Axe clean at 1024×768 and 390×844 on the reports page and every settings page.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { completeOrder, consoleUrl, OWNER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, PORT, test } from '../fixtures/store.ts';
import { orderableEighth } from '../fixtures/stock.ts';

test.describe.configure({ timeout: 120_000 });

const DOWNTOWN = `downtown.localhost:${PORT}`;
const ADDRESS = { city: 'Sacramento', zip: '95814', address: '900 J St', apt_ste: '2B' };
const SETTINGS_PAGES = [
  { path: 'settings', heading: 'Order settings' },
  { path: 'settings-hours', heading: 'Hours and time slots' },
  { path: 'settings-zones', heading: 'Delivery zones' },
  { path: 'settings-limits', heading: 'Purchase limits' },
  { path: 'settings-tax', heading: 'Tax lines' },
  { path: 'settings-age', heading: 'Age check' },
  { path: 'settings-curbside', heading: 'Curbside pickup' },
  { path: 'settings-deal-floor', heading: 'Lowest price after a deal' },
  { path: 'settings-deal-display', heading: 'How deals are shown' },
  { path: 'settings-loyalty', heading: 'Loyalty programme' },
  { path: 'settings-data-retention', heading: 'Data retention' },
];

/** A guest's delivery order through the order API; answers its id and delivery fee. */
async function placeDelivery(request: APIRequestContext): Promise<{ id: number; shipping: number }> {
  const product = orderableEighth();
  const res = await request.post(`http://127.0.0.1:${PORT}/api/order/save`, {
    headers: { host: DOWNTOWN },
    data: {
      idempotency_key: randomUUID(),
      order_type: 'delivery',
      license_type: 'recreational',
      birthday: '1990-01-01',
      personal_details: { firstName: 'Rhea', lastName: 'Report', emailAddress: `${randomUUID().slice(0, 8)}@example.com`, phone: '(916) 555-0177' },
      products: [{ sku: product.sku, qty: 2, size: product.size }],
      shipping_address: ADDRESS,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const result = ((await res.json()) as { result: { order_id: number; shipping: number } }).result;
  return { id: result.order_id, shipping: result.shipping };
}

/** `$1,234.56` / `-$5.00` → cents. */
function cents(text: string): number {
  const m = /^(-|−)?\$([\d,]+)\.(\d{2})$/.exec(text.trim());
  expect(m, `an amount: "${text}"`).not.toBeNull();
  return (m![1] ? -1 : 1) * (Number(m![2].replace(/,/g, '')) * 100 + Number(m![3]));
}

/** The region is in the tab order right after `before`, and arrow keys scroll it when it overflows. */
async function expectKeyboardScrollable(page: Page, region: Locator, before: Locator): Promise<void> {
  await expect(region).toHaveAttribute('tabindex', '0');
  await before.focus();
  await page.keyboard.press('Tab');
  await expect(region).toBeFocused();
  const overflow = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
  if (overflow > 0) {
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  }
}

for (const viewport of [
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('the daily report adds up from its columns, its table scrolls by keyboard, axe clean', async ({ page, request }, info) => {
      const order = await placeDelivery(request);
      expect(order.shipping, 'a delivery fee to report').toBeGreaterThan(0);
      await staffLogin(page, OWNER);
      await expect(page.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
      // The store list names the zone in words.
      await expect(page.getByRole('list', { name: 'Your stores' })).toContainText('Pacific time');
      await expect(page.getByRole('list', { name: 'Your stores' })).not.toContainText('America/');
      await completeOrder(page, order.id, 'delivery');

      await page.goto(consoleUrl('/stores/1/reports'));
      await expect(page.getByRole('heading', { level: 1, name: 'Daily report' })).toBeVisible();
      // The header names the store's zone in words; the table is named with its dates in the console's style.
      await expect(page.getByRole('banner')).toContainText('Verdant Downtown (Pacific time)');
      const table = page.getByRole('table', { name: /^Orders per day, [A-Z][a-z]{2} \d{1,2}/ });
      await expect(table.getByRole('columnheader')).toHaveText([
        'Date',
        'Orders',
        'Gross',
        'Discounts',
        'Excise tax',
        'Sales tax',
        'Delivery fee',
        'Total',
      ]);
      const lines = [...(await table.locator('tbody tr').all()), ...(await table.locator('tfoot tr').all())];
      expect(lines.length).toBeGreaterThanOrEqual(7);
      let fees = 0;
      for (const line of lines) {
        const day = (await line.getByRole('rowheader').innerText()).trim();
        // A day in the console's one style (Wed, Nov 25, 2026), the total line as "Total".
        expect(day).toMatch(/^([A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, \d{4}|Total)$/);
        const [, gross, discounts, excise, sales, fee, total] = (await line.getByRole('cell').allInnerTexts()).map((t) => t.trim());
        expect(cents(gross) + cents(discounts) + cents(excise) + cents(sales) + cents(fee), `${day} adds up`).toBe(cents(total));
        expect(cents(discounts)).toBeLessThanOrEqual(0);
        if (day !== 'Total') fees += cents(fee);
      }
      expect(fees, 'the completed delivery’s fee is in the report').toBeGreaterThanOrEqual(order.shipping);

      const region = page.getByRole('region', { name: 'Daily report table, scrollable' });
      await expectKeyboardScrollable(page, region, page.getByRole('button', { name: 'Show' }));
      if (viewport.width < 500) {
        // On a phone the table is wider than the screen: only the region scrolls, not the page.
        expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      }
      await page.screenshot({ path: info.outputPath(`reports-${viewport.width}.png`), fullPage: true });
      await expectNoAxeViolations(page);
    });

    test('every settings page is axe clean, names the zone in words, and its scroll regions are keyboard-reachable', async ({
      page,
    }, info) => {
      await staffLogin(page, OWNER);
      await expect(page.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
      for (const s of SETTINGS_PAGES) {
        await page.goto(consoleUrl(`/stores/1/${s.path}`));
        await expect(page.getByRole('heading', { level: 1, name: s.heading })).toBeVisible();
        await expect(page.getByRole('main')).not.toContainText('America/Los_Angeles');
        const history = page.getByRole('region', { name: 'History of changes' });
        if (await history.count()) {
          await expect(history).toHaveAttribute('tabindex', '0');
          await history.focus();
          await expect(history).toBeFocused();
        }
        if (s.path === 'settings-hours') await expect(page.getByRole('main')).toContainText('Times are the store’s (Pacific time).');
        if (s.path === 'settings-zones') {
          const zones = page.getByRole('region', { name: 'Zones now, scrollable' });
          await expect(zones.getByRole('table', { name: 'Zones now' })).toBeVisible();
          await expect(zones).toHaveAttribute('tabindex', '0');
          await zones.focus();
          await expect(zones).toBeFocused();
          if ((await zones.evaluate((el) => el.scrollWidth - el.clientWidth)) > 0) {
            await page.keyboard.press('ArrowRight');
            await page.keyboard.press('ArrowRight');
            await expect.poll(() => zones.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
          }
        }
        await page.screenshot({ path: info.outputPath(`${s.path}-${viewport.width}.png`), fullPage: true });
        await expectNoAxeViolations(page);
      }
    });
  });
}
