/**
 * Deals through the real server (issue 28 "Speed"): a seeded store of 2,000 products (`npm run seed --
 * --stores 1 --products 2000`) with 200 active deals of every kind made by the deals repository (the
 * console's and the integration API's code path; product sets over the store's own skus, brands and
 * categories: test-support/deals/synthetic.ts), carts of up to 20 lines built with POST /api/cart/update,
 * then, one request at a time on one connection:
 *  - POST /api/cart/update (set one line's quantity),
 *  - GET /api/cart/totals (the engine runs here: cart/view.ts → deals/apply.ts),
 *  - the two back to back (what the storefront sends when a shopper changes a quantity),
 * with the store's 200 deals active and with none (the same deals paused), the same carts and
 * requests, in interleaved rounds (the order of the two alternating each round), p50/p99 of each and
 * the with/without ratio. Between phases the bench flips the deals' status in the database and waits
 * out the server's 1 s active-deals cache. Lines the purchase limits refuse are left out of a cart.
 *
 * Knobs: BENCH_DEALS_SERVER_CARTS (carts, default 40), BENCH_DEALS_SERVER_ROUNDS (rounds, default 4),
 * BENCH_DEALS_SERVER_PASSES (measured passes over the carts per phase and round, default 3),
 * BENCH_DEALS_SERVER_PROFILE=1 (the server runs with --cpu-prof; the top functions are printed and the
 * profile kept under bench/results/deals-server-profile/), BENCH_DEALS_SERVER_ANSWERS=<file> (writes each
 * cart's totals with deals there, or, when the file exists, compares with it and counts differences:
 * a check that a speed change kept the answers).
 * `BENCH_ONLY=deals-server npm run bench`, or alone: `node --import tsx bench/suites/deals-server.ts`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createDatabase } from '../../apps/server/src/db/index.ts';
import { dealCatalogFacts } from '../../apps/server/src/deals/facts.ts';
import { DealsRepository } from '../../apps/server/src/deals/repository.ts';
import { rng, syntheticDeals } from '../../packages/domain/test-support/deals/synthetic.ts';
import { summariseCpuProfile } from '../lib/cpuprofile-summary.ts';
import { seedDeployment, startServer } from '../lib/processes.ts';

const PRODUCTS = 2000;
const DEALS = 200;
const LINES = 20;
const envInt = (name: string, dflt: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : dflt;
};
const CARTS = envInt('BENCH_DEALS_SERVER_CARTS', 40);
const ROUNDS = envInt('BENCH_DEALS_SERVER_ROUNDS', 4);
const PASSES = envInt('BENCH_DEALS_SERVER_PASSES', 3);
const PROFILE = process.env.BENCH_DEALS_SERVER_PROFILE === '1';
const ANSWERS = process.env.BENCH_DEALS_SERVER_ANSWERS ?? '';
const PROFILE_DIR = path.join(import.meta.dirname, '../results/deals-server-profile');
/** Longer than the server's active-deals cache (deals/repository.ts, 1 s). */
const CACHE_WAIT_MS = 1300;

type Mode = 'deals' | 'none';
type Req = 'update' | 'totals' | 'update + totals';
const REQS: Req[] = ['update', 'totals', 'update + totals'];

interface Cart {
  token: string;
  lines: { itemId: number; sku: string; qty: number }[];
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export async function runDealsServerSuite() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-deals-server-'));
  seedDeployment({ stores: 1, products: PRODUCTS, dataDir, referenceDate: '2026-06-15T12:00:00Z' });
  const storesFile = path.join(dataDir, 'stores.json');
  const store = (JSON.parse(fs.readFileSync(storesFile, 'utf8')) as { stores: { storeId: number; storeCode: string }[] }).stores[0];
  const host = `${store.storeCode}.localhost`;
  const handle = await createDatabase({ dataDir });
  const db = handle.db;
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    // Sellable simple products with stock to spare.
    const products = await db
      .selectFrom('products')
      .innerJoin('product_prices', 'product_prices.product_id', 'products.id')
      .select(['products.id', 'products.sku'])
      .where('products.store_id', '=', store.storeId)
      .where('products.type_id', '=', 'simple')
      .where('products.status', '=', 1)
      .orderBy('products.id')
      .execute();
    const ids = products.map((p) => p.id);
    await db.updateTable('stock').set({ qty: 1e9, is_in_stock: 1, manage_stock: 1 }).where('product_id', 'in', ids).execute();

    // 200 deals over the store's own products (the seeded demo deals ended first).
    const facts = await dealCatalogFacts(db, store.storeId, ids);
    const all = [...facts.products.values()];
    const menu = {
      products: all,
      brandIds: [...new Set(all.flatMap((p) => (p.brandId != null ? [p.brandId] : [])))],
      categoryIds: [...new Set(all.flatMap((p) => p.categoryIds))],
    };
    await db.updateTable('deals').set({ status: 'ended' }).where('store_id', '=', store.storeId).execute();
    const repo = new DealsRepository({ db });
    const codes: string[] = [];
    for (const deal of syntheticDeals(DEALS, 28, menu)) {
      codes.push((await repo.create(store.storeId, { ...deal, id: `bench-${deal.id}` }, { type: 'system', name: 'Bench' }, { source: 'cli' })).code);
    }
    const setDeals = async (mode: Mode) => {
      await db
        .updateTable('deals')
        .set({ status: mode === 'deals' ? 'active' : 'paused' })
        .where('store_id', '=', store.storeId)
        .where('code', 'in', codes)
        .execute();
      await new Promise((r) => setTimeout(r, CACHE_WAIT_MS));
    };

    server = await startServer({ DATA_DIR: dataDir, STORES_FILE: storesFile, WRITE_RATE_LIMIT: '0', REDIS_URL: '', NODE_ENV: 'production' }, undefined, PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []);
    const base = `http://127.0.0.1:${server.port}`;
    const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await fetch(base + url, {
        method,
        headers: { host, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: (await res.json()) as any };
    };

    // Carts: up to 20 distinct products each, 1–3 units, in a seeded order; a line the limits refuse is left out.
    const carts: Cart[] = [];
    let refused = 0;
    for (let c = 0; c < CARTS; c++) {
      const r = rng(c + 1);
      const token = (await call('POST', '/api/cart/create', {})).json.result as string;
      const cart: Cart = { token, lines: [] };
      const pool = [...products];
      for (let tries = 0; cart.lines.length < LINES && tries < LINES * 3 && pool.length; tries++) {
        const p = pool.splice(r.int(0, pool.length - 1), 1)[0];
        const qty = r.int(1, 3);
        const res = await call('POST', `/api/cart/update?cartId=${token}`, { cartItem: { sku: p.sku, qty, quoteId: token } });
        if (res.status === 200) cart.lines.push({ itemId: res.json.result.item_id, sku: p.sku, qty });
        else refused += 1;
      }
      carts.push(cart);
    }

    // One request of each kind for one cart; the update sets a line to 1 unit or back to its own
    // quantity (never more than the limits let in).
    let flip = 0;
    const update = async (cart: Cart) => {
      const line = cart.lines[flip % cart.lines.length];
      const qty = (flip >> 1) % 2 === 0 ? 1 : line.qty;
      flip += 1;
      const res = await call('POST', `/api/cart/update?cartId=${cart.token}`, { cartItem: { item_id: line.itemId, sku: line.sku, qty, quoteId: cart.token } });
      if (res.status !== 200) throw new Error(`cart/update answered ${res.status}: ${JSON.stringify(res.json)}`);
    };
    const totals = async (cart: Cart) => {
      const res = await call('GET', `/api/cart/totals?cartId=${cart.token}`);
      if (res.status !== 200) throw new Error(`cart/totals answered ${res.status}: ${JSON.stringify(res.json)}`);
      return res.json.result;
    };
    const timed = async <T>(f: () => Promise<T>): Promise<[number, T]> => {
      const t0 = process.hrtime.bigint();
      const v = await f();
      return [Number(process.hrtime.bigint() - t0) / 1e6, v];
    };

    const samples: Record<Mode, Record<Req, number[]>> = {
      deals: { update: [], totals: [], 'update + totals': [] },
      none: { update: [], totals: [], 'update + totals': [] },
    };
    let discounted = 0;
    let dealsApplied = 0;
    let totalsWithDeals = 0;
    const phase = async (mode: Mode) => {
      await setDeals(mode);
      // Warm-up: one pass (the server reads and prepares the deals again after the flip).
      for (const cart of carts) {
        await update(cart);
        await totals(cart);
      }
      for (let pass = 0; pass < PASSES; pass++) {
        for (const cart of carts) {
          const [u] = await timed(() => update(cart));
          const [t, result] = await timed(() => totals(cart));
          samples[mode].update.push(u);
          samples[mode].totals.push(t);
          samples[mode]['update + totals'].push(u + t);
          if (mode === 'deals') {
            totalsWithDeals += 1;
            if (result.deal_discount > 0) discounted += 1;
            dealsApplied += result.deals?.applied?.length ?? 0;
          }
        }
      }
    };
    for (let round = 0; round < ROUNDS; round++) {
      const order: Mode[] = round % 2 === 0 ? ['deals', 'none'] : ['none', 'deals'];
      for (const m of order) await phase(m);
    }

    // The answers with deals, every line at its own quantity (set back first).
    await setDeals('deals');
    const answers: Record<string, unknown>[] = [];
    for (const cart of carts) {
      for (const line of cart.lines) await call('POST', `/api/cart/update?cartId=${cart.token}`, { cartItem: { item_id: line.itemId, sku: line.sku, qty: line.qty, quoteId: cart.token } });
      const t = await totals(cart);
      answers.push({ lines: cart.lines.map((l) => `${l.sku}×${l.qty}`).join(' '), deal_discount: t.deal_discount, grand_total: t.grand_total, items: t.items?.map((i: any) => i.deals) });
    }
    let answersCheck: { file: string; compared: number; different: number } | { file: string; written: number } | null = null;
    if (ANSWERS) {
      if (fs.existsSync(ANSWERS)) {
        const before = JSON.parse(fs.readFileSync(ANSWERS, 'utf8')) as Record<string, unknown>[];
        const different = answers.filter((a, i) => JSON.stringify(a) !== JSON.stringify(before[i])).length;
        answersCheck = { file: ANSWERS, compared: Math.min(before.length, answers.length), different: different + Math.abs(before.length - answers.length) };
      } else {
        fs.writeFileSync(ANSWERS, JSON.stringify(answers, null, 1) + '\n');
        answersCheck = { file: ANSWERS, written: answers.length };
      }
    }

    const stats = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return { n: s.length, p50Ms: round3(pct(s, 50)), p99Ms: round3(pct(s, 99)), meanMs: round3(s.reduce((a, b) => a + b, 0) / s.length) };
    };
    const rows = REQS.map((req) => {
      const withDeals = stats(samples.deals[req]);
      const without = stats(samples.none[req]);
      return {
        request: req,
        withDeals,
        withoutDeals: without,
        ratioP50: Math.round((withDeals.p50Ms / without.p50Ms) * 100) / 100,
        ratioP99: Math.round((withDeals.p99Ms / without.p99Ms) * 100) / 100,
      };
    });
    console.table(
      rows.map((r) => ({
        request: r.request,
        'deals p50 ms': r.withDeals.p50Ms,
        'deals p99 ms': r.withDeals.p99Ms,
        'none p50 ms': r.withoutDeals.p50Ms,
        'none p99 ms': r.withoutDeals.p99Ms,
        'x p50': r.ratioP50,
        'x p99': r.ratioP99,
        samples: r.withDeals.n,
      })),
    );
    const meanLines = carts.reduce((n, c) => n + c.lines.length, 0) / carts.length;
    let profile: unknown = null;
    if (PROFILE) {
      const pid = server.child.pid;
      await server.stop();
      server = null;
      // The main thread's profile (thread 0; the others are tsx's loader workers).
      const name = fs.readdirSync(PROFILE_DIR).find((f) => f.includes(`.${pid}.0.`) && f.endsWith('.cpuprofile'));
      if (!name) throw new Error(`no main-thread profile of process ${pid} in ${PROFILE_DIR}`);
      const file = path.join(PROFILE_DIR, name);
      const s = summariseCpuProfile(file, 25);
      console.log(`profile: ${file}`);
      console.table(s.byFunction);
      console.table(s.inclusive);
      profile = { file, byFunction: s.byFunction, inclusive: s.inclusive };
    }
    return {
      products: PRODUCTS,
      sellableSimpleProducts: products.length,
      deals: DEALS,
      carts: CARTS,
      meanLines: round3(meanLines),
      linesRefusedByLimits: refused,
      rounds: ROUNDS,
      passes: PASSES,
      withDeals: { totalsWithADiscount: round3(discounted / Math.max(1, totalsWithDeals)), meanDealsApplied: round3(dealsApplied / Math.max(1, totalsWithDeals)) },
      rows,
      answersCheck,
      loadAverage1m: os.loadavg()[0],
      profile,
    };
  } finally {
    await handle.destroy();
    if (server) await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runDealsServerSuite();
  console.log(JSON.stringify({ ...result, profile: result.profile ? '(above)' : null }, null, 2));
}
