import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

/**
 * packages/domain is pure (spec rules, no I/O), but its zod schemas are built at module level, which
 * a bundler must otherwise keep. Declaring its modules free of side effects lets the browser bundle
 * drop whatever the pages do not use (the stores-file schema, and with it zod).
 */
const pureWorkspaceModule = (id: string) => /[\\/]packages[\\/]domain[\\/]src[\\/]/.test(id);

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  ssr: {
    // Workspace packages ship TypeScript source: bundle them into the server build.
    noExternal: [/^@verdant\//],
  },
  build: {
    rollupOptions: {
      treeshake: {
        moduleSideEffects: (id: string) => !pureWorkspaceModule(id),
      },
    },
  },
});
