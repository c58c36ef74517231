/**
 * Issue 31, data retention and the document view log: a manager sets the Oregon preset on the Data
 * retention page (its source shown), opens a customer's order, where the ID image is shown and the
 * view is logged beside it ("Viewed by … (manager) at … — order #…"); verifies the ID: the decision
 * stays ("Verified"), the image is gone (the page says it was deleted after the check, the file
 * route answers 410). The section is put back afterwards. Tablet and phone size, axe clean, nothing
 * wider than the screen.
 */
import type { Page } from '@playwright/test';
import { consoleUrl, expectQueue, keepSection, staffLogin } from '../fixtures/console.ts';
import { createCustomer, newCustomer, placeOrder, PNG_FILE } from '../fixtures/account.ts';
import { expect, expectNoAxeViolations, PORT, test } from '../fixtures/store.ts';

// One after the other: both sizes set store 1's data-retention section and put it back after, so
// run side by side one's put-back undid the other's Oregon preset mid-journey (the image stayed).
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const MANAGER = 'manager@demo.verdant.test';
const HOST = `downtown.localhost:${PORT}`;
const API = `http://127.0.0.1:${PORT}`;

const overflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

for (const viewport of [
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('Oregon preset: the manager views and verifies an ID, the image is deleted, the decision and the view are kept', async ({ page, request }, testInfo) => {
      const customer = newCustomer({ firstname: 'Orla', lastname: 'Oakes' });
      const { token } = await createCustomer(request, customer);
      const up = await request.post(`${API}/api/user/upload?kind=id`, { headers: { host: HOST, authorization: `Bearer ${token}` }, multipart: { file: PNG_FILE } });
      expect(up.status(), await up.text()).toBe(200);
      const { increment_id: incrementId } = await placeOrder(request, token, customer);

      await staffLogin(page, MANAGER);
      await expectQueue(page);
      const putBack = await keepSection(page, 1, 'data-retention');
      try {
        // The setting: the Oregon preset, with its source.
        await page.goto(consoleUrl('/stores/1/settings-data-retention'));
        await expect(page.getByRole('heading', { level: 1, name: 'Data retention' })).toBeVisible();
        await page.getByLabel('State rule').selectOption({ label: 'Oregon: ID and card images not kept' });
        await expect(page.getByText(/Source: Oregon SB 863/)).toBeVisible();
        await expect(page.getByLabel('ID images kept (days)')).toHaveValue('0');
        await page.getByRole('button', { name: 'Save' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'Data retention saved.' })).toBeVisible();
        await expect(page.getByText(/ID images are not kept: deleted as soon as the decision is recorded/)).toBeVisible();
        await expect(page.getByRole('heading', { level: 2, name: 'Last runs of the retention job' })).toBeVisible();
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await expectNoAxeViolations(page);
        await page.screenshot({ path: testInfo.outputPath(`${viewport.width}-data-retention.png`), fullPage: true });

        // The order: the ID is shown, and that view is on record beside it.
        await page.goto(consoleUrl('/'));
        await expectQueue(page);
        await page.getByLabel('Number, name or phone').fill(incrementId);
        await page.getByRole('button', { name: 'Search' }).click();
        await page.getByRole('link', { name: `#${incrementId}` }).click();
        await expect(page.getByRole('heading', { level: 1, name: `Order #${incrementId}` })).toBeFocused();
        const verification = page.getByRole('region', { name: 'Verification' });
        const idDoc = verification.getByRole('listitem').filter({ has: page.getByText('ID', { exact: true }) }).first();
        const image = idDoc.getByRole('img', { name: /^ID uploaded / });
        await expect(image).toBeVisible();
        const href = (await idDoc.getByRole('link', { name: /^Open the ID uploaded / }).getAttribute('href'))!;
        const views = idDoc.getByRole('list', { name: 'Who viewed the ID' });
        await expect(views.getByRole('listitem').first()).toHaveText(new RegExp(`^Viewed by .+ \\(manager\\) at .+ — order #${incrementId}$`));
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await expectNoAxeViolations(page);

        // Verified: the decision stays, the image goes.
        await idDoc.getByRole('button', { name: 'Verify ID' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'ID verified.' })).toBeVisible();
        await expect(idDoc.getByText('Verified', { exact: true })).toBeVisible();
        await expect(idDoc.getByText(/^The ID uploaded .+ was deleted .+ after the check, as the store’s data retention says\. The decision is kept\.$/)).toBeVisible();
        await expect(idDoc.getByRole('img')).toHaveCount(0);
        const gone = await page.evaluate(async (url) => {
          const res = await fetch(url);
          return { status: res.status, errorCode: ((await res.json()) as { errorCode?: string }).errorCode };
        }, href);
        expect(gone).toEqual({ status: 410, errorCode: 'upload_deleted' });
        // The view before the decision is still on record.
        await expect(views.getByRole('listitem')).not.toHaveCount(0);
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await expectNoAxeViolations(page);
        await page.screenshot({ path: testInfo.outputPath(`${viewport.width}-verified-deleted.png`), fullPage: true });
      } finally {
        await putBack();
      }
    });
  });
}
