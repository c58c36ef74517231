import { beforeAll, expect, it } from 'vitest';
import { seed } from '../../test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { listMenuChanges, recordMenuChanges } from './audit.ts';

const AT = new Date('2026-06-15T12:00:00.000Z');

describeEachDatabase('menu history', (getDb) => {
  beforeAll(async () => {
    await seed(getDb());
  });

  it('keeps each action as one batch, newest first, per store and per product, and writes nothing from a rolled-back transaction', async () => {
    const { db } = getDb();
    const product = await db.selectFrom('products').select(['id', 'sku']).where('store_id', '=', 2).orderBy('id').executeTakeFirstOrThrow();
    const batch = await recordMenuChanges(db, {
      storeId: 2,
      source: 'console',
      actor: { type: 'staff', id: 7, name: 'Morgan Lee' },
      at: AT,
      changes: [
        { productId: product.id, sku: product.sku, field: 'price', before: '30.00', after: '28.00' },
        { productId: product.id, sku: product.sku, field: 'stock', before: '5', after: '0' },
      ],
    });
    await recordMenuChanges(db, {
      storeId: 2,
      source: 'api',
      actor: { type: 'api_key', id: 3, name: 'POS' },
      at: AT,
      changes: [{ productId: null, sku: 'GONE-1', externalId: 'x-1', field: 'status', before: 'enabled', after: 'disabled' }],
    });
    // 1,200 rows in one action: written in chunks, one batch.
    const many = Array.from({ length: 1200 }, (_, i) => ({
      productId: product.id,
      sku: product.sku,
      field: 'stock',
      before: String(i),
      after: String(i + 1),
    }));
    const big = await recordMenuChanges(db, {
      storeId: 3,
      source: 'import',
      actor: { type: 'cli', name: 'command line' },
      at: AT,
      changes: many,
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await recordMenuChanges(trx, {
          storeId: 2,
          source: 'console',
          actor: { type: 'staff', id: 7, name: 'Morgan Lee' },
          at: AT,
          changes: [many[0]],
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    const store2 = await listMenuChanges(db, 2);
    expect(store2.map((r) => [r.field, r.before, r.after, r.source, r.actor_name])).toEqual([
      ['status', 'enabled', 'disabled', 'api', 'POS'],
      ['stock', '5', '0', 'console', 'Morgan Lee'],
      ['price', '30.00', '28.00', 'console', 'Morgan Lee'],
    ]);
    expect(store2.filter((r) => r.batch_id === batch)).toHaveLength(2);
    expect((await listMenuChanges(db, 2, { productId: product.id })).map((r) => r.field)).toEqual(['stock', 'price']);
    const store3 = await listMenuChanges(db, 3, { limit: 500 });
    expect(store3).toHaveLength(500);
    expect(new Set(store3.map((r) => r.batch_id))).toEqual(new Set([big]));
    // Pages of at most 500, backwards from the newest.
    const older = await listMenuChanges(db, 3, { beforeId: store3.at(-1)!.id, limit: 1000 });
    expect(older).toHaveLength(500);
    const oldest = await listMenuChanges(db, 3, { beforeId: older.at(-1)!.id, limit: 500 });
    expect(store3.length + older.length + oldest.length).toBe(1200);
    expect([store3[0].after, older[0].after, oldest.at(-1)!.after]).toEqual(['1200', '700', '1']);
  });
});
