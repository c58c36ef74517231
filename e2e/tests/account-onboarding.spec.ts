/**
 * Issue 11, as a shopper meets it:
 *  - a birthday must be a living adult's (1800-01-01 is "Please enter a valid date") and names need
 *    at least 2 letters, in the registration form and the phone login's licence step;
 *  - a new phone account is asked its name at onboarding (skippable) and is never greeted or shown
 *    by its phone number;
 *  - checkout fills in what the account knows: name, phone, e-mail and the default address.
 */
import { accountDialog, createCustomer, headerLogin, newCustomer, uniquePhone } from '../fixtures/account.ts';
import { addToCart, notice } from '../fixtures/cart.ts';
import { PORT, expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';
import type { Page } from '@playwright/test';

const GELATO = '/p/FL-GELATO-RESERVE/gelato-reserve';

test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
});

/** A phone the store does not know, through the code step up to the licence step. */
async function newPhoneToLicenceStep(page: Page, phone: string) {
  await headerLogin(page).click();
  const dialog = accountDialog(page, 'Log in');
  await dialog.getByLabel('Phone number').fill(phone);
  await dialog.getByRole('button', { name: 'Send code' }).click();
  const codeStep = accountDialog(page, 'Enter your code');
  await expect(codeStep.getByTestId('demo-code')).toHaveText(/^\d{6}$/);
  await codeStep.getByLabel('SMS code').fill((await codeStep.getByTestId('demo-code').textContent())!.trim());
  await codeStep.getByRole('button', { name: 'Log in' }).click();
  return accountDialog(page, 'Almost there');
}

test('a new phone account: 1800-01-01 is refused, the name is asked (2 letters at least), the greeting never shows the number, checkout is filled in', async ({ page }) => {
  const phone = uniquePhone();
  const digits = phone.replace(/\D/g, '');
  await page.goto(storeUrl('downtown', '/menu'));
  const licenceStep = await newPhoneToLicenceStep(page, phone);
  await licenceStep.getByRole('radio', { name: 'Recreational' }).check();
  await licenceStep.getByLabel('Birthday').fill('1800-01-01');
  await licenceStep.getByRole('button', { name: 'Continue' }).click();
  await expect(licenceStep.getByLabel('Birthday')).toHaveAccessibleDescription('Please enter a valid date');
  await licenceStep.getByLabel('Birthday').fill('1988-06-30');
  await licenceStep.getByRole('button', { name: 'Continue' }).click();

  const welcome = accountDialog(page, 'Welcome!');
  await expect(welcome).toBeVisible();
  await expect(welcome).not.toContainText(digits);
  await expect(welcome.getByLabel('First name')).toBeFocused();
  await expectNoAxeViolations(page);
  await welcome.getByLabel('First name').fill('J');
  await welcome.getByRole('button', { name: 'Save my name' }).click();
  await expect(welcome.getByLabel('First name')).toHaveAccessibleDescription('Name must have at least 2 letters');
  await expect(welcome.getByLabel('Last name')).toHaveAccessibleDescription('Field is required');
  await welcome.getByLabel('First name').fill('Jo');
  await welcome.getByLabel('Last name').fill('Reyes');
  await welcome.getByRole('button', { name: 'Save my name' }).click();

  const named = accountDialog(page, 'Welcome, Jo Reyes!');
  await expect(named).toBeVisible();
  await expect(notice(page, 'Account data has successfully been updated')).toBeVisible();
  await expect(named.getByLabel('First name')).toHaveCount(0);
  await expect(named.getByRole('button', { name: 'Start shopping' })).toBeFocused();
  await named.getByRole('button', { name: 'Start shopping' }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Your account: Jo' })).toBeVisible();

  await addToCart(page, GELATO, /^1 g/, 1);
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  await page.goto(storeUrl('downtown', '/checkout'));
  await expect(page.getByLabel('First name')).toHaveValue('Jo');
  await expect(page.getByLabel('Last name')).toHaveValue('Reyes');
  await expect(page.getByLabel('Phone')).toHaveValue(`(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`);
});

test('onboarding can be skipped: "Welcome!", the account page says the name is not given yet and takes it there', async ({ page }) => {
  const phone = uniquePhone();
  const digits = phone.replace(/\D/g, '');
  await page.goto(storeUrl('downtown', '/menu'));
  const licenceStep = await newPhoneToLicenceStep(page, phone);
  await licenceStep.getByRole('radio', { name: 'Recreational' }).check();
  await licenceStep.getByLabel('Birthday').fill('1979-01-31');
  await licenceStep.getByRole('button', { name: 'Continue' }).click();
  const welcome = accountDialog(page, 'Welcome!');
  await welcome.getByRole('button', { name: 'Skip for now' }).click();
  await expect(welcome.getByLabel('First name')).toHaveCount(0);
  await expect(welcome.getByRole('button', { name: 'Start shopping' })).toBeFocused();
  await welcome.getByRole('link', { name: 'Go to my account' }).click();

  await expect(page).toHaveURL(storeUrl('downtown', '/my-account'));
  await expect(page.getByRole('main')).not.toContainText(`Logged in as ${digits}`);
  const personal = page.getByRole('region', { name: 'Personal details' });
  await expect(personal.getByText('Not given yet')).toBeVisible();
  await expectNoAxeViolations(page);
  await personal.getByLabel('First name').fill('Lea');
  await personal.getByLabel('Last name').fill('Moss');
  await personal.getByRole('button', { name: 'Save my name' }).click();
  await expect(personal.getByText('Lea Moss')).toBeVisible();
  await expect(personal.getByLabel('First name')).toHaveCount(0);
  await expect(page.getByText('Logged in as Lea Moss')).toBeVisible();
});

test('the registration form refuses a one-letter first name and a birthday of 1800-01-01', async ({ page }) => {
  await page.goto(storeUrl('downtown', '/menu'));
  await headerLogin(page).click();
  await accountDialog(page, 'Log in').getByRole('button', { name: 'Create an account' }).click();
  const form = accountDialog(page, 'Create an account');
  await form.getByLabel('First name').fill('J');
  await form.getByLabel('Last name').fill('Reyes');
  await form.getByLabel('E-mail').fill(`j-${Date.now()}@example.com`);
  await form.getByLabel('Phone number').fill(uniquePhone());
  await form.getByLabel('Birthday').fill('1800-01-01');
  await form.getByLabel(/I accept the/).check();
  await form.getByRole('button', { name: 'Create an account' }).click();
  await expect(form.getByLabel('First name')).toBeFocused();
  await expect(form.getByLabel('First name')).toHaveAccessibleDescription('Name must have at least 2 letters');
  await expect(form.getByLabel('Birthday')).toHaveAccessibleDescription('Please enter a valid date');
  // No code was sent: the form never left the browser.
  await expect(form.getByLabel('SMS code')).toHaveCount(0);
});

test('checkout fills in a registered customer’s name, e-mail, phone and default delivery address', async ({ page, request }) => {
  const customer = newCustomer({ firstname: 'Rosa', lastname: 'Quinn' });
  const { token } = await createCustomer(request, customer);
  const saved = await request.post(`http://127.0.0.1:${PORT}/api/user/me`, {
    headers: { host: `downtown.localhost:${PORT}`, authorization: `Bearer ${token}` },
    data: { addresses: [{ title: 'Home', street: '1001 K Street', house_number: '4', apt_ste: '2B', city: 'Sacramento', postcode: '95816', is_default: true }] },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  await page.goto(storeUrl('downtown', '/menu'));
  await headerLogin(page).click();
  const dialog = accountDialog(page, 'Log in');
  await dialog.getByLabel('Phone number').fill(customer.phone);
  await dialog.getByRole('button', { name: 'Send code' }).click();
  const codeStep = accountDialog(page, 'Enter your code');
  await expect(codeStep.getByTestId('demo-code')).toHaveText(/^\d{6}$/);
  await codeStep.getByLabel('SMS code').fill((await codeStep.getByTestId('demo-code').textContent())!.trim());
  await codeStep.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Your account: Rosa' })).toBeVisible();

  await addToCart(page, GELATO, /^1 g/, 1);
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  await page.goto(storeUrl('downtown', '/checkout'));
  await expect(page.getByLabel('First name')).toHaveValue('Rosa');
  await expect(page.getByLabel('Last name')).toHaveValue('Quinn');
  await expect(page.getByLabel('E-mail')).toHaveValue(customer.email);
  await expect(page.getByLabel('Phone')).toHaveValue(customer.phone);
  await page.getByRole('radio', { name: /^Delivery/ }).check();
  await expect(page.getByLabel('Street address')).toHaveValue('1001 K Street 4');
  await expect(page.getByLabel('City')).toHaveValue('Sacramento');
  await expect(page.getByLabel('ZIP code')).toHaveValue('95816');
  await expectNoAxeViolations(page);
});
