import { randomBytes, scryptSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_DATE, commerceApp } from '../../test-support/cart/testing.ts';
import { OutboxMailer, type Mailer } from '../mail/mailer.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { SCRYPT_PARAMS } from './password-hash.ts';
import { RESET_TTL_MS, resetLink } from './password-reset.ts';
import { PASSWORD_MESSAGES as M } from './password-routes.ts';

const HOST = 'downtown.localhost';
const TOO_SHORT = 'Password must have at least 8 letters';

describeEachDatabase('passwords', (getDb) => {
  let app: FastifyInstance;
  /** The app's clock: pinned, moved forward by the expiry test. */
  let now = REFERENCE_DATE;
  beforeAll(async () => {
    app = await commerceApp(getDb(), () => now);
  });
  afterAll(async () => app?.close());

  let ipSeq = 0;
  /** A client address of its own per test, so one test's rate-limit counters never touch another's. */
  const freshIp = () => `10.77.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown, opts: { token?: string; ip?: string; host?: string; headers?: Record<string, string> } = {}) =>
    app
      .inject({
        method,
        url,
        remoteAddress: opts.ip ?? '127.0.0.1',
        headers: { host: opts.host ?? HOST, ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
        payload: payload as any,
      })
      .then((r) => ({ status: r.statusCode, body: r.json() }));
  const outbox = () => app.accounts!.mailer as OutboxMailer;

  let phoneSeq = 0;
  /** A registered customer with an e-mail (and no password yet), with a session. */
  async function register(email: string) {
    const phone = `91655580${String(++phoneSeq).padStart(2, '0')}`;
    const form = { firstname: 'Ana', lastname: 'Reyes', email, phone, birthday: '1990-01-01', license_type: 'recreational' };
    // Registration proves the phone first: the form sends a code (the demo answers it), the form + code makes the account.
    const ip = freshIp();
    const sent = await call('POST', '/api/user/create', form, { ip });
    expect(sent.status).toBe(200);
    const res = await call('POST', '/api/user/create', { ...form, code: sent.body.meta.demo_code }, { ip });
    expect(res.status).toBe(200);
    return res.body.meta as { token: string; refreshToken: string; customer_id: number };
  }

  /** Ask for a reset mail and read the link out of the outbox. */
  async function requestReset(email: string, opts: { ip?: string; host?: string; headers?: Record<string, string> } = {}) {
    const res = await call('POST', '/api/user/reset-password', { email }, { ip: opts.ip ?? freshIp(), ...opts });
    expect(res).toEqual({ status: 200, body: { code: 200, result: M.resetSent } });
    const mail = outbox().lastTo(email);
    expect(mail).toBeDefined();
    const link = new URL(mail!.text.split('\n').find((l) => l.includes('/create-password?'))!);
    return { mail: mail!, link, token: link.searchParams.get('token')! };
  }

  const createPassword = (email: string, resetToken: string, newPassword: string) => call('POST', '/api/user/create-password', { email, newPassword, resetToken });
  const passwordLogin = (email: string, password: string, ip = freshIp()) => call('POST', '/api/user/login', { email, password }, { ip });

  it('mails a known customer a single-use link to /create-password on the store’s own host', async () => {
    const { customer_id } = await register('reset.known@example.com');
    const { mail, link, token } = await requestReset('Reset.Known@Example.com');
    expect(mail.to).toBe('reset.known@example.com');
    expect(mail.subject).toBe('Reset your Verdant Downtown password');
    expect(`${link.origin}${link.pathname}`).toBe('http://downtown.localhost:3000/create-password');
    expect(link.searchParams.get('email')).toBe('reset.known@example.com');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain('within 1 hour');
    expect(mail.html).toContain(`href="${link.href.replace(/&/g, '&#38;')}"`);
    // Only a hash is stored, expiring an hour after the request.
    const rows = await getDb().db.selectFrom('password_reset_tokens').selectAll().where('customer_id', '=', customer_id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(token);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]).toMatchObject({ store_id: 1, used_at: null, expires_at: new Date(REFERENCE_DATE.getTime() + RESET_TTL_MS).toISOString() });
  });

  it('answers the spec’s words for an unknown e-mail and sends nothing; a bad address is a 400 too', async () => {
    const before = outbox().sent.length;
    expect(await call('POST', '/api/user/reset-password', { email: 'nobody@example.com' }, { ip: freshIp() })).toEqual({
      status: 400,
      body: { code: 400, result: 'Error while sending reset password e-mail. Provided email does not exist.' },
    });
    expect((await call('POST', '/api/user/reset-password', { email: 'not-an-email' }, { ip: freshIp() })).status).toBe(400);
    expect((await call('POST', '/api/user/reset-password', {}, { ip: freshIp() })).body.result).toMatch(/Field is required/);
    expect(outbox().sent.length).toBe(before);
  });

  it('links to the store’s configured URL, not to a forged Host or X-Forwarded-Host', async () => {
    await register('reset.host@example.com');
    // "downtown.evil.example" resolves to the downtown store by its first label; the link must not follow it.
    const forged = await requestReset('reset.host@example.com', { host: 'downtown.evil.example' });
    expect(forged.link.origin).toBe('http://downtown.localhost:3000');
    const proxied = await requestReset('reset.host@example.com', { headers: { 'x-forwarded-host': 'downtown.evil.example' } });
    expect(proxied.link.origin).toBe('http://downtown.localhost:3000');
    // Customers are per store: the same address is unknown to another store.
    expect((await call('POST', '/api/user/reset-password', { email: 'reset.host@example.com' }, { host: 'eastside.localhost', ip: freshIp() })).body.result).toBe(M.resetUnknownEmail);
  });

  it('sets the password with a good token, once; wrong, reused and superseded tokens are refused', async () => {
    await register('create.good@example.com');
    const first = await requestReset('create.good@example.com');
    const second = await requestReset('create.good@example.com');
    // A newer request voids the older link.
    expect(await createPassword('create.good@example.com', first.token, 'new-password-1')).toEqual({ status: 400, body: { code: 400, result: M.resetLinkInvalid } });
    expect((await createPassword('create.good@example.com', randomBytes(32).toString('base64url'), 'new-password-1')).body.result).toBe(M.resetLinkInvalid);
    expect((await createPassword('create.good@example.com', second.token.slice(0, -1), 'new-password-1')).body.result).toBe(M.resetLinkInvalid);
    expect(await createPassword('create.good@example.com', second.token, 'new-password-1')).toEqual({ status: 200, body: { code: 200, result: 'Password has successfully been changed' } });
    expect((await passwordLogin('create.good@example.com', 'new-password-1')).status).toBe(200);
    // Single use.
    expect(await createPassword('create.good@example.com', second.token, 'new-password-2')).toEqual({ status: 400, body: { code: 400, result: M.resetLinkInvalid } });
    expect((await passwordLogin('create.good@example.com', 'new-password-2')).status).toBe(400);
  });

  it('refuses another customer’s e-mail with a valid token', async () => {
    await register('token.owner@example.com');
    await register('token.other@example.com');
    const { token } = await requestReset('token.owner@example.com');
    expect((await createPassword('token.other@example.com', token, 'new-password-1')).body.result).toBe(M.resetLinkInvalid);
    expect((await createPassword('nobody.at.all@example.com', token, 'new-password-1')).body.result).toBe(M.resetLinkInvalid);
    expect((await createPassword('token.owner@example.com', token, 'new-password-1')).status).toBe(200);
  });

  it('refuses a token after its hour', async () => {
    await register('create.expired@example.com');
    const { token } = await requestReset('create.expired@example.com');
    try {
      now = new Date(REFERENCE_DATE.getTime() + RESET_TTL_MS);
      expect(await createPassword('create.expired@example.com', token, 'new-password-1')).toEqual({ status: 400, body: { code: 400, result: M.resetLinkExpired } });
      now = new Date(REFERENCE_DATE.getTime() + RESET_TTL_MS - 1000);
      expect((await createPassword('create.expired@example.com', token, 'new-password-1')).status).toBe(200);
    } finally {
      now = REFERENCE_DATE;
    }
  });

  it('asks for at least 8 letters, without using up the token', async () => {
    await register('create.short@example.com');
    const { token } = await requestReset('create.short@example.com');
    expect(await createPassword('create.short@example.com', token, 'short12')).toEqual({ status: 400, body: { code: 400, result: TOO_SHORT } });
    expect((await createPassword('create.short@example.com', token, '')).body.result).toBe('Field is required');
    expect((await call('POST', '/api/user/create-password', { email: 'create.short@example.com', resetToken: token })).body.result).toBe('Field is required');
    expect((await call('POST', '/api/user/create-password', { email: 'create.short@example.com', newPassword: 'long-enough' })).body.result).toBe(M.resetLinkInvalid);
    // Eight characters of any kind are enough (spaces count, nothing is trimmed).
    expect((await createPassword('create.short@example.com', token, ' 1234567')).status).toBe(200);
    expect((await passwordLogin('create.short@example.com', ' 1234567')).status).toBe(200);
    expect((await passwordLogin('create.short@example.com', '1234567')).status).toBe(400);
  });

  it('ends every session of the customer when the password is created from a link', async () => {
    const a = await register('revoke.me@example.com');
    const b = await passwordLoginAfterReset('revoke.me@example.com', 'first-password');
    const other = await register('revoke.not.me@example.com');
    const { token } = await requestReset('revoke.me@example.com');
    expect((await createPassword('revoke.me@example.com', token, 'second-password')).status).toBe(200);
    for (const refreshToken of [a.refreshToken, b.refreshToken]) {
      expect(await call('POST', '/api/user/refresh', { refreshToken })).toMatchObject({ status: 401, body: { code: 401 } });
    }
    // Another customer's session lives on, and the new password opens a new session.
    expect((await call('POST', '/api/user/refresh', { refreshToken: other.refreshToken })).status).toBe(200);
    const fresh = await passwordLogin('revoke.me@example.com', 'second-password');
    expect((await call('POST', '/api/user/refresh', { refreshToken: fresh.body.meta.refreshToken })).status).toBe(200);
  });

  /** A new customer who set a password through the reset link, logged in with it. */
  async function customerWithPassword(email: string, password: string) {
    await register(email);
    return passwordLoginAfterReset(email, password);
  }

  /** Give a registered customer a password through the reset link, then log in with it. */
  async function passwordLoginAfterReset(email: string, password: string) {
    const { token } = await requestReset(email);
    expect((await createPassword(email, token, password)).status).toBe(200);
    const res = await passwordLogin(email, password);
    expect(res.status).toBe(200);
    return res.body.meta as { token: string; refreshToken: string; customer_id: number };
  }

  it('logs in by e-mail and password with the same tokens answer as the phone code', async () => {
    const reg = await register('login.pw@example.com');
    const s = await passwordLoginAfterReset('login.pw@example.com', 'open-sesame-1');
    expect(s.customer_id).toBe(reg.customer_id);
    expect(s.token.split('.')).toHaveLength(3);
    expect(s.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await call('GET', '/api/user/me', undefined, { token: s.token })).body.result).toMatchObject({ id: reg.customer_id, email: 'login.pw@example.com' });
    const upper = await call('POST', '/api/user/login', { email: 'LOGIN.PW@example.com', password: 'open-sesame-1', order_type: 'delivery', storeId: 1 }, { ip: freshIp() });
    expect(upper.status).toBe(200);
    expect((await call('POST', '/api/user/login', { email: 'login.pw@example.com', password: 'open-sesame-1', storeId: 2 }, { ip: freshIp() })).status).toBe(400);
  });

  it('answers one message for a wrong password, an unknown e-mail and an account without a password', async () => {
    await customerWithPassword('login.wrong@example.com', 'right-password');
    await register('login.nopw@example.com');
    const wrong = { status: 400, body: { code: 400, result: 'The e-mail address or password is incorrect.' } };
    expect(await passwordLogin('login.wrong@example.com', 'wrong-password')).toEqual(wrong);
    expect(await passwordLogin('login.unknown@example.com', 'right-password')).toEqual(wrong);
    expect(await passwordLogin('login.nopw@example.com', 'any-password')).toEqual(wrong);
    expect((await passwordLogin('login.wrong@example.com', '')).body.result).toBe('Field is required');
  });

  it('upgrades a hash made with older scrypt parameters at the next login', async () => {
    const { customer_id } = await register('login.rehash@example.com');
    const salt = randomBytes(16);
    const old = ['scrypt', 2 ** 14, 8, 1, salt.toString('base64url'), scryptSync('old-params-pw', salt, 64, { N: 2 ** 14, r: 8, p: 1 }).toString('base64url')].join('$');
    await getDb().db.updateTable('customers').set({ password_hash: old }).where('id', '=', customer_id).execute();
    expect((await passwordLogin('login.rehash@example.com', 'old-params-pw')).status).toBe(200);
    const row = await getDb().db.selectFrom('customers').select('password_hash').where('id', '=', customer_id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(new RegExp(`^scrypt\\$${SCRYPT_PARAMS.N}\\$`));
    expect((await passwordLogin('login.rehash@example.com', 'old-params-pw')).status).toBe(200);
  });

  it('changes the password with the current one; refuses a wrong one clearly and needs a customer token', async () => {
    const s = await customerWithPassword('change.pw@example.com', 'current-password');
    const change = (body: unknown, token?: string) => call('POST', '/api/user/change-password', body, { token });
    expect(await change({ currentPassword: 'current-password', newPassword: 'changed-password' })).toMatchObject({ status: 401, body: { code: 401, result: 'You need to be logged in to see this page' } });
    const guest = await call('POST', '/api/user/login-guest', { license_type: 'recreational' });
    expect((await change({ currentPassword: 'current-password', newPassword: 'changed-password' }, guest.body.meta.token)).status).toBe(401);
    expect((await change({ currentPassword: 'current-password', newPassword: 'changed-password' }, 'not.a.jwt')).status).toBe(401);
    // A wrong current password is a 400, never a 401 (the browser would take a 401 for an expired session).
    expect(await change({ currentPassword: 'not-the-password', newPassword: 'changed-password' }, s.token)).toEqual({ status: 400, body: { code: 400, result: 'The current password is incorrect.' } });
    expect(await change({ currentPassword: 'current-password', newPassword: 'short' }, s.token)).toEqual({ status: 400, body: { code: 400, result: TOO_SHORT } });
    expect((await change({ newPassword: 'changed-password' }, s.token)).body.result).toBe('Field is required');
    expect(await change({ currentPassword: 'current-password', newPassword: 'changed-password' }, s.token)).toEqual({ status: 200, body: { code: 200, result: 'Password has successfully been changed' } });
    expect((await passwordLogin('change.pw@example.com', 'current-password')).status).toBe(400);
    expect((await passwordLogin('change.pw@example.com', 'changed-password')).status).toBe(200);
    // The session that changed it goes on.
    expect((await call('POST', '/api/user/refresh', { refreshToken: s.refreshToken })).status).toBe(200);
  });

  it('tells a customer without a password to create one through the reset link', async () => {
    const s = await register('change.nopw@example.com');
    expect(await call('POST', '/api/user/change-password', { currentPassword: 'whatever-1', newPassword: 'changed-password' }, { token: s.token })).toEqual({
      status: 400,
      body: { code: 400, result: M.noPasswordYet },
    });
  });

  it('limits reset requests per client IP (10/hour), known or unknown e-mail', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await call('POST', '/api/user/reset-password', { email: `probe${i}@example.com` }, { ip })).status).toBe(400);
    expect(await call('POST', '/api/user/reset-password', { email: 'probe10@example.com' }, { ip })).toEqual({ status: 429, body: { code: 429, result: M.tooManyResets } });
    expect((await call('POST', '/api/user/reset-password', { email: 'probe10@example.com' }, { ip: freshIp() })).status).toBe(400);
  });

  it('limits reset mails per address (5/hour), whatever the IP', async () => {
    await register('reset.flood@example.com');
    for (let i = 0; i < 5; i++) await requestReset('reset.flood@example.com');
    const sent = outbox().sent.length;
    expect((await call('POST', '/api/user/reset-password', { email: 'reset.flood@example.com' }, { ip: freshIp() })).status).toBe(429);
    expect(outbox().sent.length).toBe(sent);
  });

  it('limits password logins per e-mail (10/hour): even the right password waits', async () => {
    await customerWithPassword('login.limit@example.com', 'right-password');
    // One success above; nine wrong tries from changing IPs fill the window.
    for (let i = 0; i < 9; i++) expect((await passwordLogin('login.limit@example.com', `wrong-${i}-password`)).status).toBe(400);
    expect(await passwordLogin('login.limit@example.com', 'right-password')).toEqual({ status: 429, body: { code: 429, result: M.tooManyLogins } });
  });

  it('limits password logins per client IP (20/hour), whatever the e-mails', async () => {
    const ip = freshIp();
    // In parallel: each attempt costs a full scrypt (unknown e-mails too), the thread pool shares them.
    const sprayed = await Promise.all(Array.from({ length: 20 }, (_, i) => passwordLogin(`spray${i}@example.com`, 'Summer2026!', ip)));
    expect(sprayed.map((r) => r.status)).toEqual(Array(20).fill(400));
    expect(await passwordLogin('spray20@example.com', 'Summer2026!', ip)).toEqual({ status: 429, body: { code: 429, result: M.tooManyLogins } });
  });

  it('limits change-password attempts per customer (10/hour)', async () => {
    const s = await customerWithPassword('change.limit@example.com', 'current-password');
    for (let i = 0; i < 10; i++) {
      expect((await call('POST', '/api/user/change-password', { currentPassword: `guess-${i}-pw`, newPassword: 'changed-password' }, { token: s.token })).status).toBe(400);
    }
    expect(await call('POST', '/api/user/change-password', { currentPassword: 'current-password', newPassword: 'changed-password' }, { token: s.token })).toEqual({
      status: 429,
      body: { code: 429, result: M.tooManyChanges },
    });
  });

  it('answers 502 when the mail cannot be sent, and that link never works', async () => {
    await register('reset.mailfail@example.com');
    const accounts = app.accounts!;
    const real = accounts.mailer;
    let captured = '';
    const failing: Mailer = {
      async send(m) {
        captured = m.text;
        throw new Error('Mail gateway answered 503');
      },
    };
    accounts.mailer = failing;
    try {
      expect(await call('POST', '/api/user/reset-password', { email: 'reset.mailfail@example.com' }, { ip: freshIp() })).toEqual({
        status: 502,
        body: { code: 502, result: M.resetMailFailed },
      });
    } finally {
      accounts.mailer = real;
    }
    const token = new URL(captured.split('\n').find((l) => l.includes('/create-password?'))!).searchParams.get('token')!;
    expect((await createPassword('reset.mailfail@example.com', token, 'new-password-1')).body.result).toBe(M.resetLinkInvalid);
  });
});

describe('reset link', () => {
  const store = { url: 'https://eastside.example.com', storeCode: 'eastside', appendStoreCode: false };
  it('keeps the store-code prefix a store is addressed by', () => {
    expect(resetLink(store, '', 'a@b.co', 'T')).toBe('https://eastside.example.com/create-password?email=a%40b.co&token=T');
    expect(resetLink(store, '/eastside', 'a@b.co', 'T')).toBe('https://eastside.example.com/eastside/create-password?email=a%40b.co&token=T');
    expect(resetLink({ ...store, appendStoreCode: true }, '', 'a@b.co', 'T')).toBe('https://eastside.example.com/eastside/create-password?email=a%40b.co&token=T');
    expect(resetLink({ ...store, url: 'https://shop.example.com/eastside/', appendStoreCode: true }, '', 'a@b.co', 'T')).toBe(
      'https://shop.example.com/eastside/create-password?email=a%40b.co&token=T',
    );
  });
});
