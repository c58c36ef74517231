import type { Locator } from '@playwright/test';
import { expect, expectNoAxeViolations, passGateByCookie, test } from '../fixtures/store.ts';
import { cartToken, notice, openCart, serverTotals, storeApi, totalsRow, usd } from '../fixtures/cart.ts';

const BUNDLE = '/p/BDL-NIGHT-IN/night-in-bundle';
const GROUPED = '/p/KIT-PRE-ROLL-SAMPLER/pre-roll-sampler';
const CONFIGURE = 'Please configure product bundle options and custom options.';

/** The first `$12.34` in a text, in cents. */
async function centsIn(locator: Locator): Promise<number> {
  const m = /\$(\d[\d,]*)\.(\d{2})/.exec((await locator.textContent()) ?? '');
  if (!m) throw new Error(`No price in: ${await locator.textContent()}`);
  return Number(m[1].replace(/,/g, '')) * 100 + Number(m[2]);
}

interface ServerLine {
  sku: string;
  qty: number;
  price: number;
  product_type: string;
  product_option: { extension_attributes: { bundle_options: { option_id: number; option_selections: number[] }[] } } | null;
}

test.describe('kits (recreational shopper)', () => {
  test.beforeEach(async ({ context }) => {
    await passGateByCookie(context, 'downtown', 'recreational');
  });

  test('a bundle: configure message, options priced as chosen, one line with its members and the server totals', async ({ page, request }) => {
    await page.goto(BUNDLE);
    await expect(page.getByRole('heading', { level: 1, name: 'Night In Bundle' })).toBeVisible();
    const flower = page.getByRole('group', { name: 'Flower' });
    const edible = page.getByRole('combobox', { name: 'Edible' });
    const extras = page.getByRole('group', { name: /^Extras/ });
    const price = page.getByTestId('product-price');
    const add = page.getByRole('button', { name: 'Add to cart' });
    await expect(add).toBeEnabled();

    // The listing's default choice, priced as the listing prices it.
    await expect(flower.getByRole('radio', { name: /Granddaddy Purple/ })).toBeChecked();
    await expect(extras.getByRole('checkbox', { name: /Hemp Wick/ })).toBeChecked();
    await expectNoAxeViolations(page);

    // Not configured: a required option left empty says so, and nothing is added.
    await edible.selectOption('');
    await expect(page.getByRole('alert').filter({ hasText: CONFIGURE })).toBeVisible();
    await add.click();
    await expect(page.getByRole('alert').filter({ hasText: CONFIGURE })).toBeVisible();
    await expect(edible).toBeFocused();
    await expect(page.getByRole('button', { name: 'Cart, 0 items' })).toBeVisible();
    await expectNoAxeViolations(page);

    // Configure, partly by keyboard: the other eighth, the chocolate, the cart instead of the wick.
    const before = await centsIn(price);
    await flower.getByRole('radio', { name: /Granddaddy Purple/ }).focus();
    await page.keyboard.press('ArrowDown');
    await expect(flower.getByRole('radio', { name: /Northern Lights/ })).toBeChecked();
    await edible.selectOption('BDL-NIGHT-IN-DARK-CHOCOLATE');
    await extras.getByRole('checkbox', { name: /Hemp Wick/ }).uncheck();
    await extras.getByRole('checkbox', { name: /Distillate Cart/ }).focus();
    await page.keyboard.press('Space');
    await expect(extras.getByRole('checkbox', { name: /Distillate Cart/ })).toBeChecked();
    await expect(page.getByRole('alert').filter({ hasText: CONFIGURE })).toHaveCount(0);

    const chosen =
      (await centsIn(flower.locator('label', { hasText: 'Northern Lights' }))) +
      (await centsIn(edible.locator('option', { hasText: 'Dark Chocolate' }))) +
      (await centsIn(extras.locator('label', { hasText: 'Distillate Cart' })));
    await expect(price).toContainText(usd(chosen));
    expect(chosen).not.toBe(before);

    await add.click();
    await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();

    // The server took the chosen options and priced the line as the page did.
    const token = await cartToken(page);
    const pulled = (await (await storeApi(request).get(`/api/cart/pull?cartId=${encodeURIComponent(token)}`)).json()) as { result: ServerLine[] };
    expect(pulled.result).toHaveLength(1);
    expect(pulled.result[0]).toMatchObject({ sku: 'BDL-NIGHT-IN', qty: 1, product_type: 'bundle', price: chosen });
    expect(pulled.result[0].product_option!.extension_attributes.bundle_options.map((o) => o.option_selections.length)).toEqual([1, 1, 1]);

    const cart = await openCart(page);
    const line = cart.getByRole('list', { name: 'Cart items' }).getByTestId('cart-line');
    await expect(line).toHaveCount(1);
    await expect(line).toContainText('Night In Bundle');
    const members = line.getByRole('list', { name: 'In Night In Bundle' }).getByRole('listitem');
    await expect(members).toHaveText([/Northern Lights/, /Dark Chocolate Bar/, /Indica Distillate Cart/]);
    await expect(cart.getByTestId('cart-totals').getByText('Total', { exact: true })).toBeVisible();
    const t = await serverTotals(request, token);
    expect(t.subtotal).toBe(chosen);
    await expect(totalsRow(cart, 'Subtotal')).toHaveText(usd(t.subtotal));
    // The store's named tax lines (issue 14): the excise line carries the whole excise.
    const excise = t.tax_lines.find((l) => l.kind === 'excise')!;
    expect(excise.amount).toBe(t.excise_tax_amount);
    await expect(totalsRow(cart, `${excise.title} (${excise.rate}%)`)).toHaveText(usd(t.excise_tax_amount));
    await expect(totalsRow(cart, /^Total$/)).toHaveText(usd(t.grand_total));
    await expectNoAxeViolations(page);

    // After a reload the line still has its choice: a quantity change keeps the options.
    await page.keyboard.press('Escape');
    await page.reload();
    const again = await openCart(page);
    await again.getByRole('button', { name: 'Increase quantity of Night In Bundle' }).click();
    await expect(again.getByRole('textbox', { name: 'Quantity of Night In Bundle' })).toHaveValue('2');
    await expect(async () => {
      const t2 = await serverTotals(request, token);
      expect(t2.subtotal).toBe(chosen * 2);
    }).toPass();
    await expect(totalsRow(again, 'Subtotal')).toHaveText(usd(chosen * 2));
  });

  test('a grouped set adds its chosen members as lines of their own', async ({ page, request }) => {
    await page.goto(GROUPED);
    await expect(page.getByRole('heading', { level: 1, name: 'Pre-Roll Sampler' })).toBeVisible();
    const set = page.getByRole('group', { name: 'In this set' });
    await expect(set.getByTestId('grouped-member')).toHaveCount(3);
    await expect(set.getByTestId('grouped-member').first()).toContainText('In stock');
    await expectNoAxeViolations(page);

    // Nothing chosen: said, and nothing added.
    for (const name of ['Blue Dream', 'OG Kush', 'Sour Diesel']) {
      const field = set.getByRole('textbox', { name: new RegExp(`^Quantity of ${name}`) });
      await field.fill('0');
      await field.press('Enter');
    }
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Choose a quantity of at least one product of this set.' })).toBeVisible();

    // Two Blue Dream and one Sour Diesel, by keyboard and by typing.
    await set.getByRole('button', { name: /^Increase quantity of Blue Dream/ }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const sour = set.getByRole('textbox', { name: /^Quantity of Sour Diesel/ });
    await sour.fill('1');
    await sour.press('Enter');
    const blue = await centsIn(set.getByTestId('grouped-member').filter({ hasText: 'Blue Dream' }));
    const diesel = await centsIn(set.getByTestId('grouped-member').filter({ hasText: 'Sour Diesel' }));
    await expect(set.getByTestId('grouped-total')).toHaveText(usd(blue * 2 + diesel));

    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cart, 3 items' })).toBeVisible();

    const cart = await openCart(page);
    const lines = cart.getByRole('list', { name: 'Cart items' }).getByTestId('cart-line');
    await expect(lines).toHaveCount(2);
    await expect(lines.nth(0)).toHaveAttribute('data-sku', 'KIT-SAMPLER-BLUE-DREAM');
    await expect(lines.nth(1)).toHaveAttribute('data-sku', 'KIT-SAMPLER-SOUR-DIESEL');
    await expect(cart.getByRole('textbox', { name: /^Quantity of Blue Dream Sampler/ })).toHaveValue('2');
    await expect(cart.getByTestId('cart-totals').getByText('Total', { exact: true })).toBeVisible();
    const t = await serverTotals(request, await cartToken(page));
    expect(t.subtotal).toBe(blue * 2 + diesel);
    await expect(totalsRow(cart, 'Subtotal')).toHaveText(usd(t.subtotal));
    await expect(totalsRow(cart, /^Total$/)).toHaveText(usd(t.grand_total));
    await expectNoAxeViolations(page);
  });
});
