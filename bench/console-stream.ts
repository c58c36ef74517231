/**
 * Console live stream (issue 12 "new orders appear within 2 s"): a real server process on a fresh
 * demo database (SQLite), a budtender's SSE stream open on the downtown store, then orders placed
 * one after another through the real order API. Measured per order: from the order's 200 answer
 * (saved and committed) to its `event: order` frame arriving on the stream: the path kick → push
 * consumer → hub → SSE. Baseline in the same run: a plain GET /api/health round trip.
 * BENCH_STREAM_ORDERS (default 200) orders; p50/p99 in ms and p50 as a ratio to the baseline's.
 */
import { randomUUID } from 'node:crypto';
import { createDatabase } from '../apps/server/src/db/index.ts';
import { DEMO_STAFF_PASSWORD } from '../apps/server/src/staff/demo.ts';
import { openSse } from '../apps/server/test-support/realtime/sse-client.ts';
import { startServer } from './lib/processes.ts';

const HOST = 'downtown.localhost';
const SKU = 'AC-BLACK-CERAMIC-STASH-JAR';

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 100) / 100;
}

export async function runConsoleStreamSuite() {
  const orders = Number(process.env.BENCH_STREAM_ORDERS ?? 200);
  // Hundreds of orders from one address: the per-IP write limit would refuse them.
  const server = await startServer({ WRITE_RATE_LIMIT: '0', SERVE_STOREFRONT: 'false' });
  const base = `http://127.0.0.1:${server.port}`;
  const handle = await createDatabase({ dataDir: server.dataDir });
  try {
    await handle.db
      .updateTable('stock')
      .set({ qty: 1e9, is_in_stock: 1, manage_stock: 1 })
      .where('product_id', 'in', handle.db.selectFrom('products').select('id').where('sku', '=', SKU))
      .execute();
    const login = await fetch(`${base}/api/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'budtender@demo.verdant.test', password: DEMO_STAFF_PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`staff login answered ${login.status}`);
    const cookie = /^(verdant_staff=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    if (!cookie) throw new Error('no staff cookie');
    const stream = await openSse(`${base}/api/console/stores/1/events`, { cookie });
    await stream.waitFor((f) => f.event === 'ready', 5000);

    // Warm-up (JIT, connection pools), not measured.
    for (let i = 0; i < 20; i++) await fetch(`${base}/api/health`).then((r) => r.text());
    const health: number[] = [];
    for (let i = 0; i < orders; i++) {
      const t0 = performance.now();
      await fetch(`${base}/api/health`).then((r) => r.text());
      health.push(performance.now() - t0);
    }

    const latency: number[] = [];
    const save: number[] = [];
    for (let i = 0; i < orders + 5; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/order/save`, {
        method: 'POST',
        headers: { host: HOST, 'content-type': 'application/json' },
        body: JSON.stringify({
          idempotency_key: randomUUID(),
          products: [{ sku: SKU, qty: 1 }],
          order_type: 'pickup',
          personal_details: { firstName: 'Bench', lastName: 'Mark', emailAddress: 'bench@example.com', phone: '(916) 555-0100' }, birthday: '1990-01-01',
          payment_method: 'cashondelivery',
        }),
      });
      const saved = performance.now();
      const body = (await res.json()) as { result: { order_id: number } };
      if (res.status !== 200) throw new Error(`order save answered ${res.status}: ${JSON.stringify(body)}`);
      const frame = await stream.waitFor(
        (f) => f.event === 'order' && f.data.order_id === body.result.order_id,
        5000,
        Math.max(0, stream.frames.length - 5),
      );
      // The first 5 warm up.
      if (i < 5) continue;
      save.push(saved - t0);
      latency.push(Math.max(0, frame.at - saved));
    }
    stream.close();
    const result = {
      orders,
      saveToEventMs: { p50: pct(latency, 50), p99: pct(latency, 99), max: pct(latency, 100) },
      orderSaveMs: { p50: pct(save, 50), p99: pct(save, 99) },
      baselineHealthMs: { p50: pct(health, 50), p99: pct(health, 99) },
      p50RatioToHealth: Math.round((pct(latency, 50) / pct(health, 50)) * 100) / 100,
      within2s: latency.filter((ms) => ms < 2000).length / latency.length,
    };
    console.log('\nconsole stream (save → event on an open SSE stream):');
    console.table({
      'save → event': result.saveToEventMs,
      'order save round trip': result.orderSaveMs,
      'GET /api/health (baseline)': result.baselineHealthMs,
    });
    return result;
  } finally {
    await handle.destroy();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runConsoleStreamSuite(), null, 2));
}
