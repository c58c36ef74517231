/**
 * The demo's dispatch (issue 29, seed/demo-trip.ts) on SQLite and PostgreSQL: the demo driver login
 * linked to Dana Whitfield, a planned sample trip of three confirmed delivery orders placed through
 * checkout's own code (totals = lines + taxes + zone fee, tax lines recorded), and nothing added by a
 * second run or by a burst of ten seeders at once.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { ensureDemoStaff } from '../staff/demo.ts';
import { StoreRegistry } from '../stores/registry.ts';
import { DEMO_DRIVER_EMAIL, ensureDemoDispatch } from './demo-trip.ts';
import { readStoresFile, seedDemo, seedDemoFleet } from './index.ts';

const AT = new Date('2026-06-15T18:00:00.000Z');

describeEachDatabase('demo dispatch seed', (getDb) => {
  const stores = StoreRegistry.fromFile(DEMO_STORES_FILE).stores;
  const db = () => getDb().db;
  const count = async (table: 'trips' | 'trip_stops' | 'orders' | 'staff') =>
    Number((await db().selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    const { dataDir } = getDb();
    await seedDemo(db(), readStoresFile(DEMO_STORES_FILE), { dataDir, referenceDate: AT, productsPerStore: 10 });
    await seedDemoFleet(db(), readStoresFile(DEMO_STORES_FILE), AT);
    await ensureDemoStaff(db(), AT);
  });

  it('a burst of ten seeders at once: the login linked once, one planned trip of three confirmed delivery orders', async () => {
    const ordersBefore = await count('orders');
    const results = await Promise.all(Array.from({ length: 10 }, () => ensureDemoDispatch(db(), stores, AT).catch((e: Error) => e)));
    expect(results.filter((r) => r instanceof Error)).toEqual([]);
    const ok = results as Exclude<(typeof results)[number], Error>[];
    expect(ok.filter((r) => r.linked)).toHaveLength(1);
    expect(ok.filter((r) => r.trip)).toHaveLength(1);
    expect(ok.reduce((n, r) => n + r.orders, 0)).toBe(3);
    expect((await count('orders')) - ordersBefore).toBe(3);

    const login = await db().selectFrom('staff').select(['id', 'role']).where('email', '=', DEMO_DRIVER_EMAIL).executeTakeFirstOrThrow();
    expect(login.role).toBe('driver');
    const dana = await db().selectFrom('drivers').selectAll().where('store_id', '=', 1).where('name', '=', 'Dana Whitfield').executeTakeFirstOrThrow();
    expect(dana.staff_id).toBe(login.id);

    const trips = await db().selectFrom('trips').selectAll().execute();
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatchObject({ store_id: 1, status: 'planned', driver_id: dana.id });
    const stops = await db().selectFrom('trip_stops').selectAll().where('trip_id', '=', trips[0].id).orderBy('position').execute();
    expect(stops).toHaveLength(3);
    const orders = await db().selectFrom('orders').selectAll().where('id', 'in', stops.map((s) => s.order_id)).execute();
    for (const o of orders) {
      expect(o).toMatchObject({ store_id: 1, status: 'confirmed', order_type: 'delivery' });
      expect(o.ready_by).not.toBeNull();
      // Priced by checkout: tax lines recorded, the total above the lines (taxes, delivery fee).
      const taxes = await db().selectFrom('order_tax_lines').selectAll().where('order_id', '=', o.id).execute();
      expect(taxes.length).toBeGreaterThan(0);
      expect(o.total_cents).toBeGreaterThan(o.subtotal_cents);
      const items = await db().selectFrom('order_items').selectAll().where('order_id', '=', o.id).execute();
      expect(items.length).toBeGreaterThan(0);
    }
  });

  it('a second run adds nothing', async () => {
    const before = { trips: await count('trips'), stops: await count('trip_stops'), orders: await count('orders'), staff: await count('staff') };
    expect(await ensureDemoDispatch(db(), stores, AT)).toEqual({ linked: false, trip: false, orders: 0 });
    expect({ trips: await count('trips'), stops: await count('trip_stops'), orders: await count('orders'), staff: await count('staff') }).toEqual(before);
  });
});
