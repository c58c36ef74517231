import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { hoursFromOpeningHours, SLOT_MESSAGES, type HoursSettings } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, orderBody, pin, Shopper, stockQty } from '../../test-support/cart/testing.ts';
import { applyTransition, SYSTEM_ACTOR } from '../orders/lifecycle/index.ts';
import { HOURS } from './section.ts';
import { shopperEmail, shopperSms } from '../notifications/templates.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const ACTOR = { type: 'cli' as const, name: 'hours test' };
// Monday 15 June 2026 in Sacramento (PDT, UTC−7). The demo store opens 9:00–21:00 on Mondays.
const MON_5AM = new Date('2026-06-15T12:00:00.000Z');
const MON_NOON = new Date('2026-06-15T19:00:00.000Z');

describeEachDatabase('hours and time slots', (getDb) => {
  let app: FastifyInstance;
  const clock = { now: MON_5AM };
  const db = () => getDb().db;
  const orders = async () =>
    Number(
      (
        await db()
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const taken = async (start: string, type = 'pickup') =>
    (
      await db()
        .selectFrom('slot_bookings')
        .select('taken')
        .where('store_id', '=', 1)
        .where('order_type', '=', type)
        .where('slot_start', '=', start)
        .executeTakeFirst()
    )?.taken ?? 0;
  /** Save the store's hours as a manager would (over the version read). */
  const setHours = async (change: (h: HoursSettings) => void) => {
    const current = await app.storeSettings.get(1, HOURS);
    const next = structuredClone(current.value);
    change(next);
    await app.storeSettings.save(1, HOURS, next, current.version, ACTOR);
  };
  const slots = async (type = 'pickup') => new Shopper(app).call('GET', `/api/order/slots?order_type=${type}`);

  beforeAll(async () => {
    app = await commerceApp(getDb(), () => clock.now);
    await pin(db(), 1, JAR, { price: 2699, special: null, tiers: [], stock: 1000 });
  });
  afterAll(async () => app?.close());

  it('offers the default hours (the store’s opening hours): closed at 5 AM, slots from 9:00 in the store zone', async () => {
    clock.now = MON_5AM;
    const r = await slots();
    expect(r.status).toBe(200);
    expect(r.result).toMatchObject({
      order_type: 'pickup',
      timezone: 'America/Los_Angeles',
      asap: false,
      outside_hours: 'next_slot',
      status: { open: false, label: 'Closed · opens 9 AM' },
    });
    expect(r.result.slots[0]).toEqual({
      start: '2026-06-15T16:00:00.000Z',
      end: '2026-06-15T16:30:00.000Z',
      label: '6/15/2026 09:00 – 09:30',
      remaining: null,
    });
    const hours = await new Shopper(app).call('GET', '/api/store/hours');
    expect(hours.result.pickup.status.label).toBe('Closed · opens 9 AM');
    expect((await new Shopper(app).call('GET', '/api/order/slots?order_type=curbside')).status).toBe(400);
  });

  it('takes an ASAP order placed while closed for the next slot (default), and says which on the order', async () => {
    clock.now = MON_5AM;
    const r = await new Shopper(app).saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }] }));
    expect(r.status).toBe(200);
    expect(r.result.slot).toEqual({ start: '2026-06-15T16:00:00.000Z', end: '2026-06-15T16:30:00.000Z', label: '6/15/2026 09:00 – 09:30' });
    const row = await db()
      .selectFrom('orders')
      .select(['slot_start', 'slot_end'])
      .where('id', '=', r.result.order_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ slot_start: '2026-06-15T16:00:00.000Z', slot_end: '2026-06-15T16:30:00.000Z' });
  });

  it('places an ASAP order with no slot while open', async () => {
    clock.now = MON_NOON;
    const r = await new Shopper(app).saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }] }));
    expect(r.status).toBe(200);
    expect(r.result.slot).toBeNull();
  });

  it('refuses an order outside ordering hours when the store says so, writing nothing', async () => {
    await setHours((h) => void (h.outside_hours = 'refuse'));
    clock.now = MON_5AM;
    const [before, stock] = [await orders(), await stockQty(db(), 1, JAR)];
    const r = await new Shopper(app).saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }] }));
    expect(r).toMatchObject({ status: 409, result: SLOT_MESSAGES.closedRefused('Closed · opens 9 AM') });
    expect([await orders(), await stockQty(db(), 1, JAR)]).toEqual([before, stock]);
    // A chosen slot is still taken while closed.
    const booked = await new Shopper(app).saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }], slot: '2026-06-15T17:00:00.000Z' }));
    expect(booked.status).toBe(200);
    expect(booked.result.slot.label).toBe('6/15/2026 10:00 – 10:30');
  });

  it('refuses a slot that is not offered: inside the lead time, off the grid, on a closed day, or not a time', async () => {
    clock.now = MON_NOON;
    await setHours((h) => {
      h.exceptions = [{ date: '2026-06-16', label: 'Staff day', order_types: ['pickup', 'delivery'], closed: true }];
      h.pickup.slots = { length_minutes: 30, lead_minutes: 60, days_ahead: 2, capacity: null };
    });
    const save = (slot: string) => new Shopper(app).saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }], slot }));
    for (const slot of ['2026-06-15T19:30:00.000Z', '2026-06-15T20:10:00.000Z', '2026-06-16T17:00:00.000Z', '2026-06-25T17:00:00.000Z']) {
      expect(await save(slot)).toMatchObject({ status: 409, result: SLOT_MESSAGES.slotUnavailable });
    }
    expect((await save('tomorrow')).status).toBe(400);
    // The holiday has no slots; the day after it has.
    const offered = (await slots()).result.slots.map((s: { start: string }) => s.start);
    const labels = (await slots()).result.slots.map((s: { label: string }) => s.label);
    expect(labels.some((l: string) => l.startsWith('6/16/2026'))).toBe(false);
    expect(labels).toContain('6/17/2026 09:00 – 09:30');
    expect(offered).toContain('2026-06-17T16:00:00.000Z');
    expect(offered[0]).toBe('2026-06-15T20:00:00.000Z');
    // The same instant written with the store's offset is the same slot.
    expect((await save('2026-06-15T13:00:00-07:00')).result.slot.start).toBe('2026-06-15T20:00:00.000Z');
  });

  it('never overbooks: 100 concurrent orders into a slot of capacity 5, exactly 5 placed; a cancelled order frees its place', async () => {
    clock.now = MON_NOON;
    await setHours((h) => {
      h.exceptions = [];
      h.delivery.slots = { length_minutes: 60, lead_minutes: 30, days_ahead: 1, capacity: 5 };
    });
    const slot = '2026-06-16T18:00:00.000Z'; // Tuesday 11:00 PDT
    const body = () =>
      orderBody({
        order_type: 'delivery',
        products: [{ sku: JAR, qty: 1 }],
        slot,
        shipping_address: { city: 'Sacramento', zip: '95814', address: '900 J St' },
      });
    const stock = await stockQty(db(), 1, JAR);
    const answers = await Promise.all(Array.from({ length: 100 }, () => new Shopper(app).saveOrder(body())));
    const placed = answers.filter((a) => a.status === 200);
    expect(placed).toHaveLength(5);
    expect(answers.filter((a) => a.status === 409 && a.result === SLOT_MESSAGES.slotFull)).toHaveLength(95);
    expect(await taken(slot, 'delivery')).toBe(5);
    expect(await db().selectFrom('orders').select('id').where('slot_start', '=', slot).execute()).toHaveLength(5);
    // A refused order took nothing: only the 5 placed took stock.
    expect(await stockQty(db(), 1, JAR)).toBe(stock - 5);
    const listed = (await slots('delivery')).result.slots.map((s: { start: string }) => s.start);
    expect(listed).not.toContain(slot);

    await applyTransition(db(), {
      storeId: 1,
      orderId: placed[0].result.order_id,
      action: 'cancel',
      input: { reason: 'customer_request' },
      actor: SYSTEM_ACTOR,
      now: clock.now,
    });
    expect(await taken(slot, 'delivery')).toBe(4);
    expect((await slots('delivery')).result.slots.find((s: { start: string }) => s.start === slot)).toMatchObject({ remaining: 1 });
    expect((await new Shopper(app).saveOrder(body())).status).toBe(200);
    expect((await new Shopper(app).saveOrder(body())).result).toBe(SLOT_MESSAGES.slotFull);
  });
});

describe('the default hours', () => {
  it('are the store’s opening hours for both order types, with no capacity limit', () => {
    const h = hoursFromOpeningHours([{ day: 'Monday', open: '09:00', close: '21:00' }]);
    expect(h).toMatchObject({
      outside_hours: 'next_slot',
      exceptions: [],
      pickup: { weekly: [{ day: 'Monday' }], slots: { capacity: null } },
      delivery: { slots: { capacity: null } },
    });
  });
});

describe('the shopper’s messages', () => {
  it('name the booked time slot when the order is confirmed (SMS and e-mail), and say nothing of it for ASAP', () => {
    const ctx = { storeName: 'Verdant Downtown', timezone: 'America/Los_Angeles', incrementId: 'DO-100001', orderType: 'pickup' as const, customerName: 'Ana Reyes' };
    const slot = '6/15/2026 13:00 – 13:30';
    const sms = shopperSms('order_confirmed', { ...ctx, slot });
    expect(sms).toBe('Verdant Downtown: order #DO-100001 is confirmed. Pickup 6/15/2026 13:00 - 13:30. Bring a valid photo ID.');
    expect(sms.length).toBeLessThanOrEqual(160);
    expect(shopperEmail('order_confirmed', { ...ctx, orderType: 'delivery', slot }).text).toContain('Delivery time: 6/15/2026 13:00 – 13:30');
    expect(shopperSms('order_confirmed', ctx)).not.toContain('slot');
  });
});
