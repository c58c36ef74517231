/**
 * The console's API keys page (issue 13): the owner creates a key for a POS, sees it once, the key
 * works against the integration API (a plain HTTP call, as a POS would make it), the page never
 * shows it again, and once revoked after the confirm the same call is refused.
 *
 * Own data: a key named with a word made for this run, on the Eastside store (no other journey
 * uses API keys); the calls only read orders, so no other journey is disturbed.
 */
import { randomUUID } from 'node:crypto';
import { consoleUrl, OWNER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, storeUrl, test } from '../fixtures/store.ts';

const EASTSIDE = 2;

test('the owner creates an API key, it works once copied, and is refused after revoking', async ({ page, playwright }) => {
  const name = `Journey POS ${randomUUID().slice(0, 8)}`;
  await staffLogin(page, OWNER);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
  await page.goto(consoleUrl(`/stores/${EASTSIDE}/orders`));
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys', exact: true }).click();
  await expect(page).toHaveURL(consoleUrl(`/stores/${EASTSIDE}/api-keys`));
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();

  await page.getByRole('button', { name: 'Create an API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await expect(dialog.getByLabel('Name (e.g. the POS it is for)')).toBeFocused();
  await dialog.getByLabel('Name (e.g. the POS it is for)').fill(name);
  await expect(dialog.getByRole('checkbox', { name: /^orders:read/ })).toBeChecked();
  await dialog.getByRole('button', { name: 'Create the key' }).click();
  await expect(dialog).toBeHidden();

  const shown = page.getByTestId('api-key-secret');
  await expect(shown).toHaveText(/^vdk_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
  const key = (await shown.textContent())!;
  await expectNoAxeViolations(page);

  // A POS's call: no cookie, only the key (by address: Node does not resolve *.localhost; the key names the store).
  const pos = await playwright.request.newContext();
  const call = () =>
    pos.get(`http://127.0.0.1:${new URL(storeUrl('eastside')).port}/api/integration/v1/orders`, {
      headers: { authorization: `Bearer ${key}` },
    });
  expect((await call()).status()).toBe(200);

  await page.getByRole('button', { name: 'I copied it' }).click();
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  // The secret part (a base64url secret may hold `_`, so not `split('_')`).
  expect(await page.content()).not.toContain(key.replace(/^vdk_[a-z0-9]{8}_/, ''));

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Revoke the key ${name}?` });
  await expect(confirm.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Revoke the key' }).click();
  await expect(row.getByText('Revoked')).toBeVisible();
  expect((await call()).status()).toBe(401);
  await pos.dispose();
});
