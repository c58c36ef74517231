/**
 * Issue 28: "The offline catalogue carries the active deals so an offline cart's estimate matches
 * what the server charges when the order is sent; the server's answer is the one that counts."
 * On the deals server, with the service worker allowed: a cart filled offline (a vape under "$5 off
 * every Verdant Labs vape" and three eighths under "Any 3 eighths for $90") shows the deals estimated
 * from the catalogue snapshot; back online, the server's totals for the same lines charge exactly the
 * discount and the total (taxes by the store's tax lines) the estimate showed, and the cart then
 * shows the server's figures.
 */
import { DEALS_PORT, expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';
import { addToCart, cartToken, openCart, serverTotals, totalsRow, usd } from '../fixtures/cart.ts';

test.use({ serviceWorkers: 'allow', viewport: { width: 390, height: 844 } });
test.describe.configure({ timeout: 120_000 });

const VAPE = { path: '/p/VP-DURBAN-POISON-DISPOSABLE-VAPE-0-3-G/durban-poison-disposable-vape-0-3-g', name: 'Durban Poison Disposable Vape 0.3 g' };
const EIGHTH = { path: '/p/FL-BLUE-DREAM/blue-dream', name: 'Blue Dream' };

test('a cart filled offline estimates its deals; back online the server charges the same discount', async ({ page, context, request }, info) => {
  await passGateByCookie(context, 'downtown', 'recreational', DEALS_PORT);
  const snapshot = page.waitForResponse((r) => r.url().includes('/api/catalog/snapshot?format=2') && r.status() === 200);
  await page.goto(storeUrl('downtown', '/', DEALS_PORT));
  await snapshot;
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);

  // The product pages, visited once online (pages never opened say they are not available offline).
  for (const p of [VAPE, EIGHTH]) {
    await page.goto(storeUrl('downtown', p.path, DEALS_PORT));
    await expect(page.getByRole('heading', { level: 1, name: p.name })).toBeVisible();
  }

  await context.setOffline(true);
  await addToCart(page, storeUrl('downtown', VAPE.path, DEALS_PORT), null, 1);
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
  await addToCart(page, storeUrl('downtown', EIGHTH.path, DEALS_PORT), /^3\.5 g/, 3);
  await expect(page.getByRole('button', { name: 'Cart, 4 items' })).toBeVisible();
  let cart = await openCart(page);
  // The estimate: each line's deal, and the deals' discount in the totals.
  await expect(totalsRow(cart, /^Total/)).toBeVisible();
  await expect(cart.getByTestId('cart-totals').getByText('Total (estimate)', { exact: true })).toBeVisible();
  await expect(cart.getByTestId('cart-line').filter({ hasText: VAPE.name }).getByTestId('line-deal')).toHaveText(/^Deal price: −\$\d+\.\d\d$/);
  await expect(cart.getByTestId('cart-line').filter({ hasText: EIGHTH.name }).getByTestId('line-deal')).toBeVisible();
  const estimatedDeals = (await totalsRow(cart, 'Deals').innerText()).trim();
  const estimatedSubtotal = (await totalsRow(cart, 'Subtotal').innerText()).trim();
  const estimatedTotal = (await totalsRow(cart, /^Total/).innerText()).trim();
  const eighthEstimate = (await cart.getByTestId('cart-line').filter({ hasText: EIGHTH.name }).getByTestId('line-deal').innerText()).trim();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: info.outputPath('offline-estimate.png') });
  await page.keyboard.press('Escape');

  // Back online: the cart reaches the server, whose totals are shown and charge the same discount.
  await context.setOffline(false);
  await page.reload();
  cart = await openCart(page);
  await expect(cart.getByTestId('cart-totals').getByText('Total', { exact: true })).toBeVisible();
  const token = await cartToken(page);
  const t = await serverTotals(request, token, DEALS_PORT);
  const server = t as typeof t & { deal_discount: number; items: { sku: string; deal_discount_amount?: number }[] };
  expect(server.items.map((i) => i.sku)).toEqual(expect.arrayContaining(['VP-DURBAN-POISON-DISPOSABLE-VAPE-0-3-G', expect.stringMatching(/^FL-BLUE-DREAM/)]));
  expect(`−${usd(server.deal_discount)}`).toBe(estimatedDeals);
  await expect(totalsRow(cart, 'Deals')).toHaveText(estimatedDeals);
  await expect(totalsRow(cart, /^Total$/)).toHaveText(usd(server.grand_total));
  // The lines before deals, and the total with the store's tax lines (the snapshot carries them), as estimated.
  expect(usd(server.subtotal)).toBe(estimatedSubtotal);
  expect(usd(server.grand_total)).toBe(estimatedTotal);
  // The eighths' line: the deals' own words now (the group deal, with any order deal sharing the line), and the estimated amount.
  const eighthLine = cart.getByTestId('cart-line').filter({ hasText: EIGHTH.name }).getByTestId('line-deal');
  await expect(eighthLine).toContainText('Any 3 eighths for $90');
  await expect(eighthLine).toHaveText(new RegExp(`: ${eighthEstimate.replace(/^Deal price: /, '').replace(/[$.]/g, '\\$&')}$`));
  await page.screenshot({ path: info.outputPath('online-server.png') });
});
