/**
 * How many queries each step of the 4/20 run's order journey asks PostgreSQL (cart create → add a
 * line → totals → pickup → place the order), on one app over the demo catalogue in a fresh schema.
 * Every query a pg client sends while a step is answered is counted for that step (steps follow at
 * once, as the 4/20 shoppers' do); what the order sets off after its answer (outbox consumers,
 * the catalogue's stock patch) is counted for 300 ms after it, together with any poll that falls
 * in that time. The third journey is printed (the first two warm the caches); `--sql` lists them.
 *
 *   npx tsx bench/lib/journey-queries.ts [--sql]      (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/test)
 *
 * Not a timed bench: the figures are counts (bench/SCALE.md, "The 4/20 run").
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { pin, REFERENCE_DATE, registry, Shopper } from '../../apps/server/test-support/cart/testing.ts';
import { DEMO_STORES_FILE } from '../../apps/server/src/config.ts';
import { createDatabase, migrateToLatest } from '../../apps/server/src/db/index.ts';
import { readStoresFile, seedDemo } from '../../apps/server/src/seed/index.ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(
    [
      'Usage: npx tsx bench/lib/journey-queries.ts [--sql]',
      "  Counts the queries each step of the 4/20 order journey sends PostgreSQL (a schema of its own, dropped after).",
      "  --sql          list each step's queries",
      '  BENCH_PG_URL   the PostgreSQL to use (default postgres://postgres@127.0.0.1:5432/test)',
    ].join('\n'),
  );
  process.exit(0);
}

const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const listSql = process.argv.includes('--sql');
const SKU = 'CN-JACK-HERER-LIVE-ROSIN-1-G';

const sent: string[] = [];
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const q = args[0] as string | { text?: string };
  sent.push((typeof q === 'string' ? q : (q?.text ?? '')).replace(/\s+/g, ' ').trim());
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

const schema = `journey_${process.pid}`;
const dataDir = await mkdtemp(join(tmpdir(), 'verdant-journey-'));
const handle = await createDatabase({ databaseUrl: url, dataDir, schema });
try {
  await migrateToLatest(handle.db);
  await seedDemo(handle.db, readStoresFile(DEMO_STORES_FILE), { dataDir, referenceDate: REFERENCE_DATE });
  await pin(handle.db, 1, SKU, { price: 3500, special: null, tiers: [], stock: 1_000_000 });
  const app = await buildApp({
    config: { dataDir, demoMode: true, production: true, logLevel: 'silent' },
    registry,
    db: handle.db,
    logger: false,
  });
  const person = { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' };
  const settle = () => new Promise((r) => setTimeout(r, 300));
  const row = (step: string) => {
    rows.push({ step, queries: sent.length });
    if (listSql) for (const q of sent) console.log(`${step}: ${q.slice(0, 200)}`);
  };
  const rows: { step: string; queries: number }[] = [];
  for (let journey = 1; journey <= 3; journey++) {
    const s = new Shopper(app);
    const step = async (name: string, run: () => Promise<unknown>) => {
      sent.length = 0;
      await run();
      if (journey === 3) row(name);
    };
    await step('cart/create', () => s.createCart());
    await step('cart/update', () => s.update({ sku: SKU, qty: 1 }));
    await step('cart/totals', () => s.call('GET', `/api/cart/totals?cartId=${s.token}`));
    await step('cart/shipping-information', () =>
      s.call('POST', `/api/cart/shipping-information?cartId=${s.token}`, { addressInformation: { shipping_method_code: 'pickup' } }),
    );
    await step('order/save', async () => {
      const r = await s.call('POST', '/api/order/save', {
        idempotency_key: randomUUID(),
        cart_id: s.token,
        order_type: 'pickup',
        license_type: 'recreational',
        personal_details: person,
        birthday: '1990-01-01',
        payment_method: 'cashondelivery',
      });
      if (r.status !== 200) throw new Error(`order/save answered ${r.status}: ${JSON.stringify(r.result)}`);
    });
    sent.length = 0;
    await settle();
    if (journey === 3) row('after the order (300 ms)');
  }
  rows.push({ step: 'journey', queries: rows.reduce((n, r) => n + r.queries, 0) });
  console.table(rows);
  await app.close();
} finally {
  await handle.destroy();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`drop schema if exists "${schema}" cascade`);
  await client.end();
  await rm(dataDir, { recursive: true, force: true });
}
