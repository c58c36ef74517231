/**
 * The store's deal display rules (issue 28, "Display rules per store"), on the deals server:
 *  - the console's "How deals are shown" form at tablet and phone size (choices, what each preset
 *    forbids and its source, what "Automatic" means for the store's state, saved with history);
 *  - Eastside set to Massachusetts adult use through that form: card, product page, /sale, cart and
 *    checkout show the resulting price only (no "sale", no percent or amount off, no <s>/<del>),
 *    while the server's totals charge the same discount as under the store's own (California) rules;
 *    the setting is put back after;
 *  - Downtown (California, by its address): never the word "free", even for a $0.01 reward, and the
 *    checkout shows each line's deal and the deals' discount as the server's totals say.
 * The tests of this file run in order: two of them change Eastside's setting (no other journey
 * uses Eastside on the deals server).
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { DEALS_PORT, expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';
import { addToCart, cartToken, openCart, storeApi, totalsRow, usd } from '../fixtures/cart.ts';
import { consoleUrl, OWNER, staffLogin } from '../fixtures/console.ts';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const EASTSIDE = 2;
// A Verdant Labs vape: "$5 off every Verdant Labs vape" ($52.00 → $47.00).
const VAPE = { path: '/p/VP-JACK-HERER-LIVE-RESIN-CART-1-G/jack-herer-live-resin-cart-1-g', sku: 'VP-JACK-HERER-LIVE-RESIN-CART-1-G', name: 'Jack Herer Live Resin Cart 1 g' };
// A vape on a special price (a "Sale" badge and a struck-through price under the default rules).
const SPECIAL = { path: '/p/VP-CHERRY-PIE-DISPOSABLE-VAPE-0-3-G/cherry-pie-disposable-vape-0-3-g', name: 'Cherry Pie Disposable Vape 0.3 g' };
// Pre-rolls: "Buy 2 pre-rolls, get 1 for $0.01".
const PREROLL = { path: '/p/PR-GRANDDADDY-PURPLE-PRE-ROLL-2-PACK/granddaddy-purple-pre-roll-2-pack', sku: 'PR-GRANDDADDY-PURPLE-PRE-ROLL-2-PACK', name: 'Granddaddy Purple Pre-Roll 2-Pack' };

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'nothing scrolls sideways').toBeLessThanOrEqual(0);
}

/** Words and marks a Massachusetts adult-use page may not show: "sale", percent or amount off, a struck-through price. */
async function expectResultingPriceOnly(scope: Locator) {
  const text = (await scope.innerText()).replace(/\s+/g, ' ');
  // ("Sales tax" is a tax line's name, not a price's word.)
  expect(text, 'no "sale"').not.toMatch(/\bsales?\b(?!\s+tax)/i);
  expect(text, 'no percent off').not.toMatch(/\d\s*%\s*off|\bpercent\b/i);
  expect(text, 'no amount off').not.toMatch(/\boff\b|−\s*\$|-\s*\$\d/i);
  await expect(scope.locator('s, del, strike')).toHaveCount(0);
  const struck = await scope.evaluate((el) => [...el.querySelectorAll('*')].filter((e) => getComputedStyle(e).textDecorationLine.includes('line-through')).length);
  expect(struck, 'no text drawn struck through').toBe(0);
}

/** Sets a store's deal display through the console's own API as the signed-in member (to put it back after a test). */
async function putDealDisplay(page: Page, storeId: number, preset: string) {
  const status = await page.evaluate(
    async ({ storeId, preset }) => {
      const session = (await (await fetch('/api/console/session')).json()) as { result: { csrfToken: string } };
      const path = `/api/console/stores/${storeId}/settings/sections/deal-display`;
      const current = (await (await fetch(path)).json()) as { result: { version: number } };
      const res = await fetch(path, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.result.csrfToken },
        body: JSON.stringify({ value: { preset }, version: current.result.version }),
      });
      return res.status;
    },
    { storeId, preset },
  );
  expect(status).toBe(200);
}

interface Totals {
  subtotal: number;
  discount_amount: number;
  deal_discount: number;
  grand_total: number;
  items: { sku: string; deal_discount_amount?: number; discount_reason: string | null }[];
}

async function totalsOf(request: APIRequestContext, store: string, token: string): Promise<Totals> {
  const res = await storeApi(request, store, DEALS_PORT).get(`/api/cart/totals?cartId=${encodeURIComponent(token)}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { result: Totals }).result;
}

/** A server cart of Eastside with one vape, made through the cart API (its totals are read under each preset). */
async function apiCart(request: APIRequestContext): Promise<string> {
  const api = storeApi(request, 'eastside', DEALS_PORT);
  const created = await api.post('/api/cart/create', { license_type: 'recreational' });
  expect(created.ok(), await created.text()).toBe(true);
  const token = ((await created.json()) as { result: string }).result;
  const added = await api.post(`/api/cart/update?cartId=${encodeURIComponent(token)}`, { cartItem: { sku: VAPE.sku, qty: 1 } });
  expect(added.ok(), await added.text()).toBe(true);
  return token;
}

async function openDealDisplay(page: Page, storeId: number) {
  await staffLogin(page, OWNER, DEALS_PORT);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(consoleUrl(`/stores/${storeId}/settings-deal-display`, DEALS_PORT));
  await expect(page.getByRole('heading', { level: 1, name: 'How deals are shown' })).toBeVisible();
  return page.getByRole('form', { name: 'How deals are shown' });
}

test('console at phone size: the choices, what each forbids and why, what Automatic means here; a save and its history', async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const form = await openDealDisplay(page, EASTSIDE);
  const rules = form.getByRole('group', { name: 'Rules the storefront follows' });
  await expect(rules).toContainText('This store’s address is in CA: Automatic follows the California rules.');
  await expect(form.getByRole('radio', { name: /^Automatic, by the store’s state \(now: California\)$/ })).toBeChecked();
  // Each preset's rules and their source, tied to its radio.
  const ma = form.getByRole('radio', { name: 'Massachusetts, adult use' });
  await expect(ma).toHaveAccessibleDescription(/No word “sale”.*No percent off and no amount off.*No struck-through earlier price.*935 CMR 500\.105/);
  await expect(form.getByRole('radio', { name: 'California', exact: true })).toHaveAccessibleDescription(/Never the word “free”.*Cal\. Bus\. & Prof\. Code §26152/);
  await expect(form.getByRole('radio', { name: 'Default', exact: true })).toHaveAccessibleDescription(/Never the word “free”/);
  await expectNoAxeViolations(page);
  await noSidewaysScroll(page);
  await page.screenshot({ path: info.outputPath('deal-display-phone.png'), fullPage: true });

  // Choose California explicitly, save; then back to Automatic: the history shows both, newest first.
  await form.getByRole('radio', { name: 'California', exact: true }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toHaveText('Deal display saved.');
  await expect(page.getByRole('main')).toContainText('Now: California (saved in the console).');
  await form.getByRole('radio', { name: /^Automatic/ }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toHaveText('Deal display saved.');
  const history = page.getByRole('region', { name: 'History of changes' });
  await expect(history.getByRole('row').nth(1)).toContainText('preset: "CA" → "auto"');
  await expect(history.getByRole('row').nth(2)).toContainText('preset: "auto" → "CA"');
  await expectNoAxeViolations(page);
  await noSidewaysScroll(page);
});

test('Massachusetts adult use (set in the console at tablet size): the resulting price only, and the same discount charged', async ({ page, context, request, browser }, info) => {
  // The server's totals of one cart under the store's own rules (California by its address).
  const token = await apiCart(request);
  const before = await totalsOf(request, 'eastside', token);
  expect(before.items).toEqual([expect.objectContaining({ sku: VAPE.sku, deal_discount_amount: 500 })]);

  await page.setViewportSize({ width: 1024, height: 768 });
  const form = await openDealDisplay(page, EASTSIDE);
  await form.getByRole('radio', { name: 'Massachusetts, adult use' }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toHaveText('Deal display saved.');
  await expect(page.getByRole('region', { name: 'History of changes' }).getByRole('row').nth(1)).toContainText('preset: "auto" → "MA_ADULT_USE"');
  await expectNoAxeViolations(page);
  await noSidewaysScroll(page);
  await page.screenshot({ path: info.outputPath('deal-display-tablet.png'), fullPage: true });

  const shopper = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
  try {
    await passGateByCookie(shopper, 'eastside', 'recreational', DEALS_PORT);
    const shop = await shopper.newPage();

    // The same cart costs the same: only the words change.
    const after = await totalsOf(request, 'eastside', token);
    expect(after.deal_discount).toBe(before.deal_discount);
    expect(after.discount_amount).toBe(before.discount_amount);
    expect(after.grand_total).toBe(before.grand_total);

    // /sale: the cards show the resulting price only.
    await shop.goto(storeUrl('eastside', '/sale', DEALS_PORT));
    const onDeal = shop.getByRole('region', { name: 'Products on deal' });
    const vapeCard = onDeal.getByRole('article').filter({ hasText: VAPE.name });
    await expect(vapeCard).toContainText('$47.00');
    await expect(vapeCard).not.toContainText('$52.00');
    // The page's title and the header's link say "Specials"; what the store wrote in its own page text is its own to word.
    await expect(shop.getByRole('heading', { level: 1 })).toHaveText('Specials');
    await expect(shop.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Specials' })).toBeVisible();
    await expect(shop.getByRole('navigation', { name: 'Main' })).not.toContainText(/\bsale\b/i);
    await expectResultingPriceOnly(shop.getByRole('region', { name: 'On deal now' }));
    await expectResultingPriceOnly(onDeal);
    await expectNoAxeViolations(shop);
    await noSidewaysScroll(shop);
    await shop.screenshot({ path: info.outputPath('ma-sale.png') });

    // A product on a special price: no "Sale" badge, no struck-through regular price.
    await shop.goto(storeUrl('eastside', SPECIAL.path, DEALS_PORT));
    await expect(shop.getByRole('heading', { level: 1, name: SPECIAL.name })).toBeVisible();
    await expectResultingPriceOnly(shop.getByRole('main'));

    // The product page: the price after the deal alone.
    await shop.goto(storeUrl('eastside', VAPE.path, DEALS_PORT));
    await expect(shop.getByTestId('product-price')).toContainText('$47.00');
    await expect(shop.getByTestId('product-price')).not.toContainText('$52.00');
    await expectResultingPriceOnly(shop.getByRole('main'));
    await expectNoAxeViolations(shop);
    await shop.screenshot({ path: info.outputPath('ma-product.png') });

    // The cart: the line at its resulting price, the totals the server's.
    await shop.getByRole('button', { name: 'Add to cart' }).click();
    await expect(shop.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
    const cart = await openCart(shop);
    const line = cart.getByTestId('cart-line').filter({ hasText: VAPE.name });
    await expect(line.getByTestId('line-deal')).toHaveText('Deal price: $47.00 for this line');
    const shopToken = await cartToken(shop, 'eastside');
    const t = await totalsOf(request, 'eastside', shopToken);
    expect(t.deal_discount).toBe(500);
    await expect(totalsRow(cart, 'Subtotal')).toHaveText(usd(t.subtotal - t.deal_discount));
    await expect(totalsRow(cart, /^Total$/)).toHaveText(usd(t.grand_total));
    await expect(totalsRow(cart, 'Deals')).toHaveCount(0);
    await expectResultingPriceOnly(cart);
    await expectNoAxeViolations(shop);
    await shop.screenshot({ path: info.outputPath('ma-cart.png') });

    // Checkout: the same.
    await cart.getByRole('link', { name: 'Proceed to checkout' }).click();
    await expect(shop.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
    const review = shop.getByRole('region', { name: '4. Review your order' });
    await expect(review.getByTestId('review-line').filter({ hasText: VAPE.name }).getByTestId('line-deal')).toHaveText('Deal price: $47.00 for this line');
    await expect(totalsRow(review, /^Total$/)).toHaveText(usd((await totalsOf(request, 'eastside', shopToken)).grand_total));
    await expectResultingPriceOnly(review);
    await noSidewaysScroll(shop);
  } finally {
    await shopper.close();
    // Put the store back as it was.
    await putDealDisplay(page, EASTSIDE, 'auto');
  }
  expect((await totalsOf(request, 'eastside', token)).grand_total).toBe(before.grand_total);
});

test('California: never the word "free", even for a $0.01 pre-roll; checkout shows each line’s deal and the deals’ discount', async ({ page, context, request }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await passGateByCookie(context, 'downtown', 'recreational', DEALS_PORT);
  // Of goods, never "free". (The totals' "Shipping Free" is about delivery, not a good: left out here.)
  const noFree = async (scope: Locator) =>
    expect((await scope.innerText()).replace(/\s+/g, ' ').replace(/\bShipping Free\b/, 'Shipping')).not.toMatch(/\bfree\b/i);

  await page.goto(storeUrl('downtown', '/sale', DEALS_PORT));
  await expect(page.getByRole('region', { name: 'On deal now' })).toContainText('Buy 2 pre-rolls, get 1 for $0.01');
  await noFree(page.getByRole('main'));

  await page.goto(storeUrl('downtown', PREROLL.path, DEALS_PORT));
  await expect(page.getByRole('list', { name: 'Deals' })).toContainText('Buy 2 pre-rolls, get 1 for $0.01');
  await noFree(page.getByRole('main'));

  await addToCart(page, storeUrl('downtown', PREROLL.path, DEALS_PORT), null, 3);
  await expect(page.getByRole('button', { name: 'Cart, 3 items' })).toBeVisible();
  const cart = await openCart(page);
  const line = cart.getByTestId('cart-line').filter({ hasText: PREROLL.name });
  const token = await cartToken(page);
  const t = await totalsOf(request, 'downtown', token);
  const item = t.items.find((i) => i.sku === PREROLL.sku)!;
  expect(item.discount_reason).toBe('Buy 2 pre-rolls, get 1 for $0.01');
  expect(item.deal_discount_amount).toBeGreaterThan(0);
  await expect(line.getByTestId('line-deal')).toHaveText(`Buy 2 pre-rolls, get 1 for $0.01: −${usd(item.deal_discount_amount!)}`);
  await expect(totalsRow(cart, 'Deals')).toHaveText(`−${usd(t.deal_discount)}`);
  await noFree(cart);

  await cart.getByRole('link', { name: 'Proceed to checkout' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  const review = page.getByRole('region', { name: '4. Review your order' });
  const reviewLine = review.getByTestId('review-line').filter({ hasText: PREROLL.name });
  await expect(reviewLine.getByTestId('line-deal')).toHaveText(`Buy 2 pre-rolls, get 1 for $0.01: −${usd(item.deal_discount_amount!)}`);
  const atCheckout = await totalsOf(request, 'downtown', token);
  await expect(totalsRow(review, 'Subtotal')).toHaveText(usd(atCheckout.subtotal));
  await expect(totalsRow(review, 'Deals')).toHaveText(`−${usd(atCheckout.deal_discount)}`);
  await expect(totalsRow(review, /^Total$/)).toHaveText(usd(atCheckout.grand_total));
  await noFree(review);
  await expectNoAxeViolations(page);
  await noSidewaysScroll(page);
  await review.screenshot({ path: info.outputPath('ca-checkout-review.png') });
});
