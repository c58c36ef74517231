/**
 * Issue 30 back-in-stock alerts, in a real browser at phone width (390 px): staff mark a Harbor
 * product sold out (Harbor's menu is the one no other shopper journey counts on); a guest on its page
 * asks "Tell me when it's back" with an e-mail and the consent box (axe clean, nothing overflows), a
 * second guest the same on a phone without JavaScript (a plain form POST); staff restock it through
 * the console's menu API; each watcher's message is recorded once, with the link to the product and
 * the one-tap unsubscribe link; the link's page works without JavaScript and records the withdrawal
 * in the consent ledger. The product ends with the stock it had.
 */
import type { Page } from '@playwright/test';
import { consoleUrl, dbAll, HARBOR_MANAGER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 390, height: 844 } });

const HARBOR = 4;

/** A console menu bulk action in the staff's session (the console's own API, with its CSRF token). */
async function bulk(page: Page, productId: number, action: 'sold_out' | 'in_stock', qty?: number): Promise<number> {
  return page.evaluate(
    async ({ url, body }) => {
      const session = (await (await fetch('/api/console/session')).json()) as { result: { csrfToken: string } };
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': session.result.csrfToken }, body: JSON.stringify(body) });
      return res.status;
    },
    { url: `/api/console/stores/${HARBOR}/menu/bulk`, body: { productIds: [productId], action, ...(qty !== undefined ? { qty } : {}) } },
  );
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test('a guest watches a sold-out product, staff restock it, one message with the link; the unsubscribe link works without JavaScript', async ({ page, browser, extraHTTPHeaders }) => {
  const [product] = dbAll<{ id: number; sku: string; slug: string; name: string; qty: number }>(
    `select p.id, p.sku, p.slug, p.name, s.qty from products p join stock s on s.product_id = p.id
     where p.store_id = ? and p.type_id = 'simple' and p.parent_id is null and p.status = 1 and p.visibility >= 2
       and p.license_type != 'medical' and s.is_in_stock = 1 and s.qty > 0 and p.sku not like 'J-%'
     order by p.id desc limit 1`,
    HARBOR,
  );
  expect(product).toBeDefined();
  const email = `watch-${Date.now()}@restock.test`;

  await staffLogin(page, HARBOR_MANAGER);
  await expect(page).toHaveURL(consoleUrl(`/stores/${HARBOR}/orders`));
  expect(await bulk(page, product.id, 'sold_out')).toBe(200);
  const shopper = await browser.newContext({ viewport: { width: 390, height: 844 }, extraHTTPHeaders, serviceWorkers: 'block' });
  try {
    await passGateByCookie(shopper, 'harbor', 'recreational');
    const shop = await shopper.newPage();
    const productUrl = storeUrl('harbor', `/p/${encodeURIComponent(product.sku)}/${encodeURIComponent(product.slug || 'product')}`);
    const form = shop.getByTestId('stock-alert');
    // The page is read again until the sold-out change has reached it.
    await expect(async () => {
      await shop.goto(productUrl);
      await expect(form).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(form.getByRole('heading', { name: "Tell me when it's back" })).toBeVisible();
    await expect(shop.getByRole('heading', { level: 1 })).toHaveText(product.name);

    // Without the consent box: the page says so and sends nothing.
    await form.getByLabel('Mobile number or e-mail').fill(email);
    await form.getByRole('button', { name: "Tell me when it's back" }).click();
    await expect(form.getByRole('alert')).toHaveText('Please tick the box to agree to the message.');
    await form.getByRole('checkbox', { name: /Text or e-mail me once when this item is back in stock at/ }).check();
    await form.getByRole('button', { name: "Tell me when it's back" }).click();
    await expect(shop.getByTestId('stock-alert-done')).toHaveText('We will tell you once when it is back.');
    await noSidewaysScroll(shop);
    await expectNoAxeViolations(shop);
    const ledger = dbAll<{ action: string; words: string; source: string }>("select action, words, source from consent_events where contact = ? and purpose = 'marketing'", email);
    expect(ledger).toEqual([{ action: 'granted', source: 'stock_alert_form', words: expect.stringContaining('back in stock at') }]);

    // A second guest on a phone without JavaScript: the same form is a plain POST, answered with a page.
    const plain = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false, extraHTTPHeaders, serviceWorkers: 'block' });
    const noJsEmail = `nojs-${email}`;
    try {
      await passGateByCookie(plain, 'harbor', 'recreational');
      const bare = await plain.newPage();
      await bare.goto(productUrl);
      const bareForm = bare.getByTestId('stock-alert');
      await bareForm.getByLabel('Mobile number or e-mail').fill(noJsEmail);
      await bareForm.getByRole('checkbox', { name: /Text or e-mail me once/ }).check();
      await bareForm.getByRole('button', { name: "Tell me when it's back" }).click();
      await expect(bare.getByTestId('stock-alert-done')).toHaveText('We will tell you once when it is back.');
      await bare.getByRole('link', { name: 'Back to the product' }).click();
      await expect(bare.getByRole('heading', { level: 1 })).toHaveText(product.name);
    } finally {
      await plain.close();
    }

    // Staff restock it (the original quantity): one message to each watcher, with the product's link.
    expect(await bulk(page, product.id, 'in_stock', product.qty)).toBe(200);
    let rows: { body: string; subject: string }[] = [];
    await expect
      .poll(() => (rows = dbAll("select body, subject from message_deliveries where template = 'back_in_stock' and recipient = ?", email)).length, { timeout: 15_000 })
      .toBe(1);
    await expect.poll(() => dbAll("select id from message_deliveries where template = 'back_in_stock' and recipient = ?", noJsEmail).length, { timeout: 15_000 }).toBe(1);
    expect(rows[0].subject).toContain(`${product.name} is back in stock at `);
    expect(rows[0].body).toContain(`/p/${encodeURIComponent(product.sku)}/`);
    const unsubscribePath = /\/unsubscribe\/[0-9]+\.[A-Za-z0-9_-]+/.exec(rows[0].body)?.[0];
    expect(unsubscribePath).toBeDefined();
    // Restocked again: still the one message.
    expect(await bulk(page, product.id, 'in_stock', product.qty)).toBe(200);
    expect(dbAll("select id from message_deliveries where template = 'back_in_stock' and recipient = ?", email)).toHaveLength(1);

    // The unsubscribe link, on a phone without JavaScript: one button, then the answer.
    const plainAgain = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false, extraHTTPHeaders, serviceWorkers: 'block' });
    try {
      await passGateByCookie(plainAgain, 'harbor', 'recreational');
      const link = await plainAgain.newPage();
      await link.goto(storeUrl('harbor', unsubscribePath!));
      await expect(link.getByRole('heading', { level: 1, name: 'Unsubscribe' })).toBeVisible();
      await link.getByRole('button', { name: 'Unsubscribe' }).click();
      await expect(link.getByTestId('unsubscribed')).toContainText('You are unsubscribed');
      await noSidewaysScroll(link);
    } finally {
      await plainAgain.close();
    }
    expect(dbAll<{ action: string }>("select action from consent_events where contact = ? and purpose = 'marketing' order by id", email).map((r) => r.action)).toEqual(['granted', 'withdrawn']);
    await shop.goto(storeUrl('harbor', unsubscribePath!));
    await expect(shop.getByTestId('unsubscribed')).toBeVisible();
    await expectNoAxeViolations(shop);
  } finally {
    await shopper.close();
  }
});
