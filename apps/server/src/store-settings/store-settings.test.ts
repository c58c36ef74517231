/**
 * Store settings sections (issue 14) on SQLite and PostgreSQL: where a value comes from (console
 * save, stores file, the section's default), a save checked by the section's schema, over the
 * version the editor read (concurrent first saves: one wins), its history, another node seeing it
 * after the cache time, a bad stores file refused naming the field; and the console routes.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '@verdant/domain';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { staffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { defineSection } from './registry.ts';
import { checkStoresFileSettings, StoreSettings } from './service.ts';
import { readSection, withStoreSettings } from './read.ts';

// A section of the test's own, shaped like the real ones (a document with rules across fields).
const SLOTS = defineSection({
  name: 'test-slots',
  title: 'Test slots',
  schema: z
    .object({ lengthMinutes: z.union([z.literal(15), z.literal(30), z.literal(60)]), capacity: z.number().int().min(1).max(500) })
    .strict(),
  initial: (store: Store) => ({ lengthMinutes: 30 as const, capacity: store.storeId === 2 ? 4 : 10 }),
});

describeEachDatabase('store settings', (getDb) => {
  let app: FastifyInstance;
  let manager: StaffTestSession;
  let budtender: StaffTestSession;
  let stores: Store[];
  const at = new Date('2026-06-15T12:00:00.000Z');

  beforeAll(async () => {
    const t = getDb();
    ({ app } = await staffTestApp(t));
    stores = app.storeSettings['opts'].stores.map((s: Store) =>
      s.storeId === 3 ? { ...s, settings: { 'test-slots': { lengthMinutes: 15, capacity: 7 } } } : s,
    );
    await addStaff(t.db, { email: 'manager@settings.test', role: 'manager', storeIds: [1], name: 'Sam Settings' });
    await addStaff(t.db, { email: 'bud@settings.test', role: 'budtender', storeIds: [1], name: 'Bud Reader' });
    manager = await loginStaff(app, 'manager@settings.test', { ip: '10.241.0.1' });
    budtender = await loginStaff(app, 'bud@settings.test', { ip: '10.241.0.2' });
  });
  afterAll(async () => app?.close());

  it('reads saved, then stores-file, then default; saves over the read version with history; another node sees it after its cache time', async () => {
    const { db } = getDb();
    const node1 = new StoreSettings({ db, stores, ttlMs: 60_000, now: () => at });
    const node2 = new StoreSettings({ db, stores, ttlMs: 50 });
    expect(await node1.get(2, SLOTS)).toEqual({
      value: { lengthMinutes: 30, capacity: 4 },
      version: 0,
      source: 'default',
      updatedAt: null,
    });
    expect(await node1.get(3, SLOTS)).toMatchObject({ value: { lengthMinutes: 15, capacity: 7 }, version: 0, source: 'stores-file' });

    await expect(node1.save(3, SLOTS, { lengthMinutes: 20, capacity: 7 }, 0, { type: 'staff', id: 1, name: 'Sam' })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('lengthMinutes'),
    });
    const saved = await node1.save(3, SLOTS, { lengthMinutes: 60, capacity: 3 }, 0, { type: 'staff', id: 1, name: 'Sam' });
    expect(saved).toEqual({ value: { lengthMinutes: 60, capacity: 3 }, version: 1, source: 'saved', updatedAt: at.toISOString() });
    expect(await node1.get(3, SLOTS)).toMatchObject({ value: { capacity: 3 }, version: 1, source: 'saved' });
    await expect(node1.save(3, SLOTS, { lengthMinutes: 60, capacity: 9 }, 0, { type: 'cli', name: 'cli' })).rejects.toMatchObject({
      statusCode: 409,
      extra: { errorCode: 'stale_settings', meta: { current: { version: 1, value: { capacity: 3 } } } },
    });
    for (let i = 0; i < 100 && (await node2.get(3, SLOTS)).version !== 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await node2.get(3, SLOTS)).toMatchObject({ version: 1, value: { capacity: 3 } });
    const history = await node1.history(3, SLOTS);
    expect(history).toEqual([
      {
        id: expect.any(Number),
        at: at.toISOString(),
        actor: { type: 'staff', id: 1, name: 'Sam' },
        before: { lengthMinutes: 15, capacity: 7 },
        after: { lengthMinutes: 60, capacity: 3 },
      },
    ]);
  });

  it('lets exactly one of 8 simultaneous first saves in; the others are stale and write no history', async () => {
    const { db } = getDb();
    const node = new StoreSettings({ db, stores });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        node.save(4, SLOTS, { lengthMinutes: 15, capacity: i + 1 }, 0, { type: 'cli', name: `editor ${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ statusCode: 409 });
    expect(await node.history(4, SLOTS)).toHaveLength(1);
  });

  it('withStoreSettings: the store’s sections in one query, as of the start of the work; other stores, and reads after it, as they are', async () => {
    const { db } = getDb();
    const queries: string[] = [];
    // The work's connection, counting what is asked on it (the save below goes through `db`).
    const conn = db.withPlugin({
      transformQuery: ({ node }) => (queries.push(node.kind), node),
      transformResult: async ({ result }) => result,
    });
    const [one, two] = [4, 2].map((id) => stores.find((s) => s.storeId === id)!);
    const writer = new StoreSettings({ db, stores });
    const before = await readSection(conn, one, SLOTS);
    const next = { lengthMinutes: before.value.lengthMinutes === 60 ? (15 as const) : (60 as const), capacity: 3 };
    queries.length = 0;
    const seen = await withStoreSettings(conn, one, async () => {
      const first = await readSection(conn, one, SLOTS);
      await writer.save(4, SLOTS, next, first.version, { type: 'cli', name: 'test' });
      return { first, again: await readSection(conn, one, SLOTS), other: await readSection(conn, two, SLOTS) };
    });
    expect(seen.first).toEqual(before);
    expect(seen.again).toEqual(before);
    expect(seen.other).toMatchObject({ value: { lengthMinutes: 30, capacity: 4 }, source: 'default' });
    expect(queries).toEqual(['SelectQueryNode', 'SelectQueryNode']); // store 4's sections, then store 2's one
    expect(await readSection(conn, one, SLOTS)).toMatchObject({ value: next, version: before.version + 1, source: 'saved' });
  });

  it('refuses a stores file whose section is invalid or unknown, naming the field', () => {
    const base = stores[0];
    expect(() => checkStoresFileSettings([{ ...base, settings: { 'test-slots': { lengthMinutes: 30, capacity: 0 } } }])).toThrow(
      /downtown\.settings\.test-slots: capacity: .*/,
    );
    expect(() => checkStoresFileSettings([{ ...base, settings: { nonsense: {} } }])).toThrow(
      /downtown\.settings\.nonsense: no such settings section/,
    );
  });

  it('console: budtenders read, managers save with the version and read the history; a stale or invalid save is refused', async () => {
    const url = '/api/console/stores/1/settings/sections/test-slots';
    const call = (method: 'GET' | 'PUT', path: string, who: StaffTestSession, payload?: object) =>
      app.inject({
        method,
        url: path,
        remoteAddress: '10.241.1.1',
        headers: { host: 'downtown.localhost', ...who.headers },
        ...(payload ? { payload } : {}),
      });
    const read = await call('GET', url, budtender);
    expect(read.statusCode).toBe(200);
    expect(read.json().result).toMatchObject({ section: 'test-slots', title: 'Test slots', version: 0, source: 'default' });
    expect((await call('PUT', url, budtender, { value: { lengthMinutes: 15, capacity: 2 }, version: 0 })).statusCode).toBe(403);
    const bad = await call('PUT', url, manager, { value: { lengthMinutes: 15, capacity: 'two' }, version: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errorCode: 'invalid_settings', result: expect.stringContaining('capacity') });
    const ok = await call('PUT', url, manager, { value: { lengthMinutes: 15, capacity: 2 }, version: 0 });
    expect(ok.json().result).toMatchObject({ version: 1, source: 'saved', value: { capacity: 2 } });
    expect((await call('PUT', url, manager, { value: { lengthMinutes: 15, capacity: 5 }, version: 0 })).statusCode).toBe(409);
    const history = await call('GET', `${url}/history`, manager);
    expect(history.json().result).toEqual([
      expect.objectContaining({ actor: { type: 'staff', id: manager.staff.id, name: 'Sam Settings' } }),
    ]);
    expect((await call('GET', '/api/console/stores/1/settings/sections/nope', manager)).statusCode).toBe(404);
  });

  it('zones: a fee or minimum past the bound of every price (under $100,000) or negative is refused naming the field; nothing saved', async () => {
    const url = '/api/console/stores/1/settings/sections/zones';
    const put = (zone: object, version: number) =>
      app.inject({
        method: 'PUT',
        url,
        remoteAddress: '10.241.1.2',
        headers: { host: 'downtown.localhost', ...manager.headers },
        payload: { value: { zones: [{ type: 'zips', name: 'Midtown', zips: ['95816'], fee: 400, fee_incl_tax: 500, eta_minutes: 45, ...zone }] }, version },
      });
    const before = (
      await app.inject({ method: 'GET', url, remoteAddress: '10.241.1.2', headers: { host: 'downtown.localhost', ...manager.headers } })
    ).json().result;
    for (const [zone, field] of [
      [{ fee_incl_tax: 100_000_00 }, 'fee_incl_tax'],
      [{ minimum_order: 100_000_00 }, 'minimum_order'],
      [{ free_over: 250_000_00 }, 'free_over'],
      [{ fee: -500 }, 'fee'],
      [{ fee_incl_tax: '5,00' }, 'fee_incl_tax'],
    ] as const) {
      const refused = await put(zone, before.version);
      expect(refused.statusCode, JSON.stringify(zone)).toBe(400);
      expect(refused.json()).toMatchObject({ errorCode: 'invalid_settings', result: expect.stringContaining(field) });
    }
    const after = await app.inject({ method: 'GET', url, remoteAddress: '10.241.1.2', headers: { host: 'downtown.localhost', ...manager.headers } });
    expect(after.json().result.version).toBe(before.version);
    const ok = await put({ fee: 99_999_99, fee_incl_tax: 99_999_99, minimum_order: 99_999_99 }, before.version);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
