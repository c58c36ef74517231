/**
 * Issue 11: the product page shows what the cart charges for the shopper's own customer group.
 * A guest (and every group without prices of its own) sees the store's default price and its
 * "Buy 3+ / Buy 5+" tier offers; a customer of the demo's members' group (seed/pricing.ts
 * DEMO_MEMBER_GROUP_ID: a member price from the first unit, its own "buy 3") sees those once the
 * page knows who is logged in, and the cart charges exactly that, at the quantity chosen. The
 * server-rendered HTML stays the guest's (it is output-cached and shared). Carts only: no order is
 * placed, so no stock is taken.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { createCustomer, loginByPhone, newCustomer } from '../fixtures/account.ts';
import { cartToken, notice, usd } from '../fixtures/cart.ts';
import { PORT, expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

/** The demo's members' group (apps/server/src/seed/pricing.ts DEMO_MEMBER_GROUP_ID). */
const MEMBER_GROUP = 3;

const require = createRequire(import.meta.url);
type Db = {
  prepare(sql: string): { get(...args: unknown[]): unknown; all(...args: unknown[]): unknown[]; run(...args: unknown[]): unknown };
  close(): void;
};
function withDb<T>(fn: (db: Db) => T, readonly = true): T {
  const Sqlite = require('better-sqlite3') as new (file: string, opts?: object) => Db;
  const db = new Sqlite(path.join(process.env.E2E_DATA_DIR!, 'verdant.sqlite'), { timeout: 5000, readonly });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

interface Tiered {
  sku: string;
  path: string;
  price: number;
  /** qty → unit price, per group. */
  guest: Map<number, number>;
  member: Map<number, number>;
}

/**
 * A recreational simple product of the downtown store, in stock, without a special, whose members'
 * group has tiers of its own (the seed gives a quarter of pre-rolls and edibles tiers).
 */
function tieredProduct(): Tiered {
  return withDb((db) => {
    const row = db
      .prepare(
        `select p.id, p.sku, p.slug, pp.price_cents as price from products p
         join product_prices pp on pp.product_id = p.id and pp.customer_group_id = 0
         join stock s on s.product_id = p.id
         where p.store_id = 1 and p.parent_id is null and p.type_id = 'simple' and p.status = 1 and p.visibility = 4
           and p.license_type in ('recreational', 'both') and s.is_in_stock = 1 and s.qty >= 10 and pp.special_price_cents is null
           and exists (select 1 from tier_prices t where t.product_id = p.id and t.customer_group_id = ?)
           and not exists (select 1 from product_prices g where g.product_id = p.id and g.customer_group_id <> 0)
         order by p.id limit 1`,
      )
      .get(MEMBER_GROUP) as { id: number; sku: string; slug: string; price: number } | undefined;
    if (!row) throw new Error('The demo has no product with member tier prices');
    const tiers = db
      .prepare('select customer_group_id as g, qty, price_cents as price from tier_prices where product_id = ? order by qty')
      .all(row.id) as {
      g: number;
      qty: number;
      price: number;
    }[];
    const of = (g: number) => new Map(tiers.filter((t) => t.g === g).map((t) => [t.qty, t.price]));
    return {
      sku: row.sku,
      path: `/p/${encodeURIComponent(row.sku)}/${encodeURIComponent(row.slug)}`,
      price: row.price,
      guest: of(0),
      member: of(MEMBER_GROUP),
    };
  });
}

/** The cart lines the server holds, as the customer (or guest) who owns the cart sees them. */
async function cartLines(
  request: APIRequestContext,
  token: string,
  bearer?: string,
): Promise<{ sku: string; qty: number; price: number }[]> {
  const res = await request.get(`http://127.0.0.1:${PORT}/api/cart/pull?cartId=${encodeURIComponent(token)}`, {
    headers: { host: `downtown.localhost:${PORT}`, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { result: { sku: string; qty: number; price: number }[] }).result;
}

async function chooseQty(page: Page, qty: number): Promise<void> {
  const field = page.getByRole('textbox', { name: /^Quantity of / });
  await field.fill(String(qty));
  await field.press('Enter');
}

const headline = (page: Page) => page.getByTestId('product-price').locator('.font-bold');
const offers = (page: Page) => page.getByRole('list', { name: 'Quantity offers' }).getByRole('listitem');

test('a guest sees the store’s price and its tier offers, and the cart charges them', async ({ page, context, request }) => {
  const p = tieredProduct();
  const [three, five] = [p.guest.get(3)!, p.guest.get(5)!];
  expect(three).toBeLessThan(p.price);
  await passGateByCookie(context, 'downtown', 'recreational');
  await page.goto(storeUrl('downtown', p.path));
  await expect(page.getByRole('button', { name: 'Add to cart' })).toBeEnabled();
  await expect(headline(page)).toHaveText(usd(p.price));
  await expect(offers(page)).toHaveText([`Buy 3+: ${usd(three)} each`, `Buy 5+: ${usd(five)} each`]);

  await chooseQty(page, 3);
  await expect(headline(page)).toHaveText(usd(three));
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  const token = await cartToken(page);
  await expect.poll(async () => (await cartLines(request, token)).map((l) => [l.sku, l.qty, l.price])).toEqual([[p.sku, 3, three]]);
});

test('a customer of the members’ group sees the member price and its own tier offer once logged in, and the cart charges exactly that', async ({
  page,
  context,
  request,
}) => {
  const p = tieredProduct();
  const member = p.member.get(1)!;
  const memberThree = p.member.get(3)!;
  expect(member).toBeLessThan(p.price);
  expect(memberThree).not.toBe(p.guest.get(3));

  const customer = newCustomer({ firstname: 'Mina', lastname: 'Member' });
  const { token: bearer } = await createCustomer(request, customer);
  // The store puts the customer in its members' group (a staff decision; here straight in the database).
  withDb((db) => db.prepare('update customers set group_id = ? where email = ?').run(MEMBER_GROUP, customer.email), false);
  const mine = await request.get(`http://127.0.0.1:${PORT}/api/user/me`, {
    headers: { host: `downtown.localhost:${PORT}`, authorization: `Bearer ${bearer}` },
  });
  expect(((await mine.json()) as { result: { group_id: number } }).result.group_id).toBe(MEMBER_GROUP);

  await passGateByCookie(context, 'downtown', 'recreational');
  // The server-rendered page is the guest's, for every shopper (it is cached and shared).
  const html = await (
    await request.get(`http://127.0.0.1:${PORT}${p.path}`, {
      headers: { host: `downtown.localhost:${PORT}`, cookie: 'verdant_age=1; verdant_license=recreational' },
    })
  ).text();
  expect(html).toContain(`Buy 3+: ${usd(p.guest.get(3)!)} each`);

  await page.goto(storeUrl('downtown', '/'));
  await loginByPhone(page, customer.phone);
  await page.goto(storeUrl('downtown', p.path));
  await expect(headline(page)).toHaveText(usd(member));
  await expect(page.getByTestId('product-price')).toContainText(usd(p.price)); // the regular price, struck through
  await expect(offers(page)).toHaveText([`Buy 3+: ${usd(memberThree)} each`]);

  await chooseQty(page, 3);
  await expect(headline(page)).toHaveText(usd(memberThree));
  await expect(page.getByTestId('product-price')).toContainText('Each, when buying 3');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(notice(page, 'Product has been added to the cart!')).toBeVisible();
  const token = await cartToken(page);
  await expect
    .poll(async () => (await cartLines(request, token, bearer)).map((l) => [l.sku, l.qty, l.price]))
    .toEqual([[p.sku, 3, memberThree]]);
  await expectNoAxeViolations(page);
});
