/**
 * The newsletter tells and changes a subscription only for the customer's own session or a signed
 * link mailed to the address; an anonymous caller learns nothing (issue 10). Both databases.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signNewsletterLink } from '../auth/tokens.ts';
import { REFERENCE_DATE, commerceApp } from '../../test-support/cart/testing.ts';
import type { OutboxMailer } from '../mail/mailer.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { ANONYMOUS_SUBSCRIBES_PER_IP_PER_HOUR, NEWSLETTER_MESSAGES } from './routes.ts';

const HOST = 'downtown.localhost';
const LOGIN_REQUIRED = 'You need to be logged in to see this page';

describeEachDatabase('newsletter access', (getDb) => {
  let app: FastifyInstance;
  let now = REFERENCE_DATE;
  beforeAll(async () => {
    app = await commerceApp(getDb(), () => now);
  });
  afterAll(async () => app?.close());

  let ipSeq = 0;
  const freshIp = () => `10.83.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, opts: { token?: string; ip?: string } = {}) =>
    app
      .inject({ method, url, remoteAddress: opts.ip ?? freshIp(), headers: { host: HOST, ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) }, payload: payload as any })
      .then((r) => ({ status: r.statusCode, body: r.json() }));
  const subscribed = async (email: string) =>
    (await getDb().db.selectFrom('newsletter_subscribers').select('subscribed').where('store_id', '=', 1).where('email', '=', email).executeTakeFirst())?.subscribed ?? null;

  /** A customer with an e-mail, logged in by SMS code. */
  async function customer(phone: string, email: string) {
    const ip = freshIp();
    const code = (await call('POST', '/api/user/login', { phone }, { ip })).body.meta.demo_code;
    const pending = (await call('POST', '/api/user/login', { phone, code }, { ip })).body.meta.pendingToken;
    const { token } = (await call('POST', '/api/user/login', { phone, license_type: 'recreational', birthday: '1990-01-01', pendingToken: pending }, { ip })).body.meta;
    expect((await call('POST', '/api/user/me', { email }, { token })).status).toBe(200);
    return token as string;
  }

  it('tells an anonymous caller nothing and lets it unsubscribe nobody', async () => {
    const victim = 'victim.news@example.com';
    const token = await customer('+19165556001', victim);
    await call('POST', '/api/newsletter', {}, { token });
    expect(await subscribed(victim)).toBe(1);

    const read = await call('GET', `/api/newsletter?email=${victim}`);
    const readUnknown = await call('GET', '/api/newsletter?email=nobody.news@example.com');
    expect(read).toEqual({ status: 401, body: { code: 401, result: LOGIN_REQUIRED } });
    expect(readUnknown).toEqual(read);
    expect(await call('DELETE', '/api/newsletter', { email: victim })).toEqual({ status: 401, body: { code: 401, result: LOGIN_REQUIRED } });
    expect(await subscribed(victim)).toBe(1);
    // A guest session is anonymous too.
    const guest = (await call('POST', '/api/user/login-guest', { license_type: 'recreational' })).body.meta.token;
    expect((await call('GET', `/api/newsletter?email=${victim}`, undefined, { token: guest })).status).toBe(401);
    expect((await call('DELETE', '/api/newsletter', { email: victim }, { token: guest })).status).toBe(401);
    expect(await subscribed(victim)).toBe(1);
  });

  it('lets a customer read and change only their own e-mail’s subscription', async () => {
    const a = await customer('+19165556002', 'a.news@example.com');
    await customer('+19165556003', 'b.news@example.com');
    expect((await call('GET', '/api/newsletter', undefined, { token: a })).body.result).toEqual({ isSubscribed: false, email: 'a.news@example.com' });
    expect((await call('POST', '/api/newsletter', { email: 'A.News@example.com' }, { token: a })).body.result).toEqual({ isSubscribed: true, skipped: false });
    expect(await call('GET', '/api/newsletter?email=b.news@example.com', undefined, { token: a })).toEqual({ status: 403, body: { code: 403, result: NEWSLETTER_MESSAGES.notYours } });
    expect((await call('POST', '/api/newsletter', { email: 'b.news@example.com' }, { token: a })).status).toBe(403);
    expect((await call('DELETE', '/api/newsletter', { email: 'b.news@example.com' }, { token: a })).status).toBe(403);
    expect(await subscribed('b.news@example.com')).toBeNull();
    expect((await call('DELETE', '/api/newsletter', undefined, { token: a })).body.result).toEqual({ isSubscribed: false, skipped: false });
  });

  it('accepts an anonymous subscribe with one answer whatever the state, and mails the address its unsubscribe link', async () => {
    const email = 'anon.news@example.com';
    const first = await call('POST', '/api/newsletter', { email });
    const again = await call('POST', '/api/newsletter', { email });
    expect(first).toEqual({ status: 200, body: { code: 200, result: { accepted: true } } });
    expect(again).toEqual(first);
    expect(await subscribed(email)).toBe(1);

    // The mail (sent once, for the new subscription) carries a signed link to the storefront page.
    const outbox = app.accounts!.mailer as OutboxMailer;
    await expect.poll(() => outbox.lastTo(email)).toBeDefined();
    expect(outbox.sent.filter((m) => m.to === email)).toHaveLength(1);
    const link = new URL(outbox.lastTo(email)!.text.split('\n').find((l) => l.includes('/newsletter?'))!);
    expect(`${link.origin}${link.pathname}`).toBe('http://downtown.localhost:3000/newsletter');
    const linkToken = link.searchParams.get('linkToken')!;

    // The link reads and changes that address's subscription, and no other's.
    expect((await call('GET', `/api/newsletter?linkToken=${encodeURIComponent(linkToken)}`)).body.result).toEqual({ isSubscribed: true, email });
    expect((await call('DELETE', '/api/newsletter', { email: 'victim.news@example.com', linkToken })).status).toBe(403);
    expect((await call('DELETE', '/api/newsletter', { linkToken })).body.result).toEqual({ isSubscribed: false, skipped: false });
    expect(await subscribed(email)).toBe(0);
    expect((await call('POST', '/api/newsletter', { linkToken })).body.result).toEqual({ isSubscribed: true, skipped: false });
  });

  it('refuses a forged, another store’s or an expired link', async () => {
    const email = 'link.news@example.com';
    const secret = app.accounts!.secret;
    const good = await signNewsletterLink(secret, 1, email, REFERENCE_DATE);
    const forged = await signNewsletterLink(new TextEncoder().encode('x'.repeat(32)), 1, email, REFERENCE_DATE);
    const otherStore = await signNewsletterLink(secret, 2, email, REFERENCE_DATE);
    const refused = { status: 400, body: { code: 400, result: NEWSLETTER_MESSAGES.linkInvalid } };
    expect(await call('GET', `/api/newsletter?linkToken=${forged}`)).toEqual(refused);
    expect(await call('GET', `/api/newsletter?linkToken=${otherStore}`)).toEqual(refused);
    expect(await call('DELETE', '/api/newsletter', { linkToken: `${good}x` })).toEqual(refused);
    expect((await call('GET', `/api/newsletter?linkToken=${good}`)).status).toBe(200);
    now = new Date(REFERENCE_DATE.getTime() + 61 * 24 * 60 * 60 * 1000);
    try {
      expect(await call('GET', `/api/newsletter?linkToken=${good}`)).toEqual(refused);
    } finally {
      now = REFERENCE_DATE;
    }
  });

  it(`limits anonymous subscribes to ${ANONYMOUS_SUBSCRIBES_PER_IP_PER_HOUR} per client IP`, async () => {
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        app.inject({ method: 'POST', url: '/api/newsletter', remoteAddress: ip, headers: { host: HOST }, payload: { email: `flood${i}@example.com` } }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(ANONYMOUS_SUBSCRIBES_PER_IP_PER_HOUR);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(15 - ANONYMOUS_SUBSCRIBES_PER_IP_PER_HOUR);
    // Every refusal is the envelope and says when to come back: at most the hour the limit counts.
    for (const r of refused) {
      expect(r.json()).toEqual({ code: 429, result: NEWSLETTER_MESSAGES.tooMany });
      expect(r.headers['retry-after']).toBe('3600');
    }
  });
});
