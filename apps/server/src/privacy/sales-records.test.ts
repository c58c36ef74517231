/**
 * Sales records past the store's period (issue 31, ./sales-records.ts) through the real app on
 * SQLite and PostgreSQL: after `salesRecordYears` an order is reduced to its anonymous totals (lines,
 * timeline, names and street gone; totals, tax lines and the place of sale kept), so the daily report
 * of a filed period reads the same before and after; open orders, orders still on a delivery stop and
 * younger orders stay whole; parallel purges (and two nodes running the daily job at once) purge and
 * count each order once; the run is logged with its count; another store's purge touches nothing here.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataRetentionOfPreset } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { accountsOf } from '../auth/context.ts';
import { runRetentionJob } from './job.ts';
import { purgeSalesRecords } from './sales-records.ts';

const DAY = 86_400_000;

describeEachDatabase('sales records past their period', (getDb) => {
  let h: LifecycleHarness;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  const orderRow = (id: number) => h.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const count = async (table: 'order_items' | 'order_events' | 'order_tax_lines', orderId: number) =>
    Number((await h.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('order_id', '=', orderId).executeTakeFirstOrThrow()).n);

  async function onEndedTrip(orderId: number, tag: string, at: string): Promise<number> {
    const driver = await h.db.insertInto('drivers').values({ store_id: 1, name: 'Dee Driver', employee_number: `E${tag}`, licence_number: `L${tag}`, staff_id: null, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow();
    const vehicle = await h.db.insertInto('vehicles').values({ store_id: 1, make: 'Van', model: 'V', plate: `P${tag}`, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow();
    const trip = await h.db
      .insertInto('trips')
      .values({ store_id: 1, ledger_number: `T${tag}`, driver_id: driver.id, vehicle_id: vehicle.id, status: 'ended', created_by: 'test', started_at: at, ended_at: at, goods_cents: null, weight_grams: null, ended_by: null, cash_expected_cents: null, cash_collected_cents: null, end_note: null, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db.insertInto('trip_stops').values({ trip_id: trip.id, order_id: orderId, position: 1, open: null, created_at: at }).execute();
    return trip.id;
  }

  it('reduces orders past the period to their totals, once, whatever runs at once; the filed report reads the same', async () => {
    const placedAt = h.clock.now;
    const day = placedAt.toISOString().slice(0, 10);
    const done = await h.place({ qty: 2 });
    const cancelled = await h.place();
    const open = await h.place();
    const delivered = await h.place({ type: 'delivery' });
    await h.setStatus(done.id, 'completed');
    await h.setStatus(cancelled.id, 'cancelled');
    await h.setStatus(delivered.id, 'completed');
    await onEndedTrip(delivered.id, `s${process.pid}`, placedAt.toISOString());
    const before = await orderRow(done.id);
    expect(await count('order_items', done.id)).toBe(1);
    expect(await count('order_events', done.id)).toBeGreaterThan(0);
    const taxLines = await count('order_tax_lines', done.id);
    const retryAnswer = () => h.db.selectFrom('idempotency_keys').select('id').where('key', '=', before.idempotency_key).executeTakeFirst();
    expect(await retryAnswer()).toBeDefined();
    expect(taxLines).toBeGreaterThan(0);
    const report = async () => (await h.get(`/api/console/stores/1/reports/daily?from=${day}&to=${day}`)).body.result;
    const filed = await report();
    expect(filed.rows[0].orders).toBeGreaterThan(0);

    // A year later an order is placed: not due with the others.
    await h.at(new Date(placedAt.getTime() + 365 * DAY).toISOString());
    const younger = await h.place();
    await h.setStatus(younger.id, 'completed');

    // A day before the seventh anniversary nothing is due; another store's purge never touches this one's orders.
    const years = dataRetentionOfPreset('CA').salesRecordYears;
    const anniversary = new Date(placedAt);
    anniversary.setUTCFullYear(anniversary.getUTCFullYear() + years);
    expect(await purgeSalesRecords(h.db, 1, years, new Date(anniversary.getTime() - DAY))).toBe(0);
    expect(await purgeSalesRecords(h.db, 2, years, new Date(anniversary.getTime() + DAY))).toBe(0);
    expect((await orderRow(done.id)).purged_at).toBeNull();

    // Five purges at once: the two final orders past the period are purged, each counted once.
    const at = new Date(anniversary.getTime() + 1000);
    const counts = await Promise.all(Array.from({ length: 5 }, () => purgeSalesRecords(h.db, 1, years, at)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    const after = await orderRow(done.id);
    expect(after).toMatchObject({
      purged_at: at.toISOString(),
      customer_id: null,
      search_phone: '',
      search_name: '',
      birthday: null,
      // The totals stay, to the cent.
      increment_id: before.increment_id,
      status: 'completed',
      order_type: before.order_type,
      created_at: before.created_at,
      status_changed_at: before.status_changed_at,
      subtotal_cents: before.subtotal_cents,
      discount_cents: before.discount_cents,
      excise_tax_cents: before.excise_tax_cents,
      sales_tax_cents: before.sales_tax_cents,
      shipping_cents: before.shipping_cents,
      total_cents: before.total_cents,
    });
    expect(JSON.parse(after.personal_details)).toMatchObject({ firstName: 'Purged', phone: '', emailAddress: '' });
    expect(JSON.stringify(after)).not.toContain(JSON.parse(before.personal_details).phone);
    expect(await count('order_items', done.id)).toBe(0);
    expect(await count('order_events', done.id)).toBe(0);
    expect(await count('order_tax_lines', done.id)).toBe(taxLines);
    expect(await retryAnswer()).toBeUndefined();
    expect((await orderRow(cancelled.id)).purged_at).toBe(at.toISOString());
    // Open, on a delivery stop (its own record-retention period), younger: whole.
    for (const o of [open, delivered, younger]) {
      expect((await orderRow(o.id)).purged_at).toBeNull();
      expect(await count('order_items', o.id)).toBe(1);
    }
    // The report of the filed day sums the same totals and tax lines.
    const refiled = await report();
    expect(refiled.rows).toEqual(filed.rows);
    expect(refiled.tax_lines).toEqual(filed.tax_lines);
    // Again: nothing left to do.
    expect(await purgeSalesRecords(h.db, 1, years, at)).toBe(0);

    // The daily job does it, on two nodes at once: one claims the day, purges, and logs the count.
    await h.db.deleteFrom('trip_stops').where('order_id', '=', delivered.id).execute();
    await h.setStatus(open.id, 'completed');
    const jobAt = new Date(anniversary.getTime() + 2 * DAY);
    const deps = (node: string) => ({
      db: h.db,
      dataDir: accountsOf(h.app).dataDir,
      storeIds: [1],
      settingsOf: async () => dataRetentionOfPreset('CA'),
      now: () => jobAt,
      node,
    });
    const both = (await Promise.all([runRetentionJob(deps('node-a')), runRetentionJob(deps('node-b'))])).flat();
    expect(both.filter((r) => r.ran)).toEqual([expect.objectContaining({ storeId: 1, ran: true, orders: 2 })]);
    const runs = await h.db.selectFrom('retention_runs').selectAll().where('store_id', '=', 1).where('run_date', '=', jobAt.toISOString().slice(0, 10)).execute();
    expect(runs).toEqual([expect.objectContaining({ status: 'done', orders_purged: 2 })]);
    await h.at(jobAt.toISOString());
    const listed = (await h.get('/api/console/stores/1/data-retention/runs')).body.result;
    expect(listed[0]).toMatchObject({ run_date: jobAt.toISOString().slice(0, 10), orders_purged: 2 });
    expect((await orderRow(younger.id)).purged_at).toBeNull();
  });
});
