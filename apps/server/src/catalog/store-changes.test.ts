/**
 * Integration, both databases: a store's catalogue after product changes announced one by one with
 * catalogChanged (issue 15: every order changes stock, so most changes keep every key and are applied
 * in place — StoreCatalog.applyProducts, SellableIndex.apply, the text index keeping its postings when
 * the text is the same) answers exactly as a catalogue built fresh from the database after the same
 * changes: the same content (products in the same order, categories' product_count), the same search
 * answers in the same order, the same lookups. Stock sold out and back, a configurable's last child
 * selling out (the parent leaves the listings), a price change, a rename (text), a new url_key (a
 * re-key: the relinking path) and a disabled product.
 */
import { productSearchQuery } from '@verdant/search';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { CatalogIndexManager } from './index-manager.ts';
import type { StoreCatalog } from './store-catalog.ts';
import { NOW, seed, storesFile } from '../../test-support/catalog/test-app.ts';

const STORE = 1;

describeEachDatabase('catalogue changes applied in place', (getDb) => {
  let live: CatalogIndexManager;

  beforeAll(async () => {
    await seed(getDb());
    live = new CatalogIndexManager({ db: getDb().db, stores: storesFile.stores, clock: () => NOW });
    await live.start();
    await live.ensure(STORE);
  });
  afterAll(async () => live?.close());

  /** Write a product's stock as an order or a release would (the change is announced by the caller). */
  const setStock = (ids: number[], qty: number) =>
    getDb()
      .db.updateTable('stock')
      .set({ qty, is_in_stock: qty > 0 ? 1 : 0 })
      .where('product_id', 'in', ids)
      .execute();

  /** Build the store again from the database and compare every answer with the live catalogue's. */
  async function expectSameAsFresh(step: string): Promise<StoreCatalog> {
    const fresh = new CatalogIndexManager({ db: getDb().db, stores: storesFile.stores, clock: () => NOW });
    await fresh.start();
    try {
      const a = live.catalog(STORE);
      const b = await fresh.ensure(STORE);
      expect(JSON.stringify(a.content()), step).toBe(JSON.stringify(b.content()));
      for (const text of [undefined, 'blue', 'dream', 'gummies', 'og kush', 'renamed', 'flowr']) {
        for (const licenseType of ['recreational', 'medical'] as const) {
          for (const includeOutOfStock of [false, true]) {
            const query = productSearchQuery({ storeId: STORE, licenseType, text, size: 60, includeOutOfStock });
            expect(JSON.stringify(a.products.search(query, { now: NOW })), `${step}: ${text} ${licenseType} ${includeOutOfStock}`).toBe(
              JSON.stringify(b.products.search(query, { now: NOW })),
            );
          }
        }
      }
      for (const p of b.content().products) {
        expect(a.productBySku(p.sku)?.id, `${step}: sku ${p.sku}`).toBe(b.productBySku(p.sku)?.id);
        expect(a.productById(p.id), `${step}: id ${p.id}`).toBe(a.productBySku(p.sku));
        expect(a.productByUrlPath(p.url_path)?.id, `${step}: url ${p.url_path}`).toBe(b.productByUrlPath(p.url_path)?.id);
        for (const c of p.configurable_children) expect(a.parentOfChild(c.sku)?.id).toBe(b.parentOfChild(c.sku)?.id);
      }
      expect(JSON.stringify([...a.allCategories()])).toBe(JSON.stringify([...b.allCategories()]));
      return a;
    } finally {
      await fresh.close();
    }
  }

  it('answers as a catalogue built fresh after each change, whether applied in place or relinked', async () => {
    const { db } = getDb();
    const simple = await db
      .selectFrom('products')
      .selectAll()
      .where('store_id', '=', STORE)
      .where('type_id', '=', 'simple')
      .where('visibility', '=', 4)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const parent = await db
      .selectFrom('products')
      .selectAll()
      .where('store_id', '=', STORE)
      .where('type_id', '=', 'configurable')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const children = await db.selectFrom('products').select('id').where('parent_id', '=', parent.id).orderBy('id').execute();
    const childIds = children.map((c) => c.id);
    const before = live.catalog(STORE);

    await setStock([simple.id], 0);
    await live.catalogChanged(STORE, [simple.id]);
    const afterSoldOut = await expectSameAsFresh('simple sold out');
    expect(afterSoldOut).toBe(before); // applied to the loaded catalogue, not rebuilt
    expect(afterSoldOut.productBySku(simple.sku)!.stock.is_in_stock).toBe(false);

    await setStock([simple.id], 12);
    await live.catalogChanged(STORE, [simple.id]);
    await expectSameAsFresh('simple back in stock');

    // The parent leaves the in-stock listings when its last child sells out, one change at a time.
    for (const id of childIds) {
      await setStock([id], 0);
      await live.catalogChanged(STORE, [id]);
    }
    await expectSameAsFresh('every child of a configurable sold out');
    await setStock(childIds, 5);
    await live.catalogChanged(STORE, childIds);
    await expectSameAsFresh('children back');

    await db.updateTable('product_prices').set({ price_cents: 1 }).where('product_id', '=', simple.id).execute();
    await live.catalogChanged(STORE, [simple.id]);
    await expectSameAsFresh('price change');

    await db.updateTable('products').set({ name: 'Renamed Gummies' }).where('id', '=', simple.id).execute();
    await live.catalogChanged(STORE, [simple.id]);
    const renamed = await expectSameAsFresh('rename');
    expect(
      renamed.products.search(productSearchQuery({ storeId: STORE, licenseType: 'recreational', text: 'renamed' }), { now: NOW }).items[0]
        ?.id,
    ).toBe(simple.id);

    await db
      .updateTable('products')
      .set({ url_key: `${simple.url_key}-new`, url_path: `${simple.url_path}-new` })
      .where('id', '=', simple.id)
      .execute();
    await live.catalogChanged(STORE, [simple.id]);
    const rekeyed = await expectSameAsFresh('new url_key');
    expect(rekeyed.productByUrlPath(simple.url_path)).toBeUndefined();
    expect(rekeyed.productByUrlPath(`${simple.url_path}-new`)?.id).toBe(simple.id);

    await db.updateTable('products').set({ status: 2 }).where('id', '=', parent.id).execute();
    await live.catalogChanged(STORE, [parent.id]);
    await expectSameAsFresh('parent disabled');
  });

  it('stock-only changes (orders, releases) read the stock rows alone and answer as a fresh build: products, sizes, kit members', async () => {
    const { db } = getDb();
    const listed = (type: 'simple' | 'configurable' | 'grouped' | 'bundle') =>
      db
        .selectFrom('products')
        .selectAll()
        .where('store_id', '=', STORE)
        .where('type_id', '=', type)
        .where('visibility', '=', 4)
        .where('status', '=', 1)
        .orderBy('id');
    const simple = await listed('simple').executeTakeFirstOrThrow();
    const parents = await listed('configurable').execute();
    // The first test disabled its first configurable: take one still listed.
    const parent = parents[parents.length - 1];
    const sizes = (await db.selectFrom('products').select('id').where('parent_id', '=', parent.id).orderBy('id').execute()).map(
      (c) => c.id,
    );
    /** A kit of `type` and the product ids of its members in this store. */
    const kit = async (type: 'grouped' | 'bundle') => {
      const k = await listed(type).executeTakeFirstOrThrow();
      const skus = (await db.selectFrom('product_links').select('linked_product_sku').where('product_id', '=', k.id).execute()).map(
        (l) => l.linked_product_sku,
      );
      const members = await db.selectFrom('products').select('id').where('store_id', '=', STORE).where('sku', 'in', skus).execute();
      expect(members.length, `${type} ${k.sku} has members`).toBeGreaterThan(0);
      return members.map((m) => m.id);
    };
    const groupedKit = await listed('grouped').executeTakeFirstOrThrow();
    const grouped = await kit('grouped');
    const bundle = await kit('bundle');
    const catalogue = live.catalog(STORE);
    /** Announce a stock-only change and check it was patched from the stock rows, not re-read whole. */
    const stockChanged = async (ids: number[], step: string) => {
      const patches = live.stats.stockPatches;
      await live.catalogChanged(STORE, ids, { stockOnly: true });
      expect(live.stats.stockPatches, `${step}: patched`).toBe(patches + 1);
      expect(await expectSameAsFresh(step)).toBe(catalogue);
    };

    await setStock([simple.id], 0);
    await stockChanged([simple.id], 'simple sold out (stock only)');
    await setStock([simple.id], 7);
    await stockChanged([simple.id], 'simple back (stock only)');
    for (const id of sizes) {
      await setStock([id], 0);
      await stockChanged([id], `size ${id} sold out (stock only)`);
    }
    await setStock([sizes[0]], 2);
    await stockChanged([sizes[0]], 'one size back (stock only)');
    for (const [name, members] of [
      ['grouped', grouped],
      ['bundle', bundle],
    ] as const) {
      await setStock([members[0]], 0);
      await stockChanged([members[0]], `${name} member sold out (stock only)`);
      await setStock(members, 0);
      await stockChanged(members, `every ${name} member sold out (stock only)`);
      await setStock(members, 9);
      await stockChanged(members, `${name} members back (stock only)`);
    }
    // A kit that takes a new member (a full change): the member's next stock change reaches the kit too.
    const lastLink = await db
      .selectFrom('product_links')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();
    await db
      .insertInto('product_links')
      .values({
        id: Number(lastLink.id) + 1,
        product_id: groupedKit.id,
        link_type: 'associated',
        linked_product_sku: simple.sku,
        linked_product_type: 'simple',
        qty: 1,
        position: 99,
        is_default: 0,
        bundle_option_id: null,
      })
      .execute();
    await live.catalogChanged(STORE, [groupedKit.id]);
    await expectSameAsFresh('a kit takes a new member');
    await setStock([simple.id], 3);
    await stockChanged([simple.id], 'the new member’s stock (stock only)');
    expect(
      live
        .catalog(STORE)
        .productById(groupedKit.id)!
        .product_links.find((l) => l.linked_product_sku === simple.sku)?.product?.stock.qty,
    ).toBe(3);

    // A product without a stock row reads as a build reads it.
    await db.deleteFrom('stock').where('product_id', '=', simple.id).execute();
    await stockChanged([simple.id], 'stock row gone (stock only)');

    // A batch with one change that is more than stock reads every table (here: a price, coalesced with an order's stock).
    const patches = live.stats.stockPatches;
    await setStock([sizes[1]], 4);
    await db.updateTable('product_prices').set({ price_cents: 777 }).where('product_id', '=', sizes[2]).execute();
    await Promise.all([live.catalogChanged(STORE, [sizes[1]], { stockOnly: true }), live.catalogChanged(STORE, [sizes[2]])]);
    expect(live.stats.stockPatches).toBe(patches);
    await expectSameAsFresh('stock and price in one batch');
  });
});
