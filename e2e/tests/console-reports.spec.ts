/**
 * Issue 14 journey, tax lines in the store's report: an owner completes a shopper's order in the
 * console, opens the daily report, and finds each of the store's named tax lines stated with the
 * server's figures (rate, orders, taxable amount, tax); the lines add up to the report's excise
 * and sales columns, and the CSV has a column per line. Axe clean.
 */
import { ageOn } from '@verdant/domain';
import type { Page } from '@playwright/test';
import { createCustomer, newCustomer, placeOrderAs } from '../fixtures/account.ts';
import { usd } from '../fixtures/cart.ts';
import { consoleUrl, expectQueue, fillReadyBy, OWNER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

test.describe.configure({ timeout: 120_000 });

interface ReportAnswer {
  rows: { date: string; excise_tax_cents: number; sales_tax_cents: number }[];
  tax_lines: { code: string; title: string; kind: string; rate: number; taxable_cents: number; amount_cents: number; orders: number }[];
}

async function completeFromQueue(page: Page, incrementId: string, birthday: string): Promise<void> {
  await page.getByLabel('Number, name or phone').fill(incrementId);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: `#${incrementId}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Order #${incrementId}` })).toBeVisible();
  const status = page.getByRole('article').locator('header');
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm the order' });
  await fillReadyBy(confirm, new Date(Date.now() + 30 * 60_000));
  await confirm.getByRole('button', { name: 'Confirm the order' }).click();
  await expect(status).toContainText('Confirmed');
  await page.getByRole('button', { name: 'Mark ready for pickup' }).click();
  await expect(status).toContainText('Ready for pickup');
  await page.getByRole('button', { name: 'Complete', exact: true }).click();
  const complete = page.getByRole('dialog', { name: 'Complete the order' });
  await complete.getByLabel(`I checked the customer’s ID (age ${ageOn(birthday, new Date())} today)`).check();
  await complete.getByRole('button', { name: 'Complete the order' }).click();
  await expect(status).toContainText('Completed');
}

test('the daily report states each named tax line with the server’s figures, and the CSV has a column per line', async ({
  page,
  request,
}) => {
  const customer = newCustomer({ firstname: 'Rita', lastname: 'Report' });
  const { token } = await createCustomer(request, customer);
  const incrementId = await placeOrderAs(request, token, customer);

  await staffLogin(page, OWNER);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
  await page.goto(consoleUrl('/stores/1/orders'));
  await expectQueue(page);
  await completeFromQueue(page, incrementId, customer.birthday);

  await page.goto(consoleUrl('/stores/1/reports'));
  await expect(page.getByRole('heading', { level: 1, name: 'Daily report' })).toBeVisible();
  const from = await page.locator('#report-from').inputValue();
  const to = await page.locator('#report-to').inputValue();
  // Named with the dates in the console's style (Nov 22 – 28, 2026).
  const table = page.getByRole('table', { name: /^Tax lines, [A-Z][a-z]{2} \d{1,2}/ });
  let report: ReportAnswer | undefined;
  // The server's report and the page agree (read again until they do: other journeys may complete orders meanwhile).
  await expect(async () => {
    await page.reload();
    report = (await page.evaluate(async (url) => (await fetch(url)).json(), `/api/console/stores/1/reports/daily?from=${from}&to=${to}`))
      .result as ReportAnswer;
    // The order just completed is in it; the lines add up to the two tax columns.
    expect(report.tax_lines.length).toBeGreaterThan(0);
    const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);
    expect(sum(report.tax_lines.map((l) => l.amount_cents))).toBe(sum(report.rows.map((r) => r.excise_tax_cents + r.sales_tax_cents)));
    await expect(table.getByRole('rowheader')).toHaveText(
      report.tax_lines.map((l) => l.title),
      { timeout: 5000 },
    );
    for (const [i, line] of report.tax_lines.entries()) {
      await expect(
        table
          .getByRole('row')
          .nth(i + 1)
          .getByRole('cell'),
      ).toHaveText([`${line.rate}%`, String(line.orders), usd(line.taxable_cents), usd(line.amount_cents)], { timeout: 1000 });
    }
  }).toPass({ timeout: 20_000 });
  await expectNoAxeViolations(page);

  // Fetched by the page itself, with the staff member's session.
  const csv = await page.evaluate(async (url) => {
    const res = await fetch(url);
    return { status: res.status, text: await res.text() };
  }, `/api/console/stores/1/reports/daily.csv?from=${from}&to=${to}`);
  expect(csv.status).toBe(200);
  const header = csv.text.split('\n')[0].split(',');
  // One column per line after Total (the lines of the range, in the store's order).
  expect(header.slice(8)).toEqual(report!.tax_lines.map((l) => `${l.title} (${l.rate}%)`));
});
