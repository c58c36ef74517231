import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * packages/domain is pure (spec rules, no I/O), but its zod schemas are built at module level, which
 * a bundler must otherwise keep. Declaring its modules free of side effects lets the browser bundle
 * drop whatever the pages do not use (the stores-file schema, and with it zod).
 */
const pureWorkspaceModule = (id: string) => /[\\/]packages[\\/]domain[\\/]src[\\/]/.test(id);

/**
 * Browser chunks: React, React DOM and React Router in one `vendor` chunk, and the app code that
 * more than one route module uses in one `app` chunk, so a first page load asks for some 8 scripts
 * instead of 33 small ones (each a request on a slow phone link; together they compress better).
 * Code only one route uses stays in that route's own chunk.
 */
const VENDOR = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/;

/**
 * The service worker (sw/sw.ts, issue 6) is our own, built with Workbox's precache manifest of the
 * client build injected. No generated manifest: each store's web app manifest is made per request
 * by the server (apps/server/src/pwa). Registration is ours too (app/lib/service-worker.ts).
 */
const pwa = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'sw',
  filename: 'sw.ts',
  outDir: 'build/client',
  injectRegister: false,
  manifest: false,
  injectManifest: {
    globDirectory: 'build/client',
    globPatterns: ['assets/**/*.{js,css,woff2}', 'favicon.svg'],
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
  },
});

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), pwa],
  ssr: {
    // Workspace packages ship TypeScript source: bundle them into the server build.
    noExternal: [/^@verdant\//],
  },
  build: {
    rollupOptions: {
      treeshake: {
        moduleSideEffects: (id: string) => !pureWorkspaceModule(id),
      },
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor', test: VENDOR, priority: 2 },
            // Account panels and the offline-order code load on demand: kept out of the shared chunk every page loads.
            { name: 'app', test: (id: string) => !/node_modules|[\\/]components[\\/]account[\\/]|[\\/]app[\\/]offline[\\/]/.test(id), minShareCount: 2, priority: 1 },
          ],
        },
      },
    },
  },
});
