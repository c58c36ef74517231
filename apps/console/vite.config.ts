import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Writes dist/modules.json: every source module the bundle holds (repository-relative). The
 * bundle-separation test (apps/server/src/console/bundles.test.ts) reads it to prove no storefront
 * module ended up in the console. Not served (only index.html and assets/ are).
 */
function moduleList(): Plugin {
  return {
    name: 'verdant-console-module-list',
    apply: 'build',
    generateBundle(_options, bundle) {
      const modules = new Set<string>();
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        for (const id of Object.keys(item.modules))
          if (!id.startsWith('\0')) modules.add(path.relative(REPO_ROOT, id.replace(/\?.*$/, '')).split(path.sep).join('/'));
      }
      this.emitFile({ type: 'asset', fileName: 'modules.json', source: JSON.stringify([...modules].sort(), null, 1) });
    },
  };
}

/** packages/domain is pure: let the bundle drop what the console does not use (its zod schemas among them). */
const pureWorkspaceModule = (id: string) => /[\\/]packages[\\/]domain[\\/]src[\\/]/.test(id);

/**
 * The staff console: a single-page app served by the server under /console (apps/server/src/console),
 * built apart from the storefront so no shopper ever downloads staff code.
 */
export default defineConfig({
  base: '/console/',
  plugins: [tailwindcss(), moduleList()],
  // No @vitejs/plugin-react: Vite's own transform compiles TSX with the automatic runtime.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      treeshake: { moduleSideEffects: (id: string) => !pureWorkspaceModule(id) },
    },
  },
});
