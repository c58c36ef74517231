/**
 * Issue 29 "Paperwork": the owner opens Harbor's delivery records at tablet size (1024x768): a trip's
 * manifest (driver, vehicle, package id, the stop's outcome), the order's delivery request receipt
 * with the customer's signature, and the end-of-day records of the day with its date picker and CSV
 * link (the file's name and formula guard checked); printing (print media) hides the console's
 * header and navigation. Every page is axe clean and fits the width. The record-retention page
 * shows California's 7 years.
 *
 * Own data: a completed delivery order of Harbor on 14 March 2025 (a day no other journey looks at),
 * on an ended trip with the stop recorded — written to the e2e database directly, as the driver's
 * phone routes would leave them (they are tested in the server's suites).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { OWNER, consoleUrl, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

test.use({ viewport: { width: 1024, height: 768 } });

const require = createRequire(import.meta.url);
type Stmt = { run(...args: unknown[]): { lastInsertRowid: number | bigint }; get(...args: unknown[]): unknown };
type Db = { prepare(sql: string): Stmt; close(): void };
const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Harbor's order, trip and stop (store 4), returned by ids. */
function seedDelivery(): { orderId: number; tripId: number; orderNumber: string; ledger: string; packageId: string } {
  const Sqlite = require('better-sqlite3') as new (file: string, opts?: object) => Db;
  const db = new Sqlite(path.join(process.env.E2E_DATA_DIR!, 'verdant.sqlite'), { timeout: 10_000 });
  try {
    const product = db.prepare(`select id, sku, name, package_id from products where store_id = 4 and status = 1 and package_id is not null order by id limit 1`).get() as
      | { id: number; sku: string; name: string; package_id: string }
      | undefined;
    const any = product ?? (db.prepare(`select id, sku, name, package_id from products where store_id = 4 order by id limit 1`).get() as { id: number; sku: string; name: string; package_id: string | null });
    const packageId = any.package_id ?? '1A40E2E0000PAPER00000001';
    if (!any.package_id) db.prepare(`update products set package_id = ? where id = ?`).run(packageId, any.id);
    const driver = db.prepare(`select id from drivers where store_id = 4 order by id limit 1`).get() as { id: number };
    const vehicle = db.prepare(`select id from vehicles where store_id = 4 order by id limit 1`).get() as { id: number };
    const suffix = randomUUID().slice(0, 8).toUpperCase();
    const orderNumber = `E2EP-${suffix}`;
    const ledger = `HARBOR-E2E-${suffix}`;
    const orderId = Number(
      db
        .prepare(
          `insert into orders (increment_id, store_id, idempotency_key, status, order_type, license_type, subtotal_cents, excise_tax_cents, sales_tax_cents, total_cents,
             thc_equivalent_grams, personal_details, shipping_address, status_changed_at, created_at, updated_at)
           values (?, 4, ?, 'completed', 'delivery', 'recreational', 4000, 600, 300, 4900, 3.5, ?, ?, '2025-03-15T03:30:00.000Z', '2025-03-14T18:00:00.000Z', '2025-03-15T03:30:00.000Z')`,
        )
        .run(
          orderNumber,
          randomUUID(),
          JSON.stringify({ firstName: 'Paula', lastName: 'Print', emailAddress: 'paula@example.com', phone: '(619) 555-0142' }),
          JSON.stringify({ address: '1 Harbor Dr', city: 'San Diego', zip: '92101' }),
        ).lastInsertRowid,
    );
    db.prepare(
      `insert into order_items (order_id, product_id, sku, name, qty, uom, price_cents, row_total_cents, thc_equivalent_grams) values (?, ?, ?, ?, 2, 'ea', 2000, 4000, 3.5)`,
    ).run(orderId, any.id, any.sku, any.name);
    const tripId = Number(
      db
        .prepare(
          `insert into trips (store_id, ledger_number, driver_id, vehicle_id, status, created_by, started_at, ended_at, goods_cents, weight_grams, created_at, updated_at)
           values (4, ?, ?, ?, 'ended', 'Olivia Owner', '2025-03-15T02:00:00.000Z', '2025-03-15T04:00:00.000Z', 4900, 3.5, '2025-03-15T01:30:00.000Z', '2025-03-15T04:00:00.000Z')`,
        )
        .run(ledger, driver.id, vehicle.id).lastInsertRowid,
    );
    db.prepare(
      `insert into trip_stops (trip_id, order_id, position, open, created_at, outcome, outcome_at, outcome_by, id_document, id_birth_date, id_name_matches, id_checked_at, signature_png)
       values (?, ?, 1, null, '2025-03-15T01:30:00.000Z', 'delivered', '2025-03-15T03:30:00.000Z', 'Driver', 'drivers_licence', '1990-01-01', 1, '2025-03-15T03:29:00.000Z', ?)`,
    ).run(tripId, orderId, SIGNATURE);
    // A second stop, failed (not home): the manifest shows it, and prints on a page of its own.
    const second = Number(
      db
        .prepare(
          `insert into orders (increment_id, store_id, idempotency_key, status, order_type, license_type, subtotal_cents, total_cents,
             thc_equivalent_grams, personal_details, shipping_address, status_changed_at, created_at, updated_at)
           values (?, 4, ?, 'out_for_delivery', 'delivery', 'medical', 2000, 2000, 1, ?, ?, '2025-03-15T02:00:00.000Z', '2025-03-14T18:10:00.000Z', '2025-03-15T02:00:00.000Z')`,
        )
        .run(`${orderNumber}-2`, randomUUID(), JSON.stringify({ firstName: 'Quinn' }), JSON.stringify({ address: '2 Pier Ave', city: 'San Diego', zip: '92101' })).lastInsertRowid,
    );
    db.prepare(
      `insert into trip_stops (trip_id, order_id, position, open, created_at, outcome, outcome_at, failed_reason) values (?, ?, 2, null, '2025-03-15T01:30:00.000Z', 'failed', '2025-03-15T03:50:00.000Z', 'not_home')`,
    ).run(tripId, second);
    return { orderId, tripId, orderNumber, ledger, packageId };
  } finally {
    db.close();
  }
}

async function expectFits(page: import('@playwright/test').Page) {
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

test('delivery records: a manifest, a receipt with the signature and the end-of-day page print without the console around them', async ({ page }) => {
  // Three pages and a settings page, each checked with axe on screen and in print.
  test.setTimeout(90_000);
  const seeded = seedDelivery();
  await staffLogin(page, OWNER);
  await expect(page.getByRole('link', { name: /Harbor/ }).first()).toBeVisible();
  await page.goto(consoleUrl('/stores/4/delivery-records'));
  await expect(page.getByRole('heading', { level: 1, name: 'Delivery records' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Delivery records' })).toBeVisible();
  await expectNoAxeViolations(page);
  await expectFits(page);

  // The manifest.
  await page.getByRole('link', { name: `Manifest ${seeded.ledger}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Trip manifest ${seeded.ledger}` })).toBeVisible();
  const facts = page.locator('dl').first();
  await expect(facts).toContainText('C10-0000116-LIC');
  await expect(facts).toContainText(/employee .+, driver’s licence .+/);
  await expect(facts).toContainText('plate');
  const stop = page.getByRole('region', { name: `Stop 1: order #${seeded.orderNumber}` });
  await expect(stop).toContainText('Delivered');
  await expect(stop).toContainText('Paula (adult-use) · 1 Harbor Dr, San Diego 92101');
  await expect(stop.getByRole('table', { name: `Goods of order ${seeded.orderNumber}` })).toContainText(seeded.packageId);
  await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', `/api/console/stores/4/delivery-records/trips/${seeded.tripId}/manifest.csv`);
  const failed = page.getByRole('region', { name: `Stop 2: order #${seeded.orderNumber}-2` });
  await expect(failed).toContainText('Failed Mar 14, 2025, 8:50 PM — not home');
  await expect(failed).toContainText('Quinn (medical)');
  await expectNoAxeViolations(page);
  await expectFits(page);

  // Printing: no header, navigation or buttons; the page's heading and facts stay.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Turn on desktop alerts for new orders' })).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: `Trip manifest ${seeded.ledger}` })).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
  // Each order after the first starts a new page.
  expect(await page.locator('.print-order').evaluateAll((els) => els.map((e) => getComputedStyle(e).breakBefore))).toEqual(['auto', 'page']);
  await page.screenshot({ path: test.info().outputPath('manifest-print.png'), fullPage: true });
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();

  // The receipt.
  await stop.getByRole('link', { name: `Receipt #${seeded.orderNumber}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Delivery request receipt #${seeded.orderNumber}` })).toBeVisible();
  await expect(page.getByText('Verdant Harbor', { exact: false }).first()).toBeVisible();
  await expect(page.getByText('$49.00')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Signature of Paula' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('receipt.png'), fullPage: true });
  await expectNoAxeViolations(page);
  await expectFits(page);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeHidden();
  await expect(page.getByRole('img', { name: 'Signature of Paula' })).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // The end-of-day records: 03:30 UTC on the 15th is the evening of 14 March in San Diego.
  await page.goto(consoleUrl('/stores/4/delivery-records'));
  await page.getByRole('link', { name: 'End-of-day records' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Deliveries of / })).toBeVisible();
  await page.getByLabel('Day (the store’s time)').fill('2025-03-14');
  await expect(page.getByRole('heading', { level: 1, name: 'Deliveries of Mar 14, 2025' })).toBeVisible();
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: `#${seeded.orderNumber}` }) });
  await expect(row).toContainText('adult-use');
  await expect(row).toContainText('San Diego, 92101');
  await expect(row).toContainText('$49.00');
  await page.screenshot({ path: test.info().outputPath('end-of-day.png'), fullPage: true });
  const csvLink = page.getByRole('link', { name: 'Download CSV' });
  await expect(csvLink).toHaveAttribute('href', '/api/console/stores/4/delivery-records/end-of-day.csv?date=2025-03-14');
  // The file as the link downloads it (fetched in the page: the console's host resolves only there).
  const csv = await page.evaluate(async (href) => {
    const res = await fetch(href, { credentials: 'same-origin' });
    return { status: res.status, disposition: res.headers.get('content-disposition'), text: await res.text() };
  }, (await csvLink.getAttribute('href'))!);
  expect(csv.status).toBe(200);
  expect(csv.disposition).toBe('attachment; filename="harbor-deliveries-2025-03-14.csv"');
  expect(csv.text).toContain(`,${seeded.orderNumber},adult-use,2,`);
  await expectNoAxeViolations(page);
  await expectFits(page);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeHidden();
  await expect(page.getByLabel('Day (the store’s time)')).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  // The retention setting: California's preset.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Record retention' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Delivery record retention' })).toBeVisible();
  await expect(page.getByLabel('State rule')).toHaveValue('CA');
  await expect(page.getByLabel('Years kept')).toHaveValue('7');
  await expectNoAxeViolations(page);
  await expectFits(page);
});
