/**
 * The page's persistent cache (./persistent-cache.ts, spec §4 "Persistent cache", §9): ONE per
 * store code for the whole page, created on first use in the browser (never during SSR), with
 * the 30 s quota check running from then on. It holds the offline catalogue snapshot
 * (../lib/offline-catalog.ts, kept) and the sync queue's cacheable task results (kept); anything
 * expendable written later (ordinal below 100) is what the quota purge removes first.
 *
 * This module is loaded by dynamic import only: it never enters the first-paint bundle.
 */
import { createPersistentCache, type PersistentCache, type PersistentCacheOptions } from './persistent-cache.ts';

const caches = new Map<string, PersistentCache>();

/** IndexedDB database of a store's cache (`verdant-cache-{storeCode}`, one per store code). */
export const appCacheName = (storeCode: string) => storeCode;

/** The store's cache, or null where there is no IndexedDB (SSR, very old browsers). */
export function appCacheFor(storeCode: string, options: Omit<PersistentCacheOptions, 'name'> = {}): PersistentCache | null {
  if (typeof window === 'undefined' || typeof indexedDB === 'undefined') return null;
  let cache = caches.get(storeCode);
  if (!cache) {
    cache = createPersistentCache({ name: appCacheName(storeCode), ...options });
    cache.startQuotaChecks();
    caches.set(storeCode, cache);
  }
  return cache;
}
