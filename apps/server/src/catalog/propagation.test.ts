/**
 * A change reaches everything (issue 13): a price, stock or product change written by a menu file
 * (the import engine, as `npm run import`, the integration API and the console write and then call
 * `app.catalog.catalogChanged`) shows at once — well inside the 2 s promise — in search, category
 * listings and navigation counts, the product lookup and the product page's URL mapping, the
 * sitemap, the offline snapshot (its ETag changes, so a browser's copy is refreshed), and every
 * cache of rendered pages (the output cache and the list-answer cache are dropped for the store:
 * `app.invalidateStore` drops both, observed here through `onStoreInvalidated`). An item sold out
 * leaves listings, search and category counts unless the store lists out-of-stock items, and its
 * product page says it is out of stock. Open carts: ../cart/menu-changes.test.ts; other nodes:
 * ../multinode/menu-changes.test.ts. Both databases.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { StoreRegistry } from '../stores/registry.ts';
import { MenuFile } from '../../test-support/catalog/menu-fixture.ts';
import { NOW, hostOf, seed, storesFile, testApp } from '../../test-support/catalog/test-app.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const HOST = hostOf('downtown');
/** The promise of the issue; in one process the change is there when catalogChanged resolves. */
const REACH_MS = 2000;

/** The demo stores, but downtown lists out-of-stock items (spec §7 "out-of-stock listing"). */
const listingOutOfStock = new StoreRegistry({
  ...storesFile,
  stores: storesFile.stores.map((s) => (s.storeId === 1 ? { ...s, catalog: { ...s.catalog, listOutOfStockProducts: true } } : s)),
});

describeEachDatabase('a menu change reaches search, pages, sitemap and snapshot', (getDb) => {
  let app: FastifyInstance;
  /** The same database served by a deployment whose downtown store lists out-of-stock items. */
  let listing: FastifyInstance;
  let menu: MenuFile;
  let invalidated: (number | undefined)[] = [];

  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    listing = await testApp(getDb(), { registry: listingOutOfStock });
    app.onStoreInvalidated((storeId) => invalidated.push(storeId));
    // Both apps are told, as every node of a deployment is (here without Redis: one process).
    menu = await new MenuFile(
      getDb().db,
      1,
      async (storeId, ids) => {
        await Promise.all([app.catalog.catalogChanged(storeId, ids), listing.catalog.catalogChanged(storeId, ids)]);
      },
      () => NOW,
    ).load();
  });
  afterAll(async () => {
    await app?.close();
    await listing?.close();
  });
  beforeEach(() => {
    invalidated = [];
  });

  const get = async (url: string, on = app) => {
    const res = await on.inject({ url, headers: { host: HOST } });
    return { status: res.statusCode, body: res.body, json: () => res.json(), etag: res.headers.etag as string | undefined };
  };
  const found = async (text: string, on = app) =>
    (
      (await get(`/api/catalog/products?text=${encodeURIComponent(text)}&size=50`, on)).json().result.items as {
        sku: string;
        price: number;
        name: string;
      }[]
    ).find((i) => i.sku === JAR);
  const inCategory = async (on = app) =>
    (
      (await get('/api/catalog/products?category=menu/accessories&size=200', on)).json().result.items as { sku: string; price: number }[]
    ).find((i) => i.sku === JAR);
  const accessoriesCount = async (on = app) =>
    ((await get('/api/catalog/categories?size=100', on)).json().result.items as { url_path: string; product_count: number }[]).find(
      (c) => c.url_path === 'menu/accessories',
    )!.product_count;
  const productPage = async (on = app) => {
    const res = await on.inject({
      method: 'POST',
      url: '/api/url/map',
      headers: { host: HOST },
      payload: { url: 'black-ceramic-stash-jar' },
    });
    return { status: res.statusCode, source: res.json().result?._source };
  };
  const snapshot = async (on = app) => {
    const res = await get('/api/catalog/snapshot', on);
    const product = (res.json().content.products as { sku: string; price: number; name: string; stock: { qty: number } }[]).find(
      (p) => p.sku === JAR,
    );
    return { etag: res.etag!, product };
  };
  /** Apply a one-row menu file and return how long until catalogChanged resolved (the change is served). */
  const change = async (cells: Record<string, string>) => {
    const started = performance.now();
    await menu.change(JAR, cells);
    return performance.now() - started;
  };

  it('a price change: search, category listing, product lookup and page, snapshot; cached answers dropped', async () => {
    // Prime every cache first: a change must not be hidden behind a cached answer.
    expect((await found('ceramic stash jar'))?.price).toBe(2699);
    expect((await inCategory())?.price).toBe(2699);
    const before = await snapshot();
    expect(before.product?.price).toBe(2699);
    expect((await get(`/api/catalog/snapshot`)).status).toBe(200);

    expect(await change({ price: '31.25' })).toBeLessThan(REACH_MS);
    expect(invalidated).toContain(1);
    expect((await found('ceramic stash jar'))?.price).toBe(3125);
    expect((await inCategory())?.price).toBe(3125);
    expect((await get(`/api/catalog/product/${JAR}`)).json().result.price).toBe(3125);
    expect((await productPage()).source.price).toBe(3125);
    const after = await snapshot();
    expect(after.product?.price).toBe(3125);
    expect(after.etag).not.toBe(before.etag);
    // A browser holding the old snapshot is not told "not modified".
    const revalidated = await app.inject({ url: '/api/catalog/snapshot', headers: { host: HOST, 'if-none-match': before.etag } });
    expect(revalidated.statusCode).toBe(200);
    expect(invalidated.every((id) => id === 1)).toBe(true);
  });

  it('a product change (name): search finds the new name, not the old; page, sitemap and snapshot follow', async () => {
    expect(await found('obsidian')).toBeUndefined();
    const etag = (await snapshot()).etag;
    expect(await change({ name: 'Obsidian Stash Jar' })).toBeLessThan(REACH_MS);
    expect((await found('obsidian'))?.name).toBe('Obsidian Stash Jar');
    // The card a search answers (and a cached one) carries the new name only.
    expect((await found('ceramic stash jar'))?.name ?? 'Obsidian Stash Jar').toBe('Obsidian Stash Jar');
    expect((await productPage()).source.name).toBe('Obsidian Stash Jar');
    expect((await snapshot()).etag).not.toBe(etag);
    expect((await snapshot()).product?.name).toBe('Obsidian Stash Jar');

    // Taken off the menu (status disabled): gone from the sitemap and search; back when active again.
    const sitemap = async () => (await get('/sitemap.xml')).body;
    expect(await sitemap()).toContain('/black-ceramic-stash-jar');
    await change({ status: 'disabled' });
    expect(await sitemap()).not.toContain('/black-ceramic-stash-jar');
    expect(await found('obsidian stash jar')).toBeUndefined();
    expect((await productPage()).status).toBe(404);
    await change({ status: 'active', name: 'Black Ceramic Stash Jar' });
    expect(await sitemap()).toContain('/black-ceramic-stash-jar');
  });

  it('stock to 0: leaves search, the category listing and its count (unless the store lists sold-out items); the page says sold out', async () => {
    const count = await accessoriesCount();
    const listingCount = await accessoriesCount(listing);
    expect(await found('ceramic stash jar')).toBeDefined();
    const etag = (await snapshot()).etag;

    expect(await change({ stock: '0' })).toBeLessThan(REACH_MS);
    expect(await found('ceramic stash jar')).toBeUndefined();
    expect(await inCategory()).toBeUndefined();
    expect(await accessoriesCount()).toBe(count - 1);
    const page = await productPage();
    expect(page.status).toBe(200);
    expect(page.source.stock).toMatchObject({ qty: 0, is_in_stock: false });
    expect((await get(`/api/catalog/product/${JAR}`)).json().result.stock).toMatchObject({ qty: 0, is_in_stock: false });
    const snap = await snapshot();
    expect(snap.etag).not.toBe(etag);
    expect(snap.product?.stock.qty).toBe(0);

    // The store that lists out-of-stock items keeps it in listings, search and the count.
    expect(await found('ceramic stash jar', listing)).toBeDefined();
    expect(await inCategory(listing)).toBeDefined();
    expect(await accessoriesCount(listing)).toBe(listingCount);
    expect((await productPage(listing)).source.stock.is_in_stock).toBe(false);

    // Restocked: back everywhere, without a restart.
    await change({ stock: '4' });
    expect(await found('ceramic stash jar')).toBeDefined();
    expect(await inCategory()).toBeDefined();
    expect(await accessoriesCount()).toBe(count);
  });

  it('an order that takes the last item: it leaves search, the category listing and its count within 2 s', async () => {
    await change({ stock: '1' });
    const count = await accessoriesCount();
    expect(await found('ceramic stash jar')).toBeDefined();
    const placed = await app.inject({
      method: 'POST',
      url: '/api/order/save',
      headers: { host: HOST },
      payload: {
        idempotency_key: randomUUID(),
        products: [{ sku: JAR, qty: 1 }],
        order_type: 'pickup',
        personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' },
        // Age on every order (issue 14): a guest gives a date of birth.
        birthday: '1990-01-01',
        payment_method: 'cashondelivery',
      },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    // The order route tells the catalogue after answering the shopper (orders/routes.ts): bounded wait.
    const since = performance.now();
    while ((await found('ceramic stash jar')) !== undefined) {
      expect(performance.now() - since, 'the sold-out item left search within 2 s').toBeLessThan(REACH_MS);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await inCategory()).toBeUndefined();
    expect(await accessoriesCount()).toBe(count - 1);
    expect((await productPage()).source.stock).toMatchObject({ qty: 0, is_in_stock: false });
    await menu.load();
    await change({ stock: '9' });
    expect(await accessoriesCount()).toBe(count);
  });

  it('a category whose last listed item sells out leaves the navigation (product_count 0), and comes back', async () => {
    const topLevel = async () =>
      ((await get('/api/catalog/categories?parent_id=2&is_active=1&product_count_gt=0')).json().result.items as { url_path: string }[]).map(
        (c) => c.url_path,
      );
    expect(await topLevel()).toContain('menu/accessories');
    const accessories = (
      (await get('/api/catalog/products?category=menu/accessories&size=200')).json().result.items as { sku: string }[]
    ).map((i) => i.sku);
    expect(accessories.length).toBeGreaterThan(0);
    const file = await new MenuFile(
      getDb().db,
      1,
      (s, ids) => app.catalog.catalogChanged(s, ids),
      () => NOW,
    ).load();
    const rows = accessories.map((sku) => file.row(sku));
    // Every accessory sold out in one file (as a POS sync at closing time).
    const { importMenu } = await import('../menu-import/index.ts');
    const soldOut = await importMenu(getDb().db, {
      storeId: 1,
      source: [Buffer.from(JSON.stringify(rows.map((r) => ({ ...r, stock: '0' }))))],
      format: 'json',
      clock: () => NOW,
      onChanged: (s, ids) => app.catalog.catalogChanged(s, ids),
    });
    expect(soldOut.outcome).toBe('applied');
    expect(await topLevel()).not.toContain('menu/accessories');
    expect(await accessoriesCount()).toBe(0);
    const restocked = await importMenu(getDb().db, {
      storeId: 1,
      source: [Buffer.from(JSON.stringify(rows))],
      format: 'json',
      clock: () => NOW,
      onChanged: (s, ids) => app.catalog.catalogChanged(s, ids),
    });
    expect(restocked.outcome).toBe('applied');
    expect(await topLevel()).toContain('menu/accessories');
    await menu.load();
  });
});
