/**
 * The console's order queue at size: `GET /api/console/stores/:storeId/orders` of a real server
 * process (SQLite, demo mode, logged in as the demo owner) over one store holding 10,000 orders,
 * against the same requests over 100 orders measured in the same run (the baseline):
 *  - first page (50 newest), a filtered page (status + type + store-local date range),
 *    a name search, a phone search (typed with punctuation), a last-4-digits search, and a page deep
 *    in the cursor chain.
 * Reported: p50/p99 latency and req/s at 10 connections, and each 10k figure over its 100-order
 * baseline. Orders are written straight into the database (placing 10,000 through the API would
 * measure placing); the rows are shaped like placed ones (items, contact details, statuses).
 *
 *   BENCH_ONLY=console-orders npm run bench   or   npx tsx bench/console-orders.ts
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { createDatabase } from '../apps/server/src/db/index.ts';
import { orderSearchKeys } from '../apps/server/src/orders/console/search-keys.ts';
import { startServer } from './lib/processes.ts';

const HOST = 'downtown.localhost';
const STORE_ID = 1;
const BIG = 10_000;
const SMALL = 100;
const CONNECTIONS = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const STATUSES = ['submitted', 'confirmed', 'ready_for_pickup', 'completed', 'completed', 'completed', 'cancelled'] as const;
const FIRST = ['Ana', 'Bob', 'Cara', 'Dan', 'Eve', 'Fay', 'Gus', 'Hana', 'Ivan', 'June'];
const LAST = ['Reyes', 'Stone', 'Diaz', 'Moss', 'Lane', 'Park', 'Quinn', 'Ruiz', 'Shaw', 'Tran'];

type Db = Awaited<ReturnType<typeof createDatabase>>['db'];

/** Orders `from`…`to`-1 of the store, one every 3 minutes back from 2026-06-15 (newest last). */
async function seedOrders(db: Db, from: number, to: number): Promise<void> {
  const start = Date.parse('2026-06-15T20:00:00Z');
  for (let chunk = from; chunk < to; chunk += 500) {
    const n = Math.min(500, to - chunk);
    await db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: n }, (_, k) => {
        const i = chunk + k;
        const at = new Date(start - (BIG - i) * 180_000).toISOString();
        const first = FIRST[i % FIRST.length];
        const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
        const who = {
          firstName: first,
          lastName: last,
          emailAddress: `${first.toLowerCase()}${i}@example.com`,
          phone: `(916) 555-${String(i % 10000).padStart(4, '0')}`,
        };
        return {
          increment_id: `DB-${String(100000 + i)}`,
          store_id: STORE_ID,
          customer_id: null,
          idempotency_key: `bench-${i}-${Math.random().toString(36).slice(2)}`,
          status: STATUSES[i % STATUSES.length],
          order_type: i % 4 === 0 ? ('delivery' as const) : ('pickup' as const),
          license_type: 'recreational' as const,
          subtotal_cents: 2000 + (i % 50) * 100,
          total_cents: 2500 + (i % 50) * 120,
          personal_details: JSON.stringify(who),
          // As placing writes them: what the queue's search reads (orders/console/search-keys.ts).
          ...orderSearchKeys(who),
          verification_needs: '[]',
          status_changed_at: at,
          created_at: at,
          updated_at: at,
        };
      });
      const ids = await trx.insertInto('orders').values(rows).returning('id').execute();
      await trx
        .insertInto('order_items')
        .values(
          ids.map(({ id }, k) => ({
            order_id: id,
            product_id: null,
            sku: 'BENCH-SKU',
            parent_sku: null,
            name: 'Bench item',
            type_id: 'simple',
            qty: 1 + ((chunk + k) % 3),
            size: null,
            uom: 'unit',
            price_cents: 2000,
            row_total_cents: 2000,
            product_option: null,
          })),
        )
        .execute();
    });
  }
}

interface Row {
  name: string;
  orders: number;
  'p50 ms': number;
  'p99 ms': number;
  'req/s': number;
  non2xx: number;
}

async function measure(name: string, orders: number, base: string, path: string, headers: Record<string, string>): Promise<Row> {
  const opts = { url: base + path, connections: CONNECTIONS, headers: { host: HOST, ...headers } };
  await autocannon({ ...opts, duration: 1 });
  const r = await autocannon({ ...opts, duration: SECONDS });
  return {
    name,
    orders,
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    'req/s': Math.round(r.requests.average),
    non2xx: r.non2xx + r.errors + r.timeouts,
  };
}

export async function runConsoleOrdersSuite() {
  const server = await startServer({ WRITE_RATE_LIMIT: '0' });
  const handle = await createDatabase({ dataDir: server.dataDir });
  const base = `http://127.0.0.1:${server.port}`;
  const rows: Row[] = [];
  try {
    const login = await fetch(`${base}/api/console/session`, {
      method: 'POST',
      headers: { host: HOST, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@demo.verdant.test', password: 'verdant-demo-staff' }),
    });
    if (login.status !== 200) throw new Error(`console login answered ${login.status}: ${await login.text()}`);
    const cookie = /^(verdant_staff=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    if (!cookie) throw new Error('no staff cookie');
    const headers = { cookie };
    const list = `/api/console/stores/${STORE_ID}/orders`;

    /** A cursor some pages deep (page 20 of 50: order 1,000 back at 10k). */
    const deepCursor = async (pages: number) => {
      let cursor = '';
      for (let p = 0; p < pages; p++) {
        const r = await fetch(`${base}${list}?limit=50${cursor ? `&cursor=${cursor}` : ''}`, { headers: { host: HOST, ...headers } });
        const next = (await r.json()).result.nextCursor;
        if (!next) break;
        cursor = next;
      }
      return cursor;
    };

    const suite = async (orders: number) => {
      const deep = await deepCursor(orders === BIG ? 20 : 1);
      const cases: [string, string][] = [
        ['first page (50 newest)', `${list}?limit=50`],
        ['filtered page (status, type, dates)', `${list}?status=submitted,confirmed&type=pickup&from=2026-06-01&to=2026-06-15&limit=50`],
        ['search by name', `${list}?q=${encodeURIComponent('ana reyes')}&limit=50`],
        ['search by phone', `${list}?q=${encodeURIComponent('(916) 555-0042')}&limit=50`],
        ['search by last 4 digits', `${list}?q=0042&limit=50`],
        ['deep page (cursor)', `${list}?limit=50${deep ? `&cursor=${deep}` : ''}`],
      ];
      for (const [name, path] of cases) rows.push(await measure(name, orders, base, path, headers));
    };

    await seedOrders(handle.db, BIG - SMALL, BIG);
    await suite(SMALL);
    await seedOrders(handle.db, 0, BIG - SMALL);
    await suite(BIG);
  } finally {
    await handle.destroy();
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
  const ratios = rows
    .filter((r) => r.orders === BIG)
    .map((r) => {
      const small = rows.find((s) => s.orders === SMALL && s.name === r.name)!;
      return {
        name: r.name,
        p50Ratio: Number((r['p50 ms'] / Math.max(small['p50 ms'], 0.01)).toFixed(2)),
        rpsRatio: Number((r['req/s'] / small['req/s']).toFixed(3)),
      };
    });
  console.table(rows);
  console.table(ratios);
  return { connections: CONNECTIONS, seconds: SECONDS, rows, ratiosTo100Orders: ratios };
}

// `npx tsx bench/console-orders.ts` runs this suite alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  await runConsoleOrdersSuite();
}
