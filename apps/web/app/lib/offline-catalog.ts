/**
 * The offline catalogue (issue 6, spec §1 "works offline"): the store's snapshot
 * (`GET /api/catalog/snapshot?format=2`) kept in IndexedDB and refreshed when online, and the route
 * loaders' context rebuilt from it when the network is gone, so category pages, filters, sorting,
 * search and product pages run with the server's own catalogue code
 * (@verdant/server/catalog/offline-services.ts over packages/search).
 *
 * Since issue 15 all of that happens in a dedicated worker (../offline/catalog-worker.ts, engine in
 * ../offline/catalog-engine.ts): it downloads the compact snapshot, stores it compressed, indexes it
 * and answers the services; this page holds none of the catalogue, only a proxy whose every call is
 * a message to the worker. The worker's code is loaded on demand (dynamic import here, its own
 * chunk), never with a page's initial JavaScript. When a fresh copy is too large for the persistent
 * cache's quota, the shopper is told once per session (TOO_LARGE_TO_KEEP) and it serves this page
 * only.
 *
 * How a page loads offline: React Router asks the server for the route data (`*.data`); the
 * service worker answers from its cache when the page was opened before. Otherwise the fetch fails,
 * and `offlineFallback` runs the route's own loader against the snapshot instead. With no snapshot
 * (or nothing in it for the page) the shopper is told so and sent home (spec §8).
 */
import { redirect } from 'react-router';
import type { CatalogConnection } from '../offline/catalog-protocol.ts';
import type { AppContext } from './context.ts';
import { notify } from '../state/notifications.ts';
import { withBasePath } from './paths.ts';
import { apiUrl } from '../api/envelope.ts';

export const OFFLINE_UNAVAILABLE = 'The product, category or CMS page is not available in Offline mode. Redirecting to Home.';
export const TOO_LARGE_TO_KEEP =
  "This store's menu is too large to keep on this device for offline use. It stays available offline only while this page is open; shopping online is not affected.";

const contexts = new Map<string, Omit<AppContext, 'basePath'>>();
const listeners = new Set<() => void>();

/** The worker's connection (null during SSR), loaded on first need. */
async function connection(): Promise<CatalogConnection | null> {
  if (typeof window === 'undefined') return null;
  try {
    const { catalogConnection } = await import('../offline/catalog-client.ts');
    return catalogConnection();
  } catch {
    return null;
  }
}

/** When the offline menu was made by the server (ISO), or null when this browser has none. */
export async function snapshotTime(storeCode: string): Promise<string | null> {
  try {
    return (await (await connection())?.meta(storeCode))?.generatedAt ?? null;
  } catch {
    return null;
  }
}

export function onSnapshotChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function tellTooLarge(storeCode: string): void {
  const flag = `verdant:${storeCode}:offline-too-large-told`;
  try {
    if (sessionStorage.getItem(flag)) return;
    sessionStorage.setItem(flag, '1');
  } catch {
    /* no sessionStorage: told each time a fresh copy does not fit (at most every 10 minutes) */
  }
  notify({ type: 'info', message: TOO_LARGE_TO_KEEP, action1: { label: 'OK' } });
}

/**
 * Ask the server for a fresh copy when this one is older than SNAPSHOT_REFRESH_MS
 * (../offline/catalog-engine.ts) or `force`; true when the server was asked and answered. Never
 * throws: offline, or the server refusing, leaves the copy there is.
 */
export async function refreshSnapshot(storeCode: string, { force = false, now = Date.now() } = {}): Promise<boolean> {
  try {
    const conn = await connection();
    if (!conn) return false;
    const snapshotUrl = new URL(apiUrl('/api/catalog/snapshot', { format: 2 }), window.location.href).href;
    const outcome = await conn.refresh(storeCode, snapshotUrl, { force, now });
    if (outcome.tooLarge) tellTooLarge(storeCode);
    if (outcome.changed) listeners.forEach((l) => l());
    return outcome.asked;
  } catch {
    return false;
  }
}

/** The loaders' context answered from the snapshot (by the worker), or null when this browser has none. */
export async function offlineContext(storeCode: string, basePath: string): Promise<AppContext | null> {
  let context = contexts.get(storeCode);
  if (!context) {
    const conn = await connection();
    const meta = await conn?.meta(storeCode).catch(() => null);
    if (!conn || !meta) return null;
    context = { store: meta.store, stores: [], demoMode: false, services: conn.services(storeCode) };
    contexts.set(storeCode, context);
  }
  return { ...context, basePath };
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
  args: { request: Request; url: URL; serverLoader: () => Promise<unknown> },
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
