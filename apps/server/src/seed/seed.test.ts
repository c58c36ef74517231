/** Integration: the demo seed on SQLite and PostgreSQL. */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SIZE_IDS } from '@verdant/domain';
import type { Kysely } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { Database, TableName } from '../db/schema.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { STORE_CATALOG_TABLES } from './rows.ts';
import {
  ensureSeeded,
  generateCatalog,
  readStoresFile,
  seedDemo,
  TOP_CATEGORY_NAMES,
  type SeedSummary,
} from './index.ts';

const storesFile = readStoresFile(DEMO_STORES_FILE);
const referenceDate = new Date('2026-06-15T12:00:00.000Z');
const DUMPED: TableName[] = [...STORE_CATALOG_TABLES, 'attributes', 'catalog_sources', 'stores'];

/** Every row of a table, as sorted JSON lines: a dump two seeds can be compared by. */
async function dump(db: Kysely<Database>, table: TableName): Promise<string[]> {
  const rows = await db.selectFrom(table).selectAll().execute();
  return rows.map((r) => JSON.stringify(r)).sort();
}

async function dumpAll(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of DUMPED) out[t] = await dump(db, t);
  const coupons = await db
    .selectFrom('coupons')
    .select(['code', 'type', 'discount_percent', 'discount_cents', 'times_used'])
    .orderBy('code')
    .execute();
  out.coupons = coupons.map((c) => JSON.stringify(c));
  return out;
}

describeEachDatabase('demo seed', (getDb) => {
  let first: SeedSummary;
  let before: Record<string, string[]>;

  beforeAll(async () => {
    const { db, dataDir } = getDb();
    first = await seedDemo(db, storesFile, { dataDir, referenceDate });
    before = await dumpAll(db);
  });

  it('writes every catalogue table, quickly', () => {
    for (const table of STORE_CATALOG_TABLES) expect(first.rows[table], table).toBeGreaterThan(0);
    expect(first.stores.map((s) => s.storeCode)).toEqual(['downtown', 'eastside', 'wellness', 'harbor']);
    expect(first.elapsedMs).toBeLessThan(5000);
  });

  it('writes exactly the generated rows', async () => {
    const catalog = generateCatalog(storesFile, { referenceDate });
    for (const table of STORE_CATALOG_TABLES) {
      expect(before[table], table).toHaveLength(catalog.stores.reduce((n, s) => n + s.rows[table].length, 0));
    }
  });

  it('is deterministic: seeding again rewrites identical rows', async () => {
    const { db, dataDir } = getDb();
    await seedDemo(db, storesFile, { dataDir, referenceDate });
    expect(await dumpAll(db)).toEqual(before);
  });

  it('gives stores different assortments and prices', async () => {
    const { db } = getDb();
    const listed = async (storeId: number) =>
      db
        .selectFrom('products as p')
        .innerJoin('product_prices as pp', 'pp.product_id', 'p.id')
        .select(['p.sku', 'pp.price_cents'])
        .where('p.store_id', '=', storeId)
        .where('p.type_id', '=', 'simple')
        .execute();
    const downtown = new Map((await listed(1)).map((r) => [r.sku, r.price_cents]));
    const harbor = new Map((await listed(4)).map((r) => [r.sku, r.price_cents]));
    const shared = [...downtown.keys()].filter((sku) => harbor.has(sku));
    expect(shared.length).toBeGreaterThan(0);
    expect(shared.length).toBeLessThan(downtown.size);
    expect(shared.some((sku) => downtown.get(sku) !== harbor.get(sku))).toBe(true);
  });

  it('has root category 2 and all eight top categories in every store', async () => {
    const { db } = getDb();
    for (const store of storesFile.stores) {
      const categories = await db.selectFrom('categories').selectAll().where('store_id', '=', store.storeId).execute();
      const root = categories.find((c) => c.id === 2);
      expect(root).toMatchObject({ parent_id: null, url_key: 'menu', url_path: 'menu', level: 1 });
      const top = categories.filter((c) => c.parent_id === 2);
      expect(top.map((c) => c.name).sort()).toEqual([...TOP_CATEGORY_NAMES].sort());
      expect(top.every((c) => c.url_path === `menu/${c.url_key}`)).toBe(true);
      expect(categories.some((c) => c.level === 3 && c.url_path.startsWith('menu/flower/'))).toBe(true);
    }
  });

  it('gives every flower configurable five children, sizes 91–95, stocked in grams', async () => {
    const { db } = getDb();
    const parents = await db
      .selectFrom('products')
      .select(['id', 'sku'])
      .where('type_id', '=', 'configurable')
      .where('canna_type', '=', 1)
      .execute();
    expect(parents.length).toBeGreaterThan(40);
    const children = await db
      .selectFrom('products')
      .select(['parent_id', 'size', 'uom', 'visibility'])
      .where('parent_id', 'is not', null)
      .orderBy('size')
      .execute();
    for (const parent of parents) {
      const mine = children.filter((c) => c.parent_id === parent.id);
      expect(
        mine.map((c) => c.size),
        parent.sku,
      ).toEqual([...SIZE_IDS]);
      expect(mine.every((c) => c.uom === 'g' && c.visibility === 1)).toBe(true);
    }
  });

  it('keeps medical-only products out of eastside and recreational-only out of wellness', async () => {
    const { db } = getDb();
    const types = async (storeId: number) =>
      (await db.selectFrom('products').select('license_type').distinct().where('store_id', '=', storeId).execute())
        .map((r) => r.license_type)
        .sort();
    expect(await types(2)).toEqual(['both', 'recreational']);
    expect(await types(3)).toEqual(['both', 'medical']);
    expect(await types(1)).toEqual(['both', 'medical', 'recreational']);
  });

  it('carries Blue Dream in downtown and harbor, with its legacy URL', async () => {
    const { db } = getDb();
    for (const storeId of [1, 4]) {
      const p = await db
        .selectFrom('products')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('name', '=', 'Blue Dream')
        .executeTakeFirstOrThrow();
      expect(p).toMatchObject({
        type_id: 'configurable',
        strain_type: 'Hybrid',
        status: 1,
        visibility: 4,
        url_path: 'blue-dream',
      });
      const rewrite = await db
        .selectFrom('url_rewrites')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('request_path', '=', 'shop/blue-dream-eighth')
        .executeTakeFirstOrThrow();
      expect(rewrite).toMatchObject({
        target_type: 'product',
        target_id: p.id,
        target_sku: 'FL-BLUE-DREAM-8TH',
        redirect_type: 301,
      });
    }
  });

  it('writes tax rules with a 15 % excise and the local sales tax', async () => {
    const { db } = getDb();
    const rates = await db
      .selectFrom('tax_rates')
      .select(['store_id', 'kind', 'rate', 'tax_country_id', 'region_name'])
      .orderBy('store_id')
      .orderBy('kind')
      .execute();
    expect(
      rates
        .filter((r) => r.kind === 'excise')
        .every((r) => r.rate === 15 && r.tax_country_id === 'US' && r.region_name === 'CA'),
    ).toBe(true);
    expect(rates.find((r) => r.store_id === 1 && r.kind === 'sales')?.rate).toBe(8.75);
    expect(rates.find((r) => r.store_id === 4 && r.kind === 'sales')?.rate).toBe(10.25);
    const welcome = await db
      .selectFrom('coupons')
      .selectAll()
      .where('code', '=', 'WELCOME10')
      .executeTakeFirstOrThrow();
    expect(welcome).toMatchObject({ type: 'percent', discount_percent: 10, store_id: null, active: 1 });
  });

  it('writes one SVG per product image', () => {
    const { dataDir } = getDb();
    const dir = join(dataDir, 'media', 'catalog', 'product');
    expect(readdirSync(dir)).toHaveLength(first.images);
    expect(existsSync(join(dir, 'FL-BLUE-DREAM.svg'))).toBe(true);
  });

  it('refuses to replace a catalogue it did not write, unless forced', async () => {
    const { db, dataDir } = getDb();
    await db.updateTable('catalog_sources').set({ source: 'import' }).where('store_id', '=', 3).execute();
    await expect(seedDemo(db, storesFile, { dataDir, referenceDate })).rejects.toThrow(/wellness/);
    await db.deleteFrom('catalog_sources').where('store_id', '=', 3).execute();
    await expect(seedDemo(db, storesFile, { dataDir, referenceDate })).rejects.toThrow(/not written by the demo seed/);
    await seedDemo(db, storesFile, { dataDir, referenceDate, force: true });
    expect(await dumpAll(db)).toEqual(before);
  });

  it('keeps customer data and coupon usage when reseeding', async () => {
    const { db, dataDir } = getDb();
    const at = referenceDate.toISOString();
    await db
      .insertInto('customers')
      .values({
        store_id: 1,
        phone: '+19165550100',
        email: null,
        firstname: 'Ada',
        lastname: null,
        license_type: 'recreational',
        birthday: '1990-01-01',
        medcard_number: null,
        medcard_expiry: null,
        created_from: 'portal_online',
        password_hash: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db.updateTable('coupons').set({ times_used: 3 }).where('code', '=', 'WELCOME10').execute();
    await seedDemo(db, storesFile, { dataDir, referenceDate });
    expect(await db.selectFrom('customers').select('phone').execute()).toEqual([{ phone: '+19165550100' }]);
    expect(
      (await db.selectFrom('coupons').select('times_used').where('code', '=', 'WELCOME10').executeTakeFirstOrThrow())
        .times_used,
    ).toBe(3);
  });

  it('ensureSeeded seeds an empty catalogue once and restores missing images', async () => {
    const { db, dataDir } = getDb();
    expect(await ensureSeeded(db, storesFile, dataDir, { referenceDate })).toBe(false);
    const media = join(dataDir, 'media');
    rmSync(media, { recursive: true });
    expect(await ensureSeeded(db, storesFile, dataDir, { referenceDate })).toBe(false);
    expect(existsSync(join(media, 'catalog', 'product', 'FL-BLUE-DREAM.svg'))).toBe(true);
    await db.deleteFrom('products').execute();
    // Two starts at once (two server nodes): exactly one seeds.
    const both = await Promise.all([
      ensureSeeded(db, storesFile, dataDir, { referenceDate }),
      ensureSeeded(db, storesFile, dataDir, { referenceDate }),
    ]);
    expect(both.sort()).toEqual([false, true]);
    expect(await ensureSeeded(db, storesFile, dataDir, { referenceDate })).toBe(false);
    const products = await dump(db, 'products');
    expect(products).toEqual(before.products);
  });

  it('ensureSeeded leaves the demo deals out with deals: false (DEMO_DEALS=false); a later start adds them once', async () => {
    const { db, dataDir } = getDb();
    const countDeals = async () => Number((await db.selectFrom('deals').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    await db.deleteFrom('deal_changes').execute();
    await db.deleteFrom('deals').execute();
    expect(await ensureSeeded(db, storesFile, dataDir, { referenceDate, deals: false })).toBe(false);
    expect(await countDeals()).toBe(0);
    await Promise.all([ensureSeeded(db, storesFile, dataDir, { referenceDate }), ensureSeeded(db, storesFile, dataDir, { referenceDate })]);
    const seeded = await countDeals();
    expect(seeded).toBeGreaterThan(storesFile.stores.length * 10);
    await ensureSeeded(db, storesFile, dataDir, { referenceDate });
    expect(await countDeals()).toBe(seeded);
  });

  it('ensureSeeded gives each delivering demo store two drivers and two vehicles, once, even from two starts at once', async () => {
    const { db, dataDir } = getDb();
    const fleet = async () => {
      const out: Record<number, string> = {};
      for (const s of storesFile.stores) {
        const d = await db.selectFrom('drivers').select(['name', 'active']).where('store_id', '=', s.storeId).orderBy('name').execute();
        const v = await db.selectFrom('vehicles').select(['make', 'plate']).where('store_id', '=', s.storeId).orderBy('plate').execute();
        out[s.storeId] = `${d.map((r) => r.name).join(', ')} | ${v.map((r) => `${r.make} ${r.plate}`).join(', ')}`;
      }
      return out;
    };
    await db.deleteFrom('drivers').execute();
    await db.deleteFrom('vehicles').execute();
    await Promise.all([ensureSeeded(db, storesFile, dataDir, { referenceDate }), ensureSeeded(db, storesFile, dataDir, { referenceDate })]);
    const first = await fleet();
    for (const s of storesFile.stores) {
      expect(s.dispensarySettings.place_info.delivery_radius_miles).toBeGreaterThan(0);
      expect(first[s.storeId]).toBe(`Dana Whitfield, Marco Ibarra | Toyota 8VDT${String(s.storeId).padStart(2, '0')}1, Ford 8VDT${String(s.storeId).padStart(2, '0')}2`);
    }
    // A store's own change survives the next start.
    await db.updateTable('drivers').set({ active: 0 }).where('store_id', '=', 1).execute();
    await ensureSeeded(db, storesFile, dataDir, { referenceDate });
    expect(await fleet()).toEqual(first);
    expect((await db.selectFrom('drivers').select('active').where('store_id', '=', 1).execute()).every((d) => d.active === 0)).toBe(true);
  });
});
