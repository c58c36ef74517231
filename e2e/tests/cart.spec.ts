import { overLimitMessage } from '@verdant/domain';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';
import { addToCart, cartToken, notice, openCart, serverTotals, storeApi, totalsRow, usd } from '../fixtures/cart.ts';

const BLUE_DREAM = '/p/FL-BLUE-DREAM/blue-dream';

test.describe('cart (recreational shopper)', () => {
  test.beforeEach(async ({ context }) => {
    await passGateByCookie(context, 'downtown', 'recreational');
  });

  test('add 3.5 g ×2, change it to 7 g, apply WELCOME10: itemised totals equal the server’s', async ({ page, request }) => {
    await addToCart(page, BLUE_DREAM, /^3\.5 g/, 2);
    await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
    await expect(page.locator('[data-notifications]').getByRole('button', { name: 'Proceed to checkout' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cart, 2 items' })).toBeVisible();

    const cart = await openCart(page);
    const line = cart.getByRole('list', { name: 'Cart items' }).getByRole('listitem');
    await expect(line).toHaveCount(1);
    await expect(line).toContainText('Size 3.5 g (1/8 oz)');
    await expect(line.locator('img')).toHaveAttribute('src', '/img/150/150/catalog/product/FL-BLUE-DREAM.svg');

    await cart.getByRole('button', { name: 'Change size of Blue Dream 3.5 g (1/8 oz)' }).click();
    await cart.getByRole('group', { name: /New size for Blue Dream/ }).getByRole('radio', { name: /^7 g/ }).check();
    await cart.getByRole('button', { name: 'Update size' }).click();
    await expect(line).toContainText('Size 7 g (1/4 oz)');
    await expect(cart.getByRole('textbox', { name: 'Quantity of Blue Dream 7 g (1/4 oz)' })).toHaveValue('2');
    await expect(cart.getByText('THC-equivalent: 14 g of 28.5 g')).toBeVisible();

    await cart.getByRole('textbox', { name: 'Coupon code' }).fill('NOPE');
    await cart.getByRole('button', { name: 'Apply coupon' }).click();
    await expect(cart.getByText("You've entered an incorrect coupon code. Please try again.")).toBeVisible();
    await expect(cart.getByRole('textbox', { name: 'Coupon code' })).toHaveAttribute('aria-invalid', 'true');
    await cart.getByRole('textbox', { name: 'Coupon code' }).fill('welcome10');
    await cart.getByRole('button', { name: 'Apply coupon' }).click();
    await expect(cart.getByText('Coupon WELCOME10 applied', { exact: true })).toBeVisible();

    // The figures shown are the server's totals for this very cart (not the estimate).
    await expect(cart.getByTestId('cart-totals').getByText('Total', { exact: true })).toBeVisible();
    const t = await serverTotals(request, await cartToken(page));
    expect(t.coupon_code).toBe('WELCOME10');
    expect(t.discount_amount).toBeGreaterThan(0);
    expect(t.excise_tax_amount).toBeGreaterThan(0);
    expect(t.sales_tax_amount).toBeGreaterThan(0);
    await expect(totalsRow(cart, 'Subtotal')).toHaveText(usd(t.subtotal));
    await expect(totalsRow(cart, 'Discount (WELCOME10)')).toHaveText(`−${usd(t.discount_amount)}`);
    // Each of the store's named tax lines separately (issue 14): the demo store's excise, then its sales tax.
    expect(t.tax_lines.map((l) => [l.code, l.amount])).toEqual([
      ['ca-excise', t.excise_tax_amount],
      ['sales', t.sales_tax_amount],
    ]);
    for (const l of t.tax_lines)
      await expect(totalsRow(cart, `${l.title} (${l.rate}%)`)).toHaveText(usd(l.amount));
    await expect(totalsRow(cart, 'Shipping')).toHaveText('Free');
    await expect(totalsRow(cart, /^Total$/)).toHaveText(usd(t.grand_total));
    expect(t.grand_total).toBe(t.subtotal - t.discount_amount + t.excise_tax_amount + t.sales_tax_amount + t.shipping_incl_tax);

    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(cart).toBeHidden();
    await expect(page.getByRole('button', { name: 'Cart, 2 items' })).toBeFocused();
  });

  test('the purchase limit: adding past 28.5 g is refused with the exact message', async ({ page }) => {
    await addToCart(page, BLUE_DREAM, /^28 g/, 1);
    await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
    await page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: /^3\.5 g/ }).check();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('alert').filter({ hasText: overLimitMessage(3) })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
    const cart = await openCart(page);
    await expect(cart.getByText('THC-equivalent: 28 g of 28.5 g')).toBeVisible();
    await expect(cart.getByRole('listitem')).toHaveCount(1);
  });

  test('a size’s address landing late (slow connection) does not close the cart the shopper just opened', async ({ page }) => {
    await page.goto(storeUrl('downtown', BLUE_DREAM));
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    // Choosing a size rewrites the page's address (REPLACE) and loads its data; hold that answer back.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let seen = false;
    await page.route(/\.data(\?|$)/, async (route) => {
      seen = true;
      await held;
      await route.continue();
    });
    await page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: /^7 g/ }).check();
    await expect.poll(() => seen).toBe(true);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
    const cart = await openCart(page);
    release();
    await expect(page).toHaveURL(/\/p\/FL-BLUE-DREAM\/blue-dream\/FL-BLUE-DREAM-QTR$/);
    await expect(cart).toBeVisible();
    await expect(cart.getByRole('list', { name: 'Cart items' }).getByRole('listitem')).toHaveCount(1);
    await page.unroute(/\.data(\?|$)/);
  });

  test('two tabs show the same cart without a reload', async ({ context, page }) => {
    const other = await context.newPage();
    await other.goto(storeUrl('downtown', '/menu'));
    await expect(other.getByRole('button', { name: 'Cart, 0 items' })).toBeVisible();
    await addToCart(page, BLUE_DREAM, /^1 g/, 3);
    await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
    await expect(other.getByRole('button', { name: 'Cart, 3 items' })).toBeVisible();
    // A change in the second tab shows in the first.
    const cart = await openCart(other);
    await cart.getByRole('button', { name: 'Decrease quantity of Blue Dream 1 g' }).click();
    await expect(page.getByRole('button', { name: 'Cart, 2 items' })).toBeVisible();
    const token = await cartToken(page);
    expect(await cartToken(other)).toBe(token);
  });

  test('removing asks first; clearing empties the cart and checkout is then refused', async ({ page }) => {
    await addToCart(page, BLUE_DREAM, /^1 g/, 1);
    await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
    const cart = await openCart(page);
    await cart.getByRole('button', { name: 'Remove Blue Dream 1 g' }).click();
    const confirm = cart.getByRole('group', { name: 'Remove Blue Dream 1 g?' });
    await expect(confirm.getByRole('button', { name: 'Yes, remove' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await expect(cart.getByRole('listitem')).toHaveCount(1);
    await cart.getByRole('button', { name: 'Clear cart' }).click();
    await cart.getByRole('button', { name: 'Yes, clear cart' }).click();
    await expect(cart.getByText('Your cart is empty.')).toBeVisible();
    await expect(cart.getByRole('button', { name: 'Proceed to checkout' })).toHaveAttribute('aria-disabled', 'true');
    await expect(cart.getByText('Shopping cart is empty, so checkout cannot be entered.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cart, 0 items' })).toBeVisible();
  });
});

test.describe('cart (medical shopper)', () => {
  test.beforeEach(async ({ context }) => {
    await passGateByCookie(context, 'downtown', 'medical');
  });

  test('a quantity the store refuses rolls back visibly, with the store’s reason', async ({ page, request }) => {
    await addToCart(page, BLUE_DREAM, /^3\.5 g/, 2);
    await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
    const stock = (await (await storeApi(request).get('/api/stock/check?sku=FL-BLUE-DREAM-8TH&qty=1')).json()).result as { available_qty: number };
    const cart = await openCart(page);
    const qty = cart.getByRole('textbox', { name: 'Quantity of Blue Dream 3.5 g (1/8 oz)' });
    await qty.fill(String(stock.available_qty + 1));
    await qty.press('Enter');
    await expect(cart.getByRole('alert').filter({ hasText: `Only ${stock.available_qty} products of this type are available.` })).toBeVisible();
    await expect(qty).toHaveValue('2');
    await expect(page.getByRole('button', { name: 'Cart, 2 items' })).toBeVisible();
  });
});
