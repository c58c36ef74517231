/**
 * Issue 31 "Customer records": a manager looks up a customer at the counter by a phone typed with
 * dashes (tablet, 1024 px), opens the profile and finds the completed order, the points, the
 * consents, and adds a staff note that stays with their name; the pages work at 390 px too. A
 * budtender (phone, 390 px) finds the same customer by e-mail and gets the counter view: the phone
 * masked to its last four digits, no spend, consents or notes, no note form. Axe clean throughout.
 */
import { randomUUID } from 'node:crypto';
import { BUDTENDER, buyerWithCompletedOrder, consoleUrl, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from '../fixtures/store.ts';

const MANAGER = 'manager@demo.verdant.test';

test.describe.configure({ timeout: 120_000 });

test('a manager finds a customer by a phone with dashes, reads the record and adds a note; a budtender sees the counter view', async ({ browser, request }) => {
  const lastname = `Harlow${randomUUID().slice(0, 6).replace(/\d/g, 'x')}`;
  const { customer, order, staffContext } = await buyerWithCompletedOrder(browser, request, { firstname: 'Quinn', lastname });
  await staffContext.close();
  const digits = customer.phone.replace(/\D/g, '');
  const dashed = `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
  const note = `Prefers pickup after 5 pm ${randomUUID().slice(0, 4)}`;

  // The manager at the counter tablet.
  const managerContext = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await managerContext.newPage();
  await staffLogin(page, MANAGER);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Customers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Name, e-mail or phone' });
  await search.fill(dashed);
  await search.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: '1 customer found with this phone number.' })).toBeVisible();
  const result = page.getByTestId('customer-result');
  await expect(result).toHaveCount(1);
  await expect(result).toContainText(`+1${digits}`);
  await expect(result).toContainText(customer.email);
  await expect(result).toContainText('1 order, last');
  await expectNoAxeViolations(page);

  await result.getByRole('link', { name: `Quinn ${lastname}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Quinn ${lastname}` })).toBeVisible();
  const orders = page.getByRole('region', { name: 'Orders', exact: true });
  await expect(orders.getByRole('link', { name: order.increment_id })).toBeVisible();
  await expect(orders).toContainText('Completed: 1, spent $');
  await expect(page.getByRole('region', { name: 'Points', exact: true })).toContainText('Balance');
  const consents = page.getByRole('region', { name: 'Consents', exact: true });
  await expect(consents.getByRole('table', { name: 'Standing consent by channel and purpose' })).toBeVisible();
  await expect(consents.getByRole('row')).toHaveCount(5);
  await expect(page.getByRole('region', { name: 'Verification', exact: true })).toContainText('Documents');

  // A note: sent empty it says so at the field; written, it is listed with the manager's name.
  const notes = page.getByRole('region', { name: 'Staff notes', exact: true });
  await expect(notes).toContainText('No notes yet.');
  await notes.getByRole('button', { name: 'Add note' }).click();
  await expect(notes.getByRole('alert')).toHaveText('Write the note first.');
  await expect(notes.getByLabel('New note')).toBeFocused();
  await notes.getByLabel('New note').fill(note);
  await notes.getByRole('button', { name: 'Add note' }).click();
  await expect(notes.getByRole('status')).toHaveText('Note added.');
  const listed = notes.getByRole('list', { name: 'Notes, newest first' }).getByRole('listitem');
  await expect(listed).toHaveCount(1);
  await expect(listed.first()).toContainText(note);
  await expect(listed.first()).toContainText('Marco Manager');
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  // Kept: read again from the server.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Staff notes', exact: true })).toContainText(note);

  // The same pages on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await page.goto(consoleUrl(`/stores/1/customers?q=${encodeURIComponent(dashed)}`));
  await expect(page.getByTestId('customer-result')).toHaveCount(1);
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await managerContext.close();

  // A budtender on a phone: the counter view.
  const budtenderContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const bud = await budtenderContext.newPage();
  await staffLogin(bud, BUDTENDER);
  await expect(bud.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  await bud.goto(consoleUrl('/stores/1/customers'));
  const budSearch = bud.getByRole('searchbox', { name: 'Name, e-mail or phone' });
  await budSearch.fill(customer.email.toUpperCase());
  await bud.getByRole('button', { name: 'Search' }).click();
  const budResult = bud.getByTestId('customer-result');
  await expect(budResult).toHaveCount(1);
  await expect(budResult).toContainText(`•••-${digits.slice(-4)}`);
  await expect(budResult).not.toContainText(digits.slice(0, 6));
  await expectNoSidewaysScroll(bud);
  await expectNoAxeViolations(bud);
  await budResult.getByRole('link', { name: `Quinn ${lastname}` }).click();
  await expect(bud.getByRole('heading', { level: 1, name: `Quinn ${lastname}` })).toBeVisible();
  await expect(bud.getByRole('region', { name: 'Orders', exact: true }).getByRole('link', { name: order.increment_id })).toBeVisible();
  await expect(bud.getByRole('region', { name: 'Orders', exact: true })).not.toContainText('spent');
  await expect(bud.getByRole('region', { name: 'Points', exact: true })).toContainText('Balance');
  await expect(bud.getByRole('region', { name: 'Consents', exact: true })).toContainText('Managers and owners see this part of the record.');
  const budNotes = bud.getByRole('region', { name: 'Staff notes', exact: true });
  await expect(budNotes).toContainText('Managers and owners see this part of the record.');
  await expect(budNotes.getByRole('button', { name: 'Add note' })).toHaveCount(0);
  await expect(bud.getByText(note)).toHaveCount(0);
  await expect(bud.locator('body')).not.toContainText(`+1${digits}`);
  await expectNoSidewaysScroll(bud);
  await expectNoAxeViolations(bud);
  await budtenderContext.close();
});
