/**
 * Issue 26, staff login lock in the browser: after five wrong passwords the sign-in form says the
 * account is locked, the right password included, and an unknown e-mail hears exactly the same; the
 * sign-in page opened from the mailed unlock link says what the link is for; a weak new password is
 * refused on the Account page with the reason. Axe clean at phone and tablet size.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { consoleUrl, OWNER, STAFF_PASSWORD } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, PORT, test } from '../fixtures/store.ts';

const API = `http://127.0.0.1:${PORT}/api/console`;
const HOST = `downtown.localhost:${PORT}`;
const MEMBER_PASSWORD = 'copper tulip orbit shelf';
const LOCKED =
  'Too many failed attempts. This account is locked for 15 minutes. If it is a staff account, a link to sign in anyway has been sent to its e-mail.';

/** A new budtender of downtown, made by the demo owner through the console API. */
async function newMember(request: APIRequestContext): Promise<string> {
  const login = await request.post(`${API}/session`, { headers: { host: HOST }, data: { email: OWNER, password: STAFF_PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const cookie = /verdant_staff=[^;]+/.exec(login.headers()['set-cookie'] ?? '')![0];
  const { csrfToken } = (await login.json()).result as { csrfToken: string };
  const email = `lock-${randomUUID().slice(0, 8)}@staff.test`;
  const made = await request.post(`${API}/staff`, {
    headers: { host: HOST, cookie, 'x-csrf-token': csrfToken },
    data: { email, name: 'Lena Lock', role: 'budtender', storeIds: [1], password: MEMBER_PASSWORD },
  });
  expect(made.status(), await made.text()).toBe(200);
  return email;
}

/** Sends the sign-in form; answers the refusal it shows (empty after a success). */
async function signIn(page: Page, email: string, password: string): Promise<string> {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password').fill(password);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/console/session') && r.request().method() === 'POST');
  await form.getByRole('button', { name: 'Sign in' }).click();
  if ((await answer).ok()) return '';
  return (await form.getByRole('alert').textContent()) ?? '';
}

for (const size of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 1024, height: 768 },
]) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('five wrong passwords lock a member and an unknown e-mail alike; the unlock link’s page says what it does', async ({
      page,
      request,
    }, testInfo) => {
      const member = await newMember(request);
      const unknown = `nobody-${randomUUID().slice(0, 8)}@staff.test`;
      await page.goto(consoleUrl('/login'));
      for (const email of [member, unknown]) {
        for (let i = 0; i < 5; i++) expect(await signIn(page, email, `wrong-guess-${i}`)).toBe('Incorrect e-mail or password.');
        // The right password for the member, any password for the unknown e-mail: the same lock.
        expect(await signIn(page, email, email === member ? MEMBER_PASSWORD : 'any-password-1')).toBe(LOCKED);
      }
      await expect(page).toHaveURL(/\/console\/login/);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`locked-${size.name}.png`), fullPage: true });

      // The page the mailed link opens: a made-up link opens nothing.
      await page.goto(consoleUrl(`/login?unlock=${'A'.repeat(43)}`));
      await expect(page.getByRole('note')).toHaveText(
        'You opened the link from the mail about your locked account: sign in with your password to unlock it.',
      );
      await expectNoAxeViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`unlock-${size.name}.png`), fullPage: true });
      expect(await signIn(page, member, MEMBER_PASSWORD)).toBe(LOCKED);
    });

    test('the Account page refuses a weak new password with the reason and takes a strong one', async ({ page, request }, testInfo) => {
      const member = await newMember(request);
      await page.goto(consoleUrl('/login'));
      expect(await signIn(page, member, MEMBER_PASSWORD)).toBe('');
      await expect(page).not.toHaveURL(/\/login/);
      await page.goto(consoleUrl('/account'));
      const form = page.getByRole('region', { name: 'Change your password' });
      await expect(form.getByLabel('New password')).toHaveAccessibleDescription(/not your e-mail, a store’s name or a common password/);
      const change = async (password: string) => {
        await form.getByLabel('Current password').fill(MEMBER_PASSWORD);
        await form.getByLabel('New password').fill(password);
        await form.getByRole('button', { name: 'Change password' }).click();
      };
      await change('password12');
      await expect(form.getByRole('alert')).toHaveText(
        'The password is too easy to guess: this is a commonly used password. Use three or four unrelated words, or a random password from a password manager.',
      );
      await expectNoAxeViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`weak-${size.name}.png`), fullPage: true });
      await change(member);
      await expect(form.getByRole('alert')).toHaveText('The password must not be your e-mail address or its name part. Choose another one.');
      await change(STAFF_PASSWORD);
      await expect(form.getByRole('alert')).toHaveText('The password must not be the demo password. Choose one of your own.');
      await change('amber kettle north violin');
      await expect(form.getByRole('status')).toHaveText('Password changed.');
    });
  });
}
