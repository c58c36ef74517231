/**
 * Test support for the multi-node suites (not a test file): real server processes
 * (the compiled server, `apps/server/dist-test/main.mjs`, API only), a fresh PostgreSQL schema per pair, a
 * TCP proxy in front of Redis that a test can cut and restore (a node behind it loses Redis while
 * the others keep it), and small HTTP helpers.
 *
 * Time bounds: a process start is the one slow, load-dependent thing here (under CPU contention on a
 * 2-core machine a node has taken over 30 s to load, migrate and build), so `ready()` waits for the
 * node's own ready signal — it listens only once its catalogue is built and subscribed — up to
 * START_MS. Everything the product promises (a change reaching another node within 2 s) is
 * asserted with its own strict bound, measured from the moment the promise starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from '../../src/config.ts';
import { compiledEntry } from '../compiled.ts';

export const PG_URL = process.env.TEST_DATABASE_URL;
export const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const AUTH_SECRET = 'multi-node-test-secret-0123456789abcdef';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a node may take from spawn to ready: generous for a loaded 2-core machine, still bounded. */
export const START_MS = 90_000;
/** How long a node may take to shut down after SIGTERM before it is killed. */
export const STOP_MS = 30_000;

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** A new, empty schema on TEST_DATABASE_URL, and the URL whose connections use it. */
export async function freshSchema(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `mn_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await admin(`create schema "${name}"`);
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${name}`);
  return { url: url.toString(), name, drop: () => admin(`drop schema if exists "${name}" cascade`) };
}

export interface ServerNode {
  port: number;
  base: string;
  process: ChildProcess;
  /** Everything the process wrote so far (stdout + stderr). */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /**
   * Resolves once GET /api/health answers 200 (the node listens only when it is ready); rejects
   * with its output if the process exits first or `ms` (default START_MS) pass.
   */
  ready(ms?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Start one server process. `env` adds to (and overrides) the defaults below. `entry`: another
 * compiled server to start, e.g. the previous release's (../previous-release.ts).
 */
export function startNode(env: Record<string, string | undefined>, port: number, options: { entry?: string } = {}): ServerNode {
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'verdant-node-'));
  // The compiled server of this test run (../compiled.ts): what production runs, ready in about half tsx's time.
  const child = spawn(process.execPath, [options.entry ?? compiledEntry('main')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SERVE_STOREFRONT: 'false',
      AUTH_SECRET,
      DATA_DIR: dataDir,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      // No proxy's health check to wait for: stop() closes at once (a test about draining sets it).
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => {
    gone = true;
    if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    port,
    base,
    process: child,
    output: () => out,
    exited,
    async ready(ms = START_MS) {
      const started = performance.now();
      let last = 'no answer yet';
      for (;;) {
        if (gone) throw new Error(`node on port ${port} exited before it was ready:\n${out}`);
        const left = ms - (performance.now() - started);
        if (left <= 0) throw new Error(`node on port ${port} not ready within ${ms} ms (last health check: ${last}):\n${out}`);
        try {
          // Each try is bounded too: a node that accepted but never answers still fails in time.
          const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(Math.ceil(left)) });
          if (res.status === 200) return;
          last = `${res.status} ${await res.text()}`;
        } catch (error) {
          // Not listening yet (connection refused), as a rule.
          last = String((error as Error & { cause?: unknown }).cause ?? error);
        }
        await sleep(50);
      }
    },
    async stop() {
      if (gone) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** One `shutdown: …` pino line of a node (http/graceful-shutdown.ts), as the node wrote it. */
export interface ShutdownPhase {
  phase: string;
  msg: string;
  ms?: number;
  inFlight?: number;
  streams?: number;
  code?: number;
}

/** The `shutdown: …` lines a node wrote so far, in order (its LOG_LEVEL must let info lines through). */
export function shutdownPhases(node: ServerNode): ShutdownPhase[] {
  return node
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((entry) => typeof entry.msg === 'string' && entry.msg.startsWith('shutdown:'));
}

export interface Answer {
  status: number;
  code: number;
  result: any;
}

export async function call(
  node: ServerNode,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  host = 'downtown.localhost',
): Promise<Answer> {
  const res = await fetch(node.base + path, {
    method,
    headers: { host, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; result: unknown };
  return { status: res.status, code: json.code, result: json.result };
}

/** Place a pickup order of `qty` × `sku` through `node` (the way a shopper's checkout does). */
export async function order(node: ServerNode, sku: string, qty = 1): Promise<Answer> {
  return call(node, 'POST', '/api/order/save', guestOrderBody(sku, qty));
}

/** The body of a guest's pickup order of `qty` × `sku` with a new idempotency key. */
export function guestOrderBody(sku: string, qty = 1) {
  return {
    idempotency_key: randomUUID(),
    products: [{ sku, qty }],
    order_type: 'pickup',
    personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' },
    // Age on every order (issue 14): a guest gives a date of birth.
    birthday: '1990-01-01',
    payment_method: 'cashondelivery',
  };
}

/** The stock the node's in-memory catalogue shows for a product of the downtown store. */
export async function shownStock(node: ServerNode, sku: string): Promise<{ qty: number; is_in_stock: boolean }> {
  const r = await call(node, 'GET', `/api/catalog/product/${encodeURIComponent(sku)}`);
  if (r.status !== 200) throw new Error(`product ${sku} on port ${node.port}: ${r.status} ${JSON.stringify(r.result)}`);
  return r.result.stock;
}

/**
 * Poll until `check` passes; fails after `ms`, counted from `since` (a `performance.now()` time,
 * e.g. when the event the promise starts from happened; now by default). Returns how long it took.
 */
export async function within(what: string, ms: number, check: () => Promise<boolean>, since = performance.now()): Promise<number> {
  const started = since;
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
}

/**
 * A TCP proxy to Redis. `cut()` drops every connection through it and refuses new ones (Redis is
 * gone for whoever uses it); `restore()` accepts again on the same port. `nextClient(name)` tells
 * when a connection that names itself `name` (ioredis sends CLIENT SETNAME first on every
 * connection) comes through, e.g. when a node behind the proxy has reconnected.
 */
export class RedisProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly waiters: { name: string; resolve: (at: number) => void }[] = [];
  private constructor(
    readonly port: number,
    private readonly target: URL,
    private readonly latencyMs: number,
  ) {}

  /** `latencyMs` delays every chunk each way (a Redis across a slow network), order kept. */
  static async start({
    port,
    target = REDIS_URL,
    latencyMs = 0,
  }: { port?: number; target?: string; latencyMs?: number } = {}): Promise<RedisProxy> {
    const proxy = new RedisProxy(port ?? (await freePort()), new URL(target), latencyMs);
    await proxy.restore();
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /**
   * Resolves with the time (`performance.now()`) the next connection naming itself `name` came
   * through, counted from this call; rejects after `ms`.
   */
  nextClient(name: string, ms: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const waiter = {
        name,
        resolve: (at: number) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no connection named ${name} through the Redis proxy within ${ms} ms`));
      }, ms);
      this.waiters.push(waiter);
    });
  }

  /** Reads the name a new client gives itself from its first bytes (CLIENT SETNAME in RESP). */
  private watchName(client: net.Socket): void {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const named = /setname\r\n\$\d+\r\n([^\r]*)\r\n/i.exec(head);
      if (!named && head.length < 1024) return;
      client.off('data', onData);
      if (!named) return;
      const at = performance.now();
      for (const waiter of this.waiters.filter((w) => w.name === named[1])) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(at);
      }
    };
    client.on('data', onData);
  }

  async restore(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 6379), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      this.watchName(client);
      if (!this.latencyMs) {
        client.pipe(upstream).pipe(client);
        return;
      }
      const delayed = (from: net.Socket, to: net.Socket) =>
        from.on('data', (chunk) => setTimeout(() => to.writable && to.write(chunk), this.latencyMs));
      delayed(client, upstream);
      delayed(upstream, client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise((r) => server.close(r));
  }
}
