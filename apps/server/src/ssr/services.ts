import type { Kysely } from 'kysely';
import type { StorefrontServices } from '@verdant/web/context';
import type { Database } from '../db/schema.ts';
import { homeCollections } from '../catalog/home-collections.ts';
import { cmsPage } from '../cms/pages.ts';
import { TtlCache, storeKey } from '../cache/ttl-cache.ts';

/**
 * The server modules that route loaders may call (the AppContext contract). Reads that every home
 * page view repeats are cached briefly per store and licence type: a minute keeps special-price
 * windows honest while sparing the database the same query on every request.
 */
export const HOME_CACHE_TTL_MS = 60_000;

export function createStorefrontServices(db: Kysely<Database>) {
  const homeCache = new TtlCache<Awaited<ReturnType<StorefrontServices['homeCollections']>>>(HOME_CACHE_TTL_MS);
  const cmsCache = new TtlCache<Awaited<ReturnType<StorefrontServices['cmsPage']>>>(HOME_CACHE_TTL_MS);
  const services: StorefrontServices = {
    homeCollections: (store, licenseType) =>
      homeCache.get(storeKey(store.storeId, 'home', licenseType), () => homeCollections(db, store, licenseType)),
    cmsPage: (store, identifier) =>
      cmsCache.get(storeKey(store.storeId, 'cms', identifier), () => cmsPage(db, store, identifier)),
  };
  return {
    services,
    /** Call after a store's catalogue or CMS content changed. */
    invalidate(storeId?: number) {
      homeCache.invalidate(storeId);
      cmsCache.invalidate(storeId);
    },
  };
}
