/*
 * The store console's service worker (issue 29 "The driver's phone"): the driver's pages open
 * through a dead zone once visited. Scope /console/ only: the storefront's own worker
 * (apps/web/sw/sw.ts) leaves /console and /api/console to the network, and this one never sees a
 * shopper's page. Registered by the driver's pages (apps/console/src/routes/driver.tsx), so it
 * lives on drivers' phones; on any console page it controls it changes nothing while online.
 *
 * - Console pages (navigations): the network first; offline, the app's shell (index.html, the same
 *   for every console path) as last fetched.
 * - /console/assets/*: hashed, immutable files: the cache first, kept when fetched.
 * - The few GET answers a driver's page needs to open (the session, the member's stores, the
 *   driver's trips): the network first, the last answer when offline. Signing in or out empties
 *   them, so a shared phone never shows the last driver's trips to the next one.
 * Everything else (every write, every other API call) goes to the network untouched: the page's
 * own queue (src/lib/driver-queue.ts) keeps the driver's actions, not this worker.
 */
const VERSION = 'v1';
const SHELL_CACHE = `verdant-console-shell-${VERSION}`;
const ASSET_CACHE = `verdant-console-assets-${VERSION}`;
const DATA_CACHE = `verdant-console-data-${VERSION}`;
const OURS = [SHELL_CACHE, ASSET_CACHE, DATA_CACHE];
const SHELL_KEY = '/console/';
const DRIVER_DATA = /^\/api\/console\/(?:session|stores|stores\/\d+\/delivery\/my-trips)$/;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('verdant-console-') && !OURS.includes(name)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

async function networkFirst(request, cacheName, key) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key ?? request, response.clone());
    return response;
  } catch (err) {
    const kept = await cache.match(key ?? request);
    if (kept) return kept;
    throw err;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(ASSET_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/*
 * The page that registered the worker loaded its files before the worker ran: it sends their
 * addresses (the shell, its scripts and styles, the answers it read) so they are kept too, and the
 * very first visit opens offline. Only console files and the driver's answers are taken.
 */
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'keep' || !Array.isArray(data.urls)) return;
  event.waitUntil(
    Promise.all([
      // A page whose navigation began before this worker was active, and was committed after the
      // activate event's claim ran, is left uncontrolled (the registration says "activated", the page
      // has no controller): claimed here, since the page that sends "keep" is a client by now.
      self.clients.claim(),
      ...data.urls.map(async (href) => {
        const url = new URL(href, self.location.origin);
        if (url.origin !== self.location.origin) return;
        let cacheName;
        let key = url.pathname;
        if (url.pathname.startsWith('/console/assets/')) cacheName = ASSET_CACHE;
        else if (DRIVER_DATA.test(url.pathname) && !url.search) cacheName = DATA_CACHE;
        else if (url.pathname === SHELL_KEY) cacheName = SHELL_CACHE;
        else return;
        const cache = await caches.open(cacheName);
        if (cacheName === ASSET_CACHE && (await cache.match(key))) return;
        try {
          const response = await fetch(key, { credentials: 'same-origin' });
          if (response.ok) await cache.put(key, response);
        } catch {
          // Offline already: kept at the next visit.
        }
      }),
    ]),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === '/api/console/session' && request.method !== 'GET') {
    // Sign-in or sign-out: forget the last member's answers, then let the request through.
    event.respondWith(caches.delete(DATA_CACHE).then(() => fetch(request)));
    return;
  }
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate' && (url.pathname === '/console' || url.pathname.startsWith('/console/'))) {
    event.respondWith(networkFirst(request, SHELL_CACHE, SHELL_KEY));
    return;
  }
  if (url.pathname.startsWith('/console/assets/')) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (DRIVER_DATA.test(url.pathname) && !url.search) {
    event.respondWith(networkFirst(request, DATA_CACHE));
  }
});
