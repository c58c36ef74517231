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
} satisfies Config;
