import type { Config } from '@react-router/dev/config';

/**
 * Server-rendered React Router app. The Fastify server (apps/server) mounts build/server/index.js
 * with `createRequestHandler` and passes an `AppContext` (app/lib/context.ts) as the load context,
 * so the loader context API stays `AppLoadContext`: no v8 middleware.
 */
export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
  // The whole route manifest ships with the first HTML page, so client navigations never ask the
  // server for route discovery (/__manifest): this keeps navigation working offline (PWA, spec §1).
  routeDiscovery: { mode: 'initial' },
  future: {
    // Loaders and actions get the server's Request itself instead of a copy per route with React
    // Router's `.data`, `index` and `_routes` taken out (two `new Request` per loader per page:
    // ~1–2 % of an uncached render, issue 15). So a loader reads the address from its `url`
    // argument (the normalised URL, the same on a page and on a client navigation's `.data`
    // request), never from `request.url`.
    v8_passThroughRequests: true,
  },
} satisfies Config;
