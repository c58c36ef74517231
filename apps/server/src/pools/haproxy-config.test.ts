/**
 * The HAProxy configuration `npm run proxy-config` writes (./haproxy-config.ts): HAProxy accepts it
 * (`haproxy -c`, also for 600 stores), and a real HAProxy running it sends every host and path the
 * server resolves to a store (packages/domain resolveStore: code, alias, url host, www domain, legacy
 * label, `shop`, path prefix, `?storeCode=`, unknown host → default) to that store's pool, honours an
 * override, and sends the console, the integration API and health to any node. The nodes here are
 * small HTTP servers that answer their own name (the routing is what is tested; proxy.test.ts runs
 * real nodes).
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStoresFile, resolveStore, type StoresFile } from '@verdant/domain';
import { DEMO_STORES_FILE } from '../config.ts';
import { HAPROXY_BIN, startHaproxy, type RunningHaproxy } from '../../test-support/haproxy.ts';
import { freePort, within } from '../../test-support/multinode/harness.ts';
import { haproxyConfig } from './haproxy-config.ts';
import { parsePoolsFile, type PoolAssignment } from './pools.ts';
import { proxyConfigText } from '../cli/proxy-config.ts';

const demo = parseStoresFile(JSON.parse(readFileSync(DEMO_STORES_FILE, 'utf8')));

/** `haproxy -c` on a configuration text; its output when it refuses. */
function check(text: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'verdant-haproxy-check-'));
  try {
    writeFileSync(join(dir, 'h.cfg'), text);
    const r = spawnSync(HAPROXY_BIN, ['-c', '-f', join(dir, 'h.cfg')], { encoding: 'utf8' });
    return { ok: r.status === 0, output: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A node stand-in: answers every request 200 with its name in X-Verdant-Node. */
async function fakeNode(name: string): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'x-verdant-node': name, 'content-type': 'application/json' });
    res.end('{"code":200,"result":"ok"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as { port: number }).port, close: () => new Promise((r) => server.close(() => r())) };
}

function get(port: number, path: string, host: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent: false, headers: { host }, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['x-verdant-node'] as string | undefined));
    });
    req.on('timeout', () => req.destroy(new Error(`${host}${path}: no answer within 5 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** A stores file of `n` stores made from the demo's first one (codes s0…). */
function manyStores(n: number): StoresFile {
  const [first] = JSON.parse(readFileSync(DEMO_STORES_FILE, 'utf8')).stores;
  return parseStoresFile({
    defaultStoreCode: 's0',
    stores: Array.from({ length: n }, (_, i) => ({ ...first, storeId: i + 1, storeCode: `s${i}`, url: `https://s${i}.example.com`, aliases: [`alias${i}`] })),
  });
}

const pools = (ports: number[], stores: Record<string, string> = {}) => ({
  pools: [
    { name: 'east', nodes: [{ name: 'east-1', address: `127.0.0.1:${ports[0]}` }, { name: 'east-2', address: `127.0.0.1:${ports[1]}` }] },
    { name: 'west', nodes: [{ name: 'west-1', address: `127.0.0.1:${ports[2]}` }] },
  ],
  stores,
});

describe('haproxyConfig', () => {
  it('is accepted by haproxy -c, for the demo stores and for 600 stores (ACL lists split over lines)', () => {
    const small = haproxyConfig({ stores: demo, assignment: parsePoolsFile(pools([1, 2, 3]), demo), bind: '127.0.0.1:8080' });
    expect(check(small)).toMatchObject({ ok: true });
    const big = manyStores(600);
    const text = haproxyConfig({ stores: big, assignment: parsePoolsFile(pools([1, 2, 3]), big), checkIntervalMs: 500 });
    const result = check(text);
    expect(result.ok, result.output).toBe(true);
    expect(text).toMatch(/inter 500ms fastinter 125ms downinter 500ms fall 2 rise 2/);
    // Every store code on some label line, each line at most 40 values.
    const labels = text.split('\n').filter((l) => /acl label_\w+ var\(txn\.label\)/.test(l));
    expect(labels.every((l) => l.split(' -m str ')[1]!.split(' ').length <= 40)).toBe(true);
    const listed = new Set(labels.flatMap((l) => l.split(' -m str ')[1]!.split(' ')));
    for (const s of big.stores) expect(listed.has(s.storeCode) && listed.has(`alias${s.storeId - 1}`)).toBe(true);
  });

  it('the command refuses a bad pools file naming the field, and a bad option', () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdant-proxy-config-'));
    try {
      writeFileSync(join(dir, 'pools.json'), JSON.stringify(pools([1, 2, 3], { harbor: 'north' })));
      expect(() => proxyConfigText(['--pools', join(dir, 'pools.json')], {})).toThrow(/stores\.harbor: unknown pool "north"/);
      writeFileSync(join(dir, 'pools.json'), JSON.stringify(pools([1, 2, 3])));
      expect(() => proxyConfigText(['--pools', join(dir, 'pools.json'), '--check-interval', '5'], {})).toThrow(/--check-interval/);
      expect(() => proxyConfigText([], {})).toThrow(/--pools \(or POOLS_FILE\) is required/);
      expect(proxyConfigText(['--pools', join(dir, 'pools.json'), '--bind', '127.0.0.1:9999'], {}).text).toMatch(/bind 127\.0\.0\.1:9999/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a real HAProxy running the configuration routes like the server resolves', () => {
  const fakes: Awaited<ReturnType<typeof fakeNode>>[] = [];
  const names = ['east-1', 'east-2', 'west-1'];

  beforeAll(async () => {
    for (const name of names) fakes.push(await fakeNode(name));
  });
  afterAll(async () => {
    for (const f of fakes) await f.close();
  });

  async function running(overrides: Record<string, string>): Promise<{ proxy: RunningHaproxy; port: number; assignment: PoolAssignment }> {
    const port = await freePort();
    const assignment = parsePoolsFile(pools(fakes.map((f) => f.port), overrides), demo);
    const proxy = await startHaproxy(haproxyConfig({ stores: demo, assignment, bind: `127.0.0.1:${port}` }), { waitPorts: [port] });
    await within('the three stand-ins UP', 10_000, async () =>
      (await Promise.all(names.map((n) => proxy.serverStatus(n.startsWith('east') ? 'pool_east' : 'pool_west', n)))).every((s) => s === 'UP'),
    );
    return { proxy, port, assignment };
  }

  const requests: [string, string][] = [
    ['downtown.localhost', '/'],
    ['eastside.localhost', '/menu'],
    ['wellness.example.com', '/api/catalog/products'],
    ['harbor.localhost', '/'],
    ['HARBOUR.localhost:3000', '/'],
    ['bay.localhost', '/'],
    ['www.harborcannabis.example', '/'],
    ['oldtown.localhost', '/'],
    ['shop.example.com', '/'],
    ['nowhere.example', '/'],
    ['127.0.0.1:3000', '/'],
    ['downtown.localhost', '/harbor/menu'],
    ['downtown.localhost', '/HARBOR'],
    ['harbor.localhost', '/wellness/'],
    ['downtown.localhost', '/api/catalog/products?storeCode=harbor'],
    ['harbor.localhost', '/api/catalog/products?storeCode=wellness'],
    // ?storeCode= names the store of API calls only.
    ['downtown.localhost', '/menu?storeCode=harbor'],
    ...demo.stores.map((s): [string, string] => [new URL(s.url).host, '/']),
  ];

  const overrideSets: Record<string, string>[] = [{ harbor: 'east', downtown: 'west' }, { harbor: 'west', downtown: 'east', wellness: 'east' }];
  for (const overrides of overrideSets) {
    it(`every host and path goes to its store's pool (overrides ${JSON.stringify(overrides)}); the console and health to any node`, async () => {
      const { proxy, port, assignment } = await running(overrides);
      try {
        for (const [code, pool] of Object.entries(overrides)) expect(assignment.poolOf.get(code)).toBe(pool);
        for (const [host, path] of requests) {
          const [pathname, query] = path.split('?');
          let store = resolveStore({ host, pathname: pathname! }, demo).store;
          const named = new URLSearchParams(query ?? '').get('storeCode');
          if (pathname!.startsWith('/api/') && resolveStore({ host, pathname: pathname! }, demo).pathPrefix === '' && named) store = demo.stores.find((s) => s.storeCode === named)!;
          const pool = assignment.poolOf.get(store.storeCode)!;
          const node = await get(port, path, host);
          expect(node?.split('-')[0], `${host}${path} → ${store.storeCode} (pool ${pool}) answered by ${node}`).toBe(pool);
        }
        const before = Number((await proxy.stats()).find((r) => r.pxname === 'all_nodes' && r.svname === 'BACKEND')!.stot);
        const anyNode = ['/console', '/console/orders', '/api/console/stores', '/api/integration/products', '/api/health', '/api/messages/status/sms'];
        for (const path of anyNode) expect(names).toContain(await get(port, path, 'harbor.localhost'));
        const after = Number((await proxy.stats()).find((r) => r.pxname === 'all_nodes' && r.svname === 'BACKEND')!.stot);
        expect(after - before).toBe(anyNode.length);
      } finally {
        await proxy.stop();
      }
    });
  }
});
