/**
 * `npm run seed -- [--products N] [--data-dir DIR] [--reference-date ISO] [--force]`
 *
 * Migrates the database (SQLite under DATA_DIR, or DATABASE_URL) and writes the deterministic demo
 * catalogue for every store of STORES_FILE (default: the bundled demo stores), replacing any
 * catalogue the demo seed wrote before. Customers, carts and orders are kept.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createDatabase, migrateToLatest } from '../db/index.ts';
import { DEFAULT_PRODUCTS_PER_STORE, MIN_PRODUCTS_PER_STORE, readStoresFile, seedDemo } from '../seed/index.ts';

export interface SeedArgs {
  products: number;
  dataDir?: string;
  referenceDate?: Date;
  force: boolean;
}

export const SEED_USAGE =
  'Usage: npm run seed -- [--products N] [--data-dir DIR] [--reference-date 2026-06-15T12:00:00Z] [--force]';

/** Parse the command line; throws with a usage message on bad input. */
export function parseSeedArgs(argv: string[]): SeedArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      products: { type: 'string' },
      'data-dir': { type: 'string' },
      'reference-date': { type: 'string' },
      force: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const products = values.products === undefined ? DEFAULT_PRODUCTS_PER_STORE : Number(values.products);
  if (!Number.isInteger(products) || products < MIN_PRODUCTS_PER_STORE) {
    throw new Error(`--products must be an integer of at least ${MIN_PRODUCTS_PER_STORE}\n${SEED_USAGE}`);
  }
  const referenceDate = values['reference-date'] === undefined ? undefined : new Date(values['reference-date']);
  if (referenceDate && Number.isNaN(referenceDate.getTime())) {
    throw new Error(`--reference-date must be an ISO date\n${SEED_USAGE}`);
  }
  return { products, dataDir: values['data-dir'], referenceDate, force: values.force === true };
}

async function main(): Promise<void> {
  const args = parseSeedArgs(process.argv.slice(2));
  const config = loadConfig();
  const dataDir = args.dataDir ? resolve(args.dataDir) : config.dataDir;
  const storesFile = readStoresFile(config.storesFile);
  const { db, dialect, destroy } = await createDatabase({ databaseUrl: config.databaseUrl, dataDir });
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) console.log(`Applied migrations: ${applied.join(', ')}`);
    const summary = await seedDemo(db, storesFile, {
      dataDir,
      productsPerStore: args.products,
      referenceDate: args.referenceDate,
      force: args.force,
    });
    const where = dialect === 'sqlite' ? `${dataDir}/verdant.sqlite` : 'DATABASE_URL';
    console.log(
      `Seeded ${summary.stores.length} stores × ${summary.productsPerStore} products into ${dialect} (${where}) ` +
        `in ${summary.elapsedMs} ms, reference date ${summary.referenceDate}.`,
    );
    for (const s of summary.stores)
      console.log(`  ${s.storeCode.padEnd(12)} store ${s.storeId}: ${s.products} product rows`);
    console.log('Rows per table:');
    for (const [table, n] of Object.entries(summary.rows)) console.log(`  ${table.padEnd(36)} ${n}`);
    console.log(`Images: ${summary.images} SVG files under ${dataDir}/media/catalog/product`);
  } finally {
    await destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
