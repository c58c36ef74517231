#!/usr/bin/env node
// Issue 32: production runs compiled JavaScript, not a TypeScript loader. esbuild bundles the server
// and our own packages (@verdant/*, TypeScript sources) into apps/server/dist/*.mjs; every npm package
// stays an import from node_modules (native modules such as better-sqlite3 and sharp cannot be bundled,
// and the lockfile already pins them). Source maps point stack traces at the .ts files.
//
// The bundles sit in apps/server/dist/, as deep as apps/server/src/: config.ts finds the repository
// root three directories up from itself, in either place. The tests build the same bundles into
// apps/server/dist-test/ once per run (scripts/vitest-build-server.ts) and start those, not tsx.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const SERVER_ENTRIES = {
  server: 'apps/server/src/main.ts',
  seed: 'apps/server/src/cli/seed.ts',
  migrate: 'apps/server/src/cli/migrate.ts',
  backup: 'apps/server/src/cli/backup.ts',
  restore: 'apps/server/src/cli/restore.ts',
  staff: 'apps/server/src/cli/staff.ts',
  analytics: 'apps/server/src/cli/analytics.ts',
  'proxy-config': 'apps/server/src/cli/proxy-config.ts',
  import: 'apps/server/src/menu-import/cli.ts',
  'api-key': 'apps/server/src/integration/cli.ts',
};

/** Bare imports of npm packages stay imports; ours (@verdant/*) and relative ones are bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@verdant/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Bundle every entry into `outdir` (a directory of apps/server/, so three levels under the root). */
export async function buildServer(outdir = path.join(ROOT, 'apps/server/dist')) {
  if (path.relative(ROOT, outdir).split(path.sep).length !== 3) throw new Error(`${outdir}: the bundles must sit three directories under the repository root`);
  await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(Object.entries(SERVER_ENTRIES).map(([name, file]) => [name, path.join(ROOT, file)])),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // One file per entry, no shared chunks: a chunk would sit a directory deeper, and config.ts finds
    // the repository root by its own depth.
    splitting: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    jsx: 'automatic',
    logLevel: 'warning',
    plugins: [externalPackages],
  });
  // A bundle's imports of npm packages are evaluated before any of its own code, so main.ts's first
  // line (env.ts: NODE_ENV before React picks its build) would come too late: main.mjs sets it, then
  // loads the server.
  fs.writeFileSync(
    path.join(outdir, 'main.mjs'),
    "// Written by scripts/build-server.mjs (see apps/server/src/env.ts).\nprocess.env.NODE_ENV ??= 'production';\nawait import('./server.mjs');\n",
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  await buildServer();
  console.log(`server compiled to apps/server/dist/ in ${Date.now() - started} ms`);
}
