/**
 * The API table of docs/integrators/api.md (the README's until issue 27) and the served routes agree (issue 26: it documented
 * `DELETE /api/console/stores/:id/api-keys/:id` where the route is `POST …/api-keys/:id/revoke`).
 * Every `METHOD /path` the table names under /api is a route the app serves (paths in a row that
 * names a base, e.g. "per store under `/api/console/stores/:storeId`:", are read under it), and every
 * served console and integration route is named in the table. The OpenAPI document's own agreement
 * with the routes is document.test.ts.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../http/body-policy.ts';
import { staffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';

const API_TABLE = new URL('../../../../docs/integrators/api.md', import.meta.url);

/** `a{b,c}d` and `a[b]c` expanded; `x\|y` alternatives replace what follows the last `/` or `.`. */
function expandPath(path: string): string[] {
  const brace = /\{([^{}]*,[^{}]*)\}/.exec(path);
  if (brace) return brace[1].split(',').flatMap((alt) => expandPath(path.replace(brace[0], alt)));
  const optional = /\[([^[\]]*)\]/.exec(path);
  if (optional) return [...expandPath(path.replace(optional[0], optional[1])), ...expandPath(path.replace(optional[0], ''))];
  if (path.includes('\\|')) {
    const [first, ...rest] = path.split('\\|');
    const cut = Math.max(first.lastIndexOf('/'), first.lastIndexOf('.')) + 1;
    return [first, ...rest.map((alt) => first.slice(0, cut) + alt)];
  }
  return [path];
}

/** Every `METHOD /path` of the API table, as "METHOD /path/:" (parameters as `:`). */
export function readmeEndpoints(markdown: string): string[] {
  const start = markdown.indexOf('| area | endpoints |');
  if (start < 0) throw new Error('docs/integrators/api.md has no API table');
  const table = markdown.slice(start, markdown.indexOf('\n\n', start)).split('\n').slice(2);
  const out: string[] = [];
  for (const row of table) {
    let base = '';
    for (const [, span] of row.matchAll(/`([^`]+)`/g)) {
      const m = /^([A-Z]+(?:\/[A-Z]+)*) (\S+)/.exec(span);
      if (!m) {
        if (/^\/api\/\S+$/.test(span)) base = span.replace(/\/$/, '');
        continue;
      }
      const raw = m[2].split('?')[0];
      if (raw.includes('…') || raw.includes('<')) continue;
      const path = raw.startsWith('/api/') || !base ? raw : `${base}${raw}`;
      if (!path.startsWith('/api/')) continue;
      for (const method of m[1].split('/')) for (const p of expandPath(path)) out.push(`${method} ${normal(p)}`);
    }
  }
  return out;
}

const normal = (path: string) => path.replace(/:[A-Za-z0-9_]+/g, ':');

describe('reading the API table', () => {
  it('expands alternatives and bases', () => {
    const md = [
      '| area | endpoints |',
      '|---|---|',
      '| x | `GET/POST /api/a/:id`, `POST /api/b[/confirm]`, `POST /api/c/{d,e}`, `GET /api/f/pull\\|totals`, `GET /api/g.csv\\|json?x=` |',
      '| y | per store under `/api/s/:storeId`: `GET /orders?cursor=`, `DELETE /k/:id` |',
      '',
    ].join('\n');
    expect(readmeEndpoints(md)).toEqual([
      'GET /api/a/:',
      'POST /api/a/:',
      'POST /api/b/confirm',
      'POST /api/b',
      'POST /api/c/d',
      'POST /api/c/e',
      'GET /api/f/pull',
      'GET /api/f/totals',
      'GET /api/g.csv',
      'GET /api/g.json',
      'GET /api/s/:/orders',
      'DELETE /api/s/:/k/:',
    ]);
  });
});

describeEachDatabase('docs API table and served routes agree', (getDb) => {
  let app: FastifyInstance;
  let served: Set<string>;
  const documented = readmeEndpoints(readFileSync(API_TABLE, 'utf8'));

  beforeAll(async () => {
    ({ app } = await staffTestApp(getDb()));
    await app.ready();
    served = new Set(routesOf(app).map((r) => `${r.method} ${normal(r.url)}`));
  });
  afterAll(() => app?.close());

  it('every endpoint the API table names is served', () => {
    expect(documented.length).toBeGreaterThan(60);
    expect(documented.filter((e) => !served.has(e))).toEqual([]);
  });

  it('the API keys are revoked by POST …/api-keys/:id/revoke, and there is no DELETE', () => {
    expect(served.has('POST /api/console/stores/:/api-keys/:/revoke')).toBe(true);
    expect(served.has('DELETE /api/console/stores/:/api-keys/:')).toBe(false);
    expect(documented).toContain('POST /api/console/stores/:/api-keys/:/revoke');
  });

  it('the OpenAPI document names the served revoke route, no DELETE', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/openapi.json', headers: { host: 'downtown.localhost' } });
    expect(res.statusCode).toBe(200);
    const text = res.body;
    const named = [...text.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/api\/console\/[^`]+)`/g)].map((m) => `${m[1]} ${normal(m[2].replace(/\{(\w+)\}/g, ':$1'))}`);
    expect(named).toContain('POST /api/console/stores/:/api-keys/:/revoke');
    expect(named.filter((n) => !served.has(n))).toEqual([]);
    expect(text).not.toMatch(/DELETE \/api\/console\/stores\/[^`]*api-keys/);
  });

  it('every served console and integration route is named in the API table', () => {
    const named = new Set(documented);
    const missing = [...served].filter(
      (r) => /^(GET|POST|PUT|PATCH|DELETE) \/api\/(console|integration)\//.test(r) && !named.has(r),
    );
    expect(missing).toEqual([]);
  });
});
