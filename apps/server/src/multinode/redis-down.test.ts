/**
 * Redis is a dependency of a multi-node deployment (login-code counters, catalogue notices). When
 * it goes away under a running node, sending a login code (phone login or registration step 1)
 * answers 503 with a clear message within a second and sends nothing, while orders keep working;
 * once Redis is back, codes flow again.
 * The node reaches the real Redis through a TCP proxy the test cuts (the machine's Redis keeps
 * running for everyone else).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { LIMITER_UNAVAILABLE, RedisRateLimiter } from '../auth/rate-limit.ts';
import { ApiError } from '../http/envelope.ts';
import { NOW, registry, seed } from '../../test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { freePort, RedisProxy, within } from '../../test-support/multinode/harness.ts';

const PHONE = '(916) 555-0142';
const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';

describe('the Redis login-code limiter', () => {
  it('answers 503 within a second when nothing listens at REDIS_URL', async () => {
    const limiter = new RedisRateLimiter(`redis://127.0.0.1:${await freePort()}`, `verdant-test-${process.pid}:`);
    try {
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const error = await limiter.hit('ip:127.0.0.1', 5, 60_000).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApiError);
        expect(error).toMatchObject({ statusCode: 503, message: LIMITER_UNAVAILABLE });
        expect(performance.now() - started).toBeLessThan(1000);
      }
    } finally {
      await limiter.close();
    }
  });
});

describeEachDatabase('Redis stops under a running node', (getDb) => {
  let app: FastifyInstance;
  let proxy: RedisProxy;
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers: { host: 'downtown.localhost' }, payload });
  const codesSent = async () => (await getDb().db.selectFrom('auth_codes').select('id').execute()).length;
  const outboxHas = (digits: string) => [digits, `+1${digits}`].some((k) => app.accounts!.sms.lastCode!(k) !== undefined);

  beforeAll(async () => {
    await seed(getDb());
    proxy = await RedisProxy.start();
    app = await buildApp({
      config: {
        dataDir: getDb().dataDir,
        demoMode: true,
        production: true,
        logLevel: 'silent',
        redisUrl: proxy.url,
        // Counters of its own: other runs on this Redis must not use up this test's sends.
        redisPrefix: `verdant-test-${process.pid}-${Math.random().toString(36).slice(2)}:`,
      },
      registry,
      db: getDb().db,
      logger: false,
      clock: () => NOW,
    });
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.cut();
  });

  it('a login code answers 503 within a second and sends nothing; orders still save; codes flow again when Redis is back', async () => {
    expect((await post('/api/user/login', { phone: '(916) 555-0141' })).statusCode).toBe(200);
    const before = await codesSent();

    await proxy.cut();
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const res = await post('/api/user/login', { phone: PHONE });
      expect(performance.now() - started).toBeLessThan(1000);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 503, result: LIMITER_UNAVAILABLE });
    }
    expect(await codesSent()).toBe(before);
    expect(outboxHas('9165550142')).toBe(false);

    const order = await post('/api/order/save', {
      idempotency_key: crypto.randomUUID(),
      products: [{ sku: JAR, qty: 1 }],
      order_type: 'pickup',
      personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: PHONE },
      // Age on every order (issue 14): a guest gives a date of birth.
      birthday: '1990-01-01',
      payment_method: 'cashondelivery',
    });
    expect(order.statusCode, order.body).toBe(200);

    await proxy.restore();
    await within('login codes flow again', 5000, async () => (await post('/api/user/login', { phone: PHONE })).statusCode === 200);
    expect(outboxHas('9165550142')).toBe(true);
  });

  it('registration step 1 answers 503 within a second and sends nothing; it sends codes again when Redis is back', async () => {
    const form = (phone: string, email: string) => ({
      firstname: 'Ana',
      lastname: 'Reyes',
      email,
      phone,
      birthday: '1990-01-01',
      license_type: 'recreational',
    });
    expect((await post('/api/user/create', form('(916) 555-0143', 'ana.up@example.com'))).statusCode).toBe(200);
    const before = await codesSent();

    await proxy.cut();
    try {
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const res = await post('/api/user/create', form('(916) 555-0144', `ana.down${i}@example.com`));
        expect(performance.now() - started).toBeLessThan(1000);
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ code: 503, result: LIMITER_UNAVAILABLE });
      }
      expect(await codesSent()).toBe(before);
      expect(outboxHas('9165550144')).toBe(false);
      expect(await getDb().db.selectFrom('customers').select('id').where('phone', '=', '+19165550144').execute()).toEqual([]);
    } finally {
      await proxy.restore();
    }
    await within(
      'registration codes flow again',
      5000,
      async () => (await post('/api/user/create', form('(916) 555-0144', 'ana.back@example.com'))).statusCode === 200,
    );
    expect(outboxHas('9165550144')).toBe(true);
  });
});
