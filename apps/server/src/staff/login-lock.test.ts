/**
 * The staff login lock under parallel bursts, on SQLite and PostgreSQL (issue 26): at most five
 * tries per e-mail are ever judged before the lock, from forty addresses or one, and the right
 * password sent once the five tries are taken is refused like the rest.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { staffTestApp, type StaffTestApp } from './app-for-tests.ts';
import { LOGIN_MESSAGES } from './login.ts';
import { emailKey, MAX_FAILED_LOGINS } from './login-throttle.ts';
import { addStaff, TEST_STAFF_PASSWORD } from './testing.ts';

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
