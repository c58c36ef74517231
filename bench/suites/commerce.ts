/**
 * Commerce benchmarks, against the HTTP API of a real server process on a fresh demo database
 * (SQLite), each throughput also as a ratio to the bare Node server measured in the same run:
 *  - POST /api/cart/update (set a line's qty; target ≥ 30 % of the bare server's req/s),
 *  - GET /api/cart/totals, and the update + totals round trip,
 *  - POST /api/order/save (offline-path order of one line, a new idempotency key each time),
 * all at 50 connections; then 1,000 concurrent order saves of one unit of a product holding 100
 * units: exactly 100 orders must be created and the stock must end at exactly 0.
 * Ratios are paired: each row runs in rounds (BENCH_ROUNDS, default 3, of BENCH_SECONDS, default 4),
 * each right after a round of the bare server, and the ratio is the median of the round ratios.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { createDatabase } from '../../apps/server/src/db/index.ts';
import type { LoadResult } from '../lib/http-load.ts';
import { startBareServer, startServer } from '../lib/processes.ts';

const HOST = 'downtown.localhost';
const STORE_ID = 1;
const CONNECTIONS = 50;
const RACE_ORDERS = 1000;
const RACE_STOCK = 100;

interface Api {
  base: string;
  call(method: 'GET' | 'POST', url: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any }>;
}

function api(port: number): Api {
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    async call(method, url, body, headers = {}) {
      const res = await fetch(base + url, {
        method,
        headers: { host: HOST, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: await res.json() };
    },
  };
}

const person = { firstName: 'Bench', lastName: 'Mark', emailAddress: 'bench@example.com', phone: '(916) 555-0100' };

export async function runCommerceSuite() {
  const bare = await startBareServer();
  // Thousands of writes a second from one address: the per-IP write limit would refuse them.
  const server = await startServer({ WRITE_RATE_LIMIT: '0' });
  const handle = await createDatabase({ dataDir: server.dataDir });
  const db = handle.db;
  const rows: PairedResult[] = [];
  let race: { ordersCreated: number; refused: number; otherAnswers: number; finalStock: number; accepted: number; ms: number };
  try {
    const a = api(server.port);
    const probe = await a.call('POST', '/api/cart/create', {});

    // Two accessories (not cannabis, so purchase limits never interfere) with stock to spare.
    const picks = await db
      .selectFrom('products')
      .innerJoin('product_prices', 'product_prices.product_id', 'products.id')
      .select(['products.id', 'products.sku'])
      .where('products.store_id', '=', STORE_ID)
      .where('products.type_id', '=', 'simple')
      .where('products.canna_type', '=', 4)
      .where('products.status', '=', 1)
      .where('products.license_type', '=', 'both')
      .orderBy('products.id')
      .limit(2)
      .execute();
    if (picks.length < 2) throw new Error('demo catalogue has no accessories to bench with');
    const [cartProduct, raceProduct] = picks;
    await db.updateTable('stock').set({ qty: 1e9, is_in_stock: 1, manage_stock: 1 }).where('product_id', '=', cartProduct.id).execute();

    // One cart per connection, each with one line of the product.
    const carts: { token: string; itemId: number }[] = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const token = (await a.call('POST', '/api/cart/create', {})).json.result as string;
      const item = await a.call('POST', `/api/cart/update?cartId=${token}`, { cartItem: { sku: cartProduct.sku, qty: 1, quoteId: token } });
      if (item.status !== 200) throw new Error(`cart/update answered ${item.status}: ${JSON.stringify(item.json)}`);
      carts.push({ token, itemId: item.json.result.item_id });
    }
    let n = 0;
    const nextCart = () => carts[n++ % carts.length];
    const update = (): autocannon.Request => {
      const c = nextCart();
      return {
        method: 'POST',
        path: `/api/cart/update?cartId=${c.token}`,
        headers: { host: HOST, 'content-type': 'application/json' },
        body: JSON.stringify({ cartItem: { item_id: c.itemId, sku: cartProduct.sku, qty: 1 + (n % 3), quoteId: c.token } }),
      };
    };
    const totals = (): autocannon.Request => ({ method: 'GET', path: `/api/cart/totals?cartId=${nextCart().token}`, headers: { host: HOST } });

    // Each row is measured in rounds, each round right after a round of the bare server, and its
    // ratio is the median of the per-round ratios: the machines here are shared, and a baseline
    // measured once, minutes away from the row, made the ratios swing by 2x with other work.
    const bareRun = () => loadOnce({ url: `http://127.0.0.1:${bare.port}/`, connections: CONNECTIONS });
    const paired = (name: string, opts: autocannon.Options) => measurePaired(name, bareRun, () => loadOnce({ ...opts, connections: CONNECTIONS }));
    rows.push(await paired('GET /api/storeview (no database)', { url: `${a.base}/api/storeview?storeCode=downtown`, headers: { host: HOST } }));
    rows.push(await paired('POST /api/cart/update', { url: a.base, requests: [{ setupRequest: update }] }));
    rows.push(await paired('GET /api/cart/totals', { url: a.base, requests: [{ setupRequest: totals }] }));
    rows.push(await paired('cart update + totals (round trip, requests/s)', { url: a.base, requests: [{ setupRequest: update }, { setupRequest: totals }] }));
    rows.push(
      await paired('POST /api/order/save', {
        url: a.base,
        requests: [
          {
            setupRequest: () => ({
              method: 'POST',
              path: '/api/order/save',
              headers: { host: HOST, 'content-type': 'application/json' },
              body: JSON.stringify({ idempotency_key: randomUUID(), order_type: 'pickup', personal_details: person, birthday: '1990-01-01', payment_method: 'cashondelivery', products: [{ sku: cartProduct.sku, qty: 1 }] }),
            }),
          },
        ],
      }),
    );

    // The race: 1,000 orders at once for one unit each of a product holding 100.
    await db.updateTable('stock').set({ qty: RACE_STOCK, is_in_stock: 1, manage_stock: 1 }).where('product_id', '=', raceProduct.id).execute();
    const ordersBefore = await countOrdersOf(db, raceProduct.sku);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: RACE_ORDERS }, () =>
        a
          .call('POST', '/api/order/save', { idempotency_key: randomUUID(), order_type: 'pickup', personal_details: person, birthday: '1990-01-01', payment_method: 'cashondelivery', products: [{ sku: raceProduct.sku, qty: 1 }] })
          .then((r) => r.status, () => -1),
      ),
    );
    const ms = Math.round(performance.now() - started);
    const stock = await db.selectFrom('stock').select('qty').where('product_id', '=', raceProduct.id).executeTakeFirstOrThrow();
    race = {
      ordersCreated: (await countOrdersOf(db, raceProduct.sku)) - ordersBefore,
      refused: answers.filter((s) => s === 409).length,
      otherAnswers: answers.filter((s) => s !== 200 && s !== 409).length,
      finalStock: stock.qty,
      accepted: answers.filter((s) => s === 200).length,
      ms,
    };
  } finally {
    await handle.destroy();
    await Promise.all([bare.stop(), server.stop()]);
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }

  const table = rows;
  console.table(
    table.map((r) => ({ endpoint: r.name, 'req/s': r.requestsPerSec, 'bare req/s': r.bareRequestsPerSec, 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms, 'x bare (median)': r.ratioToBare, 'x bare per round': r.ratios.join(' '), errors: r.errors + r.non2xx })),
  );
  console.log(`1,000 concurrent order saves, stock ${RACE_STOCK}: ${race.ordersCreated} orders, final stock ${race.finalStock}, ${race.refused} refused (409), ${race.otherAnswers} other answers, ${race.ms} ms`);
  const update = table.find((r) => r.name === 'POST /api/cart/update')!;
  return {
    rows: table,
    race: { orders: RACE_ORDERS, stock: RACE_STOCK, ...race },
    targets: {
      cartUpdateAtLeast30PercentOfBare: { target: 0.3, actual: update.ratioToBare, met: update.ratioToBare >= 0.3 },
      raceCreatesExactlyStockOrders: { target: RACE_STOCK, actual: race.ordersCreated, met: race.ordersCreated === RACE_STOCK && race.accepted === RACE_STOCK },
      raceEndsAtZeroStock: { target: 0, actual: race.finalStock, met: race.finalStock === 0 },
    },
  };
}

async function countOrdersOf(db: Awaited<ReturnType<typeof createDatabase>>['db'], sku: string): Promise<number> {
  const row = await db
    .selectFrom('order_items')
    .innerJoin('orders', 'orders.id', 'order_items.order_id')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('order_items.sku', '=', sku)
    .where('orders.store_id', '=', STORE_ID)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One autocannon run, reported like lib/http-load's results. */
type Run = Omit<LoadResult, 'name'>;

interface PairedResult extends Run {
  name: string;
  bareRequestsPerSec: number;
  ratioToBare: number;
  ratios: number[];
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_SECONDS = Number(process.env.BENCH_SECONDS ?? 4);

async function loadOnce(opts: autocannon.Options): Promise<Run> {
  const r = await autocannon({ ...opts, duration: ROUND_SECONDS });
  return { requestsPerSec: Math.round(r.requests.average), p50Ms: r.latency.p50, p99Ms: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, requests: r.requests.total };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** ROUNDS rounds of (bare, then the row) after one warm-up of each; the row's figures are medians over the rounds. */
async function measurePaired(name: string, bare: () => Promise<Run>, row: () => Promise<Run>): Promise<PairedResult> {
  await bare();
  await row();
  const rounds: { bare: Run; row: Run }[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push({ bare: await bare(), row: await row() });
  const ratios = rounds.map((r) => Number((r.row.requestsPerSec / r.bare.requestsPerSec).toFixed(3)));
  return {
    name,
    requestsPerSec: median(rounds.map((r) => r.row.requestsPerSec)),
    bareRequestsPerSec: median(rounds.map((r) => r.bare.requestsPerSec)),
    p50Ms: median(rounds.map((r) => r.row.p50Ms)),
    p99Ms: Math.max(...rounds.map((r) => r.row.p99Ms)),
    errors: rounds.reduce((n, r) => n + r.row.errors, 0),
    non2xx: rounds.reduce((n, r) => n + r.row.non2xx, 0),
    requests: rounds.reduce((n, r) => n + r.row.requests, 0),
    ratioToBare: median(ratios),
    ratios,
  };
}

// `npx tsx bench/suites/commerce.ts` runs this suite alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runCommerceSuite();
  console.log(JSON.stringify(result.targets, null, 2));
}
