/**
 * The console's access contract, over EVERY /api/console route of the real app (routes other
 * areas add later are picked up here without editing this file), on SQLite and PostgreSQL:
 *  - without a session cookie → 401;
 *  - a manager, budtender or driver of store A naming store B in `:storeId` → 403, and nothing changed;
 *  - a role without the route's permission (a budtender; a driver) → 403 (on its own store);
 *  - a write without the CSRF header or with a wrong one → 403, even for an owner.
 * Not one of these requests succeeds. Params other than `:storeId` carry real ids of store B's
 * rows where the test made one, else ids that do not exist: the guard refuses before any handler.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { routesOf } from '../http/body-policy.ts';
import { describeEachDatabase, type TestDatabase } from '../../test-support/databases.ts';
import { staffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { consoleRoutesOf, type ConsoleRoute } from './guard.ts';
import { roleCan } from './permissions.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { customerRow } from '../../test-support/customers/rows.ts';

// Each test sends a few requests per console route, a number that grows with every area added.
vi.setConfig({ testTimeout: 120_000 });

const HOST = 'downtown.localhost';
const STORE_A = 1;
const STORE_B = 2;
const PUBLIC_ROUTES = ['POST /api/console/password-reset', 'POST /api/console/password-reset/confirm', 'POST /api/console/session'];
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Everything a refused request could have changed (sessions aside: the guard reads them). */
const WATCHED = [
  'staff',
  'staff_stores',
  'staff_password_resets',
  'customers',
  'uploads',
  'orders',
  'order_events',
  'stock',
  'store_order_settings',
  'outbox_events',
  'message_deliveries',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  // The menu (issue 13): a refused quick edit, bulk action, import or API-key request writes none of it.
  'products',
  'product_prices',
  'menu_changes',
  'api_keys',
  // Deals (issue 28): a refused create, edit, pause or end writes neither the deal nor its history.
  'deals',
  'deal_changes',
  // Delivery (issue 29): a refused driver, vehicle or trip change writes none of them.
  'drivers',
  'vehicles',
  'trips',
  'trip_stops',
  // Customer records (issue 31): a refused note writes nothing.
  'customer_notes',
  // Merging profiles (issue 31): a refused merge or undo moves nothing and records nothing.
  'customer_merges',
  'loyalty_accounts',
] as const;

async function snapshot(t: TestDatabase): Promise<string> {
  const parts: string[] = [];
  for (const table of WATCHED) {
    const rows = await t.db.selectFrom(table).selectAll().execute();
    const sorted = rows.map((r) => JSON.stringify(r)).sort();
    parts.push(`${table}:${sorted.length}:${sorted.join('\n')}`);
  }
  return parts.join('\n--\n');
}

describeEachDatabase('console access contract', (getDb) => {
  let app: FastifyInstance;
  let routes: ConsoleRoute[];
  let owner: StaffTestSession;
  let manager: StaffTestSession;
  let budtender: StaffTestSession;
  let driver: StaffTestSession;
  /** Real ids of store B's rows by parameter name. */
  const realIds: Record<string, number> = {};

  beforeAll(async () => {
    const t = getDb();
    ({ app } = await staffTestApp(t));
    await addStaff(t.db, { email: 'owner@contract.test', role: 'owner' });
    await addStaff(t.db, { email: 'manager@contract.test', role: 'manager', storeIds: [STORE_A] });
    await addStaff(t.db, { email: 'budtender@contract.test', role: 'budtender', storeIds: [STORE_A] });
    await addStaff(t.db, { email: 'driver@contract.test', role: 'driver', storeIds: [STORE_A] });
    // Store B's own people and rows: what a member of store A must not reach.
    realIds.staffId = await addStaff(t.db, { email: 'manager-b@contract.test', role: 'manager', storeIds: [STORE_B] });
    const now = new Date().toISOString();
    const customer = await t.db
      .insertInto('customers')
      .values(
        customerRow({ store_id: STORE_B, phone: '+19165550142', email: 'shopper-b@contract.test', firstname: 'Bo', lastname: 'Bee' }, now),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    realIds.customerId = customer.id;
    const endpoint = await t.db
      .insertInto('webhook_endpoints')
      .values({
        store_id: STORE_B,
        url: 'https://example.com/hook',
        description: null,
        events: '["order.created"]',
        secret: 'whsec_contract',
        previous_secret: null,
        previous_secret_until: null,
        disabled_at: null,
        disabled_reason: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    realIds.endpointId = endpoint.id;
    owner = await loginStaff(app, 'owner@contract.test', { ip: '10.220.0.1' });
    manager = await loginStaff(app, 'manager@contract.test', { ip: '10.220.0.2' });
    budtender = await loginStaff(app, 'budtender@contract.test', { ip: '10.220.0.3' });
    driver = await loginStaff(app, 'driver@contract.test', { ip: '10.220.0.4' });
    routes = consoleRoutesOf(app).filter((r) => r.method !== 'OPTIONS');
  });
  afterAll(async () => app?.close());

  const fill = (url: string, storeId: number) =>
    url.replace(/:([A-Za-z_]+)/g, (_m, name: string) => (name === 'storeId' ? String(storeId) : String(realIds[name] ?? 987654)));
  const send = async (route: ConsoleRoute, storeId: number, headers: Record<string, string>) => {
    const res = await app.inject({
      method: route.method as 'GET',
      url: fill(route.url, storeId),
      remoteAddress: '10.220.1.1',
      headers: { host: HOST, ...headers },
      ...(WRITES.has(route.method) ? { payload: {} } : {}),
    });
    const errorCode = res.body ? (res.json() as { errorCode?: string }).errorCode : undefined;
    return { status: res.statusCode, errorCode, what: `${route.method} ${route.url}` };
  };
  const guarded = () => routes.filter((r) => r.permission !== 'public');

  it('knows every console route, including the staff routes, and only login and reset are public', () => {
    const consoleUrls = routesOf(app)
      .filter((r) => r.url.startsWith('/api/console') && r.method !== 'OPTIONS')
      .map((r) => `${r.method} ${r.url}`);
    expect(consoleUrls.length).toBeGreaterThan(10);
    // Registered before the guard would mean unguarded: every one must be in the guard's table.
    expect(routes.map((r) => `${r.method} ${r.url}`).sort()).toEqual([...consoleUrls].sort());
    for (const expected of [
      'GET /api/console/session',
      'DELETE /api/console/session',
      'POST /api/console/session/logout-all',
      'POST /api/console/me/password',
      'POST /api/console/me/totp/setup',
      'GET /api/console/stores',
      'GET /api/console/staff',
      'POST /api/console/staff',
      'PATCH /api/console/staff/:staffId',
    ])
      expect(consoleUrls).toContain(expected);
    expect(
      routes
        .filter((r) => r.permission === 'public')
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual(PUBLIC_ROUTES);
  });

  it('refuses every guarded route without a session (401 login_required)', async () => {
    for (const route of guarded()) {
      const res = await send(route, STORE_A, {});
      expect(res, res.what).toMatchObject({ status: 401, errorCode: route.method === 'HEAD' ? undefined : 'login_required' });
      const bad = await send(route, STORE_A, { cookie: 'verdant_staff=' + 'x'.repeat(43) });
      expect(bad.status, bad.what).toBe(401);
    }
  });

  it("refuses store A's manager, budtender and driver on every store-B route (403) and changes nothing", async () => {
    const t = getDb();
    const before = await snapshot(t);
    const storeRoutes = guarded().filter((r) => r.url.includes(':storeId'));
    expect(storeRoutes.length).toBeGreaterThan(0);
    for (const route of storeRoutes) {
      for (const member of [manager, budtender, driver]) {
        const res = await send(route, STORE_B, member.headers);
        expect(res, `${res.what} as ${member.staff.role}`).toMatchObject({
          status: 403,
          errorCode: route.method === 'HEAD' ? undefined : 'store_forbidden',
        });
      }
      // A store that does not exist and a malformed id are refused the same way.
      for (const other of ['999', 'abc']) {
        const res = await app.inject({
          method: route.method as 'GET',
          url: fill(route.url, 0).replace('/stores/0', `/stores/${other}`),
          headers: { host: HOST, ...manager.headers },
          ...(WRITES.has(route.method) ? { payload: {} } : {}),
        });
        expect(res.statusCode, `${route.method} ${route.url} with store ${other}`).toBe(403);
      }
    }
    expect(await snapshot(t)).toBe(before);
  });

  it('refuses a role without the permission (403 forbidden) on its own store', async () => {
    const t = getDb();
    const before = await snapshot(t);
    const lacking = guarded().filter((r) => r.permission !== 'public' && r.permission !== 'self' && !roleCan('budtender', r.permission));
    // The staff routes at least (staff:manage) are beyond a budtender.
    expect(lacking.length).toBeGreaterThan(0);
    for (const route of lacking) {
      const res = await send(route, STORE_A, budtender.headers);
      expect(res, res.what).toMatchObject({ status: 403, errorCode: route.method === 'HEAD' ? undefined : 'forbidden' });
    }
    // A driver (issue 29) holds less still: its own trips and itself.
    const beyondDriver = guarded().filter((r) => r.permission !== 'public' && r.permission !== 'self' && !roleCan('driver', r.permission));
    expect(beyondDriver.length).toBeGreaterThan(lacking.length);
    for (const route of beyondDriver) {
      const res = await send(route, STORE_A, driver.headers);
      expect(res, `${res.what} as driver`).toMatchObject({ status: 403, errorCode: route.method === 'HEAD' ? undefined : 'forbidden' });
    }
    expect(await snapshot(t)).toBe(before);
  });

  it('refuses every guarded write without the CSRF header or with a wrong one, even for an owner', async () => {
    const t = getDb();
    const before = await snapshot(t);
    const writes = guarded().filter((r) => WRITES.has(r.method));
    expect(writes.length).toBeGreaterThan(0);
    for (const route of writes) {
      const variants: Record<string, string>[] = [
        { cookie: owner.cookie },
        { cookie: owner.cookie, 'x-csrf-token': manager.csrfToken },
        { cookie: owner.cookie, 'x-csrf-token': '' },
      ];
      for (const headers of variants) {
        const res = await send(route, STORE_A, headers);
        expect(res, res.what).toMatchObject({ status: 403, errorCode: 'csrf' });
      }
    }
    expect(await snapshot(t)).toBe(before);
    // The owner's session is intact: the refusals were the guard's, not a logout.
    expect(
      (await app.inject({ method: 'GET', url: '/api/console/session', headers: { host: HOST, cookie: owner.cookie } })).statusCode,
    ).toBe(200);
  });
});
