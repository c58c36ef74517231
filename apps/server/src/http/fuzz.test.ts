/**
 * Every route, fed random requests: arbitrary JSON values, huge numbers, deep nesting, strings,
 * wrong types for the fields routes read, random content types, query strings and path
 * parameters, with no token, a junk token, a guest's and a customer's. No answer may be a 5xx,
 * and every API answer is the `{code, result}` envelope with code = status.
 * Deterministic (fixed seed per route), bounded (RUNS per route), on SQLite and PostgreSQL.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { commerceApp } from '../cart/testing.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { routesOf } from './body-policy.ts';

const RUNS = 100;
const HOST = 'downtown.localhost';

/** Field names the routes read, so random values also reach their validators with wrong types. */
const FIELDS = [
  'phone', 'code', 'email', 'password', 'newPassword', 'currentPassword', 'resetToken', 'pendingToken', 'refreshToken',
  'license_type', 'birthday', 'storeId', 'order_type', 'cartItem', 'sku', 'qty', 'quoteId', 'item_id', 'products',
  'idempotency_key', 'personal_details', 'payment_method', 'addressInformation', 'methods', 'coupon', 'entity', 'query',
  'url', 'firstname', 'lastname', 'addresses', 'medcard_number', 'medcard_expiry', 'kind', 'cartId', 'storeCode',
];

const hugeNumber = fc.constantFrom('9007199254740992', '1e309', '-1e309', '1' + '0'.repeat(400), '0.' + '0'.repeat(400) + '1', '-0', '0');
const deep = fc.integer({ min: 50, max: 20_000 }).chain((n) => fc.constantFrom('['.repeat(n) + ']'.repeat(n), '{"a":'.repeat(n) + '1' + '}'.repeat(n)));
const junkValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, [], {}, '', ' ', '0', -1, 1e300, '__proto__', '../../etc/passwd', '%ZZ', '\u0000'),
);
const shapedObject = fc.dictionary(fc.constantFrom(...FIELDS), junkValue, { maxKeys: 6 }).map((o) => JSON.stringify(o));
const body = fc.oneof(
  { weight: 3, arbitrary: shapedObject },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 1, arbitrary: hugeNumber },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('{"a":', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc\r\n--x--\r\n') },
);
const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  'application/octet-stream',
  'text/html',
  ';;;',
  'application/json; charset=latin1',
);
const paramValue = fc.oneof(
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom('1', '0', '-1', '9007199254740992', 'DO-100001', 'x'.repeat(300), '%ZZ', '%E0%A4%A', '..%2F..%2F', '%00'),
);
const query = fc
  .dictionary(fc.constantFrom(...FIELDS, 'text', 'category', 'sort', 'start', 'size', 'skus', 'token', 'url_path', 'child_sku', 'identifier', 'page', 'currencyCode', 'price', 'sizes', 'brand_id'), paramValue, { maxKeys: 4 })
  .map((q) => Object.entries(q).map(([k, v]) => `${k}=${v}`).join('&'));

describeEachDatabase('fuzz: every route answers random input without a 5xx', (getDb) => {
  let app: FastifyInstance;
  const tokens: (string | undefined)[] = [undefined, 'junk', 'a.b.c'];

  beforeAll(async () => {
    app = await commerceApp(getDb());
    await app.ready();
    const guest = await app.inject({ method: 'POST', url: '/api/user/login-guest', headers: { host: HOST }, payload: { license_type: 'recreational' } });
    tokens.push(guest.json().meta.token);
    const sent = await app.inject({ method: 'POST', url: '/api/user/login', headers: { host: HOST }, payload: { phone: '9165550177' } });
    const code = sent.json().meta.demo_code;
    const confirmed = (await app.inject({ method: 'POST', url: '/api/user/login', headers: { host: HOST }, payload: { phone: '9165550177', code } })).json();
    const done = await app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { host: HOST },
      payload: { phone: '9165550177', license_type: 'recreational', birthday: '1990-01-01', pendingToken: confirmed.meta?.pendingToken },
    });
    tokens.push(done.json().meta?.token ?? confirmed.meta?.token);
    expect(tokens.filter(Boolean)).toHaveLength(4);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('collected the routes of every area', () => {
    const urls = routesOf(app).map((r) => `${r.method} ${r.url}`);
    for (const route of ['POST /api/user/login', 'POST /api/user/upload', 'POST /api/cart/update', 'POST /api/order/save', 'GET /api/catalog/product/:sku', 'DELETE /api/newsletter']) {
      expect(urls).toContain(route);
    }
  });

  it('answers every route with a 4xx or better, in the envelope on the API', async () => {
    const routes = routesOf(app).filter((r) => r.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (const [i, route] of routes.entries()) {
      const request = fc.record({
        body,
        contentType,
        query,
        token: fc.constantFrom(...tokens),
        params: fc.array(paramValue, { minLength: 4, maxLength: 4 }),
        // Spread over many addresses, so the per-IP write limit leaves the handlers reachable.
        ip: fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`),
      });
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          let n = 0;
          const path = route.url.replace(/:[A-Za-z_]+|\*/g, () => r.params[n++ % 4]);
          const headers: Record<string, string> = { host: HOST };
          if (r.contentType) headers['content-type'] = r.contentType;
          if (r.token) headers.authorization = `Bearer ${r.token}`;
          const opts: InjectOptions = { method: route.method as InjectOptions['method'], url: r.query ? `${path}?${r.query}` : path, headers, remoteAddress: r.ip };
          if (r.body !== undefined && route.method !== 'GET' && route.method !== 'HEAD') opts.payload = r.body;
          const res = await app.inject(opts);
          const where = `${opts.method} ${opts.url} [${r.contentType}] ${String(r.body).slice(0, 80)}`;
          if (res.statusCode >= 500) failures.push(`${res.statusCode} ${where} → ${res.body.slice(0, 120)}`);
          // Errors are always the envelope; some successful answers (the offline snapshot) are not.
          if (path.startsWith('/api/') && res.statusCode >= 400 && res.headers['content-type']?.toString().startsWith('application/json')) {
            const json = res.json();
            if (json.code !== res.statusCode || !('result' in json)) failures.push(`not an envelope: ${where} → ${res.body.slice(0, 120)}`);
          }
          return res.statusCode < 500;
        }),
        { seed: 1009 + i, numRuns: RUNS, endOnFailure: true },
      ).catch(() => undefined);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers a broken escape in any path with the envelope', async () => {
    for (const url of ['/api/catalog/product/%ZZ', '/%ZZ', '/downtown/product/%E0%A4%A', '/api/cart/pull%ZZ']) {
      const res = await app.inject({ method: 'GET', url, headers: { host: HOST } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 400, result: 'The address is malformed.' });
    }
  });

  it('refuses non-object JSON and unusual content types on login and upload with a 4xx', async () => {
    const send = (url: string, payload: string, type = 'application/json') =>
      app.inject({ method: 'POST', url, headers: { host: HOST, 'content-type': type, authorization: `Bearer ${tokens[4]}` }, payload });
    for (const payload of ['0', '9007199254740992', '"phone"', '[1]', 'null']) {
      expect((await send('/api/user/login', payload)).json()).toEqual({ code: 400, result: 'The request body must be a JSON object.' });
    }
    expect((await send('/api/user/login', '{"phone":"916555\\u00000188"}')).json()).toEqual({ code: 400, result: 'The request must not contain NUL characters.' });
    const nulQuery = await app.inject({ method: 'GET', url: '/api/stock/list?skus=%00', headers: { host: HOST } });
    expect(nulQuery.json()).toEqual({ code: 400, result: 'The request must not contain NUL characters.' });
    const plain = await send('/api/user/login', '{"phone":"9165550188"}', 'text/plain');
    expect(plain.statusCode).toBe(415);
    expect(plain.json().code).toBe(415);
    const noBoundary = await send('/api/user/upload?kind=id', '--x\r\n\r\n', 'multipart/form-data');
    expect(noBoundary.statusCode).toBeGreaterThanOrEqual(400);
    expect(noBoundary.statusCode).toBeLessThan(500);
    expect(noBoundary.json().code).toBe(noBoundary.statusCode);
  });
});
