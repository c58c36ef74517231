import { describe, expect, it, vi } from 'vitest';
import { CATALOG_MESSAGES, overLimitMessage, type Store } from '@verdant/domain';
import { ApiError, NetworkError } from '../api/envelope.ts';
import { CART_MESSAGES } from '../lib/cart-messages.ts';
import { createCartStore, type CartStoreOptions } from './cart-store.ts';
import type { NewCartItem } from './cart-items.ts';
import { FakeCartServer } from '../../test-support/state/fake-cart-server.ts';
import { channelPair, memoryStorage, sharedLock } from '../../test-support/state/test-doubles.ts';

const limits = {
  dispensarySettings: { license_recreational: true, license_medical: true, compliance_settings: { limits: { recreational: { per_transaction: { usable_max: 28.5 } } }, hidden_categories: [] } },
} as unknown as Pick<Store, 'dispensarySettings'>;

const eighth: NewCartItem = {
  sku: 'FL-BD-8TH', qty: 2, type_id: 'configurable', parentSku: 'FL-BD', size: 92, name: 'Blue Dream 3.5 g', image: null, path: '/p/FL-BD/blue-dream',
  price: 5200, tax_class_id: 2, uom: 'g', canna_type: 1, unit_weight_grams_equivelent: null, license_type: 'both',
};
const quarter: NewCartItem = { ...eighth, sku: 'FL-BD-QTR', size: 93, qty: 1, name: 'Blue Dream 7 g', price: 9000 };
const gummies: NewCartItem = { ...eighth, sku: 'ED-GUM', size: null, qty: 1, type_id: 'simple', parentSku: null, name: 'Gummies', license_type: 'medical', uom: 'ea' };

function setup(server = new FakeCartServer(), extra: Partial<CartStoreOptions> = {}) {
  const refused: string[] = [];
  const store = createCartStore({
    storeCode: 'downtown', transport: server.transport(), storage: memoryStorage(), channel: null, lock: null,
    licenseType: () => 'recreational', limits, onRefused: (r) => refused.push(...r.map((x) => x.message)), ...extra,
  });
  return { server, store, refused, cart: () => store.getState() };
}

describe('cart store: adding (spec §4)', () => {
  it('creates the server cart with the first line, links it, and fetches totals', async () => {
    const { server, cart } = setup();
    await cart().load();
    expect(server.calls).toEqual([]);
    expect(await cart().addItem(eighth)).toEqual({ kind: 'added', warning: null });
    expect(server.calls).toEqual(['stockCheck', 'create', 'pull', 'update', 'totals']);
    expect(server.lines()).toEqual(['FL-BD-8TH×2']);
    expect(cart().items[0]).toMatchObject({ sku: 'FL-BD-8TH', qty: 2, prev_qty: 2, server_item_id: 1, server_cart_id: cart().token });
    expect(cart().totals?.subtotal).toBe(2000);
  });

  it('takes a price the store changed since, and tells the shopper; the first confirmation is not a change', async () => {
    const repriced: string[] = [];
    const { server, cart } = setup(undefined, { onRepriced: (lines) => repriced.push(...lines.map((l) => `${l.name} ${l.before}→${l.after}`)) });
    server.prices.set('FL-BD-8TH', 4800);
    await cart().addItem(eighth);
    expect(cart().items[0].price).toBe(4800);
    expect(repriced).toEqual([]);
    await cart().syncNow({ force: true });
    expect(repriced).toEqual([]);
    server.prices.set('FL-BD-8TH', 4400);
    const report = await cart().syncNow({ force: true });
    expect(report.repriced).toEqual([{ key: expect.any(String), name: 'Blue Dream 3.5 g', before: 4800, after: 4400 }]);
    expect(repriced).toEqual(['Blue Dream 3.5 g 4800→4400']);
    expect(cart().items[0]).toMatchObject({ price: 4400, qty: 2 });
  });

  it('grows an existing line ("updated") without ever doubling it on the server', async () => {
    const { server, cart } = setup();
    await cart().addItem(eighth);
    expect(await cart().addItem({ ...eighth, qty: 1 })).toEqual({ kind: 'updated', warning: null });
    expect(server.lines()).toEqual(['FL-BD-8TH×3']);
    expect(cart().items).toHaveLength(1);
  });

  it('refuses before the server: unknown price, licence mixing, the purchase limit, out of stock', async () => {
    const { server, cart } = setup();
    expect(await cart().addItem({ ...eighth, price: -1 })).toEqual({ kind: 'refused', message: CATALOG_MESSAGES.priceUnknown });
    expect(await cart().addItem(gummies)).toEqual({ kind: 'refused', message: CART_MESSAGES.licenseMix });
    const ounceAndHalf = { ...eighth, sku: 'FL-BD-OZ', size: 95, qty: 1 };
    await cart().addItem(ounceAndHalf);
    expect(await cart().addItem({ ...eighth, qty: 1 })).toEqual({ kind: 'refused', message: overLimitMessage(3) });
    server.stock.set('FL-X', 'out_of_stock');
    expect(await cart().addItem({ ...eighth, sku: 'FL-X', size: 91, qty: 1, canna_type: 4 })).toEqual({ kind: 'refused', message: CATALOG_MESSAGES.outOfStock });
    server.stock.set('FL-V', 'volatile');
    const volatile = await cart().addItem({ ...eighth, sku: 'FL-V', size: 91, qty: 1, canna_type: 4 });
    expect(volatile).toEqual({ kind: 'added', warning: CATALOG_MESSAGES.unsafeQuantity });
    expect(cart().items.map((i) => i.sku)).toEqual(['FL-BD-OZ', 'FL-V']);
  });
});

describe('cart store: refusals roll back visibly', () => {
  it('restores the confirmed quantity, or removes a line the server never had, with its message', async () => {
    const { server, cart } = setup();
    await cart().addItem(eighth);
    server.maxQty = 2;
    expect(await cart().setQty('FL-BD-8TH|92', 3)).toEqual({ kind: 'refused', message: 'Only 2 products of this type are available.' });
    expect(cart().items[0].qty).toBe(2);
    expect(await cart().addItem(quarter)).toEqual({ kind: 'added', warning: null });
    server.maxQty = 0;
    const refused = await cart().addItem({ ...quarter, sku: 'FL-BD-HALF', size: 94, qty: 1 });
    expect(refused).toEqual({ kind: 'refused', message: 'Only 0 products of this type are available.' });
    expect(cart().items.map((i) => `${i.sku}×${i.qty}`)).toEqual(['FL-BD-8TH×2', 'FL-BD-QTR×1']);
  });

  it('keeps every line when the store cannot be reached, and pushes each once later (a lost answer is not doubled)', async () => {
    const { server, cart } = setup();
    await cart().addItem(eighth);
    server.failNext.update = ['lost-answer'];
    expect(await cart().setQty('FL-BD-8TH|92', 4)).toEqual({ kind: 'done' });
    expect(cart().sync).toBe('unreachable');
    expect(cart().items[0].qty).toBe(4);
    server.failNext.pull = [new NetworkError()];
    await cart().addItem(quarter);
    expect(cart().items.map((i) => i.sku)).toEqual(['FL-BD-8TH', 'FL-BD-QTR']);
    await cart().syncNow();
    expect(cart().sync).toBe('idle');
    expect(server.lines()).toEqual(['FL-BD-8TH×4', 'FL-BD-QTR×1']);
  });
});

describe('cart store: connection (spec §4 Cart connection)', () => {
  it('starts a new guest cart when the stored one is gone, then disables sync after the bypass maximum', async () => {
    const { server, cart } = setup();
    await cart().addItem(eighth);
    const first = cart().token;
    server.carts.delete(first!);
    await cart().syncNow({ force: true });
    expect(cart().token).not.toBe(first);
    expect(server.lines(cart().token!)).toEqual(['FL-BD-8TH×2']);
    expect(cart().bypassCounter).toBe(0);

    server.failNext.pull = [new ApiError(401, 'Unauthorized')];
    server.failNext.create = [new ApiError(500, 'boom'), new ApiError(401, 'Unauthorized')];
    server.failNext.update = [];
    await cart().syncNow({ force: true });
    expect(cart().sync).toBe('disabled');
    expect(cart().token).toBeNull();
    // The cart keeps working on this device.
    expect(await cart().addItem(quarter)).toMatchObject({ kind: 'added' });
    expect(cart().items.map((i) => i.sku)).toEqual(['FL-BD-8TH', 'FL-BD-QTR']);
  });

  it('skips a sync whose items hash did not change; a stored token syncs at load', async () => {
    const storage = memoryStorage();
    const { server, cart } = setup(undefined, { storage });
    await cart().addItem(eighth);
    server.calls = [];
    await cart().syncNow();
    expect(server.calls).toEqual([]);
    const again = setup(server, { storage });
    await again.cart().load();
    expect(server.calls).toEqual(['pull', 'stockList']);
    expect(again.cart().items[0]).toMatchObject({ sku: 'FL-BD-8TH', info: { stock: 'In stock!' } });
  });

  it('adds a line another device put in the server cart, and deletes it in checkout instead', async () => {
    let inCheckout = false;
    const { server, cart } = setup(undefined, { inCheckout: () => inCheckout });
    await cart().addItem(eighth);
    server.addLine(cart().token!, 'ED-OTHER');
    await cart().syncNow({ force: true });
    expect(cart().items.map((i) => i.sku)).toEqual(['FL-BD-8TH', 'ED-OTHER']);
    await cart().removeItem('ED-OTHER|');
    expect(server.lines()).toEqual(['FL-BD-8TH×2']);
    inCheckout = true;
    server.addLine(cart().token!, 'ED-THIRD');
    await cart().syncNow({ force: true });
    expect(cart().items.map((i) => i.sku)).toEqual(['FL-BD-8TH']);
    expect(server.lines()).toEqual(['FL-BD-8TH×2']);
  });
});

describe('cart store: configure, remove, clear, coupon', () => {
  it('changes a line to another size, merging into a line of that size', async () => {
    const { server, cart } = setup();
    await cart().addItem(eighth);
    await cart().addItem(quarter);
    expect(await cart().configureItem('FL-BD-8TH|92', { sku: 'FL-BD-QTR', size: 93, price: 9000, name: 'Blue Dream 7 g', image: null })).toEqual({ kind: 'done' });
    expect(cart().items.map((i) => `${i.sku}×${i.qty}`)).toEqual(['FL-BD-QTR×3']);
    expect(server.lines()).toEqual(['FL-BD-QTR×3']);
    await cart().configureItem('FL-BD-QTR|93', { sku: 'FL-BD-8TH', size: 92, price: 5200, name: 'Blue Dream 3.5 g', image: null });
    expect(server.lines()).toEqual(['FL-BD-8TH×3']);
    expect(cart().items[0]).toMatchObject({ sku: 'FL-BD-8TH', server_item_id: server.carts.get(cart().token!)![0].item_id });
  });

  it('removes and clears on the server too; applies and refuses coupons with the server message', async () => {
    const { server, cart } = setup();
    await cart().addItem(eighth);
    await cart().addItem(quarter);
    expect(await cart().applyCoupon('nope')).toEqual({ kind: 'refused', message: CART_MESSAGES.incorrectCoupon });
    expect(await cart().applyCoupon(' welcome10 ')).toEqual({ kind: 'done' });
    expect(cart().totals?.discount_amount).toBe(300);
    await cart().removeItem('FL-BD-8TH|92');
    expect(server.lines()).toEqual(['FL-BD-QTR×1']);
    await cart().clear();
    expect(server.lines()).toEqual([]);
    expect(cart().items).toEqual([]);
  });
});

describe('cart store: two tabs', () => {
  it('shows a change in the other tab without that tab pushing it again', async () => {
    const server = new FakeCartServer();
    const storage = memoryStorage();
    const [a, b] = channelPair();
    const lock = sharedLock();
    const tab1 = setup(server, { storage, channel: a, lock });
    const tab2 = setup(server, { storage, channel: b, lock });
    await Promise.all([tab1.cart().load(), tab2.cart().load()]);
    await tab1.cart().addItem(eighth);
    await new Promise((r) => setTimeout(r, 0));
    expect(tab2.cart().items.map((i) => `${i.sku}×${i.qty}`)).toEqual(['FL-BD-8TH×2']);
    expect(tab2.cart().token).toBe(tab1.cart().token);
    server.calls = [];
    await tab2.cart().syncNow();
    expect(server.calls).toEqual([]);
    await tab2.cart().setQty('FL-BD-8TH|92', 3);
    await new Promise((r) => setTimeout(r, 0));
    expect(tab1.cart().items[0].qty).toBe(3);
    expect(server.calls.filter((c) => c === 'update')).toHaveLength(1);
    expect(server.lines()).toEqual(['FL-BD-8TH×3']);
  });
});

describe('cart store: login and logout (spec §4 Login; VSF #5743 doubled quantities)', () => {
  it('merges the guest cart into the customer cart by sku and size, never summing — login, logout, login, reload', async () => {
    const server = new FakeCartServer();
    const storage = memoryStorage();
    // The customer's open cart from an earlier visit, on the server.
    server.carts.set('customer-cart-000001', [{ item_id: 900, sku: 'FL-BD-QTR', qty: 1, size: 93 }]);
    const { cart } = setup(server, { storage });
    await cart().load();
    await cart().addItem(eighth);
    const guestToken = cart().token;

    server.customerCart = 'customer-cart-000001';
    expect((await cart().switchOwner('recreational')).refused).toEqual([]);
    expect(cart().token).toBe('customer-cart-000001');
    expect(cart().token).not.toBe(guestToken);
    expect(cart().items.map((i) => `${i.sku}×${i.qty}`).sort()).toEqual(['FL-BD-8TH×2', 'FL-BD-QTR×1']);
    expect(server.lines('customer-cart-000001').sort()).toEqual(['FL-BD-8TH×2', 'FL-BD-QTR×1']);

    // Logout: the cart is cleared and disconnected here; the server keeps the customer's cart.
    const before = server.calls.length;
    cart().disconnect();
    expect(cart().items).toEqual([]);
    expect(cart().token).toBeNull();
    expect(server.calls.length).toBe(before);

    // Login again: the customer's lines come back once.
    await cart().switchOwner('recreational');
    expect(cart().items.map((i) => `${i.sku}×${i.qty}`).sort()).toEqual(['FL-BD-8TH×2', 'FL-BD-QTR×1']);
    expect(server.lines('customer-cart-000001').sort()).toEqual(['FL-BD-8TH×2', 'FL-BD-QTR×1']);

    // A reload (new page, same IndexedDB) syncs again and still doubles nothing.
    const reloaded = setup(server, { storage });
    await reloaded.cart().load();
    expect(reloaded.cart().items.map((i) => `${i.sku}×${i.qty}`).sort()).toEqual(['FL-BD-8TH×2', 'FL-BD-QTR×1']);
    expect(server.lines('customer-cart-000001').sort()).toEqual(['FL-BD-8TH×2', 'FL-BD-QTR×1']);
  });

  it('the same line on both sides keeps the shopper’s quantity (not the sum)', async () => {
    const server = new FakeCartServer();
    server.carts.set('customer-cart-000002', [{ item_id: 901, sku: 'FL-BD-8TH', qty: 1, size: 92 }]);
    const { cart } = setup(server);
    await cart().addItem(eighth);
    server.customerCart = 'customer-cart-000002';
    await cart().switchOwner('recreational');
    expect(cart().items.map((i) => `${i.sku}×${i.qty}`)).toEqual(['FL-BD-8TH×2']);
    expect(server.lines('customer-cart-000002')).toEqual(['FL-BD-8TH×2']);
  });
});

describe('cart store: buy again (issue 30)', () => {
  it('sends the shopper’s own change first, then takes the server’s cart with the order in it (a grown line keeps the server’s quantity)', async () => {
    const { server, cart } = setup();
    server.orders.set('000000042', [
      { sku: 'AC-JAR', qty: 2 },
      { sku: 'FL-BD-8TH', qty: 1 },
    ]);
    await cart().addItem(eighth);
    const outcome = await cart().buyAgain('000000042', 'key-1');
    expect(outcome).toMatchObject({ kind: 'done', answer: { order_id: '000000042', added: 3 } });
    expect(server.lines()).toEqual(['FL-BD-8TH×3', 'AC-JAR×2']);
    expect(cart().items.map((i) => `${i.sku}×${i.qty}`).sort()).toEqual(['AC-JAR×2', 'FL-BD-8TH×3']);
    // A retry of the same tap adds nothing, and a later sync keeps the server's quantities.
    await cart().buyAgain('000000042', 'key-1');
    await cart().syncNow({ force: true });
    expect(server.lines()).toEqual(['FL-BD-8TH×3', 'AC-JAR×2']);
  });

  it('without a cart yet, makes one first; a refusal comes back in the server’s words', async () => {
    const { server, cart } = setup();
    server.orders.set('1', [{ sku: 'AC-JAR', qty: 1 }]);
    expect(await cart().buyAgain('1', 'k')).toMatchObject({ kind: 'done' });
    expect(server.calls.slice(0, 2)).toEqual(['create', 'buyAgain']);
    expect(cart().items.map((i) => i.sku)).toEqual(['AC-JAR']);
    expect(await cart().buyAgain('2', 'k2')).toEqual({ kind: 'refused', message: 'Order not found' });
  });

  it('offline, asks nothing and says it needs a connection; no answer says the same and changes nothing', async () => {
    const { server, cart } = setup();
    server.orders.set('1', [{ sku: 'AC-JAR', qty: 1 }]);
    await cart().addItem(eighth);
    server.calls.length = 0;
    vi.stubGlobal('navigator', { onLine: false });
    try {
      expect(await cart().buyAgain('1', 'k')).toEqual({ kind: 'offline', message: CART_MESSAGES.buyAgainOffline });
    } finally {
      vi.unstubAllGlobals();
    }
    expect(server.calls).toEqual([]);
    server.failNext.buyAgain = [new NetworkError()];
    expect(await cart().buyAgain('1', 'k')).toEqual({ kind: 'offline', message: CART_MESSAGES.buyAgainOffline });
    expect(server.lines()).toEqual(['FL-BD-8TH×2']);
    expect(cart().items.map((i) => `${i.sku}×${i.qty}`)).toEqual(['FL-BD-8TH×2']);
  });
});
