/**
 * Console writes from another site are refused even with the right CSRF token (issue 26): an
 * Origin that is not the console's own, or Sec-Fetch-Site: cross-site. Same-origin writes and
 * writes without the headers (command line, tests) stay as the session and CSRF rules decide.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { staffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { GUARD_MESSAGES } from './guard.ts';
import { addStaff, loginStaff, TEST_STAFF_PASSWORD, type StaffTestSession } from '../../test-support/staff/testing.ts';

vi.setConfig({ testTimeout: 60_000 });

describeEachDatabase('console writes from another site', (getDb) => {
  let app: FastifyInstance;
  let owner: StaffTestSession;
  let targetId: number;
  let ipSeq = 0;
  const ip = () => `10.232.${Math.floor(++ipSeq / 200)}.${ipSeq % 200}`;
  beforeAll(async () => {
    const { db } = getDb();
    app = (await staffTestApp(getDb())).app;
    await addStaff(db, { email: 'origin-owner@staff.test', role: 'owner' });
    targetId = await addStaff(db, { email: 'origin-target@staff.test', role: 'budtender', storeIds: [1], name: 'Tara' });
    owner = await loginStaff(app, 'origin-owner@staff.test', { ip: ip() });
  });
  afterAll(async () => app?.close());

  const rename = (name: string, headers: Record<string, string>, host = 'downtown.localhost') =>
    app.inject({
      method: 'PATCH',
      url: `/api/console/staff/${targetId}`,
      remoteAddress: ip(),
      headers: { host, ...owner.headers, ...headers },
      payload: { name },
    });
  const nameNow = async () =>
    (await getDb().db.selectFrom('staff').select('name').where('id', '=', targetId).executeTakeFirstOrThrow()).name;

  it('refuses a write with the right CSRF token from another origin or a cross-site fetch, and changes nothing', async () => {
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
      // Another store of the deployment is another origin too.
      { origin: 'http://harbor.localhost:3000', 'sec-fetch-site': 'same-site' },
      // The right host with another scheme or port is not the console.
      { origin: 'https://downtown.localhost' },
      { origin: 'http://downtown.localhost:8080' },
    ]) {
      const res = await rename('Mallory', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toEqual({ code: 403, result: GUARD_MESSAGES.crossSite, errorCode: 'cross_site' });
    }
    expect(await nameNow()).toBe('Tara');
  });

  it('takes same-origin writes, writes without Origin, and the store URL origin on its own host', async () => {
    const ok: { headers: Record<string, string>; host: string }[] = [
      { headers: { origin: 'http://downtown.localhost', 'sec-fetch-site': 'same-origin' }, host: 'downtown.localhost' },
      { headers: {}, host: 'downtown.localhost' },
      { headers: { 'sec-fetch-site': 'none' }, host: 'downtown.localhost' },
      // Behind a TLS proxy that is not trusted the server sees http; the stores file names the origin.
      { headers: { origin: 'http://downtown.localhost:3000' }, host: 'downtown.localhost:3000' },
    ];
    for (const [i, { headers, host }] of ok.entries()) {
      const res = await rename(`Tara ${'abcd'[i]}`, headers, host);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(await nameNow()).toBe(`Tara ${'abcd'[i]}`);
    }
    // The CSRF rules still decide for a same-origin write.
    const noToken = await app.inject({
      method: 'PATCH',
      url: `/api/console/staff/${targetId}`,
      remoteAddress: ip(),
      headers: { host: 'downtown.localhost', origin: 'http://downtown.localhost', cookie: owner.cookie },
      payload: { name: 'Mallory' },
    });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().errorCode).toBe('csrf');
  });

  it('refuses a login or a reset request from another site, and leaves reads alone', async () => {
    const login = (origin: string) =>
      app.inject({
        method: 'POST',
        url: '/api/console/session',
        remoteAddress: ip(),
        headers: { host: 'downtown.localhost', origin },
        payload: { email: 'origin-owner@staff.test', password: TEST_STAFF_PASSWORD },
      });
    const evil = await login('https://evil.example');
    expect(evil.statusCode).toBe(403);
    expect(evil.json().errorCode).toBe('cross_site');
    expect(evil.headers['set-cookie']).toBeUndefined();
    expect((await login('http://downtown.localhost')).statusCode).toBe(200);
    const reset = await app.inject({
      method: 'POST',
      url: '/api/console/password-reset',
      remoteAddress: ip(),
      headers: { host: 'downtown.localhost', 'sec-fetch-site': 'cross-site' },
      payload: { email: 'origin-owner@staff.test' },
    });
    expect(reset.statusCode).toBe(403);
    const read = await app.inject({
      method: 'GET',
      url: '/api/console/session',
      headers: { host: 'downtown.localhost', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', cookie: owner.cookie },
    });
    expect(read.statusCode).toBe(200);
  });
});
