import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, pin, Shopper } from '../../test-support/cart/testing.ts';

const ROSIN = 'CN-JACK-HERER-LIVE-ROSIN-1-G';
const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const url = (skus: string, extra = '') => `/api/products/render-list?skus=${skus}&currencyCode=USD&storeId=1${extra}`;

describeEachDatabase('GET /api/products/render-list', (getDb) => {
  let app: FastifyInstance;
  let s: Shopper;
  const db = () => getDb().db;
  beforeAll(async () => {
    app = await commerceApp(getDb());
    s = new Shopper(app);
    await pin(db(), 1, ROSIN, { price: 3500, special: null, tiers: [] });
    await pin(db(), 1, JAR, { price: 2699, special: null, tiers: [] });
    await pin(db(), 1, 'FL-BLUE-DREAM-8TH', { price: 5200, special: null, tiers: [], stock: 50 });
    await pin(db(), 1, 'FL-BLUE-DREAM-QTR', { price: 9500, special: null, tiers: [], stock: 50 });
    const parent = await pin(db(), 1, 'FL-BLUE-DREAM', {});
    await db().deleteFrom('qty_discounts').where('product_id', '=', parent).execute();
    await db().insertInto('qty_discounts').values({ product_id: parent, qty_to_buy: 7, price_cents: 9000 }).execute();
  });
  afterAll(async () => app?.close());

  it('prices skus from the database with per-unit taxes and lists unknown skus', async () => {
    const r = await s.call('GET', url(`${ROSIN},${JAR},NOPE`));
    expect(r.status).toBe(200);
    expect(r.result.unknown_skus).toEqual(['NOPE']);
    // $35: excise 15 % = $5.25, sales 8.75 % of $40.25 = $3.52. The jar pays sales tax only.
    expect(r.result.items).toEqual([
      expect.objectContaining({ sku: ROSIN, status: 1, price: 3500, original_price: 3500, special_price: null, excise_tax: 525, sales_tax: 352, discounts: [], configurable_children: [] }),
      expect.objectContaining({ sku: JAR, price: 2699, excise_tax: 0, sales_tax: 236 }),
    ]);
  });

  it('gives a flower child its weight price and the parent its sizes', async () => {
    const r = await s.call('GET', url('FL-BLUE-DREAM,FL-BLUE-DREAM-QTR'));
    const [parent, qtr] = r.result.items;
    expect(parent.discounts).toEqual([{ TYPE: 'qty_discount', qty_to_buy: 7, price: 9000 }]);
    expect(parent.configurable_children).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sku: 'FL-BLUE-DREAM-8TH', size: 92, price: 5200, original_price: 5200 }),
        expect.objectContaining({ sku: 'FL-BLUE-DREAM-QTR', size: 93, price: 9000, original_price: 9500, excise_tax: 1350 }),
      ]),
    );
    expect(qtr).toMatchObject({ sku: 'FL-BLUE-DREAM-QTR', size: 93, price: 9000, original_price: 9500 });
  });

  it('honours a special price only inside its window and below the price', async () => {
    await pin(db(), 1, ROSIN, { price: 3500, special: { price: 3000, from: '2026-06-10T00:00:00.000Z', to: '2026-06-20' } });
    expect((await s.call('GET', url(ROSIN))).result.items[0]).toMatchObject({ price: 3000, original_price: 3500, special_price: 3000 });
    await pin(db(), 1, ROSIN, { price: 3500, special: { price: 3000, from: null, to: '2026-06-14' } });
    expect((await s.call('GET', url(ROSIN))).result.items[0]).toMatchObject({ price: 3500, special_price: null });
    await pin(db(), 1, ROSIN, { price: 3500, special: { price: 3900 } });
    expect((await s.call('GET', url(ROSIN))).result.items[0]).toMatchObject({ price: 3500, special_price: null });
    await pin(db(), 1, ROSIN, { price: 3500, special: null });
  });

  it('applies a group’s tier price at quantity 1 only, and a group’s own price rows', async () => {
    await pin(db(), 1, ROSIN, { tiers: [{ qty: 1, price: 3300 }, { qty: 3, price: 2000 }] });
    expect((await s.call('GET', url(ROSIN))).result.items[0].price).toBe(3300);
    await pin(db(), 1, ROSIN, { tiers: [] });
    const id = await pin(db(), 1, ROSIN, {});
    await db().insertInto('product_prices').values({ product_id: id, customer_group_id: 2, price_cents: 3200, special_price_cents: null, special_from_date: null, special_to_date: null }).execute();
    expect((await s.call('GET', url(ROSIN, '&userGroupId=2'))).result.items[0].price).toBe(3200);
    expect((await s.call('GET', url(ROSIN))).result.items[0].price).toBe(3500);
  });

  it('prices kits: grouped at the sum of its members, bundle at its default selections', async () => {
    const r = await s.call('GET', url('KIT-PRE-ROLL-SAMPLER,BDL-NIGHT-IN'));
    const [grouped, bundle] = r.result.items;
    expect(grouped.price).toBeGreaterThan(0);
    expect(bundle.price).toBeGreaterThan(0);
    expect(bundle.excise_tax).toBeGreaterThan(0);
  });

  it('answers for the store named by storeId', async () => {
    const east = await s.call('GET', `/api/products/render-list?skus=${JAR}&currencyCode=USD&storeId=2`);
    const eastPrice = await db().selectFrom('product_prices').innerJoin('products', 'products.id', 'product_prices.product_id').select('price_cents').where('products.store_id', '=', 2).where('products.sku', '=', JAR).executeTakeFirst();
    if (eastPrice) expect(east.result.items[0].price).toBe(eastPrice.price_cents);
    else expect(east.result.unknown_skus).toEqual([JAR]);
  });

  it.each([
    ['an unknown store', '/api/products/render-list?skus=A&currencyCode=USD&storeId=9', 404, 'Store 9 does not exist'],
    ['another currency', '/api/products/render-list?skus=A&currencyCode=EUR&storeId=1', 400, 'currencyCode must be USD for this store'],
    ['no skus', '/api/products/render-list?currencyCode=USD&storeId=1', 400, 'skus is required'],
    ['empty skus', '/api/products/render-list?skus=,&currencyCode=USD&storeId=1', 400, 'skus is required'],
    ['a non-numeric storeId', '/api/products/render-list?skus=A&currencyCode=USD&storeId=abc', 400, 'storeId must be a number'],
    ['too many skus', `/api/products/render-list?skus=${Array.from({ length: 101 }, (_, i) => `S${i}`).join(',')}&currencyCode=USD&storeId=1`, 400, 'At most 100 skus per request'],
  ])('refuses %s', async (_what, path, status, message) => {
    expect(await s.call('GET', path)).toMatchObject({ status, code: status, result: message });
  });
});
