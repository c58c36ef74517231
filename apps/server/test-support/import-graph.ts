/**
 * The repository's import graph, as TypeScript resolves it (the compiler options of
 * tsconfig.base.json, so `.ts` specifiers, package `exports` and workspace packages resolve as the
 * type check resolves them), for the tests that check the shape of the code (test-kits.test.ts).
 *
 * An edge is every `import`/`export … from`, `import()`, `import type` and `require()` of a file,
 * plus the worker and asset form Vite bundles: `new URL('./x.ts', import.meta.url)`. A specifier
 * that resolves inside node_modules is external (the package's name is kept), except our own
 * workspaces, which npm links there: those resolve to their real file in the repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/** The folders scanned, relative to the root. */
const SCANNED = ['apps', 'packages', 'e2e', 'bench', 'scripts'];
/** Never sources: dependencies, builds, generated types, measurement output, static assets. */
const SKIPPED_DIRS = new Set(['node_modules', 'build', 'dist', '.react-router', 'results', 'public', 'test-results', 'playwright-report']);
const SOURCE = /\.(ts|tsx|mts|mjs)$/;

export interface ImportEdge {
  specifier: string;
  /** Repo-relative path of the file it resolves to; null when external or unresolved. */
  target: string | null;
  /** The package name when the specifier resolves to a dependency (not one of our workspaces). */
  external: string | null;
}

export interface ImportGraph {
  /** Repo-relative paths, `/`-separated, sorted. */
  files: string[];
  imports: Map<string, ImportEdge[]>;
  /** Reverse edges: file → the files importing it. */
  importers: Map<string, Set<string>>;
}

function walk(dir: string, out: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) walk(path.join(dir, entry.name), out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(path.join(dir, entry.name));
    }
  }
}

const toRel = (root: string, file: string) => path.relative(root, file).split(path.sep).join('/');

/** The package a resolved node_modules path belongs to (`@scope/name` or `name`; `@types/x` is `x`). */
function packageOf(file: string): string {
  const after = file.slice(file.lastIndexOf('/node_modules/') + '/node_modules/'.length).split('/');
  const name = after[0]!.startsWith('@') ? `${after[0]}/${after[1]}` : after[0]!;
  if (!name.startsWith('@types/')) return name;
  const typed = name.slice('@types/'.length);
  return typed.includes('__') ? `@${typed.replace('__', '/')}` : typed;
}

/** `new URL('<relative source file>', import.meta.url)` in the code (comments and other strings aside). */
function sourceUrls(file: string, text: string): string[] {
  if (!text.includes('import.meta.url')) return [];
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'URL' &&
      node.arguments?.length === 2 &&
      ts.isStringLiteralLike(node.arguments[0]!) &&
      /^\.{1,2}\/.*\.(tsx?|mts|mjs)$/.test(node.arguments[0].text) &&
      node.arguments[1]!.getText() === 'import.meta.url'
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return found;
}

export function buildImportGraph(root = REPO_ROOT): ImportGraph {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.base.json'), ts.sys.readFile).config;
  const options = ts.parseJsonConfigFileContent(config, ts.sys, root).options;
  const cache = ts.createModuleResolutionCache(root, (f) => f, options);
  const absolute: string[] = [];
  for (const dir of SCANNED) if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir), absolute);
  const files = absolute.map((f) => toRel(root, f)).sort();
  const imports = new Map<string, ImportEdge[]>();
  const importers = new Map<string, Set<string>>();
  for (const file of absolute) {
    const text = fs.readFileSync(file, 'utf8');
    const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName);
    specifiers.push(...sourceUrls(file, text));
    const edges: ImportEdge[] = [];
    for (const specifier of specifiers) {
      const resolved = ts.resolveModuleName(specifier, file, options, ts.sys, cache).resolvedModule;
      let target: string | null = null;
      let external: string | null = null;
      if (resolved) {
        const real = fs.realpathSync(resolved.resolvedFileName);
        if (real.includes(`${path.sep}node_modules${path.sep}`) || !real.startsWith(root + path.sep)) external = packageOf(resolved.resolvedFileName);
        else target = toRel(root, real);
      } else if (!specifier.startsWith('.') && !specifier.startsWith('/')) {
        // A bare specifier TypeScript has no types for (e.g. a package with no declarations).
        external = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
      } else if (/\.(tsx?|mts|mjs)$/.test(specifier)) {
        // `new URL('./worker.ts', import.meta.url)` and other source files TypeScript leaves alone.
        const candidate = path.resolve(path.dirname(file), specifier);
        if (fs.existsSync(candidate)) target = toRel(root, candidate);
      }
      edges.push({ specifier, target, external });
      if (target) {
        const rel = toRel(root, file);
        if (!importers.has(target)) importers.set(target, new Set());
        importers.get(target)!.add(rel);
      }
    }
    imports.set(toRel(root, file), edges);
  }
  return { files, imports, importers };
}

/** Every file reachable from `entries` (repo-relative), the entries included. */
export function closureOf(graph: Pick<ImportGraph, 'imports'>, entries: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of graph.imports.get(file) ?? []) if (edge.target && !seen.has(edge.target)) todo.push(edge.target);
  }
  return seen;
}
