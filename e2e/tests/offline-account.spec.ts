/**
 * Issue 6: a logged-in customer's account writes made offline wait in the sync-task queue
 * (IndexedDB, before the page says so), are still shown as waiting after a reload offline, and
 * reach the store exactly once when the network returns. Real service worker, real server; the
 * database is read directly.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { createCustomer, loginByPhone, newCustomer, type NewCustomer } from '../fixtures/account.ts';
import { notice } from '../fixtures/cart.ts';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

test.use({ serviceWorkers: 'allow' });
test.describe.configure({ timeout: 60_000 });

const QUEUED = 'You are offline. Your change is saved on this device and will be sent to the store when you are back online.';
const SUBSCRIBE_WAITING = 'Subscription waiting: it will be sent when you are back online.';
const ADDRESS_WAITING = 'Waiting to be saved: it will be sent when you are back online.';

const require = createRequire(import.meta.url);
type Db = { prepare(sql: string): { get(...args: unknown[]): unknown }; close(): void };
function count(sql: string, ...args: unknown[]): number {
  const Sqlite = require('better-sqlite3') as new (file: string, opts?: object) => Db;
  const db = new Sqlite(path.join(process.env.E2E_DATA_DIR!, 'verdant.sqlite'), { timeout: 5000, readonly: true });
  try {
    return (db.prepare(sql).get(...args) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** A customer logged in on a page the service worker controls, at an account page opened online (so it is cached). */
async function loggedInAt(page: Page, context: BrowserContext, request: Parameters<typeof createCustomer>[0], accountPath: string): Promise<NewCustomer> {
  const customer = newCustomer({ firstname: 'Ada', lastname: 'Offline' });
  await createCustomer(request, customer);
  await passGateByCookie(context, 'downtown', 'recreational');
  await page.goto(storeUrl('downtown', '/'));
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await loginByPhone(page, customer.phone);
  await page.goto(storeUrl('downtown', accountPath));
  return customer;
}

/** Every write the page sent to the store and got an answer for (method of each). */
function answeredWrites(page: Page, pathname: string): string[] {
  const seen: string[] = [];
  page.on('response', (r) => {
    const req = r.request();
    if (req.method() !== 'GET' && new URL(req.url()).pathname === pathname) seen.push(`${req.method()} ${r.status()}`);
  });
  return seen;
}

test('newsletter subscribed offline: waiting across a reload, sent once back online', async ({ page, context, request }) => {
  const customer = await loggedInAt(page, context, request, '/my-account/newsletter');
  const newsletter = page.getByRole('region', { name: 'Newsletter' });
  await expect(newsletter.getByRole('status')).toHaveText('You are not subscribed to the newsletter.');
  const writes = answeredWrites(page, '/api/newsletter');

  await context.setOffline(true);
  await newsletter.getByRole('button', { name: 'Subscribe' }).click();
  await expect(notice(page, QUEUED)).toBeVisible();
  await expect(newsletter.getByRole('status')).toHaveText(SUBSCRIBE_WAITING);

  // Closed and reopened while still offline: still waiting, nothing sent.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Newsletter' }).getByRole('status')).toHaveText(SUBSCRIBE_WAITING);
  await expect(page.getByRole('region', { name: 'Newsletter' }).getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
  await expectNoAxeViolations(page);
  expect(count('select count(*) as n from newsletter_subscribers where email = ?', customer.email)).toBe(0);

  await context.setOffline(false);
  await expect(notice(page, 'Newsletter preferences updated: you have subscribed.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Newsletter' }).getByRole('status')).toHaveText('You are subscribed to the newsletter.');
  expect(writes).toEqual(['POST 200']);
  expect(count('select count(*) as n from newsletter_subscribers where email = ? and subscribed = 1', customer.email)).toBe(1);
  await expectNoAxeViolations(page);

  // Nothing is left to send: a reload online sends nothing more.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Newsletter' }).getByRole('status')).toHaveText('You are subscribed to the newsletter.');
  expect(writes).toEqual(['POST 200']);
});

test('an address added offline: waiting across a reload, saved once back online', async ({ page, context, request }) => {
  const customer = await loggedInAt(page, context, request, '/my-account/shipping-details');
  const addresses = page.getByRole('region', { name: 'Your addresses' });
  const form = addresses.getByRole('form', { name: 'New address' });
  await expect(form).toBeVisible();
  const writes = answeredWrites(page, '/api/user/me');

  await context.setOffline(true);
  await form.getByLabel('Address name').fill('Studio');
  await form.getByLabel('Street').fill('2200 J Street');
  await form.getByLabel('City').fill('Sacramento');
  await form.getByLabel('ZIP code').fill('95816');
  await form.getByRole('button', { name: 'Save address' }).click();
  await expect(notice(page, QUEUED)).toBeVisible();
  const items = () => page.getByRole('region', { name: 'Your addresses' }).getByRole('list', { name: 'Saved addresses' }).getByRole('listitem');
  await expect(items()).toHaveCount(1);
  await expect(items()).toContainText('Studio: 2200 J Street, Sacramento 95816');
  await expect(items()).toContainText(ADDRESS_WAITING);

  await page.reload();
  await expect(items()).toHaveCount(1);
  await expect(items()).toContainText(ADDRESS_WAITING);
  await expectNoAxeViolations(page);

  await context.setOffline(false);
  await expect(notice(page, 'Account data has successfully been updated')).toBeVisible();
  await expect(items()).toHaveCount(1);
  await expect(items()).toContainText('Studio: 2200 J Street, Sacramento 95816');
  await expect(items()).not.toContainText(ADDRESS_WAITING);
  await expect(items().getByRole('button', { name: /^Edit / })).toBeVisible();
  expect(writes).toEqual(['POST 200']);
  const customerId = count('select id as n from customers where email = ?', customer.email);
  expect(count("select count(*) as n from customer_addresses where customer_id = ? and street = '2200 J Street'", customerId)).toBe(1);
});
