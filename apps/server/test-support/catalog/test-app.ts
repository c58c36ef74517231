/**
 * Test support for the catalogue, URL, CMS, image and SEO suites: the demo catalogue seeded at a
 * fixed reference date, and the app built over it with its clock pinned to that date (so "new"
 * items and special-price windows are the same on every run).
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { DEMO_STORES_FILE } from '../../src/config.ts';
import { readStoresFile, seedDemo } from '../../src/seed/index.ts';
import { StoreRegistry } from '../../src/stores/registry.ts';
import type { TestDatabase } from '../databases.ts';

export const NOW = new Date('2026-06-15T12:00:00.000Z');
export const storesFile = readStoresFile(DEMO_STORES_FILE);
export const registry = new StoreRegistry(storesFile);

export function storeByCode(code: string) {
  const store = storesFile.stores.find((s) => s.storeCode === code);
  if (!store) throw new Error(`no demo store ${code}`);
  return store;
}

/** The Host header that opens a store. */
export const hostOf = (code: string) => `${code}.localhost:3000`;

export async function seed(t: TestDatabase): Promise<void> {
  await seedDemo(t.db, storesFile, { dataDir: t.dataDir, referenceDate: NOW });
}

/** buildApp over a (seeded) test database, API only, clock pinned to NOW. */
export function testApp(
  t: TestDatabase,
  extra: { redisUrl?: string; registry?: StoreRegistry; trustProxy?: boolean | number | string } = {},
): Promise<FastifyInstance> {
  return buildApp({
    config: {
      dataDir: t.dataDir,
      demoMode: true,
      production: true,
      logLevel: 'silent',
      redisUrl: extra.redisUrl,
      trustProxy: extra.trustProxy,
    },
    registry: extra.registry ?? registry,
    db: t.db,
    logger: false,
    clock: () => NOW,
  });
}

/**
 * Load every store's catalogue (lazy since issue 15: built on a store's first request). For suites
 * that read `app.catalog.catalog(id)` directly, or check that a change reaches a loaded catalogue.
 */
export async function loadCatalogues(app: FastifyInstance, stores: readonly { storeId: number }[] = registry.stores): Promise<void> {
  await Promise.all(stores.map((s) => app.catalog.ensure(s.storeId)));
}
