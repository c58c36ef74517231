/**
 * Drivers, vehicles and trips (issue 29) through the real app and the real staff guard, on SQLite
 * and PostgreSQL: CRUD with clear refusals, the orders ready to go by zone and slot, trips built,
 * changed and started, the store's trip limits refusing a start in words that name the limit and by
 * how much (California's $10,000 preset), the suggested stop order, a driver who sees only its own
 * trips and manages nothing, and a burst of 20 parallel "add order X" to 20 trips: exactly one wins.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../db/schema.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { staffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile, seedDemoFleet } from '../seed/index.ts';

const HOST = 'downtown.localhost';
const BASE = '/api/console/stores/1/delivery';

type Reply = { status: number; body: { result: any; errorCode?: string; meta?: any } };

let orderSeq = 0;
/** A placed order of store 1, as checkout would have left it (the trip code reads these columns). */
async function addOrder(
  db: Kysely<Database>,
  o: { zip: string; totalCents: number; grams?: number; status?: 'confirmed' | 'submitted'; type?: 'delivery' | 'pickup'; slot?: [string, string] | null },
): Promise<number> {
  const iso = '2026-06-15T11:00:00.000Z';
  orderSeq += 1;
  const row = await db
    .insertInto('orders')
    .values({
      increment_id: `T${String(orderSeq).padStart(6, '0')}-${randomUUID().slice(0, 6)}`,
      store_id: 1,
      customer_id: null,
      idempotency_key: randomUUID(),
      status: o.status ?? 'confirmed',
      order_type: o.type ?? 'delivery',
      license_type: 'recreational',
      coupon_code: null,
      subtotal_cents: o.totalCents,
      total_cents: o.totalCents,
      thc_equivalent_grams: o.grams ?? 3.5,
      personal_details: JSON.stringify({ firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' }),
      shipping_address: o.type === 'pickup' ? null : JSON.stringify({ address: '900 J St', city: 'Sacramento', zip: o.zip }),
      billing_address: null,
      ready_by: '2026-06-15T13:00:00.000Z',
      status_changed_at: iso,
      cancel_reason: null,
      cancel_message: null,
      released_at: null,
      birthday: '1990-01-01',
      minimum_age: 21,
      slot_start: o.slot === undefined || o.slot === null ? null : o.slot[0],
      slot_end: o.slot === undefined || o.slot === null ? null : o.slot[1],
      created_at: iso,
      updated_at: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describeEachDatabase('delivery: drivers, vehicles and trips', (getDb) => {
  let app: FastifyInstance;
  let manager: StaffTestSession;
  let budtender: StaffTestSession;
  let driverA: StaffTestSession;
  let driverB: StaffTestSession;
  let driverAStaff = 0;
  let driverBStaff = 0;
  const db = () => getDb().db;

  async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, who: StaffTestSession = manager): Promise<Reply> {
    const res = await app.inject({
      method,
      url,
      remoteAddress: '10.232.0.1',
      headers: { host: HOST, ...who.headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }
  const newDriver = async (n: number, extra: Record<string, unknown> = {}) =>
    (await call('POST', `${BASE}/drivers`, { name: `Driver ${n}`, employee_number: `E-${n}`, licence_number: `L${n}`, ...extra })).body.result.id as number;
  const newVehicle = async (n: number) => (await call('POST', `${BASE}/vehicles`, { make: 'Kia', model: 'Niro', plate: `TST${n}` })).body.result.id as number;

  beforeAll(async () => {
    ({ app } = await staffTestApp(getDb()));
    // What the demo seed writes on a first start (seed/write.ts ensureSeeded); a second run writes nothing.
    const stores = readStoresFile(DEMO_STORES_FILE);
    expect(await seedDemoFleet(db(), stores, new Date())).toEqual({ drivers: 8, vehicles: 8 });
    expect(await seedDemoFleet(db(), stores, new Date())).toEqual({ drivers: 0, vehicles: 0 });
    await addStaff(db(), { email: 'manager@trips.test', role: 'manager', storeIds: [1], name: 'Mia Manager' });
    await addStaff(db(), { email: 'budtender@trips.test', role: 'budtender', storeIds: [1] });
    driverAStaff = await addStaff(db(), { email: 'driver-a@trips.test', role: 'driver', storeIds: [1] });
    driverBStaff = await addStaff(db(), { email: 'driver-b@trips.test', role: 'driver', storeIds: [1] });
    manager = await loginStaff(app, 'manager@trips.test', { ip: '10.232.1.1' });
    budtender = await loginStaff(app, 'budtender@trips.test', { ip: '10.232.1.2' });
    driverA = await loginStaff(app, 'driver-a@trips.test', { ip: '10.232.1.3' });
    driverB = await loginStaff(app, 'driver-b@trips.test', { ip: '10.232.1.4' });
  });
  afterAll(async () => app?.close());

  it('the demo store has its two drivers and two vehicles', async () => {
    const drivers = (await call('GET', `${BASE}/drivers`, undefined, budtender)).body.result.items;
    const vehicles = (await call('GET', `${BASE}/vehicles`, undefined, budtender)).body.result.items;
    expect(drivers.map((d: { name: string }) => d.name).sort()).toEqual(['Dana Whitfield', 'Marco Ibarra']);
    expect(vehicles).toHaveLength(2);
    expect(vehicles.every((v: { make: string; plate: string; active: boolean }) => v.make && v.plate && v.active)).toBe(true);
  });

  it('managers add, change and delete drivers and vehicles, with clear refusals; budtenders only read', async () => {
    const created = await call('POST', `${BASE}/drivers`, { name: ' Rita Moreno ', employee_number: 'E-900', licence_number: 'D1234567' });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ name: 'Rita Moreno', employee_number: 'E-900', licence_number: 'D1234567', staff_id: null, active: true });
    const id = created.body.result.id;

    const missing = await call('POST', `${BASE}/drivers`, { name: 'No Numbers' });
    expect(missing.status).toBe(400);
    expect(missing.body.result).toContain('Employee number is required.');
    const twice = await call('POST', `${BASE}/drivers`, { name: 'Other', employee_number: 'E-900', licence_number: 'X1' });
    expect(twice).toMatchObject({ status: 409, body: { errorCode: 'employee_number_taken', result: 'Another driver of this store has employee number E-900.' } });
    const notDriver = await call('PATCH', `${BASE}/drivers/${id}`, { staff_id: budtender.staff.id });
    expect(notDriver).toMatchObject({ status: 400, body: { errorCode: 'staff_not_driver' } });
    const linked = await call('PATCH', `${BASE}/drivers/${id}`, { staff_id: driverAStaff, active: false });
    expect(linked.body.result).toMatchObject({ staff_id: driverAStaff, active: false, name: 'Rita Moreno' });
    expect((await call('PATCH', `${BASE}/drivers/${id}`, {})).body.result).toBe('Send at least one field to change.');

    expect((await call('POST', `${BASE}/drivers`, { name: 'B', employee_number: 'E-1', licence_number: 'L' }, budtender)).status).toBe(403);
    expect((await call('GET', `${BASE}/drivers`, undefined, budtender)).body.result.items.map((d: { id: number }) => d.id)).toContain(id);

    const car = await call('POST', `${BASE}/vehicles`, { make: 'Honda', model: 'Fit', plate: 'abc 123' });
    expect(car.body.result).toMatchObject({ make: 'Honda', model: 'Fit', plate: 'ABC 123', active: true });
    expect(await call('POST', `${BASE}/vehicles`, { make: 'Honda', model: 'Civic', plate: 'ABC 123' })).toMatchObject({
      status: 409,
      body: { result: 'Another vehicle of this store has the plate ABC 123.' },
    });
    const noPlate = await call('POST', `${BASE}/vehicles`, { make: 'Honda', model: 'Fit', plate: '' });
    expect(noPlate.status).toBe(400);
    expect(noPlate.body.result).toContain('Plate is required.');
    expect((await call('DELETE', `${BASE}/vehicles/${car.body.result.id}`)).status).toBe(200);
    expect((await call('GET', `${BASE}/vehicles`)).body.result.items.map((v: { id: number }) => v.id)).not.toContain(car.body.result.id);
    expect((await call('DELETE', `${BASE}/drivers/${id}`)).status).toBe(200);
    expect((await call('GET', `${BASE}/drivers/999999`)).status).toBe(404);
  });

  it('lists confirmed delivery orders on no trip by zone and slot, builds, changes and starts a trip', async () => {
    const slot: [string, string] = ['2026-06-15T18:00:00.000Z', '2026-06-15T19:00:00.000Z'];
    const near = await addOrder(db(), { zip: '95814', totalCents: 4_000, slot });
    const mid = await addOrder(db(), { zip: '95816', totalCents: 5_000, slot });
    const far = await addOrder(db(), { zip: '95822', totalCents: 6_000 });
    const oakland = await addOrder(db(), { zip: '94607', totalCents: 7_000 });
    const pickup = await addOrder(db(), { zip: '95814', totalCents: 1_000, type: 'pickup' });
    const waiting = await addOrder(db(), { zip: '95814', totalCents: 1_000, status: 'submitted' });

    const ready = (await call('GET', `${BASE}/ready`, undefined, budtender)).body.result;
    const ids = (zone: string) => ready.zones.find((z: { zone: string }) => z.zone === zone)?.slots.map((s: { slot_start: string | null; orders: { id: number }[] }) => [s.slot_start, s.orders.map((o) => o.id)]);
    expect(ids('Within 10 miles')).toEqual([
      [null, expect.arrayContaining([far])],
      [slot[0], [near, mid]],
    ]);
    expect(ids('Outside the zones')).toEqual([[null, [oakland]]]);
    const all = ready.zones.flatMap((z: any) => z.slots.flatMap((s: any) => s.orders.map((o: any) => o.id)));
    expect(all).not.toContain(pickup);
    expect(all).not.toContain(waiting);

    const driver = await newDriver(10);
    const vehicle = await newVehicle(10);
    expect((await call('POST', `${BASE}/trips`, { driverId: driver, vehicleId: vehicle, orderIds: [pickup] })).body).toMatchObject({ errorCode: 'order_not_delivery' });
    expect((await call('POST', `${BASE}/trips`, { driverId: driver, vehicleId: vehicle, orderIds: [waiting] })).body.result).toMatch(/is submitted: only confirmed delivery orders go on a trip\./);
    expect((await call('POST', `${BASE}/trips`, { driverId: 987654, vehicleId: vehicle, orderIds: [] })).body.result).toBe('No such driver in this store.');
    expect((await call('POST', `${BASE}/trips`, { driverId: driver, vehicleId: vehicle, orderIds: [far] }, budtender)).status).toBe(403);

    const created = await call('POST', `${BASE}/trips`, { driverId: driver, vehicleId: vehicle, orderIds: [far, near] });
    expect(created.status).toBe(200);
    const trip = created.body.result;
    expect(trip).toMatchObject({ status: 'planned', ledger_number: expect.stringMatching(/^DOWNTOWN-T\d{6}$/), created_by: 'Mia Manager', load: { goods_cents: 10_000, orders: 2 } });
    expect(trip.stops.map((s: { id: number; position: number }) => [s.id, s.position])).toEqual([
      [far, 1],
      [near, 2],
    ]);
    // On a trip: no longer ready; not addable to another trip.
    const readyNow = (await call('GET', `${BASE}/ready`)).body.result.zones.flatMap((z: any) => z.slots.flatMap((s: any) => s.orders.map((o: any) => o.id)));
    expect(readyNow).not.toContain(far);
    const other = await call('POST', `${BASE}/trips`, { driverId: driver, vehicleId: vehicle, orderIds: [near] });
    expect(other).toMatchObject({ status: 409, body: { errorCode: 'order_on_trip' } });
    expect(other.body.result).toMatch(new RegExp(`is already on trip ${trip.ledger_number}\\.$`));

    const added = await call('POST', `${BASE}/trips/${trip.id}/stops`, { orderId: mid });
    expect(added.body.result.stops.map((s: { id: number }) => s.id)).toEqual([far, near, mid]);
    const suggested = (await call('GET', `${BASE}/trips/${trip.id}/suggested-order`, undefined, budtender)).body.result;
    expect(suggested.orderIds).toEqual([near, mid, far]);
    expect(suggested.stops[0].miles).toBeLessThan(suggested.stops[1].miles);
    expect(suggested.stops[1].miles).toBeLessThan(suggested.stops[2].miles);
    expect((await call('PUT', `${BASE}/trips/${trip.id}/stops`, { orderIds: [near, far] })).body.errorCode).toBe('stops_mismatch');
    const reordered = await call('PUT', `${BASE}/trips/${trip.id}/stops`, { orderIds: suggested.orderIds });
    expect(reordered.body.result.stops.map((s: { id: number; position: number }) => [s.id, s.position])).toEqual([
      [near, 1],
      [mid, 2],
      [far, 3],
    ]);
    const removed = await call('DELETE', `${BASE}/trips/${trip.id}/stops/${mid}`);
    expect(removed.body.result.stops.map((s: { id: number; position: number }) => [s.id, s.position])).toEqual([
      [near, 1],
      [far, 2],
    ]);

    const started = await call('POST', `${BASE}/trips/${trip.id}/start`, {});
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.result).toMatchObject({ status: 'started', started_at: '2026-06-15T12:00:00.000Z' });
    const statuses = await db().selectFrom('orders').select(['id', 'status']).where('id', 'in', [near, far, mid]).execute();
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({ [near]: 'out_for_delivery', [far]: 'out_for_delivery', [mid]: 'confirmed' });
    const events = await db().selectFrom('order_events').select(['order_id', 'to_status', 'actor_name']).where('order_id', 'in', [near, far]).execute();
    expect(events.filter((e) => e.to_status === 'out_for_delivery')).toHaveLength(2);
    expect((await call('POST', `${BASE}/trips/${trip.id}/stops`, { orderId: mid })).body).toMatchObject({ errorCode: 'trip_not_planned', result: `Trip ${trip.ledger_number} has started: its stops can no longer change.` });
    expect((await call('POST', `${BASE}/trips/${trip.id}/start`, {})).status).toBe(409);
  });

  it('refuses to start a trip over a limit, naming the limit and by how much (California $10,000 of goods)', async () => {
    const section = (await call('GET', '/api/console/stores/1/settings/sections/delivery-trips')).body.result;
    expect(section.value).toEqual({ preset: 'CA', max_goods_cents: 1_000_000, max_weight_grams: null, max_orders: null, drivers_see_customer_phone: false });
    const driver = await newDriver(20);
    const vehicle = await newVehicle(20);
    const a = await addOrder(db(), { zip: '95814', totalCents: 600_000 });
    const b = await addOrder(db(), { zip: '95816', totalCents: 441_250 });
    const trip = (await call('POST', `${BASE}/trips`, { driverId: driver, vehicleId: vehicle, orderIds: [a, b] })).body.result;
    expect(trip.over.map((p: { limit: string }) => p.limit)).toEqual(['goods']);
    const refused = await call('POST', `${BASE}/trips/${trip.id}/start`, {});
    expect(refused).toMatchObject({ status: 400, body: { errorCode: 'trip_over_limit', result: 'Goods on this trip are $10,412.50, $412.50 over the $10,000.00 limit.' } });
    // Nothing of the start was kept.
    expect((await call('GET', `${BASE}/trips/${trip.id}`)).body.result.status).toBe('planned');
    expect((await db().selectFrom('orders').select('status').where('id', '=', a).executeTakeFirstOrThrow()).status).toBe('confirmed');

    // The store's own limits: one order per trip and 5 g.
    const saved = await call('PUT', '/api/console/stores/1/settings/sections/delivery-trips', {
      value: { preset: 'custom', max_goods_cents: 2_000_000, max_weight_grams: 5, max_orders: 1 },
      version: section.version,
    });
    expect(saved.status).toBe(200);
    const both = await call('POST', `${BASE}/trips/${trip.id}/start`, {});
    expect(both.body.result).toBe('Cannabis on this trip weighs 7 g, 2 g over the 5 g limit. This trip has 2 orders, 1 over the limit of 1 order per trip.');
    expect(both.body.meta.over.map((p: { limit: string; over: number }) => [p.limit, p.over])).toEqual([
      ['weight', 2],
      ['orders', 1],
    ]);
    const bad = await call('PUT', '/api/console/stores/1/settings/sections/delivery-trips', { value: { preset: 'custom', max_goods_cents: -1, max_weight_grams: null, max_orders: 0 }, version: saved.body.result.version });
    expect(bad.status).toBe(400);
    expect(bad.body.result).toMatch(/max_goods_cents must be more than 0\./);
    // Under the limits it starts.
    expect((await call('DELETE', `${BASE}/trips/${trip.id}/stops/${b}`)).status).toBe(200);
    expect((await call('POST', `${BASE}/trips/${trip.id}/start`, {})).body.result.status).toBe('started');
    await call('PUT', '/api/console/stores/1/settings/sections/delivery-trips', { value: { preset: 'CA', max_goods_cents: 1_000_000, max_weight_grams: null, max_orders: null }, version: saved.body.result.version });
  });

  it('a driver sees only its own trips and manages nothing', async () => {
    const mine = await newDriver(30, { staff_id: driverAStaff });
    const theirs = await newDriver(31, { staff_id: driverBStaff });
    const vehicle = await newVehicle(30);
    const o1 = await addOrder(db(), { zip: '95814', totalCents: 1_000 });
    const o2 = await addOrder(db(), { zip: '95814', totalCents: 1_000 });
    const t1 = (await call('POST', `${BASE}/trips`, { driverId: mine, vehicleId: vehicle, orderIds: [o1] })).body.result.id;
    const t2 = (await call('POST', `${BASE}/trips`, { driverId: theirs, vehicleId: vehicle, orderIds: [o2] })).body.result.id;

    expect((await call('GET', `${BASE}/trips`, undefined, driverA)).body.result.items.map((t: { id: number }) => t.id)).toEqual([t1]);
    expect((await call('GET', `${BASE}/trips`, undefined, driverB)).body.result.items.map((t: { id: number }) => t.id)).toEqual([t2]);
    expect((await call('GET', `${BASE}/trips/${t1}`, undefined, driverA)).body.result.stops.map((s: { id: number }) => s.id)).toEqual([o1]);
    expect(await call('GET', `${BASE}/trips/${t2}`, undefined, driverA)).toMatchObject({ status: 404, body: { errorCode: 'trip_not_found' } });
    const managerSees = (await call('GET', `${BASE}/trips?status=planned`)).body.result.items.map((t: { id: number }) => t.id);
    expect(managerSees).toEqual(expect.arrayContaining([t1, t2]));
    for (const [method, url, body] of [
      ['GET', `${BASE}/drivers`, undefined],
      ['GET', `${BASE}/ready`, undefined],
      ['POST', `${BASE}/trips`, { driverId: mine, vehicleId: vehicle, orderIds: [] }],
      ['POST', `${BASE}/trips/${t1}/start`, {}],
      ['POST', `${BASE}/trips/${t1}/stops`, { orderId: o2 }],
      ['PATCH', `${BASE}/drivers/${mine}`, { name: 'Me' }],
    ] as const)
      expect((await call(method, url, body, driverA)).body, `${method} ${url}`).toMatchObject({ errorCode: 'forbidden' });
    expect((await call('GET', '/api/console/stores/2/delivery/trips', undefined, driverA)).status).toBe(403);
    expect((await db().selectFrom('trips').select('status').where('id', '=', t1).executeTakeFirstOrThrow()).status).toBe('planned');
  });

  it('a start and 10 adds to the same trip at once: every stop that made it went out, the rest were refused', async () => {
    const driver = await newDriver(50);
    const vehicle = await newVehicle(50);
    const first = await addOrder(db(), { zip: '95814', totalCents: 1_000 });
    const trip = (await call('POST', `${BASE}/trips`, { driverId: driver, vehicleId: vehicle, orderIds: [first] })).body.result;
    const more: number[] = [];
    for (let i = 0; i < 10; i++) more.push(await addOrder(db(), { zip: '95816', totalCents: 1_000 }));
    const [start, ...adds] = await Promise.all([
      call('POST', `${BASE}/trips/${trip.id}/start`, {}),
      ...more.map((orderId) => call('POST', `${BASE}/trips/${trip.id}/stops`, { orderId })),
    ]);
    expect(start.status).toBe(200);
    for (const a of adds) expect([200, 409]).toContain(a.status);
    for (const a of adds.filter((x) => x.status === 409)) expect(a.body.errorCode).toBe('trip_not_planned');
    const stops = await db().selectFrom('trip_stops').innerJoin('orders', 'orders.id', 'trip_stops.order_id').select(['orders.id', 'orders.status']).where('trip_id', '=', trip.id).execute();
    expect(stops).toHaveLength(1 + adds.filter((a) => a.status === 200).length);
    expect(stops.every((o) => o.status === 'out_for_delivery')).toBe(true);
    const started = (await call('GET', `${BASE}/trips/${trip.id}`)).body.result;
    expect(started.status).toBe('started');
    expect(started.stops).toHaveLength(stops.length);
    // Orders refused stay ready for another trip.
    const refused = more.filter((_, i) => adds[i].status === 409);
    const ready = (await call('GET', `${BASE}/ready`)).body.result.zones.flatMap((z: any) => z.slots.flatMap((x: any) => x.orders.map((o: any) => o.id)));
    expect(ready).toEqual(expect.arrayContaining(refused));
  });

  it('20 dispatchers add the same order to 20 trips at once: exactly one succeeds', async () => {
    const driver = await newDriver(40);
    const vehicle = await newVehicle(40);
    const order = await addOrder(db(), { zip: '95816', totalCents: 2_500 });
    const trips: number[] = [];
    for (let i = 0; i < 20; i++) trips.push((await call('POST', `${BASE}/trips`, { driverId: driver, vehicleId: vehicle, orderIds: [] })).body.result.id);
    const answers = await Promise.all(trips.map((t) => call('POST', `${BASE}/trips/${t}/stops`, { orderId: order })));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.errorCode === 'order_on_trip')).toHaveLength(19);
    const rows = await db().selectFrom('trip_stops').select(['trip_id']).where('order_id', '=', order).execute();
    expect(rows).toHaveLength(1);
    expect(won[0].body.result.id).toBe(rows[0].trip_id);
    // The refusals name the trip that has it.
    const ledger = won[0].body.result.ledger_number;
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.result?.endsWith(`is already on trip ${ledger}.`))).toBe(true);
  });
});
