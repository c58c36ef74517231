import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Rolldown } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * packages/domain is pure (spec rules, no I/O), but its zod schemas are built at module level, which
 * a bundler must otherwise keep. Declaring its modules free of side effects lets the browser bundle
 * drop whatever the pages do not use (the stores-file schema, and with it zod).
 */
const pureWorkspaceModule = (id: string) => /[\\/]packages[\\/]domain[\\/]src[\\/]/.test(id);

/**
 * Browser chunks: React, React DOM and React Router in one `vendor` chunk, and the app code that
 * every page runs — the document (root.tsx), the layouts and everything they import statically:
 * header, footer, the cart and session stores — in one `app` chunk, so a first page load asks for
 * a handful of scripts instead of dozens of small ones (each a request on a slow phone link;
 * together they compress better). Everything else is split by who uses it: a route's own code
 * stays in its chunk, code that only some routes or only a lazily loaded panel (cart, search,
 * wishlist, licence, account, age gate) use goes in chunks of its own, so it never weighs on the
 * pages that do not need it (issue 6: initial JavaScript ≤ 150 KiB gzip).
 */
const VENDOR = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/;
const BARREL = /[\\/]packages[\\/][^\\/]+[\\/]src[\\/]index\.ts$/;
const SHELL_ROOT = /[\\/]app[\\/](root|entry\.client|layouts[\\/][^\\/]+)\.tsx(\?.*)?$/;

/** Is a module statically reachable from the document or a layout (so loaded on every page)? Cached per chunking pass. */
const shellCache = new WeakMap<Rolldown.ModuleInfo, boolean>();
function inShell(id: string, graph: { getModuleInfo(id: string): Rolldown.ModuleInfo | null }): boolean {
  const start = graph.getModuleInfo(id);
  if (!start) return false;
  const known = shellCache.get(start);
  if (known !== undefined) return known;
  const seen = new Set<string>([id]);
  const queue = [start];
  while (queue.length > 0) {
    const info = queue.shift()!;
    if (SHELL_ROOT.test(info.id) || shellCache.get(info) === true) {
      shellCache.set(start, true);
      return true;
    }
    for (const importer of info.importers) {
      if (seen.has(importer) || BARREL.test(importer)) continue;
      seen.add(importer);
      const next = graph.getModuleInfo(importer);
      if (next) queue.push(next);
    }
  }
  // No static path from a shell root to any module seen: none of them is in the shell.
  for (const seenId of seen) {
    const info = graph.getModuleInfo(seenId);
    if (info) shellCache.set(info, false);
  }
  return false;
}

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
            { name: (id, ctx) => (!id.includes('node_modules') && inShell(id, ctx) ? 'app' : null), priority: 1 },
          ],
        },
      },
    },
  },
});
