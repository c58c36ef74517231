import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import type { OrderPayload, PlacedOrder } from '../api/order.ts';
import { keyvalBackend, type KeyValueBackend } from './idb-store.ts';
import { AUTOMATIC_TRANSMISSION_DEFAULT, createOfflineOrders, type OfflineOrdersOptions } from './offline-orders.ts';
import { fakeServer, json, quietLogger, sharedLocks, tick, type SentRequest } from '../../test-support/offline/test-kit.ts';

const KEY = '3f1c2a9e-8b7d-4c6e-9a1f-2b3c4d5e6f70';

function payload(key = KEY): OrderPayload {
  return {
    idempotency_key: key,
    cart_id: 'cart-1',
    order_type: 'pickup',
    license_type: 'recreational',
    personal_details: { firstName: 'Ada', lastName: 'L', emailAddress: 'ada@example.com', phone: '5550100' },
    payment_method: 'cashondelivery',
    products: [{ sku: 'BD-35', qty: 1, size: 92 }],
  };
}

function placed(incrementId: string): PlacedOrder {
  return {
    order_id: 1, increment_id: incrementId, status: 'pending', created_at: '2025-01-01T00:00:00Z', order_type: 'pickup',
    subtotal: 4000, discount: 0, excise_taxes: 0, sales_taxes: 0, shipping: 0, total: 4000, items: [],
  };
}

/** The store's order endpoint, idempotent like apps/server/src/orders: a repeat key gets the first order. */
function orderServer() {
  const orders = new Map<string, PlacedOrder>();
  let next = 100;
  return fakeServer((req: SentRequest) => {
    const key = req.headers['idempotency-key'];
    if (!orders.has(key)) orders.set(key, placed(`00000${next++}`));
    return json({ code: 200, result: orders.get(key) });
  });
}

function browser(server = orderServer()) {
  const idb = new IDBFactory();
  const lock = sharedLocks();
  const notify = vi.fn();
  const tab = (o: Partial<OfflineOrdersOptions> = {}) =>
    createOfflineOrders({ name: 'downtown', backend: keyvalBackend('verdant-orders-downtown', 'orders', idb), fetch: server.fetch, lock, notify, logger: quietLogger, ...o });
  return { idb, server, lock, notify, tab };
}

describe('offline orders: queueing (spec §4; VSF #2740)', () => {
  it('resolves only once the order is stored, and it survives a reload', async () => {
    const b = browser();
    const base = keyvalBackend('verdant-orders-downtown', 'orders', b.idb);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: KeyValueBackend = { ...base, update: async (k, u) => (await gate, base.update(k, u)) };
    const orders = b.tab({ backend: slow });
    let queued = false;
    const pending = orders.queueOrder(payload()).then(() => (queued = true));
    await tick(5);
    expect(queued).toBe(false);
    release();
    await pending;
    expect(queued).toBe(true);

    const reloaded = b.tab();
    const waiting = await reloaded.waitingOrders();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ id: KEY, state: 'waiting', order: null });
    expect(waiting[0].task).toMatchObject({ url: '/api/order/save', idempotency_key: KEY, transmited: false, payload: { method: 'POST', body: payload() } });
    expect(b.server.sent).toHaveLength(0); // queueing never sends
  });

  it('rejects when the order could not be stored (the UI must not say "queued")', async () => {
    const b = browser();
    const broken: KeyValueBackend = { ...keyvalBackend('x', 'orders', b.idb), update: () => Promise.reject(new DOMException('full', 'QuotaExceededError')) };
    await expect(b.tab({ backend: broken }).queueOrder(payload())).rejects.toThrow();
    await expect(b.tab().queueOrder({ ...payload(), idempotency_key: '' })).rejects.toThrow(/idempotency key/);
  });

  it('the same idempotency key queued twice is one order', async () => {
    const b = browser();
    const orders = b.tab();
    const first = await orders.queueOrder(payload());
    const again = await b.tab().queueOrder({ ...payload(), products: [] });
    expect(again.task.task_id).toBe(first.task.task_id);
    expect(await orders.waitingOrders()).toHaveLength(1);
  });
});

describe('offline orders: confirmation', () => {
  it('sends the order with its idempotency key and resolves with the store\'s order', async () => {
    const b = browser();
    const orders = b.tab({ storeCode: () => 'downtown' });
    await orders.queueOrder(payload());
    const result = await orders.confirm(KEY);
    expect(result).toEqual({ kind: 'placed', order: expect.objectContaining({ increment_id: '00000100' }) });
    expect(b.server.sent).toHaveLength(1);
    expect(b.server.sent[0]).toMatchObject({ url: '/api/order/save?storeCode=downtown', method: 'POST', headers: { 'idempotency-key': KEY }, body: payload() });
    expect(await orders.waitingOrders()).toEqual([]);
    expect(await orders.get(KEY)).toMatchObject({ state: 'placed', order: { increment_id: '00000100' }, task: { transmited: true, resultCode: 200 } });
  });

  it('confirm twice in a tab, or from two tabs, sends once', async () => {
    const b = browser();
    b.server.state.delayMs = 3;
    const tab1 = b.tab();
    const tab2 = b.tab();
    await tab1.queueOrder(payload());
    const results = await Promise.all([tab1.confirm(KEY), tab1.confirm(KEY), tab2.confirm(KEY)]);
    expect(b.server.sent).toHaveLength(1);
    expect(results.map((r) => r.kind === 'placed' && r.order.increment_id)).toEqual(['00000100', '00000100', '00000100']);
    expect(await tab2.confirm(KEY)).toMatchObject({ kind: 'placed' });
    expect(b.server.sent).toHaveLength(1);
  });

  it("a refusal comes back in the store's words and the order is no longer waiting", async () => {
    const b = browser(fakeServer(() => json({ code: 409, result: 'Some of the ordered products are not available!' }, 409)));
    const orders = b.tab();
    await orders.queueOrder(payload());
    expect(await orders.confirm(KEY)).toEqual({ kind: 'refused', message: 'Some of the ordered products are not available!' });
    expect(await orders.waitingOrders()).toEqual([]);
    expect(await orders.confirm(KEY)).toEqual({ kind: 'refused', message: 'Some of the ordered products are not available!' });
    expect(b.server.sent).toHaveLength(1);
    expect(b.notify).not.toHaveBeenCalled(); // the task is silent: the confirming UI shows the result
  });

  it('no decision leaves the order waiting; it is never reported placed before the store answers with it', async () => {
    const answers: (() => Response | never)[] = [
      () => json({ code: 409, result: 'This order is still being placed; try again in a moment.' }, 409),
      () => json({ code: 500, result: 'Internal Server Error 500' }, 500),
      () => json({ code: 200, result: { ok: true } }), // 200 without an order number
    ];
    const server = fakeServer(() => answers.shift()!());
    const b = browser(server);
    const orders = b.tab();
    await orders.queueOrder(payload());
    server.state.offline = true;
    expect(await orders.confirm(KEY)).toEqual({ kind: 'unsent', reason: 'network' });
    server.state.offline = false;
    expect(await orders.confirm(KEY)).toEqual({ kind: 'unsent', reason: 'in-progress' });
    expect(await orders.confirm(KEY)).toEqual({ kind: 'unsent', reason: 'server' });
    expect(await orders.confirm(KEY)).toEqual({ kind: 'unsent', reason: 'server' });
    const [still] = await orders.waitingOrders();
    expect(still).toMatchObject({ state: 'waiting', order: null, attempts: 4 });
    server.state.route = () => json({ code: 200, result: placed('00000777') });
    expect(await orders.confirm(KEY)).toMatchObject({ kind: 'placed', order: { increment_id: '00000777' } });
  });

  it('cancel drops a waiting order but not a placed one', async () => {
    const b = browser();
    const orders = b.tab();
    await orders.queueOrder(payload('k-1'));
    await orders.queueOrder(payload('k-2'));
    await orders.confirm('k-2');
    expect(await orders.cancel('k-1')).toBe(true);
    expect(await orders.cancel('k-2')).toBe(false);
    expect(await orders.confirm('k-1')).toEqual({ kind: 'unknown' });
    expect((await orders.list()).map((r) => [r.id, r.state])).toEqual([['k-2', 'placed']]);
    await orders.removeSettled();
    expect(await orders.list()).toEqual([]);
  });
});

describe('offline orders: automatic transmission (spec §9: off by default)', () => {
  it('off: the network returning sends nothing and asks for confirmation', async () => {
    const b = browser();
    const orders = b.tab();
    expect(AUTOMATIC_TRANSMISSION_DEFAULT).toBe(false);
    expect(await orders.automaticTransmission()).toBe(false);
    expect(await orders.networkReturned()).toEqual({ kind: 'none' });
    await orders.queueOrder(payload());
    const r = await orders.networkReturned();
    expect(r.kind).toBe('needs-confirmation');
    expect(r.kind === 'needs-confirmation' && r.orders.map((o) => o.id)).toEqual([KEY]);
    expect(b.server.sent).toHaveLength(0);
  });

  it('on (and remembered after a reload): waiting orders are sent in order and the outcome notified', async () => {
    const b = browser();
    await b.tab().setAutomaticTransmission(true);
    const orders = b.tab();
    expect(await orders.automaticTransmission()).toBe(true);
    await orders.queueOrder(payload('k-1'));
    await orders.queueOrder(payload('k-2'));
    const r = await orders.networkReturned();
    expect(r.kind === 'transmitted' && r.results.map((x) => [x.id, x.result.kind])).toEqual([
      ['k-1', 'placed'],
      ['k-2', 'placed'],
    ]);
    expect(b.server.sent.map((s) => s.headers['idempotency-key'])).toEqual(['k-1', 'k-2']);
    expect(b.notify).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', message: 'Your order 00000100 has been placed.' }));
  });

  it('on the thank-you page the orders are sent even with automatic transmission off; no answer stops the run', async () => {
    const server = orderServer();
    const b = browser(server);
    const orders = b.tab();
    await orders.queueOrder(payload('k-1'));
    await orders.queueOrder(payload('k-2'));
    server.state.offline = true;
    const r = await orders.networkReturned({ onThankYouPage: true });
    expect(r.kind === 'transmitted' && r.results).toEqual([{ id: 'k-1', result: { kind: 'unsent', reason: 'network' } }]);
    expect(await orders.waitingOrders()).toHaveLength(2);
  });
});
