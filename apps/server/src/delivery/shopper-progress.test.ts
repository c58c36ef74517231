/**
 * What the shopper sees of a started trip (issue 29 "The shopper"), on SQLite and PostgreSQL:
 * order tracking's answer (and the account's order view) carries "you are stop 2, about N minutes"
 * with the domain's estimate, "you are next" once the stop ahead is recorded, and nothing about the
 * trip for an order on no started trip; the "about 10 minutes away" message goes out once for each
 * stop that became near — one message under a burst of 20 parallel calls — never for a stop far
 * away, never again after a later stop, on the store's chosen channel (e-mail when it has no phone).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DELIVERY_PROGRESS_MESSAGES, remainingStopMinutes, tripProgress } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { staffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { zipLocation } from '../shipping/zip-location.ts';
import { orderStatusView } from '../users/orders.ts';
import { afterStopRecorded, NEAR_TEMPLATE } from './after-stop.ts';

const HOST = 'downtown.localhost';
const STORE = { lat: 38.5816, lng: -121.4944 }; // the downtown demo store (stores.demo.json)
const T0 = '2026-06-15T18:00:00.000Z';

type Contact = { phone?: string; email?: string };

describeEachDatabase('delivery: what the shopper sees of a started trip', (getDb) => {
  let app: FastifyInstance;
  const db = (): Kysely<Database> => getDb().db;
  let driverId = 0;
  let vehicleId = 0;
  let seq = 0;

  async function addOrder(zip: string, contact: Contact = { phone: '(916) 555-0101', email: 'ana@example.com' }, status = 'out_for_delivery') {
    seq += 1;
    const personal = { firstName: 'Ana', lastName: 'Reyes', ...(contact.email ? { emailAddress: contact.email } : {}), ...(contact.phone ? { phone: contact.phone } : {}) };
    const row = await db()
      .insertInto('orders')
      .values({
        increment_id: `P${String(seq).padStart(5, '0')}-${randomUUID().slice(0, 6).toUpperCase()}`,
        store_id: 1,
        customer_id: null,
        idempotency_key: randomUUID(),
        status: status as 'out_for_delivery',
        order_type: 'delivery',
        license_type: 'recreational',
        coupon_code: null,
        subtotal_cents: 5000,
        total_cents: 5000,
        thc_equivalent_grams: 3.5,
        personal_details: JSON.stringify(personal),
        shipping_address: JSON.stringify({ address: '900 J St', city: 'Sacramento', zip }),
        billing_address: null,
        ready_by: T0,
        status_changed_at: T0,
        cancel_reason: null,
        cancel_message: null,
        released_at: null,
        birthday: '1990-01-01',
        minimum_age: 21,
        slot_start: null,
        slot_end: null,
        created_at: T0,
        updated_at: T0,
      })
      .returning(['id', 'increment_id'])
      .executeTakeFirstOrThrow();
    return row;
  }

  async function addTrip(orderIds: number[], status: 'planned' | 'started' = 'started'): Promise<{ tripId: number; stopIds: number[] }> {
    const { id } = await db()
      .insertInto('trips')
      .values({
        store_id: 1,
        ledger_number: `TEST-${randomUUID().slice(0, 8)}`,
        driver_id: driverId,
        vehicle_id: vehicleId,
        status,
        created_by: 'Test',
        started_at: status === 'started' ? T0 : null,
        ended_at: null,
        goods_cents: null,
        weight_grams: null,
        ended_by: null,
        cash_expected_cents: null,
        cash_collected_cents: null,
        end_note: null,
        created_at: T0,
        updated_at: T0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const stopIds: number[] = [];
    for (const [i, orderId] of orderIds.entries()) {
      const s = await db().insertInto('trip_stops').values({ trip_id: id, order_id: orderId, position: i + 1, open: 1, created_at: T0 }).returning('id').executeTakeFirstOrThrow();
      stopIds.push(s.id);
    }
    return { tripId: id, stopIds };
  }

  /** What the driver routes write when a stop is recorded. */
  const record = (stopId: number, outcome: 'delivered' | 'failed', at: string) =>
    db().updateTable('trip_stops').set({ outcome, outcome_at: at, outcome_by: 'Dana Whitfield', ...(outcome === 'failed' ? { failed_reason: 'not_home' as const } : {}) }).where('id', '=', stopId).execute();

  const track = async (number: string, phone = '(916) 555-0101', ip = `10.77.${seq}.${Math.floor(Math.random() * 250)}`) => {
    const r = await app.inject({ method: 'POST', url: '/api/order-tracking', remoteAddress: ip, headers: { host: HOST }, payload: { number, phone } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().result as { status: string; trip: { stop: number; minutes: number; text: string } | null };
  };

  const nearMessages = (orderIds: number[]) =>
    db().selectFrom('message_deliveries').selectAll().where('template', '=', NEAR_TEMPLATE).where('order_id', 'in', orderIds).orderBy('id').execute();

  const point = (zip: string) => {
    const p = zipLocation(zip)!;
    return { lat: p.lat, lng: p.lng };
  };

  beforeAll(async () => {
    ({ app } = await staffTestApp(getDb()));
    const iso = T0;
    driverId = (await db().insertInto('drivers').values({ store_id: 1, name: 'Dana Whitfield', employee_number: `E-${randomUUID().slice(0, 6)}`, licence_number: 'D1', staff_id: null, active: 1, created_at: iso, updated_at: iso }).returning('id').executeTakeFirstOrThrow()).id;
    vehicleId = (await db().insertInto('vehicles').values({ store_id: 1, make: 'Kia', model: 'Niro', plate: `P${randomUUID().slice(0, 6)}`, active: 1, created_at: iso, updated_at: iso }).returning('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => app?.close());

  it('order tracking and the order view say "you are stop 2, about N minutes", then "you are next" once the stop ahead is recorded', async () => {
    const first = await addOrder('95816');
    const mine = await addOrder('95825');
    const { stopIds } = await addTrip([first.id, mine.id]);
    // The estimate: store → 95816, 5 min at that door, → 95825 (20 mph, the road factor): the domain's own numbers.
    const expected = tripProgress(1, remainingStopMinutes(STORE, [point('95816'), point('95825')])[1]!);
    expect(expected.stop).toBe(2);
    const before = await track(mine.increment_id);
    expect(before.status).toBe('out_for_delivery');
    expect(before.trip).toEqual(expected);
    expect(before.trip!.text).toBe(`Your driver is on the way — you are stop 2, about ${expected.minutes} minutes`);
    const row = await db().selectFrom('orders').selectAll().where('id', '=', mine.id).executeTakeFirstOrThrow();
    expect((await orderStatusView(db(), row)).trip).toEqual(expected);

    await record(stopIds[0]!, 'delivered', '2026-06-15T18:20:00.000Z');
    const after = await track(mine.increment_id, '916-555-0101');
    const next = tripProgress(0, remainingStopMinutes(point('95816'), [point('95825')])[0]!);
    expect(after.trip).toEqual(next);
    expect(after.trip!.text).toMatch(/^Your driver is on the way — you are next, about \d+ minutes?$/);
    // The recorded stop's own order: nothing about the trip any more.
    expect((await track(first.increment_id)).trip).toBeNull();
  });

  it('says nothing about a trip when the order is on no started trip', async () => {
    const alone = await addOrder('95816');
    expect((await track(alone.increment_id)).trip).toBeNull();
    const planned = await addOrder('95816', undefined, 'confirmed');
    await addTrip([planned.id], 'planned');
    expect((await track(planned.increment_id)).trip).toBeNull();
  });

  it('a burst of 20 "stop recorded" calls sends the near message once, and none to a stop far away', async () => {
    const a = await addOrder('95814');
    const b = await addOrder('95811');
    const far = await addOrder('95630'); // Folsom, about 20 miles on
    const { tripId, stopIds } = await addTrip([a.id, b.id, far.id]);
    await record(stopIds[0]!, 'delivered', '2026-06-15T18:10:00.000Z');
    const told = await Promise.all(Array.from({ length: 20 }, () => afterStopRecorded(db(), 1, tripId, new Date('2026-06-15T18:10:05.000Z'))));
    expect(told.reduce((s, n) => s + n, 0)).toBe(1);
    const sent = await nearMessages([a.id, b.id, far.id]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      order_id: b.id,
      channel: 'sms',
      recipient: '+19165550101',
      subject: null,
      body: DELIVERY_PROGRESS_MESSAGES.nearSms('Verdant Downtown', b.increment_id),
      status: 'pending',
    });
    const stops = await db().selectFrom('trip_stops').select(['id', 'near_notified_at']).where('trip_id', '=', tripId).orderBy('position').execute();
    expect(stops.map((s) => s.near_notified_at != null)).toEqual([false, true, false]);

    // The next stop recorded: the far stop is still far (75 min), and b is not told again.
    await record(stopIds[1]!, 'delivered', '2026-06-15T18:14:00.000Z');
    await Promise.all(Array.from({ length: 20 }, () => afterStopRecorded(db(), 1, tripId)));
    expect(await nearMessages([a.id, b.id, far.id])).toHaveLength(1);
  });

  it('a stop told once is not told again after a later stop; the e-mail when there is no phone, or when the store chose e-mail', async () => {
    const x = await addOrder('95814');
    const y = await addOrder('95814', { email: 'yara@example.com' }); // no phone: e-mail under the default SMS
    const z = await addOrder('95814');
    const { tripId, stopIds } = await addTrip([x.id, y.id, z.id]);
    await record(stopIds[0]!, 'failed', '2026-06-15T18:30:00.000Z');
    await Promise.all(Array.from({ length: 20 }, () => afterStopRecorded(db(), 1, tripId)));
    let sent = await nearMessages([x.id, y.id, z.id]);
    expect(sent.map((m) => [m.order_id, m.channel, m.recipient])).toEqual([
      [y.id, 'email', 'yara@example.com'],
      [z.id, 'sms', '+19165550101'],
    ]);
    expect(sent[0]).toMatchObject(
      (({ subject, text }) => ({ subject, body: text }))(DELIVERY_PROGRESS_MESSAGES.nearEmail('Verdant Downtown', y.increment_id, 'Ana Reyes')),
    );
    // y recorded: z (told already, still near) is not told again.
    await record(stopIds[1]!, 'delivered', '2026-06-15T18:35:00.000Z');
    await Promise.all(Array.from({ length: 20 }, () => afterStopRecorded(db(), 1, tripId)));
    sent = await nearMessages([x.id, y.id, z.id]);
    expect(sent).toHaveLength(2);

    // The store chose e-mail (delivery-trips near_message): a customer with both gets the e-mail.
    await db()
      .insertInto('store_settings')
      .values({ store_id: 1, section: 'delivery-trips', value: JSON.stringify({ preset: 'CA', max_goods_cents: 1_000_000, max_weight_grams: null, max_orders: null, near_message: 'email' }), version: 1, updated_at: T0 })
      .execute();
    try {
      const p = await addOrder('95814');
      const q = await addOrder('95814');
      const second = await addTrip([p.id, q.id]);
      await record(second.stopIds[0]!, 'delivered', '2026-06-15T18:40:00.000Z');
      await Promise.all(Array.from({ length: 20 }, () => afterStopRecorded(db(), 1, second.tripId)));
      expect((await nearMessages([p.id, q.id])).map((m) => [m.order_id, m.channel, m.recipient])).toEqual([[q.id, 'email', 'ana@example.com']]);
    } finally {
      await db().deleteFrom('store_settings').where('store_id', '=', 1).where('section', '=', 'delivery-trips').execute();
    }
  });

  it('a trip not started, or another store\'s, sends nothing', async () => {
    const a = await addOrder('95814', undefined, 'confirmed');
    const b = await addOrder('95814', undefined, 'confirmed');
    const { tripId } = await addTrip([a.id, b.id], 'planned');
    expect(await afterStopRecorded(db(), 1, tripId)).toBe(0);
    expect(await afterStopRecorded(db(), 2, tripId)).toBe(0);
    expect(await nearMessages([a.id, b.id])).toHaveLength(0);
  });
});
