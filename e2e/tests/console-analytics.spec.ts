/**
 * Issue 31 journey, analytics in the console: a shopper visits the Harbor store (a real browser's
 * user agent: counted; the funnel keeps nothing of them) and places an order; Harbor's manager
 * opens Analytics, changes the dates, finds the order in the summary, reads the sales chart and its
 * table, and downloads the CSV of that table. At 1024 px (tablet) and 390 px (phone); axe clean;
 * screenshots kept for a look.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { consoleUrl, dbAll, HARBOR_MANAGER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, PORT, storeUrl, test } from '../fixtures/store.ts';

test.describe.configure({ timeout: 120_000 });

const HARBOR = 4;
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const VIEWPORTS = [
  { name: 'tablet', size: { width: 1024, height: 768 } },
  { name: 'phone', size: { width: 390, height: 844 } },
];

/** An accessory in stock at Harbor (no purchase limits): a pickup order of it through the order API. */
async function placeHarborOrder(request: import('@playwright/test').APIRequestContext): Promise<number> {
  const [product] = dbAll<{ sku: string }>(
    `select p.sku from products p join stock s on s.product_id = p.id join product_prices pp on pp.product_id = p.id
     where p.store_id = ? and p.type_id = 'simple' and p.status = 1 and p.canna_type = 4 and s.is_in_stock = 1 and s.qty > 5 order by p.id limit 1`,
    HARBOR,
  );
  expect(product, 'an accessory in stock at Harbor').toBeTruthy();
  const res = await request.post(`http://127.0.0.1:${PORT}/api/order/save`, {
    headers: { host: `harbor.localhost:${PORT}` },
    data: {
      idempotency_key: randomUUID(),
      order_type: 'pickup',
      birthday: '1990-01-01',
      personal_details: { firstName: 'Ana', lastName: 'Lytics', emailAddress: `${randomUUID().slice(0, 8)}@example.com`, phone: '(916) 555-0131' },
      products: [{ sku: product.sku, qty: 1 }],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { result: { order_id: number } }).result.order_id;
}

for (const viewport of VIEWPORTS) {
  test(`a manager reads Analytics at ${viewport.name} size: dates, chart and table, CSV; axe clean`, async ({ browser, page, request }, info) => {
    // A shopper arrives at Harbor's home page from elsewhere (a visit), in a browser that is not a bot.
    const shopper = await browser.newContext({ userAgent: BROWSER_UA, serviceWorkers: 'block' });
    await passGateByCookie(shopper, 'harbor', 'recreational');
    const tab = await shopper.newPage();
    await tab.goto(storeUrl('harbor', '/'));
    await shopper.close();
    await placeHarborOrder(request);

    await page.setViewportSize(viewport.size);
    await staffLogin(page, HARBOR_MANAGER);
    await expect(page).toHaveURL(consoleUrl(`/stores/${HARBOR}/orders`));
    const nav = page.getByRole('navigation', { name: 'Console' });
    if (viewport.name === 'phone' && !(await nav.getByRole('link', { name: 'Analytics' }).isVisible())) await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await nav.getByRole('link', { name: 'Analytics' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();

    // Change the dates: the last 7 days, by day, compared with the 7 before.
    await page.getByLabel('Dates', { exact: true }).selectOption('7');
    await expect(page.getByRole('status').filter({ hasText: 'Verdant Harbor' })).toContainText('compared with');
    // The order is counted once the rollups have it (an outbox consumer, within a second or two); the visit once the funnel flushes (5 s).
    const orders = page.getByRole('definition').filter({ hasText: /^\d+$/ }).first();
    await expect(async () => {
      await page.getByRole('button', { name: 'Show' }).click();
      await expect(orders).not.toHaveText('0', { timeout: 1000 });
      await expect(page.getByTestId('analytics-funnel').getByRole('img')).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });

    // The sales chart and its table say the same: today's row has the sales.
    const series = page.getByTestId('analytics-series');
    const chart = series.getByRole('img', { name: /^Sales by day, previous period dashed/ });
    await expect(chart).toBeVisible();
    await series.getByText('Table: Sales by day').click();
    const table = series.getByRole('table', { name: 'Sales by day' });
    await expect(table).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(8); // header + 7 days
    await expect(table.getByRole('row').last().getByRole('cell').nth(1)).toHaveText(/^\$[1-9][\d,]*\.\d{2}$/);
    // The funnel's table counts the visit (when the flush has run) and the order.
    const funnel = page.getByTestId('analytics-funnel');
    await funnel.getByText('Table: Shopper funnel').click();
    await expect(async () => {
      await page.getByRole('button', { name: 'Show' }).click();
      const visits = funnel.getByRole('row', { name: /^Store visits/ }).getByRole('cell').first();
      await expect(visits).not.toHaveText('0', { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expectNoAxeViolations(page);
    await page.screenshot({ path: info.outputPath(`analytics-${viewport.name}.png`), fullPage: true });

    // The CSV of the table, as the manager downloads it.
    const [download] = await Promise.all([page.waitForEvent('download'), series.getByRole('link', { name: 'Download CSV: Sales by day' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^harbor-analytics-series-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = fs.readFileSync(await download.path(), 'utf8');
    const [header, ...lines] = text.trim().split('\n');
    expect(header).toBe('Period,Orders,Units,Grams,Sales,Average order,Previous period,Previous orders,Previous sales');
    expect(lines).toHaveLength(7);
    expect(Number(lines.at(-1)!.split(',')[1])).toBeGreaterThan(0);
  });
}
