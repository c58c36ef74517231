/**
 * Integration, both databases: the cart's in-memory products (./sellables.ts through
 * cart/catalog-source.ts) answer exactly what the database loader (prices/loader.ts) reads, for
 * every product of every store, for the store's group and another customer group, before and
 * after changes announced with catalogChanged. A sku the memory does not hold falls back to the
 * database. (Carts no longer read tax rules: they are taxed by the store's tax lines, issue 14;
 * the `taxrule` view of those lines is tested in ../tax/displayed-prices.test.ts.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cartProducts } from '../cart/catalog-source.ts';
import { loadProducts, type LoadedProduct } from '../prices/loader.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { CatalogIndexManager } from './index-manager.ts';
import { NOW, seed, storesFile } from '../../test-support/catalog/test-app.ts';

/** Tier rows come back in no particular order from the database; their order means nothing. */
function normalised(products: Map<string, LoadedProduct>): unknown {
  return JSON.parse(
    JSON.stringify(Object.fromEntries(products), (key, value) =>
      key === 'tiers' && Array.isArray(value)
        ? [...value].sort((a, b) => a.customer_group_id - b.customer_group_id || a.qty - b.qty || a.price - b.price)
        : value,
    ),
  );
}

describeEachDatabase('in-memory cart products', (getDb) => {
  let manager: CatalogIndexManager;
  const skusOf = async (storeId: number) =>
    (await getDb().db.selectFrom('products').select('sku').where('store_id', '=', storeId).orderBy('id').execute()).map((r) => r.sku);
  const idOf = async (storeId: number, sku: string) =>
    (await getDb().db.selectFrom('products').select('id').where('store_id', '=', storeId).where('sku', '=', sku).executeTakeFirstOrThrow()).id;

  async function expectSameAsDatabase(storeId: number, skus: readonly string[], groupId: number) {
    const { db } = getDb();
    const memory = await cartProducts(db, manager, storeId, skus, groupId, 'always');
    const database = await loadProducts(db, storeId, skus, groupId);
    expect(normalised(memory)).toEqual(normalised(database));
  }

  beforeAll(async () => {
    await seed(getDb());
    const { db } = getDb();
    // A second customer group with its own price rows and tiers on a few products of store 1.
    const some = await db.selectFrom('products').select('id').where('store_id', '=', 1).where('type_id', '=', 'simple').orderBy('id').limit(5).execute();
    await db
      .insertInto('product_prices')
      .values(some.map((p, i) => ({ product_id: p.id, customer_group_id: 2, price_cents: 1000 + i, special_price_cents: i % 2 ? 900 : null, special_from_date: null, special_to_date: null })))
      .execute();
    await db.insertInto('tier_prices').values(some.map((p) => ({ product_id: p.id, customer_group_id: 2, qty: 2, price_cents: 800 }))).execute();
    manager = new CatalogIndexManager({ db, stores: storesFile.stores, clock: () => NOW });
    await manager.start();
    await Promise.all(storesFile.stores.map((s) => manager.ensure(s.storeId)));
  });
  afterAll(async () => manager?.close());

  it('answers what the database loader reads, for every product of every store', async () => {
    for (const store of storesFile.stores) {
      const skus = await skusOf(store.storeId);
      expect(manager.find(store.storeId)!.sellables.size).toBe(skus.length);
      for (const group of [store.tax.userGroupId, 2]) await expectSameAsDatabase(store.storeId, skus, group);
    }
  });

  it('answers what the database loader reads for each product alone (children, parents, kits, options)', async () => {
    const skus = await skusOf(1);
    for (const sku of skus) await expectSameAsDatabase(1, [sku], 0);
    const types = await getDb().db.selectFrom('products').select('type_id').distinct().where('store_id', '=', 1).execute();
    expect(types.map((t) => t.type_id).sort()).toEqual(expect.arrayContaining(['bundle', 'configurable', 'grouped', 'simple']));
  });

  it('follows price, tier, weight-price, option, link and status changes announced with catalogChanged', async () => {
    const { db } = getDb();
    const kit = await db.selectFrom('products').selectAll().where('store_id', '=', 1).where('type_id', '=', 'bundle').orderBy('id').executeTakeFirstOrThrow();
    const parent = await db.selectFrom('products').selectAll().where('store_id', '=', 1).where('type_id', '=', 'configurable').orderBy('id').executeTakeFirstOrThrow();
    const child = await db.selectFrom('products').selectAll().where('parent_id', '=', parent.id).orderBy('id').executeTakeFirstOrThrow();
    const option = await db.selectFrom('custom_options').selectAll().orderBy('option_id').executeTakeFirstOrThrow();
    const withOption = await db.selectFrom('products').select(['id', 'sku', 'store_id']).where('id', '=', option.product_id).executeTakeFirstOrThrow();
    const link = await db.selectFrom('product_links').selectAll().where('product_id', '=', kit.id).orderBy('id').executeTakeFirstOrThrow();
    const member = await idOf(1, link.linked_product_sku);
    const skus = [kit.sku, parent.sku, child.sku, withOption.sku, link.linked_product_sku];

    await db.updateTable('product_prices').set({ price_cents: 4321 }).where('product_id', '=', member).where('customer_group_id', '=', 0).execute();
    await db.insertInto('tier_prices').values({ product_id: child.id, customer_group_id: 0, qty: 2, price_cents: 1 }).execute();
    await db.deleteFrom('qty_discounts').where('product_id', '=', parent.id).execute();
    await db.insertInto('qty_discounts').values({ product_id: parent.id, qty_to_buy: 3.5, price_cents: 777 }).execute();
    await db.updateTable('products').set({ status: 2 }).where('id', '=', parent.id).execute();
    await db.updateTable('product_links').set({ is_default: link.is_default === 1 ? 0 : 1, qty: 2 }).where('id', '=', link.id).execute();
    await db.updateTable('custom_options').set({ is_require: option.is_require === 1 ? 0 : 1, title: 'Changed' }).where('option_id', '=', option.option_id).execute();
    await db.updateTable('stock').set({ qty: 3, is_in_stock: 1 }).where('product_id', '=', member).execute();

    // Stock is always the database's, announced or not.
    const stale = await cartProducts(db, manager, 1, skus, 0, 'always');
    expect(stale.get(link.linked_product_sku)!.stock).toMatchObject({ qty: 3 });
    expect(stale.get(link.linked_product_sku)!.price!.price).not.toBe(4321);

    await manager.catalogChanged(1, [member, child.id, parent.id, kit.id, withOption.id]);
    await expectSameAsDatabase(1, skus, 0);
    const fresh = await cartProducts(db, manager, 1, skus, 0, 'always');
    expect(fresh.get(link.linked_product_sku)!.price!.price).toBe(4321);
    expect(fresh.get(child.sku)!.parent).toMatchObject({ status: 2, discounts: [{ qty_to_buy: 3.5, price: 777 }] });
    expect(fresh.get(withOption.sku)!.customOptions.find((o) => o.option_id === option.option_id)!.title).toBe('Changed');
  });

  it('drops deleted products and reads a sku it does not hold from the database', async () => {
    const { db } = getDb();
    const [first] = await db.selectFrom('products').select(['id', 'sku']).where('store_id', '=', 3).where('type_id', '=', 'simple').orderBy('id').execute();
    const created = { ...(await db.selectFrom('products').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow()), id: 990001, sku: 'NEW-UNANNOUNCED', url_key: 'new-unannounced', url_path: 'new-unannounced', slug: 'new-unannounced' };
    await db.insertInto('products').values(created).execute();
    await db.insertInto('product_prices').values({ product_id: created.id, customer_group_id: 0, price_cents: 1234, special_price_cents: null, special_from_date: null, special_to_date: null }).execute();
    // Not announced yet: the memory does not hold it, so the database answers.
    expect(manager.find(3)!.sellables.products([created.sku], 0)).toBeNull();
    await expectSameAsDatabase(3, [created.sku, first.sku], 0);
    expect((await cartProducts(db, manager, 3, [created.sku], 0, 'always')).get(created.sku)!.price!.price).toBe(1234);
    await manager.catalogChanged(3, [created.id]);
    expect(manager.find(3)!.sellables.products([created.sku], 0)).not.toBeNull();
    await expectSameAsDatabase(3, [created.sku, first.sku], 0);

    await db.deleteFrom('product_prices').where('product_id', '=', created.id).execute();
    await db.deleteFrom('products').where('id', '=', created.id).execute();
    await manager.catalogChanged(3, [created.id]);
    expect(manager.find(3)!.sellables.products([created.sku], 0)).toBeNull();
    expect((await cartProducts(db, manager, 3, [created.sku], 0, 'always')).size).toBe(0);
  });
});
