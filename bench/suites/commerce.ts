/**
 * Commerce benchmarks, against the HTTP API of a real server process on a fresh demo database
 * (SQLite), each throughput also as a ratio to the bare Node server measured in the same run:
 *  - POST /api/cart/update (set a line's qty; target ≥ 30 % of the bare server's req/s),
 *  - GET /api/cart/totals, and the update + totals round trip,
 *  - POST /api/order/save (offline-path order of one line, a new idempotency key each time),
 * all at 50 connections; then 1,000 concurrent order saves of one unit of a product holding 100
 * units: exactly 100 orders must be created and the stock must end at exactly 0.

 */
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createDatabase } from '../../apps/server/src/db/index.ts';
import { load, type LoadResult } from '../lib/http-load.ts';
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
  const server = await startServer();
  const handle = await createDatabase({ dataDir: server.dataDir });
  const db = handle.db;
  const rows: LoadResult[] = [];
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

    rows.push(await load({ name: 'bare node http (baseline)', url: `http://127.0.0.1:${bare.port}/` }));
    // Context, not a target here: the same server answering from memory, no database.
    rows.push(await load({ name: 'GET /api/storeview (no database)', url: `${a.base}/api/storeview?storeCode=downtown`, headers: { host: HOST } }));
    rows.push(await loadRequests('POST /api/cart/update', a.base, [{ setupRequest: update }]));
    rows.push(await loadRequests('GET /api/cart/totals', a.base, [{ setupRequest: totals }]));
    rows.push(await loadRequests('cart update + totals (round trip, requests/s)', a.base, [{ setupRequest: update }, { setupRequest: totals }]));
    rows.push(
      await loadRequests('POST /api/order/save', a.base, [
        {
          setupRequest: () => ({
            method: 'POST',
            path: '/api/order/save',
            headers: { host: HOST, 'content-type': 'application/json' },
            body: JSON.stringify({ idempotency_key: randomUUID(), order_type: 'pickup', personal_details: person, payment_method: 'cashondelivery', products: [{ sku: cartProduct.sku, qty: 1 }] }),
          }),
        },
      ]),
    );

    // The race: 1,000 orders at once for one unit each of a product holding 100.
    await db.updateTable('stock').set({ qty: RACE_STOCK, is_in_stock: 1, manage_stock: 1 }).where('product_id', '=', raceProduct.id).execute();
    const ordersBefore = await countOrdersOf(db, raceProduct.sku);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: RACE_ORDERS }, () =>
        a
          .call('POST', '/api/order/save', { idempotency_key: randomUUID(), order_type: 'pickup', personal_details: person, payment_method: 'cashondelivery', products: [{ sku: raceProduct.sku, qty: 1 }] })
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

  const baseline = rows[0].requestsPerSec;
  const table = rows.map((r) => ({ ...r, ratioToBare: Number((r.requestsPerSec / baseline).toFixed(3)) }));
  console.table(table.map((r) => ({ endpoint: r.name, 'req/s': r.requestsPerSec, 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms, 'x bare': r.ratioToBare, errors: r.errors + r.non2xx })));
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

/** Like lib/http-load's load(), for requests built per call (a new body, cart or key each time). */
async function loadRequests(name: string, base: string, requests: autocannon.Request[]): Promise<LoadResult> {
  const opts = { url: base, connections: CONNECTIONS, requests };
  await autocannon({ ...opts, duration: 2 });
  const r = await autocannon({ ...opts, duration: Number(process.env.BENCH_SECONDS ?? 8) });
  return {
    name,
    requestsPerSec: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    requests: r.requests.total,
  };
}

// `npx tsx bench/suites/commerce.ts` runs this suite alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runCommerceSuite();
  console.log(JSON.stringify(result.targets, null, 2));
}
