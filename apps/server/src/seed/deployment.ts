/**
 * A deployment of many stores (issue 15: "150 stores × 2,000 products on one node"), for the scale
 * bench and for trying the platform at chain size: `npm run seed -- --stores 150 --products 2000`.
 *
 *  - deploymentStoresFile(n): a stores file of n stores, a pure function of n. Codes `store-001` …
 *    (host `store-001.localhost`), ids 1 … n, names "Verdant <City> #<n>", addresses, coordinates,
 *    phones and time zones taken in turn from cities of the six states the purchase-limit presets
 *    cover (CA, CO, MI, IL, MA, NV), licence types in turn: recreational + medical, recreational
 *    only, medical only. Everything else (hours, limits, specials) is the demo's.
 *  - seedDeployment: the demo catalogue generator (generateStoreCatalog) run one store at a time,
 *    each store written in a transaction of its own, so memory holds one store's rows, not all of
 *    them, and a large seed shows progress.
 *
 * Decisions where the issue is silent:
 *  - The stores are the deployment's own, not the four demo stores: the server runs them with
 *    STORES_FILE set (not demo mode: no demo staff; the catalogue is the seeded one).
 *  - Tax rows are the demo seed's (seed/tax.ts, California's excise and the city's sales tax, CA's
 *    base rate elsewhere) and the store settings' tax section defaults to the same: this deployment
 *    is for measuring scale, not a model of each state's taxes (managers set those in the console).
 *  - catalog_sources.source is 'demo' (the catalogue is the demo generator's), so re-running the
 *    same command replaces it, and an imported menu is not replaced without --force.
 */
import type { Kysely } from 'kysely';
import { parseStoresFile, type StoresFile } from '@verdant/domain';
import { databaseInfo, syncStores } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { attributeRows } from './attributes.ts';
import { DEFAULT_PRODUCTS_PER_STORE, MIN_PRODUCTS_PER_STORE, generateStoreCatalog, prepareMasters, productImages } from './catalog.ts';
import { STORE_CATALOG_TABLES } from './rows.ts';
import { couponRows } from './tax.ts';
import {
  assertReplaceable,
  DEMO_CATALOGUE_TABLES,
  insertStoreTable,
  lockSeeding,
  upsertAttributes,
  upsertCoupons,
  writeProductImages,
} from './write.ts';

/** Store ids are 1 … n; the demo seed's id blocks (rows.ts, content.ts) hold up to this many stores. */
export const MAX_DEPLOYMENT_STORES = 9_999;

interface City {
  city: string;
  region: string;
  regionCode: string;
  postcode: string;
  lat: number;
  lng: number;
  areaCode: string;
  timezone: string;
}

/** Cities of the states the purchase-limit presets cover (packages/domain/src/limits/presets.ts). */
export const DEPLOYMENT_CITIES: readonly City[] = [
  {
    city: 'Sacramento',
    region: 'California',
    regionCode: 'CA',
    postcode: '95814',
    lat: 38.5816,
    lng: -121.4944,
    areaCode: '916',
    timezone: 'America/Los_Angeles',
  },
  {
    city: 'Denver',
    region: 'Colorado',
    regionCode: 'CO',
    postcode: '80202',
    lat: 39.7392,
    lng: -104.9903,
    areaCode: '303',
    timezone: 'America/Denver',
  },
  {
    city: 'Detroit',
    region: 'Michigan',
    regionCode: 'MI',
    postcode: '48226',
    lat: 42.3314,
    lng: -83.0458,
    areaCode: '313',
    timezone: 'America/Detroit',
  },
  {
    city: 'Chicago',
    region: 'Illinois',
    regionCode: 'IL',
    postcode: '60601',
    lat: 41.8781,
    lng: -87.6298,
    areaCode: '312',
    timezone: 'America/Chicago',
  },
  {
    city: 'Boston',
    region: 'Massachusetts',
    regionCode: 'MA',
    postcode: '02108',
    lat: 42.3601,
    lng: -71.0589,
    areaCode: '617',
    timezone: 'America/New_York',
  },
  {
    city: 'Las Vegas',
    region: 'Nevada',
    regionCode: 'NV',
    postcode: '89101',
    lat: 36.1699,
    lng: -115.1398,
    areaCode: '702',
    timezone: 'America/Los_Angeles',
  },
  {
    city: 'Oakland',
    region: 'California',
    regionCode: 'CA',
    postcode: '94607',
    lat: 37.8044,
    lng: -122.2712,
    areaCode: '510',
    timezone: 'America/Los_Angeles',
  },
  {
    city: 'Boulder',
    region: 'Colorado',
    regionCode: 'CO',
    postcode: '80302',
    lat: 40.015,
    lng: -105.2705,
    areaCode: '720',
    timezone: 'America/Denver',
  },
  {
    city: 'Ann Arbor',
    region: 'Michigan',
    regionCode: 'MI',
    postcode: '48104',
    lat: 42.2808,
    lng: -83.743,
    areaCode: '734',
    timezone: 'America/Detroit',
  },
  {
    city: 'Peoria',
    region: 'Illinois',
    regionCode: 'IL',
    postcode: '61602',
    lat: 40.6936,
    lng: -89.589,
    areaCode: '309',
    timezone: 'America/Chicago',
  },
  {
    city: 'Worcester',
    region: 'Massachusetts',
    regionCode: 'MA',
    postcode: '01608',
    lat: 42.2626,
    lng: -71.8023,
    areaCode: '508',
    timezone: 'America/New_York',
  },
  {
    city: 'Reno',
    region: 'Nevada',
    regionCode: 'NV',
    postcode: '89501',
    lat: 39.5296,
    lng: -119.8138,
    areaCode: '775',
    timezone: 'America/Los_Angeles',
  },
];

const LOGOS = ['/brand/downtown.svg', '/brand/eastside.svg', '/brand/wellness.svg', '/brand/harbor.svg'];
const THEME_COLORS = ['#166534', '#7c2d12', '#1e3a8a', '#0f766e'];
/** The demo's opening hours (stores.demo.json, downtown). */
const HOURS = [
  ...['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((day) => ({ day, open: '09:00', close: '21:00' })),
  { day: 'Sunday', open: '10:00', close: '18:00' },
];

export interface DeploymentOptions {
  /** The port in each store's canonical url (http://store-001.localhost:PORT); default 3000. */
  port?: number;
}

/** `store-001` …: three digits up to 999 stores, four beyond (codes sort in id order). */
export function deploymentStoreCode(storeId: number, count: number): string {
  return `store-${String(storeId).padStart(count > 999 ? 4 : 3, '0')}`;
}

/** The stores file of an n-store deployment (validated by the same schema the server uses). */
export function deploymentStoresFile(count: number, options: DeploymentOptions = {}): StoresFile {
  if (!Number.isInteger(count) || count < 1 || count > MAX_DEPLOYMENT_STORES) {
    throw new RangeError(`a deployment has 1 to ${MAX_DEPLOYMENT_STORES} stores, got ${count}`);
  }
  const port = options.port ?? 3000;
  const stores = Array.from({ length: count }, (_, i) => {
    const storeId = i + 1;
    const code = deploymentStoreCode(storeId, count);
    const c = DEPLOYMENT_CITIES[i % DEPLOYMENT_CITIES.length];
    // Licence types in turn: both, recreational only, medical only.
    const recreational = i % 3 !== 2;
    const medical = i % 3 !== 1;
    const name = `Verdant ${c.city} #${storeId}`;
    const serial = String(storeId).padStart(4, '0');
    return {
      storeCode: code,
      storeId,
      name,
      url: `http://${code}.localhost:${port}`,
      logo: LOGOS[i % LOGOS.length],
      aliases: [],
      appendStoreCode: false,
      themeColor: THEME_COLORS[i % THEME_COLORS.length],
      dispensarySettings: {
        license_recreational: recreational,
        license_medical: medical,
        compliance_settings: {
          limits: {
            ...(recreational ? { recreational: { per_transaction: { usable_max: 28.5 } } } : {}),
            ...(medical ? { medical: { per_transaction: { usable_max: 226.8 } } } : {}),
          },
          hidden_categories: [],
        },
        specials: [
          {
            id: 'first-order',
            title: 'First order',
            description: 'Sign up for the newsletter and get 10% off your first order.',
          },
        ],
        best_sellers: [],
        place_info: {
          address: {
            // Each store its own street number, so no two stores share an address.
            street: `${100 + storeId} Main Street`,
            city: c.city,
            region: c.region,
            region_code: c.regionCode,
            postcode: c.postcode,
            country_id: 'US',
          },
          // A few hundred metres apart per store of the same city.
          lat: Math.round((c.lat + Math.floor(i / DEPLOYMENT_CITIES.length) * 0.003) * 1e4) / 1e4,
          lng: c.lng,
          phone: `(${c.areaCode}) 555-${serial}`,
          email: `hello@${code}.verdant.example`,
          hours: HOURS,
          timezone: c.timezone,
          license_number: `${c.regionCode}-${serial}-LIC`,
          delivery_radius_miles: 10,
        },
      },
      seo: {
        defaultTitle: `${name} — Cannabis Dispensary in ${c.city}`,
        description: `Order flower, pre-rolls, vapes, edibles and more from ${name} for pickup or delivery in ${c.city}.`,
      },
      tax: { defaultCountry: 'US', defaultRegion: c.regionCode },
    };
  });
  return parseStoresFile({ defaultStoreCode: stores[0].storeCode, hostRules: {}, stores });
}

export interface SeedDeploymentOptions {
  dataDir: string;
  productsPerStore?: number;
  /** Defaults to now. Tests pass a fixed date. */
  referenceDate?: Date;
  /** Replace catalogues the demo seed did not write. */
  force?: boolean;
  /** Called after each store is written (the CLI prints progress). */
  onStore?: (done: { storeCode: string; index: number; products: number; rows: number; elapsedMs: number }) => void;
}

export interface SeedDeploymentSummary {
  stores: number;
  productsPerStore: number;
  /** Product rows (listed products, their sizes and kit members) over every store. */
  productRows: number;
  rows: number;
  images: number;
  referenceDate: string;
  elapsedMs: number;
}

/**
 * Write the demo catalogue of every store of `storesFile`, one store per transaction. Stores,
 * global attributes and coupons first (one transaction, which also refuses catalogues the demo seed
 * did not write, unless `force`); then each store's rows (deleted and rewritten, as seedDemo does).
 */
export async function seedDeployment(
  db: Kysely<Database>,
  storesFile: StoresFile,
  options: SeedDeploymentOptions,
): Promise<SeedDeploymentSummary> {
  const started = performance.now();
  const perStore = options.productsPerStore ?? DEFAULT_PRODUCTS_PER_STORE;
  if (!Number.isInteger(perStore) || perStore < MIN_PRODUCTS_PER_STORE) {
    throw new RangeError(`productsPerStore must be an integer of at least ${MIN_PRODUCTS_PER_STORE}, got ${perStore}`);
  }
  const reference = options.referenceDate ?? new Date();
  const referenceDate = reference.toISOString();
  const dialect = databaseInfo(db)?.dialect;
  await db.transaction().execute(async (trx) => {
    await lockSeeding(trx, dialect);
    await syncStores(trx, storesFile);
    await assertReplaceable(trx, storesFile, options.force === true);
    await upsertAttributes(trx, { attributes: attributeRows() });
    await upsertCoupons(trx, { coupons: couponRows(referenceDate) });
  });

  const masters = prepareMasters(perStore);
  const imagesDone = new Set<string>();
  const catalogOptions = JSON.stringify({ productsPerStore: perStore, referenceDate });
  let productRows = 0;
  let rows = 0;
  let images = 0;
  const stores = [...storesFile.stores].sort((a, b) => a.storeId - b.storeId);
  for (const [index, store] of stores.entries()) {
    const t0 = performance.now();
    const catalog = generateStoreCatalog(store, masters, reference);
    const written = await db.transaction().execute(async (trx) => {
      await lockSeeding(trx, dialect);
      // Children of products go with them (ON DELETE CASCADE); the rest is deleted per table.
      for (const table of DEMO_CATALOGUE_TABLES) {
        await trx.deleteFrom(table).where('store_id', '=', store.storeId).execute();
      }
      let n = 0;
      for (const table of STORE_CATALOG_TABLES) n += await insertStoreTable(trx, table, [catalog]);
      await trx
        .insertInto('catalog_sources')
        .values({ store_id: store.storeId, source: 'demo', options: catalogOptions, written_at: referenceDate })
        .execute();
      return n;
    });
    images += await writeProductImages(options.dataDir, productImages([catalog], masters.masters, imagesDone));
    productRows += catalog.rows.products.length;
    rows += written;
    options.onStore?.({
      storeCode: store.storeCode,
      index,
      products: catalog.rows.products.length,
      rows: written,
      elapsedMs: Math.round(performance.now() - t0),
    });
  }
  return {
    stores: stores.length,
    productsPerStore: perStore,
    productRows,
    rows,
    images,
    referenceDate,
    elapsedMs: Math.round(performance.now() - started),
  };
}
