/**
 * The offline catalogue's engine (issue 15): downloads the store's compact snapshot
 * (`GET /api/catalog/snapshot?format=2`, @verdant/server/catalog/snapshot-format.ts), keeps it in
 * IndexedDB, and answers the storefront services (route loaders, instant search) from the server's
 * own catalogue code over it. It runs in a dedicated worker (./catalog-worker.ts), so parsing,
 * decoding and indexing 40,000 products never block the page; the page talks to it through
 * ./catalog-client.ts.
 *
 * One copy at a time:
 *  - in IndexedDB, the snapshot's JSON text gzip-compressed (CompressionStream; a few MB at 40,000
 *    products) under `verdant:{code}:catalog-snapshot-data`, and a small record about it (ETag, when
 *    checked, when made, the store) under `verdant:{code}:catalog-snapshot`: the page reads only
 *    that record, never the catalogue;
 *  - in memory, only the index built from the decoded documents (the text and the columns are
 *    dropped as soon as they are decoded).
 * Both records are KEPT entries of the store's persistent cache (ordinal 100, see
 * ./persistent-cache.ts), so the quota purge leaves them.
 *
 * When it is indexed: right after a download (the documents are in hand); otherwise (a copy already
 * on this device) on the first question asked offline, so an online shopper's phone does not decode
 * the menu on every page load.
 *
 * QUOTA (decided here, written down in bench/SCALE.md): before writing, `navigator.storage.estimate()`
 * is asked; when the usage after the write (minus the copy it replaces) would pass the persistent
 * cache's quota (100 MB, or 90% of what the browser grants, whichever is lower), nothing is written:
 * the fresh copy serves this page's life from memory, a copy already stored stays as it was, and
 * the outcome says `tooLarge` so the page tells the shopper, in plain words, once per session.
 * Online shopping never depends on any of this.
 *
 * A record left by an older storefront (format 1: the whole JSON snapshot as one object, 189 MB at
 * 40,000 products) is deleted on first read: it is what made the cache report itself over quota.
 */
import type { Store } from '@verdant/domain';
import type { StorefrontServices } from '../lib/context.ts';
import { offlineServices } from '@verdant/server/catalog/offline-services.ts';
import { decodeSnapshot, type CompactSnapshot } from '@verdant/server/catalog/snapshot-format.ts';
import { keyvalBackend, type KeyValueBackend } from './idb-store.ts';
import { BROWSER_QUOTA_SHARE, DEFAULT_CACHE_QUOTA_BYTES, browserEstimate, type StorageEstimateLike } from './persistent-cache.ts';

/** A copy younger than this is not asked for again on page load (a 304 is cheap, but not free). */
export const SNAPSHOT_REFRESH_MS = 10 * 60 * 1000;
/** Retention priority in the persistent cache: kept through the quota purge (PURGE_BELOW_ORDINAL is 100). */
export const SNAPSHOT_ORDINAL = 100;
export const snapshotMetaKey = (storeCode: string) => `verdant:${storeCode}:catalog-snapshot`;
export const snapshotDataKey = (storeCode: string) => `verdant:${storeCode}:catalog-snapshot-data`;
/** The store's persistent cache database (./app-cache.ts names it so). */
export const cacheDatabase = (storeCode: string) => `verdant-cache-${storeCode}`;

export interface SnapshotMeta {
  format: 2;
  etag: string | null;
  /** When this browser last confirmed the copy with the server (ms). */
  checkedAt: number;
  /** When the server made it (ISO): the shopper is told how fresh the offline menu is. */
  generatedAt: string;
  store: Store;
  products: number;
  /** The snapshot's JSON text, in UTF-16 code units (≈ bytes: it is nearly all ASCII). */
  textLength: number;
  /** What the stored copy takes (compressed), in bytes. */
  storedBytes: number;
  encoding: 'gzip' | 'identity';
  /** False when the copy is only in this page's memory (it did not fit the quota). */
  stored: boolean;
}

export interface RefreshOutcome {
  /** The server was asked and answered (200 or 304). */
  asked: boolean;
  /** A new copy was downloaded (listeners should re-read). */
  changed: boolean;
  /** Set when a new copy did not fit the persistent cache's quota and was not written. */
  tooLarge?: QuotaDecision;
  meta: SnapshotMeta | null;
}

export interface QuotaDecision {
  fits: boolean;
  /** The origin's usage after the write (bytes). */
  usageAfter: number;
  /** The most the persistent cache may use (bytes). */
  limit: number;
}

/**
 * Whether `incoming` bytes fit, `replaced` bytes being freed by the same write. The limit is the
 * persistent cache's (./persistent-cache.ts isOverQuota): `quotaBytes`, or 90% of the browser's
 * quota, whichever is lower. No estimate (old browsers): it fits, and a QuotaExceededError on the
 * write is what says otherwise.
 */
export function quotaDecision(
  estimate: StorageEstimateLike | null,
  incoming: number,
  replaced: number,
  quotaBytes = DEFAULT_CACHE_QUOTA_BYTES,
): QuotaDecision {
  const browserLimit = typeof estimate?.quota === 'number' && estimate.quota > 0 ? estimate.quota * BROWSER_QUOTA_SHARE : Infinity;
  const limit = Math.min(quotaBytes, browserLimit);
  const usageAfter = Math.max(0, (estimate?.usage ?? 0) - replaced) + incoming;
  return { fits: usageAfter <= limit, usageAfter, limit };
}

export interface EngineOptions {
  storeCode: string;
  fetch?: typeof fetch;
  backend?: KeyValueBackend;
  estimate?: (() => Promise<StorageEstimateLike>) | null;
  quotaBytes?: number;
  clock?: () => Date;
}

export interface CatalogEngine {
  /** Ask the server for a fresh copy when this one is older than SNAPSHOT_REFRESH_MS (or `force`). Never throws. */
  refresh(snapshotUrl: string, options?: { force?: boolean; now?: number }): Promise<RefreshOutcome>;
  /** The record about the copy this browser holds (or this page holds in memory), or null. */
  meta(): Promise<SnapshotMeta | null>;
  /** A storefront service answered from the snapshot (indexed on first need). Throws without a snapshot. */
  call(method: keyof StorefrontServices, args: unknown[]): Promise<unknown>;
}

interface Entry<T> {
  v: T;
  o: number;
  t: number;
}

async function pack(text: string): Promise<{ body: ArrayBuffer | string; encoding: SnapshotMeta['encoding']; bytes: number }> {
  if (typeof CompressionStream === 'undefined') return { body: text, encoding: 'identity', bytes: text.length * 2 };
  const body = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
  return { body, encoding: 'gzip', bytes: body.byteLength };
}

async function unpack(body: ArrayBuffer | string, encoding: SnapshotMeta['encoding']): Promise<string> {
  if (encoding === 'identity') return body as string;
  return new Response(new Blob([body as ArrayBuffer]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
}

export function createCatalogEngine(options: EngineOptions): CatalogEngine {
  const { storeCode } = options;
  const backend = options.backend ?? keyvalBackend(cacheDatabase(storeCode));
  const estimate = options.estimate === undefined ? browserEstimate() : options.estimate;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let meta: SnapshotMeta | null | undefined;
  let services: StorefrontServices | null = null;
  let indexing: Promise<StorefrontServices> | null = null;

  const put = (key: string, value: unknown) => backend.set(key, { v: value, o: SNAPSHOT_ORDINAL, t: Date.now() } satisfies Entry<unknown>);

  async function readMeta(): Promise<SnapshotMeta | null> {
    if (meta !== undefined) return meta;
    let entry: Entry<SnapshotMeta> | undefined;
    try {
      entry = (await backend.get(snapshotMetaKey(storeCode))) as Entry<SnapshotMeta> | undefined;
    } catch {
      entry = undefined;
    }
    if (entry?.v?.format === 2) return (meta = entry.v);
    meta = null;
    // An older storefront's copy (format 1, the whole snapshot in one record): dropped, it is what overflowed the quota.
    if (entry) await backend.del(snapshotMetaKey(storeCode)).catch(() => undefined);
    return null;
  }

  const index = (snapshot: ReturnType<typeof decodeSnapshot>) => offlineServices(snapshot, options.clock);

  async function servicesNow(): Promise<StorefrontServices> {
    if (services) return services;
    indexing ??= (async () => {
      const m = await readMeta();
      if (!m) throw new Error('No offline catalogue on this device');
      const entry = (await backend.get(snapshotDataKey(storeCode))) as Entry<ArrayBuffer | string> | undefined;
      if (!entry) throw new Error('No offline catalogue on this device');
      const snapshot = decodeSnapshot(JSON.parse(await unpack(entry.v, m.encoding)) as CompactSnapshot, { release: true });
      return (services = index(snapshot));
    })().finally(() => (indexing = null));
    return indexing;
  }

  return {
    meta: readMeta,
    async call(method, args) {
      const s = await servicesNow();
      return (s[method] as (...a: unknown[]) => Promise<unknown>)(...args);
    },
    async refresh(snapshotUrl, { force = false, now = Date.now() } = {}) {
      const current = await readMeta();
      if (!force && current && now - current.checkedAt < SNAPSHOT_REFRESH_MS) return { asked: false, changed: false, meta: current };
      try {
        const res = await doFetch(snapshotUrl, {
          headers: current?.etag ? { 'if-none-match': current.etag, accept: 'application/json' } : { accept: 'application/json' },
          credentials: 'same-origin',
        });
        if (res.status === 304 && current) {
          meta = { ...current, checkedAt: now };
          if (current.stored) await put(snapshotMetaKey(storeCode), meta).catch(() => undefined);
          return { asked: true, changed: false, meta };
        }
        if (!res.ok) return { asked: false, changed: false, meta: current };
        // One form at a time: the text is compressed for storage and parsed, then dropped; the
        // columns are decoded, then dropped (at 40,000 products the text alone is ~45 MB).
        let text: string | null = await res.text();
        const textLength = text.length;
        const packed = await pack(text);
        let compact: CompactSnapshot | null = JSON.parse(text) as CompactSnapshot;
        text = null;
        // Each column is dropped as soon as its values are in the documents (never both whole).
        const snapshot = decodeSnapshot(compact, { release: true });
        compact = null;
        if (snapshot.store.storeCode !== storeCode) return { asked: false, changed: false, meta: current };
        let usage: StorageEstimateLike | null = null;
        try {
          usage = estimate ? await estimate() : null;
        } catch {
          usage = null;
        }
        const decision = quotaDecision(usage, packed.bytes, current?.stored ? current.storedBytes : 0, options.quotaBytes);
        const next: SnapshotMeta = {
          format: 2,
          etag: res.headers.get('etag'),
          checkedAt: now,
          generatedAt: snapshot.generatedAt,
          store: snapshot.store,
          products: snapshot.content.products.length,
          textLength,
          storedBytes: packed.bytes,
          encoding: packed.encoding,
          stored: false,
        };
        if (decision.fits) {
          try {
            // Data first: a record never points at a copy that is not there.
            await put(snapshotDataKey(storeCode), packed.body);
            next.stored = true;
            await put(snapshotMetaKey(storeCode), next);
          } catch {
            next.stored = false;
          }
        }
        services = index(snapshot);
        meta = next;
        return { asked: true, changed: true, meta: next, ...(decision.fits ? {} : { tooLarge: decision }) };
      } catch {
        return { asked: false, changed: false, meta: current };
      }
    },
  };
}
