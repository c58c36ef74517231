/**
 * Holds, document review and the sweeper, both databases: an order that needs a verified document
 * cannot be confirmed until staff verify it; a medical card that expired before the order date keeps
 * the order held; review writes history and an `order.updated` event per open order; a new upload
 * waits for review again; the sweeper marks pickups past their window as no-shows (goods back) and
 * auto-confirms in stores that turned it on.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test-support/databases.ts';
import { loginCustomer, stockQty } from '../../../test-support/cart/testing.ts';
import { sweepOrders } from './sweeper.ts';
import { HOUR, JAR, lifecycleHarness, readyIn, type LifecycleHarness } from '../../../test-support/orders/lifecycle/testing.ts';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0];

function upload(app: FastifyInstance, token: string, kind: 'id' | 'medcard') {
  const boundary = 'LBOUNDARY';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="card.png"\r\nContent-Type: image/png\r\n\r\n`),
    Buffer.from(PNG),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.inject({
    method: 'POST',
    url: `/api/user/upload?kind=${kind}`,
    headers: { host: 'downtown.localhost', authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

describeEachDatabase('order holds, document review and the sweeper', (getDb) => {
  let h: LifecycleHarness;
  const orderRow = (id: number) => h.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const review = (customerId: number, body: Record<string, unknown>) =>
    h.console('POST', `/api/console/stores/1/customers/${customerId}/verification`, body);
  const detail = async (orderId: number) => (await h.get(`/api/console/stores/1/orders/${orderId}`)).body.result;

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  it('holds a delivery order until the ID is verified, then lets it be confirmed', async () => {
    const c = await loginCustomer(h.app, '9165550801');
    const o = await h.place({ type: 'delivery', token: c.token });
    expect(JSON.parse((await orderRow(o.id)).verification_needs)).toEqual(['id']);
    expect(await detail(o.id)).toMatchObject({
      hold: ['id'],
      actions: [
        { action: 'confirm', blockedBy: expect.stringContaining('verified') },
        { action: 'cancel', blockedBy: null },
      ],
    });
    const held = await h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 1) });
    expect(held).toMatchObject({
      status: 400,
      body: { errorCode: 'transition_invalid', result: 'The customer’s documents must be verified before the order can be confirmed.' },
    });

    // Rejected: still held, the reason is kept and told.
    expect((await review(c.customerId, { document: 'id', decision: 'rejected' })).body).toMatchObject({ code: 400 });
    const rejected = await review(c.customerId, { document: 'id', decision: 'rejected', reason: 'The photo is blurred.' });
    expect(rejected).toMatchObject({
      status: 200,
      body: { result: { customer: { id_status: 'rejected', id_review_reason: 'The photo is blurred.' }, orderIds: [o.id] } },
    });
    expect((await h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(400);

    const versionBefore = (await orderRow(o.id)).version;
    const verified = await review(c.customerId, { document: 'id', decision: 'verified' });
    expect(verified.body.result).toMatchObject({ customer: { id_status: 'verified', id_review_reason: null }, orderIds: [o.id] });
    const after = await orderRow(o.id);
    expect(after.version).toBe(versionBefore + 1);
    const history = (await detail(o.id)).history.filter((e: { kind: string }) => e.kind === 'verification');
    expect(history.map((e: { data: unknown }) => e.data)).toEqual([
      { document: 'id', decision: 'rejected', reason: 'The photo is blurred.', hold: ['id'] },
      { document: 'id', decision: 'verified', reason: null, hold: [], released: true },
    ]);
    expect(history[1]).toMatchObject({ actor_type: 'staff', actor_name: 'Olga Owner' });
    const updates = await h.db
      .selectFrom('outbox_events')
      .select(['type', 'payload'])
      .where('order_id', '=', o.id)
      .where('type', '=', 'order.updated')
      .execute();
    expect(updates).toHaveLength(2);
    expect(JSON.parse(updates[1].payload)).toMatchObject({ order_id: o.id, version: after.version, status: 'submitted' });
    expect((await detail(o.id)).hold).toEqual([]);
    expect((await h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(200);
  });

  it('never holds a guest’s delivery order (nothing to review): its ID is checked when it is handed over', async () => {
    const o = await h.place({ type: 'delivery' });
    expect(JSON.parse((await orderRow(o.id)).verification_needs)).toEqual(['id']);
    expect((await detail(o.id)).hold).toEqual([]);
    expect((await h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(200);
    expect((await h.move(o.id, { action: 'send_out' })).status).toBe(200);
    expect((await h.move(o.id, { action: 'complete' })).body).toMatchObject({ code: 400, errorCode: 'transition_invalid' });
    expect((await h.move(o.id, { action: 'complete', idChecked: true })).status).toBe(200);
  });

  it('keeps a medical order held while the verified card expired before the order date', async () => {
    const c = await loginCustomer(h.app, '9165550802');
    const o = await h.place({ type: 'delivery', token: c.token });
    // What placing a medical order records (domain verificationNeeds): the ID and the card.
    await h.db
      .updateTable('orders')
      .set({ license_type: 'medical', verification_needs: '["id","medcard"]' })
      .where('id', '=', o.id)
      .execute();
    await review(c.customerId, { document: 'id', decision: 'verified' });
    // The order was placed on 2026-06-15 (store-local); the card ran out the day before.
    const stale = await review(c.customerId, { document: 'medcard', decision: 'verified', medcardExpiry: '2026-06-14', medcardNumber: 'MC-0802' });
    expect(stale.body.result.customer).toMatchObject({ medcard_status: 'verified', medcard_expiry: '2026-06-14' });
    expect((await detail(o.id)).hold).toEqual(['medcard']);
    expect((await h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(400);
    // Valid on the order date itself: no longer held.
    await review(c.customerId, { document: 'medcard', decision: 'verified', medcardExpiry: '2026-06-15' });
    expect((await detail(o.id)).hold).toEqual([]);
    expect((await h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(200);
    // An expiry is only the card's.
    expect((await review(c.customerId, { document: 'id', decision: 'verified', medcardExpiry: '2030-01-01' })).status).toBe(400);
  });

  it('puts a document back to pending when the customer uploads a new one, and serves it only to staff, uncached', async () => {
    const c = await loginCustomer(h.app, '9165550803');
    await review(c.customerId, { document: 'id', decision: 'verified' });
    const up = await upload(h.app, c.token, 'id');
    expect(up.statusCode).toBe(200);
    const customer = await h.db
      .selectFrom('customers')
      .select(['id_status', 'medcard_status'])
      .where('id', '=', c.customerId)
      .executeTakeFirstOrThrow();
    expect(customer).toEqual({ id_status: 'pending', medcard_status: 'none' });
    const o = await h.place({ type: 'delivery', token: c.token });
    const d = await detail(o.id);
    expect(d.hold).toEqual(['id']);
    expect(d.uploads).toEqual([
      {
        id: up.json().result.id,
        kind: 'id',
        mime: 'image/png',
        created_at: expect.any(String),
        // Issue 31: not decided on yet, not deleted; the link names the order for the view log.
        reviewed_at: null,
        deleted_at: null,
        url: `/api/console/stores/1/customers/${c.customerId}/uploads/${up.json().result.id}?order=${o.id}`,
      },
    ]);
    const file = await h.app.inject({ method: 'GET', url: d.uploads[0].url, headers: h.owner.headers });
    expect(file.statusCode).toBe(200);
    expect(file.headers['cache-control']).toBe('no-store, private');
    expect(file.headers['content-type']).toBe('image/png');
    expect([...file.rawPayload]).toEqual(PNG);
    // Without a staff session: nothing.
    expect((await h.app.inject({ method: 'GET', url: d.uploads[0].url })).statusCode).toBe(401);
    // Another customer's path to the same file: not found.
    expect(
      (
        await h.app.inject({
          method: 'GET',
          url: `/api/console/stores/1/customers/${c.customerId + 1000}/uploads/${d.uploads[0].id}`,
          headers: h.owner.headers,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('marks a pickup order no-show once its window has passed, giving its stock back (two sweeps, one move)', async () => {
    const start = await stockQty(h.db, 1, JAR);
    const o = await h.place({ qty: 2 });
    expect((await h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(200);
    expect((await h.move(o.id, { action: 'mark_ready' })).status).toBe(200);
    const inside = await sweepOrders(h.db, new Date(h.clock.now.getTime() + 24 * HOUR));
    expect(inside.noShow).not.toContain(o.id);
    const later = new Date(h.clock.now.getTime() + 25 * HOUR + 1000);
    const [a, b] = await Promise.all([sweepOrders(h.db, later), sweepOrders(h.db, later)]);
    expect([...a.noShow, ...b.noShow].filter((id) => id === o.id)).toEqual([o.id]);
    expect(await orderRow(o.id)).toMatchObject({ status: 'no_show', cancel_reason: 'no_show', released_at: later.toISOString() });
    expect(await stockQty(h.db, 1, JAR)).toBe(start);
    const history = await h.db
      .selectFrom('order_events')
      .selectAll()
      .where('order_id', '=', o.id)
      .where('kind', '=', 'status')
      .orderBy('id')
      .execute();
    expect(history.at(-1)).toMatchObject({ actor_type: 'system', from_status: 'ready_for_pickup', to_status: 'no_show' });
  });

  it('auto-confirms new orders with no hold when the store turned it on, and held ones once verified', async () => {
    const saved = await h.console('PUT', '/api/console/stores/1/settings/orders', { auto_confirm: true, auto_confirm_minutes: 30 });
    expect(saved.body.result).toMatchObject({ auto_confirm: true, auto_confirm_minutes: 30, pickup_window_hours: 24 });
    try {
      const o = await h.place();
      expect(o.result.status).toBe('confirmed');
      // Ready 30 minutes on, or at its booked slot's start when later (issue 26: placed before opening, it has one).
      const row = await orderRow(o.id);
      const soon = readyIn(h.clock, 0.5);
      expect(row).toMatchObject({ status: 'confirmed', version: 2 });
      expect(row.ready_by).toBe(row.slot_start && row.slot_start > soon ? row.slot_start : soon);
      const types = await h.db.selectFrom('outbox_events').select('type').where('order_id', '=', o.id).orderBy('id').execute();
      expect(types.map((t) => t.type)).toEqual(['order.created', 'order.status_changed']);

      const c = await loginCustomer(h.app, '9165550804');
      const held = await h.place({ type: 'delivery', token: c.token });
      expect(held.result.status).toBe('submitted');
      expect((await sweepOrders(h.db, h.clock.now)).confirmed).not.toContain(held.id);
      // The verification releases and confirms it in its own transaction (issue 26), not a later sweep.
      expect((await review(c.customerId, { document: 'id', decision: 'verified' })).body.result.releasedOrderIds).toEqual([held.id]);
      expect((await orderRow(held.id)).status).toBe('confirmed');
      expect((await sweepOrders(h.db, h.clock.now)).confirmed).not.toContain(held.id);
    } finally {
      await h.console('PUT', '/api/console/stores/1/settings/orders', { auto_confirm: false });
    }
  });
});
