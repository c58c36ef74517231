import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, pin, Shopper } from '../../test-support/cart/testing.ts';

const EIGHTH = 'FL-BLUE-DREAM-8TH';
const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';

describeEachDatabase('stock endpoints', (getDb) => {
  let app: FastifyInstance;
  let s: Shopper;
  const db = () => getDb().db;
  beforeAll(async () => {
    app = await commerceApp(getDb());
    s = new Shopper(app);
    await pin(db(), 1, EIGHTH, { stock: 10.5, lowStock: 3.5, manageStock: true });
    await pin(db(), 1, JAR, { stock: 9, lowStock: 2, manageStock: true });
  });
  afterAll(async () => app?.close());

  it.each([
    [1, 'ok'],
    [2, 'volatile'],
    [3, 'volatile'],
    [4, 'out_of_stock'],
  ])('checks gram stock as weight × qty: 3.5 g × %i of 10.5 g is %s', async (qty, status) => {
    const r = await s.call('GET', `/api/stock/check?sku=${EIGHTH}&product_type=simple&product_size=92&qty=${qty}`);
    expect(r).toMatchObject({ status: 200, result: { sku: EIGHTH, qty: 10.5, uom: 'g', size: 92, available_qty: 3, status, is_in_stock: status !== 'out_of_stock' } });
  });

  it('answers for the child of a size when asked about its configurable parent', async () => {
    const r = await s.call('GET', '/api/stock/check?sku=FL-BLUE-DREAM&product_type=configurable&product_size=92&qty=1');
    expect(r.result).toMatchObject({ sku: EIGHTH, qty: 10.5, status: 'ok' });
    expect(await s.call('GET', '/api/stock/check?sku=FL-BLUE-DREAM&product_type=configurable&product_size=99')).toMatchObject({ status: 404 });
  });

  it('says out of stock for a disabled product, and for stock marked out', async () => {
    await pin(db(), 1, 'AC-BAMBOO-ROLLING-TRAY', { stock: 10, status: 2 });
    expect((await s.call('GET', '/api/stock/check?sku=AC-BAMBOO-ROLLING-TRAY')).result.status).toBe('out_of_stock');
    await pin(db(), 1, 'AC-BAMBOO-ROLLING-TRAY', { stock: 10, status: 1, inStock: false });
    expect((await s.call('GET', '/api/stock/check?sku=AC-BAMBOO-ROLLING-TRAY')).result).toMatchObject({ status: 'out_of_stock', available_qty: 0 });
  });

  it('refuses bad input', async () => {
    expect(await s.call('GET', '/api/stock/check')).toMatchObject({ status: 400, result: 'sku is required' });
    expect(await s.call('GET', `/api/stock/check?sku=${JAR}&qty=0`)).toMatchObject({ status: 400, result: 'Quantity must be positive integer' });
    expect(await s.call('GET', '/api/stock/check?sku=NOPE')).toMatchObject({ status: 404 });
  });

  it('lists up to 15 skus with their configurable children, unknown skus left out', async () => {
    const r = await s.call('GET', `/api/stock/list?skus=${JAR},FL-BLUE-DREAM,NOPE`);
    expect(r.status).toBe(200);
    const skus = r.result.map((i: { sku: string }) => i.sku);
    expect(skus[0]).toBe(JAR);
    expect(skus).toContain('FL-BLUE-DREAM');
    expect(skus).toContain(EIGHTH);
    expect(skus).not.toContain('NOPE');
    expect(r.result.find((i: { sku: string }) => i.sku === JAR)).toMatchObject({ qty: 9, status: 'ok', available_qty: 9 });
    const sixteen = Array.from({ length: 16 }, (_, i) => `S${i}`).join(',');
    expect(await s.call('GET', `/api/stock/list?skus=${sixteen}`)).toMatchObject({ status: 400, result: 'At most 15 skus per request' });
    expect(await s.call('GET', '/api/stock/list')).toMatchObject({ status: 400 });
  });

  it('reads the stock of the request’s store only', async () => {
    const east = new Shopper(app, 'eastside.localhost');
    const r = await east.call('GET', `/api/stock/list?skus=${JAR}`);
    const row = await db().selectFrom('stock').innerJoin('products', 'products.id', 'stock.product_id').select(['stock.qty', 'products.id']).where('products.store_id', '=', 2).where('products.sku', '=', JAR).executeTakeFirst();
    if (row) expect(r.result[0]).toMatchObject({ product_id: row.id, qty: row.qty });
    else expect(r.result).toEqual([]);
  });
});
