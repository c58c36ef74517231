/**
 * Issue 32, "deploys without errors": a rolling restart under load through a real HAProxy.
 *
 * One pool of two real (compiled) nodes on one PostgreSQL schema and one Redis, seeded with 3 stores ×
 * 300 products, behind HAProxy configured by `npm run proxy-config`'s writer (poolConfig below; the settings
 * that make this safe are explained there and in docs/operators/deployment.md, "Rolling restart"). The 4/20 load generator
 * (bench/lib/four-twenty-load.mjs) runs through the proxy at 5 order journeys/s (cart → line → totals →
 * pickup → order, each call a request of its own) + 10 catalogue reads/s while:
 *  1. each node in turn is restarted the operator's way, by scripts/rolling-restart.sh:
 *     `set server pool/nX state drain`, wait until HAProxy shows no current session on it, SIGTERM,
 *     wait for the exit (code 0), start the new process on the same port, wait until HAProxy's check
 *     sees it up, `set server pool/nX state ready`;
 *  2. then the first node once more without telling the proxy (a plain SIGTERM, as a process manager
 *     sends): its health check answers 503 during SHUTDOWN_DRAIN_MS, HAProxy takes it out, the node
 *     closes.
 * Meanwhile a console's live order stream of one store is open through the proxy, reconnecting as the
 * console's EventSource does (after the `retry:` the server sent, with Last-Event-ID).
 * Asserted: the generator saw 0 errors (no 5xx, no connection error, no failed journey, nothing left
 * unanswered) and HAProxy answered no 5xx; every order the generator had answered is in the database
 * exactly once, and no order is there that it was not answered for; stock went down by exactly what
 * the orders hold, never below zero, and the low-stock variants were not oversold; the console stream
 * was ended cleanly (with the shutdown's retry hint) at each restart of its node, reconnected with no
 * error and got the `order.created` event of every order of its store, live or replayed. The figures (time
 * from SIGTERM to exit, requests in flight, retries) are printed for the issue's note.
 */
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { createDatabase } from '../db/index.ts';
import { addStaff, TEST_STAFF_PASSWORD } from '../../test-support/staff/testing.ts';
import { compiledEntry } from '../../test-support/compiled.ts';
import { startHaproxy, type RunningHaproxy } from '../../test-support/haproxy.ts';
import { parseStoresFile } from '@verdant/domain';
import { backendOf, haproxyConfig } from '../pools/haproxy-config.ts';
import { parsePoolsFile } from '../pools/pools.ts';
import { freePort, freshSchema, PG_URL, REDIS_URL, sleep, START_MS, startNode, type ServerNode, shutdownPhases } from '../../test-support/multinode/harness.ts';

const STORES = 3;
const PRODUCTS = 300;
const ORDERS_PER_S = 5;
const BROWSE_PER_S = 10;
const CONTENDED_STOCK = 8;
const ORDINARY_STOCK = 1_000_000;
/** Node side: the drain after SIGTERM outlasts the proxy's check interval × fall (500 ms × 2) with a margin. */
const DRAIN_MS = 1_500;
const GRACE_MS = 20_000;
/** How long the proxy may take to show no session on a drained node. */
const SESSIONS_MS = 15_000;
const BACKEND = backendOf('a');
const LOAD = join(REPO_ROOT, 'bench/lib/four-twenty-load.mjs');

/**
 * The HAProxy configuration of the test: what `npm run proxy-config` writes (pools/haproxy-config.ts) for
 * one pool `a` of the two nodes and the seeded stores, with checks every 500 ms — so the rolling restart
 * is proved on the configuration operators run. What makes it safe is explained in that module's header
 * and in docs/operators/deployment.md ("Rolling restart"): a draining node (health 503) is out within
 * about 1 s and a new one in within about 1 s of answering 200; `timeout check` of at least 3 s (a node
 * building a catalogue answers late, not never); `retry-on` with `option redispatch` for what never
 * reached a node or may safely run twice (an order's idempotency key makes a repeat answer the first);
 * the console's streams go to `all_nodes`, whose servers track the pool's, so a drain reaches them too.
 */
export function poolConfig(frontPort: number, nodes: { name: string; port: number }[], storesFilePath: string): string {
  const stores = parseStoresFile(JSON.parse(readFileSync(storesFilePath, 'utf8')));
  const assignment = parsePoolsFile({ pools: [{ name: 'a', nodes: nodes.map((n) => ({ name: n.name, address: `127.0.0.1:${n.port}` })) }], stores: {} }, stores);
  return haproxyConfig({ stores, assignment, bind: `127.0.0.1:${frontPort}`, checkIntervalMs: 500 });
}

interface Figures {
  node: string;
  how: 'proxy drain' | 'health check only';
  /** From the node's own `exit` log line: ms since the signal. */
  sigtermToExitMs: number;
  inFlightAtSigterm: number;
  inFlightAtClose: number;
  startToReadyMs: number;
}

const needed = !PG_URL ? 'TEST_DATABASE_URL is not set' : null;
if (needed && process.env.CI !== 'true') console.warn(`[verdant tests] skipping the rolling-restart test: ${needed}`);

describe.skipIf(needed !== null && process.env.CI !== 'true')('rolling restart under the 4/20 load through HAProxy (PostgreSQL + Redis)', () => {
  const prefix = `verdant-roll-${process.pid}-${Math.random().toString(36).slice(2)}:`;
  let drop: (() => Promise<void>) | undefined;
  let db: pg.Client | undefined;
  let dataDir: string;
  let proxy: RunningHaproxy | undefined;
  const nodes: { name: string; port: number; node: ServerNode }[] = [];
  let env: Record<string, string>;
  let frontPort: number;
  let stores: StorePlan[] = [];
  let contended: { host: string; sku: string; productId: number }[] = [];
  /** What the test did when (wall clock, as HAProxy's log lines). */
  const steps: string[] = [];
  const step = (what: string) => steps.push(`${new Date().toISOString()} ${what}`);

  beforeAll(async () => {
    const schema = await freshSchema();
    drop = schema.drop;
    dataDir = mkdtempSync(join(tmpdir(), 'verdant-roll-'));
    const seeded = spawnSync(
      process.execPath,
      [compiledEntry('seed'), '--stores', String(STORES), '--products', String(PRODUCTS), '--data-dir', dataDir, '--reference-date', '2026-06-15T12:00:00Z'],
      { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: schema.url, STORES_FILE: '' }, encoding: 'utf8', timeout: 120_000 },
    );
    if (seeded.status !== 0) throw new Error(`seed failed (${seeded.status}):\n${seeded.stdout}${seeded.stderr}`);
    db = new pg.Client({ connectionString: schema.url });
    await db.connect();
    ({ stores, contended } = await plan(db, join(dataDir, 'stores.json')));
    const handle = await createDatabase({ databaseUrl: schema.url, dataDir });
    try {
      await addStaff(handle.db, { email: 'owner@rolling.test', role: 'owner' });
    } finally {
      await handle.destroy();
    }

    env = {
      DATABASE_URL: schema.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      STORES_FILE: join(dataDir, 'stores.json'),
      WRITE_RATE_LIMIT: '0',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    };
    for (const name of ['n1', 'n2']) {
      const port = await freePort();
      nodes.push({ name, port, node: startNode(env, port) });
    }
    await Promise.all(nodes.map((n) => n.node.ready(START_MS)));
    frontPort = await freePort();
    proxy = await startHaproxy(poolConfig(frontPort, nodes, join(dataDir, 'stores.json')), { waitPorts: [frontPort] });
    for (const n of nodes) await waitStatus(proxy, n.name, (s) => s === 'UP', 10_000, 'UP at start');
  }, 2 * START_MS + 60_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.node.stop()));
    await proxy?.stop();
    await db?.end();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'restarting each node in turn (and one more with a plain SIGTERM) loses, doubles and fails nothing',
    async () => {
      const startedAt = new Date(Date.now() - 1000).toISOString();
      const configFile = join(dataDir, 'load.json');
      const outFile = `${configFile}.out`;
      writeFileSync(
        configFile,
        JSON.stringify({
          nodes: [frontPort],
          barePort: 0,
          warmupS: 0,
          seconds: 600, // ended by SIGUSR2 once the restarts are done
          ordersPerS: ORDERS_PER_S,
          browsePerS: BROWSE_PER_S,
          barePerS: 0,
          storeSkew: 1,
          contended: contended.map((c) => ({ host: c.host, sku: c.sku })),
          contendedShare: 0.1,
          lateMs: 1000,
          maxInFlight: 200,
          drainS: 30,
          maxSockets: 64,
          stores: stores.map((s) => ({ ...s, license: 'recreational' })),
          out: outFile,
        }),
      );
      const login = await fetch(`http://127.0.0.1:${frontPort}/api/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@rolling.test', password: TEST_STAFF_PASSWORD }),
      });
      expect(login.status).toBe(200);
      const watched = stores[0]!;
      const consoleStream = liveStream(frontPort, watched.storeId, /^(verdant_staff=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!);
      await waitFor('the console stream’s ready', 10_000, async () => consoleStream.readies > 0);
      const generator = spawn(process.execPath, [LOAD, configFile], { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
      const generatorExit = new Promise<number | null>((resolve) => generator.once('exit', (code) => resolve(code)));
      const figures: Figures[] = [];
      try {
        await sleep(3_000); // the load running on both nodes first
        figures.push(...(await viaScript()));
        for (const n of nodes) expect(await proxy!.serverStatus(BACKEND, n.name)).toBe('UP');
        figures.push(await viaHealthCheck(0));
        await sleep(2_000); // and on both again after
      } finally {
        generator.kill('SIGUSR2');
      }
      const code = await Promise.race([generatorExit, sleep(45_000).then(() => 'timeout' as const)]);
      if (code === 'timeout') generator.kill('SIGKILL');
      expect(code, 'the load generator ends within 45 s of being told to').toBe(0);
      const out = JSON.parse(readFileSync(outFile, 'utf8')) as LoadOut;

      // ---- what the shoppers saw ----
      const minutes = Object.values(out.minutes);
      const sum = (f: (m: LoadMinute) => number) => minutes.reduce((n, m) => n + f(m), 0);
      const requests = sum((m) => Object.values(m.count).reduce((a, b) => a + b, 0));
      const stats = await proxy!.stats();
      const row = (sv: string) => stats.find((r) => r.pxname === (sv === 'FRONTEND' ? 'verdant' : BACKEND) && r.svname === sv)!;
      const summary = {
        requests,
        ordersAccepted: sum((m) => m.ordersAccepted),
        ordersRefused: sum((m) => m.ordersRefused),
        errors: sum((m) => m.errors),
        journeysFailed: sum((m) => m.journeysFailed),
        unfinished: out.unfinished,
        errorSamples: out.errorSamples,
        refusalKinds: out.refusalKinds,
        haproxy: {
          frontend5xx: Number(row('FRONTEND').hrsp_5xx),
          backendRetries: Number(row('BACKEND').wretr),
          backendRedispatches: Number(row('BACKEND').wredis),
          backendConnectionErrors: Number(row('BACKEND').econ),
          backendResponseErrors: Number(row('BACKEND').eresp),
        },
        restarts: figures,
      };
      console.log(`rolling restart: ${JSON.stringify(summary, null, 2)}`);
      const failed = proxy!
        .output()
        .split('\n')
        .filter((line) => /\s5\d\d\s/.test(line));
      if (failed.length) console.log(`HAProxy's 5xx answers:\n${failed.slice(0, 40).join('\n')}\n--- steps:\n${steps.join('\n')}`);
      expect(out.errorSamples).toEqual({});
      expect(summary.errors).toBe(0);
      expect(summary.journeysFailed).toBe(0);
      expect(summary.unfinished).toBe(0);
      expect(summary.haproxy.frontend5xx).toBe(0);
      // The load was real: both restarts happened while orders were being placed.
      expect(summary.ordersAccepted).toBeGreaterThan(40);
      // The only refusals: the low-stock variants sold out.
      for (const kind of Object.keys(out.refusalKinds)) expect(kind).toMatch(/^(cart\/update|order\/save) 4\d\d: .*(out of stock|not available)/i);

      // ---- the console's live stream ----
      const watchedOrders = out.accepted.filter((a) => a.host === watched.host).map((a) => a.increment);
      const missing = () => watchedOrders.filter((n) => !consoleStream.orders.has(n!));
      await waitFor('the order.created event of every order of the watched store', 10_000, async () => missing().length === 0).catch(() => undefined);
      consoleStream.close();
      console.log(`console stream: ${JSON.stringify({ orders: watchedOrders.length, received: consoleStream.orders.size, connects: consoleStream.readies, shutdownHints: consoleStream.hints, problems: consoleStream.problems })}`);
      expect(consoleStream.problems).toEqual([]);
      expect(watchedOrders.length).toBeGreaterThan(10);
      expect(missing(), 'orders of the watched store whose event never reached the console').toEqual([]);
      // Its node was restarted at least once while it was open: a clean end with the hint, then a new connection.
      expect(consoleStream.hints).toBeGreaterThanOrEqual(1);
      expect(consoleStream.readies).toBeGreaterThanOrEqual(consoleStream.hints + 1);

      // ---- the database ----
      const keys = out.accepted.map((a) => a.key);
      const rows = (
        await db!.query<{ idempotency_key: string; n: string }>(
          `select idempotency_key, count(*) as n from orders where created_at >= $1 group by idempotency_key`,
          [startedAt],
        )
      ).rows;
      const inDb = new Map(rows.map((r) => [r.idempotency_key, Number(r.n)]));
      expect(keys.filter((k) => inDb.get(k) !== 1), 'answered orders not in the database exactly once').toEqual([]);
      expect(rows.filter((r) => !keys.includes(r.idempotency_key)), 'orders placed that the generator got no answer for').toEqual([]);
      expect(new Set(keys).size).toBe(keys.length);

      // Stock: for every variant ordered, the stock went down by exactly what the orders hold.
      const stock = (
        await db!.query<{ product_id: number; sku: string; qty: string; ordered: string }>(
          `select s.product_id, p.sku, s.qty, coalesce((select sum(oi.qty) from order_items oi join orders o on o.id = oi.order_id
              where o.created_at >= $1 and oi.product_id = s.product_id), 0) as ordered
           from stock s join products p on p.id = s.product_id where s.product_id = any($2)`,
          [startedAt, [...new Set([...stores.flatMap((s) => s.orderProductIds), ...contended.map((c) => c.productId)])]],
        )
      ).rows;
      const lowIds = new Set(contended.map((c) => c.productId));
      for (const s of stock) {
        const initial = lowIds.has(s.product_id) ? CONTENDED_STOCK : ORDINARY_STOCK;
        expect({ sku: s.sku, qty: Number(s.qty) }).toEqual({ sku: s.sku, qty: initial - Number(s.ordered) });
        expect(Number(s.qty)).toBeGreaterThanOrEqual(0);
      }
      expect(Number((await db!.query(`select count(*) as n from stock where qty < 0`)).rows[0].n)).toBe(0);

      // Each node ended cleanly and in time.
      for (const f of figures) expect(f.sigtermToExitMs).toBeLessThan(DRAIN_MS + GRACE_MS);
    },
    4 * START_MS + 120_000,
  );

  /**
   * The operator's way: scripts/rolling-restart.sh over every node (drain at the proxy, wait for no
   * session, the restart command, wait for the check, ready). Its restart command here sends SIGTERM
   * and waits for the exit; the test, as a process supervisor would, starts the new process on the
   * same port once the old one exited.
   */
  async function viaScript(): Promise<Figures[]> {
    const pidDir = mkdtempSync(join(tmpdir(), 'verdant-roll-pids-'));
    const figures: Figures[] = [];
    let scriptDone = false;
    const supervise = async (entry: (typeof nodes)[number]) => {
      const old = entry.node;
      writeFileSync(join(pidDir, entry.name), String(old.process.pid));
      const code = await old.exited;
      if (scriptDone) return;
      step(`${entry.name}: exited ${code}; starting`);
      expect(code, `${entry.name} exits 0 after SIGTERM:\n${old.output().slice(-3000)}`).toBe(0);
      const t1 = performance.now();
      entry.node = startNode(env, entry.port);
      await entry.node.ready(START_MS);
      step(`${entry.name}: ready`);
      const log = shutdownPhases(old);
      figures.push({
        node: entry.name,
        how: 'proxy drain',
        sigtermToExitMs: log.find((p) => p.phase === 'exit')?.ms ?? -1,
        inFlightAtSigterm: log.find((p) => p.phase === 'drain')?.inFlight ?? -1,
        inFlightAtClose: log.find((p) => p.phase === 'close')?.inFlight ?? -1,
        startToReadyMs: Math.round(performance.now() - t1),
      });
    };
    const supervised = nodes.map((n) => supervise(n));
    supervised.forEach((p) => p.catch(() => undefined)); // awaited below
    const stop = `pid=$(cat ${pidDir}/{server}); kill -TERM $pid; while kill -0 $pid 2>/dev/null; do sleep 0.1; done`;
    const script = spawn(
      'bash',
      [join(REPO_ROOT, 'scripts/rolling-restart.sh'), '--socket', proxy!.socket, '--backend', BACKEND, '--restart', stop, '--wait-sessions', '5', '--wait-up', String(START_MS / 1000), ...nodes.map((n) => n.name)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    script.stdout!.on('data', (d) => (out += d));
    script.stderr!.on('data', (d) => (out += d));
    const bound = 2 * (START_MS + 5_000 + DRAIN_MS + GRACE_MS);
    const code = await Promise.race([new Promise<number | null>((r) => script.once('exit', (c) => r(c))), sleep(bound).then(() => 'timeout' as const)]);
    scriptDone = true;
    if (code === 'timeout') script.kill('SIGKILL');
    steps.push(...out.trim().split('\n').map((l) => `  script: ${l}`));
    expect(code, `scripts/rolling-restart.sh:\n${out}`).toBe(0);
    await Promise.all(supervised);
    rmSync(pidDir, { recursive: true, force: true });
    return figures;
  }

  /** A plain SIGTERM, the proxy not told: its health check takes the node out during SHUTDOWN_DRAIN_MS. */
  async function viaHealthCheck(index: number): Promise<Figures> {
    const entry = nodes[index]!;
    const old = entry.node;
    step(`${entry.name}: SIGTERM (the proxy not told)`);
    old.process.kill('SIGTERM');
    const code = await Promise.race([old.exited, sleep(DRAIN_MS + GRACE_MS + 10_000).then(() => 'timeout' as const)]);
    expect(code, `${entry.name} exits 0 after SIGTERM:\n${old.output().slice(-3000)}`).toBe(0);
    const log = shutdownPhases(old);
    step(`${entry.name}: exited ${code}; starting`);
    const t1 = performance.now();
    entry.node = startNode(env, entry.port);
    await entry.node.ready(START_MS);
    const startToReadyMs = Math.round(performance.now() - t1);
    step(`${entry.name}: ready`);
    await waitStatus(proxy!, entry.name, (s) => s === 'UP', 10_000, 'UP again');
    step(`${entry.name}: UP`);
    return {
      node: entry.name,
      how: 'health check only',
      sigtermToExitMs: log.find((p) => p.phase === 'exit')?.ms ?? -1,
      inFlightAtSigterm: log.find((p) => p.phase === 'drain')?.inFlight ?? -1,
      inFlightAtClose: log.find((p) => p.phase === 'close')?.inFlight ?? -1,
      startToReadyMs,
    };
  }
});

// ---------------------------------------------------------------- helpers

interface StorePlan {
  storeId: number;
  host: string;
  home: string;
  categories: string[];
  products: string[];
  searches: string[];
  orderSkus: string[];
  orderProductIds: number[];
}
interface LoadMinute {
  count: Record<string, number>;
  errors: number;
  ordersAccepted: number;
  ordersRefused: number;
  journeysFailed: number;
}
interface LoadOut {
  minutes: Record<string, LoadMinute>;
  errorSamples: Record<string, number>;
  refusalKinds: Record<string, number>;
  accepted: { key: string; host: string; sku: string; increment: string | null }[];
  unfinished: number;
}

/**
 * Per recreational store: what a shopper reads (the catalogue API: an API-only node has no pages) and
 * buys (accessories, stock set high: never refused), and two low-stock variants orders compete for.
 */
async function plan(db: pg.Client, storesFile: string) {
  const file = JSON.parse(readFileSync(storesFile, 'utf8')) as {
    stores: { storeCode: string; storeId: number; dispensarySettings: { license_recreational: boolean } }[];
  };
  const by = async <T extends { store_id: number }>(sql: string) => {
    const m = new Map<number, T[]>();
    for (const r of (await db.query<T>(sql)).rows) m.set(r.store_id, [...(m.get(r.store_id) ?? []), r]);
    return m;
  };
  const cats = await by<{ store_id: number; url_path: string }>(
    `select store_id, url_path from categories where is_active = 1 and level >= 2 and product_count > 0 order by store_id, position, id`,
  );
  const prods = await by<{ store_id: number; sku: string }>(
    `select store_id, sku from (select store_id, sku, row_number() over (partition by store_id order by id) as k
       from products where parent_id is null and status = 1 and visibility in (2, 4)) t where k % 10 = 1`,
  );
  const buyable = await by<{ store_id: number; id: number; sku: string }>(
    `select store_id, id, sku from (select p.store_id, p.id, p.sku, row_number() over (partition by p.store_id order by p.id) as k
       from products p join stock s on s.product_id = p.id
       where p.parent_id is null and p.type_id = 'simple' and p.status = 1 and p.visibility = 4 and p.canna_type in (4, 6)
         and p.license_type in ('both', 'recreational') and exists (select 1 from product_prices pp where pp.product_id = p.id)) t
     where k <= 8`,
  );
  const stores: StorePlan[] = file.stores
    .filter((s) => s.dispensarySettings.license_recreational && (buyable.get(s.storeId)?.length ?? 0) > 1)
    .map((s) => {
      const buy = buyable.get(s.storeId)!.slice(1);
      return {
        storeId: s.storeId,
        host: `${s.storeCode}.localhost`,
        home: '/api/catalog/products?size=24',
        categories: (cats.get(s.storeId) ?? []).slice(0, 8).map((c) => `/api/catalog/products?category=${encodeURIComponent(c.url_path)}&size=24`),
        products: (prods.get(s.storeId) ?? []).map((p) => `/api/catalog/product/${encodeURIComponent(p.sku)}`),
        searches: ['gummies', 'vape', 'pre-roll', 'grinder', 'indica'].map((w) => `/api/catalog/products?text=${encodeURIComponent(w)}&size=24`),
        orderSkus: buy.map((b) => b.sku),
        orderProductIds: buy.map((b) => b.id),
      };
    });
  if (stores.length < 2) throw new Error(`the seed gave ${stores.length} recreational store(s) with accessories to buy; the test needs 2`);
  const contended = file.stores
    .filter((s) => stores.some((p) => p.host === `${s.storeCode}.localhost`))
    .slice(0, 2)
    .map((s) => {
      const b = buyable.get(s.storeId)![0]!;
      return { host: `${s.storeCode}.localhost`, sku: b.sku, productId: b.id };
    });
  await db.query(`update stock set qty = $2, is_in_stock = 1, manage_stock = 1 where product_id = any($1)`, [
    stores.flatMap((s) => s.orderProductIds),
    ORDINARY_STOCK,
  ]);
  await db.query(`update stock set qty = $2, is_in_stock = 1, manage_stock = 1 where product_id = any($1)`, [
    contended.map((c) => c.productId),
    CONTENDED_STOCK,
  ]);
  return { stores, contended };
}

/**
 * A console's live order stream through the proxy, reconnecting as the browser's EventSource does: when
 * the server ends it, after the last `retry:` it sent, with `Last-Event-ID`. Anything else (an answer
 * other than 200, a connection error, a stream cut without the shutdown's hint) is a problem.
 */
function liveStream(port: number, storeId: number, cookie: string) {
  const state = { orders: new Set<string>(), readies: 0, hints: 0, problems: [] as string[], close: () => undefined as void };
  let retryMs = 3000;
  let lastId: string | undefined;
  let closed = false;
  let current: http.ClientRequest | null = null;
  const connect = () => {
    if (closed) return;
    const headers: Record<string, string> = { cookie, accept: 'text/event-stream' };
    if (lastId) headers['last-event-id'] = lastId;
    current = http.get({ host: '127.0.0.1', port, path: `/api/console/stores/${storeId}/events`, agent: false, headers }, (res) => {
      if (res.statusCode !== 200) {
        state.problems.push(`answer ${res.statusCode}`);
        res.resume();
        return void setTimeout(connect, 1000);
      }
      let buffer = '';
      let hinted = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut).split('\n');
          buffer = buffer.slice(cut + 2);
          let event = '';
          let data = '';
          for (const line of block) {
            if (line.startsWith('retry: ')) retryMs = Number(line.slice(7));
            else if (line.startsWith(': this node is shutting down')) hinted = true;
            else if (line.startsWith('id: ')) lastId = line.slice(4);
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (event === 'ready') state.readies += 1;
          if (event === 'order') {
            const payload = JSON.parse(data) as { type: string; increment_id?: string };
            if (payload.type === 'order.created' && payload.increment_id) state.orders.add(payload.increment_id);
          }
        }
      });
      res.on('end', () => {
        if (closed) return;
        if (hinted) state.hints += 1;
        else state.problems.push('the stream ended without the shutdown’s hint');
        setTimeout(connect, retryMs);
      });
      res.on('error', () => undefined);
      res.on('aborted', () => !closed && state.problems.push('the stream was cut'));
    });
    current.on('error', (err) => {
      if (closed) return;
      state.problems.push(`connection: ${err.message}`);
      setTimeout(connect, retryMs);
    });
  };
  connect();
  state.close = () => {
    closed = true;
    current?.destroy();
  };
  return state;
}


async function waitFor(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

async function waitStatus(proxy: RunningHaproxy, server: string, ok: (status: string) => boolean, ms: number, what: string): Promise<void> {
  let last = '';
  await waitFor(`HAProxy ${BACKEND}/${server} ${what}`, ms, async () => ok((last = await proxy.serverStatus(BACKEND, server)))).catch((err: Error) => {
    throw new Error(`${err.message} (last status: ${last})`);
  });
}
