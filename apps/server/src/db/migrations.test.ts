import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile } from '../seed/stores-file.ts';
import { describeEachDatabase, tableNames } from '../../test-support/databases.ts';
import { migrateToLatest, syncStores } from './index.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { TABLES_IN_DEPENDENCY_ORDER } from './schema.ts';

const storesFile = readStoresFile(DEMO_STORES_FILE);
const NOW = '2026-06-15T12:00:00.000Z';

describe('TABLES_IN_DEPENDENCY_ORDER', () => {
  it('lists every table of the Database type once', () => {
    expect(new Set(TABLES_IN_DEPENDENCY_ORDER).size).toBe(TABLES_IN_DEPENDENCY_ORDER.length);
  });
});

describeEachDatabase(
  'migrations',
  (getDb) => {
    it('run from an empty database and create every table', async () => {
      const t = getDb();
      expect(await tableNames(t)).toEqual([]);
      const applied = await migrateToLatest(t.db);
      expect(applied).toEqual(Object.keys(MIGRATIONS));
      const tables = await tableNames(t);
      expect(tables).toEqual(expect.arrayContaining([...TABLES_IN_DEPENDENCY_ORDER]));
      expect(tables.filter((n) => !n.startsWith('kysely_'))).toHaveLength(TABLES_IN_DEPENDENCY_ORDER.length);
    });

    it('is a no-op the second time', async () => {
      const t = getDb();
      expect(await migrateToLatest(t.db)).toEqual([]);
      const done = await t.db
        .selectFrom('kysely_migration' as never)
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      expect(Number((done as { n: number }).n)).toBe(Object.keys(MIGRATIONS).length);
    });

    it('creates the columns the Database type declares (a sample read of each table)', async () => {
      const { db } = getDb();
      for (const table of TABLES_IN_DEPENDENCY_ORDER) {
        await expect(db.selectFrom(table).selectAll().limit(1).execute()).resolves.toEqual([]);
      }
    });

    it('syncs stores from the stores file and only rewrites changed ones', async () => {
      const { db } = getDb();
      expect(await syncStores(db, storesFile, new Date(NOW))).toBe(4);
      expect(await syncStores(db, storesFile, new Date(NOW))).toBe(0);
      const renamed = {
        ...storesFile,
        stores: storesFile.stores.map((s) => (s.storeId === 2 ? { ...s, name: 'Eastside Two' } : s)),
      };
      expect(await syncStores(db, renamed, new Date('2026-06-16T00:00:00.000Z'))).toBe(1);
      const rows = await db.selectFrom('stores').select(['id', 'code', 'name', 'updated_at']).orderBy('id').execute();
      expect(rows.map((r) => r.code)).toEqual(['downtown', 'eastside', 'wellness', 'harbor']);
      expect(rows[1]).toMatchObject({ name: 'Eastside Two', updated_at: '2026-06-16T00:00:00.000Z' });
      expect(rows[0].updated_at).toBe(NOW);
      expect(
        JSON.parse(
          (await db.selectFrom('stores').select('settings').where('id', '=', 1).executeTakeFirstOrThrow()).settings,
        ),
      ).toMatchObject({
        storeCode: 'downtown',
      });
    });

    it('enforces foreign keys, unique keys and checks', async () => {
      const { db } = getDb();
      await syncStores(db, storesFile, new Date(NOW));
      const product = {
        id: 999_001,
        store_id: 1,
        sku: 'X-1',
        type_id: 'simple' as const,
        name: 'X',
        slug: 'x',
        url_key: 'x',
        url_path: 'x',
        tax_class_id: 2,
        license_type: 'both' as const,
        brand_id: null,
        canna_type: 1,
        image: null,
        created_at: NOW,
        updated_at: NOW,
      };
      await expect(
        db
          .insertInto('products')
          .values({ ...product, store_id: 77 })
          .execute(),
      ).rejects.toThrow();
      await db.insertInto('products').values(product).execute();
      await expect(
        db
          .insertInto('products')
          .values({ ...product, id: 999_002 })
          .execute(),
      ).rejects.toThrow();
      await expect(
        db
          .insertInto('products')
          .values({ ...product, id: 999_003, sku: 'X-3', license_type: 'adult' as never })
          .execute(),
      ).rejects.toThrow();
      await expect(
        db
          .insertInto('coupons')
          .values({
            code: 'BAD',
            store_id: null,
            type: 'percent',
            discount_percent: null,
            discount_cents: 500,
            description: null,
            from_date: null,
            to_date: null,
            max_uses: null,
            created_at: NOW,
            updated_at: NOW,
          })
          .execute(),
      ).rejects.toThrow();
      // Deleting a product removes what hangs off it.
      await db
        .insertInto('stock')
        .values({
          product_id: 999_001,
          qty: 3,
          is_in_stock: 1,
          manage_stock: 1,
          low_stock_threshold: 0,
          updated_at: NOW,
        })
        .execute();
      await db.deleteFrom('products').where('id', '=', 999_001).execute();
      expect(await db.selectFrom('stock').selectAll().where('product_id', '=', 999_001).execute()).toEqual([]);
    });

    it('gives server-created rows increasing ids and returns numbers for counts and fractions', async () => {
      const { db } = getDb();
      const cart = {
        store_id: 1,
        customer_id: null,
        license_type: 'recreational' as const,
        coupon_code: null,
        created_at: NOW,
        updated_at: NOW,
      };
      const a = await db
        .insertInto('carts')
        .values({ ...cart, token: 'tok-a' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const b = await db
        .insertInto('carts')
        .values({ ...cart, token: 'tok-b' })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(b.id).toBeGreaterThan(a.id);
      await db
        .insertInto('cart_items')
        .values({
          cart_id: a.id,
          sku: 'FL-X-8TH',
          parent_sku: 'FL-X',
          qty: 1.5,
          size: 92,
          product_option: null,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
      const row = await db
        .selectFrom('cart_items')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<number>('qty').as('grams')])
        .where('cart_id', '=', a.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ n: 1, grams: 1.5 });
      const order = await db
        .selectFrom('carts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(typeof order.n).toBe('number');
    });
  },
  { migrate: false },
);
