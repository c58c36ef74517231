/**
 * The cart cache (SQLite) never answers anything but what the database holds: a seeded random run
 * of every kind of cart write, several at a time (so they share group commits), compared after
 * each round with a read that bypasses the cache; and the rules of the cache itself.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, describeEachDatabase, type OwnedTestDatabase } from '../../test-support/databases.ts';
import { CartCache, cartCacheFor } from './cart-cache.ts';
import { GUEST_VIEWER, requireCartWithLines, type CartRow } from './repository.ts';
import { Shopper, commerceApp, orderBody, pin } from '../../test-support/cart/testing.ts';
import { mulberry32 } from '../seed/prng.ts';

describe('cart cache (SQLite): the kept copy always equals the database', () => {
  let t: OwnedTestDatabase;
  let app: FastifyInstance;
  let skus: string[];
  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    app = await commerceApp(t);
    const picks = await t.db
      .selectFrom('products')
      .select('sku')
      .where('store_id', '=', 1)
      .where('type_id', '=', 'simple')
      .where('canna_type', '=', 4)
      .where('status', '=', 1)
      .where('license_type', '=', 'both')
      .orderBy('id')
      .limit(3)
      .execute();
    skus = picks.map((p) => p.sku);
    for (const sku of skus) await pin(t.db, 1, sku, { price: 1500, stock: 100_000 });
  });
  afterAll(async () => {
    await app?.close();
    await t?.cleanup();
  });

  it('after every round of concurrent adds, sets, replaces, deletes, coupons, order types and orders', async () => {
    // Seeded, so a failure can be replayed.
    const next = mulberry32(20261121);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
    const shoppers = [new Shopper(app), new Shopper(app), new Shopper(app)];
    for (const s of shoppers) await s.createCart();
    const cache = cartCacheFor(t.db)!;
    expect(cache).toBeInstanceOf(CartCache);

    const step = async (s: Shopper) => {
      const lines = ((await s.pull()).result ?? []) as { item_id: number; sku: string; qty: number }[];
      const op = pick(['add', 'add', 'set', 'replace', 'delete', 'coupon', 'uncoupon', 'type', 'order'] as const);
      switch (op) {
        case 'add':
          return s.update({ sku: pick(skus), qty: 1 + Math.floor(next() * 3) });
        case 'set':
          return lines.length ? s.update({ item_id: pick(lines).item_id, qty: 1 + Math.floor(next() * 4) }) : s.update({ sku: pick(skus), qty: 1 });
        case 'replace':
          return s.call('POST', `/api/cart/update?cartId=${s.token}`, {
            cartItems: skus.filter(() => next() < 0.5).map((sku) => ({ sku, qty: 1 + Math.floor(next() * 2), quoteId: s.token })),
          });
        case 'delete':
          return lines.length ? s.call('POST', `/api/cart/delete?cartId=${s.token}`, { cartItem: { item_id: pick(lines).item_id } }) : s.pull();
        case 'coupon':
          return s.call('POST', `/api/cart/apply-coupon?cartId=${s.token}&coupon=WELCOME10`);
        case 'uncoupon':
          return s.call('POST', `/api/cart/delete-coupon?cartId=${s.token}`);
        case 'type':
          return s.call('POST', `/api/cart/collect-totals?cartId=${s.token}`, { methods: { shippingMethodCode: pick(['pickup', 'delivery']) } });
        case 'order':
          return lines.length ? s.saveOrder(orderBody({ cart_id: s.token })) : s.totals();
      }
    };

    let compared = 0;
    for (let round = 0; round < 40; round++) {
      // Several writes at once, to the same and to different carts: they share group commits.
      const answers = await Promise.all([step(pick(shoppers)), step(pick(shoppers)), step(pick(shoppers)), step(pick(shoppers))]);
      for (const a of answers) expect(a.status, JSON.stringify(a.result)).toBeLessThan(500);
      for (const s of shoppers) {
        const kept = cache.get(s.token, 1);
        const stored = await requireCartWithLines(t.db, s.token, 1, GUEST_VIEWER, true);
        if (kept) {
          expect(kept.cart).toEqual(stored.cart);
          expect(kept.rows).toEqual(stored.rows);
          compared += 1;
        }
        // What a shopper reads is what the table holds, through the cache or not.
        const pulled = ((await s.pull()).result as { item_id: number; qty: number }[]).map((l) => [l.item_id, l.qty]);
        expect(pulled).toEqual(stored.rows.map((r) => [r.id, r.qty]));
      }
    }
    // The run did exercise the copy, not only the database.
    expect(compared).toBeGreaterThan(40);
  });

  it('keeps a read only when no cart was written while it ran, and only for its own store', () => {
    const cache = new CartCache(2);
    const cart = (id: number, token: string) => ({ id, token, store_id: 1 }) as CartRow;
    const stamp = cache.stamp();
    cache.put('b', { cart: cart(2, 'b'), rows: [] });
    cache.fill('a', { cart: cart(1, 'a'), rows: [] }, stamp);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.fill('a', { cart: cart(1, 'a'), rows: [] }, cache.stamp());
    expect(cache.get('a', 1)?.cart.id).toBe(1);
    expect(cache.get('a', 2)).toBeUndefined();
    cache.forget('a');
    expect(cache.get('a', 1)).toBeUndefined();
    // Bounded: the oldest put goes first.
    cache.put('c', { cart: cart(3, 'c'), rows: [] });
    cache.put('d', { cart: cart(4, 'd'), rows: [] });
    expect(cache.size).toBe(2);
    expect(cache.get('b', 1)).toBeUndefined();
  });

  it('is not used inside a transaction (a write reads the database itself)', async () => {
    await t.db.transaction().execute(async (trx) => {
      expect(cartCacheFor(trx)).toBeNull();
    });
  });
});

// Several PostgreSQL nodes write the same carts: none of them may keep a copy.
describeEachDatabase('cart cache by database', (getDb) => {
  it('exists for SQLite only', () => {
    const { db, dialect } = getDb();
    if (dialect === 'sqlite') expect(cartCacheFor(db)).toBeInstanceOf(CartCache);
    else expect(cartCacheFor(db)).toBeNull();
  });
});
