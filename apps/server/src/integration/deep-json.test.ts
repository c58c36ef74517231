/**
 * Issue 26: a 3,000-level nested JSON body on any integration write overflowed the stack in the
 * idempotency key's canonical JSON (a 500). Every JSON body nested deeper than 64 levels is now a
 * 400 with a message before any handler runs (http/body-policy.ts), on every integration write
 * (taken from the app's route table, so a new write is covered too), on both databases, and
 * nothing is written; 64 levels still reach the route. The depth scan and the canonical JSON's
 * own guard are checked directly.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { registry } from '../../test-support/cart/testing.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { BODY_MESSAGES, jsonTooDeep, MAX_JSON_DEPTH, routesOf } from '../http/body-policy.ts';
import { ApiError } from '../http/envelope.ts';
import { canonicalJson } from '../orders/idempotency.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { createApiKey } from './keys.ts';
import { INTEGRATION_PREFIX } from './routes.ts';
import { menuSnapshot } from '../../test-support/integration/testing.ts';

/** `{"a":{"a":…{"a":1}…}}` with `levels` objects. */
const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;
const nestedArrays = (levels: number) => `{"rows":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;

describe('the depth scan', () => {
  it('counts objects and arrays, ignores brackets inside strings and escapes', () => {
    expect(jsonTooDeep(nested(64))).toBe(false);
    expect(jsonTooDeep(nested(65))).toBe(true);
    expect(jsonTooDeep(nestedArrays(64))).toBe(false);
    expect(jsonTooDeep(nestedArrays(65))).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ a: '['.repeat(500) + '{'.repeat(500) }))).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ a: '\\"' + '['.repeat(500) }))).toBe(false);
    expect(jsonTooDeep(nested(3000))).toBe(true);
    expect(jsonTooDeep(nested(200_000))).toBe(true);
  });

  it('canonical JSON refuses a value deeper than the limit with a 400, not a stack overflow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 3000; i++) deep = { a: deep };
    expect(() => canonicalJson(deep)).toThrow(ApiError);
    try {
      canonicalJson(deep);
    } catch (err) {
      expect((err as ApiError).statusCode).toBe(400);
    }
    let ok: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i++) ok = [ok];
    expect(canonicalJson(ok)).toBe(`${'['.repeat(MAX_JSON_DEPTH)}1${']'.repeat(MAX_JSON_DEPTH)}`);
  });
});

describeEachDatabase('deeply nested JSON on the integration writes', (getDb) => {
  let app: FastifyInstance;
  let key: string;
  let n = 0;

  beforeAll(async () => {
    const t = getDb();
    await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), { dataDir: t.dataDir, referenceDate: new Date('2026-06-15T12:00:00Z'), productsPerStore: 10 });
    app = await buildApp({
      config: { dataDir: t.dataDir, demoMode: false, production: true, logLevel: 'silent' },
      registry,
      db: t.db,
      logger: false,
      integrationRateLimit: { max: 0, windowSeconds: 60 },
    });
    key = (await createApiKey(t.db, 1, { name: 'Deep', scopes: ['menu:write', 'orders:read', 'orders:write'], createdBy: 'test' }, new Date())).key;
  });
  afterAll(() => app?.close());

  const writes = () =>
    routesOf(app)
      .filter((r) => r.url.startsWith(INTEGRATION_PREFIX) && !['GET', 'HEAD', 'OPTIONS'].includes(r.method))
      .map((r) => ({ method: r.method as 'POST' | 'DELETE', url: r.url.replace(/:[A-Za-z]+/g, '1') }));
  const send = (route: { method: 'POST' | 'DELETE'; url: string }, body: string) =>
    app.inject({
      method: route.method,
      url: route.url,
      headers: { host: 'downtown.localhost', authorization: `Bearer ${key}`, 'idempotency-key': `deep-${++n}`, 'content-type': 'application/json' },
      payload: body,
    });

  it('covers the writes', () => {
    const urls = writes().map((w) => `${w.method} ${w.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        `POST ${INTEGRATION_PREFIX}/menu/rows`,
        `POST ${INTEGRATION_PREFIX}/stock`,
        `POST ${INTEGRATION_PREFIX}/orders/1/actions`,
        `POST ${INTEGRATION_PREFIX}/webhooks`,
        `DELETE ${INTEGRATION_PREFIX}/webhooks/1`,
      ]),
    );
  });

  it('3,000 levels (objects or arrays) on every write: 400 with the message, nothing written', async () => {
    for (const route of writes()) {
      for (const body of [nested(3000), nestedArrays(3000)]) {
        const before = await menuSnapshot(getDb().db, 1);
        const res = await send(route, body);
        expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 400, result: BODY_MESSAGES.tooDeep, errorCode: 'body_too_deep' });
        expect(await menuSnapshot(getDb().db, 1)).toBe(before);
      }
    }
  });

  it('a parallel burst of 40 deep bodies: 40 answers of 400, none a 5xx', async () => {
    const [first] = writes();
    const answers = await Promise.all(Array.from({ length: 40 }, () => send(first, nested(3000))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(40).fill(400));
  });

  it('64 levels reach the route (judged on their shape, not refused for depth)', async () => {
    for (const route of writes()) {
      const res = await send(route, nested(MAX_JSON_DEPTH));
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBeLessThan(500);
      expect(res.body).not.toContain(BODY_MESSAGES.tooDeep);
    }
  });
});
