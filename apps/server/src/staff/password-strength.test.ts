/**
 * Weak staff passwords are refused wherever a password is set (issue 26): the estimator's verdicts
 * and the context rules, then through the real app on SQLite and PostgreSQL (invitation link,
 * password change, a member created with a password); the demo members keep their seeded password.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { staffTestApp, type StaffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { DEMO_STAFF_PASSWORD, ensureDemoStaff } from './demo.ts';
import { PASSWORD_MESSAGES, passwordProblem } from './password-strength.ts';
import { addStaff, loginStaff, TEST_STAFF_PASSWORD, type StaffTestSession } from '../../test-support/staff/testing.ts';

vi.setConfig({ testTimeout: 90_000 });
const STORES = ['Verdant Downtown', 'downtown', 'Verdant Harbor', 'harbor'];
const WEAK = ['aaaaaaaaaa', 'password12', '1234567890', 'qwertyuiop', 'Password123!', 'letmein2024'];

describe('passwordProblem', () => {
  const ctx = { email: 'ana.lopez@staff.test', name: 'Ana Lopez', stores: STORES };
  it('refuses common, repeated and keyboard passwords with the reason', async () => {
    for (const password of WEAK) expect(await passwordProblem(password, ctx), password).toMatch(/^The password is too easy to guess/);
    expect(await passwordProblem('password12', ctx)).toBe(
      'The password is too easy to guess: this is a commonly used password. Use three or four unrelated words, or a random password from a password manager.',
    );
  });
  it("refuses the member's e-mail and its name part, a store's name and the demo password, however written", async () => {
    for (const password of ['ana.lopez@staff.test', 'ANA.LOPEZ@STAFF.TEST', 'ana.lopez', 'Ana Lopez!'])
      expect(await passwordProblem(password, ctx), password).toBe(PASSWORD_MESSAGES.email);
    for (const password of ['Verdant Downtown', 'verdant-harbor'])
      expect(await passwordProblem(password, ctx), password).toBe(PASSWORD_MESSAGES.store);
    for (const password of [DEMO_STAFF_PASSWORD, 'Verdant Demo Staff'])
      expect(await passwordProblem(password, ctx), password).toBe(PASSWORD_MESSAGES.demo);
    // Made of them with a little added: still too easy.
    for (const password of ['analopez2026', 'verdantdowntown1', 'verdant-demo-staff1'])
      expect(await passwordProblem(password, ctx), password).toMatch(/^The password is too easy to guess/);
  });
  it('judges a long password by its start, quickly', async () => {
    const random = Array.from({ length: 200 }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join('');
    // CPU time of this process, not wall time: other processes on a shared machine do not count.
    const started = process.cpuUsage();
    expect(await passwordProblem(random, ctx)).toBeNull();
    expect(await passwordProblem('1234567890'.repeat(20), ctx)).toMatch(/^The password is too easy to guess/);
    const used = process.cpuUsage(started);
    // Unbounded, the first alone takes seconds of CPU on the event loop.
    expect((used.user + used.system) / 1000).toBeLessThan(1500);
  });
  it('takes passwords that are hard to guess', async () => {
    for (const password of [TEST_STAFF_PASSWORD, 'kx93-lemon-vault', 'copper tulip orbit shelf', 'Tr0ub4dor&3xq'])
      expect(await passwordProblem(password, ctx), password).toBeNull();
  });
});

describeEachDatabase('weak staff passwords through the app', (getDb) => {
  let t: StaffTestApp;
  let app: FastifyInstance;
  let owner: StaffTestSession;
  let ipSeq = 0;
  const ip = () => `10.233.${Math.floor(++ipSeq / 200)}.${ipSeq % 200}`;
  beforeAll(async () => {
    const { db } = getDb();
    t = await staffTestApp(getDb());
    app = t.app;
    await addStaff(db, { email: 'strength-owner@staff.test', role: 'owner' });
    owner = await loginStaff(app, 'strength-owner@staff.test', { ip: ip() });
  });
  afterAll(async () => app?.close());

  const call = (url: string, payload: object, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, remoteAddress: ip(), headers: { host: 'downtown.localhost', ...headers }, payload });

  it('refuses a weak password on the invitation link and keeps the link usable', async () => {
    const invite = await call('/api/console/staff', { email: 'new.hire.member@staff.test', name: 'Nia Hire', role: 'budtender', storeIds: [1] }, owner.headers);
    expect(invite.statusCode).toBe(200);
    const token = /token=([A-Za-z0-9_-]{43})/.exec(t.mailer.lastTo('new.hire.member@staff.test')!.text)![1];
    for (const password of [...WEAK, 'new.hire.member@staff.test', 'New.Hire.Member', 'Verdant Downtown', DEMO_STAFF_PASSWORD]) {
      const res = await call('/api/console/password-reset/confirm', { token, password });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().errorCode).toBe('weak_password');
      expect(res.json().result).toMatch(/^The password (is too easy to guess|must not be)/);
    }
    expect((await call('/api/console/password-reset/confirm', { token, password: 'copper tulip orbit shelf' })).statusCode).toBe(200);
    await loginStaff(app, 'new.hire.member@staff.test', { password: 'copper tulip orbit shelf', ip: ip() });
  });

  it('refuses a weak new password on a password change and keeps the old one', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'changer.person@staff.test', role: 'manager', storeIds: [1] });
    const s = await loginStaff(app, 'changer.person@staff.test', { ip: ip() });
    for (const password of [...WEAK, 'changer.person@staff.test', 'CHANGER.PERSON', 'verdant downtown', DEMO_STAFF_PASSWORD]) {
      const res = await call('/api/console/me/password', { current: TEST_STAFF_PASSWORD, password }, s.headers);
      expect(res.statusCode, password).toBe(400);
      expect(res.json().errorCode).toBe('weak_password');
    }
    await loginStaff(app, 'changer.person@staff.test', { ip: ip() });
    expect((await call('/api/console/me/password', { current: TEST_STAFF_PASSWORD, password: 'kx93-lemon-vault' }, s.headers)).statusCode).toBe(200);
  });

  it('refuses a member created with a weak password and creates nobody', async () => {
    const { db } = getDb();
    const res = await call(
      '/api/console/staff',
      { email: 'weakling@staff.test', name: 'Wes', role: 'budtender', storeIds: [1], password: 'qwertyuiop' },
      owner.headers,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errorCode).toBe('weak_password');
    expect(await db.selectFrom('staff').select('id').where('email', '=', 'weakling@staff.test').executeTakeFirst()).toBeUndefined();
  });

  it('lets the seeded demo members log in with the documented password, but nobody set it anew', async () => {
    const { db } = getDb();
    await ensureDemoStaff(db);
    const demo = await loginStaff(app, 'manager@demo.verdant.test', { password: DEMO_STAFF_PASSWORD, ip: ip() });
    const res = await call('/api/console/me/password', { current: DEMO_STAFF_PASSWORD, password: DEMO_STAFF_PASSWORD }, demo.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toBe(PASSWORD_MESSAGES.demo);
  });
});
