/**
 * The per-IP write limit: in-process, on every write route of the personal areas (walked from the
 * app's route list, routes of plugin scopes such as the upload included), shared by two apps
 * (nodes) through real Redis, and open (not a 500) when Redis cannot be reached.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { REFERENCE_DATE, registry } from '../../test-support/cart/testing.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { createTestDatabase, type OwnedTestDatabase } from '../../test-support/databases.ts';
import { routesOf } from './body-policy.ts';
import { WRITE_LIMIT_MESSAGE, registerWriteLimits, writeLimitFromEnv, type WriteLimitConfig } from './write-limits.ts';

const REDIS_URL = process.env.REDIS_URL;
const HOST = 'downtown.localhost';
const LIMIT: WriteLimitConfig = { max: 5, windowSeconds: 60 };

describe('write rate limits', () => {
  let t: OwnedTestDatabase;
  const apps: FastifyInstance[] = [];
  const app = async (redisUrl?: string, redisPrefix?: string, writeLimit = LIMIT) => {
    const a = await buildApp({
      config: { dataDir: t.dataDir, demoMode: true, production: true, logLevel: 'silent', redisUrl, redisPrefix, authSecret: 'x'.repeat(40), smsProvider: 'outbox', smsHttpUrl: undefined },
      registry,
      db: t.db,
      logger: false,
      clock: () => REFERENCE_DATE,
      writeLimit,
    });
    apps.push(a);
    return a;
  };
  const write = (a: FastifyInstance, remoteAddress = '10.20.0.1') =>
    a.inject({ method: 'POST', url: '/api/cart/create', remoteAddress, headers: { host: HOST }, payload: {} });

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), { dataDir: t.dataDir, referenceDate: REFERENCE_DATE });
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await t?.cleanup();
  });

  it('answers the write after the limit 429 with Retry-After in the envelope; reads and other addresses go on', async () => {
    const a = await app();
    for (let i = 0; i < LIMIT.max; i++) expect((await write(a)).statusCode).toBe(200);
    const refused = await write(a);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ code: 429, result: WRITE_LIMIT_MESSAGE });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(LIMIT.windowSeconds);
    // One counter over every write route of the address: the newsletter and login count too.
    expect((await a.inject({ method: 'POST', url: '/api/newsletter', remoteAddress: '10.20.0.1', headers: { host: HOST }, payload: { email: 'a@example.com' } })).statusCode).toBe(429);
    expect((await a.inject({ method: 'POST', url: '/api/user/login', remoteAddress: '10.20.0.1', headers: { host: HOST }, payload: { phone: '9165550401' } })).statusCode).toBe(429);
    // Reads are not counted; another address has its own counter.
    expect((await a.inject({ method: 'GET', url: '/api/catalog/categories', remoteAddress: '10.20.0.1', headers: { host: HOST } })).statusCode).toBe(200);
    expect((await write(a, '10.20.0.2')).statusCode).toBe(200);
  });

  it('limits every write route of the personal areas, plugin scopes included: the second write from one address is a 429', async () => {
    const a = await app(undefined, undefined, { max: 1, windowSeconds: 60 });
    await a.ready();
    // From the app's own route list, by area (not by the limit's regex): cart, order, user, newsletter, reviews.
    const writes = routesOf(a).filter(
      (r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && /^\/api\/(cart|order|user|newsletter|reviews)(\/|$)/.test(r.url),
    );
    const names = writes.map((r) => `${r.method} ${r.url}`);
    for (const route of [
      'POST /api/cart/update',
      'POST /api/order/save',
      'POST /api/user/login',
      'POST /api/user/upload',
      'POST /api/newsletter',
      'DELETE /api/newsletter',
      'POST /api/reviews/products/:sku',
      'POST /api/reviews/:reviewId/helpful',
    ])
      expect(names).toContain(route);
    expect(writes.length).toBeGreaterThanOrEqual(20);
    const unlimited: string[] = [];
    for (const [i, route] of writes.entries()) {
      const remoteAddress = `10.50.${Math.floor(i / 250)}.${(i % 250) + 1}`;
      const url = route.url.replace(/:[A-Za-z_]+/g, '1');
      const send = () => a.inject({ method: route.method as 'POST', url, remoteAddress, headers: { host: HOST }, payload: {} });
      await send();
      const second = await send();
      if (second.statusCode !== 429 || Number(second.headers['retry-after']) <= 0)
        unlimited.push(`${route.method} ${route.url} → ${second.statusCode}`);
      else expect(second.json()).toEqual({ code: 429, result: WRITE_LIMIT_MESSAGE });
    }
    expect(unlimited).toEqual([]);
  });

  it.skipIf(!REDIS_URL && process.env.CI !== 'true')('shares the counter between two nodes through Redis', async () => {
    if (!REDIS_URL) throw new Error('CI requires REDIS_URL for the shared write limit test');
    const prefix = `verdant-test:${randomUUID()}:`;
    const [one, two] = [await app(REDIS_URL, prefix), await app(REDIS_URL, prefix)];
    await Promise.all([one.ready(), two.ready()]);
    // Until a node's client is connected, its writes pass uncounted (no offline queue, fail
    // open): probe from fresh addresses until a write is counted (remaining = max - 1).
    let probe = 0;
    for (const a of [one, two]) {
      for (;;) {
        const res = await write(a, `10.31.0.${++probe}`);
        if (Number(res.headers['x-ratelimit-remaining']) === LIMIT.max - 1) break;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const answers = [];
    for (let i = 0; i < LIMIT.max + 1; i++) answers.push((await write(i % 2 ? one : two, '10.30.0.1')).statusCode);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    const last = await write(one, '10.30.0.1');
    expect(last.json()).toEqual({ code: 429, result: WRITE_LIMIT_MESSAGE });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('lets writes through, fast, when Redis cannot be reached', async () => {
    // The limit alone (the whole app would also wait for its catalogue channel): port 1 on
    // loopback, where nothing listens, so every connection is refused at once.
    const bare = Fastify({ logger: false });
    apps.push(bare);
    await registerWriteLimits(bare, { limit: LIMIT, redisUrl: 'redis://127.0.0.1:1', redisPrefix: `verdant-test:${randomUUID()}:` });
    bare.post('/api/cart/create', async () => ({ code: 200, result: 'ok' }));
    const started = Date.now();
    for (let i = 0; i < LIMIT.max + 2; i++) expect((await write(bare, '10.40.0.1')).statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reads WRITE_RATE_LIMIT and WRITE_RATE_WINDOW, and refuses nonsense', () => {
    expect(writeLimitFromEnv({})).toEqual({ max: 600, windowSeconds: 60 });
    expect(writeLimitFromEnv({ WRITE_RATE_LIMIT: '0', WRITE_RATE_WINDOW: '10' })).toEqual({ max: 0, windowSeconds: 10 });
    expect(() => writeLimitFromEnv({ WRITE_RATE_LIMIT: 'lots' })).toThrow(/WRITE_RATE_LIMIT/);
    expect(() => writeLimitFromEnv({ WRITE_RATE_WINDOW: '0' })).toThrow(/WRITE_RATE_WINDOW/);
  });
});
