/**
 * Issue 10, as a shopper meets it: registering a phone that already has an account logs the
 * phone's (proven) holder into that account as it is — the form is not applied — and the newsletter
 * mail's signed link shows and changes that address's subscription without a login.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { accountDialog, createCustomer, headerLogin, newCustomer } from '../fixtures/account.ts';
import { notice, storeApi } from '../fixtures/cart.ts';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

test.beforeEach(async ({ context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
});

test('registering a phone that already has an account logs its holder into it; the form is not applied', async ({ page, request }) => {
  const owner = newCustomer({ firstname: 'Nora', lastname: 'Vance' });
  await createCustomer(request, owner);

  await page.goto(storeUrl('downtown', '/menu'));
  await headerLogin(page).click();
  await accountDialog(page, 'Log in').getByRole('button', { name: 'Create an account' }).click();
  const form = accountDialog(page, 'Create an account');
  await form.getByLabel('First name').fill('Eve');
  await form.getByLabel('Last name').fill('Other');
  await form.getByLabel('E-mail').fill(`eve-${Date.now()}@example.com`);
  // The same number, spelled another way: one identity.
  await form.getByLabel('Phone number').fill(`+1 ${owner.phone}`);
  await form.getByLabel('Birthday').fill('1991-09-09');
  await form.getByLabel(/I accept the/).check();
  await form.getByRole('button', { name: 'Create an account' }).click();

  await expect(form.getByRole('status').filter({ hasText: /^Demo store: your code is \d{6}$/ })).toBeVisible();
  await form.getByLabel('SMS code').fill((await form.getByTestId('demo-code').textContent())!.trim());
  await form.getByRole('button', { name: 'Confirm and create my account' }).click();

  await expect(notice(page, 'This phone number already has an account: you are now logged in to it.')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Create an account' })).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Your account: Nora' })).toBeVisible();
  await page.goto(storeUrl('downtown', '/my-account'));
  await expect(page.getByRole('region', { name: 'E-mail address' }).getByLabel('E-mail')).toHaveValue(owner.email);
});

/** What the newsletter mail carries: an HS256 link token over the address, the store and an expiry, with the server's key. */
function newsletterLinkToken(email: string, storeId = 1): string {
  const secret = fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, 'auth-secret'), 'utf8').trim();
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: 'HS256' })}.${part({ sid: storeId, email, typ: 'newsletter', iss: 'verdant', iat: now, exp: now + 3600 })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

test('the newsletter mail link shows and changes that address’s subscription without logging in', async ({ page, request }) => {
  const email = `news-${Date.now()}@example.com`;
  // Anonymous subscribe: accepted, one answer whatever the state (the mail carries the link).
  const res = await storeApi(request).post('/api/newsletter', { email });
  expect(await res.json()).toEqual({ code: 200, result: { accepted: true } });

  await page.goto(storeUrl('downtown', `/newsletter?linkToken=${newsletterLinkToken(email)}`));
  const region = page.getByRole('region', { name: 'Newsletter' });
  await expect(region.getByText(email)).toBeVisible();
  await expect(region.getByRole('status')).toHaveText('You are subscribed to the newsletter.');
  await expectNoAxeViolations(page);
  await region.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(region.getByRole('status')).toHaveText('You are not subscribed to the newsletter.');
  await expect(notice(page, 'Newsletter preferences updated: you have unsubscribed.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Newsletter' }).getByRole('status')).toHaveText('You are not subscribed to the newsletter.');

  // A forged link is refused, and says nothing about the address.
  await page.goto(storeUrl('downtown', `/newsletter?linkToken=${newsletterLinkToken(email)}x`));
  await expect(page.getByRole('alert').filter({ hasText: 'This newsletter link is invalid or has expired.' })).toBeVisible();
});
