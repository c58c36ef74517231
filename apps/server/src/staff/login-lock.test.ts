/**
 * The staff login lock under parallel bursts, on SQLite and PostgreSQL (issue 26): at most five
 * tries per e-mail are ever judged before the lock, from forty addresses or one, and the right
 * password sent once the five tries are taken is refused like the rest.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { staffTestApp, type StaffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { LOGIN_MESSAGES } from './login.ts';
import { emailKey, MAX_FAILED_LOGINS } from './login-throttle.ts';
import { addStaff, TEST_STAFF_PASSWORD } from '../../test-support/staff/testing.ts';
import { newTotpSecret, totpCode } from './totp.ts';

vi.setConfig({ testTimeout: 120_000 });
const HOST = 'downtown.localhost';

describeEachDatabase('staff login lock under bursts', (getDb) => {
  let t: StaffTestApp;
  let app: FastifyInstance;
  let ipSeq = 0;
  const ip = () => `10.230.${Math.floor(++ipSeq / 200)}.${ipSeq % 200}`;
  beforeAll(async () => {
    t = await staffTestApp(getDb());
    app = t.app;
  });
  afterAll(async () => app?.close());

  const login = async (email: string, password: string, from: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/console/session',
      remoteAddress: from,
      headers: { host: HOST },
      payload: { email, password },
    });
    return { status: res.statusCode, body: res.json() as { result: string; errorCode?: string; meta?: { lockedUntil?: string } } };
  };
  const count = (answers: { status: number }[], status: number) => answers.filter((a) => a.status === status).length;
  const expectLocked = (a: { status: number; body: { result: string; errorCode?: string } }) => {
    expect(a.status).toBe(429);
    expect(a.body.result).toBe(LOGIN_MESSAGES.locked);
    expect(a.body.errorCode).toBe('locked');
  };

  it('judges only 5 of 40 wrong passwords sent at once from 40 addresses; then the right one is refused', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'burst40@staff.test', role: 'budtender', storeIds: [1] });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login('burst40@staff.test', `wrong-password-${i}`, ip())));
    expect(count(answers, 401)).toBe(MAX_FAILED_LOGINS);
    for (const a of answers.filter((x) => x.status !== 401)) expectLocked(a);
    expectLocked(await login('burst40@staff.test', TEST_STAFF_PASSWORD, ip()));
  });

  it('judges at most 5 of 25 sent at once from one address, the right password among them', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'burst25@staff.test', role: 'budtender', storeIds: [1] });
    const from = ip();
    const sent = [...Array.from({ length: 24 }, (_, i) => `wrong-password-${i}`), TEST_STAFF_PASSWORD];
    const answers = await Promise.all(sent.map((password) => login('burst25@staff.test', password, from)));
    const judged = count(answers, 401) + count(answers, 200);
    // The right password logs in only when it was among the five tries judged.
    if (count(answers, 200) === 0) expect(count(answers, 401)).toBe(MAX_FAILED_LOGINS);
    else expect(count(answers, 200)).toBe(1);
    expect(judged).toBeLessThanOrEqual(MAX_FAILED_LOGINS);
    for (const a of answers.filter((x) => x.status !== 401 && x.status !== 200)) expectLocked(a);
    if (count(answers, 200) === 0) expectLocked(await login('burst25@staff.test', TEST_STAFF_PASSWORD, from));
  });

  it('refuses the right password sent while the five tries of a burst are still being judged', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'inflight@staff.test', role: 'budtender', storeIds: [1] });
    const burst = Promise.all(Array.from({ length: 20 }, (_, i) => login('inflight@staff.test', `wrong-password-${i}`, ip())));
    // As soon as the five tries are taken (before their passwords are judged), the right password comes.
    const key = emailKey('inflight@staff.test');
    for (const deadline = Date.now() + 30_000; ; ) {
      if (Date.now() > deadline) throw new Error('the burst never took five tries');
      const row = await db.selectFrom('staff_login_throttle').select('tries').where('email_hash', '=', key).executeTakeFirst();
      if (row && row.tries >= MAX_FAILED_LOGINS) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    expectLocked(await login('inflight@staff.test', TEST_STAFF_PASSWORD, ip()));
    const answers = await burst;
    expect(count(answers, 401)).toBe(MAX_FAILED_LOGINS);
    expect(count(answers, 429)).toBe(20 - MAX_FAILED_LOGINS);
  });

  it('locks an unknown e-mail after the same burst, with the same answers', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login('nobody-burst@staff.test', `wrong-password-${i}`, ip())));
    expect(count(answers, 401)).toBe(MAX_FAILED_LOGINS);
    for (const a of answers.filter((x) => x.status === 401)) expect(a.body.result).toBe(LOGIN_MESSAGES.invalid);
    for (const a of answers.filter((x) => x.status !== 401)) expectLocked(a);
  });

  it('counts a try per e-mail: a success clears it, and the lock ends after 15 minutes with a fresh count', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'fresh@staff.test', role: 'budtender', storeIds: [1] });
    for (let i = 0; i < 5; i++) expect((await login('fresh@staff.test', 'wrong-password', ip())).status).toBe(401);
    const lock = await login('fresh@staff.test', TEST_STAFF_PASSWORD, ip());
    expectLocked(lock);
    expect(lock.body.meta?.lockedUntil).toBe(new Date(t.clock.now.getTime() + 15 * 60_000).toISOString());
    t.clock.advance(15 * 60_000);
    // A new count: four wrong tries then the right password logs in and clears the row.
    for (let i = 0; i < 4; i++) expect((await login('fresh@staff.test', 'wrong-password', ip())).status).toBe(401);
    expect((await login('fresh@staff.test', TEST_STAFF_PASSWORD, ip())).status).toBe(200);
    const row = await db.selectFrom('staff_login_throttle').selectAll().where('email_hash', '=', emailKey('fresh@staff.test')).executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describeEachDatabase('staff login lock: same answer for any e-mail, and an unlock link', (getDb) => {
  let t: StaffTestApp;
  let app: FastifyInstance;
  let ipSeq = 0;
  const ip = () => `10.231.${Math.floor(++ipSeq / 200)}.${ipSeq % 200}`;
  beforeAll(async () => {
    t = await staffTestApp(getDb());
    app = t.app;
  });
  afterAll(async () => app?.close());

  const login = async (email: string, password: string, extra: { unlock?: string; totp?: string } = {}) => {
    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/console/session',
      remoteAddress: ip(),
      headers: { host: HOST },
      payload: { email, password, ...extra },
    });
    return { status: res.statusCode, body: res.json() as Record<string, unknown>, ms: performance.now() - started };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  /** The unlock link in the newest mail to `email`, once it arrived (it is sent after the answer). */
  const unlockLink = async (email: string, after: number) => {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
      const mail = t.mailer.sent.slice(after).find((m) => m.to === email);
      if (mail) {
        const token = /\/console\/login\?unlock=([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
        expect(token).toBeDefined();
        return { mail, token: token! };
      }
    }
    throw new Error(`no unlock mail to ${email}`);
  };

  it('answers an unknown e-mail exactly as a staff e-mail, try by try, lock included, in similar time', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'same@staff.test', role: 'budtender', storeIds: [1] });
    await addStaff(db, { email: 'off@staff.test', role: 'budtender', storeIds: [1] });
    await db.updateTable('staff').set({ disabled_at: t.clock.now.toISOString() }).where('email', '=', 'off@staff.test').execute();
    const times = { staff: [] as number[], unknown: [] as number[], lockedStaff: [] as number[], lockedUnknown: [] as number[] };
    for (let i = 0; i < 8; i++) {
      const staff = await login('same@staff.test', 'wrong-password');
      const unknown = await login('nobody-same@staff.test', 'wrong-password');
      const disabled = await login('off@staff.test', TEST_STAFF_PASSWORD);
      expect(unknown.status).toBe(staff.status);
      expect(unknown.body).toEqual(staff.body);
      expect(disabled.body).toEqual(staff.body);
      if (i < MAX_FAILED_LOGINS) {
        expect(staff.status).toBe(401);
        times.staff.push(staff.ms);
        times.unknown.push(unknown.ms);
      } else {
        expect(staff.status).toBe(429);
        expect(staff.body).toEqual({
          code: 429,
          result: LOGIN_MESSAGES.locked,
          errorCode: 'locked',
          meta: { lockedUntil: new Date(t.clock.now.getTime() + 15 * 60_000).toISOString() },
        });
        times.lockedStaff.push(staff.ms);
        times.lockedUnknown.push(unknown.ms);
      }
    }
    // Both judged answers check a password hash (scrypt); both locked answers check none.
    const ratio = median(times.unknown) / median(times.staff);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
    expect(Math.abs(median(times.lockedUnknown) - median(times.lockedStaff))).toBeLessThan(Math.max(25, median(times.staff) / 2));
  });

  it('mails the member an unlock link: the right password with it logs in through the lock, without it not', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'victim@staff.test', role: 'manager', storeIds: [1], name: 'Vic' });
    const before = t.mailer.sent.length;
    // Anyone can lock a member's e-mail by sending wrong passwords…
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) expect((await login('victim@staff.test', 'attacker-guess')).status).toBe(401);
    expect((await login('victim@staff.test', TEST_STAFF_PASSWORD)).status).toBe(429);
    // …but the member gets a link that opens it.
    const { mail, token } = await unlockLink('victim@staff.test', before);
    expect(mail.subject).toBe('Your Verdant console sign-in is locked');
    expect(mail.text).toContain('http://downtown.localhost:3000/console/login?unlock=');
    expect(t.mailer.sent.slice(before).filter((m) => m.to === 'victim@staff.test')).toHaveLength(1);
    // The link is no password: with a wrong one it answers as any wrong password, and the lock stays.
    const wrong = await login('victim@staff.test', 'attacker-guess', { unlock: token });
    expect(wrong.status).toBe(401);
    expect(wrong.body.result).toBe(LOGIN_MESSAGES.invalid);
    expect((await login('victim@staff.test', TEST_STAFF_PASSWORD)).status).toBe(429);
    // A made-up link is the plain lock answer.
    expect((await login('victim@staff.test', TEST_STAFF_PASSWORD, { unlock: 'A'.repeat(43) })).status).toBe(429);
    const through = await login('victim@staff.test', TEST_STAFF_PASSWORD, { unlock: token });
    expect(through.status).toBe(200);
    // The lock is gone for everyone, and the link is used up.
    expect((await login('victim@staff.test', TEST_STAFF_PASSWORD)).status).toBe(200);
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login('victim@staff.test', 'attacker-guess');
    expect((await login('victim@staff.test', TEST_STAFF_PASSWORD, { unlock: token })).status).toBe(429);
    const second = await unlockLink('victim@staff.test', before + 1);
    expect(second.token).not.toBe(token);
    expect((await login('victim@staff.test', TEST_STAFF_PASSWORD, { unlock: second.token })).status).toBe(200);
  });

  it('gives a link only 5 password tries, opens only its own member, and mails nobody for an unknown e-mail', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'five@staff.test', role: 'budtender', storeIds: [1] });
    await addStaff(db, { email: 'other@staff.test', role: 'budtender', storeIds: [1] });
    const before = t.mailer.sent.length;
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login('five@staff.test', 'attacker-guess');
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login('other@staff.test', 'attacker-guess');
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login('nobody-mail@staff.test', 'attacker-guess');
    const { token } = await unlockLink('five@staff.test', before);
    await unlockLink('other@staff.test', before);
    expect((await login('other@staff.test', TEST_STAFF_PASSWORD, { unlock: token })).status).toBe(429);
    // That try counted: of 12 parallel wrong passwords with the link, only its 4 tries left are judged.
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login('five@staff.test', `guess-${i}`, { unlock: token })));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(4);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(8);
    expect((await login('five@staff.test', TEST_STAFF_PASSWORD, { unlock: token })).status).toBe(429);
    expect(t.mailer.sent.slice(before).map((m) => m.to).sort()).toEqual(['five@staff.test', 'other@staff.test']);
  });

  it('does not mail a member locked again while the link mailed before outlasts the new lock; that link still works', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'nagged@staff.test', role: 'budtender', storeIds: [1] });
    const before = t.mailer.sent.length;
    const lockAgain = async () => {
      for (let i = 0; i < MAX_FAILED_LOGINS; i++) expect((await login('nagged@staff.test', 'attacker-guess')).status).toBe(401);
      expect((await login('nagged@staff.test', TEST_STAFF_PASSWORD)).status).toBe(429);
    };
    await lockAgain();
    const { token } = await unlockLink('nagged@staff.test', before);
    // Locked again as soon as each lock ends: the first link outlasts the next two locks, so no new mail.
    for (let i = 0; i < 2; i++) {
      t.clock.advance(15 * 60_000);
      await lockAgain();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(t.mailer.sent.slice(before).filter((m) => m.to === 'nagged@staff.test')).toHaveLength(1);
    expect((await login('nagged@staff.test', TEST_STAFF_PASSWORD, { unlock: token })).status).toBe(200);
    // The link is used up: the next lock mails a new one.
    await lockAgain();
    const next = await unlockLink('nagged@staff.test', before + 1);
    expect(next.token).not.toBe(token);
  });

  it('asks a member with two-step sign-in for the code through the lock too', async () => {
    const { db } = getDb();
    await addStaff(db, { email: 'totp-locked@staff.test', role: 'manager', storeIds: [1] });
    const secret = newTotpSecret('totp-locked@staff.test').secret;
    await db
      .updateTable('staff')
      .set({ totp_secret: secret, totp_enabled_at: t.clock.now.toISOString() })
      .where('email', '=', 'totp-locked@staff.test')
      .execute();
    const before = t.mailer.sent.length;
    // Right password, wrong codes: these count as failures and lock too.
    for (let i = 0; i < MAX_FAILED_LOGINS; i++)
      expect((await login('totp-locked@staff.test', TEST_STAFF_PASSWORD, { totp: '000000' === totpCode(secret, t.clock.now) ? '111111' : '000000' })).status).toBe(401);
    expect((await login('totp-locked@staff.test', TEST_STAFF_PASSWORD, { totp: totpCode(secret, t.clock.now) })).status).toBe(429);
    const { token } = await unlockLink('totp-locked@staff.test', before);
    const noCode = await login('totp-locked@staff.test', TEST_STAFF_PASSWORD, { unlock: token });
    expect(noCode.status).toBe(401);
    expect(noCode.body.errorCode).toBe('totp_required');
    t.clock.advance(30_000);
    const through = await login('totp-locked@staff.test', TEST_STAFF_PASSWORD, { unlock: token, totp: totpCode(secret, t.clock.now) });
    expect(through.status).toBe(200);
  });
});
