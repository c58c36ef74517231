/**
 * The integration API's limit per API key, on both databases, with the counters in Redis when
 * REDIS_URL is set (as in CI), in-process otherwise: one key over its limit hears 429 with
 * Retry-After, another key of the same store (and the same client address) is not limited; with
 * the counters unreachable the limit fails open.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../auth/rate-limit.ts';
import { buildApp } from '../app.ts';
import { registry } from '../../test-support/cart/testing.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { createApiKey } from './keys.ts';
import { keyLimit } from './routes.ts';
import { api } from '../../test-support/integration/testing.ts';

const LIMIT = 3;

describeEachDatabase('integration API rate limit per key', (getDb) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    const t = getDb();
    await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), {
      dataDir: t.dataDir,
      referenceDate: new Date('2026-06-15T12:00:00Z'),
      productsPerStore: 10,
    });
    app = await buildApp({
      // A prefix of its own: counters of other runs and suites on the same Redis never mix in.
      config: {
        dataDir: t.dataDir,
        demoMode: false,
        production: true,
        logLevel: 'silent',
        redisUrl: process.env.REDIS_URL,
        redisPrefix: `test-${randomBytes(4).toString('hex')}:`,
      },
      registry,
      db: t.db,
      logger: false,
      integrationRateLimit: { max: LIMIT, windowSeconds: 60 },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('limits one key (429, Retry-After) and not another', async () => {
    const t = getDb();
    const now = new Date();
    const a = api(app, (await createApiKey(t.db, 1, { name: 'A', scopes: ['orders:read'], createdBy: 'test' }, now)).key);
    const b = api(app, (await createApiKey(t.db, 1, { name: 'B', scopes: ['orders:read'], createdBy: 'test' }, now)).key);
    for (let i = 0; i < LIMIT; i++) expect((await a.get('/orders')).status).toBe(200);
    const limited = await a.get('/orders');
    expect(limited.status).toBe(429);
    expect(limited.body.errorCode).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Writes count too, and are refused before anything is done.
    expect((await a.post('/webhooks', { url: 'https://93.184.216.34/x', events: ['order.created'] }, 'rl-1')).status).toBe(429);
    expect(await t.db.selectFrom('webhook_endpoints').select('id').execute()).toHaveLength(0);
    for (let i = 0; i < LIMIT; i++) expect((await b.get('/orders')).status).toBe(200);
  });
});

describe('integration API rate limit, counters unreachable', () => {
  it('fails open (Redis down): every hit allowed, logged once per outage', async () => {
    // A real Redis client to a port where nothing listens: every count fails at once (no offline queue).
    const limiter = new RedisRateLimiter('redis://127.0.0.1:1', 'test-down:');
    const warnings: string[] = [];
    const log = { warn: (_obj: object, msg: string) => void warnings.push(msg) };
    try {
      const within = keyLimit(limiter, { max: 1, windowSeconds: 60 });
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await within('key:1', log));
      expect(answers).toEqual([true, true, true]);
      expect(warnings).toEqual(['integration rate limit: counters unreachable, not limiting']);
    } finally {
      await limiter.close();
    }
  });
});
