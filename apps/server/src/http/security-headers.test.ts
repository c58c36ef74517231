/**
 * Security headers on API answers, files and error answers; HSTS only behind a trusted TLS proxy;
 * no-store on personal answers. (Pages, their nonces and cached pages: e2e/tests/security-headers.spec.ts,
 * which runs the built storefront.)
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { REFERENCE_DATE, registry } from '../../test-support/cart/testing.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { createTestDatabase, type OwnedTestDatabase } from '../../test-support/databases.ts';

const HOST = 'downtown.localhost';

async function app(t: OwnedTestDatabase, trustProxy?: string): Promise<FastifyInstance> {
  return buildApp({
    config: { dataDir: t.dataDir, demoMode: true, production: true, logLevel: 'silent', redisUrl: undefined, authSecret: 'x'.repeat(40), smsProvider: 'outbox', smsHttpUrl: undefined, trustProxy },
    registry,
    db: t.db,
    logger: false,
  });
}

describe('security headers', () => {
  let t: OwnedTestDatabase;
  let direct: FastifyInstance;
  let proxied: FastifyInstance;
  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), { dataDir: t.dataDir, referenceDate: REFERENCE_DATE });
    direct = await app(t);
    proxied = await app(t, '127.0.0.1');
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
    await t?.cleanup();
  });

  it('sends a CSP without script nonce, frame-ancestors none and helmet’s headers on an API answer', async () => {
    const res = await direct.inject({ method: 'GET', url: '/api/catalog/categories', headers: { host: HOST } });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toMatch(/script-src 'self'\s*(;|$)/);
    expect(csp).not.toContain('nonce-');
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    // A catalogue answer is not personal: no no-store.
    expect(res.headers['cache-control']).not.toBe('no-store');
  });

  it('gives every page answer a nonce of its own: 128 random bits, never repeated (across the nonce pool’s refills too)', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const res = await direct.inject({ method: 'GET', url: `/no-such-page-${i}`, headers: { host: HOST } });
      const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
      expect(Buffer.from(nonce!, 'base64')).toHaveLength(16);
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(600);
  });

  it('marks personal answers (accounts, carts, orders, order tracking, newsletter, console) no-store, errors included', async () => {
    const cart = await direct.inject({ method: 'POST', url: '/api/cart/create', headers: { host: HOST }, payload: {} });
    expect(cart.statusCode).toBe(200);
    const answers = [
      cart,
      await direct.inject({ method: 'GET', url: `/api/cart/pull?cartId=${cart.json().result}`, headers: { host: HOST } }),
      await direct.inject({ method: 'POST', url: '/api/user/login-guest', headers: { host: HOST }, payload: { license_type: 'recreational' } }),
      await direct.inject({ method: 'GET', url: '/api/user/me', headers: { host: HOST } }),
      await direct.inject({ method: 'POST', url: '/api/order/save', headers: { host: HOST }, payload: {} }),
      await direct.inject({ method: 'GET', url: '/api/newsletter?email=a@example.com', headers: { host: HOST } }),
      // An order's status and timeline, found by number and phone (here: none found, still personal).
      await direct.inject({ method: 'POST', url: '/api/order-tracking', headers: { host: HOST }, payload: { number: 'DO-100001', phone: '9165550101' } }),
      await direct.inject({ method: 'GET', url: '/api/console/staff', headers: { host: HOST } }),
    ];
    expect(answers.map((a) => a.headers['cache-control'])).toEqual(Array(answers.length).fill('no-store'));
    expect(answers.map((a) => a.statusCode)).toContain(401);
  });

  it('sends HSTS only when a trusted proxy says the request came over TLS', async () => {
    const forwarded = { host: HOST, 'x-forwarded-proto': 'https' };
    const viaProxy = await proxied.inject({ method: 'GET', url: '/api/health', headers: forwarded, remoteAddress: '127.0.0.1' });
    expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    // The same header from a client no one trusts, or plain HTTP through the proxy: none.
    const untrusted = await direct.inject({ method: 'GET', url: '/api/health', headers: forwarded, remoteAddress: '127.0.0.1' });
    expect(untrusted.headers['strict-transport-security']).toBeUndefined();
    const plain = await proxied.inject({ method: 'GET', url: '/api/health', headers: { host: HOST, 'x-forwarded-proto': 'http' }, remoteAddress: '127.0.0.1' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const stranger = await proxied.inject({ method: 'GET', url: '/api/health', headers: forwarded, remoteAddress: '10.1.2.3' });
    expect(stranger.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends the headers with files, 404s and bad URLs too', async () => {
    for (const url of ['/manifest.webmanifest', '/api/nope', '/robots.txt', '/api/catalog/product/%ZZ']) {
      const res = await direct.inject({ method: 'GET', url, headers: { host: HOST } });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(String(res.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
    }
  });
});
