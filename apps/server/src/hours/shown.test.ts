/**
 * Issue 14 "The chosen slot shows on the order … and in the shopper's messages", and "open now / opens
 * at everywhere the store's hours are shown", on both databases: the order-tracking answer carries the
 * booked slot (null for an ASAP order), the confirmation SMS and e-mail planned from the real outbox
 * event name it (GSM-7 in the SMS), the storefront's hours leave out the exceptions already over, and a
 * manager's save of the hours drops the store's cached pages.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, orderBody, pin, Shopper } from '../../test-support/cart/testing.ts';
import { applyTransition, SYSTEM_ACTOR } from '../orders/lifecycle/index.ts';
import { planMessages } from '../notifications/plan.ts';
import { shopperEmail, shopperSms, storeNewOrderEmail } from '../notifications/templates.ts';
import { addStaff, loginStaff } from '../../test-support/staff/testing.ts';
import { HOURS } from './section.ts';
import { storefrontHours } from './storefront.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const PHONE = '(916) 555-0101'; // orderBody's contact phone
// Monday 6/15/2026 05:00 PDT (closed: an ASAP order gets the first slot) and 12:00 PDT (open: ASAP).
const MON_5AM = new Date('2026-06-15T12:00:00.000Z');
const MON_NOON = new Date('2026-06-15T19:00:00.000Z');

describeEachDatabase('the booked slot and the store’s hours, as the shopper is shown them', (getDb) => {
  let app: FastifyInstance;
  const clock = { now: MON_NOON };
  const db = () => getDb().db;
  const track = (number: string) =>
    app
      .inject({
        method: 'POST',
        url: '/api/order-tracking',
        remoteAddress: '10.77.0.1',
        headers: { host: 'downtown.localhost' },
        payload: { number, phone: PHONE },
      })
      .then((r) => ({ status: r.statusCode, result: r.json().result }));

  beforeAll(async () => {
    app = await commerceApp(getDb(), () => clock.now);
    await pin(db(), 1, JAR, { price: 2699, special: null, tiers: [], stock: 1000 });
  });
  afterAll(async () => app?.close());

  it('order tracking answers the booked slot with its store-zone label, and null for an ASAP order', async () => {
    clock.now = MON_NOON;
    const chosen = await new Shopper(app).saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }], slot: '2026-06-15T21:00:00.000Z' }));
    expect(chosen.status).toBe(200);
    const asap = await new Shopper(app).saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }] }));
    expect(asap.result.slot).toBeNull();

    const a = await track(chosen.result.increment_id);
    expect(a.status).toBe(200);
    expect(a.result.slot).toEqual({ start: '2026-06-15T21:00:00.000Z', end: '2026-06-15T21:30:00.000Z', label: '6/15/2026 14:00 – 14:30' });
    const b = await track(asap.result.increment_id);
    expect(b.status).toBe(200);
    expect(b.result.slot).toBeNull();
  });

  it('the confirmation SMS and e-mail of an order booked while closed name its slot; an ASAP order’s say nothing of one', async () => {
    const planned = async (orderId: number, readyBy: string) => {
      await applyTransition(db(), {
        storeId: 1,
        orderId,
        action: 'confirm',
        input: { readyBy },
        actor: SYSTEM_ACTOR,
        now: clock.now,
      });
      const row = await db()
        .selectFrom('outbox_events')
        .selectAll()
        .where('order_id', '=', orderId)
        .where('type', '=', 'order.status_changed')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const event = { ...row, payload: JSON.parse(row.payload) };
      const storeInfo = () => ({ name: 'Verdant Downtown', timezone: 'America/Los_Angeles' });
      return planMessages({ db: db(), storeInfo }, event);
    };
    clock.now = MON_5AM;
    const early = await new Shopper(app).saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }] }));
    expect(early.result.slot.label).toBe('6/15/2026 09:00 – 09:30');
    const messages = await planned(early.result.order_id, '2026-06-15T16:30:00.000Z');
    const sms = messages.find((m) => m.channel === 'sms')!;
    expect(sms.body).toBe(
      `Verdant Downtown: order #${early.result.increment_id} is confirmed. Ready for pickup by 6/15/2026 09:30. Pickup 6/15/2026 09:00 - 09:30. Bring a valid photo ID.`,
    );
    // GSM-7 only (no en dash), and one SMS part.
    expect(sms.body).toMatch(/^[\x20-\x7e]*$/);
    expect(sms.body.length).toBeLessThanOrEqual(160);
    expect(messages.find((m) => m.channel === 'email')!.body).toContain('\n\nPickup time: 6/15/2026 09:00 – 09:30\n\n');

    clock.now = MON_NOON;
    const now = await new Shopper(app).saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }] }));
    const asap = await planned(now.result.order_id, '2026-06-15T20:00:00.000Z');
    expect(asap.find((m) => m.channel === 'sms')!.body).toBe(
      `Verdant Downtown: order #${now.result.increment_id} is confirmed. Ready for pickup by 6/15/2026 13:00. Bring a valid photo ID.`,
    );
    expect(asap.find((m) => m.channel === 'email')!.body).not.toMatch(/Pickup time|slot/i);
  });

  it('the storefront gets the store’s hours without the exceptions already over; a saved hours section drops the store’s cached pages', async () => {
    clock.now = MON_NOON;
    const current = await app.storeSettings.get(1, HOURS);
    const next = structuredClone(current.value);
    next.exceptions = [
      { date: '2026-06-01', label: 'Long over', order_types: ['pickup', 'delivery'], closed: true },
      { date: '2026-06-14', label: 'Yesterday', order_types: ['pickup', 'delivery'], closed: true },
      { date: '2026-07-03', label: 'Independence Day (observed)', order_types: ['pickup', 'delivery'], closed: true },
    ];
    await addStaff(db(), { email: 'hours.manager@shown.test', role: 'manager', storeIds: [1], name: 'Hana Hours' });
    const manager = await loginStaff(app, 'hours.manager@shown.test', { ip: '10.77.1.1' });
    const dropped: (number | undefined)[] = [];
    const invalidate = app.invalidateStore;
    app.invalidateStore = (storeId) => {
      dropped.push(storeId);
      invalidate(storeId);
    };
    try {
      const put = (section: string, value: unknown, version: number) =>
        app.inject({
          method: 'PUT',
          url: `/api/console/stores/1/settings/sections/${section}`,
          remoteAddress: '10.77.1.1',
          headers: { host: 'downtown.localhost', ...manager.headers },
          payload: { value, version },
        });
      // A refused save drops nothing.
      expect((await put('hours', { ...next, outside_hours: 'never' }, current.version)).statusCode).toBe(400);
      expect(dropped).toEqual([]);
      const saved = await put('hours', next, current.version);
      expect(saved.statusCode).toBe(200);
      expect(dropped).toEqual([1]);
    } finally {
      app.invalidateStore = invalidate;
    }
    const shown = await storefrontHours(app.storeSettings, 1, clock.now);
    expect(shown.exceptions.map((e) => e.label)).toEqual(['Yesterday', 'Independence Day (observed)']);
    expect(shown.pickup).toEqual(next.pickup);
  });
});

describe('the store’s new-order e-mail', () => {
  it('names the booked slot, and says nothing of one for an ASAP order', () => {
    const ctx = {
      storeName: 'Verdant Downtown',
      timezone: 'America/Los_Angeles',
      incrementId: 'DO-100001',
      orderType: 'delivery' as const,
      customerName: 'Ana Reyes',
      phone: '(916) 555-0101',
      email: null,
      totalCents: 2699,
      itemCount: 1,
      createdAt: '2026-06-15T19:00:00.000Z',
    };
    expect(storeNewOrderEmail({ ...ctx, slot: '6/15/2026 13:00 – 14:00' }).text).toContain(
      'Phone: (916) 555-0101\nDelivery time: 6/15/2026 13:00 – 14:00\nItems: 1',
    );
    expect(storeNewOrderEmail(ctx).text).not.toContain('Delivery time');
    expect(shopperSms('order_confirmed', { ...ctx, slot: '6/15/2026 13:00 – 14:00' })).toBe(
      'Verdant Downtown: order #DO-100001 is confirmed. Delivery 6/15/2026 13:00 - 14:00.',
    );
    expect(shopperEmail('order_confirmed', { ...ctx, slot: '6/15/2026 13:00 – 14:00' }).text).toContain(
      'Delivery time: 6/15/2026 13:00 – 14:00',
    );
  });
});
