/**
 * Issue 29 curbside pickup, both databases: the signed "I'm here" link (wrong or expired signature,
 * another order's or store's token refused), only while the order is ready for pickup (not before,
 * not after completion or cancellation, not when the store does not offer it), 20 parallel arrivals
 * record one arrival time, a later one changes the car but keeps the time, each pushes an
 * `order.updated` with the arrival, the queue and order page show it, and the ready message carries the link.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CURBSIDE_MESSAGES } from '@verdant/domain';
import { describeEachDatabase } from '../../../test-support/databases.ts';
import { lifecycleHarness, type LifecycleHarness } from '../../../test-support/orders/lifecycle/testing.ts';
import { planMessages } from '../../notifications/plan.ts';
import { curbsideToken } from './link.ts';

describeEachDatabase('curbside pickup: "I\'m here"', (getDb) => {
  let h: LifecycleHarness;
  let secret: Uint8Array;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    secret = (h.app as unknown as { accounts: { secret: Uint8Array } }).accounts.secret;
    const put = await h.console('PUT', '/api/console/stores/1/settings/sections/curbside', {
      value: { offered: true, bays: ['1', '2', '3'], instructions: 'Park in a numbered bay by the side door.' },
      version: 0,
    });
    expect(put.status).toBe(200);
  });
  afterAll(async () => h?.app.close());

  const link = (orderId: number, at = h.clock.now, ttl?: number) => curbsideToken(secret, 1, orderId, at, ttl);
  const view = (token: string) => h.app.inject({ method: 'GET', url: `/api/curbside/${token}` });
  const arrive = (token: string, body: unknown) => h.app.inject({ method: 'POST', url: `/api/curbside/${token}`, payload: body as object });

  it('refuses a wrong, altered, expired or other store\'s link', async () => {
    const o = await h.place();
    await h.setStatus(o.id, 'ready_for_pickup');
    const good = link(o.id);
    expect((await view(good)).statusCode).toBe(200);
    const forged = curbsideToken('another-secret-of-at-least-32-characters', 1, o.id, h.clock.now);
    const [id, exp, sig] = good.split('.');
    for (const bad of [forged, `${Number(id) + 1}.${exp}.${sig}`, `${id}.${Number(exp) + 60}.${sig}`, curbsideToken(secret, 2, o.id, h.clock.now), 'nonsense']) {
      const res = await arrive(bad, { car: 'Blue Civic' });
      expect(res.statusCode).toBe(404);
      expect(res.json().result).toBe(CURBSIDE_MESSAGES.badLink);
    }
    const expired = link(o.id, new Date(h.clock.now.getTime() - 2 * 3600_000), 3600_000);
    const res = await arrive(expired, { car: 'Blue Civic' });
    expect(res.statusCode).toBe(410);
    expect(res.json().result).toBe(CURBSIDE_MESSAGES.expired);
    expect((await h.db.selectFrom('orders').select('curbside_arrived_at').where('id', '=', o.id).executeTakeFirstOrThrow()).curbside_arrived_at).toBeNull();
  });

  it('works only while ready for pickup, and says why not', async () => {
    const o = await h.place();
    const token = link(o.id);
    const cases = [
      ['submitted', CURBSIDE_MESSAGES.notReady],
      ['confirmed', CURBSIDE_MESSAGES.notReady],
      ['completed', CURBSIDE_MESSAGES.completed],
      ['cancelled', CURBSIDE_MESSAGES.cancelled],
    ] as const;
    for (const [status, message] of cases) {
      await h.setStatus(o.id, status);
      const res = await arrive(token, { car: 'Red pickup truck' });
      expect(res.statusCode, status).toBe(409);
      expect(res.json().result).toBe(message);
      expect((await view(token)).json().result).toMatchObject({ open: false, message });
    }
    await h.setStatus(o.id, 'ready_for_pickup');
    expect((await arrive(token, {})).json().result).toBe(CURBSIDE_MESSAGES.carOrBay);
    expect((await arrive(token, { bay: '9' })).json().result).toBe(CURBSIDE_MESSAGES.unknownBay);
    expect((await arrive(token, { car: 'x'.repeat(121) })).statusCode).toBe(400);
    const d = await h.place({ type: 'delivery' });
    await h.setStatus(d.id, 'ready_for_pickup');
    expect((await arrive(link(d.id), { car: 'Van' })).json().result).toBe(CURBSIDE_MESSAGES.notPickup);
  });

  it('records one arrival time under 20 parallel "I\'m here", keeps it on a later one, pushes and shows it', async () => {
    const o = await h.place();
    await h.setStatus(o.id, 'ready_for_pickup');
    const token = link(o.id);
    const first = h.clock.now.toISOString();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => arrive(token, { car: `Grey Prius ${i}`, bay: '2' })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.json().result.arrival.arrived_at))).toEqual(new Set([first]));

    await h.at(new Date(h.clock.now.getTime() + 5 * 60_000).toISOString());
    const later = await arrive(token, { car: 'Grey Prius, plate 7ABC123', bay: '' });
    expect(later.json().result.arrival).toEqual({ arrived_at: first, car: 'Grey Prius, plate 7ABC123', bay: null });
    const row = await h.db.selectFrom('orders').select(['curbside_arrived_at', 'curbside_car', 'version']).where('id', '=', o.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ curbside_arrived_at: first, curbside_car: 'Grey Prius, plate 7ABC123' });

    const pushes = await h.db.selectFrom('outbox_events').select('payload').where('order_id', '=', o.id).where('type', '=', 'order.updated').orderBy('id').execute();
    expect(pushes).toHaveLength(21);
    expect(JSON.parse(pushes.at(-1)!.payload)).toMatchObject({ order_id: o.id, status: 'ready_for_pickup', curbside: { arrived_at: first, car: 'Grey Prius, plate 7ABC123' } });

    const list = await h.get('/api/console/stores/1/orders?status=ready_for_pickup');
    expect(list.body.result.items.find((i: { id: number }) => i.id === o.id).curbside).toEqual({ arrived_at: first, car: 'Grey Prius, plate 7ABC123', bay: null });
    expect((await h.get(`/api/console/stores/1/orders/${o.id}`)).body.result.curbside.arrived_at).toBe(first);
    // Staff hand over with the usual complete (and its ID check): the link then says it was picked up.
    await h.setStatus(o.id, 'completed');
    expect((await view(token)).json().result).toMatchObject({ open: false, message: CURBSIDE_MESSAGES.completed });
  });

  it('the ready message of a curbside store carries the link; a delivery order\'s or a store without curbside does not', async () => {
    const o = await h.place();
    const event = { event_id: 'evt_x', type: 'order.status_changed', store_id: 1, order_id: o.id, payload: { status: 'ready_for_pickup' }, created_at: '' };
    const deps = {
      db: h.db,
      storeInfo: () => ({ name: 'Downtown', timezone: 'America/Los_Angeles' }),
      curbsideLink: async (_s: number, id: number) => `https://downtown.example/curbside/${link(id)}`,
    };
    const planned = await planMessages(deps, event as never);
    expect(planned.length).toBeGreaterThan(0);
    for (const m of planned) expect(m.body).toContain(`https://downtown.example/curbside/${link(o.id)}`);
    const none = await planMessages({ ...deps, curbsideLink: async () => null }, event as never);
    for (const m of none) expect(m.body).not.toContain('/curbside/');
  });
});
