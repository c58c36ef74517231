/**
 * Analytics rollups and the dashboard view, both databases (issue 31): orders placed through the
 * real order route and moved through the real console transitions, the outbox consumer drained,
 * and the view read through the console route. The rollups must equal the orders they come from
 * (to the cent), follow a cancellation after the fact, stay the same on a replay of every event and
 * on a rebuild, and count an order once when many apply it at the same time.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { EIGHTH, JAR, lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { addStaff, loginStaff } from '../../test-support/staff/testing.ts';
import { applyOrder, rebuildStore } from './rollup.ts';
import { splitRange } from './view.ts';

const RANGE = 'from=2026-06-22&to=2026-06-24';
const LA = () => 'America/Los_Angeles';

describeEachDatabase('analytics rollups and dashboard', (getDb) => {
  let h: LifecycleHarness;
  const placed: { id: number; day: string; type: 'pickup' | 'delivery'; result: any }[] = [];
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    // 11:00 and 12:00 in Sacramento (UTC−7 in June): a store-local day and hour.
    const CASES = [
      { at: '2026-06-22T18:10:00.000Z', type: 'pickup', sku: EIGHTH, qty: 2 },
      { at: '2026-06-22T19:20:00.000Z', type: 'delivery', sku: JAR, qty: 3, coupon: 'GREEN5' },
      { at: '2026-06-23T18:30:00.000Z', type: 'pickup', sku: EIGHTH, qty: 1, coupon: 'WELCOME10' },
      { at: '2026-06-24T06:30:00.000Z', type: 'delivery', sku: EIGHTH, qty: 1 }, // 23:30 on the 23rd, local
    ] as const;
    for (const c of CASES) {
      await h.at(c.at);
      const o = await h.place({ type: c.type, sku: c.sku, qty: c.qty, body: 'coupon' in c ? { coupon: c.coupon } : {} });
      placed.push({ id: o.id, day: c.at.slice(0, 10), type: c.type, result: o.result });
    }
    await h.app.analytics.rollups.drain();
  });
  afterAll(async () => h?.app.close());

  const view = async (q = RANGE) => {
    const res = await h.get(`/api/console/stores/1/analytics?${q}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result;
  };
  const net = (r: any) => r.subtotal - r.discount;

  it('sums the orders placed, by store-local day, type, hour and ZIP, to the cent', async () => {
    const v = await view();
    const sales = placed.reduce((s, p) => s + net(p.result), 0);
    expect(v.totals).toMatchObject({ orders: 4, placed: 4, sales_cents: sales, cancelled: 0, delivery_orders: 2, pickup_orders: 2 });
    expect(v.totals.total_cents).toBe(placed.reduce((s, p) => s + p.result.total, 0));
    expect(v.totals.average_order_cents).toBe(Math.round(sales / 4));
    expect(v.totals.units).toBe(7);
    // The late delivery is the 23rd's, in the store's zone.
    expect(v.series.map((p: any) => [p.period, p.orders])).toEqual([
      ['2026-06-22', 2],
      ['2026-06-23', 2],
      ['2026-06-24', 0],
    ]);
    expect(v.breakdowns.hour.map((r: any) => [r.key, r.orders])).toEqual([
      ['11', 2],
      ['12', 1],
      ['23', 1],
    ]);
    expect(v.breakdowns.zip).toEqual([expect.objectContaining({ key: '95814', orders: 2 })]);
    expect(v.breakdowns.type.find((r: any) => r.key === 'delivery').sales_cents).toBe(net(placed[1].result) + net(placed[3].result));
    // Grams: the eighths (3.5 g each) — 4 of them; the jar weighs nothing.
    expect(v.totals.grams_mg).toBe(4 * 3500);
    expect(v.breakdowns.kind.find((r: any) => r.key === 'flower')).toMatchObject({ units: 4, grams_mg: 14000 });
    expect(v.breakdowns.product.reduce((s: number, r: any) => s + r.sales_cents, 0)).toBe(sales);
    expect(v.funnel.at(-1)).toEqual({ step: 'order_placed', count: 4 });
    // One shopper in the harness: the first order is new, the rest returning.
    expect(v.totals.new_customers + v.totals.returning_orders + (v.breakdowns.customer.find((r: any) => r.key === 'guest')?.orders ?? 0)).toBe(4);
  });

  it('moves an order cancelled after the fact out of its day\'s sales into cancellations by reason', async () => {
    const before = await view();
    const gone = placed[0];
    expect((await h.move(gone.id, { action: 'cancel', reason: 'sold_out' })).status).toBe(200);
    await h.app.analytics.rollups.drain();
    const after = await view();
    expect(after.totals.orders).toBe(3);
    expect(after.totals.placed).toBe(4);
    expect(after.totals.sales_cents).toBe(before.totals.sales_cents - net(gone.result));
    expect(after.totals.cancelled).toBe(1);
    expect(after.breakdowns.cancel).toEqual([expect.objectContaining({ key: 'cancelled:sold_out', label: 'Cancelled: sold out', orders: 1, sales_cents: net(gone.result) })]);
    expect(after.series[0].orders).toBe(1);
  });

  it('changes nothing on a replay of every event, nor on a rebuild', async () => {
    const before = await view();
    await h.db.updateTable('outbox_events').set({ analytics_at: null }).execute();
    await h.app.analytics.rollups.drain();
    expect(await view()).toEqual(before);
    await rebuildStore(h.db, 1, LA(), new Date().toISOString());
    expect(await view()).toEqual(before);
  });

  it('counts an order once when eight apply it at the same time', async () => {
    const before = await view();
    const o = placed[2];
    await h.db.deleteFrom('analytics_order_facts').where('order_id', '=', o.id).execute();
    // Take its cells out by hand, then let eight appliers race to put them back.
    await rebuildStore(h.db, 1, LA(), new Date().toISOString());
    await h.db.deleteFrom('analytics_daily').where('store_id', '=', 1).execute();
    await h.db.deleteFrom('analytics_order_facts').where('store_id', '=', 1).execute();
    const results = await Promise.all(Array.from({ length: 8 }, () => applyOrder(h.db, o.id, LA, new Date().toISOString())));
    expect(results.filter((n) => n > 0)).toHaveLength(1);
    const v = await view();
    expect(v.totals.orders).toBe(1);
    expect(v.totals.sales_cents).toBe(net(o.result));
    await rebuildStore(h.db, 1, LA(), new Date().toISOString());
    expect(await view()).toEqual(before);
  });

  it('compares with the previous period and groups by week and month', async () => {
    const v = await view('from=2026-06-23&to=2026-06-24&compare=1&grain=day');
    expect(v.previous).toEqual({ from: '2026-06-21', to: '2026-06-22' });
    expect(v.previous_totals.orders).toBe(1); // the 22nd's delivery (the pickup was cancelled)
    expect(v.totals.orders).toBe(2);
    const month = await view('from=2026-06-01&to=2026-07-31&grain=month');
    expect(month.series.map((p: any) => [p.period, p.orders])).toEqual([
      ['2026-06-01', 3],
      ['2026-07-01', 0],
    ]);
    const week = await view('from=2026-06-21&to=2026-06-30&grain=week');
    expect(week.series.map((p: any) => p.period)).toEqual(['2026-06-15', '2026-06-22', '2026-06-29']);
  });

  it('reads whole months from the monthly rows and the rest from the days, with the same figures', async () => {
    expect(splitRange('2026-05-20', '2026-08-03')).toEqual({
      months: ['2026-06', '2026-07'],
      days: [
        ['2026-05-20', '2026-05-31'],
        ['2026-08-01', '2026-08-03'],
      ],
    });
    expect(splitRange('2026-02-01', '2026-02-28')).toEqual({ months: ['2026-02'], days: [] });
    expect(splitRange('2026-06-22', '2026-06-24')).toEqual({ months: [], days: [['2026-06-22', '2026-06-24']] });
    // June whole (monthly rows) and June from the 2nd (daily rows): no order on the 1st, so the same.
    const months = await view('from=2026-06-01&to=2026-06-30');
    const days = await view('from=2026-06-02&to=2026-06-30');
    expect(months.breakdowns).toEqual(days.breakdowns);
    expect(months.totals).toEqual(days.totals);
    expect(months.totals.orders).toBe(3);
  });

  it('writes every table as CSV, money to the cent', async () => {
    const v = await view(`${RANGE}&compare=1`);
    for (const table of ['series', 'funnel', 'type', 'product', 'hour', 'zip', 'cancel']) {
      const res = await h.get(`/api/console/stores/1/analytics.csv?${RANGE}&compare=1&table=${table}`);
      expect(res.status, table).toBe(200);
      expect(String(res.headers['content-disposition'])).toContain(`analytics-${table}-2026-06-22-2026-06-24.csv`);
      const [header, ...rows] = parse(String(res.body)) as string[][];
      expect(header.length).toBeGreaterThan(1);
      if (table === 'series') expect(rows.reduce((s, r) => s + Math.round(Number(r[4]) * 100), 0)).toBe(v.totals.sales_cents);
      if (table === 'type') expect(rows.map((r) => r[0]).sort()).toEqual(v.breakdowns.type.map((r: any) => r.key).sort());
    }
  });

  it('refuses bad ranges, budtenders, and stores the member cannot see', async () => {
    expect((await h.get('/api/console/stores/1/analytics?from=2026-06-24&to=2026-06-22')).status).toBe(400);
    expect((await h.get('/api/console/stores/1/analytics?from=2025-01-01&to=2026-06-22')).status).toBe(400);
    expect((await h.get('/api/console/stores/1/analytics.csv?from=2026-06-22&to=2026-06-22&table=nope')).status).toBe(400);
    const bud = `bud-${process.pid}@analytics.test`;
    await addStaff(h.db, { email: bud, role: 'budtender', storeIds: [1] });
    const budtender = await loginStaff(h.app, bud, { ip: '10.99.1.1' });
    expect((await h.get(`/api/console/stores/1/analytics?${RANGE}`, budtender)).status).toBe(403);
    const mgr = `mgr-${process.pid}@analytics.test`;
    await addStaff(h.db, { email: mgr, role: 'manager', storeIds: [1] });
    const manager = await loginStaff(h.app, mgr, { ip: '10.99.1.2' });
    expect((await h.get(`/api/console/stores/2/analytics?${RANGE}`, manager)).status).toBe(403);
    expect((await h.get(`/api/console/analytics?${RANGE}&stores=1,2`, manager)).status).toBe(403);
    const mine = await h.get(`/api/console/analytics?${RANGE}`, manager);
    expect(mine.status).toBe(200);
    expect(mine.body.result.stores.map((s: any) => s.id)).toEqual([1]);
    expect(mine.body.result.totals).toEqual((await view()).totals);
  });
});
