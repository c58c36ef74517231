/**
 * The persistent cache (spec §4 Persistent cache, §9): a key/value cache in IndexedDB that can
 * never hang or break the page.
 *  - Every operation has a deadline: read 800 ms, write 800 ms, iterate 2000 ms. A read that
 *    misses its deadline is a miss (null), a write a failed write (false), an iteration an empty
 *    one. A deadline missed is NOT counted as an error (a busy disk must not switch the cache off
 *    for the page's life); timeouts have their own counters.
 *  - Errors switch the cache off for the page's life: reads after 1 read error, writes after 30
 *    write errors (the counters are on `stats`).
 *  - A write refused with QuotaExceededError clears the caches and is tried once more.
 *  - Every 30 s (once `startQuotaChecks()` is called) the origin's usage is compared with the
 *    quota; over it, entries with an ordinal below 100 are purged.
 *
 * ORDINAL. Each entry is stored as `{ v, o, t }`: the value, its ordinal and when it was written.
 * The ordinal is a RETENTION PRIORITY chosen by the writer: below 100 (PURGE_BELOW_ORDINAL) the
 * entry is expendable — it can be fetched again from the network (catalogue pages, search
 * results, URL mappings: default ORDINAL_EXPENDABLE = 0); 100 and above it survives the quota
 * purge (ORDINAL_KEEP = 100: sync-task results the shopper may need offline). Only a
 * QuotaExceededError on write, or `clear()`, removes kept entries: everything here is a cache,
 * never the only copy of something (the sync queue and offline orders have their own stores).
 * (VSF1 purged the first 100 entries of its iteration; a priority says what may go instead of
 * leaving it to key order.)
 */
import type { Clock } from '../state/notifications.ts';
import { keyvalBackend, type KeyValueBackend } from './idb-store.ts';

export const CACHE_READ_TIMEOUT_MS = 800;
export const CACHE_WRITE_TIMEOUT_MS = 800;
export const CACHE_ITERATE_TIMEOUT_MS = 2000;
export const CACHE_QUOTA_CHECK_MS = 30_000;
/** Reads stop after this many read errors, writes after this many write errors. */
export const CACHE_MAX_READ_ERRORS = 1;
export const CACHE_MAX_WRITE_ERRORS = 30;
/** Entries whose ordinal is below this are purged when the origin is over quota. */
export const PURGE_BELOW_ORDINAL = 100;
export const ORDINAL_EXPENDABLE = 0;
export const ORDINAL_KEEP = 100;
/**
 * "The elastic cache quota is configured; its value is not shown" (spec §9). Ours: the origin is
 * over quota when its usage passes 100 MB or 90% of what the browser grants, whichever is lower.
 */
export const DEFAULT_CACHE_QUOTA_BYTES = 100 * 1024 * 1024;
export const BROWSER_QUOTA_SHARE = 0.9;

/** The stored shape of an entry. */
export interface CacheEntry<T = unknown> {
  v: T;
  /** Ordinal: retention priority, see the file comment. */
  o: number;
  /** When it was written (ms since epoch). */
  t: number;
}

export interface StorageEstimateLike {
  usage?: number;
  quota?: number;
}

export interface CacheTimers extends Clock {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface CacheStats {
  readErrors: number;
  writeErrors: number;
  readTimeouts: number;
  writeTimeouts: number;
  readsEnabled: boolean;
  writesEnabled: boolean;
}

export interface PersistentCacheOptions {
  /** Where entries live; default IndexedDB database `verdant-cache-{name}`. */
  backend?: KeyValueBackend;
  /** Used to name the default backend's database. */
  name?: string;
  timers?: CacheTimers;
  /** `navigator.storage.estimate` when available; null disables the quota check. */
  estimate?: (() => Promise<StorageEstimateLike>) | null;
  /** Usage above which the origin counts as over quota (see DEFAULT_CACHE_QUOTA_BYTES). */
  quotaBytes?: number;
  /** What "clears the caches" on QuotaExceededError means; default: this cache's own entries. */
  clearOnQuotaExceeded?: () => Promise<void>;
  logger?: Pick<Console, 'warn'>;
}

export interface SetOptions {
  /** Retention priority (default ORDINAL_EXPENDABLE). */
  ordinal?: number;
}

export interface PersistentCache {
  /** The value, or null on a miss, a timeout, an error, or when reads are off. */
  get<T = unknown>(key: string): Promise<T | null>;
  /** True when the entry was written; false on timeout, error, or when writes are off. */
  set(key: string, value: unknown, options?: SetOptions): Promise<boolean>;
  del(key: string): Promise<boolean>;
  /** Every entry (with its ordinal); empty on timeout or error, or when reads are off. */
  entries<T = unknown>(): Promise<[string, CacheEntry<T>][]>;
  /** Remove every entry, kept ones included. */
  clear(): Promise<boolean>;
  /** One quota check; resolves with how many entries were purged (0 when not over quota). */
  checkQuota(): Promise<number>;
  /** Check the quota every 30 s until the returned function is called. */
  startQuotaChecks(): () => void;
  readonly stats: Readonly<CacheStats>;
}

const realTimers: CacheTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

/** The browser's storage estimate, or null where there is none (SSR, old browsers). */
export function browserEstimate(): (() => Promise<StorageEstimateLike>) | null {
  const storage = typeof navigator !== 'undefined' ? (navigator as Navigator & { storage?: StorageManager }).storage : undefined;
  if (!storage?.estimate) return null;
  return () => storage.estimate();
}

export function isQuotaExceeded(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { name?: unknown; code?: unknown };
  return e.name === 'QuotaExceededError' || e.name === 'NS_ERROR_DOM_QUOTA_REACHED' || e.code === 22 || e.code === 1014;
}

export function isOverQuota(estimate: StorageEstimateLike, quotaBytes: number): boolean {
  if (typeof estimate.usage !== 'number') return false;
  const browserLimit = typeof estimate.quota === 'number' && estimate.quota > 0 ? estimate.quota * BROWSER_QUOTA_SHARE : Infinity;
  return estimate.usage > Math.min(quotaBytes, browserLimit);
}

function isEntry(value: unknown): value is CacheEntry {
  return !!value && typeof value === 'object' && 'v' in value && typeof (value as CacheEntry).o === 'number';
}

const TIMED_OUT = Symbol('timed out');

export function createPersistentCache(options: PersistentCacheOptions = {}): PersistentCache {
  const backend = options.backend ?? keyvalBackend(`verdant-cache-${options.name ?? 'default'}`);
  const timers = options.timers ?? realTimers;
  const estimate = options.estimate === undefined ? browserEstimate() : options.estimate;
  const quotaBytes = options.quotaBytes ?? DEFAULT_CACHE_QUOTA_BYTES;
  const logger = options.logger ?? console;
  const stats: CacheStats = { readErrors: 0, writeErrors: 0, readTimeouts: 0, writeTimeouts: 0, readsEnabled: true, writesEnabled: true };

  /** The operation's outcome, or TIMED_OUT. A late rejection after the deadline is swallowed. */
  function withDeadline<T>(op: () => Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const handle = timers.setTimeout(() => {
        if (settled) return;
        settled = true;
        resolve(TIMED_OUT);
      }, ms);
      let promise: Promise<T>;
      try {
        promise = op();
      } catch (e) {
        promise = Promise.reject(e);
      }
      promise.then(
        (v) => {
          if (settled) return;
          settled = true;
          timers.clearTimeout(handle);
          resolve(v);
        },
        (e: unknown) => {
          if (settled) return;
          settled = true;
          timers.clearTimeout(handle);
          reject(e);
        },
      );
    });
  }

  function readFailed(error: unknown) {
    stats.readErrors++;
    if (stats.readErrors >= CACHE_MAX_READ_ERRORS && stats.readsEnabled) {
      stats.readsEnabled = false;
      logger.warn('Persistent cache: reads switched off after a read error', error);
    }
  }

  function writeFailed(error: unknown) {
    stats.writeErrors++;
    if (stats.writeErrors >= CACHE_MAX_WRITE_ERRORS && stats.writesEnabled) {
      stats.writesEnabled = false;
      logger.warn(`Persistent cache: writes switched off after ${CACHE_MAX_WRITE_ERRORS} write errors`, error);
    }
  }

  /** A write with deadline and error accounting; true when it completed. */
  async function write(op: () => Promise<void>, retryOnQuota: boolean): Promise<boolean> {
    if (!stats.writesEnabled) return false;
    try {
      const r = await withDeadline(op, CACHE_WRITE_TIMEOUT_MS);
      if (r === TIMED_OUT) {
        stats.writeTimeouts++;
        return false;
      }
      return true;
    } catch (e) {
      if (retryOnQuota && isQuotaExceeded(e)) {
        logger.warn('Persistent cache: storage quota exceeded; clearing the caches and trying again');
        try {
          await (options.clearOnQuotaExceeded ?? (() => backend.clear()))();
        } catch {
          /* the retry below tells whether room was made */
        }
        return write(op, false);
      }
      writeFailed(e);
      return false;
    }
  }

  async function entries<T>(): Promise<[string, CacheEntry<T>][]> {
    if (!stats.readsEnabled) return [];
    try {
      const r = await withDeadline(() => backend.entries(), CACHE_ITERATE_TIMEOUT_MS);
      if (r === TIMED_OUT) {
        stats.readTimeouts++;
        return [];
      }
      return r.filter((e): e is [string, CacheEntry<T>] => typeof e[0] === 'string' && isEntry(e[1]));
    } catch (e) {
      readFailed(e);
      return [];
    }
  }

  const cache: PersistentCache = {
    async get<T>(key: string): Promise<T | null> {
      if (!stats.readsEnabled) return null;
      try {
        const r = await withDeadline(() => backend.get(key), CACHE_READ_TIMEOUT_MS);
        if (r === TIMED_OUT) {
          stats.readTimeouts++;
          return null;
        }
        return isEntry(r) ? (r.v as T) : null;
      } catch (e) {
        readFailed(e);
        return null;
      }
    },
    set(key, value, { ordinal = ORDINAL_EXPENDABLE } = {}) {
      const entry: CacheEntry = { v: value, o: ordinal, t: timers.now() };
      return write(() => backend.set(key, entry), true);
    },
    del(key) {
      return write(() => backend.del(key), false);
    },
    entries,
    clear() {
      return write(() => backend.clear(), false);
    },
    async checkQuota() {
      if (!estimate) return 0;
      let usage: StorageEstimateLike;
      try {
        usage = await estimate();
      } catch {
        return 0;
      }
      if (!isOverQuota(usage, quotaBytes)) return 0;
      let purged = 0;
      for (const [key, entry] of await entries()) {
        if (entry.o < PURGE_BELOW_ORDINAL && (await cache.del(key))) purged++;
      }
      logger.warn(`Persistent cache: over quota (${usage.usage} bytes); ${purged} expendable entries purged`);
      return purged;
    },
    startQuotaChecks() {
      let running = false;
      const handle = timers.setInterval(() => {
        if (running) return;
        running = true;
        void cache.checkQuota().finally(() => (running = false));
      }, CACHE_QUOTA_CHECK_MS);
      return () => timers.clearInterval(handle);
    },
    stats,
  };
  return cache;
}
