/**
 * Every route, fed random requests: arbitrary JSON values, huge numbers, deep nesting, strings,
 * wrong types for the fields routes read, random content types, query strings and path
 * parameters, with no token, a junk token, a guest's and a customer's, and a logged-in owner's
 * console session (cookie and CSRF header, or the cookie alone), so the console's handlers are
 * reached too, not only its guard. No answer may be a 5xx, and every API answer of 400 or more is
 * the JSON `{code, result}` envelope with code = status, whatever its content type.
 * Deterministic (fixed seed per route), bounded (RUNS per route, CONSOLE_RUNS per console route,
 * most of them as the owner), on SQLite and PostgreSQL.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REFERENCE_DATE, commerceApp } from '../../test-support/cart/testing.ts';
import { consoleRoutesOf } from '../staff/guard.ts';
import { STAFF_COOKIE, createSession } from '../staff/sessions.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { routesOf } from './body-policy.ts';

const RUNS = 100;
const CONSOLE_RUNS = 40;
const OWNER = 'fuzz.owner@example.com';
const HOST = 'downtown.localhost';

/** Field names the routes read, so random values also reach their validators with wrong types. */
const FIELDS = [
  'phone', 'code', 'email', 'password', 'newPassword', 'currentPassword', 'resetToken', 'pendingToken', 'refreshToken',
  'license_type', 'birthday', 'storeId', 'order_type', 'cartItem', 'sku', 'qty', 'quoteId', 'item_id', 'products',
  'idempotency_key', 'personal_details', 'payment_method', 'addressInformation', 'methods', 'coupon', 'entity', 'query',
  'url', 'firstname', 'lastname', 'addresses', 'medcard_number', 'medcard_expiry', 'kind', 'cartId', 'storeCode',
  // The console's: staff, sessions, TOTP, order moves, messages, webhooks.
  'name', 'role', 'storeIds', 'disabled', 'totp', 'token', 'current', 'action', 'reason', 'readyBy', 'note', 'message', 'status',
  'events', 'description', 'document', 'decision', 'medcardExpiry', 'idChecked', 'medcardChecked', 'from', 'to', 'limit', 'cursor',
];

const hugeNumber = fc.constantFrom('9007199254740992', '1e309', '-1e309', '1' + '0'.repeat(400), '0.' + '0'.repeat(400) + '1', '-0', '0');
const deep = fc.integer({ min: 50, max: 20_000 }).chain((n) => fc.constantFrom('['.repeat(n) + ']'.repeat(n), '{"a":'.repeat(n) + '1' + '}'.repeat(n)));
const junkValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, [], {}, '', ' ', '0', -1, 1e300, '__proto__', '../../etc/passwd', '%ZZ', '\u0000'),
  // Near-valid values, so the console's handlers get past their validators now and then.
  fc.constantFrom('X', 'Jo', 'owner', 'budtender', [1], [1, 2], [99], 'confirm', 'cancel', 'sold_out', 'id', 'verified', 'rejected', '2026-06-15', 'order.created', ['order.created'], false, 1, 2),
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
  fc.constantFrom('1', '2', '0', '-1', '9007199254740992', 'DO-100001', 'x'.repeat(300), '%ZZ', '%E0%A4%A', '..%2F..%2F', '%00', '2026-06-15', 'pending'),
);
const query = fc
  .dictionary(fc.constantFrom(...FIELDS, 'text', 'category', 'sort', 'start', 'size', 'skus', 'token', 'url_path', 'child_sku', 'identifier', 'page', 'currencyCode', 'price', 'sizes', 'brand_id', 'type', 'q', 'orderId'), paramValue, { maxKeys: 4 })
  .map((q) => Object.entries(q).map(([k, v]) => `${k}=${v}`).join('&'));

/** A seed from a route's method and path (FNV-1a). */
function seedOf(key: string): number {
  let h = 2166136261;
  for (const ch of key) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h % 2_000_000_000;
}

describeEachDatabase('fuzz: every route answers random input without a 5xx', (getDb) => {
  let app: FastifyInstance;
  let owner: StaffTestSession;
  /** Who sends a request: the headers are read at send time (the owner may log in again). */
  const callers: Record<string, () => Record<string, string>> = {
    none: () => ({}),
    junk: () => ({ authorization: 'Bearer junk' }),
    jwtShaped: () => ({ authorization: 'Bearer a.b.c' }),
    owner: () => owner.headers,
    ownerWithoutCsrf: () => ({ cookie: owner.cookie }),
    junkStaffCookie: () => ({ cookie: 'verdant_staff=' + 'A'.repeat(43), 'x-csrf-token': 'junk' }),
  };

  /** A fresh session of the owner, as the login route makes it (without another slow password check). */
  const newOwnerSession = async (): Promise<StaffTestSession> => {
    const session = await createSession(getDb().db, owner.staff.id, REFERENCE_DATE, { mfa: false });
    const cookie = `${STAFF_COOKIE}=${session.token}`;
    return { ...owner, csrfToken: session.csrfToken, cookie, headers: { cookie, 'x-csrf-token': session.csrfToken } };
  };
  /** Console routes whose request got past the staff guard (it sets request.staff) at least once. */
  const pastTheGuard = new Set<string>();
  const ownerLoggedIn = async () =>
    (await app.inject({ method: 'GET', url: '/api/console/session', headers: { host: HOST, ...owner.headers } })).statusCode === 200;

  beforeAll(async () => {
    app = await commerceApp(getDb());
    // Before the handler (the guard runs on request): a stream the handler takes over (the live
    // queue) never reaches onResponse.
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.staff) pastTheGuard.add(`${request.method} ${request.routeOptions.url}`);
      done();
    });
    await app.ready();
    const guest = (await app.inject({ method: 'POST', url: '/api/user/login-guest', headers: { host: HOST }, payload: { license_type: 'recreational' } })).json().meta.token;
    const sent = await app.inject({ method: 'POST', url: '/api/user/login', headers: { host: HOST }, payload: { phone: '9165550177' } });
    const code = sent.json().meta.demo_code;
    const confirmed = (await app.inject({ method: 'POST', url: '/api/user/login', headers: { host: HOST }, payload: { phone: '9165550177', code } })).json();
    const done = await app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { host: HOST },
      payload: { phone: '9165550177', license_type: 'recreational', birthday: '1990-01-01', pendingToken: confirmed.meta?.pendingToken },
    });
    const customer = done.json().meta?.token ?? confirmed.meta?.token;
    expect([guest, customer].every(Boolean)).toBe(true);
    callers.guest = () => ({ authorization: `Bearer ${guest}` });
    callers.customer = () => ({ authorization: `Bearer ${customer}` });
    // Once per database through the route (scrypt is slow); a fuzzed logout gets a new session (newOwnerSession).
    await addStaff(getDb().db, { email: OWNER, role: 'owner', name: 'Fuzz Owner' });
    owner = await loginStaff(app, OWNER);
    expect(await ownerLoggedIn()).toBe(true);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('collected the routes of every area', () => {
    const urls = routesOf(app).map((r) => `${r.method} ${r.url}`);
    for (const route of [
      'POST /api/user/login',
      'POST /api/user/upload',
      'POST /api/cart/update',
      'POST /api/order/save',
      'GET /api/catalog/product/:sku',
      'DELETE /api/newsletter',
      'POST /api/console/staff',
      'PATCH /api/console/staff/:staffId',
      'GET /api/console/stores/:storeId/orders',
    ]) {
      expect(urls).toContain(route);
    }
  });

  it('answers every route with a 4xx or better, the JSON envelope on the API; console routes as the owner too', async () => {
    const routes = routesOf(app).filter((r) => r.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(40);
    const consoleRoutes = routes.filter((r) => r.url.startsWith('/api/console/'));
    expect(consoleRoutes.length).toBeGreaterThan(30);
    const failures: string[] = [];
    const names = Object.keys(callers);
    for (const route of routes) {
      const isConsole = route.url.startsWith('/api/console/');
      // A stream (the live queue) answers its headers and stays open: read it as a stream.
      const isStream = route.url.endsWith('/events');
      const caller = isConsole
        ? fc.oneof({ weight: 6, arbitrary: fc.constant('owner') }, { weight: 2, arbitrary: fc.constantFrom(...names) })
        : fc.constantFrom(...names);
      const request = fc.record({
        body,
        contentType,
        query,
        caller,
        // Console paths name a store (and an order, a member…): often one that exists.
        params: fc.array(isConsole ? fc.oneof(paramValue, fc.constantFrom('1', '2')) : paramValue, { minLength: 4, maxLength: 4 }),
        // Spread over many addresses, so the per-IP write limit leaves the handlers reachable.
        ip: fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`),
      });
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          let n = 0;
          const path = route.url.replace(/:[A-Za-z_]+|\*/g, () => r.params[n++ % 4]);
          const headers: Record<string, string> = { host: HOST, ...callers[r.caller]() };
          if (r.contentType) headers['content-type'] = r.contentType;
          const opts: InjectOptions = { method: route.method as InjectOptions['method'], url: r.query ? `${path}?${r.query}` : path, headers, remoteAddress: r.ip };
          if (r.body !== undefined && route.method !== 'GET' && route.method !== 'HEAD') opts.payload = r.body;
          const where = `${opts.method} ${opts.url} as ${r.caller} [${r.contentType}] ${String(r.body).slice(0, 80)}`;
          const res = await app.inject(isStream ? { ...opts, payloadAsStream: true } : opts);
          let text: string;
          if (isStream) {
            const stream = res.stream();
            if (res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/event-stream')) {
              // The queue's stream opened: done with it (it ends when the app closes).
              stream.destroy();
              text = '';
            } else {
              const chunks: Buffer[] = [];
              for await (const chunk of stream) chunks.push(Buffer.from(chunk));
              text = Buffer.concat(chunks).toString('utf8');
            }
          } else {
            text = res.body;
          }
          if (res.statusCode >= 500) failures.push(`${res.statusCode} ${where} → ${text.slice(0, 120)}`);
          // Every API error is the JSON envelope (HEAD answers carry no body, only the type).
          if (path.startsWith('/api/') && res.statusCode >= 400) {
            const type = String(res.headers['content-type'] ?? '');
            let json: { code?: unknown; result?: unknown } | undefined;
            try {
              json = route.method === 'HEAD' ? undefined : JSON.parse(text);
            } catch {
              json = undefined;
            }
            const envelope = type.startsWith('application/json') && (route.method === 'HEAD' || (json?.code === res.statusCode && typeof json?.result === 'string'));
            if (!envelope) failures.push(`not an envelope: ${res.statusCode} ${type} ${where} → ${text.slice(0, 120)}`);
          }
          return res.statusCode < 500;
        }),
        {
          // Each route's own seed (from its method and path), so adding a route elsewhere never changes
          // what this one is sent; and a console route is first called plainly by the owner on store 1,
          // so getting past the guard never depends on the draw.
          seed: seedOf(`${route.method} ${route.url}`),
          numRuns: isConsole ? CONSOLE_RUNS : RUNS,
          endOnFailure: true,
          examples: isConsole ? [[{ body: undefined, contentType: undefined, query: '', caller: 'owner', params: ['1', '1', '1', '1'], ip: '10.0.0.1' }]] : [],
        },
      ).catch(() => undefined);
      // A fuzzed logout (or logout everywhere) ends the owner's session: log in again for the next route.
      if (isConsole && !(await ownerLoggedIn())) owner = await newOwnerSession();
    }
    expect(failures).toEqual([]);
    // Every console route that needs a session was reached past the guard, with the owner's session.
    const permissions = new Map(consoleRoutesOf(app).map((r) => [`${r.method} ${r.url}`, r.permission]));
    const permissionOf = (r: { method: string; url: string }) => permissions.get(`${r.method} ${r.url}`) ?? permissions.get(`GET ${r.url}`);
    const guarded = consoleRoutes.filter((r) => permissionOf(r) !== 'public').map((r) => `${r.method} ${r.url}`);
    expect(guarded.length).toBeGreaterThan(30);
    expect(guarded.filter((r) => !pastTheGuard.has(r))).toEqual([]);
  }, 180_000);

  it('answers a broken escape in any path with the envelope', async () => {
    for (const url of ['/api/catalog/product/%ZZ', '/%ZZ', '/downtown/product/%E0%A4%A', '/api/cart/pull%ZZ']) {
      const res = await app.inject({ method: 'GET', url, headers: { host: HOST } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 400, result: 'The address is malformed.' });
    }
  });

  it('refuses non-object JSON and unusual content types on login and upload with a 4xx', async () => {
    const send = (url: string, payload: string, type = 'application/json') =>
      app.inject({ method: 'POST', url, headers: { host: HOST, 'content-type': type, ...callers.customer() }, payload });
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
