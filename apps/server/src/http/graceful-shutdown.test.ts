/**
 * The shutdown's bounds (http/graceful-shutdown.ts) on a real Fastify server listening on loopback:
 * a request that never finishes is cut when the grace is over (exit 1, its connection closed); a
 * second signal during the grace is ignored, one after it exits at once. The whole sequence on the
 * real server process (drain, in-flight requests, SSE, exit 0) is multinode/graceful-shutdown.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { gracefulShutdown, installLifecycle } from './graceful-shutdown.ts';

async function server({ stuckClose = false } = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
  const app = Fastify({ logger: { level: 'info', stream }, return503OnClosing: false });
  const lifecycle = installLifecycle(app);
  // A close that never finishes (a job's pass that hangs): only a signal after the grace ends it.
  if (stuckClose) app.addHook('onClose', () => new Promise<void>(() => undefined));
  app.get('/api/health', async (_request, reply) => (lifecycle.draining ? reply.code(503).send({ code: 503, result: 'draining' }) : { code: 200 }));
  // Never answers: what the grace is for.
  app.get('/hang', () => new Promise(() => undefined));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const exits: Array<{ code: number; at: number }> = [];
  let released = 0;
  const exited = new Promise<number>((resolve) => {
    const onSignal = gracefulShutdown({
      app,
      lifecycle,
      drainMs: 100,
      graceMs: 400,
      release: async () => void (released += 1),
      exit: (code) => {
        exits.push({ code, at: performance.now() });
        resolve(code);
      },
    });
    (app as unknown as { signal: (s: string) => void }).signal = onSignal;
  });
  return { app, port, lines, exits, exited, released: () => released, signal: (app as unknown as { signal: (s: string) => void }).signal };
}

function hang(port: number): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/hang', agent: false }, (res) => resolve(`answered ${res.statusCode}`));
    req.on('error', (err) => resolve(`error ${(err as NodeJS.ErrnoException).code ?? err.message}`));
  });
}

describe('graceful shutdown bounds', () => {
  it('cuts a request still running when the grace is over and exits 1; a second signal during the grace changes nothing', async () => {
    const s = await server();
    const hanging = hang(s.port);
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    s.signal('SIGTERM');
    s.signal('SIGINT'); // during the drain: ignored
    expect(s.exits).toEqual([]);
    expect(await hanging).toBe('error ECONNRESET');
    const code = await s.exited;
    expect(code).toBe(1);
    // drain 100 + grace 400, then the close finished at once (nothing else open).
    expect(s.exits[0]!.at - t0).toBeGreaterThanOrEqual(490);
    expect(s.exits).toHaveLength(1);
    expect(s.released()).toBe(1);
    expect(s.lines.map((l) => l.phase).filter(Boolean)).toEqual(['drain', 'second-signal', 'close', 'grace-over', 'closed', 'exit']);
    expect(s.lines.find((l) => l.phase === 'close')).toMatchObject({ inFlight: 1 });
  });

  it('a second signal after the grace ends the process at once', async () => {
    const s = await server({ stuckClose: true });
    s.signal('SIGTERM');
    await new Promise((r) => setTimeout(r, 700)); // past drain + grace (the grace closed what was open)
    expect(s.exits).toEqual([]);
    s.signal('SIGTERM');
    expect(s.exits.map((e) => e.code)).toEqual([1]);
    expect(s.lines.at(-1)).toMatchObject({ phase: 'second-signal', msg: 'shutdown: second signal after the grace, exiting now' });
  });
});
