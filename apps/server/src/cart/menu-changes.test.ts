/**
 * Open carts after a menu change (issue 13, "A change reaches everything"): a cart never keeps a
 * price, so the next read prices the line as the menu now says; a line whose stock ran out (or no
 * longer covers its quantity) stays in the cart, still priced, marked with the spec's stock-sync
 * copy (§4 'Out of stock!', §8 'Only N products of this type are available.'), and the order cannot
 * be placed with it ('Some of the ordered products are not available!'). The changes come through
 * the menu import engine, as a POS file would bring them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CART_COPY } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { MenuFile } from '../../test-support/catalog/menu-fixture.ts';
import { commerceApp, orderBody, pin, REFERENCE_DATE, Shopper } from '../../test-support/cart/testing.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const ROSIN = 'CN-JACK-HERER-LIVE-ROSIN-1-G';

describeEachDatabase('open carts after a menu change', (getDb) => {
  let app: FastifyInstance;
  let menu: MenuFile;
  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(getDb().db, 1, JAR, { price: 2000, special: null, tiers: [], stock: 10 });
    await pin(getDb().db, 1, ROSIN, { price: 3500, special: null, tiers: [], stock: 50 });
    menu = await new MenuFile(
      getDb().db,
      1,
      (s, ids) => app.catalog.catalogChanged(s, ids),
      () => REFERENCE_DATE,
    ).load();
  });
  afterAll(async () => app?.close());

  const line = (items: any[], sku: string) => items.find((i) => i.sku === sku);

  it('re-prices a line on the next read after a price change, totals included', async () => {
    const s = new Shopper(app);
    await s.createCart();
    expect((await s.update({ sku: JAR, qty: 2 })).status).toBe(200);
    expect(line((await s.pull()).result, JAR)).toMatchObject({ price: 2000, row_total: 4000 });
    expect(line((await s.pull()).result, JAR).errors).toBeUndefined();

    await menu.change(JAR, { price: '24.50' });
    expect(line((await s.pull()).result, JAR)).toMatchObject({ price: 2450, row_total: 4900 });
    const totals = (await s.totals()).result;
    expect(totals.items.find((i: any) => i.sku === JAR)).toMatchObject({ price: 2450, row_total: 4900 });
    expect(totals.stock_problems).toEqual([]);
  });

  it('marks a line whose item sold out, keeps it, and refuses the order with it', async () => {
    const s = new Shopper(app);
    const token = await s.createCart();
    await s.update({ sku: JAR, qty: 2 });
    await s.update({ sku: ROSIN, qty: 1 });

    await menu.change(JAR, { stock: '0' });
    const items = (await s.pull()).result;
    expect(items).toHaveLength(2);
    expect(line(items, JAR)).toMatchObject({ qty: 2, errors: { stock: CART_COPY.itemOutOfStock } });
    expect(line(items, ROSIN).errors).toBeUndefined();
    const totals = (await s.totals()).result;
    expect(totals.stock_problems).toEqual([expect.objectContaining({ sku: JAR, qty: 2, error: CART_COPY.itemOutOfStock })]);
    expect(totals.unavailable_items).toEqual([]);

    const refused = await s.saveOrder(
      orderBody({
        cart_id: token,
        products: [
          { sku: JAR, qty: 2 },
          { sku: ROSIN, qty: 1 },
        ],
      }),
    );
    expect(refused).toMatchObject({ status: 409, result: CART_COPY.productsNotAvailable });

    // Back in stock (one piece only): the line says how many are left, then is fine at that quantity.
    await menu.change(JAR, { stock: '1' });
    expect(line((await s.pull()).result, JAR).errors).toEqual({ stock: CART_COPY.onlyAvailable(1) });
    const held = line((await s.pull()).result, JAR);
    const lowered = await s.update({ item_id: held.item_id, sku: JAR, qty: 1 });
    expect(lowered.status, JSON.stringify(lowered.result)).toBe(200);
    expect(line((await s.pull()).result, JAR).qty).toBe(1);
    expect(line((await s.pull()).result, JAR).errors).toBeUndefined();
    expect((await s.totals()).result.stock_problems).toEqual([]);
  });
});
