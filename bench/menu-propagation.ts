/**
 * Menu propagation (issue 13 "a change reaches everything within 2 s"): N updates of one product,
 * in turn its price, its stock to 0 (sold out) and back to 12, each written through the menu
 * import engine and announced on the change bus the way `npm run import` does, and for each the
 * time from the import's return (committed and published) until it shows
 *   (a) in search (`GET /api/catalog/products?text=`: the new price, or the item gone / back),
 *   (b) in the category page HTML (`/menu/accessories`, output-cached) and, for prices, in the
 *       product page HTML (`/black-ceramic-stash-jar`) — only when the storefront is built,
 *   (c) in the offline snapshot (`GET /api/catalog/snapshot`: price / stock quantity),
 * on node 1 and node 2: two server processes on PostgreSQL + Redis when TEST_DATABASE_URL (or
 * BENCH_DATABASE_URL) and REDIS_URL are set, else one process on SQLite that hears the import
 * through Redis (the CLI runs in another process than the server: without REDIS_URL nothing tells
 * the server, and the suite is skipped).
 * Baseline in the same run: a plain GET /api/health round trip on node 1.
 * BENCH_PROPAGATION_UPDATES (default 20) updates; median and max in ms per target and node.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { redisBus } from '../apps/server/src/catalog/change-bus.ts';
import { MenuFile } from '../apps/server/test-support/catalog/menu-fixture.ts';
import { DEMO_STORES_FILE, WEB_BUILD_DIR } from '../apps/server/src/config.ts';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../apps/server/src/db/index.ts';
import { readStoresFile, seedDemo } from '../apps/server/src/seed/index.ts';
import { freePort, freshSchema, startNode, type ServerNode } from '../apps/server/test-support/multinode/harness.ts';

const SKU = 'AC-BLACK-CERAMIC-STASH-JAR';
const HOST = 'downtown.localhost';
const COOKIE = 'verdant_age=1; verdant_license=recreational';
const GIVE_UP_MS = 10_000;

const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return Math.round((s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2) * 10) / 10;
};
const max = (xs: number[]) => (xs.length ? Math.round(Math.max(...xs) * 10) / 10 : null);
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

async function waitUntil(check: () => Promise<boolean>, since: number): Promise<number> {
  for (;;) {
    if (await check()) return performance.now() - since;
    if (performance.now() - since > GIVE_UP_MS) return Number.POSITIVE_INFINITY;
    // Every 10 ms: often enough to see a change within 10 ms, rare enough not to load the nodes it measures.
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function runMenuPropagationSuite() {
  const updates = Number(process.env.BENCH_PROPAGATION_UPDATES ?? 20);
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    console.log('\nmenu propagation: skipped (needs REDIS_URL: the import reaches a running server through the change bus)');
    return { skipped: 'REDIS_URL is not set' };
  }
  const pages = fs.existsSync(path.join(WEB_BUILD_DIR, 'server'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-bench-prop-'));
  const REDIS_PREFIX = `verdant-bench-prop-${process.pid}:`;
  let drop: (() => Promise<void>) | undefined;
  let env: Record<string, string>;
  let handle: DatabaseHandle;
  if (pgUrl) {
    process.env.TEST_DATABASE_URL = pgUrl;
    const schema = await freshSchema();
    drop = schema.drop;
    handle = await createDatabase({ databaseUrl: schema.url, dataDir });
    env = { DATABASE_URL: schema.url };
  } else {
    handle = await createDatabase({ dataDir });
    env = { DATA_DIR: dataDir };
  }
  await migrateToLatest(handle.db);
  await seedDemo(handle.db, readStoresFile(DEMO_STORES_FILE), { dataDir, referenceDate: new Date() });
  const common = { ...env, REDIS_URL: redisUrl, REDIS_PREFIX, SERVE_STOREFRONT: pages ? 'true' : 'false', WRITE_RATE_LIMIT: '0' };
  const nodes: ServerNode[] = [startNode(common, await freePort())];
  if (pgUrl) nodes.push(startNode(common, await freePort()));
  const bus = redisBus({ url: redisUrl, channel: `${REDIS_PREFIX}catalog-changed`, name: 'verdant-import' });
  try {
    await Promise.all(nodes.map((n) => n.ready()));
    const menu = await new MenuFile(handle.db, 1, (storeId, productIds) => bus.publish({ storeId, productIds })).load();
    const get = (n: ServerNode, p: string, headers: Record<string, string> = {}) =>
      fetch(n.base + p, { headers: { host: HOST, ...headers } });
    const searchItem = async (n: ServerNode) =>
      (
        (await (await get(n, '/api/catalog/products?text=ceramic%20stash%20jar&size=50')).json()).result.items as {
          sku: string;
          price: number;
        }[]
      ).find((i) => i.sku === SKU);
    const html = async (n: ServerNode, p: string) => (await get(n, p, { cookie: COOKIE })).text();
    // Conditional, as a browser refreshes its copy: a 304 until the snapshot was remade (cheap to poll).
    const etags = new Map<ServerNode, string>();
    const snapshotProduct = async (n: ServerNode) => {
      const res = await get(n, '/api/catalog/snapshot', etags.has(n) ? { 'if-none-match': etags.get(n)! } : {});
      if (res.status === 304) return undefined;
      etags.set(n, res.headers.get('etag') ?? '');
      const body = (await res.json()) as { content: { products: { sku: string; price: number; stock: { qty: number } }[] } };
      return body.content.products.find((p) => p.sku === SKU);
    };
    // Baseline: a plain round trip to node 1 (warm-up first).
    for (let i = 0; i < 20; i++) await (await get(nodes[0], '/api/health')).text();
    const health: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      await (await get(nodes[0], '/api/health')).text();
      health.push(performance.now() - t0);
    }
    // Warm the pages and the snapshot (the first render of each is not what is measured).
    for (const n of nodes) {
      await searchItem(n);
      await snapshotProduct(n);
      if (pages) await Promise.all([html(n, '/menu/accessories'), html(n, '/black-ceramic-stash-jar')]);
    }

    type Target = 'search' | 'category page' | 'product page' | 'snapshot';
    const took = new Map<string, number[]>();
    const record = (node: number, target: Target, ms: number) => {
      const key = `${target} · node ${node + 1}`;
      took.set(key, [...(took.get(key) ?? []), ms]);
    };
    let price = 2699;
    for (let i = 0; i < updates; i++) {
      // Price, sold out, back in stock, price, …: a price is always changed while the item is listed.
      const isPrice = i % 3 === 0;
      const soldOut = i % 3 === 1;
      const cells: Record<string, string> = isPrice
        ? { price: ((price = 2000 + ((price + 25) % 2000)) / 100).toFixed(2) }
        : { stock: soldOut ? '0' : '12' };
      await menu.change(SKU, cells);
      const since = performance.now();
      await Promise.all(
        nodes.flatMap((n, ni) => {
          const jobs: Promise<void>[] = [];
          const measure = (target: Target, check: () => Promise<boolean>) =>
            jobs.push(waitUntil(check, since).then((ms) => record(ni, target, ms)));
          measure('search', async () => {
            const item = await searchItem(n);
            return isPrice ? item?.price === price : soldOut ? item === undefined : item !== undefined;
          });
          measure('snapshot', async () => {
            const p = await snapshotProduct(n);
            return isPrice ? p?.price === price : p?.stock.qty === (soldOut ? 0 : 12);
          });
          if (pages) {
            measure('category page', async () => {
              const body = await html(n, '/menu/accessories');
              return isPrice ? body.includes(dollars(price)) : body.includes('black-ceramic-stash-jar') !== soldOut;
            });
            if (isPrice) measure('product page', async () => (await html(n, '/black-ceramic-stash-jar')).includes(dollars(price)));
          }
          return jobs;
        }),
      );
    }
    const rows: Record<string, { medianMs: number | null; maxMs: number | null; n: number; within2s: number }> = {};
    for (const [key, values] of [...took].sort(([a], [b]) => a.localeCompare(b)))
      rows[key] = {
        medianMs: median(values),
        maxMs: max(values),
        n: values.length,
        within2s: values.filter((v) => v < 2000).length / values.length,
      };
    const baseline = { medianMs: median(health), maxMs: max(health), n: health.length, within2s: 1 };
    const result = {
      updates,
      nodes: nodes.length,
      database: pgUrl ? 'postgres' : 'sqlite',
      pages: pages ? 'measured' : 'skipped: storefront not built',
      targets: rows,
      baselineHealth: baseline,
      medianRatioToHealth: Object.fromEntries(
        Object.entries(rows).map(([k, v]) => [
          k,
          v.medianMs && baseline.medianMs ? Math.round((v.medianMs / baseline.medianMs) * 10) / 10 : null,
        ]),
      ),
    };
    console.log(`\nmenu propagation (import committed → shown; ${updates} updates, ${result.nodes} node(s), ${result.database}):`);
    console.table({ ...rows, 'GET /api/health (baseline)': baseline });
    return result;
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    await bus.close();
    await handle.destroy();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runMenuPropagationSuite(), null, 2));
  process.exit(0);
}
