/// <reference lib="webworker" />
/**
 * The storefront's service worker (issue 6; built by vite-plugin-pwa `injectManifest` into
 * build/client/sw.js and served with `no-cache` by apps/server/src/ssr/mount.ts).
 *
 * One service worker per origin, so per store host; stores addressed by path prefix share it (the
 * caches are keyed by URL, so their pages never mix).
 *  - The app shell (hashed JS/CSS and static files of the client build) is precached, and so is
 *    the store's home, as `/` and as `/pwa.html` (spec §2), fetched when the worker installs:
 *    offline, the home opens even if the shopper never visited it.
 *  - Pages: network first (4 s), the last copy offline. A page never visited has no copy: the
 *    shopper gets the spec's offline message and is sent home (spec §8).
 *  - Route data (`*.data`, React Router's client navigations) and catalogue/store answers: network
 *    first, the last copy offline.
 *  - Images: cache first, at most 400, 30 days.
 * Writes (POST/DELETE) are never cached or replayed here: offline orders go through the sync queue
 * (app/offline), which asks the shopper before sending.
 */
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

export const OFFLINE_REDIRECT_MESSAGE = 'The product, category or CMS page is not available in Offline mode. Redirecting to Home.';
export const CACHE_NAMES = { pages: 'verdant-pages', data: 'verdant-route-data', api: 'verdant-api', images: 'verdant-images', static: 'verdant-static' } as const;
const NETWORK_TIMEOUT_S = 4;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/**
 * The host store's home, under both its names (React Router hydrates a page only at the URL it
 * was rendered for): cached when the worker installs, refreshed whenever visited.
 */
const SHELL = ['/', '/pwa.html'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE_NAMES.pages);
      for (const path of SHELL) {
        try {
          const res = await fetch(path, { credentials: 'same-origin' });
          if (res.status === 200) await cache.put(path, res);
        } catch {
          /* offline at install: the page is cached on its next visit instead */
        }
      }
      await self.skipWaiting();
    })(),
  );
});
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/**
 * The store console (`/console`, `/api/console/…`) shares the host but is not the storefront: the
 * worker leaves its requests to the network untouched, so no console page and no staff-only upload
 * (ID and medical card images) ever lands in a storefront cache.
 */
const STAFF_PATH = /^\/(?:console(?:\/|$)|api\/console\/)/;
const storefront = (url: URL) => !STAFF_PATH.test(url.pathname);

const okOnly = { cacheWillUpdate: async ({ response }: { response: Response }) => (response.status === 200 ? response : null) };

registerRoute(
  ({ url, request }) => request.mode === 'navigate' && storefront(url),
  new NetworkFirst({
    cacheName: CACHE_NAMES.pages,
    networkTimeoutSeconds: NETWORK_TIMEOUT_S,
    plugins: [okOnly, new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 7 * 24 * 3600 })],
  }),
);

registerRoute(
  ({ url, request }) => request.method === 'GET' && url.pathname.endsWith('.data'),
  new NetworkFirst({ cacheName: CACHE_NAMES.data, networkTimeoutSeconds: NETWORK_TIMEOUT_S, plugins: [okOnly, new ExpirationPlugin({ maxEntries: 300 })] }),
);

// Not the catalogue snapshot (`api/catalog/snapshot`): the offline catalogue worker keeps it,
// compressed, in IndexedDB (issue 15); a second copy here only took quota (tens of MB per store).
const CACHEABLE_API = /^\/(?:[a-z][a-z0-9-]*\/)?api\/(?:catalog\/(?!snapshot)|storeview|products\/render-list|cms|url\/|stock\/list)/;
registerRoute(
  ({ url, request }) => request.method === 'GET' && CACHEABLE_API.test(url.pathname),
  new NetworkFirst({ cacheName: CACHE_NAMES.api, networkTimeoutSeconds: NETWORK_TIMEOUT_S, plugins: [okOnly, new ExpirationPlugin({ maxEntries: 300 })] }),
);

registerRoute(
  ({ url, request }) => storefront(url) && (request.destination === 'image' || /\/(?:media|img|pwa-icons)\//.test(url.pathname)),
  new CacheFirst({ cacheName: CACHE_NAMES.images, plugins: [okOnly, new ExpirationPlugin({ maxEntries: 400, maxAgeSeconds: 30 * 24 * 3600 })] }),
);

registerRoute(
  ({ url }) => /\/manifest\.webmanifest$/.test(url.pathname),
  new StaleWhileRevalidate({ cacheName: CACHE_NAMES.static }),
);

/** Home of the page's store: `/{code}/` when the path's first segment has a cached home, else `/`. */
async function homeFor(url: URL): Promise<string> {
  const first = url.pathname.split('/')[1];
  if (first && (await caches.match(`/${first}/`, { cacheName: CACHE_NAMES.pages }))) return `/${first}/`;
  return '/';
}

function offlinePage(home: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="3;url=${home}"><title>Offline</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;padding:1rem;color:#1c1917}
main{max-width:32rem}a{color:#166534;font-weight:600}</style></head>
<body><main><h1>You are offline</h1><p role="alert">${OFFLINE_REDIRECT_MESSAGE}</p><p><a href="${home}">Go to the home page now</a></p></main></body></html>`;
  return new Response(html, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}

// Nothing in the network or the caches: pages get the offline message, everything else fails.
setCatchHandler(async ({ request, url }) => {
  if (request.mode === 'navigate') return offlinePage(await homeFor(url));
  return Response.error();
});
