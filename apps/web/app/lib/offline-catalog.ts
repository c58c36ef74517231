/**
 * The offline catalogue (issue 6, spec §1 "works offline"): the store's snapshot
 * (`GET /api/catalog/snapshot`) kept in IndexedDB and refreshed when online, and the route loaders'
 * context rebuilt from it when the network is gone, so category pages, filters, sorting, search
 * and product pages run in the browser with the server's own catalogue code
 * (@verdant/server/catalog/offline-services.ts over packages/search).
 *
 * The copy lives in the store's persistent cache (../offline/app-cache.ts: read/write deadlines,
 * errors switch it off instead of breaking the page) as a KEPT entry (ordinal 100+): the quota
 * purge removes expendable entries, never the offline menu. The cache code is loaded on demand.
 *
 * How a page loads offline: React Router asks the server for the route data (`*.data`); the
 * service worker answers from its cache when the page was opened before. Otherwise the fetch fails,
 * and `offlineFallback` runs the route's own loader against the snapshot instead. With no snapshot
 * (or nothing in it for the page) the shopper is told so and sent home (spec §8).
 */
import { redirect } from 'react-router';
import type { CatalogSnapshot } from '@verdant/server/catalog/offline-services.ts';
import type { AppContext } from './context.ts';
import { notify } from '../state/notifications.ts';
import { withBasePath } from './paths.ts';
import { apiUrl } from '../api/envelope.ts';

export const OFFLINE_UNAVAILABLE = 'The product, category or CMS page is not available in Offline mode. Redirecting to Home.';
/** A copy younger than this is not asked for again on page load (a 304 is cheap, but not free). */
export const SNAPSHOT_REFRESH_MS = 10 * 60 * 1000;

interface StoredSnapshot {
  etag: string | null;
  /** When this browser last confirmed the copy with the server (ms). */
  checkedAt: number;
  snapshot: CatalogSnapshot;
}

const key = (storeCode: string) => `verdant:${storeCode}:catalog-snapshot`;
/** Retention priority in the persistent cache: kept through the quota purge (PURGE_BELOW_ORDINAL is 100). */
export const SNAPSHOT_ORDINAL = 100;
const memory = new Map<string, { stored: StoredSnapshot; context?: Omit<AppContext, 'basePath'> }>();
const listeners = new Set<() => void>();

/** The store's persistent cache (null during SSR or without IndexedDB), loaded on first need. */
async function cacheOf(storeCode: string) {
  try {
    const { appCacheFor } = await import('../offline/app-cache.ts');
    return appCacheFor(storeCode);
  } catch {
    return null;
  }
}

const usable = (stored: StoredSnapshot | null | undefined): stored is StoredSnapshot =>
  !!stored?.snapshot?.store && Array.isArray(stored.snapshot.content?.products);

async function read(storeCode: string): Promise<StoredSnapshot | null> {
  const cached = memory.get(storeCode);
  if (cached) return cached.stored;
  const cache = await cacheOf(storeCode);
  const stored = cache ? await cache.get<StoredSnapshot>(key(storeCode)) : null;
  if (!usable(stored)) return null;
  memory.set(storeCode, { stored });
  return stored;
}

/** When the offline menu was made by the server (ISO), or null when this browser has none. */
export async function snapshotTime(storeCode: string): Promise<string | null> {
  return (await read(storeCode))?.snapshot.generatedAt ?? null;
}

export function onSnapshotChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Fetch a fresh copy when this one is older than SNAPSHOT_REFRESH_MS (or `force`). Never throws:
 * offline, or the server refusing, leaves the copy there is.
 */
export async function refreshSnapshot(storeCode: string, { force = false, now = Date.now() } = {}): Promise<boolean> {
  const current = await read(storeCode);
  if (!force && current && now - current.checkedAt < SNAPSHOT_REFRESH_MS) return false;
  try {
    const res = await fetch(apiUrl('/api/catalog/snapshot'), {
      headers: current?.etag ? { 'if-none-match': current.etag, accept: 'application/json' } : { accept: 'application/json' },
      credentials: 'same-origin',
    });
    let stored: StoredSnapshot;
    if (res.status === 304 && current) stored = { ...current, checkedAt: now };
    else if (res.ok) stored = { etag: res.headers.get('etag'), checkedAt: now, snapshot: (await res.json()) as CatalogSnapshot };
    else return false;
    if (stored.snapshot.store.storeCode !== storeCode) return false;
    memory.set(storeCode, { stored });
    // A write that fails or misses its deadline leaves this page's copy in memory; the next page fetches again.
    await (await cacheOf(storeCode))?.set(key(storeCode), stored, { ordinal: SNAPSHOT_ORDINAL });
    if (stored.snapshot !== current?.snapshot) listeners.forEach((l) => l());
    return true;
  } catch {
    return false;
  }
}

/** The loaders' context answered from the snapshot, or null when this browser has none. */
export async function offlineContext(storeCode: string, basePath: string): Promise<AppContext | null> {
  const stored = await read(storeCode);
  if (!stored) return null;
  const entry = memory.get(storeCode)!;
  if (!entry.context) {
    // Loaded only when first needed offline (the service worker precaches the chunk), so online
    // pages never carry the catalogue engine.
    const { offlineServices } = await import('@verdant/server/catalog/offline-services.ts');
    entry.context = { store: stored.snapshot.store, stores: [], demoMode: false, services: offlineServices(stored.snapshot) };
  }
  return { ...entry.context, basePath };
}

/** A request the loaders can read cookies from (a Request built in the browser may not carry Cookie). */
function requestWithCookies(request: Request): Request {
  const headers = new Headers(request.headers);
  if (typeof document !== 'undefined' && document.cookie) headers.set('cookie', document.cookie);
  return { url: request.url, method: 'GET', headers, signal: request.signal } as Request;
}

/** No answer at all (offline; the service worker had no copy): not an error the server sent. */
export function isNoAnswer(error: unknown): boolean {
  return error instanceof TypeError || (typeof navigator !== 'undefined' && navigator.onLine === false && !(error instanceof Response));
}

/** The store of this page (one per document), set by the layout once it has the root data. */
let pageStore: { storeCode: string; basePath: string } | null = null;
const storeOfPage = () => pageStore;

export function rememberStoreOfPage(storeCode: string, basePath: string): void {
  pageStore = { storeCode, basePath };
}

/**
 * A route's clientLoader: the server's data while there is a network (or the service worker's
 * copy); else the same loader run on the snapshot; else the spec's message and home.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function offlineFallback<L extends (args: any) => unknown>(
  args: { request: Request; serverLoader: () => Promise<unknown> },
  load: L,
): Promise<Awaited<ReturnType<L>>> {
  try {
    return (await args.serverLoader()) as Awaited<ReturnType<L>>;
  } catch (error) {
    if (!isNoAnswer(error)) throw error;
    const page = storeOfPage();
    const context = page ? await offlineContext(page.storeCode, page.basePath) : null;
    if (!page || !context) throw offlineHome(page?.basePath ?? '');
    const { serverLoader: _serverLoader, ...rest } = args;
    try {
      return (await load({ ...rest, request: requestWithCookies(args.request), context })) as Awaited<ReturnType<L>>;
    } catch (loaderError) {
      // Not in the snapshot (a 404 the loader threw): the spec's message, then home.
      if (statusOf(loaderError) === 404) throw offlineHome(page.basePath);
      throw loaderError;
    }
  }
}

/** The status of what a loader threw: a Response, or React Router's `data(…, {status})`. */
function statusOf(thrown: unknown): number | null {
  if (thrown instanceof Response) return thrown.status;
  const init = (thrown as { init?: { status?: number } } | null)?.init;
  return typeof init?.status === 'number' ? init.status : null;
}

function offlineHome(basePath: string): Response {
  notify({ type: 'warning', message: OFFLINE_UNAVAILABLE, action1: { label: 'OK' } });
  return redirect(withBasePath(basePath, '/'));
}
