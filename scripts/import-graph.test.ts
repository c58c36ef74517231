/**
 * The shape of the imports (issue 27): no import circle in any workspace, and no area of the server
 * imports another area's route module. Reads the real source of the repository (scripts/import-graph.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { circles, importGraph, loopThrough, ROOT, WORKSPACES, type ImportGraph } from './import-graph.ts';

/**
 * Circles known when this check was added, in the storefront and the console, which other changes
 * of issue 27 break up. THIS LIST MUST SHRINK TO EMPTY: never add to it. A circle listed here that
 * no longer exists fails the test too, so the entry is removed with the change that breaks it.
 */
const KNOWN_CIRCLES: readonly (readonly string[])[] = [];

const key = (group: readonly string[]) => [...group].sort().join(' | ');

// Built once: every test below reads the same graph of the repository as it is (about 2 s of CPU
// for the ~930 files; 10 s measured on a busy 2-core machine, hence the generous limit).
let built: ImportGraph | null = null;
const graph = () => built!;
beforeAll(() => {
  built = importGraph();
}, 120_000);

describe('import graph', () => {
  it('reads every workspace, with type-only, re-export and cross-workspace imports as edges', () => {
    const { edges } = graph();
    for (const workspace of WORKSPACES) {
      expect([...edges.keys()].some((f) => f.startsWith(`${workspace.name}/`)), workspace.name).toBe(true);
    }
    // A workspace package import, resolved through the npm workspace link.
    expect(edges.get('apps/server/src/app.ts')).toContain('packages/domain/src/index.ts');
    // `import type { … }` only.
    expect(edges.get('packages/domain/src/age/schema.ts')).toContain('packages/domain/src/age/settings.ts');
    // `export … from`.
    expect(edges.get('packages/domain/src/index.ts')).toContain('packages/domain/src/catalog.ts');
    // A `.tsx` file of the storefront importing the domain package.
    expect([...edges].some(([from, to]) => from.startsWith('apps/web/app/') && from.endsWith('.tsx') && to.includes('packages/domain/src/index.ts'))).toBe(true);
  });

  it('finds circles of every length, self-imports included, and not chains', () => {
    const synthetic: ImportGraph = {
      edges: new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a', 'd']],
        ['d', ['e']],
        ['e', []],
        ['f', ['f']],
        ['g', ['h', 'e']],
        ['h', ['g']],
      ]),
    };
    expect(circles(synthetic)).toEqual([['a', 'b', 'c'], ['f'], ['g', 'h']]);
    expect(loopThrough(synthetic, ['a', 'b', 'c'])).toEqual(['a', 'b', 'c', 'a']);
  });

  it('has no import circle in any workspace except the known ones, which are all still there', () => {
    const g = graph();
    const found = circles(g);
    const known = new Set(KNOWN_CIRCLES.map(key));
    const fresh = found.filter((group) => !known.has(key(group))).map((group) => loopThrough(g, group).join(' > '));
    expect(fresh, 'new import circles: move what both sides need below both').toEqual([]);
    const gone = KNOWN_CIRCLES.map(key).filter((k) => !found.some((group) => key(group) === k));
    expect(gone, 'these circles are broken: remove them from KNOWN_CIRCLES').toEqual([]);
  });
});

/**
 * The server's areas are the folders of apps/server/src (cart, catalog, http, orders, …); the files
 * directly in apps/server/src (app.ts, commerce.ts, main.ts, …) wire the areas together and belong to
 * none. A route module is a file of an area that registers HTTP routes: it is named `routes.ts`,
 * `http.ts` or `*-routes.ts`, or it exports a `register…Route`/`register…Routes` function, or it calls
 * `<app>.get|head|post|put|patch|delete|options|all('/…', …)` or `<app>.route({ url, … })` on the
 * app (named app, scope, instance, fastify or server; a private probe instance, as in
 * http/security-headers.ts, registers no route of the app).
 * The rule: no file of one area (tests included) imports a route module of another area; what two
 * areas share lives outside route modules (request parsing and envelopes in http/).
 */
describe('server areas', () => {
  const SRC = 'apps/server/src/';
  const areaOf = (file: string): string | null => {
    const parts = file.slice(SRC.length).split('/');
    return file.startsWith(SRC) && parts.length > 1 ? parts[0] : null;
  };
  const APPS = new Set(['app', 'scope', 'instance', 'fastify', 'server']);
  const VERBS = new Set(['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'all']);

  const routeModules = new Map<string, boolean>();
  function registersRoutes(file: string): boolean {
    if (!routeModules.has(file)) routeModules.set(file, readRegistersRoutes(file));
    return routeModules.get(file)!;
  }

  function readRegistersRoutes(file: string): boolean {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    if (/export\s+(async\s+)?function\s+register\w*Routes?\b/.test(text)) return true;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    let found = false;
    const visit = (node: ts.Node): void => {
      if (found) return;
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression) && APPS.has(node.expression.expression.text)) {
        const method = node.expression.name.text;
        const [first] = node.arguments;
        if (VERBS.has(method) && first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first) || ts.isTemplateExpression(first))) {
          const head = ts.isTemplateExpression(first) ? first.head.text : first.text;
          if (head.startsWith('/')) found = true;
        }
        if (method === 'route' && first && ts.isObjectLiteralExpression(first) && first.properties.some((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'url'))
          found = true;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  }

  const isRouteModule = (file: string) =>
    areaOf(file) !== null && (/\/(routes|http)\.ts$/.test(file) || /-routes\.ts$/.test(file) || registersRoutes(file));

  it('recognises route modules by name, by a register…Routes export and by the routes they register', () => {
    expect(isRouteModule('apps/server/src/cart/routes.ts')).toBe(true);
    expect(isRouteModule('apps/server/src/users/login-routes.ts')).toBe(true);
    expect(isRouteModule('apps/server/src/prices/render-list.ts')).toBe(true); // registerRenderListRoute
    expect(isRouteModule('apps/server/src/orders/tracking-routes.ts')).toBe(true);
    expect(isRouteModule('apps/server/src/ssr/mount.ts')).toBe(true); // scope.route({ url: '/*', … })
    expect(isRouteModule('apps/server/src/console/serve.ts')).toBe(true); // app.get('/console', …)
    expect(isRouteModule('apps/server/src/http/parse.ts')).toBe(false);
    expect(isRouteModule('apps/server/src/http/security-headers.ts')).toBe(false); // probe.get('/') on its own instance
    expect(isRouteModule('apps/server/src/staff/guard.ts')).toBe(false); // a hook, and `app.get(` only in a comment
    expect(isRouteModule('apps/server/src/orders/tracking.ts')).toBe(false);
    expect(isRouteModule('apps/server/src/app.ts')).toBe(false); // the wiring: no area
  });

  it('no area imports another area’s route module', () => {
    const { edges } = graph();
    const crossings: string[] = [];
    for (const [from, targets] of edges) {
      const area = areaOf(from);
      if (area === null) continue;
      for (const to of targets) if (areaOf(to) !== null && areaOf(to) !== area && isRouteModule(to)) crossings.push(`${from} > ${to}`);
    }
    expect(crossings).toEqual([]);
  });

  it('parses requests in one place: only http/parse.ts defines parseOr400', () => {
    const { edges } = graph();
    const defining = [...edges.keys()].filter(
      (f) => f.startsWith(SRC) && /\bfunction\s+parseOr400\b|\bconst\s+parseOr400\b/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(defining).toEqual(['apps/server/src/http/parse.ts']);
  });
});
