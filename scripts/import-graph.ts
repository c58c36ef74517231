/**
 * The import graph of every workspace, read with the TypeScript compiler's own pre-processor and
 * module resolution (no type check, no network): one edge per `import`, `import type`,
 * `export … from` and `import()` between the repository's TypeScript files, across workspaces too
 * (`@verdant/domain` resolves through the npm workspace link to packages/domain). A circle is a
 * strongly connected group of files: each reaches every other by imports.
 *
 * Used by scripts/import-graph.test.ts (part of `npm test`); `npm run circles` prints the circles.
 * `npx madge --circular --extensions ts,tsx --ts-config tsconfig.json <dir>` gives a second opinion
 * per folder (it reads the same edges, slower, and does not follow `@verdant/*` imports).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Every workspace, its tsconfig (for path resolution) and the folders its source lives in. */
export const WORKSPACES = [
  { name: 'packages/domain', tsconfig: 'tsconfig.json', dirs: ['packages/domain'] },
  { name: 'packages/search', tsconfig: 'tsconfig.json', dirs: ['packages/search'] },
  { name: 'apps/server', tsconfig: 'tsconfig.json', dirs: ['apps/server'] },
  { name: 'apps/web', tsconfig: 'apps/web/tsconfig.json', dirs: ['apps/web'] },
  { name: 'apps/console', tsconfig: 'apps/console/tsconfig.json', dirs: ['apps/console'] },
  { name: 'e2e', tsconfig: 'tsconfig.json', dirs: ['e2e'] },
  { name: 'bench', tsconfig: 'tsconfig.json', dirs: ['bench'] },
] as const;

/** Built, generated or installed folders: not source. */
const SKIPPED_DIRS = new Set(['node_modules', 'build', 'dist', '.react-router', 'public', 'results', 'test-results', 'playwright-report', 'coverage']);
const SOURCE = /\.(ts|tsx|mts|cts)$/;

export interface ImportGraph {
  /** Repository-relative file → the repository files it imports (sorted). */
  edges: Map<string, string[]>;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) sourceFiles(path.join(dir, entry.name), out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(path.join(dir, entry.name));
    }
  }
  return out;
}

function compilerOptions(tsconfig: string): ts.CompilerOptions {
  const file = path.join(ROOT, tsconfig);
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error) throw new Error(`${tsconfig}: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`);
  return ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(file)).options;
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

/** The import graph of every workspace (about a second for the whole repository). */
export function importGraph(): ImportGraph {
  const edges = new Map<string, string[]>();
  for (const workspace of WORKSPACES) {
    const options = compilerOptions(workspace.tsconfig);
    const cache = ts.createModuleResolutionCache(ROOT, (f) => f, options);
    for (const dir of workspace.dirs) {
      for (const file of sourceFiles(path.join(ROOT, dir))) {
        const text = fs.readFileSync(file, 'utf8');
        const found = new Set<string>();
        for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
          const specifier = fileName.replace(/\?.*$/, ''); // vite's `?url`, `?worker`, …
          const resolved = ts.resolveModuleName(specifier, file, options, ts.sys, cache).resolvedModule;
          // A workspace package counts as external to TypeScript (it is reached through node_modules):
          // its real path, in the repository, is what matters.
          if (!resolved || resolved.resolvedFileName.endsWith('.d.ts')) continue;
          const target = fs.realpathSync(resolved.resolvedFileName);
          if (target.includes(`${path.sep}node_modules${path.sep}`) || !target.startsWith(ROOT + path.sep)) continue;
          found.add(rel(target));
        }
        edges.set(rel(file), [...found].sort());
      }
    }
  }
  return { edges };
}

/**
 * Every circle: each group of files that import each other round (Tarjan's strongly connected
 * components; a file importing itself is a circle of one). Each circle's files sorted, circles sorted.
 */
export function circles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  // Iterative, so a long import chain cannot overflow the call stack.
  for (const start of graph.edges.keys()) {
    if (index.has(start)) continue;
    const work: { file: string; i: number }[] = [{ file: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const targets = graph.edges.get(top.file) ?? [];
      if (top.i < targets.length) {
        const target = targets[top.i++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, i: 0 });
        } else if (onStack.has(target)) {
          low.set(top.file, Math.min(low.get(top.file)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].file;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.file)!));
      }
      if (low.get(top.file) === index.get(top.file)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== top.file);
        if (group.length > 1 || targets.includes(top.file)) found.push(group.sort());
      }
    }
  }
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** One path round a circle (for the failure message): from its first file back to it. */
export function loopThrough(graph: ImportGraph, group: readonly string[]): string[] {
  const members = new Set(group);
  const start = group[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of graph.edges.get(file) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const loop = [start];
        for (let at = file; at !== start; at = previous.get(at)!) loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  return [...group];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  const graph = importGraph();
  const found = circles(graph);
  for (const group of found) console.log(loopThrough(graph, group).join('\n  > '), '\n');
  console.log(`${graph.edges.size} files, ${found.length} circle(s), ${Math.round(performance.now() - started)} ms`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
