/**
 * Test kits live apart from the product (issue 27): the product's source folders hold only what the
 * product runs, so neither the server (run from source with tsx) nor the storefront and console
 * builds (Vite bundles what their entries import) can pick a test kit up.
 *
 * The rule, over the import graph TypeScript resolves (test-support/import-graph.ts):
 *  - Product source: the files under `apps/<app>/src`, `apps/web/app`, `apps/web/sw` and
 *    `packages/<package>/src`, except test files.
 *  - Test side: test files (`*.test.ts`, `*.test.tsx`), everything under `e2e/` and `bench/`, and the
 *    kits' homes, the `test-support/` folder of each workspace (beside its `src/`).
 *  - Entry points: the files the product runs by path rather than by import — a `.ts`/`.tsx`/`.mjs`
 *    path in a package.json script (main.ts, the CLIs), React Router's files (`app/root.tsx`,
 *    `app/routes.ts`, `app/entry.*.tsx` and the route modules routes.ts names), the service worker
 *    the PWA plugin builds (vite.config.ts `srcDir`/`filename`), and the console's index.html script.
 *  - A product file is a TEST KIT when (a) it imports a test tool (TEST_TOOLS), or (b) it is not an
 *    entry point, something imports it, and every file importing it is on the test side or is itself
 *    a test kit (so a kit used only by another kit counts too).
 * Checked: no product file is a test kit; no product file imports a test-side file (so the closure
 * of every entry point is product only); every relative import resolves (else an edge, and a kit
 * behind it, could hide); no test file sits in test-support/ (Vitest would never run it). The rule
 * itself is checked on a small made-up graph first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildImportGraph, closureOf, REPO_ROOT, type ImportEdge, type ImportGraph } from '../test-support/import-graph.ts';

/** Packages only tests and benchmarks use: a product file importing one is a test kit. */
const TEST_TOOLS = [
  /^vitest$/,
  /^@vitest\//,
  /^@playwright\/test$/,
  /^playwright(-core)?$/,
  /^@axe-core\/playwright$/,
  /^fast-check$/,
  /^fake-indexeddb$/,
  /^@seriousme\/openapi-schema-validator$/,
  /^autocannon$/,
  /^tinybench$/,
  /^lighthouse$/,
];

const PRODUCT_ROOT = /^(apps\/[^/]+\/src|apps\/web\/app|apps\/web\/sw|packages\/[^/]+\/src)\//;
const TEST_FILE = /\.test\.tsx?$/;

const isProduct = (file: string) => PRODUCT_ROOT.test(file) && !TEST_FILE.test(file);
const isTestSide = (file: string) => TEST_FILE.test(file) || /^(e2e|bench)\//.test(file) || /(^|\/)test-support\//.test(file);

interface Rule {
  isProduct(file: string): boolean;
  isTestSide(file: string): boolean;
  entries: Set<string>;
}

/** file → why it is a test kit. */
function testKits(graph: Pick<ImportGraph, 'files' | 'imports' | 'importers'>, rule: Rule): Map<string, string> {
  const kits = new Map<string, string>();
  const product = graph.files.filter(rule.isProduct);
  for (const file of product) {
    const tools = (graph.imports.get(file) ?? []).filter((e) => e.external && TEST_TOOLS.some((t) => t.test(e.external!)));
    if (tools.length) kits.set(file, `imports ${tools.map((e) => e.external).join(', ')}`);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const file of product) {
      if (kits.has(file) || rule.entries.has(file)) continue;
      const by = [...(graph.importers.get(file) ?? [])];
      if (by.length && by.every((f) => rule.isTestSide(f) || kits.has(f))) {
        const shown = by.sort().slice(0, 3).join(', ');
        kits.set(file, `imported only by tests and kits: ${shown}${by.length > 3 ? ` and ${by.length - 3} more` : ''}`);
        changed = true;
      }
    }
  }
  return kits;
}

function existing(file: string): string | null {
  return fs.existsSync(path.join(REPO_ROOT, file)) ? file : null;
}

/** The entry points of the rule above, read from the files that name them. */
function productEntries(): Set<string> {
  const entries = new Set<string>();
  const add = (file: string | null) => file && entries.add(path.posix.normalize(file));
  const rootPackage = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
  for (const dir of ['.', ...rootPackage.workspaces]) {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const script of Object.values(pkg.scripts ?? {})) {
      for (const m of script.matchAll(/[\w@./-]+\.(?:tsx?|mts|mjs)\b/g)) add(existing(path.posix.join(dir, m[0])));
    }
  }
  for (const file of ['root.tsx', 'routes.ts', 'entry.client.tsx', 'entry.server.tsx']) add(existing(`apps/web/app/${file}`));
  const routes = fs.readFileSync(path.join(REPO_ROOT, 'apps/web/app/routes.ts'), 'utf8');
  for (const m of routes.matchAll(/'((?:routes|layouts)\/[\w./-]+\.tsx?)'/g)) add(existing(`apps/web/app/${m[1]}`));
  const vite = fs.readFileSync(path.join(REPO_ROOT, 'apps/web/vite.config.ts'), 'utf8');
  const sw = /srcDir:\s*'([^']+)'[\s\S]*?filename:\s*'([^']+)'/.exec(vite);
  if (sw) add(existing(`apps/web/${sw[1]}/${sw[2]}`));
  const html = fs.readFileSync(path.join(REPO_ROOT, 'apps/console/index.html'), 'utf8');
  for (const m of html.matchAll(/<script[^>]*\ssrc="\/([^"]+)"/g)) add(existing(`apps/console/${m[1]}`));
  return entries;
}

function madeUpGraph(edges: Record<string, Array<string | { external: string }>>): ImportGraph {
  const files = [...new Set([...Object.keys(edges), ...Object.values(edges).flat().filter((e): e is string => typeof e === 'string')])].sort();
  const imports = new Map<string, ImportEdge[]>();
  const importers = new Map<string, Set<string>>();
  for (const file of files) {
    imports.set(
      file,
      (edges[file] ?? []).map((e) =>
        typeof e === 'string' ? { specifier: e, target: e, external: null } : { specifier: e.external, target: null, external: e.external },
      ),
    );
    for (const e of edges[file] ?? []) {
      if (typeof e !== 'string') continue;
      if (!importers.has(e)) importers.set(e, new Set());
      importers.get(e)!.add(file);
    }
  }
  return { files, imports, importers };
}

describe('the test-kit rule', () => {
  it('finds kits by what they import and by who imports them, and leaves product files alone', () => {
    const graph = madeUpGraph({
      'apps/server/src/main.ts': ['apps/server/src/cart/routes.ts', 'apps/server/src/db/index.ts', 'packages/domain/src/index.ts'],
      'apps/server/src/cli/seed.ts': ['apps/server/src/cart/routes.ts'],
      'apps/server/src/cart/routes.ts': [{ external: 'fastify' }],
      'apps/server/src/cart/cart.test.ts': [
        'apps/server/src/cart/testing.ts',
        'apps/server/src/cart/routes.ts',
        'apps/server/src/cli/seed.ts',
        'apps/server/test-support/databases.ts',
      ],
      'apps/server/src/cart/testing.ts': ['apps/server/src/staff/testing.ts', 'apps/server/src/cart/routes.ts'],
      'apps/server/src/staff/testing.ts': [],
      'apps/server/src/db/fake.ts': [{ external: 'vitest' }],
      'apps/server/src/db/index.ts': ['apps/server/src/db/fake.ts'],
      'apps/server/test-support/databases.ts': ['apps/server/src/db/index.ts', { external: 'vitest' }],
      'bench/run.ts': ['packages/search/src/generator.ts'],
      'packages/search/src/generator.ts': [{ external: 'fast-check' }],
      'packages/domain/src/index.ts': [],
      'apps/web/app/state/doubles.ts': [],
      'apps/web/app/state/cart.test.ts': ['apps/web/app/state/doubles.ts'],
      'apps/web/app/routes.ts': [],
      'apps/web/app/routes.test.ts': ['apps/web/app/routes.ts'],
      'apps/server/src/unused.ts': [],
    });
    const kits = testKits(graph, { isProduct, isTestSide, entries: new Set(['apps/server/src/main.ts', 'apps/server/src/cli/seed.ts', 'apps/web/app/routes.ts']) });
    expect([...kits.keys()].sort()).toEqual([
      'apps/server/src/cart/testing.ts', // only a test imports it
      'apps/server/src/db/fake.ts', // imports vitest, though a product file imports it
      'apps/server/src/staff/testing.ts', // only a kit imports it
      'apps/web/app/state/doubles.ts',
      'packages/search/src/generator.ts', // imports fast-check (and only bench/ uses it)
    ]);
    expect(kits.get('apps/server/src/staff/testing.ts')).toBe('imported only by tests and kits: apps/server/src/cart/testing.ts');
    expect(kits.get('apps/server/src/db/fake.ts')).toBe('imports vitest');
    // test-support files are the kits' home, not product; an entry a test imports (seed.ts,
    // routes.ts) and a file nothing imports yet stay product.
    expect(isProduct('apps/server/test-support/databases.ts')).toBe(false);
    expect(isTestSide('apps/server/test-support/databases.ts')).toBe(true);
    expect(isProduct('apps/server/src/cart/cart.test.ts')).toBe(false);
    expect(isProduct('apps/web/app/routes/home.tsx')).toBe(true);
    expect(isProduct('e2e/fixtures/cart.ts')).toBe(false);
  });
});

describe('the repository', () => {
  let graph: ImportGraph;
  let entries: Set<string>;
  // Resolving ~1,000 files' imports takes 5–10 s alone, more on a busy machine.
  beforeAll(() => {
    graph = buildImportGraph();
    entries = productEntries();
  }, 180_000);

  it('knows the entry points the product runs by path', () => {
    for (const file of [
      'apps/server/src/main.ts',
      'apps/server/src/cli/seed.ts',
      'apps/server/src/cli/migrate.ts',
      'apps/server/src/cli/staff.ts',
      'apps/server/src/menu-import/cli.ts',
      'apps/server/src/integration/cli.ts',
      'apps/web/app/routes.ts',
      'apps/web/app/root.tsx',
      'apps/web/app/routes/home.tsx',
      'apps/web/app/layouts/default.tsx',
      'apps/web/sw/sw.ts',
      'apps/console/src/main.tsx',
    ]) {
      expect(entries, file).toContain(file);
    }
    // and sees the edges a plain import scan misses: a package import of another workspace, a worker
    expect(graph.importers.get('apps/server/src/catalog/offline-services.ts')).toContain('apps/web/app/offline/catalog-engine.ts');
    expect(graph.importers.get('apps/web/app/offline/catalog-worker.ts')).toContain('apps/web/app/offline/catalog-client.ts');
  });

  it('resolves every relative import (but stylesheets, assets and React Router generated types)', () => {
    const unresolved = [...graph.imports]
      .flatMap(([file, edges]) => edges.filter((e) => !e.target && !e.external).map((e) => `${file}: ${e.specifier}`))
      .filter((line) => !/: \S+(\.css|\.svg)(\?\S*)?$|: \.\/\+types\//.test(line));
    expect(unresolved).toEqual([]);
  });

  it('has no test kit under a product source folder', () => {
    const kits = testKits(graph, { isProduct, isTestSide, entries });
    expect([...kits].map(([file, why]) => `${file} (${why})`), "move it to its workspace's test-support/ folder").toEqual([]);
  });

  it('keeps tests out of test-support/ (Vitest only runs the tests beside the code)', () => {
    expect(graph.files.filter((file) => /(^|\/)test-support\//.test(file) && TEST_FILE.test(file))).toEqual([]);
    expect(graph.files.filter((file) => /(^|\/)test-support\//.test(file)).length).toBeGreaterThan(10);
  });

  it('has no product file importing a test, a kit, e2e/ or bench/, so no entry point reaches one', () => {
    const wrong = graph.files
      .filter(isProduct)
      .flatMap((file) => graph.imports.get(file)!.filter((e) => e.target && !isProduct(e.target)).map((e) => `${file} → ${e.target}`));
    expect(wrong).toEqual([]);
    const production = closureOf(graph, [...entries].filter(isProduct));
    expect([...production].filter((file) => !isProduct(file))).toEqual([]);
    expect(production.size).toBeGreaterThan(300);
  });
});
