/**
 * `npm run seed -- [--stores N [--stores-file OUT]] [--products N] [--data-dir DIR] [--reference-date ISO] [--force]`
 *
 * Migrates the database (SQLite under DATA_DIR, or DATABASE_URL) and writes the deterministic demo
 * catalogue for every store of STORES_FILE (default: the bundled demo stores), replacing any
 * catalogue the demo seed wrote before. Customers, carts and orders are kept.
 *
 * With `--stores N` (issue 15, a deployment of many stores) it first writes a stores file of N
 * generated stores (seed/deployment.ts: store-001 … on *.localhost) to OUT (default
 * `<data dir>/stores.json`; STORES_FILE is then not read), seeds every one of them, one store per
 * transaction, and prints the command that starts the server on it (STORES_FILE=OUT).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { runWhenMain } from './run.ts';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createDatabase, migrateToLatest } from '../db/index.ts';
import {
  DEFAULT_PRODUCTS_PER_STORE,
  MAX_DEPLOYMENT_STORES,
  MIN_PRODUCTS_PER_STORE,
  deploymentStoresFile,
  readStoresFile,
  seedDemo,
  seedDemoDeals,
  seedDemoFleet,
  seedDeployment,
} from '../seed/index.ts';

export interface SeedArgs {
  products: number;
  dataDir?: string;
  referenceDate?: Date;
  force: boolean;
  /** Generate a deployment of this many stores (issue 15) instead of seeding STORES_FILE's. */
  stores?: number;
  /** Where the generated stores file goes (default `<data dir>/stores.json`); only with `stores`. */
  storesFile?: string;
}

export const SEED_USAGE =
  'Usage: npm run seed -- [--stores N [--stores-file OUT]] [--products N] [--data-dir DIR] [--reference-date 2026-06-15T12:00:00Z] [--force]';

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      products: { type: 'string' },
      'data-dir': { type: 'string' },
      'reference-date': { type: 'string' },
      force: { type: 'boolean', default: false },
      stores: { type: 'string' },
      'stores-file': { type: 'string' },
    },
    strict: true,
  });
}

/** Parse the command line; throws with a usage message on bad input. */
export function parseSeedArgs(argv: string[]): SeedArgs {
  let values: ReturnType<typeof parseOptions>['values'];
  try {
    ({ values } = parseOptions(argv));
  } catch (error) {
    // Node's own message (unknown option, missing value) and then the usage line.
    throw new Error(`${(error as Error).message}\n${SEED_USAGE}`, { cause: error });
  }
  const products = values.products === undefined ? DEFAULT_PRODUCTS_PER_STORE : Number(values.products);
  if (!Number.isInteger(products) || products < MIN_PRODUCTS_PER_STORE) {
    throw new Error(`--products must be an integer of at least ${MIN_PRODUCTS_PER_STORE}\n${SEED_USAGE}`);
  }
  const referenceDate = values['reference-date'] === undefined ? undefined : new Date(values['reference-date']);
  if (referenceDate && Number.isNaN(referenceDate.getTime())) {
    throw new Error(`--reference-date must be an ISO date\n${SEED_USAGE}`);
  }
  const stores = values.stores === undefined ? undefined : Number(values.stores);
  if (
    stores !== undefined &&
    (!/^\d+$/.test(values.stores ?? '') || !Number.isInteger(stores) || stores < 1 || stores > MAX_DEPLOYMENT_STORES)
  ) {
    throw new Error(`--stores must be an integer from 1 to ${MAX_DEPLOYMENT_STORES}\n${SEED_USAGE}`);
  }
  if (values['stores-file'] !== undefined && stores === undefined) {
    throw new Error(`--stores-file goes with --stores (to seed an existing stores file, set STORES_FILE)\n${SEED_USAGE}`);
  }
  const args: SeedArgs = { products, dataDir: values['data-dir'], referenceDate, force: values.force === true };
  if (stores !== undefined) {
    args.stores = stores;
    if (values['stores-file'] !== undefined) args.storesFile = values['stores-file'];
  }
  return args;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) return console.log(SEED_USAGE);
  const args = parseSeedArgs(argv);
  const config = loadConfig();
  const dataDir = args.dataDir ? resolve(args.dataDir) : config.dataDir;
  if (args.stores !== undefined) return seedManyStores(args, args.stores, dataDir, config.databaseUrl);
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
    // The demo deals (issue 28): each store gets those it does not have yet (seed/deals.ts).
    const deals = await db.transaction().execute((trx) => seedDemoDeals(trx, storesFile, args.referenceDate ?? new Date()));
    if (deals > 0) console.log(`Demo deals written: ${deals}`);
    // Two drivers and two vehicles per delivering store that has none (issue 29, seed/delivery.ts).
    const fleet = await db.transaction().execute((trx) => seedDemoFleet(trx, storesFile, args.referenceDate ?? new Date()));
    if (fleet.drivers + fleet.vehicles > 0) console.log(`Demo drivers and vehicles written: ${fleet.drivers} drivers, ${fleet.vehicles} vehicles`);
    const where = dialect === 'sqlite' ? `${dataDir}/verdant.sqlite` : 'DATABASE_URL';
    console.log(
      `Seeded ${summary.stores.length} stores × ${summary.productsPerStore} products into ${dialect} (${where}) ` +
        `in ${summary.elapsedMs} ms, reference date ${summary.referenceDate}.`,
    );
    for (const s of summary.stores) console.log(`  ${s.storeCode.padEnd(12)} store ${s.storeId}: ${s.products} product rows`);
    console.log('Rows per table:');
    for (const [table, n] of Object.entries(summary.rows)) console.log(`  ${table.padEnd(36)} ${n}`);
    console.log(`Images: ${summary.images} SVG files under ${dataDir}/media/catalog/product`);
  } finally {
    await destroy();
  }
}

/** `--stores N`: write the generated stores file, then seed each store in a transaction of its own. */
async function seedManyStores(args: SeedArgs, count: number, dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const out = resolve(args.storesFile ?? join(dataDir, 'stores.json'));
  const storesFile = deploymentStoresFile(count);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(storesFile, null, 2) + '\n');
  console.log(`Wrote ${count} stores to ${out}`);
  const { db, dialect, destroy } = await createDatabase({ databaseUrl, dataDir });
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) console.log(`Applied migrations: ${applied.join(', ')}`);
    // A line every tenth of the way (and for the last store): 150 stores print 15 lines.
    const every = Math.max(1, Math.ceil(count / 10));
    const summary = await seedDeployment(db, storesFile, {
      dataDir,
      productsPerStore: args.products,
      referenceDate: args.referenceDate,
      force: args.force,
      onStore: (s) => {
        if ((s.index + 1) % every === 0 || s.index + 1 === count)
          console.log(
            `  ${String(s.index + 1).padStart(5)}/${count} ${s.storeCode}: ${s.products} product rows, ${s.rows} rows in ${s.elapsedMs} ms`,
          );
      },
    });
    // The demo deals (issue 28): each store gets those it does not have yet (seed/deals.ts).
    const deals = await db.transaction().execute((trx) => seedDemoDeals(trx, storesFile, args.referenceDate ?? new Date()));
    if (deals > 0) console.log(`Demo deals written: ${deals}`);
    // Two drivers and two vehicles per delivering store that has none (issue 29, seed/delivery.ts).
    const fleet = await db.transaction().execute((trx) => seedDemoFleet(trx, storesFile, args.referenceDate ?? new Date()));
    if (fleet.drivers + fleet.vehicles > 0) console.log(`Demo drivers and vehicles written: ${fleet.drivers} drivers, ${fleet.vehicles} vehicles`);
    const where = dialect === 'sqlite' ? `${dataDir}/verdant.sqlite` : 'DATABASE_URL';
    console.log(
      `Seeded ${summary.stores} stores × ${summary.productsPerStore} products (${summary.productRows} product rows, ` +
        `${summary.rows} rows) into ${dialect} (${where}) in ${summary.elapsedMs} ms, reference date ${summary.referenceDate}.`,
    );
    console.log(`Images: ${summary.images} SVG files under ${dataDir}/media/catalog/product`);
    const dataEnv = dialect === 'sqlite' ? `DATA_DIR=${dataDir}` : `DATA_DIR=${dataDir} DATABASE_URL=…`;
    console.log(`Start the server on it: STORES_FILE=${out} ${dataEnv} npm start   (stores at http://store-001.localhost:3000/ …)`);
  } finally {
    await destroy();
  }
}

runWhenMain(import.meta.url, () => main());
