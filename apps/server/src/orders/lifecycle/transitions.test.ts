/**
 * The lifecycle on the server, both databases, through the real console route: every move the
 * table allows and every one it refuses (from ORDER_MOVES, for both order types), the guards, two
 * staff pressing at once (20 parallel requests, one wins), releasing the goods of a cancelled order
 * exactly once (20 parallel cancels, then retries) and never half (an error after the stock went
 * back inside the move's transaction leaves nothing changed), points and coupon use given back.
 */
import { ORDER_ACTIONS, ORDER_MOVES, ORDER_STATUSES, actionsFrom, type OrderAction, type OrderStatus } from '@verdant/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test-support/databases.ts';
import { loginCustomer, stockQty } from '../../../test-support/cart/testing.ts';
import { applyTransition, SYSTEM_ACTOR } from './transitions.ts';
import { adjustPoints, balanceOf } from '../../loyalty/ledger.ts';
import { HOUR, JAR, lifecycleHarness, readyIn, type LifecycleHarness } from '../../../test-support/orders/lifecycle/testing.ts';

const TYPES = ['pickup', 'delivery'] as const;

describeEachDatabase('order lifecycle transitions', (getDb) => {
  let h: LifecycleHarness;
  let verifiedToken = '';

  /** What each action needs to pass its guards. */
  const inputFor = (action: OrderAction) =>
    ({
      confirm: { readyBy: readyIn(h.clock, 1) },
      cancel: { reason: 'customer_request' },
      complete: { idChecked: true },
      mark_ready: {},
      send_out: {},
      mark_no_show: {},
    })[action];

  /** An order of the type in the status (a delivery order is a verified customer's: nothing holds it). */
  const orderIn = async (type: 'pickup' | 'delivery', status: OrderStatus) => {
    const o = await h.place({ type, token: type === 'delivery' ? verifiedToken : undefined });
    // Ready long enough ago that its pickup window has passed (the no-show guard).
    if (status !== 'submitted') await h.setStatus(o.id, status, new Date(h.clock.now.getTime() - 48 * HOUR).toISOString());
    return o;
  };
  const events = (orderId: number) =>
    h.db.selectFrom('order_events').selectAll().where('order_id', '=', orderId).where('kind', '=', 'status').execute();
  const outbox = (orderId: number, type = 'order.status_changed') =>
    h.db.selectFrom('outbox_events').selectAll().where('order_id', '=', orderId).where('type', '=', type).execute();
  const orderRow = (id: number) => h.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    const c = await loginCustomer(h.app, '9165550777');
    verifiedToken = c.token;
    const r = await h.console('POST', `/api/console/stores/1/customers/${c.customerId}/verification`, {
      document: 'id',
      decision: 'verified',
    });
    expect(r.status).toBe(200);
  });
  afterAll(async () => h?.app.close());

  for (const type of TYPES) {
    for (const status of ORDER_STATUSES) {
      const allowed = ORDER_ACTIONS.filter((a) => ORDER_MOVES[a].from.includes(status) && ORDER_MOVES[a].orderTypes.includes(type));
      const refused = ORDER_ACTIONS.filter((a) => !allowed.includes(a));
      if (refused.length) {
        it(`${type} ${status}: refuses ${refused.join(', ')} with 409 and the allowed moves, changing nothing`, async () => {
          const o = await orderIn(type, status);
          const before = await orderRow(o.id);
          for (const action of refused) {
            const r = await h.move(o.id, { action, ...inputFor(action) });
            expect(r.status, action).toBe(409);
            expect(r.body).toMatchObject({
              code: 409,
              errorCode: 'transition_not_allowed',
              meta: { status, allowed: actionsFrom({ status, order_type: type }) },
            });
          }
          expect(await orderRow(o.id)).toEqual(before);
          expect(await events(o.id)).toEqual([]);
          expect(await outbox(o.id)).toEqual([]);
        });
      }
      for (const action of allowed) {
        it(`${type} ${status}: ${action} moves to ${ORDER_MOVES[action].to} with history and an outbox event`, async () => {
          const o = await orderIn(type, status);
          const before = await orderRow(o.id);
          const r = await h.move(o.id, { action, ...inputFor(action) });
          expect(r.status).toBe(200);
          const to = ORDER_MOVES[action].to;
          expect(r.body.result).toMatchObject({ id: o.id, status: to, version: before.version + 1 });
          const after = await orderRow(o.id);
          expect(after).toMatchObject({ status: to, version: before.version + 1, status_changed_at: h.clock.now.toISOString() });
          if (action === 'confirm') expect(after.ready_by).toBe(inputFor('confirm').readyBy);
          if (action === 'cancel')
            expect(after).toMatchObject({ cancel_reason: 'customer_request', cancel_message: 'The order was cancelled at your request.' });
          expect(['cancelled', 'no_show'].includes(to) ? after.released_at : null).toBe(
            ['cancelled', 'no_show'].includes(to) ? h.clock.now.toISOString() : null,
          );
          const history = await events(o.id);
          expect(history).toHaveLength(1);
          expect(history[0]).toMatchObject({ actor_type: 'staff', actor_name: 'Olga Owner', from_status: status, to_status: to });
          expect(JSON.parse(history[0].data!)).toMatchObject({ action });
          const pushed = await outbox(o.id);
          expect(pushed).toHaveLength(1);
          expect(JSON.parse(pushed[0].payload)).toMatchObject({
            order_id: o.id,
            increment_id: o.increment_id,
            status: to,
            previous_status: status,
            version: before.version + 1,
            store_code: 'downtown',
          });
        });
      }
    }
  }

  it('refuses moves whose guards fail with 400 transition_invalid', async () => {
    const o = await h.place();
    const invalid = async (body: Record<string, unknown>, text: string) => {
      const r = await h.move(o.id, body);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ errorCode: 'transition_invalid', result: text });
    };
    await invalid({ action: 'confirm' }, 'Set a ready-by time to confirm the order.');
    await invalid({ action: 'confirm', readyBy: readyIn(h.clock, -1) }, 'The ready-by time must be in the future.');
    await invalid({ action: 'cancel' }, 'Choose a reason to cancel the order.');
    expect((await h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 2) })).status).toBe(200);
    expect((await h.move(o.id, { action: 'mark_ready' })).status).toBe(200);
    await invalid({ action: 'complete' }, 'Confirm that you checked the customer’s ID before completing the order.');
    await invalid({ action: 'mark_no_show' }, 'The pickup window has not passed yet.');
    // A body that is not a move at all.
    expect((await h.move(o.id, { action: 'teleport' })).body).toMatchObject({ code: 400, errorCode: 'invalid_request' });
    expect((await h.move(999_999, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(404);
    expect((await orderRow(o.id)).status).toBe('ready_for_pickup');
  });

  it('lets exactly one of 20 parallel confirms win; the others hear 409 with the new status', async () => {
    const o = await h.place();
    const answers = await Promise.all(Array.from({ length: 20 }, () => h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 1) })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    for (const lost of answers.filter((a) => a.status === 409))
      expect(lost.body.meta).toMatchObject({ status: 'confirmed', allowed: ['mark_ready', 'cancel'] });
    expect(await events(o.id)).toHaveLength(1);
    expect(await outbox(o.id)).toHaveLength(1);
    expect((await orderRow(o.id)).version).toBe(2);
  });

  it('puts the stock back exactly once under 20 parallel cancels and their retries', async () => {
    const start = await stockQty(h.db, 1, JAR);
    const o = await h.place({ qty: 3 });
    expect(await stockQty(h.db, 1, JAR)).toBe(start - 3);
    // (Not "Sold out": that reason keeps the stock out, cancel-stock.test.ts.)
    const cancel = () => h.move(o.id, { action: 'cancel', reason: 'other', message: 'Sorry, the jar broke.' });
    const answers = await Promise.all(Array.from({ length: 20 }, cancel));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect(await stockQty(h.db, 1, JAR)).toBe(start);
    for (let i = 0; i < 3; i++) expect((await cancel()).status).toBe(409);
    expect(await stockQty(h.db, 1, JAR)).toBe(start);
    expect(await orderRow(o.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'other', cancel_message: 'Sorry, the jar broke.' });
    expect(await events(o.id)).toHaveLength(1);
  });

  it('puts a sold-out product back on sale when its order is cancelled', async () => {
    const { pin } = await import('../../../test-support/cart/testing.ts');
    await pin(h.db, 1, JAR, { stock: 2 });
    const o = await h.place({ qty: 2 });
    const sold = await h.db
      .selectFrom('stock')
      .innerJoin('products', 'products.id', 'stock.product_id')
      .select(['stock.qty', 'stock.is_in_stock'])
      .where('products.sku', '=', JAR)
      .where('products.store_id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(sold).toEqual({ qty: 0, is_in_stock: 0 });
    expect((await h.move(o.id, { action: 'cancel', reason: 'other' })).status).toBe(200);
    const back = await h.db
      .selectFrom('stock')
      .innerJoin('products', 'products.id', 'stock.product_id')
      .select(['stock.qty', 'stock.is_in_stock'])
      .where('products.sku', '=', JAR)
      .where('products.store_id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(back).toEqual({ qty: 2, is_in_stock: 1 });
    await pin(h.db, 1, JAR, { stock: 100_000 });
  });

  it('gives back redeemed points (earned ones come only on completion) and the coupon use when cancelled', async () => {
    const c = await loginCustomer(h.app, '9165550778');
    await adjustPoints(h.db, c.customerId, 1, 500, h.clock.now.toISOString());
    const couponUses = async () =>
      (await h.db.selectFrom('coupons').select('times_used').where('code', '=', 'WELCOME10').executeTakeFirstOrThrow()).times_used;
    const balance = () => balanceOf(h.db, c.customerId, 1);
    const start = await balance(); // 500 and the demo store's sign-up bonus
    const uses = await couponUses();
    const o = await h.place({ token: c.token, qty: 4, body: { credits: 300, coupon: 'WELCOME10' } });
    expect(o.result).toMatchObject({ credits_used: 300, coupon_code: 'WELCOME10' });
    // Issue 30: nothing is earned when the order is placed.
    expect(await balance()).toBe(start - 300);
    expect(await couponUses()).toBe(uses + 1);
    expect((await h.move(o.id, { action: 'cancel', reason: 'customer_request' })).status).toBe(200);
    expect(await balance()).toBe(start);
    expect(await couponUses()).toBe(uses);
    const rows = await h.db.selectFrom('loyalty_ledger').select(['kind', 'points', 'balance_after']).where('order_id', '=', o.id).orderBy('id').execute();
    expect(rows.map((r) => [r.kind, Number(r.points), Number(r.balance_after)])).toEqual([
      ['redeem', -300, start - 300],
      ['reverse', 300, start],
    ]);
  });

  it('writes nothing of a move that fails after the stock went back inside its transaction', async () => {
    const c = await loginCustomer(h.app, '9165550779');
    await adjustPoints(h.db, c.customerId, 1, 200, h.clock.now.toISOString());
    const o = await h.place({ token: c.token, qty: 2, body: { credits: 100, coupon: 'WELCOME10' } });
    const snapshot = async () => ({
      order: await orderRow(o.id),
      stock: await stockQty(h.db, 1, JAR),
      points: await h.db.selectFrom('loyalty_ledger').selectAll().where('customer_id', '=', c.customerId).orderBy('id').execute(),
      balance: await balanceOf(h.db, c.customerId, 1),
      coupon: await h.db.selectFrom('coupons').select('times_used').where('code', '=', 'WELCOME10').executeTakeFirstOrThrow(),
      events: await h.db.selectFrom('order_events').selectAll().where('order_id', '=', o.id).orderBy('id').execute(),
      outbox: await h.db.selectFrom('outbox_events').select(['event_id', 'type']).where('order_id', '=', o.id).orderBy('id').execute(),
    });
    const before = await snapshot();
    let released = false;
    await expect(
      applyTransition(
        h.db,
        { storeId: 1, orderId: o.id, action: 'cancel', input: { reason: 'other' }, actor: SYSTEM_ACTOR, now: h.clock.now },
        {
          afterRelease: async () => {
            released = true;
            throw new Error('power cut');
          },
        },
      ),
    ).rejects.toThrow('power cut');
    expect(released).toBe(true);
    expect(await snapshot()).toEqual(before);
    // And the order can still be cancelled, once.
    expect((await h.move(o.id, { action: 'cancel', reason: 'other' })).status).toBe(200);
    expect(await stockQty(h.db, 1, JAR)).toBe(before.stock + 2);
  });
});
