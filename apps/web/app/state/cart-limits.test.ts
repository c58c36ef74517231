/**
 * The cart store and the server's purchase-limit meters (issue 14): asked after every cart change,
 * with the shopper's residency; the residency kept for the session and sent with cart updates; a
 * store with a limit model of its own is not held to today's per-order figure in the browser.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cartItemsHash, type Store } from '@verdant/domain';
import { createHttpCartTransport, type CartLimits, type Residency } from '../api/cart.ts';
import { createCartStore } from './cart-store.ts';
import type { NewCartItem } from './cart-items.ts';
import { FakeCartServer } from '../../test-support/state/fake-cart-server.ts';
import { memoryStorage } from '../../test-support/state/test-doubles.ts';

const perOrder = {
  dispensarySettings: {
    license_recreational: true,
    license_medical: true,
    compliance_settings: { limits: { recreational: { per_transaction: { usable_max: 28.5 } } }, hidden_categories: [] },
  },
} as unknown as Pick<Store, 'dispensarySettings'>;

const ounce: NewCartItem = {
  sku: 'FL-BD-OZ',
  qty: 1,
  type_id: 'configurable',
  parentSku: 'FL-BD',
  size: 95,
  name: 'Blue Dream 28 g',
  image: null,
  path: '/p/FL-BD/blue-dream',
  price: 20000,
  tax_class_id: 2,
  uom: 'g',
  canna_type: 1,
  unit_weight_grams_equivelent: null,
  license_type: 'both',
};
const eighth: NewCartItem = { ...ounce, sku: 'FL-BD-8TH', size: 92, name: 'Blue Dream 3.5 g', price: 5200 };

/** A California-like answer: flower and concentrate per day (a model of the store's own). */
function dayAnswer(inCart: number, residency: Residency | null): CartLimits {
  const cap = residency === 'resident' ? 40 : 20;
  return {
    ok: inCart <= cap,
    needs_residency: true,
    meters: [
      {
        bucket: 'flower',
        label: 'Flower',
        unit: 'flower_g',
        window: { type: 'day' },
        cap,
        used: 0,
        in_cart: inCart,
        remaining: Math.max(0, cap - inCart),
        over: inCart > cap,
        text: `${inCart} g of ${cap} g per day`,
      },
      {
        bucket: 'concentrate',
        label: 'Concentrate',
        unit: 'concentrate_g',
        window: { type: 'day' },
        cap: 8,
        used: 0,
        in_cart: 0,
        remaining: 8,
        over: false,
        text: '0 g of 8 g per day',
      },
    ],
    violations: [],
    remove: [],
    message:
      inCart > cap
        ? `Your cart contains ${inCart - cap} g more flower than the flower limit of ${cap} g per day allows. Please remove ${inCart - cap} g from your cart.`
        : null,
    guest_notice: null,
  };
}

function setup(initial: Residency | null = null) {
  const server = new FakeCartServer();
  const asked: (Residency | null)[] = [];
  const saved: (Residency | null)[] = [];
  const base = server.transport();
  const grams = () => server.lines().reduce((g, l) => g + (l.startsWith('FL-BD-OZ') ? 28 : 3.5) * Number(l.split('×')[1]), 0);
  const store = createCartStore({
    storeCode: 'harbor',
    transport: {
      ...base,
      limits: async (_token, residency) => {
        asked.push(residency);
        return dayAnswer(grams(), residency);
      },
    },
    storage: memoryStorage(),
    channel: null,
    lock: null,
    licenseType: () => 'recreational',
    limits: perOrder,
    residency: { initial, save: (r) => saved.push(r) },
  });
  const settled = async () => {
    // The meters are asked after the change resolves, not awaited by it: wait for the answer.
    await vi.waitFor(() => expect(store.getState().limitsHash).toBe(cartItemsHash(store.getState().items, store.getState().token)));
  };
  return { server, store, asked, saved, settled, cart: () => store.getState() };
}

describe('cart store: purchase-limit meters (issue 14)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks the server’s meters after a change, with the residency said, and again when the residency changes', async () => {
    const { cart, asked, saved, settled } = setup();
    expect(cart().residency).toBeNull();
    await cart().addItem(eighth);
    await settled();
    expect(asked).toEqual([null]);
    expect(cart().limits?.meters.map((m) => m.text)).toEqual(['3.5 g of 20 g per day', '0 g of 8 g per day']);
    await cart().setResidency('resident');
    expect(saved).toEqual(['resident']);
    expect(asked).toEqual([null, 'resident']);
    expect(cart().limits?.meters[0].text).toBe('3.5 g of 40 g per day');
  });

  it('keeps the residency said earlier in the session', async () => {
    const { cart, asked, settled } = setup('non_resident');
    expect(cart().residency).toBe('non_resident');
    await cart().addItem(eighth);
    await settled();
    expect(asked).toEqual(['non_resident']);
  });

  it('a store with its own model is not held to today’s per-order figure in the browser: the server decides', async () => {
    const { cart, settled, server } = setup('resident');
    await cart().addItem(ounce);
    await settled();
    // 28 g + 3.5 g is over today's 28.5 g per order, within this store's 40 g per day.
    expect(await cart().addItem(eighth)).toEqual({ kind: 'added', warning: null });
    expect(server.lines().sort()).toEqual(['FL-BD-8TH×1', 'FL-BD-OZ×1']);
    await settled();
    expect(cart().limits?.ok).toBe(true);
  });

  it('a store without a model of its own keeps the per-order check before the server is asked', async () => {
    const server = new FakeCartServer();
    const store = createCartStore({
      storeCode: 'downtown',
      transport: server.transport(),
      storage: memoryStorage(),
      channel: null,
      lock: null,
      licenseType: () => 'recreational',
      limits: perOrder,
    });
    await store.getState().addItem(ounce);
    expect(await store.getState().addItem(eighth)).toMatchObject({ kind: 'refused' });
    expect(store.getState().limits).toBeNull();
  });

  it('the HTTP transport sends the residency with every cart update and the limits question', async () => {
    const sent: { url: string; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent.push({ url, body: init.body ? JSON.parse(String(init.body)) : null });
      return new Response(JSON.stringify({ code: 200, result: { item_id: 1 } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    });
    let residency: Residency | null = null;
    const transport = createHttpCartTransport(undefined, { residency: () => residency });
    await transport.update('tok', { sku: 'A', qty: 1, quoteId: 'tok' });
    residency = 'non_resident';
    await transport.update('tok', { sku: 'A', qty: 2, quoteId: 'tok' });
    await transport.limits!('tok', 'non_resident');
    expect(sent[0].body).toEqual({ cartItem: { sku: 'A', qty: 1, quoteId: 'tok' } });
    expect(sent[1].body).toEqual({ cartItem: { sku: 'A', qty: 2, quoteId: 'tok' }, residency: 'non_resident' });
    expect(sent[2].url).toBe('/api/cart/limits?cartId=tok&residency=non_resident');
  });
});
