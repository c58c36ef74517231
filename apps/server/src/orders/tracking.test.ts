/**
 * What the shopper is told, both databases: `POST /api/order-tracking` answers a store's order by
 * number + phone (however the phone is typed) with its status and timeline and nothing else of the
 * customer's, the same 404 for every mismatch, and at most 10 look-ups a minute per address (counted
 * in real Redis, as on a multi-node deployment); the account's order view carries the status label,
 * ready-by, timeline, cancel reason and message and the hold.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { bearer, loginCustomer, REFERENCE_DATE, registry } from '../../test-support/cart/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { lifecycleHarness, readyIn, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { TRACKING_MESSAGES } from './tracking.ts';

const NOT_FOUND = 'We could not find an order with that number and phone number.';

describeEachDatabase('order tracking and the shopper’s order view', (getDb) => {
  let h: LifecycleHarness;
  let redisApp: FastifyInstance | undefined;
  const track = (app: FastifyInstance, body: unknown, ip = '10.9.9.9', host = 'downtown.localhost') =>
    app
      .inject({
        method: 'POST',
        url: '/api/order-tracking',
        remoteAddress: ip,
        headers: { host },
        payload: body as Record<string, unknown>,
      })
      .then((r) => ({ status: r.statusCode, body: r.json(), retryAfter: r.headers['retry-after'] }));

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => {
    await redisApp?.close();
    await h?.app.close();
  });

  it('answers an order by number and phone with its status and timeline only', async () => {
    const o = await h.place({
      body: { personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0191' } },
    });
    expect((await h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(200);
    for (const phone of ['(916) 555-0191', '9165550191', '+1 916-555-0191']) {
      const r = await track(h.app, { number: o.increment_id, phone }, `10.9.1.${phone.length}`);
      expect(r.status, phone).toBe(200);
      expect(r.body.result).toEqual({
        increment_id: o.increment_id,
        status: 'confirmed',
        status_label: 'Confirmed',
        order_type: 'pickup',
        created_at: h.clock.now.toISOString(),
        ready_by: readyIn(h.clock, 1),
        timeline: [
          { status: 'submitted', label: 'Submitted', at: h.clock.now.toISOString(), state: 'done' },
          { status: 'confirmed', label: 'Confirmed', at: h.clock.now.toISOString(), state: 'current' },
          { status: 'ready_for_pickup', label: 'Ready for pickup', at: null, state: 'upcoming' },
          { status: 'completed', label: 'Completed', at: null, state: 'upcoming' },
        ],
        cancel_message: null,
        // Issue 14: placed at 5:00 in the store's zone, before opening: booked for the first slot (the default hours).
        slot: { start: '2026-06-15T16:00:00.000Z', end: '2026-06-15T16:30:00.000Z', label: '6/15/2026 09:00 – 09:30' },
        // Issue 29: a pickup order is on no delivery trip.
        trip: null,
      });
    }
    // The number typed in lower case is the same number.
    expect((await track(h.app, { number: o.increment_id.toLowerCase(), phone: '9165550191' }, '10.9.2.1')).status).toBe(200);
    // Every mismatch is the same answer: wrong phone, unknown number, another store, not a phone.
    const misses = [
      { number: o.increment_id, phone: '9165550192' },
      { number: 'DO-199999', phone: '9165550191' },
      { number: o.increment_id, phone: 'call me' },
    ];
    for (const [i, body] of misses.entries())
      expect(await track(h.app, body, `10.9.3.${i}`), JSON.stringify(body)).toMatchObject({
        status: 404,
        body: { code: 404, result: NOT_FOUND },
      });
    expect(await track(h.app, { number: o.increment_id, phone: '9165550191' }, '10.9.3.9', 'eastside.localhost')).toMatchObject({
      status: 404,
      body: { result: NOT_FOUND },
    });
    expect((await track(h.app, { number: '', phone: '' }, '10.9.3.10')).status).toBe(400);
  });

  it('tells a cancelled order’s message', async () => {
    const o = await h.place({
      body: { personal_details: { firstName: 'Bo', lastName: 'Lind', emailAddress: 'bo@example.com', phone: '916 555 0192' } },
    });
    expect((await h.move(o.id, { action: 'cancel', reason: 'sold_out' })).status).toBe(200);
    const r = await track(h.app, { number: o.increment_id, phone: '9165550192' }, '10.9.4.1');
    expect(r.body.result).toMatchObject({
      status: 'cancelled',
      status_label: 'Cancelled',
      cancel_message: 'An item in your order sold out before we could prepare it.',
    });
    expect(r.body.result.timeline.map((s: { status: string; state: string }) => [s.status, s.state])).toEqual([
      ['submitted', 'done'],
      ['cancelled', 'current'],
    ]);
  });

  it('allows 10 look-ups a minute per address, counted in Redis across nodes', async () => {
    const url = process.env.REDIS_URL;
    expect(url, 'REDIS_URL must be set for this test').toBeTruthy();
    const t = getDb();
    const prefix = `verdant-test-${randomBytes(4).toString('hex')}:`;
    const node = () =>
      buildApp({
        config: { dataDir: t.dataDir, demoMode: true, production: true, logLevel: 'silent', redisUrl: url, redisPrefix: prefix },
        registry,
        db: t.db,
        logger: false,
        clock: () => REFERENCE_DATE,
      });
    const [a, b] = [await node(), await node()];
    await Promise.all([a.orderSweeper?.stop(), b.orderSweeper?.stop()]);
    redisApp = a;
    try {
      const o = await h.place({
        body: { personal_details: { firstName: 'Cy', lastName: 'Hart', emailAddress: 'cy@example.com', phone: '9165550193' } },
      });
      const answers = [];
      // Alternating between two nodes: one count.
      for (let i = 0; i < 10; i++)
        answers.push(await track(i % 2 ? a : b, { number: o.increment_id, phone: i === 0 ? '9165550193' : '9165550000' }, '10.9.5.5'));
      expect(answers.map((x) => x.status)).toEqual([200, ...Array(9).fill(404)]);
      const over = await track(a, { number: o.increment_id, phone: '9165550193' }, '10.9.5.5');
      // Told when to come back: at most the minute the limit counts; the look-ups before were not refused.
      expect(over).toMatchObject({ status: 429, body: { code: 429, result: TRACKING_MESSAGES.tooMany }, retryAfter: '60' });
      expect(answers.map((x) => x.retryAfter)).toEqual(Array(10).fill(undefined));
      expect(await track(b, { number: o.increment_id, phone: '9165550193' }, '10.9.5.5')).toMatchObject({ status: 429, retryAfter: '60' });
      // Another address is not affected.
      expect((await track(b, { number: o.increment_id, phone: '9165550193' }, '10.9.5.6')).status).toBe(200);
    } finally {
      await b.close();
    }
  });

  it('gives the account’s order view the status, ready-by, timeline, cancel reason, message and hold', async () => {
    const c = await loginCustomer(h.app, '9165550194');
    const o = await h.place({ type: 'delivery', token: c.token });
    const view = async () =>
      (
        await h.app.inject({
          method: 'GET',
          url: `/api/user/order/${o.increment_id}`,
          headers: { host: 'downtown.localhost', ...bearer(c.token) },
        })
      ).json().result;
    expect(await view()).toMatchObject({
      increment_id: o.increment_id,
      status: 'submitted',
      status_label: 'Submitted',
      ready_by: null,
      status_changed_at: h.clock.now.toISOString(),
      cancel_reason: null,
      cancel_message: null,
      hold: ['id'],
      // Issue 14: placed at 5:00 in the store's zone, before opening: booked for the first delivery slot.
      slot: { start: '2026-06-15T16:00:00.000Z', end: '2026-06-15T17:00:00.000Z', label: '6/15/2026 09:00 – 10:00' },
      timeline: [
        { status: 'submitted', state: 'current' },
        { status: 'confirmed' },
        { status: 'out_for_delivery' },
        { status: 'completed' },
      ],
    });
    expect((await h.move(o.id, { action: 'cancel', reason: 'no_id', message: 'Please bring your ID next time.' })).status).toBe(200);
    expect(await view()).toMatchObject({
      status: 'cancelled',
      status_label: 'Cancelled',
      cancel_reason: 'no_id',
      cancel_message: 'Please bring your ID next time.',
      hold: [],
    });
    const history = (
      await h.app.inject({ method: 'GET', url: '/api/user/order-history', headers: { host: 'downtown.localhost', ...bearer(c.token) } })
    ).json().result;
    expect(history.items[0]).toMatchObject({ increment_id: o.increment_id, status: 'cancelled', status_label: 'Cancelled' });
  });
});
