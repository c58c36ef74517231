import { createRequire } from 'node:module';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Writes dist/modules.json: every source module the bundle holds (repository-relative), and
 * dist/chunks.json: each JS chunk's file name, whether it is the entry, and its source modules.
 * The bundle tests (apps/server/src/console/bundles.test.ts) read them to prove no storefront
 * module ended up in the console and that the entry holds the order queue but no lazy page.
 * Not served (only index.html and assets/ are).
 */
function moduleList(): Plugin {
  const rel = (id: string) => path.relative(REPO_ROOT, id.replace(/\?.*$/, '')).split(path.sep).join('/');
  return {
    name: 'verdant-console-module-list',
    apply: 'build',
    generateBundle(_options, bundle) {
      const modules = new Set<string>();
      const chunks: Array<{ file: string; entry: boolean; modules: string[] }> = [];
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        const own = Object.keys(item.modules).filter((id) => !id.startsWith('\0')).map(rel);
        for (const m of own) modules.add(m);
        chunks.push({ file: item.fileName, entry: item.isEntry, modules: own.sort() });
      }
      this.emitFile({ type: 'asset', fileName: 'modules.json', source: JSON.stringify([...modules].sort(), null, 1) });
      chunks.sort((a, b) => a.file.localeCompare(b.file));
      this.emitFile({ type: 'asset', fileName: 'chunks.json', source: JSON.stringify(chunks, null, 1) });
    },
  };
}

/**
 * React Router's package exports name only its development build (dev warnings on; its own issue
 * remix-run/react-router#14102), whatever the mode: the console's production build takes the
 * production build beside it (same version and API, without the dev warnings).
 */
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

/** packages/domain is pure: let the bundle drop what the console does not use (its zod schemas among them). */
const pureWorkspaceModule = (id: string) => /[\\/]packages[\\/]domain[\\/]src[\\/]/.test(id);

/**
 * The staff console: a single-page app served by the server under /console (apps/server/src/console),
 * built apart from the storefront so no shopper ever downloads staff code.
 */
export default defineConfig(({ command }) => ({
  base: '/console/',
  resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] } : {},
  plugins: [tailwindcss(), moduleList()],
  // No @vitejs/plugin-react: Vite's own transform compiles TSX with the automatic runtime.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      treeshake: { moduleSideEffects: (id: string) => !pureWorkspaceModule(id) },
      onwarn(warning, warn) {
        // React Router's module starts with "use client" (for React Server Components): it means
        // nothing in a browser-only app, and the bundler says it drops it. Any other warning stays.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && /[\\/]node_modules[\\/]react-router[\\/]/.test(warning.id ?? '')) return;
        warn(warning);
      },
    },
  },
}));
