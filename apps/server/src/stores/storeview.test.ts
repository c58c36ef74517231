import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { syncStores } from '../db/index.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { StoreRegistry } from './registry.ts';

const registry = StoreRegistry.fromFile(DEMO_STORES_FILE);

describeEachDatabase('GET /api/storeview', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const { db, dataDir } = getDb();
    await syncStores(db, registry.file);
    app = await buildApp({
      config: { dataDir, demoMode: true, production: true, logLevel: 'silent' },
      registry,
      db,
      logger: false,
    });
  });
  afterAll(async () => app?.close());

  it.each([
    ['downtown', 1, true, true, { recreational: 28.5, medical: 226.8 }],
    ['eastside', 2, true, false, { recreational: 28.5 }],
    ['wellness', 3, false, true, { medical: 226.8 }],
    ['harbor', 4, true, true, { recreational: 28.5, medical: 226.8 }],
  ])('returns %s (id %i) with its settings, limits and place info', async (code, id, rec, med, limits) => {
    const res = await app.inject({ url: `/api/storeview?storeCode=${code}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = res.json();
    expect(body.code).toBe(200);
    expect(body.result).toMatchObject({
      storeCode: code,
      storeId: id,
      dispensarySettings: { license_recreational: rec, license_medical: med },
      i18n: { currencyCode: 'USD', defaultLocale: 'en-US' },
      specials: expect.any(Array),
      best_sellers: expect.any(Array),
    });
    const usable = Object.fromEntries(
      Object.entries(body.result.compliance_settings.limits).map(([lt, l]) => [lt, (l as { per_transaction: { usable_max: number } }).per_transaction.usable_max]),
    );
    expect(usable).toEqual(limits);
    expect(body.result.place_info).toMatchObject({
      address: { country_id: 'US', region_code: 'CA' },
      license_number: expect.stringMatching(/LIC$/),
      hours: expect.arrayContaining([expect.objectContaining({ day: 'Monday' })]),
    });
    expect(typeof body.result.place_info.lat).toBe('number');
  });

  it('answers 404 with {code, result} for an unknown store code', async () => {
    const res = await app.inject({ url: '/api/storeview?storeCode=atlantis' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 404, result: 'Store "atlantis" does not exist' });
  });

  it('does not accept host aliases as store codes', async () => {
    const res = await app.inject({ url: '/api/storeview?storeCode=bay' });
    expect(res.statusCode).toBe(404);
  });

  it('uses the store of the host when no storeCode is given', async () => {
    const res = await app.inject({ url: '/api/storeview', headers: { host: 'harbour.localhost:3000' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.storeCode).toBe('harbor');
  });

  it('refuses an empty storeCode with 400', async () => {
    const res = await app.inject({ url: '/api/storeview?storeCode=' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 400, result: 'storeCode must not be empty' });
  });

  it('keeps the store rows in the database in step with the stores file', async () => {
    const rows = await getDb().db.selectFrom('stores').selectAll().orderBy('id').execute();
    expect(rows.map((r) => [r.id, r.code])).toEqual([
      [1, 'downtown'],
      [2, 'eastside'],
      [3, 'wellness'],
      [4, 'harbor'],
    ]);
  });

  it('answers unknown API paths with a JSON 404, never a page', async () => {
    const res = await app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404 });
  });
});

describe('store registry', () => {
  it('stops with a message naming the bad field', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-stores-'));
    const file = path.join(dir, 'stores.json');
    const json = JSON.parse(fs.readFileSync(DEMO_STORES_FILE, 'utf8'));
    json.stores[2].dispensarySettings.place_info.lat = 'north';
    fs.writeFileSync(file, JSON.stringify(json));
    expect(() => StoreRegistry.fromFile(file)).toThrow(/stores\.2\.dispensarySettings\.place_info\.lat/);
    fs.writeFileSync(file, '{ not json');
    expect(() => StoreRegistry.fromFile(file)).toThrow(/not valid JSON/);
    expect(() => StoreRegistry.fromFile(path.join(dir, 'missing.json'))).toThrow(/Cannot read stores file/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
