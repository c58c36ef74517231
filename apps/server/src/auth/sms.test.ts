import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSms, OutboxSms, type SmsProvider } from './sms.ts';

describe('HttpSms (against a real HTTP server)', () => {
  const received: { method?: string; url?: string; contentType?: string; body: string }[] = [];
  let status = 200;
  let server: Server;
  let url: string;
  /** As the login code sender sees it: the SmsProvider interface (text and the code). */
  const gateway = (): SmsProvider => new HttpSms(url);
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method, url: req.url, contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms?key=abc`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('POSTs exactly {to, text} as JSON (the code is never sent as a separate field)', async () => {
    status = 200;
    await gateway().send('9165550101', 'Verdant Downtown: your login code is 123456.', '123456');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/sms?key=abc', contentType: 'application/json' });
    expect(JSON.parse(received[0].body)).toEqual({ to: '9165550101', text: 'Verdant Downtown: your login code is 123456.' });
  });

  it('rejects a non-2xx answer with its status', async () => {
    status = 500;
    await expect(gateway().send('9165550101', 'x', '000000')).rejects.toThrow('SMS gateway answered 500');
    status = 429;
    await expect(gateway().send('9165550101', 'x', '000000')).rejects.toThrow('SMS gateway answered 429');
  });
});

describe('OutboxSms', () => {
  it('keeps the last code per phone (any spelling finds it); logs it in demo mode only', async () => {
    const lines: string[] = [];
    const sms = new OutboxSms((m) => lines.push(m), true);
    await sms.send('+19165550101', 'a', '111111');
    await sms.send('+19165550101', 'b', '222222');
    expect(sms.lastCode('+19165550101')).toBe('222222');
    expect(sms.lastCode('(916) 555-0101')).toBe('222222');
    expect(sms.lastCode('+19165550102')).toBeUndefined();
    expect(lines.at(-1)).toContain('222222');
  });

  it('never writes a code to the log outside demo mode', async () => {
    const lines: string[] = [];
    const sms = new OutboxSms((m) => lines.push(m), false);
    await sms.send('+19165550101', 'Verdant: your login code is 345678.', '345678');
    expect(sms.lastCode('+19165550101')).toBe('345678');
    expect(lines).toEqual(['SMS outbox: a code for +1********01 was not delivered (SMS_PROVIDER=outbox)']);
  });
});
