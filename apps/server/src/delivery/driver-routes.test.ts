/**
 * The driver's phone and the end of a trip (issue 29) through the real app and the real staff guard,
 * on SQLite and PostgreSQL: delivered with the ID check and a signature (the order completes with its
 * history row and the shopper's message), refusals in plain words (under 21 by one day in the store's
 * zone, the store's medical minimum age, the medical card, no signature), failed stops, the end of a
 * trip (stops still open named, cash differences per order, failed stops' goods back in stock once
 * under a burst of ends, marking the back-in-stock watches of what was sold out), the phone's retries (20 identical actions at once: applied once, the rest
 * answered the first answer with replayed: true), a driver who sees and acts on its own trips only,
 * my-trips as the phone shows it and what each phone still holds.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../db/schema.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { staffTestApp, START, type StaffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';

const HOST = 'downtown.localhost';
const BASE = '/api/console/stores/1/delivery';
const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const ADULT = { document: 'drivers_licence', birth_date: '1990-04-02', name_matches: true } as const;

type Reply = { status: number; body: { result: any; errorCode?: string; meta?: any } };

let orderSeq = 0;

describeEachDatabase('delivery: the driver’s phone and the end of a trip', (getDb) => {
  let t: StaffTestApp;
  let app: FastifyInstance;
  let manager: StaffTestSession;
  let budtender: StaffTestSession;
  let driverA: StaffTestSession;
  let driverB: StaffTestSession;
  let driverARecord = 0;
  let driverBRecord = 0;
  let vehicle = 0;
  let product = { id: 0, packageId: 'PKG-1A4000000000000001234' };
  const db = (): Kysely<Database> => getDb().db;

  async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, who: StaffTestSession = manager): Promise<Reply> {
    const res = await app.inject({
      method,
      url,
      remoteAddress: '10.233.0.1',
      headers: { host: HOST, ...who.headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }
  const act = (body: Record<string, unknown>, who: StaffTestSession = driverA) => call('POST', `${BASE}/actions`, { action_id: randomUUID(), ...body }, who);

  /** A confirmed delivery order of store 1 with one line of the test product; `taken` grams/units recorded as placing took them. */
  async function addOrder(o: { totalCents: number; license?: 'recreational' | 'medical'; taken?: number; phone?: string }): Promise<number> {
    const iso = '2026-06-15T11:00:00.000Z';
    orderSeq += 1;
    const row = await db()
      .insertInto('orders')
      .values({
        increment_id: `D${String(orderSeq).padStart(6, '0')}-${randomUUID().slice(0, 6)}`,
        store_id: 1,
        customer_id: null,
        idempotency_key: randomUUID(),
        status: 'confirmed',
        order_type: 'delivery',
        license_type: o.license ?? 'recreational',
        coupon_code: null,
        subtotal_cents: o.totalCents,
        total_cents: o.totalCents,
        thc_equivalent_grams: 3.5,
        personal_details: JSON.stringify({ firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: o.phone ?? '(916) 555-0101' }),
        shipping_address: JSON.stringify({ address: '900 J St', apt_ste: '4', city: 'Sacramento', zip: '95814' }),
        billing_address: null,
        ready_by: '2026-06-15T13:00:00.000Z',
        status_changed_at: iso,
        cancel_reason: null,
        cancel_message: null,
        released_at: null,
        birthday: '1990-04-02',
        minimum_age: 21,
        slot_start: null,
        slot_end: null,
        created_at: iso,
        updated_at: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('order_items')
      .values({ order_id: row.id, product_id: product.id, sku: 'TEST-SKU', parent_sku: null, name: 'Test Jar', type_id: 'simple', qty: 2, size: null, uom: 'ea', price_cents: o.totalCents / 2, row_total_cents: o.totalCents, product_option: null })
      .execute();
    await db()
      .insertInto('order_events')
      .values({ order_id: row.id, store_id: 1, at: iso, actor_type: 'customer', actor_id: null, actor_name: null, kind: 'placed', from_status: null, to_status: 'submitted', data: JSON.stringify({ stock: { [product.id]: o.taken ?? 2 } }) })
      .execute();
    return row.id;
  }

  /** A started trip of the driver record with these orders. */
  async function startedTrip(driverId: number, orderIds: number[]): Promise<{ id: number; ledger: string }> {
    const created = await call('POST', `${BASE}/trips`, { driverId, vehicleId: vehicle, orderIds });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const started = await call('POST', `${BASE}/trips/${created.body.result.id}/start`, {});
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    return { id: created.body.result.id, ledger: created.body.result.ledger_number };
  }

  const stockQty = async () => Number((await db().selectFrom('stock').select('qty').where('product_id', '=', product.id).executeTakeFirstOrThrow()).qty);
  const orderRow = (id: number) => db().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const stopRow = (id: number) => db().selectFrom('trip_stops').selectAll().where('order_id', '=', id).orderBy('id', 'desc').executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await staffTestApp(getDb());
    app = t.app;
    await addStaff(db(), { email: 'manager@phone.test', role: 'manager', storeIds: [1], name: 'Mia Manager' });
    await addStaff(db(), { email: 'budtender@phone.test', role: 'budtender', storeIds: [1], name: 'Bo Budtender' });
    const aStaff = await addStaff(db(), { email: 'driver-a@phone.test', role: 'driver', storeIds: [1], name: 'Dana Driver' });
    const bStaff = await addStaff(db(), { email: 'driver-b@phone.test', role: 'driver', storeIds: [1], name: 'Ben Driver' });
    manager = await loginStaff(app, 'manager@phone.test', { ip: '10.233.1.1' });
    budtender = await loginStaff(app, 'budtender@phone.test', { ip: '10.233.1.2' });
    driverA = await loginStaff(app, 'driver-a@phone.test', { ip: '10.233.1.3' });
    driverB = await loginStaff(app, 'driver-b@phone.test', { ip: '10.233.1.4' });
    driverARecord = (await call('POST', `${BASE}/drivers`, { name: 'Dana Driver', employee_number: 'P-1', licence_number: 'D100', staff_id: aStaff })).body.result.id;
    driverBRecord = (await call('POST', `${BASE}/drivers`, { name: 'Ben Driver', employee_number: 'P-2', licence_number: 'D200', staff_id: bStaff })).body.result.id;
    vehicle = (await call('POST', `${BASE}/vehicles`, { make: 'Kia', model: 'Niro', plate: 'PHONE1' })).body.result.id;
    // A product of the store's menu with a package id, its stock managed.
    const p = await db().selectFrom('products').innerJoin('stock', 'stock.product_id', 'products.id').select('products.id').where('products.store_id', '=', 1).orderBy('products.id').executeTakeFirstOrThrow();
    product = { ...product, id: p.id };
    await db().updateTable('products').set({ package_id: product.packageId }).where('id', '=', p.id).execute();
    await db().updateTable('stock').set({ qty: 100, manage_stock: 1, is_in_stock: 1 }).where('product_id', '=', p.id).execute();
  });
  afterAll(async () => app?.close());

  it('delivers with the ID check and a signature: the stop is recorded and the order completes with its history and message', async () => {
    const order = await addOrder({ totalCents: 4_200 });
    const trip = await startedTrip(driverARecord, [order]);
    const answer = await act({ kind: 'deliver', trip_id: trip.id, order_id: order, id_check: ADULT, signature_png: SIGNATURE, device_id: 'phone-aaaa-1' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.result).toMatchObject({ replayed: false, trip: { id: trip.id, status: 'started' } });
    expect(answer.body.result.trip.stops[0]).toMatchObject({ id: order, outcome: 'delivered', failed_reason: null });
    expect(await stopRow(order)).toMatchObject({ outcome: 'delivered', outcome_by: 'Dana Driver', id_document: 'drivers_licence', id_birth_date: '1990-04-02', id_name_matches: 1, signature_png: SIGNATURE });
    expect((await orderRow(order)).status).toBe('completed');
    const event = await db().selectFrom('order_events').selectAll().where('order_id', '=', order).where('to_status', '=', 'completed').executeTakeFirstOrThrow();
    expect(event.actor_name).toBe('Dana Driver');
    expect(JSON.parse(event.data!)).toMatchObject({ action: 'complete', idChecked: true, idDocument: 'drivers_licence', nameMatches: true, tripId: trip.id, signed: true });
    // The shopper's message goes out from the lifecycle's outbox event.
    const outbox = await db().selectFrom('outbox_events').select('payload').where('type', '=', 'order.status_changed').where('order_id', '=', order).execute();
    const statuses = outbox.map((e) => (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload).status);
    expect(statuses).toEqual(['out_for_delivery', 'completed']);
    // A stop is recorded once: a second deliver (another tap) is refused.
    const again = await act({ kind: 'deliver', trip_id: trip.id, order_id: order, id_check: ADULT, signature_png: SIGNATURE });
    expect(again).toMatchObject({ status: 409, body: { errorCode: 'stop_recorded' } });
    expect(again.body.result).toMatch(/is already recorded as delivered on this trip\.$/);
  });

  it('refuses a handover under age in plain words: under 21 by one day in the store’s zone, the medical minimum age, the medical card, no signature', async () => {
    const rec = await addOrder({ totalCents: 3_000 });
    const med = await addOrder({ totalCents: 3_000, license: 'medical' });
    const trip = await startedTrip(driverARecord, [rec, med]);
    // Taken at 03:00 UTC on 15 June (queued in a dead zone, sent at noon): still 14 June in Sacramento, where a
    // customer born 15 June 2005 is 20 (21 by UTC's date).
    const takenAt = '2026-06-15T03:00:00.000Z';
    const young = await act({ kind: 'deliver', trip_id: trip.id, order_id: rec, id_check: { ...ADULT, birth_date: '2005-06-15' }, signature_png: SIGNATURE, taken_at: takenAt });
    expect(young).toMatchObject({
      status: 400,
      body: { errorCode: 'under_age', result: 'The customer is 20 on this day: the order cannot be handed over. Mark the stop failed (under age).' },
    });
    // A customer born a day earlier is 21 on that day in the store's zone.
    const born14 = await act({ kind: 'deliver', trip_id: trip.id, order_id: rec, id_check: { ...ADULT, birth_date: '2005-06-14' }, signature_png: SIGNATURE, taken_at: takenAt });
    expect(born14.status, JSON.stringify(born14.body)).toBe(200);
    // Medical: the store's minimum (age section) — 19 here; a customer of 18 is refused, the card must be checked.
    const section = (await call('GET', '/api/console/stores/1/settings/sections/age')).body.result;
    expect((await call('PUT', '/api/console/stores/1/settings/sections/age', { value: { medicalMinimumAge: 19 }, version: section.version })).status).toBe(200);
    const eighteen = await act({ kind: 'deliver', trip_id: trip.id, order_id: med, id_check: { ...ADULT, birth_date: '2008-01-01', medcard_checked: true }, signature_png: SIGNATURE });
    expect(eighteen).toMatchObject({ status: 400, body: { errorCode: 'under_age' } });
    expect(eighteen.body.result).toBe("The customer is 18 on this day, under this store's minimum age of 19 for medical orders: the order cannot be handed over. Mark the stop failed (under age).");
    const noCard = await act({ kind: 'deliver', trip_id: trip.id, order_id: med, id_check: { ...ADULT, birth_date: '2007-01-01' }, signature_png: SIGNATURE });
    expect(noCard).toMatchObject({ status: 400, body: { errorCode: 'medcard_not_checked', result: "This is a medical order: check the customer's medical card and confirm it before handing over." } });
    const unsigned = await act({ kind: 'deliver', trip_id: trip.id, order_id: med, id_check: { ...ADULT, birth_date: '2007-01-01', medcard_checked: true } });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.result).toContain('The customer must sign.');
    const blank = await act({ kind: 'deliver', trip_id: trip.id, order_id: med, id_check: { ...ADULT, birth_date: '2007-01-01', medcard_checked: true }, signature_png: 'data:image/png;base64,' });
    expect(blank.body.result).toContain('The customer must sign.');
    const nameless = await act({ kind: 'deliver', trip_id: trip.id, order_id: med, id_check: { ...ADULT, name_matches: false }, signature_png: SIGNATURE });
    expect(nameless.body.result).toContain('Confirm that the name on the ID is the name on the order.');
    // Nothing of a refusal was kept.
    expect(await stopRow(med)).toMatchObject({ outcome: null, signature_png: null });
    expect((await orderRow(med)).status).toBe('out_for_delivery');
    const ok18 = await act({ kind: 'deliver', trip_id: trip.id, order_id: med, id_check: { ...ADULT, birth_date: '2007-01-01', medcard_checked: true }, signature_png: SIGNATURE });
    expect(ok18.status, JSON.stringify(ok18.body)).toBe(200);
    const medEvent = await db().selectFrom('order_events').select('data').where('order_id', '=', med).where('to_status', '=', 'completed').executeTakeFirstOrThrow();
    expect(JSON.parse(medEvent.data!)).toMatchObject({ idChecked: true, medcardChecked: true });
    const now = (await call('GET', '/api/console/stores/1/settings/sections/age')).body.result;
    await call('PUT', '/api/console/stores/1/settings/sections/age', { value: { medicalMinimumAge: 21 }, version: now.version });
  });

  it('fails a stop with a reason (a note for "other"): the order stays out for delivery; ending names the stops still open', async () => {
    const a = await addOrder({ totalCents: 1_000 });
    const b = await addOrder({ totalCents: 1_000 });
    const trip = await startedTrip(driverARecord, [a, b]);
    const noNote = await act({ kind: 'fail', trip_id: trip.id, order_id: a, reason: 'other' });
    expect(noNote).toMatchObject({ status: 400, body: { errorCode: 'note_required', result: 'Say in a note why the delivery failed (reason "Other").' } });
    const failed = await act({ kind: 'fail', trip_id: trip.id, order_id: a, reason: 'not_home' });
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(await stopRow(a)).toMatchObject({ outcome: 'failed', failed_reason: 'not_home', open: 1, restocked_at: null });
    expect((await orderRow(a)).status).toBe('out_for_delivery');
    const early = await act({ kind: 'end', trip_id: trip.id, cash: [] });
    expect(early).toMatchObject({ status: 400, body: { errorCode: 'stops_open', meta: { orderIds: [b] } } });
    const bNumber = (await orderRow(b)).increment_id;
    expect(early.body.result).toBe(`Record every stop before ending trip ${trip.ledger}. Still open: order ${bNumber} (stop 2).`);
  });

  it('ends a trip: cash per delivered order against its total, differences per order, failed stops cancelled and restocked once under a burst of 20 ends', async () => {
    const paid = await addOrder({ totalCents: 5_000 });
    const short = await addOrder({ totalCents: 3_000 });
    const gone = await addOrder({ totalCents: 2_000, taken: 2 });
    const trip = await startedTrip(driverARecord, [paid, short, gone]);
    for (const order of [paid, short]) expect((await act({ kind: 'deliver', trip_id: trip.id, order_id: order, id_check: ADULT, signature_png: SIGNATURE })).status).toBe(200);
    expect((await act({ kind: 'fail', trip_id: trip.id, order_id: gone, reason: 'refused' })).status).toBe(200);
    const before = await stockQty();

    const missing = await act({ kind: 'end', trip_id: trip.id, cash: [{ order_id: paid, cash_cents: 5_000 }] });
    expect(missing).toMatchObject({ status: 400, body: { errorCode: 'cash_missing' } });
    const wrong = await act({ kind: 'end', trip_id: trip.id, cash: [{ order_id: paid, cash_cents: 5_000 }, { order_id: short, cash_cents: 2_500 }, { order_id: gone, cash_cents: 1 }] });
    expect(wrong).toMatchObject({ status: 400, body: { errorCode: 'cash_not_delivered' } });

    const cash = [
      { order_id: paid, cash_cents: 5_000 },
      { order_id: short, cash_cents: 2_500 },
    ];
    // 10 ends from the phone (each its own action id) and 10 from the console at once: one ends it.
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => act({ kind: 'end', trip_id: trip.id, cash, note: 'Short $5 at stop 2' })),
      ...Array.from({ length: 10 }, () => call('POST', `${BASE}/trips/${trip.id}/end`, { cash, note: 'Short $5 at stop 2' })),
    ]);
    const won = answers.filter((a) => a.status === 200);
    expect(won, JSON.stringify(answers.map((a) => a.body))).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body).toMatchObject({ errorCode: 'trip_ended', result: `Trip ${trip.ledger} has already ended.` });
    const end = won[0].body.result.end;
    expect(end).toMatchObject({ cash_expected_cents: 8_000, cash_collected_cents: 7_500, difference_cents: -500 });
    expect(end.differences).toEqual([{ order_id: short, increment_id: expect.any(String), outcome: 'delivered', expected_cents: 3_000, collected_cents: 2_500, difference_cents: -500, restocked: false }]);
    expect(end.orders.find((o: { order_id: number }) => o.order_id === gone)).toMatchObject({ outcome: 'failed', expected_cents: 0, collected_cents: 0, restocked: true });
    expect(won[0].body.result.trip).toMatchObject({ status: 'ended', ended_by: expect.any(String), cash_expected_cents: 8_000, cash_collected_cents: 7_500, end_note: 'Short $5 at stop 2' });

    // Goods back in stock exactly once; the failed order cancelled with a fitting reason; no stop open.
    expect(await stockQty()).toBe(before + 2);
    expect(await orderRow(gone)).toMatchObject({ status: 'cancelled', cancel_reason: 'customer_request', cancel_message: 'The order was refused at the door.' });
    const stops = await db().selectFrom('trip_stops').selectAll().where('trip_id', '=', trip.id).execute();
    expect(stops.every((s) => s.open === null)).toBe(true);
    expect(stops.filter((s) => s.restocked_at !== null).map((s) => s.order_id)).toEqual([gone]);
    expect(stops.find((s) => s.order_id === short)?.cash_cents).toBe(2_500);
    // An ended trip takes no more stops.
    expect((await act({ kind: 'fail', trip_id: trip.id, order_id: paid, reason: 'refused' })).body.errorCode).toBe('trip_ended');
    // The failed order is free again for staff; a second end of nothing changes the stock.
    expect((await call('POST', `${BASE}/trips/${trip.id}/end`, { cash })).status).toBe(409);
    expect(await stockQty()).toBe(before + 2);
  });

  it('a failed stop bringing a sold-out product back marks its back-in-stock watch in the end’s transaction, once (issue 30)', async () => {
    const gone = await addOrder({ totalCents: 2_000, taken: 2 });
    const trip = await startedTrip(driverARecord, [gone]);
    expect((await act({ kind: 'fail', trip_id: trip.id, order_id: gone, reason: 'not_home' })).status).toBe(200);
    // The order holds the last units; a guest watches the product.
    await db().updateTable('stock').set({ qty: 0, is_in_stock: 0 }).where('product_id', '=', product.id).execute();
    const p = await db().selectFrom('products').select(['id', 'parent_id']).where('id', '=', product.id).executeTakeFirstOrThrow();
    const watched = await db()
      .insertInto('stock_watches')
      .values({
        store_id: 1,
        product_id: p.parent_id ?? p.id,
        variant_id: p.parent_id === null ? null : p.id,
        target_key: p.parent_id === null ? `p${p.id}` : `v${p.id}`,
        customer_id: null,
        contact: 'door@phone.test',
        channel: 'email',
        subscriber_key: 'email:door@phone.test',
        created_at: '2026-06-15T11:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ends = await Promise.all(Array.from({ length: 5 }, () => act({ kind: 'end', trip_id: trip.id, cash: [] })));
    expect(ends.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await stockQty()).toBe(2);
    const row = await db().selectFrom('stock_watches').select(['restocked_at', 'notified_at']).where('id', '=', watched.id).executeTakeFirstOrThrow();
    expect(row.restocked_at).not.toBeNull();
    await db().updateTable('stock').set({ qty: 100, is_in_stock: 1 }).where('product_id', '=', product.id).execute();
  });

  it('20 copies of one action at once (a phone retrying out of a dead zone): applied once, every other answered the first answer, replayed', async () => {
    const order = await addOrder({ totalCents: 1_500 });
    const created = (await call('POST', `${BASE}/trips`, { driverId: driverARecord, vehicleId: vehicle, orderIds: [order] })).body.result;
    const start = { action_id: randomUUID(), kind: 'start', trip_id: created.id, device_id: 'phone-aaaa-1' };
    const starts = await Promise.all(Array.from({ length: 20 }, () => call('POST', `${BASE}/actions`, start, driverA)));
    expect(starts.every((s) => s.status === 200), JSON.stringify(starts.filter((s) => s.status !== 200).map((s) => s.body))).toBe(true);
    expect(starts.filter((s) => s.body.result.replayed === false)).toHaveLength(1);
    const sendOuts = await db().selectFrom('order_events').select('id').where('order_id', '=', order).where('to_status', '=', 'out_for_delivery').execute();
    expect(sendOuts).toHaveLength(1);

    const deliver = { action_id: randomUUID(), kind: 'deliver', trip_id: created.id, order_id: order, id_check: ADULT, signature_png: SIGNATURE, taken_at: '2026-06-15T11:58:00.000Z' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('POST', `${BASE}/actions`, deliver, driverA)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const first = answers.filter((a) => a.body.result.replayed === false);
    expect(first).toHaveLength(1);
    for (const a of answers) expect({ ...a.body.result, replayed: false }).toEqual(first[0].body.result);
    const completions = await db().selectFrom('order_events').select('id').where('order_id', '=', order).where('to_status', '=', 'completed').execute();
    expect(completions).toHaveLength(1);
    expect(await db().selectFrom('driver_actions').select(['answer_status', 'taken_at']).where('action_id', '=', deliver.action_id).execute()).toEqual([
      { answer_status: 200, taken_at: '2026-06-15T11:58:00.000Z' },
    ]);
    // A retry later: the same first answer, replayed.
    const later = await call('POST', `${BASE}/actions`, deliver, driverA);
    expect(later.body.result).toEqual({ ...first[0].body.result, replayed: true });
    // A refusal is an answer too: its retries hear the same words.
    const refusal = { action_id: randomUUID(), kind: 'fail', trip_id: created.id, order_id: order, reason: 'not_home' };
    const refused = await Promise.all(Array.from({ length: 10 }, () => call('POST', `${BASE}/actions`, refusal, driverA)));
    expect(refused.map((r) => r.status)).toEqual(Array(10).fill(409));
    expect(refused.filter((r) => r.body.meta.replayed === false)).toHaveLength(1);
    expect(new Set(refused.map((r) => r.body.result)).size).toBe(1);
    // The same id for a different action is refused, not answered with another action's answer.
    const reused = await call('POST', `${BASE}/actions`, { ...deliver, order_id: order + 100_000 }, driverA);
    expect(reused).toMatchObject({ status: 409, body: { errorCode: 'action_id_reused' } });
  });

  it('a driver acts on and sees only its own trips; managers act on any trip of the store; budtenders on none', async () => {
    const mine = await addOrder({ totalCents: 1_000 });
    const theirs = await addOrder({ totalCents: 1_000, phone: '+1 (916) 555-0199' });
    const tripA = await startedTrip(driverARecord, [mine]);
    const tripB = await startedTrip(driverBRecord, [theirs]);
    const foreign = await act({ kind: 'fail', trip_id: tripB.id, order_id: theirs, reason: 'not_home' }, driverA);
    expect(foreign).toMatchObject({ status: 404, body: { errorCode: 'trip_not_found', result: 'No such trip in this store.' } });
    expect((await stopRow(theirs)).outcome).toBeNull();
    expect((await act({ kind: 'fail', trip_id: tripB.id, order_id: theirs, reason: 'not_home' }, budtender)).body.errorCode).toBe('forbidden');
    expect((await act({ kind: 'fail', trip_id: tripB.id, order_id: theirs, reason: 'not_home' }, manager)).status).toBe(200);
    expect((await call('POST', `${BASE}/trips/${tripA.id}/end`, { cash: [] }, driverA)).body.errorCode).toBe('forbidden');

    // my-trips: A sees its own open trips (and those ended today), never B's.
    const myA = (await call('GET', `${BASE}/my-trips`, undefined, driverA)).body.result.items;
    const idsA = myA.map((x: { id: number }) => x.id);
    expect(idsA).toContain(tripA.id);
    expect(idsA).not.toContain(tripB.id);
    const myB = (await call('GET', `${BASE}/my-trips`, undefined, driverB)).body.result.items;
    expect(myB.map((x: { id: number }) => x.id)).toEqual([tripB.id]);
    expect((await call('GET', `${BASE}/my-trips`, undefined, manager)).body.result.items).toEqual([]);

    // The stop as the phone shows it: items with the menu's package id; the store's number by default.
    const stop = myA.find((x: { id: number }) => x.id === tripA.id).stops[0];
    const number = (await orderRow(mine)).increment_id;
    expect(stop).toMatchObject({
      order_id: mine,
      increment_id: number,
      position: 1,
      customer_first_name: 'Ana',
      address: '900 J St, Apt 4, Sacramento 95814',
      navigation_url: 'https://www.google.com/maps/search/?api=1&query=900%20J%20St%2C%20Apt%204%2C%20Sacramento%2095814',
      call_url: 'tel:9165550120',
      text_url: `sms:9165550120?body=${encodeURIComponent(`Order ${number}: `)}`,
      license_type: 'recreational',
      items: [{ name: 'Test Jar', size: null, qty: 2, package_id: product.packageId }],
      total_cents: 1_000,
      outcome: null,
    });
    // A store that lets drivers see customers' numbers.
    const section = (await call('GET', '/api/console/stores/1/settings/sections/delivery-trips')).body.result;
    expect(section.value.drivers_see_customer_phone).toBe(false);
    const saved = await call('PUT', '/api/console/stores/1/settings/sections/delivery-trips', { value: { ...section.value, drivers_see_customer_phone: true }, version: section.version });
    expect(saved.status).toBe(200);
    const direct = (await call('GET', `${BASE}/my-trips`, undefined, driverB)).body.result.items[0].stops[0];
    expect(direct).toMatchObject({ call_url: 'tel:+19165550199', text_url: 'sms:+19165550199', outcome: 'failed', failed_reason: 'not_home' });
    await call('PUT', '/api/console/stores/1/settings/sections/delivery-trips', { value: { ...section.value, drivers_see_customer_phone: false }, version: saved.body.result.version });
  });

  it('phones report what they still hold; managers and budtenders see it per phone', async () => {
    const report = await call('POST', `${BASE}/devices/report`, { device_id: 'phone-bbbb-2', pending: 3, oldest_pending_at: '2026-06-15T11:40:00.000Z' }, driverB);
    expect(report.status).toBe(200);
    // Reports from one phone at once keep one row.
    await Promise.all(Array.from({ length: 10 }, (_, i) => call('POST', `${BASE}/devices/report`, { device_id: 'phone-aaaa-1', pending: i, oldest_pending_at: null }, driverA)));
    expect((await call('POST', `${BASE}/devices/report`, { device_id: 'phone-aaaa-1', pending: 0, oldest_pending_at: null }, driverA)).status).toBe(200);
    const list = (await call('GET', `${BASE}/devices`, undefined, budtender)).body.result.items;
    expect(list).toEqual([
      { device_id: 'phone-bbbb-2', staff_id: driverB.staff.id, staff_name: 'Ben Driver', pending: 3, oldest_pending_at: '2026-06-15T11:40:00.000Z', seen_at: START.toISOString() },
      { device_id: 'phone-aaaa-1', staff_id: driverA.staff.id, staff_name: 'Dana Driver', pending: 0, oldest_pending_at: null, seen_at: START.toISOString() },
    ]);
    expect((await call('GET', `${BASE}/devices`, undefined, driverA)).body.errorCode).toBe('forbidden');
    expect((await call('POST', `${BASE}/devices/report`, { device_id: 'x', pending: -1, oldest_pending_at: null }, driverA)).status).toBe(400);
  });
});
