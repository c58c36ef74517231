import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMailer, HttpMailer, OutboxMailer } from './mailer.ts';

interface Received {
  method: string;
  contentType: string | undefined;
  body: string;
}

/** A real HTTP gateway on an ephemeral port: records each request and answers `status`. */
async function gateway() {
  const received: Received[] = [];
  let status = 202;
  let answer = '{"queued":true}';
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status, { 'content-type': 'application/json' }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
  return {
    url,
    received,
    answer(next: number, body = '') {
      status = next;
      answer = body;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('HttpMailer (against a real HTTP server)', () => {
  let gw: Awaited<ReturnType<typeof gateway>>;
  beforeAll(async () => {
    gw = await gateway();
  });
  afterAll(async () => gw.close());
  beforeEach(() => {
    gw.received.length = 0;
    gw.answer(202, '{"queued":true}');
  });

  it('POSTs {to, subject, text, html} as JSON', async () => {
    await new HttpMailer(gw.url).send({ to: 'ana@example.com', subject: 'Reset your password', text: 'Open https://x/y', html: '<p>Open</p>' });
    expect(gw.received).toHaveLength(1);
    expect(gw.received[0].method).toBe('POST');
    expect(gw.received[0].contentType).toBe('application/json');
    expect(JSON.parse(gw.received[0].body)).toEqual({ to: 'ana@example.com', subject: 'Reset your password', text: 'Open https://x/y', html: '<p>Open</p>' });
  });

  it('issue 30: answers the gateway\'s id from a JSON {id} (string or number); none from other answers', async () => {
    gw.answer(200, '{"id":"msg_81"}');
    expect(await new HttpMailer(gw.url).send({ to: 'b@example.com', subject: 'S', text: 'T' })).toEqual({ id: 'msg_81' });
    gw.answer(200, '{"id":4711}');
    expect(await new HttpMailer(gw.url).send({ to: 'b@example.com', subject: 'S', text: 'T' })).toEqual({ id: '4711' });
    for (const body of ['', 'queued', '{"queued":true}', '{"id":""}', `{"id":"${'x'.repeat(201)}"}`, '{"id":{"a":1}}']) {
      gw.answer(202, body);
      expect(await new HttpMailer(gw.url).send({ to: 'b@example.com', subject: 'S', text: 'T' }), body).toEqual({});
    }
  });

  it('leaves html out when there is none', async () => {
    await new HttpMailer(gw.url).send({ to: 'b@example.com', subject: 'S', text: 'T' });
    expect(JSON.parse(gw.received[0].body)).toEqual({ to: 'b@example.com', subject: 'S', text: 'T' });
  });

  it('rejects a non-2xx answer with the status and the gateway’s words', async () => {
    gw.answer(503, 'relay is down');
    await expect(new HttpMailer(gw.url).send({ to: 'c@example.com', subject: 'S', text: 'T' })).rejects.toThrow('Mail gateway answered 503: relay is down');
    gw.answer(400);
    await expect(new HttpMailer(gw.url).send({ to: 'c@example.com', subject: 'S', text: 'T' })).rejects.toThrow(/^Mail gateway answered 400$/);
  });

  it('rejects clearly when the gateway cannot be reached', async () => {
    const closed = await gateway();
    await closed.close();
    await expect(new HttpMailer(closed.url).send({ to: 'd@example.com', subject: 'S', text: 'T' })).rejects.toThrow(/Mail gateway could not be reached/);
  });
});

describe('OutboxMailer', () => {
  it('logs each mail and keeps the last N, newest per address readable', async () => {
    const lines: string[] = [];
    const outbox = new OutboxMailer((m) => lines.push(m), 3);
    for (let i = 1; i <= 5; i++) await outbox.send({ to: i % 2 ? 'odd@example.com' : 'Even@Example.com', subject: `#${i}`, text: `body ${i}` });
    expect(outbox.sent.map((m) => m.subject)).toEqual(['#3', '#4', '#5']);
    expect(outbox.lastTo('ODD@example.com')?.subject).toBe('#5');
    expect(outbox.lastTo('even@example.com')?.text).toBe('body 4');
    expect(outbox.lastTo('nobody@example.com')).toBeUndefined();
    expect(lines).toHaveLength(5);
    expect(lines[0]).toContain('to odd@example.com');
    expect(lines[0]).toContain('body 1');
  });

  it('is what createMailer gives by default; http needs its URL', () => {
    expect(createMailer({}, () => undefined)).toBeInstanceOf(OutboxMailer);
    expect(createMailer({ mailProvider: 'http', mailHttpUrl: 'http://127.0.0.1:9/send' }, () => undefined)).toBeInstanceOf(HttpMailer);
    expect(() => createMailer({ mailProvider: 'http' }, () => undefined)).toThrow(/MAIL_HTTP_URL/);
  });
});
