/**
 * Registration proves the phone before an account exists (issue 10, account takeover), its limits,
 * one identity per phone number however it is spelled, and what happens to accounts made before
 * the proof was asked (users/proof.ts). Both databases.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { commerceApp } from '../../test-support/cart/testing.ts';
import { issueRefresh, signAccess } from '../auth/tokens.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { CODE_MESSAGES } from './login-codes.ts';
import { hashPassword } from './password-hash.ts';
import { PASSWORD_MESSAGES } from './password-routes.ts';
import { PROOF_MESSAGES } from './proof.ts';
import { CREATES_PER_IP_PER_HOUR, REGISTER_MESSAGES } from './register-routes.ts';

const HOST = 'downtown.localhost';
const form = (phone: string, email: string, extra: Record<string, unknown> = {}) => ({
  firstname: 'Ana',
  lastname: 'Reyes',
  email,
  phone,
  birthday: '1990-01-01',
  license_type: 'recreational',
  ...extra,
});

describeEachDatabase('registration proves the phone', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await commerceApp(getDb());
  });
  afterAll(async () => app?.close());

  let ipSeq = 0;
  const freshIp = () => `10.52.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
  const post = (url: string, payload: unknown, ip: string, token?: string) =>
    app
      .inject({ method: 'POST', url, remoteAddress: ip, headers: { host: HOST, ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: payload as any })
      .then((r) => ({ status: r.statusCode, body: r.json() }));
  const me = (token: string) => app.inject({ method: 'GET', url: '/api/user/me', headers: { host: HOST, authorization: `Bearer ${token}` } }).then((r) => r.json().result);
  const customerRows = (phone: string) => getDb().db.selectFrom('customers').selectAll().where('phone', '=', phone).execute();

  /** Log a phone in by SMS code (a new phone completes licence and birthday). */
  async function smsLogin(phone: string, ip = freshIp()) {
    const code = (await post('/api/user/login', { phone }, ip)).body.meta.demo_code;
    let body = (await post('/api/user/login', { phone, code }, ip)).body;
    if (body.result?.needs) body = (await post('/api/user/login', { phone, license_type: 'recreational', birthday: '1985-03-03', pendingToken: body.meta.pendingToken }, ip)).body;
    return body.meta as { token: string; refreshToken: string; customer_id: number };
  }

  it('creates nothing for a phone until its code is given; a stranger without the code gets no account', async () => {
    const ip = freshIp();
    const victim = '+19165558001';
    const sent = await post('/api/user/create', form('(916) 555-8001', 'stranger@example.com'), ip);
    expect(sent).toMatchObject({ status: 200, body: { code: 200, result: 'sent' } });
    expect(await customerRows(victim)).toEqual([]);
    // The code went to the phone (the outbox), not to the stranger; a guess is judged wrong.
    const real = app.accounts!.sms.lastCode!(victim)!;
    const guess = real === '123456' ? '654321' : '123456';
    expect((await post('/api/user/create', { ...form(victim, 'stranger@example.com'), code: guess }, ip)).body).toEqual({ code: 400, result: CODE_MESSAGES.codeWrong });
    expect(await customerRows(victim)).toEqual([]);

    // The phone's holder logs in by code later: a new account of their own, nothing of the stranger's.
    const owner = await smsLogin(victim);
    expect(await me(owner.token)).toMatchObject({ phone: victim, email: null, firstname: null });
  });

  it('makes the account with the form once the code is given, and logs it in', async () => {
    const ip = freshIp();
    const f = form('916-555-8002', 'mia.k@example.com', { firstname: 'Mia' });
    const code = (await post('/api/user/create', f, ip)).body.meta.demo_code;
    const made = await post('/api/user/create', { ...f, code }, ip);
    expect(made).toMatchObject({ status: 200, body: { result: 'ok' } });
    expect(made.body.meta.existing).toBeUndefined();
    expect(await me(made.body.meta.token)).toMatchObject({ phone: '+19165558002', email: 'mia.k@example.com', firstname: 'Mia' });
    const [row] = await customerRows('+19165558002');
    expect(row.phone_verified_at).not.toBeNull();
    // The code is used up: the same form and code again make nothing more.
    expect((await post('/api/user/create', { ...f, code }, ip)).body.result).toBe(CODE_MESSAGES.codeExpired);
  });

  it('answers step 1 the same for a registered and an unregistered phone; the proven holder of a registered one is logged into it unchanged', async () => {
    const owner = await smsLogin('+19165558003');
    const registered = await post('/api/user/create', form('9165558003', 'someone.else@example.com', { firstname: 'Eve' }), freshIp());
    const unregistered = await post('/api/user/create', form('9165558004', 'someone.new@example.com', { firstname: 'Eve' }), freshIp());
    const shape = (a: typeof registered) => ({ status: a.status, code: a.body.code, result: a.body.result, meta: Object.keys(a.body.meta ?? {}) });
    expect(shape(registered)).toEqual(shape(unregistered));
    expect(shape(registered)).toEqual({ status: 200, code: 200, result: 'sent', meta: ['demo_code'] });

    // Whoever gives the code holds the phone: they get its account as it is, the form is not applied.
    const code = app.accounts!.sms.lastCode!('+19165558003')!;
    const again = await post('/api/user/create', { ...form('9165558003', 'someone.else@example.com', { firstname: 'Eve' }), code }, freshIp());
    expect(again.body).toMatchObject({ code: 200, result: REGISTER_MESSAGES.existing, meta: { existing: true, customer_id: owner.customer_id } });
    expect(await me(again.body.meta.token)).toMatchObject({ id: owner.customer_id, email: null, firstname: null });
    expect(await customerRows('+19165558003')).toHaveLength(1);
  });

  it(`limits step 1 to ${CREATES_PER_IP_PER_HOUR} per client IP: 30 sent at once from one address`, async () => {
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        app.inject({ method: 'POST', url: '/api/user/create', remoteAddress: ip, headers: { host: HOST }, payload: form(`+1916555${8100 + i}`, `burst${i}@example.com`) }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(CREATES_PER_IP_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - CREATES_PER_IP_PER_HOUR);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused[0].json()).toEqual({ code: 429, result: REGISTER_MESSAGES.tooMany });
    // Every refusal says when to come back: at most the hour the limit counts.
    for (const r of refused) expect(r.headers['retry-after']).toBe('3600');
  });

  it('limits step 1 per phone, whatever the address and the spelling', async () => {
    const spellings = ['+1 (916) 642-7197', '1-916-6427197', '9166427197', '(916) 642 7197', '+19166427197'];
    for (const [i, phone] of spellings.entries()) expect((await post('/api/user/create', form(phone, `spell${i}@example.com`), freshIp())).status).toBe(200);
    expect((await post('/api/user/create', form('1 916 642 7197', 'spell9@example.com'), freshIp())).body).toEqual({ code: 429, result: REGISTER_MESSAGES.tooMany });
  });

  it('counts every spelling of a number against one code send limit, and logs all of them into one account', async () => {
    const ip = freshIp();
    const spellings = ['+1 (916) 642-7198', '1-916-6427198'];
    for (let i = 0; i < 5; i++) expect((await post('/api/user/login', { phone: spellings[i % 2] }, ip)).status).toBe(200);
    expect((await post('/api/user/login', { phone: spellings[0] }, freshIp())).status).toBe(429);
    expect((await post('/api/user/login', { phone: spellings[1] }, freshIp())).status).toBe(429);

    const a = await smsLogin('+1 (916) 555-0142');
    const b = await smsLogin('9165550142');
    expect(b.customer_id).toBe(a.customer_id);
    expect(await customerRows('+19165550142')).toHaveLength(1);
  });

  it('makes one account when the licence step of a new phone is sent twice at once', async () => {
    const ip = freshIp();
    const phone = '+19165558300';
    const code = (await post('/api/user/login', { phone }, ip)).body.meta.demo_code;
    const pendingToken = (await post('/api/user/login', { phone, code }, ip)).body.meta.pendingToken;
    const complete = () => post('/api/user/login', { phone, license_type: 'recreational', birthday: '1985-03-03', pendingToken }, ip);
    const answers = await Promise.all([complete(), complete(), complete()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.meta.customer_id)).size).toBe(1);
    expect(await customerRows(phone)).toHaveLength(1);
  });

  it('refuses what is not a phone number with the spec’s message', async () => {
    for (const phone of ['1234567890', '555', '+1 916 555 0120 555 0120', 'call me']) {
      expect((await post('/api/user/login', { phone }, freshIp())).body).toEqual({ code: 400, result: 'Please provide valid phone number' });
      expect((await post('/api/user/create', form(phone, 'np@example.com'), freshIp())).body).toEqual({ code: 400, result: 'Please provide valid phone number' });
    }
  });

  it('refuses password login to an account made before phones were proven; the first SMS proof drops what was set before it', async () => {
    // As the old /api/user/create left it: a stranger's e-mail and password on someone's phone, a session.
    const db = getDb().db;
    const at = new Date('2026-06-01T00:00:00Z').toISOString();
    const legacy = await db
      .insertInto('customers')
      .values({ store_id: 1, phone: '+19165558200', email: 'stranger.legacy@example.com', firstname: 'Stranger', lastname: 'Legacy', license_type: 'recreational', birthday: '1990-01-01', medcard_number: null, medcard_expiry: null, created_from: 'portal_online', password_hash: await hashPassword('stranger-pass'), created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const strangerSession = await issueRefresh(db, 1, legacy.id, new Date('2026-06-15T11:00:00Z'));
    // …and an access token of the stranger's, signed before the proof (as every token of such an account is).
    const strangerToken = await signAccess(app.accounts!.secret, { storeId: 1, customerId: legacy.id, licenseType: 'recreational', orderType: 'pickup', groupId: 0 }, app.accounts!.now());
    const meStatus = (token: string) => app.inject({ method: 'GET', url: '/api/user/me', headers: { host: HOST, authorization: `Bearer ${token}` } }).then((r) => r.statusCode);
    expect(await meStatus(strangerToken)).toBe(200);

    expect((await post('/api/user/login', { email: 'stranger.legacy@example.com', password: 'wrong-pass' }, freshIp())).body.result).toBe(PASSWORD_MESSAGES.loginFailed);
    expect((await post('/api/user/login', { email: 'stranger.legacy@example.com', password: 'stranger-pass' }, freshIp())).body).toEqual({ code: 400, result: PROOF_MESSAGES.phoneNotProven });

    // The phone's holder logs in by SMS code: the account is theirs now, the stranger's ways in are gone.
    const owner = await smsLogin('+19165558200');
    expect(owner.customer_id).toBe(legacy.id);
    expect(await me(owner.token)).toMatchObject({ email: null });
    const row = await db.selectFrom('customers').selectAll().where('id', '=', legacy.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ password_hash: null, email: null });
    expect(row.phone_verified_at).not.toBeNull();
    expect((await post('/api/user/refresh', { refreshToken: strangerSession.token }, freshIp())).status).toBe(401);
    // The stranger's open access token ends with the proof too (it is not left to run out).
    expect(await meStatus(strangerToken)).toBe(401);
    expect(await meStatus(owner.token)).toBe(200);
    expect((await post('/api/user/login', { email: 'stranger.legacy@example.com', password: 'stranger-pass' }, freshIp())).body.result).toBe(PASSWORD_MESSAGES.loginFailed);
    // The owner's own session works, and a later login keeps what the owner set since.
    await post('/api/user/me', { email: 'owner.legacy@example.com' }, freshIp(), owner.token);
    const later = await smsLogin('+19165558200');
    expect(await me(later.token)).toMatchObject({ email: 'owner.legacy@example.com' });
  });
});
