/**
 * Delivery paperwork (issue 29 "Paperwork") through the real app and staff guard, on SQLite and
 * PostgreSQL: the trip manifest rebuilt at each stop (driver, vehicle, package ids, outcomes, goods
 * carried), the end-of-day records cut at the store's midnight (America/Los_Angeles), the delivery
 * request receipt (preparer from the history, signature), CSV quoting and the formula guard with
 * download names, who may read what, the record-retention setting and its California preset, a trip
 * inside the period that cannot be deleted (a burst of parallel deletes of an old one: one wins), and
 * the purge with a fixed clock (a burst of parallel purges removes each old trip once).
 * The stop outcomes are written to trip_stops directly (the driver's routes that fill them live elsewhere).
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
import { purgeDeliveryRecords } from './paperwork.ts';

const HOST = 'downtown.localhost';
const BASE = '/api/console/stores/1/delivery-records';
const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const NASTY = '=HYPERLINK("http://x.test","Pre-roll, 5 pack")\nline two';

type Reply = { status: number; body: { result: any; errorCode?: string; meta?: any }; headers: Record<string, unknown>; text: string };

let seq = 0;
async function addOrder(db: Kysely<Database>, o: { zip: string; city: string; totalCents: number; medical?: boolean; customerId?: number | null; productId: number; itemName?: string }): Promise<number> {
  const iso = '2026-06-15T17:00:00.000Z';
  seq += 1;
  const { id } = await db
    .insertInto('orders')
    .values({
      increment_id: `P${String(seq).padStart(6, '0')}-${randomUUID().slice(0, 6)}`,
      store_id: 1,
      customer_id: o.customerId ?? null,
      idempotency_key: randomUUID(),
      status: 'confirmed',
      order_type: 'delivery',
      license_type: o.medical ? 'medical' : 'recreational',
      coupon_code: null,
      subtotal_cents: o.totalCents - 300,
      excise_tax_cents: 200,
      sales_tax_cents: 100,
      total_cents: o.totalCents,
      thc_equivalent_grams: 3.5,
      personal_details: JSON.stringify({ firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' }),
      shipping_address: JSON.stringify({ address: '900 J St', apt_ste: '2B', city: o.city, zip: o.zip }),
      billing_address: null,
      ready_by: iso,
      status_changed_at: iso,
      cancel_reason: null,
      cancel_message: null,
      released_at: null,
      birthday: '1990-01-01',
      minimum_age: 21,
      slot_start: null,
      slot_end: null,
      created_at: iso,
      updated_at: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('order_items')
    .values({
      order_id: id,
      product_id: o.productId,
      sku: 'PR-5',
      parent_sku: null,
      name: o.itemName ?? 'Blue Dream 3.5g',
      type_id: 'simple',
      qty: 2,
      size: null,
      uom: 'ea',
      price_cents: (o.totalCents - 300) / 2,
      row_total_cents: o.totalCents - 300,
      thc_equivalent_grams: 3.5,
      product_option: null,
    })
    .execute();
  return id;
}

/** Parse RFC 4180 CSV (quoted cells, doubled quotes, newlines inside quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\n') row.push(cell), rows.push(row), (row = []), (cell = '');
    else cell += c;
  }
  return rows;
}

describeEachDatabase('delivery paperwork: manifest, end of day, receipt, export, retention', (getDb) => {
  let app: FastifyInstance;
  let manager: StaffTestSession;
  let budtender: StaffTestSession;
  let driverA: StaffTestSession;
  let driverB: StaffTestSession;
  let driverId = 0;
  let vehicleId = 0;
  let productId = 0;
  let tripId = 0;
  let orders: number[] = [];
  const db = () => getDb().db;

  async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, who: StaffTestSession = manager): Promise<Reply> {
    const res = await app.inject({
      method,
      url,
      remoteAddress: '10.233.0.1',
      headers: { host: HOST, ...who.headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    const json = res.headers['content-type']?.toString().includes('json') ? res.json() : { result: null };
    return { status: res.statusCode, body: json, headers: res.headers, text: res.body };
  }

  /** A trip of the given orders, started by the manager through the routes. */
  async function startedTrip(orderIds: number[]): Promise<number> {
    const created = await call('POST', '/api/console/stores/1/delivery/trips', { driverId, vehicleId, orderIds });
    expect(created.status).toBe(200);
    const started = await call('POST', `/api/console/stores/1/delivery/trips/${created.body.result.id}/start`);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    return created.body.result.id;
  }
  const endTrip = (id: number, endedAt: string) =>
    db()
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('trips').set({ status: 'ended', ended_at: endedAt, ended_by: 'Mia Manager' }).where('id', '=', id).execute();
        await trx.updateTable('trip_stops').set({ open: null }).where('trip_id', '=', id).execute();
      });

  beforeAll(async () => {
    ({ app } = await staffTestApp(getDb()));
    await seedDemoFleet(db(), readStoresFile(DEMO_STORES_FILE), new Date());
    await addStaff(db(), { email: 'manager@paper.test', role: 'manager', storeIds: [1], name: 'Mia Manager' });
    await addStaff(db(), { email: 'budtender@paper.test', role: 'budtender', storeIds: [1] });
    const aStaff = await addStaff(db(), { email: 'driver-a@paper.test', role: 'driver', storeIds: [1] });
    await addStaff(db(), { email: 'driver-b@paper.test', role: 'driver', storeIds: [1] });
    manager = await loginStaff(app, 'manager@paper.test', { ip: '10.233.1.1' });
    budtender = await loginStaff(app, 'budtender@paper.test', { ip: '10.233.1.2' });
    driverA = await loginStaff(app, 'driver-a@paper.test', { ip: '10.233.1.3' });
    driverB = await loginStaff(app, 'driver-b@paper.test', { ip: '10.233.1.4' });
    driverId = (await call('POST', '/api/console/stores/1/delivery/drivers', { name: 'Rita Moreno', employee_number: 'E-77', licence_number: 'D7654321', staff_id: aStaff })).body.result.id;
    vehicleId = (await call('POST', '/api/console/stores/1/delivery/vehicles', { make: 'Toyota', model: 'Prius', plate: 'PAPER1' })).body.result.id;
    const product = await db().selectFrom('products').select('id').where('store_id', '=', 1).orderBy('id').executeTakeFirstOrThrow();
    productId = product.id;
    await db().updateTable('products').set({ package_id: '1A4060300002F1D000001234', batch_number: 'B-2026-06' }).where('id', '=', productId).execute();
    orders = [
      await addOrder(db(), { zip: '95814', city: 'Sacramento', totalCents: 4300, productId, customerId: null }),
      await addOrder(db(), { zip: '95816', city: 'Sacramento', totalCents: 2300, medical: true, productId, itemName: NASTY }),
    ];
    // The budtender who confirmed the first order (the receipt's preparer).
    await db()
      .insertInto('order_events')
      .values({ order_id: orders[0], store_id: 1, at: '2026-06-15T17:05:00.000Z', actor_type: 'staff', actor_id: budtender.staff.id, actor_name: 'Bea Budtender', kind: 'status', from_status: 'submitted', to_status: 'confirmed', data: null })
      .execute();
    tripId = await startedTrip(orders);
  });
  afterAll(async () => app?.close());

  it('the manifest carries the ledger fields and is rebuilt at each stop', async () => {
    const before = await call('GET', `${BASE}/trips/${tripId}/manifest`);
    expect(before.status).toBe(200);
    const m = before.body.result;
    expect(m).toMatchObject({
      status: 'started',
      store: { license_number: expect.any(String), timezone: 'America/Los_Angeles' },
      driver: { name: 'Rita Moreno', employee_number: 'E-77', licence_number: 'D7654321' },
      vehicle: { make: 'Toyota', model: 'Prius', plate: 'PAPER1' },
      load: { goods_cents: 6600, orders: 2, weight_grams: 7 },
      carried: { goods_cents: 6600, orders: 2 },
    });
    expect(m.ledger_number).toMatch(/^DOWNTOWN-T\d{6}$/);
    expect(m.started_at).toEqual(expect.any(String));
    expect(m.stops.map((s: { position: number; outcome: null }) => [s.position, s.outcome])).toEqual([
      [1, null],
      [2, null],
    ]);
    expect(m.stops[0]).toMatchObject({ customer_type: 'adult-use', city: 'Sacramento', zip: '95814', address: '900 J St, Apt 2B, Sacramento 95814' });
    expect(m.stops[1].customer_type).toBe('medical');
    expect(m.stops[0].lines).toEqual([
      expect.objectContaining({ qty: 2, uom: 'ea', package_id: '1A4060300002F1D000001234', batch_number: 'B-2026-06', row_total_cents: 4000 }),
    ]);

    // Stop 1 delivered, stop 2 failed: the same read now shows both and what is still on board.
    await db()
      .updateTable('trip_stops')
      .set({ outcome: 'delivered', outcome_at: '2026-06-16T06:30:00.000Z', outcome_by: 'Rita Moreno', id_document: 'drivers_licence', id_birth_date: '1990-01-01', id_name_matches: 1, id_checked_at: '2026-06-16T06:29:00.000Z', signature_png: SIGNATURE })
      .where('trip_id', '=', tripId)
      .where('order_id', '=', orders[0])
      .execute();
    await db()
      .updateTable('trip_stops')
      .set({ outcome: 'failed', outcome_at: '2026-06-16T07:10:00.000Z', failed_reason: 'not_home' })
      .where('trip_id', '=', tripId)
      .where('order_id', '=', orders[1])
      .execute();
    const after = (await call('GET', `${BASE}/trips/${tripId}/manifest`)).body.result;
    expect(after.stops.map((s: { outcome: string; outcome_at: string }) => [s.outcome, s.outcome_at])).toEqual([
      ['delivered', '2026-06-16T06:30:00.000Z'],
      ['failed', '2026-06-16T07:10:00.000Z'],
    ]);
    expect(after.stops[1].failed_reason).toBe('not_home');
    expect(after.carried).toEqual({ goods_cents: 2300, weight_grams: 3.5, orders: 1 });
  });

  it('the manifest CSV quotes commas, quotes and newlines, guards formulas and names the file', async () => {
    const res = await call('GET', `${BASE}/trips/${tripId}/manifest.csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="downtown-manifest-DOWNTOWN-T\d{6}\.csv"$/);
    expect(res.text).toContain(`"'=HYPERLINK(""http://x.test"",""Pre-roll, 5 pack"")\nline two"`);
    const rows = parseCsv(res.text);
    expect(rows[0].slice(0, 8)).toEqual(['Ledger number', 'Driver', 'Employee number', "Driver's licence", 'Vehicle', 'Plate', 'Start time (America/Los_Angeles)', 'Stop']);
    expect(rows).toHaveLength(3);
    const header = rows[0];
    const col = (row: string[], name: string) => row[header.indexOf(name)];
    expect(col(rows[1], 'Package id')).toBe('1A4060300002F1D000001234');
    expect(col(rows[1], 'Outcome')).toBe('delivered');
    expect(col(rows[1], 'Outcome time (America/Los_Angeles)')).toBe('2026-06-15 23:30');
    expect(col(rows[1], 'Line total')).toBe('40.00');
    expect(col(rows[2], 'Product')).toBe(`'${NASTY}`);
  });

  it('end-of-day records cut at the store’s midnight, with JSON and CSV', async () => {
    // 06:30Z is 23:30 on the 15th in Los Angeles; the failed stop is no delivery.
    const d15 = await call('GET', `${BASE}/end-of-day?date=2026-06-15`, undefined, budtender);
    expect(d15.status).toBe(200);
    expect(d15.body.result.timezone).toBe('America/Los_Angeles');
    expect(d15.body.result.records).toEqual([
      {
        trip_ledger_number: expect.stringMatching(/^DOWNTOWN-T/),
        order_id: orders[0],
        order_number: expect.any(String),
        completed_at: '2026-06-16T06:30:00.000Z',
        customer_type: 'adult-use',
        quantity: 2,
        items: '2 × Blue Dream 3.5g [1A4060300002F1D000001234]',
        price_cents: 4300,
        city: 'Sacramento',
        county: null,
        zip: '95814',
      },
    ]);
    expect((await call('GET', `${BASE}/end-of-day?date=2026-06-16`)).body.result.records).toEqual([]);
    // Delivered at 07:30Z (00:30 on the 16th there): that day's, not the 15th's.
    await db().updateTable('trip_stops').set({ outcome_at: '2026-06-16T07:30:00.000Z' }).where('order_id', '=', orders[0]).execute();
    expect((await call('GET', `${BASE}/end-of-day?date=2026-06-15`)).body.result.records).toEqual([]);
    expect((await call('GET', `${BASE}/end-of-day?date=2026-06-16`)).body.result.records.map((r: { order_id: number }) => r.order_id)).toEqual([orders[0]]);
    await db().updateTable('trip_stops').set({ outcome_at: '2026-06-16T06:30:00.000Z' }).where('order_id', '=', orders[0]).execute();

    const csv = await call('GET', `${BASE}/end-of-day.csv?date=2026-06-15`);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="downtown-deliveries-2026-06-15.csv"');
    const rows = parseCsv(csv.text);
    expect(rows[0]).toEqual(['Completed', 'Completion time (America/Los_Angeles)', 'Trip', 'Order', 'Customer type', 'Quantity', 'Items', 'Price', 'City', 'County', 'ZIP']);
    expect(rows[1]).toEqual(['2026-06-15', '2026-06-15 23:30', expect.stringMatching(/^DOWNTOWN-T/), expect.any(String), 'adult-use', '2', '2 × Blue Dream 3.5g [1A4060300002F1D000001234]', '43.00', 'Sacramento', '', '95814']);
    expect((await call('GET', `${BASE}/end-of-day?date=2026-02-30`)).body.result).toBe('Not a date.');
  });

  it('the delivery receipt names retailer, driver, preparer, customer, goods, totals and the signature', async () => {
    const r = await call('GET', `${BASE}/orders/${orders[0]}/receipt`, undefined, budtender);
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store, private');
    expect(r.body.result).toMatchObject({
      retailer: { name: expect.any(String), license_number: expect.any(String), address: expect.stringContaining(', CA ') },
      driver: { name: 'Rita Moreno', employee_number: 'E-77' },
      preparer: { name: 'Bea Budtender', staff_number: `S-${budtender.staff.id}` },
      customer: { first_name: 'Ana', customer_number: null, type: 'adult-use' },
      requested_at: '2026-06-15T17:00:00.000Z',
      address: '900 J St, Apt 2B, Sacramento 95814',
      totals: { subtotal_cents: 4000, excise_tax_cents: 200, sales_tax_cents: 100, total_cents: 4300 },
      delivered_at: '2026-06-16T06:30:00.000Z',
      outcome: 'delivered',
      signature_png: SIGNATURE,
    });
    expect(r.body.result.lines[0]).toMatchObject({ qty: 2, weight_grams: 3.5, package_id: '1A4060300002F1D000001234' });
    const failed = (await call('GET', `${BASE}/orders/${orders[1]}/receipt`)).body.result;
    expect(failed).toMatchObject({ outcome: 'failed', delivered_at: null, signature_png: null, preparer: null, customer: { type: 'medical' } });
    expect(await call('GET', `${BASE}/orders/999999/receipt`)).toMatchObject({ status: 404, body: { errorCode: 'order_not_found' } });
  });

  it('who may read: budtenders everything, a driver only its own trip’s manifest', async () => {
    expect((await call('GET', `${BASE}/trips/${tripId}/manifest`, undefined, budtender)).status).toBe(200);
    expect((await call('GET', `${BASE}/trips/${tripId}/manifest`, undefined, driverA)).status).toBe(200);
    expect((await call('GET', `${BASE}/trips/${tripId}/manifest.csv`, undefined, driverA)).status).toBe(200);
    expect(await call('GET', `${BASE}/trips/${tripId}/manifest`, undefined, driverB)).toMatchObject({ status: 404, body: { errorCode: 'trip_not_found' } });
    expect((await call('GET', `${BASE}/trips`, undefined, driverB)).body.result.items).toEqual([]);
    expect((await call('GET', `${BASE}/trips`, undefined, driverA)).body.result.items.map((t: { id: number }) => t.id)).toEqual([tripId]);
    for (const url of [`${BASE}/end-of-day?date=2026-06-15`, `${BASE}/orders/${orders[0]}/receipt`, `${BASE}/export.csv?from=2026-06-01&to=2026-06-30`]) {
      expect((await call('GET', url, undefined, driverA)).status, url).toBe(403);
    }
    expect((await call('DELETE', `${BASE}/trips/${tripId}`, undefined, budtender)).status).toBe(403);
  });

  it('the date-range export lists every stop with its ID check and signature flag', async () => {
    const res = await call('GET', `${BASE}/export.csv?from=2026-06-01&to=2026-06-30`);
    expect(res.headers['content-disposition']).toBe('attachment; filename="downtown-delivery-records-2026-06-01-2026-06-30.csv"');
    const rows = parseCsv(res.text);
    const h = rows[0];
    const mine = rows.slice(1).filter((r) => r[h.indexOf('Plate')] === 'PAPER1');
    expect(mine).toHaveLength(2);
    expect(mine.map((r) => [r[h.indexOf('Outcome')], r[h.indexOf('ID document')], r[h.indexOf('Signature kept')], r[h.indexOf('Customer type')]])).toEqual([
      ['delivered', 'drivers_licence', 'yes', 'adult-use'],
      ['failed', '', 'no', 'medical'],
    ]);
    expect((await call('GET', `${BASE}/export.csv?from=2026-06-30&to=2026-06-01`)).body.result).toBe('from must not be after to.');
  });

  it('record retention: California keeps 7 years; a trip inside the period cannot be deleted', async () => {
    const section = await call('GET', '/api/console/stores/1/settings/sections/record-retention');
    expect(section.status).toBe(200);
    expect(section.body.result.value).toEqual({ preset: 'CA', years: 7 });
    const bad = await call('PUT', '/api/console/stores/1/settings/sections/record-retention', { value: { preset: 'custom', years: 0 }, version: section.body.result.version });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Records are kept at least 1 year.');

    expect(await call('DELETE', `${BASE}/trips/${tripId}`)).toMatchObject({ status: 409, body: { errorCode: 'trip_in_progress' } });
    await endTrip(tripId, new Date().toISOString());
    const kept = await call('DELETE', `${BASE}/trips/${tripId}`);
    expect(kept).toMatchObject({ status: 409, body: { errorCode: 'records_retained' } });
    expect(kept.body.result).toMatch(/is a delivery record kept 7 years \(the store's record retention\): it cannot be deleted before \d{4}-\d{2}-\d{2}\./);
  });

  it('an old ended trip: of 12 parallel deletes exactly one removes it, on both databases', async () => {
    const o = await addOrder(db(), { zip: '95814', city: 'Sacramento', totalCents: 1300, productId });
    const old = await startedTrip([o]);
    await endTrip(old, '2018-03-01T12:00:00.000Z');
    const answers = await Promise.all(Array.from({ length: 12 }, () => call('DELETE', `${BASE}/trips/${old}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 404)).toHaveLength(11);
    expect(await db().selectFrom('trips').select('id').where('id', '=', old).executeTakeFirst()).toBeUndefined();
    expect(await db().selectFrom('orders').select('id').where('id', '=', o).executeTakeFirst()).toEqual({ id: o });
  });

  it('the purge removes ended trips past the period with their signatures, once under a burst, with a fixed clock', async () => {
    const stores = readStoresFile(DEMO_STORES_FILE).stores;
    const a = await addOrder(db(), { zip: '95814', city: 'Sacramento', totalCents: 1500, productId });
    const b = await addOrder(db(), { zip: '95814', city: 'Sacramento', totalCents: 1600, productId });
    const older = await startedTrip([a]);
    const newer = await startedTrip([b]);
    await db().updateTable('trip_stops').set({ outcome: 'delivered', outcome_at: '2019-01-01T20:00:00.000Z', signature_png: SIGNATURE }).where('trip_id', 'in', [older, newer]).execute();
    await endTrip(older, '2019-01-01T22:00:00.000Z');
    await endTrip(newer, '2020-01-01T22:00:00.000Z');
    await db()
      .insertInto('driver_actions')
      .values({ store_id: 1, action_id: randomUUID(), staff_id: null, device_id: 'phone-1', trip_id: older, kind: 'deliver', payload: JSON.stringify({ signature: SIGNATURE }), answer_status: 200, answer: '{}', taken_at: null, received_at: '2019-01-01T20:00:00.000Z' })
      .execute();

    // 15 June 2026 with 7 years: everything that ended before 15 June 2019 goes.
    const clock = new Date('2026-06-15T12:00:00.000Z');
    const results = await Promise.all(Array.from({ length: 10 }, () => purgeDeliveryRecords(db(), stores, clock)));
    expect(results.reduce((t, r) => t + (r.trips.get(1) ?? 0), 0)).toBe(1);
    expect(await db().selectFrom('trips').select('id').where('id', 'in', [older, newer]).execute()).toEqual([{ id: newer }]);
    expect(await db().selectFrom('trip_stops').select('id').where('trip_id', '=', older).execute()).toEqual([]);
    expect(await db().selectFrom('driver_actions').select('id').where('trip_id', '=', older).execute()).toEqual([]);
    expect((await db().selectFrom('trip_stops').select('signature_png').where('trip_id', '=', newer).executeTakeFirstOrThrow()).signature_png).toBe(SIGNATURE);
    // The orders are the store's sales records: they stay.
    expect((await db().selectFrom('orders').select('id').where('id', 'in', [a, b]).execute()).length).toBe(2);
    // The trip of this test's first part (ended today) is kept.
    expect(await db().selectFrom('trips').select('id').where('id', '=', tripId).executeTakeFirst()).toEqual({ id: tripId });

    // A manager shortens the period to 5 years: the 2020 trip goes at the next purge.
    const section = (await call('GET', '/api/console/stores/1/settings/sections/record-retention')).body.result;
    expect((await call('PUT', '/api/console/stores/1/settings/sections/record-retention', { value: { preset: 'custom', years: 5 }, version: section.version })).status).toBe(200);
    expect((await purgeDeliveryRecords(db(), stores, clock)).trips.get(1)).toBe(1);
    expect(await db().selectFrom('trips').select('id').where('id', '=', newer).executeTakeFirst()).toBeUndefined();
    expect((await purgeDeliveryRecords(db(), stores, clock)).trips.size).toBe(0);
  });
});
