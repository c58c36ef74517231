/**
 * Writing the demo catalogue: seedDemo replaces the catalogue of every store in the stores file
 * in one transaction; ensureSeeded does that on first start only.
 *
 * Idempotency: re-running seedDemo with the same options yields identical rows. It deletes and
 * rewrites the per-store catalogue tables (categories, products and everything hanging off them,
 * prices, stock, tax rules, CMS pages and blocks, URL rewrites), upserts the global attributes and
 * the demo coupons (keeping their usage counts), and never touches customers, carts or orders
 * (those refer to products by sku, not by foreign key). It refuses to replace a store's catalogue
 * that it did not write itself (catalog_sources.source is not 'demo') unless `force` is set.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { StoresFile } from '@verdant/domain';
import { databaseInfo, insertInChunks, syncStores, type SqlDialect } from '../db/index.ts';
import type { Database, NewRow } from '../db/schema.ts';
import { DEFAULT_PRODUCTS_PER_STORE, generateCatalog, type DemoCatalog, type DemoImage, type StoreCatalog } from './catalog.ts';
import { STORE_CATALOG_TABLES, type StoreCatalogTable } from './rows.ts';
import { noDealsYet, seedDemoDeals } from './deals.ts';
import { noFleetYet, seedDemoFleet } from './delivery.ts';

export interface SeedDemoOptions {
  /** `${dataDir}/media/catalog/product/<sku>.svg` receives the product images. */
  dataDir: string;
  productsPerStore?: number;
  /** Defaults to now. Tests pass a fixed date. */
  referenceDate?: Date;
  /** Replace catalogues the demo seed did not write. */
  force?: boolean;
}

export interface SeedSummary {
  productsPerStore: number;
  referenceDate: string;
  stores: { storeId: number; storeCode: string; products: number }[];
  /** Rows written per table. */
  rows: Record<string, number>;
  images: number;
  elapsedMs: number;
}

export const MEDIA_DIR = 'media';

export async function seedDemo(db: Kysely<Database>, storesFile: StoresFile, options: SeedDemoOptions): Promise<SeedSummary> {
  const started = performance.now();
  const catalog = generateCatalog(storesFile, {
    productsPerStore: options.productsPerStore ?? DEFAULT_PRODUCTS_PER_STORE,
    referenceDate: options.referenceDate ?? new Date(),
  });
  const dialect = databaseInfo(db)?.dialect;
  const rows = await db.transaction().execute(async (trx) => {
    await lockSeeding(trx, dialect);
    await syncStores(trx, storesFile);
    await assertReplaceable(trx, storesFile, options.force === true);
    return writeCatalog(trx, catalog);
  });
  const images = await writeProductImages(options.dataDir, catalog.images);
  return summary(catalog, rows, images, performance.now() - started);
}

/**
 * First start: seed the demo catalogue when none of the file's stores has products. The check is
 * repeated inside the writing transaction (under a lock on PostgreSQL), so two nodes starting at
 * once seed only once. Also restores missing demo images (e.g. a fresh disk against an old
 * database). Returns true when it seeded.
 */
export async function ensureSeeded(
  db: Kysely<Database>,
  storesFile: StoresFile,
  dataDir: string,
  options: Omit<SeedDemoOptions, 'dataDir' | 'force'> & { deals?: boolean } = {},
): Promise<boolean> {
  const withDeals = options.deals ?? true;
  if ((await countProducts(db, storesFile)) > 0) {
    await restoreDemoImages(db, storesFile, dataDir);
    // A demo database from before deals (issue 28) gets the demo deals once.
    if (withDeals && (await noDealsYet(db, storesFile))) {
      const dialect = databaseInfo(db)?.dialect;
      await db.transaction().execute(async (trx) => {
        await lockSeeding(trx, dialect);
        if (await noDealsYet(trx, storesFile)) await seedDemoDeals(trx, storesFile, options.referenceDate ?? new Date());
      });
    }
    // And the drivers and vehicles of issue 29 (./delivery.ts), once (DEMO_DEALS does not touch them).
    if (await noFleetYet(db, storesFile)) {
      const dialect = databaseInfo(db)?.dialect;
      await db.transaction().execute(async (trx) => {
        await lockSeeding(trx, dialect);
        if (await noFleetYet(trx, storesFile)) await seedDemoFleet(trx, storesFile, options.referenceDate ?? new Date());
      });
    }
    return false;
  }
  const catalog = generateCatalog(storesFile, {
    productsPerStore: options.productsPerStore ?? DEFAULT_PRODUCTS_PER_STORE,
    referenceDate: options.referenceDate ?? new Date(),
  });
  const dialect = databaseInfo(db)?.dialect;
  const seeded = await db.transaction().execute(async (trx) => {
    await lockSeeding(trx, dialect);
    if ((await countProducts(trx, storesFile)) > 0) return false;
    await syncStores(trx, storesFile);
    await writeCatalog(trx, catalog);
    // The demo deals of issue 28 (./deals.ts); tests that seed with seedDemo add them when they want them.
    if (withDeals) await seedDemoDeals(trx, storesFile, options.referenceDate ?? new Date());
    // Two drivers and two vehicles per delivering store (issue 29, ./delivery.ts).
    await seedDemoFleet(trx, storesFile, options.referenceDate ?? new Date());
    return true;
  });
  if (seeded) await writeProductImages(dataDir, catalog.images);
  return seeded;
}

/** An arbitrary, fixed advisory lock key for "writing the demo catalogue". */
const SEED_LOCK_ID = 727361;

/** Serialise concurrent seeders on PostgreSQL (SQLite has a single writer anyway). */
export async function lockSeeding(trx: Transaction<Database>, dialect: SqlDialect | undefined): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${SEED_LOCK_ID})`.execute(trx);
}

async function countProducts(db: Kysely<Database>, storesFile: StoresFile): Promise<number> {
  const ids = storesFile.stores.map((s) => s.storeId);
  const row = await db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('store_id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function assertReplaceable(trx: Transaction<Database>, storesFile: StoresFile, force: boolean): Promise<void> {
  if (force) return;
  const ids = storesFile.stores.map((s) => s.storeId);
  const withProducts = await trx.selectFrom('products').select('store_id').distinct().where('store_id', 'in', ids).execute();
  const sources = new Map(
    (await trx.selectFrom('catalog_sources').select(['store_id', 'source']).where('store_id', 'in', ids).execute()).map((r) => [
      r.store_id,
      r.source,
    ]),
  );
  const foreign = withProducts.filter((r) => sources.get(r.store_id) !== 'demo').map((r) => r.store_id);
  if (foreign.length > 0) {
    const codes = storesFile.stores.filter((s) => foreign.includes(s.storeId)).map((s) => s.storeCode);
    throw new Error(
      `Refusing to replace the catalogue of ${codes.join(', ')}: it was not written by the demo seed. ` +
        'Use --force (seedDemo({ force: true })) to replace it anyway.',
    );
  }
}

/** The tables a demo catalogue writes per store, in an order a delete can go (products' children cascade). */
export const DEMO_CATALOGUE_TABLES = [
  'url_rewrites',
  'cms_blocks',
  'cms_pages',
  'tax_rates',
  'tax_rules',
  'products',
  'categories',
  'catalog_sources',
] as const;

async function writeCatalog(trx: Transaction<Database>, catalog: DemoCatalog): Promise<Record<string, number>> {
  const ids = catalog.stores.map((s) => s.storeId);
  // Children of products go with them (ON DELETE CASCADE); the rest is deleted per store.
  for (const table of DEMO_CATALOGUE_TABLES) {
    await trx.deleteFrom(table).where('store_id', 'in', ids).execute();
  }
  const counts: Record<string, number> = {};
  counts.attributes = await upsertAttributes(trx, catalog);
  counts.coupons = await upsertCoupons(trx, catalog);
  for (const table of STORE_CATALOG_TABLES) counts[table] = await insertStoreTable(trx, table, catalog.stores);
  const options = JSON.stringify({ productsPerStore: catalog.productsPerStore, referenceDate: catalog.referenceDate });
  await trx
    .insertInto('catalog_sources')
    .values(ids.map((store_id) => ({ store_id, source: 'demo' as const, options, written_at: catalog.referenceDate })))
    .execute();
  return counts;
}

export async function insertStoreTable<T extends StoreCatalogTable>(
  trx: Transaction<Database>,
  table: T,
  stores: readonly StoreCatalog[],
): Promise<number> {
  // A complete row (Selectable) is a valid insert; TypeScript cannot see that through the generic.
  const rows = stores.flatMap((s) => s.rows[table]) as unknown as NewRow<T>[];
  return insertInChunks(trx, table, rows);
}

export async function upsertAttributes(trx: Transaction<Database>, catalog: Pick<DemoCatalog, 'attributes'>): Promise<number> {
  for (const row of catalog.attributes) {
    const { attribute_id, ...rest } = row;
    await trx
      .insertInto('attributes')
      .values(row)
      .onConflict((oc) => oc.column('attribute_id').doUpdateSet(rest))
      .execute();
  }
  return catalog.attributes.length;
}

/** Coupons keep their id, creation date and usage count; their definition is reset. */
export async function upsertCoupons(trx: Transaction<Database>, catalog: Pick<DemoCatalog, 'coupons'>): Promise<number> {
  for (const row of catalog.coupons) {
    const { code, created_at, times_used, ...definition } = row;
    await trx
      .insertInto('coupons')
      .values(row)
      .onConflict((oc) => oc.column('code').doUpdateSet(definition))
      .execute();
  }
  return catalog.coupons.length;
}

export async function writeProductImages(dataDir: string, images: readonly DemoImage[]): Promise<number> {
  const root = join(dataDir, MEDIA_DIR);
  const dirs = new Set(images.map((i) => dirname(join(root, i.path))));
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  // A few dozen files at a time: quick, without exhausting file handles.
  for (let i = 0; i < images.length; i += 64) {
    await Promise.all(images.slice(i, i + 64).map((img) => writeFile(join(root, img.path), img.svg)));
  }
  return images.length;
}

async function restoreDemoImages(db: Kysely<Database>, storesFile: StoresFile, dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, MEDIA_DIR, 'catalog', 'product'))) return;
  const sources = await db.selectFrom('catalog_sources').select(['source', 'options']).execute();
  const demo = sources.find((s) => s.source === 'demo' && s.options);
  if (!demo?.options) return;
  const opts = JSON.parse(demo.options) as { productsPerStore: number; referenceDate: string };
  const catalog = generateCatalog(storesFile, {
    productsPerStore: opts.productsPerStore,
    referenceDate: new Date(opts.referenceDate),
  });
  await writeProductImages(dataDir, catalog.images);
}

function summary(catalog: DemoCatalog, rows: Record<string, number>, images: number, elapsedMs: number): SeedSummary {
  return {
    productsPerStore: catalog.productsPerStore,
    referenceDate: catalog.referenceDate,
    stores: catalog.stores.map((s) => ({
      storeId: s.storeId,
      storeCode: s.storeCode,
      products: s.rows.products.length,
    })),
    rows,
    images,
    elapsedMs: Math.round(elapsedMs),
  };
}
