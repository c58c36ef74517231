/**
 * Every route the console calls is in its contract (issue 27): each served `METHOD /api/console/…`
 * route is named, as `METHOD /path` relative to /api/console (per-store routes with or without their
 * `/stores/:storeId` prefix), in a doc comment of packages/domain/src/console-api/*.ts, beside the
 * schema or shape it takes or answers. A route added without its contract fails here. The route
 * table does not depend on the database: read once, on SQLite.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../http/body-policy.ts';
import { createTestDatabase, type OwnedTestDatabase } from '../../test-support/databases.ts';
import { staffTestApp } from '../../test-support/staff/app-for-tests.ts';

const CONTRACT_DIR = new URL('../../../../packages/domain/src/console-api/', import.meta.url);
const normal = (p: string) => p.replace(/:[A-Za-z0-9_]+/g, ':').replace(/\/$/, '');

/** The `METHOD /path` names of the contract's comments, parameters as `:`, with and without the store prefix. */
export function contractRoutes(sources: string[]): Set<string> {
  const out = new Set<string>();
  for (const source of sources)
    for (const m of source.matchAll(/\b((?:GET|POST|PUT|PATCH|DELETE)(?:\/(?:GET|POST|PUT|PATCH|DELETE))*) (\/[A-Za-z0-9_:/.-]*[A-Za-z0-9_])/g)) {
      const p = normal(m[2].replace(/^\/api\/console/, ''));
      for (const method of m[1].split('/')) {
        out.add(`${method} ${p}`);
        out.add(`${method} ${p.replace(/^\/stores\/:(?=\/)/, '')}`);
      }
    }
  return out;
}

describe('reading the contract comments', () => {
  it('takes a route with or without the store prefix, method alternatives, and its punctuation', () => {
    const named = contractRoutes(['/** GET /orders/:orderId: one order. POST /stores/:storeId/menu/import. GET/PATCH /staff */']);
    expect([...named].sort()).toEqual(['GET /orders/:', 'GET /staff', 'PATCH /staff', 'POST /menu/import', 'POST /stores/:/menu/import']);
  });
});

describe('the console contract names every console route', () => {
  let t: OwnedTestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    ({ app } = await staffTestApp(t));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.cleanup();
  });

  it('each served /api/console route is in packages/domain/src/console-api', () => {
    const files = readdirSync(CONTRACT_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const named = contractRoutes(files.map((f) => readFileSync(new URL(f, CONTRACT_DIR), 'utf8')));
    const served = routesOf(app)
      .filter((r) => r.url.startsWith('/api/console/') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .map((r) => {
        const rel = normal(r.url.slice('/api/console'.length));
        return { route: `${r.method} ${rel}`, short: `${r.method} ${rel.replace(/^\/stores\/:(?=\/)/, '')}` };
      });
    expect(served.length).toBeGreaterThan(40);
    const missing = [...new Set(served.filter((r) => !named.has(r.route) && !named.has(r.short)).map((r) => r.route))].sort();
    expect(missing).toEqual([]);
  });
});
