/**
 * The pure parts of webhooks out: the Standard Webhooks retry schedule with its jitter,
 * Retry-After in both forms, secrets, signatures (verified with `standardwebhooks`), and which
 * receiver URLs are refused (production keeps receivers off loopback and private networks).
 */
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { MAX_RETRY_AFTER_MS, nextRetryDelay, parseRetryAfter, STANDARD_RETRY_SCHEDULE_MS } from './schedule.ts';
import { activeSecrets, newWebhookSecret, signedHeaders } from './signing.ts';
import { isPrivateAddress, urlPolicyFromEnv, webhookUrlProblem } from './url-policy.ts';

describe('retry schedule', () => {
  it('is the Standard Webhooks schedule: ten attempts over about three days', () => {
    expect(STANDARD_RETRY_SCHEDULE_MS.map((ms) => ms / 1000)).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    const total = STANDARD_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    expect(total / 86_400_000).toBeCloseTo(3.15, 2);
  });

  it('spreads each delay by ±10 % and ends after the last slot', () => {
    expect(nextRetryDelay(1, STANDARD_RETRY_SCHEDULE_MS, () => 0)).toBe(4500);
    expect(nextRetryDelay(1, STANDARD_RETRY_SCHEDULE_MS, () => 0.5)).toBe(5000);
    expect(nextRetryDelay(1, STANDARD_RETRY_SCHEDULE_MS, () => 0.999999)).toBe(5500);
    expect(nextRetryDelay(9, STANDARD_RETRY_SCHEDULE_MS, () => 0.5)).toBe(86_400_000);
    expect(nextRetryDelay(10, STANDARD_RETRY_SCHEDULE_MS)).toBeNull();
    expect(nextRetryDelay(1, [])).toBeNull();
  });

  it('reads Retry-After as seconds or an HTTP date, clamped', () => {
    const now = new Date('2026-06-15T12:00:00.000Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Mon, 15 Jun 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 15 Jun 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('999999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('signing', () => {
  it('makes whsec_ secrets of 24 random bytes', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('signs so standardwebhooks verifies, with one signature per active secret', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const now = new Date();
    const endpoint = { secret: current, previous_secret: previous, previous_secret_until: new Date(now.getTime() + 1000).toISOString() };
    expect(activeSecrets(endpoint, now)).toEqual([current, previous]);
    expect(activeSecrets({ ...endpoint, previous_secret_until: new Date(now.getTime() - 1).toISOString() }, now)).toEqual([current]);
    const body = '{"type":"order.created","timestamp":"2026-06-15T12:00:00.000Z","data":{}}';
    const headers = signedHeaders(activeSecrets(endpoint, now), 'evt_abc', now, body);
    expect(headers['webhook-id']).toBe('evt_abc');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow(/No matching signature/);
    expect(() => new Webhook(current).verify(`${body} `, { ...headers })).toThrow(/No matching signature/);
  });
});

describe('receiver URLs', () => {
  const production = { refusePrivate: true };

  it('knows internal addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::6810:84e5', '172.32.0.1']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('takes http(s) URLs without credentials', async () => {
    const open = { refusePrivate: false };
    expect(await webhookUrlProblem('http://127.0.0.1:9000/hooks', open)).toBeNull();
    expect(await webhookUrlProblem('ftp://example.com/x', open)).toMatch(/https:\/\/ or http:\/\//);
    expect(await webhookUrlProblem('not a url', open)).toMatch(/full URL/);
    expect(await webhookUrlProblem('https://user:pw@example.com/x', open)).toMatch(/user name or password/);
  });

  it('refuses loopback and private receivers in production, by address and by name', async () => {
    for (const url of [
      'http://127.0.0.1:9000/',
      'https://10.0.0.8/x',
      'http://[::1]/',
      'http://localhost:8080/',
      'http://shop.localhost/',
      'http://169.254.169.254/latest',
    ]) {
      expect(await webhookUrlProblem(url, production), url).toMatch(/private network/);
    }
    expect(await webhookUrlProblem('http://localhost./hooks', production)).toMatch(/private network/);
    expect(await webhookUrlProblem('https://93.184.216.34/hooks', production)).toBeNull();
    // A name is judged by every address it resolves to.
    const resolvingTo = (addresses: string[]) => ({ refusePrivate: true, resolve: async () => addresses });
    expect(await webhookUrlProblem('https://hooks.example.com/x', resolvingTo(['93.184.216.34', '10.0.0.5']))).toMatch(/private network/);
    expect(await webhookUrlProblem('https://hooks.example.com/x', resolvingTo(['93.184.216.34']))).toBeNull();
    expect(await webhookUrlProblem('https://hooks.example.com/x', resolvingTo([]))).toMatch(/private network/);
    const failing = { refusePrivate: true, resolve: async () => Promise.reject(new Error('ENOTFOUND')) };
    expect(await webhookUrlProblem('https://nowhere.example/x', failing)).toBe('The host nowhere.example could not be found.');
  });

  it('lets WEBHOOK_ALLOW_PRIVATE=1 lift the production rule, and never applies it outside production', () => {
    expect(urlPolicyFromEnv(true, {})).toEqual({ refusePrivate: true });
    expect(urlPolicyFromEnv(true, { WEBHOOK_ALLOW_PRIVATE: '1' })).toEqual({ refusePrivate: false });
    expect(urlPolicyFromEnv(false, {})).toEqual({ refusePrivate: false });
  });
});
