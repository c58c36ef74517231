import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../api/envelope.ts';
import type { OrderPayload, PlacedOrder } from '../api/order.ts';
import { CART_MESSAGES } from '../lib/cart-messages.ts';
import { createCheckoutStore } from './checkout-store.ts';
import { newIdempotencyKey, placeOrder } from './place-order.ts';
import type { ListStorage } from './persisted.ts';

function memoryStorage(): ListStorage & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: async (k) => structuredClone(data.get(k)), set: async (k, v) => void data.set(k, structuredClone(v)) };
}

const build = (key: string): OrderPayload => ({
  idempotency_key: key, cart_id: 'token-0000000000000001', order_type: 'pickup', license_type: 'recreational', payment_method: 'cashondelivery',
  personal_details: { firstName: 'Ada', lastName: 'Lovelace', emailAddress: 'ada@example.com', phone: '916 555 0100' },
  products: [{ sku: 'FL-BD-8TH', qty: 2, size: 92 }],
});

/** An order endpoint that keeps one order per key (like the server) and can lose answers. */
function orderServer() {
  const orders = new Map<string, PlacedOrder>();
  const failures: ('lost' | 'down' | ApiError)[] = [];
  const seenKeys: string[] = [];
  const send = async (p: OrderPayload): Promise<PlacedOrder> => {
    seenKeys.push(p.idempotency_key);
    const f = failures.shift();
    if (f === 'down') throw new NetworkError();
    if (f instanceof ApiError) throw f;
    let order = orders.get(p.idempotency_key);
    if (!order) {
      order = { order_id: orders.size + 1, increment_id: `DO-${100001 + orders.size}` } as PlacedOrder;
      orders.set(p.idempotency_key, order);
    }
    if (f === 'lost') throw new NetworkError();
    return order;
  };
  return { orders, failures, seenKeys, send };
}

const noSleep = async () => {};

describe('place order (spec §4): idempotent, persisted before sending', () => {
  it('makes v4 keys', () => {
    expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('writes the pending order before the first send, and the placed order after', async () => {
    const storage = memoryStorage();
    const checkout = createCheckoutStore({ storeCode: 'downtown', storage, channel: null });
    const server = orderServer();
    let storedAtSend: unknown;
    const result = await placeOrder({
      checkout, build, sleep: noSleep,
      send: (p) => ((storedAtSend = storage.data.get('verdant:downtown:checkout')), server.send(p)),
    });
    expect((storedAtSend as { pendingOrder: { payload: OrderPayload } }).pendingOrder.payload.idempotency_key).toBe(server.seenKeys[0]);
    expect(result).toEqual({ kind: 'placed', order: server.orders.get(server.seenKeys[0]) });
    expect(checkout.getState()).toMatchObject({ pendingOrder: null, order: { increment_id: 'DO-100001' }, modifiedAt: null });
  });

  it('retries a lost answer with the same key and never places a second order', async () => {
    const checkout = createCheckoutStore({ storeCode: 'downtown', storage: memoryStorage(), channel: null });
    const server = orderServer();
    server.failures.push('lost', 'down', 'lost');
    expect(await placeOrder({ checkout, build, send: server.send, sleep: noSleep })).toEqual({ kind: 'unsent' });
    expect(checkout.getState().pendingOrder).not.toBeNull();
    // Later (a reload, the shopper presses Place order again): the same pending order goes out.
    const again = await placeOrder({ checkout, build: () => build('a-different-key'), send: server.send, sleep: noSleep });
    expect(again).toMatchObject({ kind: 'placed', order: { increment_id: 'DO-100001' } });
    expect(new Set(server.seenKeys).size).toBe(1);
    expect(server.orders.size).toBe(1);
  });

  it('drops a refused order (new key next time) and says why', async () => {
    const checkout = createCheckoutStore({ storeCode: 'downtown', storage: memoryStorage(), channel: null });
    const server = orderServer();
    server.failures.push(new ApiError(409, CART_MESSAGES.productsNotAvailable));
    expect(await placeOrder({ checkout, build, send: server.send, sleep: noSleep })).toEqual({ kind: 'refused', message: CART_MESSAGES.productsNotAvailable });
    expect(checkout.getState().pendingOrder).toBeNull();
    server.failures.push(new ApiError(409, 'This order is still being placed; try again in a moment.'));
    expect(await placeOrder({ checkout, build, send: server.send, sleep: noSleep })).toMatchObject({ kind: 'placed' });
    expect(server.seenKeys[1]).not.toBe(server.seenKeys[0]);
    expect(server.seenKeys[2]).toBe(server.seenKeys[1]);
  });

  it('counts the 30-minute checkout window from the last change (spec §4 Checkout)', () => {
    let t = 1_000_000;
    const checkout = createCheckoutStore({ storeCode: 'downtown', storage: null, channel: null, now: () => t });
    expect(checkout.getState().isInCheckout()).toBe(false);
    checkout.getState().setPersonal({ firstName: 'Ada' });
    t += 1_800_000;
    expect(checkout.getState().isInCheckout()).toBe(true);
    t += 1;
    expect(checkout.getState().isInCheckout()).toBe(false);
  });
});
