/**
 * Staff login and sessions through the real app on SQLite and PostgreSQL: cookie attributes, what
 * is stored, lockout (also under parallel attempts), CSRF, logout and logout everywhere, idle and
 * absolute expiry, TOTP with replay refusal, password reset by mail and password change.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { staffTestApp, type StaffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { LOGIN_MESSAGES } from './login.ts';
import { SESSION_IDLE_MS, SESSION_MAX_MS, tokenHash } from './sessions.ts';
import { addStaff, loginStaff, TEST_STAFF_PASSWORD } from '../../test-support/staff/testing.ts';
import { totpCode } from './totp.ts';

// Tests log in many times; each login is a deliberate scrypt (~50-500 ms on a loaded machine).
vi.setConfig({ testTimeout: 90_000 });
const HOST = 'downtown.localhost';
const MINUTE = 60_000;

describeEachDatabase('staff sessions', (getDb) => {
  let t: StaffTestApp;
  let app: FastifyInstance;
  let ipSeq = 0;
  // Each test its own client address: the per-address login limit never joins tests together.
  const ip = () => `10.210.${Math.floor(++ipSeq / 200)}.${ipSeq % 200}`;
  beforeAll(async () => {
    t = await staffTestApp(getDb());
    app = t.app;
  });
  afterAll(async () => app?.close());

  const call = async (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    payload?: unknown,
    remoteAddress = '10.209.0.1',
  ) => {
    const res = await app.inject({
      method,
      url,
      remoteAddress,
      headers: { host: HOST, ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return {
      status: res.statusCode,
      body: res.json() as { code: number; result: any; errorCode?: string; meta?: any },
      headers: res.headers,
    };
  };
  const login = (email: string, password: string, from = ip(), totp?: string) =>
    call('POST', '/api/console/session', {}, { email, password, ...(totp ? { totp } : {}) }, from);

  it('logs in with a Secure, HttpOnly, SameSite=Strict cookie and stores only the token hash', async () => {
    const { db } = getDb();
    const id = await addStaff(db, { email: 'ana@staff.test', role: 'manager', storeIds: [1], name: 'Ana' });
    const res = await login('  ANA@staff.test ', TEST_STAFF_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.result.staff).toEqual({
      id,
      email: 'ana@staff.test',
      name: 'Ana',
      role: 'manager',
      storeIds: [1],
      totpEnabled: false,
      disabled: false,
      invitePending: false,
    });
    expect(res.body.result.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = String(res.headers['set-cookie']);
    const token = /^verdant_staff=([A-Za-z0-9_-]{43});/.exec(cookie)?.[1];
    expect(token).toBeDefined();
    const attributes = cookie.split('; ').slice(1).sort();
    expect(attributes).toEqual(['HttpOnly', 'Max-Age=604800', 'Path=/', 'SameSite=Strict', 'Secure']);
    const rows = await db.selectFrom('staff_sessions').selectAll().where('staff_id', '=', id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(tokenHash(token!));
    expect(JSON.stringify(rows)).not.toContain(token!);
    const me = await call('GET', '/api/console/session', { cookie: `verdant_staff=${token}` });
    expect(me.status).toBe(200);
    expect(me.body.result).toEqual({ staff: res.body.result.staff, csrfToken: res.body.result.csrfToken });
  });

  it('answers 401 login_required without a cookie or with an unknown token', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { cookie: 'verdant_staff=' + 'A'.repeat(43) },
      { cookie: 'verdant_staff=short' },
    ]) {
      const res = await call('GET', '/api/console/session', headers);
      expect(res.status).toBe(401);
      expect(res.body.errorCode).toBe('login_required');
    }
  });

  it('answers an unknown e-mail, a wrong password, a member without a password and a disabled member alike', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'ben@staff.test', role: 'budtender', storeIds: [1] });
    await addStaff(db, { email: 'nopass@staff.test', role: 'budtender', storeIds: [1], password: null });
    await addStaff(db, { email: 'gone@staff.test', role: 'budtender', storeIds: [1] });
    await db.updateTable('staff').set({ disabled_at: t.clock.now.toISOString() }).where('email', '=', 'gone@staff.test').execute();
    const answers = [
      await login('nobody@staff.test', TEST_STAFF_PASSWORD),
      await login('ben@staff.test', 'not-the-password'),
      await login('nopass@staff.test', TEST_STAFF_PASSWORD),
      await login('gone@staff.test', TEST_STAFF_PASSWORD),
    ];
    for (const a of answers) {
      expect(a.status).toBe(401);
      expect(a.body).toEqual({ code: 401, result: 'Incorrect e-mail or password.', errorCode: 'invalid_credentials' });
      expect(a.headers['set-cookie']).toBeUndefined();
    }
  });

  it('locks a member for 15 minutes after 5 failures, and a success resets the count', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'cara@staff.test', role: 'budtender', storeIds: [1] });
    for (let i = 0; i < 4; i++) expect((await login('cara@staff.test', 'wrong-password')).status).toBe(401);
    expect((await login('cara@staff.test', TEST_STAFF_PASSWORD)).status).toBe(200);
    // The success reset the count: four more failures do not lock.
    for (let i = 0; i < 4; i++) expect((await login('cara@staff.test', 'wrong-password')).status).toBe(401);
    expect((await login('cara@staff.test', TEST_STAFF_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login('cara@staff.test', 'wrong-password')).status).toBe(401);
    const locked = await login('cara@staff.test', TEST_STAFF_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.errorCode).toBe('locked');
    expect(locked.body.result).toBe(LOGIN_MESSAGES.locked);
    t.clock.advance(14 * MINUTE);
    expect((await login('cara@staff.test', TEST_STAFF_PASSWORD)).status).toBe(429);
    t.clock.advance(1 * MINUTE + 1000);
    expect((await login('cara@staff.test', TEST_STAFF_PASSWORD)).status).toBe(200);
  });

  it('locks under 10 parallel wrong attempts: none succeeds and the right password is then refused', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'dan@staff.test', role: 'budtender', storeIds: [1] });
    const from = ip();
    const answers = await Promise.all(Array.from({ length: 10 }, () => login('dan@staff.test', 'wrong-password', from)));
    for (const a of answers) expect([401, 429]).toContain(a.status);
    expect(answers.filter((a) => a.status === 401).length).toBeGreaterThanOrEqual(5);
    const after = await login('dan@staff.test', TEST_STAFF_PASSWORD);
    expect(after.status).toBe(429);
    expect(after.body.errorCode).toBe('locked');
  });

  it('refuses a write without the CSRF header or with a wrong one, and takes the right one', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'eve@staff.test', role: 'budtender', storeIds: [1] });
    const s = await loginStaff(app, 'eve@staff.test', { ip: ip() });
    const body = { current: TEST_STAFF_PASSWORD, password: 'a-brand-new-password' };
    const none = await call('POST', '/api/console/me/password', { cookie: s.cookie }, body);
    expect(none.status).toBe(403);
    expect(none.body.errorCode).toBe('csrf');
    const wrong = await call(
      'POST',
      '/api/console/me/password',
      { cookie: s.cookie, 'x-csrf-token': s.csrfToken.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
      body,
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body.errorCode).toBe('csrf');
    // Another session's token is no good either.
    const other = await loginStaff(app, 'eve@staff.test', { ip: ip() });
    expect((await call('POST', '/api/console/me/password', { cookie: s.cookie, 'x-csrf-token': other.csrfToken }, body)).status).toBe(403);
    const right = await call('POST', '/api/console/me/password', s.headers, body);
    expect(right.status).toBe(200);
    // The change ended the member's other session but kept this one.
    expect((await call('GET', '/api/console/session', { cookie: other.cookie })).status).toBe(401);
    expect((await call('GET', '/api/console/session', { cookie: s.cookie })).status).toBe(200);
    expect((await login('eve@staff.test', 'a-brand-new-password')).status).toBe(200);
    const badCurrent = await call('POST', '/api/console/me/password', s.headers, {
      current: 'not-it-at-all',
      password: 'another-new-password',
    });
    expect(badCurrent.status).toBe(400);
    expect(badCurrent.body.errorCode).toBe('current_password_wrong');
  });

  it('logs out one session (cookie cleared) and everywhere', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'fay@staff.test', role: 'manager', storeIds: [1, 2] });
    const a = await loginStaff(app, 'fay@staff.test', { ip: ip() });
    const b = await loginStaff(app, 'fay@staff.test', { ip: ip() });
    const c = await loginStaff(app, 'fay@staff.test', { ip: ip() });
    const out = await call('DELETE', '/api/console/session', a.headers);
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^verdant_staff=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    expect((await call('GET', '/api/console/session', { cookie: a.cookie })).status).toBe(401);
    expect((await call('GET', '/api/console/session', { cookie: b.cookie })).status).toBe(200);
    const all = await call('POST', '/api/console/session/logout-all', b.headers);
    expect(all.status).toBe(200);
    expect((await call('GET', '/api/console/session', { cookie: b.cookie })).status).toBe(401);
    expect((await call('GET', '/api/console/session', { cookie: c.cookie })).status).toBe(401);
  });

  it('ends a session after 12 idle hours, slides while used, and never lasts past 7 days', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'gil@staff.test', role: 'budtender', storeIds: [1] });
    const idle = await loginStaff(app, 'gil@staff.test', { ip: ip() });
    const used = await loginStaff(app, 'gil@staff.test', { ip: ip() });
    const started = t.clock.now.getTime();
    t.clock.advance(SESSION_IDLE_MS - MINUTE);
    expect((await call('GET', '/api/console/session', { cookie: used.cookie })).status).toBe(200);
    t.clock.advance(2 * MINUTE);
    expect((await call('GET', '/api/console/session', { cookie: idle.cookie })).status).toBe(401);
    expect((await call('GET', '/api/console/session', { cookie: used.cookie })).status).toBe(200);
    // Used every 11 hours: alive until the 7-day mark, then gone.
    while (t.clock.now.getTime() + 11 * 60 * MINUTE < started + SESSION_MAX_MS) {
      t.clock.advance(11 * 60 * MINUTE);
      expect((await call('GET', '/api/console/session', { cookie: used.cookie })).status).toBe(200);
    }
    t.clock.now = new Date(started + SESSION_MAX_MS);
    expect((await call('GET', '/api/console/session', { cookie: used.cookie })).status).toBe(401);
    const row = await db
      .selectFrom('staff_sessions')
      .select(['expires_at', 'created_at'])
      .where('token_hash', '=', tokenHash(used.cookie.split('=')[1]))
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at)).toBeLessThanOrEqual(Date.parse(row.created_at) + SESSION_MAX_MS);
  });

  it('sets up TOTP, then asks for a code at login and refuses a code used before', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'hal@staff.test', role: 'owner' });
    const s = await loginStaff(app, 'hal@staff.test', { ip: ip() });
    const older = await loginStaff(app, 'hal@staff.test', { ip: ip() });
    const setup = await call('POST', '/api/console/me/totp/setup', s.headers, {});
    expect(setup.status).toBe(200);
    const { secret, uri } = setup.body.result as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/.*hal%40staff\.test\?.*secret=/);
    expect(
      (
        await call('POST', '/api/console/me/totp/enable', s.headers, {
          code: '000000' === totpCode(secret, t.clock.now) ? '111111' : '000000',
        })
      ).status,
    ).toBe(400);
    const enable = await call('POST', '/api/console/me/totp/enable', s.headers, { code: totpCode(secret, t.clock.now) });
    expect(enable.status).toBe(200);
    // This session gave the code and stays; the older one never did and is over.
    expect((await call('GET', '/api/console/session', { cookie: s.cookie })).body.result.staff.totpEnabled).toBe(true);
    expect((await call('GET', '/api/console/session', { cookie: older.cookie })).status).toBe(401);

    const noCode = await login('hal@staff.test', TEST_STAFF_PASSWORD);
    expect(noCode.status).toBe(401);
    expect(noCode.body.errorCode).toBe('totp_required');
    expect(noCode.headers['set-cookie']).toBeUndefined();
    // The code that enabled it was used: refused within its window.
    const reused = await login('hal@staff.test', TEST_STAFF_PASSWORD, ip(), totpCode(secret, t.clock.now));
    expect(reused.status).toBe(401);
    expect(reused.body.errorCode).toBe('totp_required');
    t.clock.advance(30_000);
    const code = totpCode(secret, t.clock.now);
    const good = await login('hal@staff.test', TEST_STAFF_PASSWORD, ip(), code);
    expect(good.status).toBe(200);
    expect((await login('hal@staff.test', TEST_STAFF_PASSWORD, ip(), code)).status).toBe(401);
    // A wrong password with a good code is still the same refusal.
    t.clock.advance(30_000);
    expect((await login('hal@staff.test', 'wrong-password', ip(), totpCode(secret, t.clock.now))).body.errorCode).toBe(
      'invalid_credentials',
    );

    t.clock.advance(30_000);
    expect((await call('POST', '/api/console/me/totp/disable', s.headers, { code: totpCode(secret, t.clock.now) })).status).toBe(200);
    expect((await login('hal@staff.test', TEST_STAFF_PASSWORD)).status).toBe(200);
    const row = await db
      .selectFrom('staff')
      .select(['totp_secret', 'totp_enabled_at', 'failed_logins'])
      .where('email', '=', 'hal@staff.test')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ totp_secret: null, totp_enabled_at: null, failed_logins: 0 });
  });

  it('mails a reset link that sets a new password once, ends the sessions and lifts a lock', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'ivy@staff.test', role: 'manager', storeIds: [1] });
    const s = await loginStaff(app, 'ivy@staff.test', { ip: ip() });
    for (let i = 0; i < 5; i++) await login('ivy@staff.test', 'wrong-password');
    expect((await login('ivy@staff.test', TEST_STAFF_PASSWORD)).status).toBe(429);
    const before = t.mailer.sent.length;
    const unknown = await call('POST', '/api/console/password-reset', {}, { email: 'nobody-here@staff.test' }, ip());
    const known = await call('POST', '/api/console/password-reset', {}, { email: 'IVY@staff.test' }, ip());
    expect(unknown.body).toEqual(known.body);
    expect(known.status).toBe(200);
    // One reset mail, for the member only (the lock also mailed an unlock link, at its own pace).
    expect(t.mailer.sent.slice(before).filter((m) => m.subject === 'Set your Verdant console password').map((m) => m.to)).toEqual([
      'ivy@staff.test',
    ]);
    const mail = t.mailer.sent.filter((m) => m.to === 'ivy@staff.test' && m.subject === 'Set your Verdant console password').at(-1)!;
    const link = /http:\/\/downtown\.localhost:3000\/console\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mail.text);
    expect(link).not.toBeNull();
    const token = link![1];
    const short = await call('POST', '/api/console/password-reset/confirm', {}, { token, password: 'short' }, ip());
    expect(short.status).toBe(400);
    const set = await call('POST', '/api/console/password-reset/confirm', {}, { token, password: 'ivy-new-password' }, ip());
    expect(set.status).toBe(200);
    const again = await call('POST', '/api/console/password-reset/confirm', {}, { token, password: 'ivy-other-password' }, ip());
    expect(again.status).toBe(400);
    expect(again.body.errorCode).toBe('reset_invalid');
    expect((await call('GET', '/api/console/session', { cookie: s.cookie })).status).toBe(401);
    expect((await login('ivy@staff.test', 'ivy-new-password')).status).toBe(200);
  });

  it('refuses an expired reset link', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'jon@staff.test', role: 'budtender', storeIds: [1] });
    await call('POST', '/api/console/password-reset', {}, { email: 'jon@staff.test' }, ip());
    const token = /token=([A-Za-z0-9_-]{43})/.exec(t.mailer.lastTo('jon@staff.test')!.text)![1];
    t.clock.advance(60 * MINUTE + 1000);
    const res = await call('POST', '/api/console/password-reset/confirm', {}, { token, password: 'jon-new-password' }, ip());
    expect(res.status).toBe(400);
    expect((await login('jon@staff.test', TEST_STAFF_PASSWORD)).status).toBe(200);
  });

  it('ends the sessions of a member who is disabled', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'kim@staff.test', role: 'budtender', storeIds: [1] });
    const s = await loginStaff(app, 'kim@staff.test', { ip: ip() });
    await db.updateTable('staff').set({ disabled_at: t.clock.now.toISOString() }).where('email', '=', 'kim@staff.test').execute();
    expect((await call('GET', '/api/console/session', { cookie: s.cookie })).status).toBe(401);
  });
});
