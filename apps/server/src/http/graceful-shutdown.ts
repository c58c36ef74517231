/**
 * Graceful shutdown of a node (issue 32, "deploys without errors"). On SIGTERM (or SIGINT):
 *
 *  1. drain (SHUTDOWN_DRAIN_MS, default 8 s): `GET /api/health` answers 503 `{code: 503, result:
 *     "draining"}` at once, so the proxy's health check takes the node out; every other request is
 *     served as before, but each answer carries `Connection: close`, so keep-alive clients (the proxy's
 *     pooled connections too) leave this node as soon as their current request is answered. Size it to
 *     the proxy's check interval × fall (HAProxy `inter 2s fall 3`: 6 s, plus a margin): by its end the
 *     proxy sends nothing new here. When the proxy was told first (`set server … state drain`, the
 *     rolling restart of docs/operators/deployment.md), the drain only costs its length.
 *  2. close (SHUTDOWN_GRACE_MS, default 30 s): `app.close()`: the listener stops accepting, idle
 *     connections are closed, in-flight requests finish (Fastify's `return503OnClosing` is off: a
 *     request that still arrives on a kept-alive connection, e.g. one the proxy had picked just
 *     before, is served, not refused with a 503), the console's SSE streams end with a `retry:` hint
 *     (realtime/console-routes.ts; EventSource reconnects, through the proxy, to another node and
 *     replays what it missed), then the onClose hooks run: the repeating jobs and the outbox
 *     consumers finish their pass (jobs/every.ts, jobs/poll-loop.ts), the catalogue's and the
 *     pub/sub Redis connections close.
 *  3. the database (and the SQLite data directory's lock) closes; exit 0.
 *
 * When the grace is over with connections still open, they are closed (`closeAllConnections`), the
 * close goes on for at most FORCE_MS more, and the exit code is 1. A second SIGTERM/SIGINT during drain
 * and grace is logged and ignored (a deploy tool that signals twice must not cut requests short); one
 * after the grace ends the process at once (exit 1). SIGKILL remains the operator's last resort.
 * Every phase is one pino JSON line (`shutdown: …`, with `phase`, the time since the signal and what
 * was in flight).
 */
import type { FastifyInstance } from 'fastify';

/** After the grace, how long the rest of the close (jobs' passes, Redis, database) may still take. */
export const FORCE_MS = 5_000;

export interface Lifecycle {
  /** SIGTERM came: health answers 503, every answer closes its connection. */
  readonly draining: boolean;
  /** Requests received whose response has not closed yet (SSE streams included). */
  readonly inFlight: number;
  /** Open SSE streams (for the logs). */
  readonly streams: number;
  setStreams(count: () => number): void;
  startDraining(): void;
}

/**
 * Counts requests in flight and, once draining, closes each connection after its answer. Call first
 * in buildApp (its hooks then see every route).
 */
export function installLifecycle(app: FastifyInstance): Lifecycle {
  let draining = false;
  let inFlight = 0;
  let streams = () => 0;
  app.addHook('onRequest', (_request, reply, done) => {
    inFlight += 1;
    reply.raw.once('close', () => (inFlight -= 1));
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    // Node ends the keep-alive connection after an answer that says `Connection: close`.
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight;
    },
    get streams() {
      return streams();
    },
    setStreams(count) {
      streams = count;
    },
    startDraining() {
      draining = true;
    },
  };
}

export interface ShutdownOptions {
  app: FastifyInstance;
  lifecycle: Lifecycle;
  drainMs: number;
  graceMs: number;
  /** After the server and its jobs closed: the database, the data directory's lock. */
  release: () => Promise<void>;
  exit?: (code: number) => void;
}

/** The signal handler: the first signal starts the shutdown, later ones are judged against the grace. */
export function gracefulShutdown(options: ShutdownOptions): (signal: string) => void {
  const { app, lifecycle, drainMs, graceMs } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const log = app.log;
  let startedAt: number | null = null;
  const since = () => Math.round(performance.now() - (startedAt ?? performance.now()));
  const load = () => ({ inFlight: lifecycle.inFlight, streams: lifecycle.streams });

  async function run(): Promise<void> {
    let code = 0;
    if (drainMs > 0) await new Promise((r) => setTimeout(r, drainMs));
    log.info({ phase: 'close', ms: since(), graceMs, ...load() }, 'shutdown: closing (no new connections; in-flight requests finish; streams end with a retry hint)');
    let forced = false;
    const grace = setTimeout(() => {
      forced = true;
      code = 1;
      log.warn({ phase: 'grace-over', ms: since(), ...load() }, 'shutdown: grace over, closing the connections still open');
      app.server.closeAllConnections();
      setTimeout(() => {
        log.error({ phase: 'force-exit', ms: since() }, `shutdown: not closed ${FORCE_MS} ms after the grace, exiting`);
        exit(1);
      }, FORCE_MS).unref();
    }, graceMs);
    try {
      await app.close();
    } catch (err) {
      code = 1;
      log.error({ err, phase: 'close' }, 'shutdown: closing the server failed');
    }
    clearTimeout(grace);
    log.info({ phase: 'closed', ms: since(), forced }, 'shutdown: server closed, jobs finished, Redis closed');
    try {
      await options.release();
    } catch (err) {
      code = 1;
      log.error({ err, phase: 'release' }, 'shutdown: closing the database failed');
    }
    log.info({ phase: 'exit', ms: since(), code }, 'shutdown: database closed, exiting');
    exit(code);
  }

  return (signal: string) => {
    if (startedAt !== null) {
      const left = drainMs + graceMs - since();
      if (left <= 0) {
        log.warn({ phase: 'second-signal', signal, ms: since() }, 'shutdown: second signal after the grace, exiting now');
        return exit(1);
      }
      log.info({ phase: 'second-signal', signal, ms: since(), leftMs: left }, 'shutdown: already under way; a second signal ends it only after the grace');
      return;
    }
    startedAt = performance.now();
    lifecycle.startDraining();
    log.info(
      { phase: 'drain', signal, drainMs, graceMs, ...load() },
      'shutdown: draining (health answers 503; everything else is served, each connection closed after its answer)',
    );
    void run();
  };
}
