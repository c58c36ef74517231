/**
 * Issue 26, the console's side of a medical patient: a patient with both documents uploaded orders
 * a medical-only product, the order arrives "Held: ID to verify" and "Held: Medical card to verify";
 * a manager opens it in the console, looks at each uploaded document beside its Verify / Reject
 * buttons and verifies them through the real form; the hold is released and Confirm is accepted.
 * The Reject path says what the shopper is told, keeps the order held, and the shopper's account
 * page shows the reason. Tablet and phone size, axe clean, nothing wider than the screen.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expectQueue, fillReadyBy, staffLogin } from '../fixtures/console.ts';
import { createCustomer, loginByPhone, newCustomer, PDF_FILE, PNG_FILE, type NewCustomer } from '../fixtures/account.ts';
import { medicalOnlySku } from '../fixtures/stock.ts';
import { expect, expectNoAxeViolations, passGateByCookie, PORT, storeUrl, test } from '../fixtures/store.ts';

test.describe.configure({ timeout: 150_000 });

const MANAGER = 'manager@demo.verdant.test';
const HOST = `downtown.localhost:${PORT}`;
const API = `http://127.0.0.1:${PORT}`;

/** A medical patient (card on file) with both documents uploaded and a held order of a medical-only product. */
async function heldPatientOrder(request: APIRequestContext): Promise<{ customer: NewCustomer; incrementId: string }> {
  const customer = newCustomer({ license_type: 'medical', firstname: 'Mara', lastname: 'Medina', medcard_number: `MC-${randomUUID().slice(0, 6)}`, medcard_expiry: '2031-03-31' });
  const { token } = await createCustomer(request, customer);
  const auth = { host: HOST, authorization: `Bearer ${token}` };
  for (const [kind, file] of [
    ['id', PNG_FILE],
    ['medcard', PDF_FILE],
  ] as const) {
    const up = await request.post(`${API}/api/user/upload?kind=${kind}`, { headers: auth, multipart: { file } });
    expect(up.status(), await up.text()).toBe(200);
  }
  const placed = await request.post(`${API}/api/order/save`, {
    headers: auth,
    data: {
      idempotency_key: randomUUID(),
      order_type: 'pickup',
      license_type: 'medical',
      personal_details: { firstName: customer.firstname, lastName: customer.lastname, emailAddress: customer.email, phone: customer.phone },
      products: [{ sku: medicalOnlySku(), qty: 1 }],
    },
  });
  expect(placed.status(), await placed.text()).toBe(200);
  return { customer, incrementId: ((await placed.json()) as { result: { increment_id: string } }).result.increment_id };
}

/** The manager signs in and opens the order from the queue's search. */
async function openAsManager(page: Page, incrementId: string): Promise<void> {
  await staffLogin(page, MANAGER);
  await expectQueue(page);
  await page.getByLabel('Number, name or phone').fill(incrementId);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: `#${incrementId}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Order #${incrementId}` })).toBeFocused();
}

const overflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

for (const viewport of [
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('a held medical order: the manager views and verifies both documents, the hold is released, Confirm works', async ({ page, request }, testInfo) => {
      const { incrementId } = await heldPatientOrder(request);
      await openAsManager(page, incrementId);
      const header = page.getByRole('article').locator('header');
      await expect(header).toContainText('Held: ID to verify');
      await expect(header).toContainText('Held: Medical card to verify');

      // Each document stands with its upload: the ID's picture, the card's PDF link, both openable.
      const verification = page.getByRole('region', { name: 'Verification' });
      const idDoc = verification.getByRole('listitem').filter({ has: page.getByText('ID', { exact: true }) });
      const cardDoc = verification.getByRole('listitem').filter({ has: page.getByText('Medical card', { exact: true }) });
      await expect(idDoc.getByText('Waiting for review')).toBeVisible();
      await expect(cardDoc.getByText('Waiting for review')).toBeVisible();
      await expect(idDoc.getByRole('img', { name: /^ID uploaded / })).toBeVisible();
      for (const [doc, type] of [
        [idDoc, 'image/png'],
        [cardDoc, 'application/pdf'],
      ] as const) {
        const link = doc.getByRole('link', { name: /^Open the .* uploaded .*new tab\)$/ });
        await expect(link).toHaveAttribute('target', '_blank');
        // Opened as the signed-in manager's browser would (the file route is staff-only).
        const opened = await page.evaluate(async (href) => {
          const res = await fetch(href);
          return { status: res.status, type: res.headers.get('content-type') };
        }, (await link.getAttribute('href'))!);
        expect(opened).toEqual({ status: 200, type });
      }
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`${viewport.width}-verification-held.png`), fullPage: true });

      // Confirm is blocked while held, and says why (and where to act).
      const confirmButton = page.getByRole('button', { name: 'Confirm', exact: true });
      await expect(confirmButton).toBeDisabled();
      await expect(confirmButton).toHaveAccessibleDescription('The customer’s documents must be verified before the order can be confirmed.');
      await page.getByRole('link', { name: 'Go to the documents to verify' }).click();
      await expect(page.getByRole('heading', { level: 2, name: 'Verification' })).toBeFocused();
      await expect(page.getByRole('heading', { level: 2, name: 'Verification' })).toBeInViewport();

      // Verify the ID, then the card: the notice says so each time, the hold goes with the last.
      await idDoc.getByRole('button', { name: 'Verify ID' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'ID verified.' })).toBeVisible();
      await expect(idDoc.getByText('Verified', { exact: true })).toBeVisible();
      await expect(idDoc.getByRole('button', { name: 'Verify ID' })).toBeDisabled();
      await expect(header).not.toContainText('Held: ID to verify');
      await expect(header).toContainText('Held: Medical card to verify');
      await cardDoc.getByRole('button', { name: 'Verify Medical card' }).click();
      await expect(page.getByRole('status').filter({ hasText: /Medical card verified\. The order is no longer held/ })).toBeVisible();
      await expect(cardDoc.getByText('Verified', { exact: true })).toBeVisible();
      await expect(header).not.toContainText('Held:');
      await expect(page.getByRole('link', { name: 'Go to the documents to verify' })).toHaveCount(0);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`${viewport.width}-verification-released.png`), fullPage: true });

      // Released: Confirm is accepted.
      await confirmButton.click();
      const confirm = page.getByRole('dialog', { name: 'Confirm the order' });
      await fillReadyBy(confirm, new Date(Date.now() + 60 * 60_000));
      await confirm.getByRole('button', { name: 'Confirm the order' }).click();
      await expect(confirm).toBeHidden();
      await expect(header).toContainText('Confirmed');
      await expect(page.getByRole('list', { name: 'Order history' })).toContainText('medical card verified');
    });

    test('rejecting a document says what the shopper is told; the order stays held; the shopper reads the reason', async ({ page, request, browser }, testInfo) => {
      const { customer, incrementId } = await heldPatientOrder(request);
      await openAsManager(page, incrementId);
      const verification = page.getByRole('region', { name: 'Verification' });
      const cardDoc = verification.getByRole('listitem').filter({ has: page.getByText('Medical card', { exact: true }) });
      await cardDoc.getByRole('button', { name: 'Reject Medical card' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reject the medical card' });
      await expect(dialog.getByLabel('Reason (the customer is told)')).toBeFocused();
      await expect(dialog).toContainText('The shopper reads on their account page: “Medical card: rejected: ” and your reason');
      await expect(dialog).toContainText('Their held orders stay held until a new card is uploaded and verified.');
      await expect(dialog.getByRole('button', { name: 'Reject the medical card' })).toBeDisabled();
      const reason = 'The card is expired: please upload your renewed card.';
      await dialog.getByLabel('Reason (the customer is told)').fill(reason);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`${viewport.width}-verification-reject.png`) });
      await dialog.getByRole('button', { name: 'Reject the medical card' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('status').filter({ hasText: 'Medical card rejected.' })).toBeVisible();
      await expect(cardDoc.getByText('Rejected', { exact: true })).toBeVisible();
      await expect(cardDoc).toContainText(`Reason: ${reason}`);
      await expect(page.getByRole('article').locator('header')).toContainText('Held: Medical card to verify');
      await expectNoAxeViolations(page);

      // The shopper's account page, in the shopper's own browser.
      const shopper = await browser.newContext({ viewport, serviceWorkers: 'block', extraHTTPHeaders: { 'x-forwarded-for': `10.250.${viewport.width % 250}.${Math.floor(Math.random() * 250) + 1}` } });
      try {
        const own = await shopper.newPage();
        await passGateByCookie(shopper, 'downtown', 'medical');
        await own.goto(storeUrl('downtown', '/'));
        await loginByPhone(own, customer.phone);
        await own.goto(storeUrl('downtown', '/my-account'));
        await expect(own.getByTestId('document-status-medcard')).toHaveText(`Medical card: rejected: ${reason}`);
      } finally {
        await shopper.close();
      }
    });
  });
}
