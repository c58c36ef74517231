/**
 * Issue 32, "Stores sharded over node pools, routed by an existing proxy": a real HAProxy on loopback,
 * configured by what `npm run proxy-config` writes (the compiled CLI), in front of four real compiled
 * nodes — two pools of two — on one PostgreSQL schema and one Redis, serving the demo stores.
 *
 *  - each store's API through the proxy is answered by a node of its pool (X-Verdant-Node), by every
 *    host the server resolves to it; another pool's store asked of a node directly is served and
 *    counted as foreign;
 *  - a stock change made through any node shows on every node (each read directly) within 2 s;
 *  - the node serving a store is killed with SIGKILL while orders are placed through the proxy without
 *    pause (each with its own idempotency key, repeated with the same key when an answer is lost): its
 *    pool's other node serves the store, HAProxy marks the dead node DOWN within inter × fall (+ 1 s),
 *    and the database holds every accepted order exactly once — orders caught inside their transaction
 *    on the killed node included (HAProxy retries them on the survivor; their keys make that safe).
 *
 * Health checks: the command's defaults (haproxy-config.ts): inter 1000 ms, fastinter 250 ms, fall 2.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORES_FILE } from '../config.ts';
import { compiledEntry } from '../../test-support/compiled.ts';
import { startHaproxy, type RunningHaproxy } from '../../test-support/haproxy.ts';
import { freePort, freshSchema, PG_URL, REDIS_URL, sleep, START_MS, startNode, STOP_MS, within, type ServerNode } from '../../test-support/multinode/harness.ts';
import { CHECK_FALL, DEFAULT_CHECK_INTERVAL_MS } from './haproxy-config.ts';
import { parsePoolsFile } from './pools.ts';

/** The product promise: a change reaches every node within this. */
const REACH_MS = 2000;
/** HAProxy marks a dead node DOWN within inter × fall, plus this (check timeout, scheduling on a loaded machine). */
const DOWN_SLACK_MS = 1000;
const METRICS_TOKEN = 'pools-test-metrics-token';
const demo = JSON.parse(readFileSync(DEMO_STORES_FILE, 'utf8'));
/** Each pool gets a store for sure: harbor → east, downtown (the default store) → west; the others by the hash. */
const OVERRIDES = { harbor: 'east', downtown: 'west' };

const needed = !PG_URL ? 'TEST_DATABASE_URL is not set' : null;
if (needed && process.env.CI !== 'true') console.warn(`[verdant tests] skipping the pools proxy tests: ${needed}`);

interface Reply {
  status: number;
  node: string | undefined;
  body: any;
}

/** One request with its own Host header (node:http: fetch drops a Host header it is given). */
function request(port: number, method: 'GET' | 'POST', path: string, host: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: { host, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}), ...headers },
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // HAProxy's own error pages are HTML.
          }
          resolve({ status: res.statusCode ?? 0, node: res.headers['x-verdant-node'] as string | undefined, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} (${host}) on ${port}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

describe.skipIf(needed !== null && process.env.CI !== 'true')('stores in two pools of two nodes behind HAProxy', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdant-pools-'));
  const nodes = new Map<string, ServerNode>();
  let proxy: RunningHaproxy;
  let proxyPort: number;
  let db: pg.Client;
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  const assignment = parsePoolsFile(
    {
      pools: [
        { name: 'east', nodes: [{ name: 'east-1', address: 'x:1' }, { name: 'east-2', address: 'x:2' }] },
        { name: 'west', nodes: [{ name: 'west-1', address: 'x:3' }, { name: 'west-2', address: 'x:4' }] },
      ],
      stores: OVERRIDES,
    },
    demo,
  );
  const poolNodes = (pool: string) => (pool === 'east' ? ['east-1', 'east-2'] : ['west-1', 'west-2']);
  const storeCodes: string[] = demo.stores.map((s: { storeCode: string }) => s.storeCode);
  /** A simple accessory of the harbor store with plenty of stock (set before any catalogue is built). */
  let sku: string;
  let productId: number;

  const viaProxy = (method: 'GET' | 'POST', path: string, host: string, body?: unknown) => request(proxyPort, method, path, host, body);
  const direct = (name: string, method: 'GET' | 'POST', path: string, host: string, body?: unknown) => request(nodes.get(name)!.port, method, path, host, body);
  const orderBody = (key: string) => ({
    idempotency_key: key,
    products: [{ sku, qty: 1 }],
    order_type: 'pickup',
    personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' },
    birthday: '1990-01-01',
    payment_method: 'cashondelivery',
  });

  beforeAll(async () => {
    schema = await freshSchema();
    const ports = await Promise.all([1, 2, 3, 4].map(() => freePort()));
    proxyPort = await freePort();
    const names = ['east-1', 'east-2', 'west-1', 'west-2'];
    const poolsFile = join(dir, 'pools.json');
    writeFileSync(
      poolsFile,
      JSON.stringify({
        pools: [
          { name: 'east', nodes: names.slice(0, 2).map((name, i) => ({ name, address: `127.0.0.1:${ports[i]}` })) },
          { name: 'west', nodes: names.slice(2).map((name, i) => ({ name, address: `127.0.0.1:${ports[i + 2]}` })) },
        ],
        stores: OVERRIDES,
      }),
    );
    const REDIS_PREFIX = `verdant-pools-${process.pid}-${Math.random().toString(36).slice(2)}:`;
    // The four start together (one migrates and seeds the demo catalogue, the others wait for its lock).
    names.forEach((name, i) =>
      nodes.set(
        name,
        startNode(
          {
            DATABASE_URL: schema.url,
            REDIS_URL,
            REDIS_PREFIX,
            POOLS_FILE: poolsFile,
            NODE_POOL: name.split('-')[0],
            NODE_NAME: name,
            DEMO_DEALS: 'false',
            METRICS_TOKEN,
          },
          ports[i]!,
        ),
      ),
    );
    // What an operator runs: the compiled command writes the configuration HAProxy starts with.
    const cfg = join(dir, 'haproxy.cfg');
    const written = spawnSync(
      process.execPath,
      [compiledEntry('proxy-config'), '--stores', DEMO_STORES_FILE, '--pools', poolsFile, '--bind', `127.0.0.1:${proxyPort}`, '--out', cfg],
      { encoding: 'utf8' },
    );
    expect(written.status, written.stderr).toBe(0);
    await Promise.all([...nodes.values()].map((n) => n.ready()));

    db = new pg.Client({ connectionString: schema.url });
    await db.connect();
    const product = await db.query(
      `select p.id, p.sku from products p where p.store_id = 4 and p.type_id = 'simple' and p.sku like 'AC-%' and p.visibility = 4 and p.status = 1 order by p.sku limit 1`,
    );
    ({ id: productId, sku } = product.rows[0]);
    await db.query('update stock set qty = 100000, is_in_stock = 1, manage_stock = 1 where product_id = $1', [productId]);

    proxy = await startHaproxy(readFileSync(cfg, 'utf8'), { waitPorts: [proxyPort] });
    // Every node passes its checks (rise 2) before the first request.
    await within('HAProxy sees the four nodes UP', 10_000, async () => {
      const up = await Promise.all(names.map((n) => proxy.serverStatus(`pool_${n.split('-')[0]}`, n)));
      return up.every((s) => s === 'UP');
    });
  }, START_MS + 30_000);

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all([...nodes.values()].map((n) => n.stop()));
    await db?.end();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  }, STOP_MS + 10_000);

  it('each store, by each of its hosts, is answered by a node of its pool; another pool’s store asked directly is served and counted', async () => {
    const hosts: [string, string][] = [
      ...storeCodes.map((code): [string, string] => [`${code}.localhost`, code]),
      ['HARBOUR.localhost:8080', 'harbor'],
      ['bay.example.com', 'harbor'],
      ['www.harborcannabis.example', 'harbor'],
      ['oldtown.localhost', 'downtown'],
      ['shop.localhost', 'eastside'],
      ['nowhere.example', 'downtown'],
      ['127.0.0.1', 'downtown'],
    ];
    for (const [host, code] of hosts) {
      const r = await viaProxy('GET', '/api/catalog/products?size=1', host);
      expect(r.status, `${host}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(poolNodes(assignment.poolOf.get(code)!), `${host} (store ${code}, pool ${assignment.poolOf.get(code)})`).toContain(r.node);
    }
    // ?storeCode= names the store of an API call: its pool answers, whatever the host.
    const named = await viaProxy('GET', '/api/catalog/products?size=1&storeCode=harbor', 'downtown.localhost');
    expect(poolNodes('east')).toContain(named.node);
    // The console's API and health go to any node and work there.
    expect((await viaProxy('GET', '/api/health', 'downtown.localhost')).status).toBe(200);
    expect((await viaProxy('GET', '/api/console/stores', 'harbor.localhost')).status).toBe(401);

    // harbor (east) asked of a west node directly: served, and counted as foreign there.
    const foreign = await direct('west-1', 'GET', '/api/catalog/products?size=1', 'harbor.localhost');
    expect(foreign.status).toBe(200);
    const metrics = await request(nodes.get('west-1')!.port, 'GET', '/metrics', 'downtown.localhost', undefined, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(String(metrics.body)).toMatch(/verdant_foreign_store_requests_total\{store="harbor"\} [1-9]/);
    expect(String(metrics.body)).toMatch(/verdant_catalogue_foreign_builds_total [1-9]/);
  });

  it('a stock change made through any node shows on every node (read directly) within 2 s', async () => {
    const names = [...nodes.keys()];
    const stockOn = async (name: string) => {
      const r = await direct(name, 'GET', `/api/catalog/product/${encodeURIComponent(sku)}`, 'harbor.localhost');
      if (r.status !== 200) throw new Error(`${sku} on ${name}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.result.stock.qty as number;
    };
    const took: number[] = [];
    // Through an east node (the store's pool) and a west node (another pool's store there).
    for (const through of ['east-2', 'west-1']) {
      const before = await stockOn(through);
      // Every node has the catalogue loaded (a change must reach it, not a fresh build).
      for (const name of names) expect(await stockOn(name)).toBe(before);
      const placed = await direct(through, 'POST', '/api/order/save', 'harbor.localhost', orderBody(randomUUID()));
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const since = performance.now();
      for (const name of names)
        took.push(await within(`${name} shows ${sku} at ${before - 1} after an order through ${through}`, REACH_MS, async () => (await stockOn(name)) === before - 1, since));
    }
    console.log(`[pools] a change through one node seen on all four within ${Math.round(Math.max(...took))} ms (slowest)`);
  });

  it('kill -9 of the node serving a store: its pool’s other node serves it, every accepted order is in the database once', async () => {
    const host = 'harbor.localhost';
    const victimName = (await viaProxy('GET', '/api/catalog/products?size=1', host)).node!;
    expect(['east-1', 'east-2']).toContain(victimName);
    const survivor = victimName === 'east-1' ? 'east-2' : 'east-1';
    const victim = nodes.get(victimName)!;
    const stockBefore = Number((await db.query('select qty from stock where product_id = $1', [productId])).rows[0].qty);

    const accepted = new Map<string, number>();
    let lost = 0;
    let running = true;
    const failures: string[] = [];
    /** Orders one after another; an answer lost (connection cut, 5xx, 409 still being placed) is asked again with the same key. */
    const worker = async () => {
      while (running) {
        const key = randomUUID();
        const started = performance.now();
        for (;;) {
          let r: Reply | undefined;
          try {
            r = await viaProxy('POST', '/api/order/save', host, orderBody(key));
          } catch {
            r = undefined;
          }
          if (r?.status === 200) {
            accepted.set(key, r.body.result.order_id);
            break;
          }
          lost += 1;
          if (r && r.status !== 409 && r.status < 500) {
            failures.push(`${key}: ${r.status} ${JSON.stringify(r.body)}`);
            break;
          }
          if (performance.now() - started > 10_000) {
            failures.push(`${key}: no answer within 10 s (last ${r?.status})`);
            break;
          }
          await sleep(50);
        }
      }
    };
    const workers = [worker(), worker(), worker()];
    await sleep(1500);
    const beforeKill = accepted.size;
    expect(beforeKill, failures.join('\n')).toBeGreaterThan(0);

    // Orders caught inside their transaction at the kill: the test holds the product's stock row, so
    // the victim's orders wait there (their idempotency keys inserted, uncommitted) when it dies.
    // HAProxy retries each on the survivor (empty response → redispatch), whose insert of the same key
    // waits for the dead node's transaction; PostgreSQL rolls that back once the row is free and the
    // dead client is noticed, and the survivor places the order: once.
    const lock = new pg.Client({ connectionString: schema.url });
    await lock.connect();
    await lock.query('begin');
    await lock.query('select qty from stock where product_id = $1 for update', [productId]);
    const heldKey = randomUUID();
    const held = viaProxy('POST', '/api/order/save', host, orderBody(heldKey));
    await within('an order through the proxy waits for the stock row', 10_000, async () => {
      const r = await db.query("select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()");
      return r.rows[0].n >= 1;
    });

    victim.process.kill('SIGKILL');
    const killedAt = performance.now();
    await sleep(300);
    await lock.query('commit');
    await lock.end();
    const heldAnswer = await held;
    expect(heldAnswer.status, JSON.stringify(heldAnswer.body)).toBe(200);
    expect(heldAnswer.node).toBe(survivor);
    accepted.set(heldKey, heldAnswer.body.result.order_id);
    // The store is answered by the survivor (retried there at once: connection refused → redispatch).
    const served = await within(`${host} answered by ${survivor}`, CHECK_FALL * DEFAULT_CHECK_INTERVAL_MS + DOWN_SLACK_MS, async () => {
      const r = await viaProxy('GET', '/api/catalog/products?size=1', host).catch(() => undefined);
      return r?.status === 200 && r.node === survivor;
    }, killedAt);
    const down = await within(
      `HAProxy marks ${victimName} DOWN`,
      CHECK_FALL * DEFAULT_CHECK_INTERVAL_MS + DOWN_SLACK_MS,
      async () => (await proxy.serverStatus('pool_east', victimName)).startsWith('DOWN'),
      killedAt,
    );
    const atDown = accepted.size;
    await sleep(1500);
    running = false;
    await Promise.all(workers);
    // What HAProxy did for it: requests retried (wretr) and sent to another node (wredis).
    const east = (await proxy.stats()).find((r) => r.pxname === 'pool_east' && r.svname === 'BACKEND')!;
    console.log(
      `[pools] kill -9 ${victimName}: served by ${survivor} after ${Math.round(served)} ms, DOWN after ${Math.round(down)} ms; ` +
        `orders accepted ${accepted.size} (${beforeKill} before the kill, ${accepted.size - atDown} after DOWN), answers lost and asked again ${lost}; HAProxy retries ${east.wretr}, redispatches ${east.wredis}`,
    );
    expect(failures).toEqual([]);
    expect(accepted.size - atDown).toBeGreaterThan(0);

    // Every accepted order exactly once, none other with these keys; the stock fell by as many.
    const rows = await db.query('select idempotency_key, id from orders where idempotency_key = any($1::text[])', [[...accepted.keys()]]);
    const byKey = new Map<string, number[]>();
    for (const row of rows.rows) byKey.set(row.idempotency_key, [...(byKey.get(row.idempotency_key) ?? []), Number(row.id)]);
    const problems = [...accepted].filter(([key, id]) => byKey.get(key)?.length !== 1 || byKey.get(key)![0] !== Number(id));
    expect(problems, 'orders missing, doubled or not the one answered').toEqual([]);
    expect(rows.rows).toHaveLength(accepted.size);
    const stockAfter = Number((await db.query('select qty from stock where product_id = $1', [productId])).rows[0].qty);
    expect(stockBefore - stockAfter).toBe(accepted.size);
  });
});
