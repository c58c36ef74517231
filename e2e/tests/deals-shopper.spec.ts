/**
 * Deals as the shopper sees them (issue 28), on a phone (390×844) and a desktop (1280×800), with the
 * demo store's demo deals: /sale and the home page list what is on deal now; a card carries the Deal
 * badge, the deal's words and the price after it; the product page shows the same price; in the cart
 * the line names the deal, a nudge says what is missing for a group deal, and the totals shown are the
 * server's (the line's discount is the page's saving, to the cent). axe clean; nothing scrolls sideways.
 */
import type { Page } from '@playwright/test';
import { DEALS_PORT, expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';
import { addToCart, cartToken, openCart, serverTotals, storeApi, totalsRow, usd } from '../fixtures/cart.ts';

// A simple product under a per-item deal ("$5 off every Verdant Labs vape": $19.00 → $14.00).
const VAPE = { path: '/p/VP-DURBAN-POISON-DISPOSABLE-VAPE-0-3-G/durban-poison-disposable-vape-0-3-g', name: 'Durban Poison Disposable Vape 0.3 g', words: '$5 off every Verdant Labs vape' };
// An eighth: two of them are one short of "Any 3 eighths for $90".
const EIGHTH = '/p/FL-BLUE-DREAM/blue-dream';

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
] as const;

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'nothing scrolls sideways').toBeLessThanOrEqual(0);
}

for (const size of SIZES) {
  test.describe(`deals for the shopper (${size.name})`, () => {
    test.use({ viewport: size.viewport });
    test.setTimeout(180_000);

    test.beforeEach(async ({ context }) => {
      await passGateByCookie(context, 'downtown', 'recreational', DEALS_PORT);
    });

    test('sale page and card, product page price, cart line, nudge and totals', async ({ page, request }) => {
      // /sale: what is on deal now, and the products under a deal.
      await page.goto(storeUrl('downtown', '/sale', DEALS_PORT));
      const dealsNow = page.getByRole('region', { name: 'On deal now' });
      await expect(dealsNow.getByRole('listitem').filter({ hasText: 'Any 3 eighths for $90' })).toBeVisible();
      await expect(dealsNow.getByRole('listitem').filter({ hasText: VAPE.words })).toBeVisible();
      // The California store never says "free", even for a $0.01 reward.
      await expect(dealsNow).not.toContainText(/\bfree\b/i);
      const card = page.getByRole('region', { name: 'Products on deal' }).getByRole('article').filter({ hasText: VAPE.name });
      await expect(card.getByRole('list', { name: 'Highlights' }).getByText('Deal', { exact: true })).toBeVisible();
      await expect(card).toContainText(VAPE.words);
      await expect(card).toContainText('Deal price $14.00');
      await expect(card.locator('s')).toHaveText('$19.00');
      await expectNoAxeViolations(page);
      await noSidewaysScroll(page);
      await page.screenshot({ path: test.info().outputPath(`sale-${size.name}.png`), fullPage: false });

      // Home: the deals live now, and the specials list led by products on a deal.
      await page.goto(storeUrl('downtown', '/', DEALS_PORT));
      await expect(page.getByRole('region', { name: 'On deal now' })).toContainText('Any 3 eighths for $90');
      await expect(page.locator('section[aria-labelledby="home-specials-title"]').getByRole('article').first().getByText('Deal', { exact: true })).toBeVisible();
      await noSidewaysScroll(page);

      // The product page: the same price after the deal, and the deal's words.
      await page.goto(storeUrl('downtown', VAPE.path, DEALS_PORT));
      await expect(page.getByTestId('product-price')).toContainText('Deal price $14.00');
      await expect(page.getByRole('list', { name: 'Deals' })).toContainText(VAPE.words);
      await expectNoAxeViolations(page);
      await noSidewaysScroll(page);
      await page.screenshot({ path: test.info().outputPath(`product-${size.name}.png`), fullPage: false });

      // Add it: the cart's line names its deal, and its discount is the page's saving.
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
      let cart = await openCart(page);
      const vapeLine = cart.getByTestId('cart-line').filter({ hasText: VAPE.name });
      await expect(vapeLine.getByTestId('line-deal')).toHaveText(`${VAPE.words}: −$5.00`);
      // The figures are the server's totals for this cart.
      await expect(cart.getByTestId('cart-totals').getByText('Total', { exact: true })).toBeVisible();
      const token = await cartToken(page);
      const t = await serverTotals(request, token, DEALS_PORT);
      const full = (await (await storeApi(request, 'downtown', DEALS_PORT).get(`/api/cart/totals?cartId=${encodeURIComponent(token)}`)).json()).result as {
        items: { sku: string; price: number; deal_discount_amount: number; discount_reason: string | null }[];
        deals: { nudges: { text: string }[] };
      };
      expect(full.items).toEqual([expect.objectContaining({ sku: 'VP-DURBAN-POISON-DISPOSABLE-VAPE-0-3-G', price: 1900, deal_discount_amount: 500, discount_reason: VAPE.words })]);
      expect(t.subtotal - t.discount_amount).toBe(1400);
      await expect(totalsRow(cart, 'Subtotal')).toHaveText(usd(t.subtotal));
      // The deals' discount on a row of its own (all of this cart's discount: no coupon).
      await expect(totalsRow(cart, 'Deals')).toHaveText(`−${usd(t.discount_amount)}`);
      await expect(totalsRow(cart, 'Discount')).toHaveCount(0);
      await expect(totalsRow(cart, /^Total$/)).toHaveText(usd(t.grand_total));
      expect(t.grand_total).toBe(t.subtotal - t.discount_amount + t.excise_tax_amount + t.sales_tax_amount + t.shipping_incl_tax);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: test.info().outputPath(`cart-${size.name}.png`), fullPage: false });
      await page.keyboard.press('Escape');

      // Two eighths: one short of "Any 3 eighths for $90", and a nudge says so.
      await addToCart(page, storeUrl('downtown', EIGHTH, DEALS_PORT), /^3\.5 g/, 2);
      await expect(page.getByRole('button', { name: 'Cart, 3 items' })).toBeVisible();
      cart = await openCart(page);
      await expect(cart.getByTestId('deal-nudges')).toContainText('Add 1 more eighth to get 3 for $90.00');
      await expect(cart.getByTestId('cart-line').filter({ hasText: VAPE.name }).getByTestId('line-deal')).toContainText(VAPE.words);
      const two = await serverTotals(request, token, DEALS_PORT);
      await expect(totalsRow(cart, /^Total$/)).toHaveText(usd(two.grand_total));
      await expectNoAxeViolations(page);
      await page.screenshot({ path: test.info().outputPath(`cart-nudge-${size.name}.png`), fullPage: false });

      // A third eighth: the group deal applies, each eighth's line names it, the eighths' nudge is gone.
      await cart.getByRole('textbox', { name: /^Quantity of Blue Dream/ }).fill('3');
      await cart.getByRole('textbox', { name: /^Quantity of Blue Dream/ }).press('Enter');
      const eighthLine = cart.getByTestId('cart-line').filter({ hasText: 'Blue Dream' });
      await expect(eighthLine.getByTestId('line-deal')).toContainText('Any 3 eighths for $90');
      await expect(cart.getByTestId('deal-notes')).not.toContainText('more eighth');
      const after = await serverTotals(request, token, DEALS_PORT);
      await expect(totalsRow(cart, /^Total$/)).toHaveText(usd(after.grand_total));
    });
  });
}
