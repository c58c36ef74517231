/**
 * Integration: homeCollections over documents built from the seeded demo catalogue on both
 * databases. The lists are compared with a brute-force reading of the same rows (the oracle
 * below) and then probed by changing single products (documents are reloaded after each change,
 * as the index manager does when the catalogue changes).
 */
import {
  HOME_COLLECTIONS,
  isSpecialPriceActive,
  type LicenseType,
  type ProductCard,
  type Store,
} from '@verdant/domain';
import type { StorefrontServices } from '@verdant/web/context';
import type { Kysely, KyselyPlugin } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../db/schema.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { homeCollections, type CatalogView } from './home-collections.ts';
import { loadDocuments } from './documents.ts';
import type { CatalogIndexManager } from './index-manager.ts';

const storesFile = readStoresFile(DEMO_STORES_FILE);
const NOW = new Date('2026-06-15T12:00:00.000Z');
const storeByCode = (code: string) => storesFile.stores.find((s) => s.storeCode === code)!;
const withSettings = (store: Store, patch: Partial<Store['dispensarySettings']>): Store => ({
  ...store,
  dispensarySettings: { ...store.dispensarySettings, ...patch },
});
const hiding = (store: Store, hidden: string[]): Store =>
  withSettings(store, {
    compliance_settings: { ...store.dispensarySettings.compliance_settings!, hidden_categories: hidden },
  });

// The list function fits the services contract the web app calls.
const _contract: (m: CatalogIndexManager) => StorefrontServices['homeCollections'] = (m) => async (store, lt) =>
  homeCollections(m.catalog(store.storeId), store, lt);
void _contract;

/** The store's documents as they are in the database now. */
async function view(db: Kysely<Database>, store: Store): Promise<CatalogView> {
  const { stores } = await loadDocuments(db, { storeIds: [store.storeId] }, { customerGroupFor: () => 0, now: NOW });
  return { allProducts: () => stores[0].products, allCategories: () => stores[0].categories };
}

/** homeCollections as the old SQL function was called: from the rows as they are now. */
async function listsOf(db: Kysely<Database>, store: Store, lt: LicenseType, now: Date = NOW) {
  return homeCollections(await view(db, store), store, lt, now);
}

type Price = {
  price_cents: number;
  special_price_cents: number | null;
  special_from_date: string | null;
  special_to_date: string | null;
};
const active = (p: Price, now: Date) =>
  isSpecialPriceActive(
    {
      price: p.price_cents,
      special_price: p.special_price_cents,
      special_from_date: p.special_from_date,
      special_to_date: p.special_to_date,
    },
    now,
  );

/** Expected skus per list, computed naively from every row of the store. */
async function oracle(
  db: Kysely<Database>,
  store: Store,
  lt: LicenseType,
  now: Date,
): Promise<Record<string, string[]>> {
  const products = await db.selectFrom('products').selectAll().where('store_id', '=', store.storeId).execute();
  const ids = products.map((p) => p.id);
  const stock = new Map(
    (await db.selectFrom('stock').selectAll().where('product_id', 'in', ids).execute()).map((s) => [s.product_id, s]),
  );
  const prices = new Map(
    (
      await db
        .selectFrom('product_prices')
        .selectAll()
        .where('product_id', 'in', ids)
        .where('customer_group_id', '=', 0)
        .execute()
    ).map((p) => [p.product_id, p]),
  );
  const links = await db.selectFrom('product_links').selectAll().where('product_id', 'in', ids).execute();
  const categories = await db.selectFrom('categories').selectAll().where('store_id', '=', store.storeId).execute();
  const assignments = await db
    .selectFrom('product_categories')
    .selectAll()
    .where('store_id', '=', store.storeId)
    .execute();
  const hiddenPaths = categories
    .filter((c) => store.dispensarySettings.compliance_settings?.hidden_categories.includes(c.url_key))
    .map((c) => c.path);
  const hidden = new Set(
    categories.filter((c) => hiddenPaths.some((h) => c.path === h || c.path.startsWith(`${h}/`))).map((c) => c.id),
  );
  const bySku = new Map(products.map((p) => [p.sku, p]));
  const inStock = (id: number) => stock.get(id)?.is_in_stock === 1;

  const sale = (p: (typeof products)[number]): boolean | null => {
    if (p.type_id === 'configurable') {
      const kids = products.filter((c) => c.parent_id === p.id && c.status <= 1 && inStock(c.id) && prices.has(c.id));
      return kids.length === 0 ? null : kids.some((c) => active(prices.get(c.id)!, now));
    }
    if (p.type_id === 'grouped' || p.type_id === 'bundle') {
      const members = links.filter((l) => l.product_id === p.id).map((l) => bySku.get(l.linked_product_sku)!);
      const ok = members.filter((m) => m.status === 1 && inStock(m.id) && prices.has(m.id));
      return ok.length === 0 ? null : ok.some((m) => active(prices.get(m.id)!, now));
    }
    return prices.has(p.id) ? active(prices.get(p.id)!, now) : null;
  };
  const eligible = products
    .filter(
      (p) =>
        p.parent_id == null &&
        [2, 4].includes(p.visibility) &&
        p.status <= 1 &&
        [lt, 'both'].includes(p.license_type) &&
        inStock(p.id),
    )
    .filter((p) => !assignments.some((a) => a.product_id === p.id && hidden.has(a.category_id)))
    .map((p) => ({ p, sale: sale(p) }))
    .filter((x) => x.sale !== null)
    .sort((a, b) => (a.p.created_at === b.p.created_at ? b.p.id - a.p.id : a.p.created_at < b.p.created_at ? 1 : -1));
  const list = (f: (x: (typeof eligible)[number]) => boolean) =>
    eligible
      .filter(f)
      .slice(0, 15)
      .map((x) => x.p.sku);
  return {
    new_collection: list((x) => x.p.is_new === 1),
    bestsellers: list((x) => x.p.best_seller === 1),
    specials: list((x) => x.sale === true),
    staff_picks: list((x) => x.p.staff_pick === 1),
  };
}

const skus = (cards: ProductCard[]) => cards.map((c) => c.sku);

describeEachDatabase('homeCollections', (getDb) => {
  beforeAll(async () => {
    const { db, dataDir } = getDb();
    await seedDemo(db, storesFile, { dataDir, referenceDate: NOW });
  });

  it('matches a brute-force reading of the catalogue for every store and licence type', async () => {
    const { db } = getDb();
    for (const store of storesFile.stores) {
      for (const lt of ['recreational', 'medical'] as const) {
        const lists = await listsOf(db, store, lt, NOW);
        const expected = await oracle(db, store, lt, NOW);
        for (const name of HOME_COLLECTIONS)
          expect(skus(lists[name]), `${store.storeCode} ${lt} ${name}`).toEqual(expected[name]);
      }
    }
  });

  it('returns at most 15 per list, newest first, and fills lists when it can', async () => {
    const { db } = getDb();
    for (const store of storesFile.stores) {
      const lists = await listsOf(
        db,
        store,
        store.dispensarySettings.license_recreational ? 'recreational' : 'medical',
        NOW,
      );
      const created = new Map(
        (
          await db.selectFrom('products').select(['id', 'created_at']).where('store_id', '=', store.storeId).execute()
        ).map((r) => [r.id, r.created_at]),
      );
      for (const name of HOME_COLLECTIONS) {
        const list = lists[name];
        expect(list.length).toBeLessThanOrEqual(15);
        expect(list.length).toBeGreaterThan(0);
        const dates = list.map((c) => created.get(c.id)!);
        expect([...dates].sort().reverse()).toEqual(dates);
      }
      expect(HOME_COLLECTIONS.some((name) => lists[name].length === 15)).toBe(true);
    }
  });

  it('respects the licence type', async () => {
    const { db } = getDb();
    const rec = await listsOf(db, storeByCode('downtown'), 'recreational', NOW);
    const med = await listsOf(db, storeByCode('downtown'), 'medical', NOW);
    const all = (l: typeof rec) => HOME_COLLECTIONS.flatMap((n) => l[n]);
    expect(all(rec).every((c) => c.license_type !== 'medical')).toBe(true);
    expect(all(med).every((c) => c.license_type !== 'recreational')).toBe(true);
    expect(all(med).some((c) => c.license_type === 'medical')).toBe(true);
  });

  it('lists only active specials, priced below the regular price', async () => {
    const { db } = getDb();
    for (const store of storesFile.stores) {
      const { specials } = await listsOf(
        db,
        store,
        store.dispensarySettings.license_recreational ? 'recreational' : 'medical',
        NOW,
      );
      expect(specials.length).toBeGreaterThan(0);
      for (const card of specials) {
        expect(card.sale).toBe(true);
        const rows = await db
          .selectFrom('products as p')
          .innerJoin('product_prices as pp', 'pp.product_id', 'p.id')
          .select(['pp.price_cents', 'pp.special_price_cents', 'pp.special_from_date', 'pp.special_to_date'])
          .where((eb) => eb.or([eb('p.id', '=', card.id), eb('p.parent_id', '=', card.id)]))
          .execute();
        if (card.type_id === 'simple' || card.type_id === 'configurable')
          expect(rows.some((r) => active(r, NOW))).toBe(true);
      }
    }
  });

  it('prices configurables from their cheapest available child', async () => {
    const { db } = getDb();
    const lists = await listsOf(db, storeByCode('harbor'), 'recreational', NOW);
    const configurables = HOME_COLLECTIONS.flatMap((n) => lists[n]).filter((c) => c.type_id === 'configurable');
    expect(configurables.length).toBeGreaterThan(0);
    for (const card of configurables) {
      expect(card.price_from).toBe(true);
      const children = await db
        .selectFrom('products as c')
        .innerJoin('product_prices as pp', 'pp.product_id', 'c.id')
        .innerJoin('stock as s', 's.product_id', 'c.id')
        .select(['pp.price_cents', 'pp.special_price_cents', 'pp.special_from_date', 'pp.special_to_date'])
        .where('c.parent_id', '=', card.id)
        .where('c.status', '<=', 1)
        .where('s.is_in_stock', '=', 1)
        .execute();
      const finals = children.map((r) => (active(r, NOW) ? r.special_price_cents! : r.price_cents));
      expect(card.final_price).toBe(Math.min(...finals));
      expect(card.final_price).toBeLessThanOrEqual(card.price);
    }
  });

  it('hides the compliance-hidden categories and their descendants', async () => {
    const { db } = getDb();
    const categoryOf = async (cards: ProductCard[]) => {
      if (cards.length === 0) return [];
      const rows = await db
        .selectFrom('product_categories as pc')
        .innerJoin('categories as c', (j) =>
          j.onRef('c.id', '=', 'pc.category_id').onRef('c.store_id', '=', 'pc.store_id'),
        )
        .select('c.path')
        .where(
          'pc.product_id',
          'in',
          cards.map((c) => c.id),
        )
        .execute();
      return rows.map((r) => r.path);
    };
    const listedPaths = async (store: Store) => {
      const lists = await listsOf(db, store, 'recreational', NOW);
      return categoryOf(HOME_COLLECTIONS.flatMap((n) => lists[n]));
    };
    // Eastside hides Tinctures (category 8); without that setting some tincture would be listed.
    const eastside = storeByCode('eastside');
    expect(await listedPaths(eastside)).not.toContain('2/8');
    expect(await listedPaths(hiding(eastside, []))).toContain('2/8');
    // Hiding Edibles (7) hides its subcategories Gummies and Chocolates too.
    const downtown = storeByCode('downtown');
    expect((await listedPaths(downtown)).some((p) => p.startsWith('2/7/'))).toBe(true);
    expect((await listedPaths(hiding(downtown, ['edibles']))).some((p) => p === '2/7' || p.startsWith('2/7/'))).toBe(
      false,
    );
  });

  it('drops a product that is disabled, hidden, out of stock or whose special ended', async () => {
    const { db } = getDb();
    const store = storeByCode('downtown');
    // Make one simple product the newest, on an active special, and flagged for every list.
    const target = await db
      .selectFrom('products as p')
      .innerJoin('stock as s', 's.product_id', 'p.id')
      .innerJoin('product_prices as pp', 'pp.product_id', 'p.id')
      .select(['p.id', 'p.sku', 'pp.price_cents'])
      .where('p.store_id', '=', 1)
      .where('p.type_id', '=', 'simple')
      .where('p.parent_id', 'is', null)
      .where('p.license_type', '=', 'both')
      .where('p.visibility', '=', 4)
      .where('p.status', '=', 1)
      .where('s.is_in_stock', '=', 1)
      .where('p.discount_group_id', 'is', null)
      .orderBy('p.id')
      .executeTakeFirstOrThrow();
    const newest = new Date(NOW.getTime() - 60_000).toISOString();
    await db
      .updateTable('products')
      .set({ created_at: newest, is_new: 1, staff_pick: 1, best_seller: 1 })
      .where('id', '=', target.id)
      .execute();
    await db
      .updateTable('product_prices')
      .set({ special_price_cents: target.price_cents - 100, special_from_date: null, special_to_date: '2026-06-15' })
      .where('product_id', '=', target.id)
      .execute();
    const first = async (now = NOW) => {
      const l = await listsOf(db, store, 'recreational', now);
      return HOME_COLLECTIONS.map((n) => l[n][0]?.sku === target.sku);
    };
    // A bare `to` date runs through the end of that day.
    expect(await first()).toEqual([true, true, true, true]);
    expect(await first(new Date('2026-06-16T00:00:01.000Z'))).toEqual([true, true, false, true]);

    const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        'status 2',
        () => db.updateTable('products').set({ status: 2 }).where('id', '=', target.id).execute(),
        () => db.updateTable('products').set({ status: 1 }).where('id', '=', target.id).execute(),
      ],
      [
        'visibility 3',
        () => db.updateTable('products').set({ visibility: 3 }).where('id', '=', target.id).execute(),
        () => db.updateTable('products').set({ visibility: 4 }).where('id', '=', target.id).execute(),
      ],
      [
        'out of stock',
        () => db.updateTable('stock').set({ is_in_stock: 0 }).where('product_id', '=', target.id).execute(),
        () => db.updateTable('stock').set({ is_in_stock: 1 }).where('product_id', '=', target.id).execute(),
      ],
      [
        'medical only',
        () => db.updateTable('products').set({ license_type: 'medical' }).where('id', '=', target.id).execute(),
        () => db.updateTable('products').set({ license_type: 'both' }).where('id', '=', target.id).execute(),
      ],
    ];
    for (const [what, change, undo] of cases) {
      await change();
      expect(await first(), what).toEqual([false, false, false, false]);
      await undo();
    }
    expect(await first()).toEqual([true, true, true, true]);
  });

  it('drops a configurable when no child is available, and puts pinned best sellers first', async () => {
    const { db } = getDb();
    const store = storeByCode('downtown');
    const lists = await listsOf(db, store, 'recreational', NOW);
    const flower = HOME_COLLECTIONS.flatMap((n) => lists[n]).find((c) => c.type_id === 'configurable')!;
    const children = (await db.selectFrom('products').select('id').where('parent_id', '=', flower.id).execute()).map(
      (r) => r.id,
    );
    await db.updateTable('stock').set({ is_in_stock: 0 }).where('product_id', 'in', children).execute();
    const without = await listsOf(db, store, 'recreational', NOW);
    expect(HOME_COLLECTIONS.flatMap((n) => skus(without[n]))).not.toContain(flower.sku);
    await db.updateTable('stock').set({ is_in_stock: 1 }).where('product_id', 'in', children).execute();

    const plain = await db
      .selectFrom('products')
      .select('sku')
      .where('store_id', '=', 1)
      .where('best_seller', '=', 0)
      .where('name', '=', 'Blue Dream')
      .executeTakeFirst();
    const pinned = [plain?.sku ?? 'FL-BLUE-DREAM', lists.bestsellers[lists.bestsellers.length - 1].sku, 'NO-SUCH-SKU'];
    const { bestsellers } = await listsOf(db, withSettings(store, { best_sellers: pinned }), 'recreational', NOW);
    expect(skus(bestsellers).slice(0, 2)).toEqual(pinned.slice(0, 2));
    expect(new Set(skus(bestsellers)).size).toBe(bestsellers.length);
    expect(bestsellers.length).toBeLessThanOrEqual(15);
  });

  it('maps cards for the web app and uses a handful of queries', async () => {
    const { db } = getDb();
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => args.node,
      // Once per executed statement (transformQuery also sees each subquery).
      transformResult: async (args) => {
        queries++;
        return args.result;
      },
    };
    const docs = await view(db.withPlugin(counter), storeByCode('eastside'));
    // One query per table, whatever the catalogue size (no query per product): 16 catalogue tables, and
    // (issue 30) the review stats and the `reviews` setting.
    expect(queries).toBeLessThanOrEqual(18);
    const lists = homeCollections(docs, storeByCode('eastside'), 'recreational', NOW);
    const cards = HOME_COLLECTIONS.flatMap((n) => lists[n]);
    for (const c of cards) {
      expect(Number.isInteger(c.price) && Number.isInteger(c.final_price)).toBe(true);
      expect(c.image === null || c.image.startsWith('/catalog/product/')).toBe(true);
      expect(typeof c.brand === 'string' || c.brand === null).toBe(true);
    }
    expect(cards.some((c) => c.brand !== null)).toBe(true);
  });
});
