import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { CART_MESSAGES as M } from './messages.ts';
import { catalogChanged, commerceApp, pin, Shopper } from '../../test-support/cart/testing.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const MEDICAL_GUMMIES = 'ED-POMEGRANATE-GUMMIES-500-MG';
const REC_VAPE = 'VP-DURBAN-POISON-DISPOSABLE-VAPE-0-3-G';

describeEachDatabase('cart endpoints', (getDb) => {
  let app: FastifyInstance;
  const db = () => getDb().db;
  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(db(), 1, JAR, { price: 2699, stock: 50 });
  });
  afterAll(async () => app?.close());

  describe('create', () => {
    it('answers an unguessable base64url token and defaults the licence to the store’s first', async () => {
      const s = new Shopper(app);
      const token = await s.createCart();
      expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
      const row = await db().selectFrom('carts').selectAll().where('token', '=', token).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ store_id: 1, license_type: 'recreational', order_type: 'pickup', coupon_code: null });
      const medical = new Shopper(app, 'wellness.localhost');
      await medical.createCart();
      expect((await db().selectFrom('carts').select('license_type').where('token', '=', medical.token).executeTakeFirstOrThrow()).license_type).toBe('medical');
    });

    it('refuses a licence the store does not offer, and a made-up one', async () => {
      const s = new Shopper(app, 'eastside.localhost');
      expect(await s.call('POST', '/api/cart/create', { license_type: 'medical' })).toMatchObject({ status: 400, code: 400, result: 'This store does not offer medical orders.' });
      expect(await s.call('POST', '/api/cart/create', { license_type: 'adult' })).toMatchObject({ status: 400, result: 'license_type must be recreational or medical' });
    });
  });

  describe('cart id and store', () => {
    it('answers 404 for an unknown cart and 400 without one', async () => {
      const s = new Shopper(app);
      expect(await s.call('GET', '/api/cart/pull?cartId=AAAAAAAAAAAAAAAAAAAAAAAA')).toMatchObject({ status: 404, result: M.cartNotFound });
      expect(await s.call('GET', '/api/cart/pull')).toMatchObject({ status: 400, result: M.cartIdRequired });
    });

    it('never reads or changes a cart of another store', async () => {
      const s = new Shopper(app);
      await s.createCart();
      await s.update({ sku: JAR, qty: 1 });
      const other = new Shopper(app, 'eastside.localhost');
      other.token = s.token;
      expect(await other.pull()).toMatchObject({ status: 404, result: M.cartNotFound });
      expect(await other.update({ sku: JAR, qty: 1 })).toMatchObject({ status: 404 });
      expect(await other.call('GET', `/api/cart/totals?cartId=${s.token}`)).toMatchObject({ status: 404 });
      expect((await s.pull()).result.map((i) => i.qty)).toEqual([1]);
    });

    it('serves a store opened by path prefix through ?storeCode= on a host that names another store', async () => {
      // localhost names the default store (downtown); the page under /wellness/ calls with storeCode=wellness.
      const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
        app.inject({ method, url, headers: { host: 'localhost:3000' }, payload: payload as any }).then((r) => ({ status: r.statusCode, body: r.json() }));
      const created = await call('POST', '/api/cart/create?storeCode=wellness', {});
      expect(created).toMatchObject({ status: 200, body: { meta: { license_type: 'medical' } } });
      const token = created.body.result as string;
      expect((await call('GET', `/api/cart/pull?cartId=${token}&storeCode=wellness`)).status).toBe(200);
      // Without it the call is the host's store, which does not have this cart.
      expect((await call('GET', `/api/cart/pull?cartId=${token}`)).status).toBe(404);
      // An unknown code changes nothing: still the host's store.
      expect((await call('GET', `/api/cart/pull?cartId=${token}&storeCode=atlantis`)).status).toBe(404);
      // A host that names a store is overridden the same way (a path prefix could name it too).
      const viaHost = await app.inject({ method: 'GET', url: `/api/cart/pull?cartId=${token}&storeCode=wellness`, headers: { host: 'eastside.localhost' } });
      expect(viaHost.statusCode).toBe(200);
    });

    it('takes the cart id from a Bearer header when no cartId is given', async () => {
      const s = new Shopper(app);
      await s.createCart();
      await s.update({ sku: JAR, qty: 2 });
      const r = await s.call('GET', '/api/cart/pull', undefined, { authorization: `Bearer ${s.token}` });
      expect(r.status).toBe(200);
      expect(r.result[0]).toMatchObject({ sku: JAR, qty: 2, quote_id: s.token });
    });
  });

  describe('update: bad input', () => {
    let s: Shopper;
    beforeAll(async () => {
      s = new Shopper(app);
      await s.createCart();
    });

    it.each([0, -1, 1.5, 'abc', null])('refuses qty %s', async (qty) => {
      expect(await s.update({ sku: JAR, qty })).toMatchObject({ status: 400, code: 400, result: M.qtyPositiveInteger });
    });

    it('refuses an unknown sku, a disabled product and a parent without a size', async () => {
      expect(await s.update({ sku: 'NOPE-123', qty: 1 })).toMatchObject({ status: 400, result: M.productNotFound('NOPE-123') });
      await pin(db(), 1, 'FL-OG-KUSH-1G', { status: 2 });
      expect(await s.update({ sku: 'FL-OG-KUSH-1G', qty: 1 })).toMatchObject({ status: 400, result: M.productUnavailable });
      expect(await s.update({ sku: 'FL-BLUE-DREAM', qty: 1 })).toMatchObject({ status: 400, result: M.noSuchConfiguration });
      expect(await s.update({ sku: 'FL-BLUE-DREAM', size: 99, qty: 1 })).toMatchObject({ status: 400, result: M.noSuchConfiguration });
      expect((await s.pull()).result).toEqual([]);
    });

    it('answers malformed JSON, a wrong quoteId and a missing sku with 4xx {code, result}', async () => {
      const res = await app.inject({ method: 'POST', url: `/api/cart/update?cartId=${s.token}`, headers: { host: 'downtown.localhost', 'content-type': 'application/json' }, payload: '{"cartItem": {' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 400, result: expect.any(String) });
      expect(await s.update({ sku: JAR, qty: 1, quoteId: 'someone-else' })).toMatchObject({ status: 400, result: M.quoteMismatch });
      expect(await s.call('POST', `/api/cart/update?cartId=${s.token}`, { cartItem: { qty: 1 } })).toMatchObject({ status: 400 });
      expect(await s.call('POST', `/api/cart/update?cartId=${s.token}`, { nothing: true })).toMatchObject({ status: 400 });
    });

    it('refuses a product without a price', async () => {
      const id = await pin(db(), 1, 'CN-JACK-HERER-LIVE-ROSIN-1-G', { stock: 10 });
      await db().deleteFrom('product_prices').where('product_id', '=', id).execute();
      await catalogChanged(db(), 1, [id]);
      expect(await s.update({ sku: 'CN-JACK-HERER-LIVE-ROSIN-1-G', qty: 1 })).toMatchObject({ status: 400, result: M.priceUnknown });
      await pin(db(), 1, 'CN-JACK-HERER-LIVE-ROSIN-1-G', { price: 7500 });
    });
  });

  describe('update: lines', () => {
    it('prices 3.5 g × 2, then changes the line to 7 g at its weight price', async () => {
      await pin(db(), 1, 'FL-BLUE-DREAM-8TH', { price: 5200, special: null, stock: 100 });
      await pin(db(), 1, 'FL-BLUE-DREAM-QTR', { price: 9500, special: null, stock: 100 });
      const parent = await pin(db(), 1, 'FL-BLUE-DREAM', {});
      await db().deleteFrom('qty_discounts').where('product_id', '=', parent).execute();
      await db().insertInto('qty_discounts').values([{ product_id: parent, qty_to_buy: 7, price_cents: 9000 }, { product_id: parent, qty_to_buy: 14, price_cents: 16100 }]).execute();
      await catalogChanged(db(), 1, [parent]);

      const s = new Shopper(app);
      await s.createCart();
      const added = await s.update({ sku: 'FL-BLUE-DREAM-8TH', qty: 2 });
      expect(added).toMatchObject({ status: 200, result: { sku: 'FL-BLUE-DREAM-8TH', qty: 2, price: 5200, row_total: 10400, size: 92, parentSku: 'FL-BLUE-DREAM', product_type: 'configurable' } });
      const changed = await s.update({ item_id: added.result.item_id, sku: 'FL-BLUE-DREAM', size: 93, qty: 1 });
      expect(changed.result).toMatchObject({ item_id: added.result.item_id, sku: 'FL-BLUE-DREAM-QTR', qty: 1, size: 93, price: 9000, original_price: 9500 });
      const lines = (await s.pull()).result;
      expect(lines).toHaveLength(1);
      expect((await s.totals()).result).toMatchObject({ subtotal: 9000, items: [{ sku: 'FL-BLUE-DREAM-QTR', price: 9000, thc_equivalent_grams: 7 }] });
    });

    it('adds to the line of the same sku, sets a line by item_id, merges a re-configured line into its twin', async () => {
      const s = new Shopper(app);
      await s.createCart();
      const a = await s.update({ sku: JAR, qty: 1 });
      const b = await s.update({ sku: JAR, qty: 2 });
      expect(b.result).toMatchObject({ item_id: a.result.item_id, qty: 3 });
      expect(await s.update({ item_id: a.result.item_id, qty: 1 })).toMatchObject({ result: { item_id: a.result.item_id, qty: 1 } });
      const eighth = await s.update({ sku: 'FL-BLUE-DREAM', size: 92, qty: 1 });
      await s.update({ sku: 'FL-BLUE-DREAM', size: 93, qty: 1 });
      // The 3.5 g line becomes 7 g: the cart already has 7 g, so the two become one line of 2.
      const merged = await s.update({ item_id: eighth.result.item_id, sku: 'FL-BLUE-DREAM', size: 93, qty: 1 });
      expect(merged.result).toMatchObject({ sku: 'FL-BLUE-DREAM-QTR', qty: 2 });
      expect((await s.pull()).result.map((i) => [i.sku, i.qty])).toEqual([[JAR, 1], ['FL-BLUE-DREAM-QTR', 2]]);
      expect(await s.update({ item_id: 999_999, qty: 1 })).toMatchObject({ status: 404 });
    });

    it('replaces the cart with cartItems, keeping item ids of lines it still has', async () => {
      const s = new Shopper(app);
      await s.createCart();
      const jar = await s.update({ sku: JAR, qty: 1 });
      await s.update({ sku: 'FL-BLUE-DREAM-8TH', qty: 1 });
      const r = await s.call('POST', `/api/cart/update?cartId=${s.token}`, { cartItems: [{ sku: JAR, qty: 4 }, { sku: 'CN-JACK-HERER-LIVE-ROSIN-1-G', qty: 1 }], order_type: 'delivery', burnCredits: 0 });
      expect(r.status).toBe(200);
      expect(r.result.map((i: { sku: string; qty: number }) => [i.sku, i.qty])).toEqual([[JAR, 4], ['CN-JACK-HERER-LIVE-ROSIN-1-G', 1]]);
      expect(r.result[0].item_id).toBe(jar.result.item_id);
      expect((await s.pull()).result).toHaveLength(2);
      expect((await s.totals()).result.shipping_incl_tax).toBe(500);
    });

    it('deletes by item_id and by sku; deleting again is not an error', async () => {
      const s = new Shopper(app);
      await s.createCart();
      const jar = await s.update({ sku: JAR, qty: 1 });
      await s.update({ sku: 'FL-BLUE-DREAM-8TH', qty: 1 });
      expect(await s.call('POST', `/api/cart/delete?cartId=${s.token}`, { cartItem: { item_id: jar.result.item_id, quoteId: s.token } })).toMatchObject({ status: 200, result: true });
      expect(await s.call('POST', `/api/cart/delete?cartId=${s.token}`, { cartItem: { sku: 'FL-BLUE-DREAM', quoteId: s.token } })).toMatchObject({ status: 200 });
      expect((await s.pull()).result).toEqual([]);
      expect(await s.call('POST', `/api/cart/delete?cartId=${s.token}`, { cartItem: { item_id: jar.result.item_id } })).toMatchObject({ status: 200 });
      expect(await s.call('POST', `/api/cart/delete?cartId=${s.token}`, { cartItem: {} })).toMatchObject({ status: 400, result: M.itemIdentifierRequired });
      expect(await s.call('POST', '/api/cart/delete?cartId=BBBBBBBBBBBBBBBBBBBBBBBB', { cartItem: { sku: JAR } })).toMatchObject({ status: 404 });
    });
  });

  describe('update: stock, licence, limit, points', () => {
    it('refuses more than the stock, saying how many are left', async () => {
      await pin(db(), 1, 'AC-BAMBOO-ROLLING-TRAY', { price: 1500, stock: 3 });
      const s = new Shopper(app);
      await s.createCart();
      expect(await s.update({ sku: 'AC-BAMBOO-ROLLING-TRAY', qty: 4 })).toMatchObject({ status: 400, result: 'Only 3 products of this type are available.' });
      await s.update({ sku: 'AC-BAMBOO-ROLLING-TRAY', qty: 2 });
      // The line would hold 4: the message says how many the stock holds in all.
      expect(await s.update({ sku: 'AC-BAMBOO-ROLLING-TRAY', qty: 2 })).toMatchObject({ status: 400, result: 'Only 3 products of this type are available.' });
      await pin(db(), 1, 'AC-BAMBOO-ROLLING-TRAY', { stock: 0, inStock: false });
      expect(await s.update({ sku: 'AC-BAMBOO-ROLLING-TRAY', qty: 1 })).toMatchObject({ status: 400, result: M.outOfStock });
    });

    it('checks gram stock as weight × qty', async () => {
      await pin(db(), 1, 'FL-BLUE-DREAM-HALF', { price: 17500, stock: 28 });
      const s = new Shopper(app, 'downtown.localhost');
      await s.createCart('medical');
      expect((await s.update({ sku: 'FL-BLUE-DREAM-HALF', qty: 2 })).status).toBe(200);
      expect(await s.update({ sku: 'FL-BLUE-DREAM-HALF', qty: 1 })).toMatchObject({ status: 400, result: 'Only 2 products of this type are available.' });
    });

    it('refuses to mix medical and recreational products', async () => {
      const rec = new Shopper(app);
      await rec.createCart('recreational');
      expect(await rec.update({ sku: MEDICAL_GUMMIES, qty: 1 })).toMatchObject({ status: 400, result: 'Medical and Recreational orders cannot be combined.' });
      const med = new Shopper(app);
      await med.createCart('medical');
      expect(await med.update({ sku: REC_VAPE, qty: 1 })).toMatchObject({ status: 400, result: 'Medical and Recreational orders cannot be combined.' });
      // Accounts: a medical-only product needs a logged-in customer with a valid card (users/accounts.test.ts).
      expect((await med.update({ sku: MEDICAL_GUMMIES, qty: 1 })).status).toBe(400);
    });

    it('refuses a change over the purchase limit with the exact message and leaves the cart unchanged', async () => {
      await pin(db(), 1, 'FL-BLUE-DREAM-OZ', { price: 31400, stock: 280 });
      await pin(db(), 1, 'FL-BLUE-DREAM-1G', { price: 1600, stock: 100 });
      const s = new Shopper(app);
      await s.createCart('recreational');
      expect((await s.update({ sku: 'FL-BLUE-DREAM-OZ', qty: 1 })).status).toBe(200);
      const before = (await s.pull()).result;
      const over = await s.update({ sku: 'FL-BLUE-DREAM-1G', qty: 1 });
      expect(over).toMatchObject({ status: 400, code: 400, result: 'Your cart contains 0.5 g more cannabis than can be in a single order. Please remove 0.5 g from your cart.' });
      expect((await s.pull()).result).toEqual(before);
      // Accessories are not cannabis: they never count.
      expect((await s.update({ sku: JAR, qty: 3 })).status).toBe(200);
    });

    it('holds the limit against concurrent adds to one cart (the cart row is locked)', async () => {
      await pin(db(), 1, 'FL-BLUE-DREAM-OZ', { price: 31400, stock: 2800 });
      const s = new Shopper(app);
      await s.createCart('recreational');
      const answers = await Promise.all(Array.from({ length: 6 }, () => s.update({ sku: 'FL-BLUE-DREAM-OZ', qty: 1 })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 400).every((a) => a.result === 'Your cart contains 27.5 g more cannabis than can be in a single order. Please remove 27.5 g from your cart.')).toBe(true);
      expect((await s.pull()).result.map((i) => i.qty)).toEqual([1]);
    });

    it('loses no update when many adds to one cart arrive together (grouped into shared commits on SQLite)', async () => {
      const s = new Shopper(app);
      await s.createCart();
      const answers = await Promise.all(Array.from({ length: 20 }, () => s.update({ sku: JAR, qty: 1 })));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect((await s.pull()).result.map((i) => i.qty)).toEqual([20]);
      // Each answer saw the line as it was after its own add: 1, 2, …, 20 in some order.
      expect(answers.map((a) => a.result.qty).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('takes whole reward points only, and a guest has none', async () => {
      const s = new Shopper(app);
      await s.createCart();
      expect(await s.update({ sku: JAR, qty: 1 }, { burnCredits: 1.5 })).toMatchObject({ status: 400, result: M.pointsDecimals });
      expect(await s.update({ sku: JAR, qty: 1 }, { burnCredits: 100 })).toMatchObject({ status: 400, result: 'You have no reward points to redeem.' });
      expect((await s.pull()).result).toEqual([]);
      expect((await s.update({ sku: JAR, qty: 1 }, { burnCredits: 0 })).status).toBe(200);
    });
  });

  describe('kits and options', () => {
    it('expands a grouped product into its members', async () => {
      const s = new Shopper(app);
      await s.createCart();
      const r = await s.update({ sku: 'KIT-PRE-ROLL-SAMPLER', qty: 1 });
      expect(r.status).toBe(200);
      expect(r.result.map((i: { sku: string }) => i.sku)).toEqual(['KIT-SAMPLER-BLUE-DREAM', 'KIT-SAMPLER-OG-KUSH', 'KIT-SAMPLER-SOUR-DIESEL']);
      // Again: the member lines grow, within one request too.
      expect((await s.update({ sku: 'KIT-PRE-ROLL-SAMPLER', qty: 1 })).result.map((i: { qty: number }) => i.qty)).toEqual([2, 2, 2]);
      const twice = await s.call('POST', `/api/cart/update?cartId=${s.token}`, { cartItems: [{ sku: 'KIT-PRE-ROLL-SAMPLER', qty: 1 }, { sku: 'KIT-PRE-ROLL-SAMPLER', qty: 2 }] });
      expect(twice.result.map((i: { qty: number }) => i.qty)).toEqual([3, 3, 3]);
    });

    it('prices a bundle from its chosen selections and refuses a selection of another option', async () => {
      const s = new Shopper(app);
      await s.createCart();
      const links = await db().selectFrom('product_links').innerJoin('products', 'products.id', 'product_links.product_id').select(['product_links.id', 'product_links.linked_product_sku', 'product_links.bundle_option_id']).where('products.sku', '=', 'BDL-NIGHT-IN').where('products.store_id', '=', 1).orderBy('product_links.id').execute();
      const sku = (s: string) => links.find((l) => l.linked_product_sku === s)!;
      await pin(db(), 1, 'BDL-NIGHT-IN-NL-8TH', { price: 3700, stock: 50 });
      await pin(db(), 1, 'BDL-NIGHT-IN-DARK-CHOCOLATE', { price: 2100, stock: 50 });
      await pin(db(), 1, 'BDL-NIGHT-IN-VAPE-CART', { price: 3100, stock: 50 });
      const options = [
        { option_id: sku('BDL-NIGHT-IN-NL-8TH').bundle_option_id, option_selections: [sku('BDL-NIGHT-IN-NL-8TH').id] },
        { option_id: sku('BDL-NIGHT-IN-DARK-CHOCOLATE').bundle_option_id, option_selections: [sku('BDL-NIGHT-IN-DARK-CHOCOLATE').id] },
        { option_id: sku('BDL-NIGHT-IN-VAPE-CART').bundle_option_id, option_selections: [sku('BDL-NIGHT-IN-VAPE-CART').id] },
      ];
      const r = await s.update({ sku: 'BDL-NIGHT-IN', qty: 1, product_option: { extension_attributes: { bundle_options: options } } });
      expect(r).toMatchObject({ status: 200, result: { sku: 'BDL-NIGHT-IN', product_type: 'bundle', price: 3700 + 2100 + 3100 } });
      const wrong = [{ option_id: options[0].option_id, option_selections: [sku('BDL-NIGHT-IN-VAPE-CART').id] }];
      expect(await s.update({ sku: 'BDL-NIGHT-IN', qty: 1, product_option: { extension_attributes: { bundle_options: wrong } } })).toMatchObject({ status: 400, result: M.configureOptions });
    });

    it('adds custom option prices and keeps differently configured lines apart', async () => {
      const product = await pin(db(), 1, 'AC-ALUMINUM-GRINDER-4-PIECE', { price: 2000, special: null, stock: 20 });
      const options = await db().selectFrom('custom_options').selectAll().where('product_id', '=', product).orderBy('option_id').execute();
      const wrap = options.find((o) => o.type === 'drop_down')!;
      const values = await db().selectFrom('custom_option_values').selectAll().where('option_id', '=', wrap.option_id).orderBy('position').execute();
      const percent = values.find((v) => v.price_type === 'percent')!;
      const s = new Shopper(app);
      await s.createCart();
      const plain = await s.update({ sku: 'AC-ALUMINUM-GRINDER-4-PIECE', qty: 1 });
      const wrapped = await s.update({ sku: 'AC-ALUMINUM-GRINDER-4-PIECE', qty: 1, product_option: { extension_attributes: { custom_options: [{ option_id: wrap.option_id, option_value: String(percent.option_type_id) }] } } });
      expect(plain.result.price).toBe(2000);
      expect(wrapped.result.price).toBe(2000 + Math.round((2000 * (percent.price_percent ?? 0)) / 100));
      expect(wrapped.result.item_id).not.toBe(plain.result.item_id);
      expect(await s.update({ sku: 'AC-ALUMINUM-GRINDER-4-PIECE', qty: 1, product_option: { extension_attributes: { custom_options: [{ option_id: wrap.option_id, option_value: '424242' }] } } })).toMatchObject({ status: 400, result: M.configureOptions });
    });
  });
});

describe('cart schemas', () => {
  it('reads numeric strings as numbers', async () => {
    const { cartItemSchema } = await import('./schemas.ts');
    expect(cartItemSchema.parse({ sku: 'A', qty: '2', item_id: '7' })).toMatchObject({ qty: 2, item_id: 7 });
  });
});
