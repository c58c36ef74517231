/**
 * Issue 32, graceful shutdown of a real (compiled) server process (http/graceful-shutdown.ts), on
 * SQLite with the demo stores: after SIGTERM
 *  - during the drain GET /api/health answers 503 "draining" while the rest answers 200 (with
 *    `Connection: close`); a second SIGTERM changes nothing;
 *  - then the node stops accepting; a slow request in flight (its body still arriving) completes
 *    with 200 and its order is placed; a request that was arriving on a kept-alive connection when
 *    the close began is served (not Fastify's default 503);
 *  - an open console stream gets a `retry:` hint and a clean end;
 *  - the process exits 0 within drain + grace, and each phase is a pino JSON line.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, guestOrderBody, sleep, START_MS, startNode, type ServerNode, shutdownPhases } from '../../test-support/multinode/harness.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const DRAIN_MS = 2_000;
const GRACE_MS = 10_000;
const HOST = 'downtown.localhost';

/** One request over node:http (fetch drops the host header), on `agent` (false: a connection of its own). */
function send(
  port: number,
  method: string,
  path: string,
  { agent = false, headers = {}, body }: { agent?: http.Agent | false; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; localPort: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers: { host: HOST, ...headers }, timeout: 15_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, localPort: req.socket!.localPort! }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 15 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

const orderBody = () => JSON.stringify(guestOrderBody(JAR));


describe('graceful shutdown of a node (SIGTERM)', () => {
  let node: ServerNode | undefined;
  afterEach(async () => node?.stop());

  it(
    'drains (health 503, pages 200), finishes a slow request and a half-arrived one, ends the SSE stream with a retry hint, exits 0',
    async () => {
      node = startNode({ LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: String(DRAIN_MS), SHUTDOWN_GRACE_MS: String(GRACE_MS) }, await freePort());
      await node.ready(START_MS);
      const { port } = node;

      // A console stream (the demo owner).
      const login = await send(port, 'POST', '/api/console/session', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@demo.verdant.test', password: 'verdant-demo-staff' }),
      });
      expect(login.status, login.text).toBe(200);
      const cookie = /^(verdant_staff=[^;]+)/.exec(String(login.headers['set-cookie']))![1]!;
      let sseText = '';
      let sseEnd: 'end' | 'aborted' | 'error' | null = null;
      const sse = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/api/console/stores/1/events', agent: false, headers: { host: HOST, cookie } }, resolve);
        req.on('error', reject);
      });
      expect(sse.statusCode).toBe(200);
      sse.setEncoding('utf8');
      sse.on('data', (c) => (sseText += c));
      const sseEnded = new Promise<void>((resolve) => {
        sse.once('end', () => resolve(void (sseEnd ??= 'end')));
        sse.once('aborted', () => resolve(void (sseEnd ??= 'aborted')));
        sse.once('error', () => resolve(void (sseEnd ??= 'error')));
      });

      // A kept-alive connection that served one request and is idle when the shutdown starts.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const warm = await send(port, 'GET', `/api/catalog/product/${JAR}`, { agent });
      expect(warm.status).toBe(200);
      expect(warm.headers.connection).toBe('keep-alive');

      // The slow request: an order whose body arrives in two halves, the second after the close began.
      const body = orderBody();
      let slowAnswer: { status: number; headers: http.IncomingHttpHeaders; text: string } | null = null;
      const slowReq = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/order/save',
        agent: false,
        headers: { host: HOST, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      });
      const slow = new Promise<void>((resolve, reject) => {
        slowReq.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(void (slowAnswer = { status: res.statusCode ?? 0, headers: res.headers, text })));
        });
        slowReq.on('error', reject);
      });
      slow.catch(() => undefined); // awaited below; a failure before then is not an unhandled rejection
      slowReq.write(body.slice(0, 40));

      // A request arriving on a kept-alive connection: its first line is in before the signal, the rest after the close began.
      const raw = net.connect(port, '127.0.0.1');
      await new Promise<void>((r) => raw.once('connect', () => r()));
      let rawText = '';
      raw.setEncoding('utf8');
      raw.on('data', (c) => (rawText += c));
      const rawClosed = new Promise<void>((r) => raw.once('close', () => r()));
      raw.write(`GET /api/health HTTP/1.1\r\nHost: ${HOST}\r\n\r\n`);
      await waitUntil('the raw connection’s first answer', 5_000, () => rawText.includes('"ok"'));
      expect(rawText).toMatch(/connection: keep-alive/i);
      raw.write(`GET /api/catalog/product/${JAR} HTTP/1.1\r\nHost: ${HOST}\r\n`);
      await sleep(100);

      const signalledAt = performance.now();
      node.process.kill('SIGTERM');
      await waitUntil('the drain’s first log line', 5_000, () => shutdownPhases(node!).some((p) => p.phase === 'drain'));

      // Drain: health 503, the rest 200 (and the connection closed after the answer).
      const health = await send(port, 'GET', '/api/health');
      expect(health.status).toBe(503);
      expect(JSON.parse(health.text)).toEqual({ code: 503, result: 'draining' });
      const page = await send(port, 'GET', `/api/catalog/product/${JAR}`, { agent });
      expect(page.status).toBe(200);
      expect(page.localPort).toBe(warm.localPort); // on the kept-alive connection…
      expect(page.headers.connection).toBe('close'); // …which is then closed
      const order = await send(port, 'POST', '/api/order/save', { headers: { 'content-type': 'application/json' }, body: orderBody() });
      expect(order.status, order.text).toBe(200);
      // A second SIGTERM during the drain is logged and changes nothing.
      node.process.kill('SIGTERM');
      await waitUntil('the second signal’s log line', 5_000, () => shutdownPhases(node!).some((p) => p.phase === 'second-signal'));
      expect((await send(port, 'GET', '/api/health')).status).toBe(503);

      // Close: no new connections; the stream ends with a retry hint; what was in flight finishes.
      await waitUntil('the close phase', DRAIN_MS + 5_000, () => shutdownPhases(node!).some((p) => p.phase === 'close'));
      await sseEnded;
      // The stream ended in the close's first step; the listener closes right after it.
      await sleep(200);
      await expect(send(port, 'GET', '/api/health')).rejects.toThrow(/ECONNREFUSED/);
      expect(sseEnd).toBe('end');
      expect(sseText).toMatch(/\nretry: \d{4}\n: this node is shutting down; reconnect\n\n$/);
      expect(Number(/\nretry: (\d+)\n: this node/.exec(sseText)![1])).toBeGreaterThanOrEqual(1000);

      raw.write('\r\n');
      slowReq.end(body.slice(40));
      await slow;
      expect(slowAnswer!.status, slowAnswer!.text).toBe(200);
      expect(JSON.parse(slowAnswer!.text).result.increment_id).toBeTruthy();
      expect(slowAnswer!.headers.connection).toBe('close');
      await rawClosed;
      const second = rawText.slice(rawText.indexOf('"ok"'));
      expect(second).toMatch(/^[^]*HTTP\/1\.1 200 OK\r\n/);
      expect(second).toMatch(/connection: close/i);
      expect(second).toContain(`"sku":"${JAR}"`);

      const code = await node.exited;
      const tookMs = performance.now() - signalledAt;
      expect(code).toBe(0);
      expect(tookMs).toBeLessThan(DRAIN_MS + GRACE_MS);
      const logged = shutdownPhases(node);
      expect(logged.map((p) => p.phase)).toEqual(['drain', 'second-signal', 'close', 'closed', 'exit']);
      expect(logged.find((p) => p.phase === 'close')).toMatchObject({ streams: 1 });
      // The slow order and the stream (the half-arrived request is counted once its headers are complete).
      expect(logged.find((p) => p.phase === 'close')!.inFlight).toBeGreaterThanOrEqual(2);
      expect(logged.at(-1)).toMatchObject({ phase: 'exit', code: 0 });
      agent.destroy();
    },
    START_MS + 60_000,
  );
});

async function waitUntil(what: string, ms: number, check: () => boolean): Promise<void> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
}
