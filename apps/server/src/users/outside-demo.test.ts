/**
 * The server outside demo mode with the default `outbox` SMS provider (both databases), its log
 * captured: one warning at start that SMS is not delivered, no code ever in the log, and the first
 * registration step answers a registered and an unregistered phone byte for byte the same.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { REFERENCE_DATE, registry } from '../../test-support/cart/testing.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';

const HOST = 'downtown.localhost';

describeEachDatabase('outside demo mode (outbox SMS)', (getDb) => {
  let app: FastifyInstance;
  const lines: { level: number; msg: string }[] = [];
  beforeAll(async () => {
    const { db, dataDir } = getDb();
    await seedDemo(db, readStoresFile(DEMO_STORES_FILE), { dataDir, referenceDate: REFERENCE_DATE });
    app = await buildApp({
      config: { dataDir, demoMode: false, production: true, logLevel: 'info' },
      registry,
      db,
      // The real logger (pino), written to a stream the test reads.
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
      clock: () => REFERENCE_DATE,
    });
  });
  afterAll(async () => app?.close());

  const post = (url: string, payload: unknown, ip: string) =>
    app.inject({ method: 'POST', url, remoteAddress: ip, headers: { host: HOST }, payload: payload as any }).then((r) => ({ status: r.statusCode, body: r.body }));
  const logText = () => lines.map((l) => JSON.stringify(l)).join('\n');

  it('warns once at start that SMS is not delivered', () => {
    const warnings = lines.filter((l) => l.level === 40 && /SMS_PROVIDER is outbox/.test(l.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/not delivered/);
  });

  it('never logs a login or registration code, and never answers one', async () => {
    const phone = '+19165559001';
    const sent = await post('/api/user/login', { phone }, '10.71.0.1');
    expect(JSON.parse(sent.body)).toEqual({ code: 200, result: 'sent' });
    const code = app.accounts!.sms.lastCode!(phone)!;
    expect(code).toMatch(/^\d{6}$/);
    const form = { firstname: 'Ana', lastname: 'Reyes', email: 'nodemo@example.com', phone: '9165559002', birthday: '1990-01-01', license_type: 'recreational' };
    expect(JSON.parse((await post('/api/user/create', form, '10.71.0.2')).body)).toEqual({ code: 200, result: 'sent' });
    const regCode = app.accounts!.sms.lastCode!('+19165559002')!;
    expect(logText()).toContain('SMS outbox: a code for +1********01 was not delivered');
    // As a number of its own (not inside a timestamp or a response time, which may hold any 6 digits).
    const alone = (c: string) => new RegExp(`(?<![\\d.])${c}(?!\\d)`);
    expect(logText()).not.toMatch(alone(code));
    expect(logText()).not.toMatch(alone(regCode));
    // The code works for the phone's holder (who would have received it).
    expect(JSON.parse((await post('/api/user/create', { ...form, code: regCode }, '10.71.0.2')).body)).toMatchObject({ code: 200, meta: { token: expect.any(String) } });
  });

  it('answers the first registration step the same, byte for byte, for a registered and an unregistered phone', async () => {
    const registered = '+19165559002'; // registered by the test above
    const form = (phone: string, email: string) => ({ firstname: 'Eve', lastname: 'Stone', email, phone, birthday: '1990-01-01', license_type: 'recreational' });
    const a = await post('/api/user/create', form(registered, 'eve.a@example.com'), '10.71.0.3');
    const b = await post('/api/user/create', form('+19165559003', 'eve.b@example.com'), '10.71.0.4');
    expect(a).toEqual(b);
    expect(a).toEqual({ status: 200, body: '{"code":200,"result":"sent"}' });
  });
});
