/**
 * The deals engine alone (issue 28, packages/domain/src/deals): 20-line carts against 200 active deals
 * of every kind (packages/domain/test-support/deals/synthetic.ts: about a third limited to other days,
 * hours or medical patients, a tenth that do not combine), p50/p99 per evaluation, in two stores:
 *  - the demo menu (32 products): a 20-line cart meets most of the deals, the engine's hardest case;
 *  - a synthetic store of 2,000 products (60 brands, sku deals over the whole menu).
 * In the same run, on the same carts: the engine before the speed work (its oracle,
 * test-support/deals/reference-engine.ts) and no deals at all, so the figures come as ratios too.
 * The deal list is prepared once (`prepareDeals`), as the server keeps it per store and deal version.
 * Each case runs ROUNDS rounds: the median round's p50/p99, and the p50/p99 of each cart's best time
 * over the rounds (the machine's other work taken out). Target: p99 < 1 ms. Not a test: nothing here fails a build.
 * `BENCH_ONLY=deals npm run bench`, or alone: `node --import tsx bench/suites/deals.ts`.
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { evaluateDeals, prepareDeals, type Deal, type DealCartLine, type DealContext, type DealsResult, type PreparedDeals } from '@verdant/domain';
import { DEMO_CATEGORY_PARENTS } from '../../packages/domain/test-support/deals/demo-products.fixture.ts';
import { referenceEvaluateDeals } from '../../packages/domain/test-support/deals/reference-engine.ts';
import { DEMO_MENU, syntheticCart, syntheticDeals, syntheticStore, type SyntheticMenu } from '../../packages/domain/test-support/deals/synthetic.ts';

const CARTS = 500;
const WARMUP = 300;
const ROUNDS = 5;
const LINES = 20;
const DEALS = 200;
const TARGET_P99_MS = 1;

const ctx: DealContext = {
  // A Wednesday at noon in Los Angeles.
  now: new Date('2026-06-17T19:00:00Z'),
  timeZone: 'America/Los_Angeles',
  customer: { licence: 'recreational', previousOrders: 3, groupId: 1 },
  categoryParents: DEMO_CATEGORY_PARENTS,
};

type Engine = (cart: readonly DealCartLine[]) => DealsResult;

interface Latency {
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  /** CPU time (user + system) per evaluation: what the machine's other work cannot add to. */
  cpuMeanMs: number;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function runOnce(engine: Engine, carts: readonly DealCartLine[][]): Latency & { exactShare: number; meanApplied: number; perCart: number[] } {
  for (let i = 0; i < WARMUP; i++) engine(carts[i % carts.length]);
  const times: number[] = [];
  let exact = 0;
  let applied = 0;
  const cpu0 = process.cpuUsage();
  for (const cart of carts) {
    const t0 = process.hrtime.bigint();
    const r = engine(cart);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.exact) exact += 1;
    applied += r.applied.length;
  }
  const cpu = process.cpuUsage(cpu0);
  const perCart = [...times];
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
  return {
    p50Ms: round3(pct(50)),
    p99Ms: round3(pct(99)),
    meanMs: round3(times.reduce((s, t) => s + t, 0) / times.length),
    maxMs: round3(times[times.length - 1]),
    cpuMeanMs: round3((cpu.user + cpu.system) / 1000 / carts.length),
    exactShare: round3(exact / carts.length),
    meanApplied: round3(applied / carts.length),
    perCart,
  };
}

/**
 * ROUNDS rounds; the round with the median p99, and each cart's best time over the rounds (p50/p99
 * of those: what the code costs without the machine's other work — on a shared machine a round's
 * wall-clock p99 is mostly time spent descheduled).
 */
function run(engine: Engine, carts: readonly DealCartLine[][]) {
  const rounds = Array.from({ length: ROUNDS }, () => runOnce(engine, carts));
  const best = carts.map((_, i) => Math.min(...rounds.map((r) => r.perCart[i]))).sort((a, b) => a - b);
  const pct = (p: number) => best[Math.min(best.length - 1, Math.ceil((p / 100) * best.length) - 1)];
  rounds.sort((a, b) => a.p99Ms - b.p99Ms);
  const { perCart: _, ...median } = rounds[Math.floor(ROUNDS / 2)];
  return { ...median, bestOfRounds: { p50Ms: round3(pct(50)), p99Ms: round3(pct(99)), maxMs: round3(best[best.length - 1]) }, rounds: rounds.map(({ p50Ms, p99Ms }) => ({ p50Ms, p99Ms })) };
}

function storeCase(name: string, menu: SyntheticMenu) {
  const deals: Deal[] = syntheticDeals(DEALS, 28, menu);
  const prepared: PreparedDeals = prepareDeals(deals);
  const carts = Array.from({ length: CARTS }, (_, i) => syntheticCart(LINES, i + 1, menu));
  const withDeals = run((cart) => evaluateDeals(cart, prepared, ctx), carts);
  const before = run((cart) => referenceEvaluateDeals(cart, deals, ctx), carts);
  const without = run((cart) => evaluateDeals(cart, [], ctx), carts);
  return {
    name,
    products: menu.products.length,
    withDeals,
    beforeSpeedWork: before,
    withoutDeals: without,
    /** With deals against no deals (p99). */
    ratioP99: Math.round((withDeals.p99Ms / Math.max(without.p99Ms, 0.001)) * 10) / 10,
    /** The engine before the speed work against now, same carts, same run (p50, p99). */
    speedUpP50: Math.round((before.p50Ms / Math.max(withDeals.p50Ms, 0.001)) * 10) / 10,
    speedUpP99: Math.round((before.p99Ms / Math.max(withDeals.p99Ms, 0.001)) * 10) / 10,
    /** Against the target: the round's wall-clock p99, and the p99 of each cart's best of the rounds. */
    target: { p99Ms: TARGET_P99_MS, actualMs: withDeals.p99Ms, met: withDeals.p99Ms < TARGET_P99_MS, bestOfRoundsMs: withDeals.bestOfRounds.p99Ms, bestOfRoundsMet: withDeals.bestOfRounds.p99Ms < TARGET_P99_MS },
  };
}

export async function runDealsSuite() {
  const loadBefore = os.loadavg()[0];
  const cases = [storeCase('demo menu', DEMO_MENU), storeCase('2,000-product store', syntheticStore(2000))];
  const row = (c: (typeof cases)[number], what: string, l: Latency & { exactShare: number; meanApplied: number; bestOfRounds: { p50Ms: number; p99Ms: number } }) => ({
    case: `${c.name} (${c.products} products), ${LINES} lines: ${what}`,
    'p50 ms': l.p50Ms,
    'p99 ms': l.p99Ms,
    'mean ms': l.meanMs,
    'max ms': l.maxMs,
    [`best-of-${ROUNDS} p50`]: l.bestOfRounds.p50Ms,
    [`best-of-${ROUNDS} p99`]: l.bestOfRounds.p99Ms,
    'cpu ms': l.cpuMeanMs,
    exact: l.exactShare,
    'deals applied': l.meanApplied,
  });
  console.table(cases.flatMap((c) => [row(c, `${DEALS} deals`, c.withDeals), row(c, `${DEALS} deals, engine before the speed work`, c.beforeSpeedWork), row(c, 'no deals', c.withoutDeals)]));
  return {
    carts: CARTS,
    lines: LINES,
    deals: DEALS,
    rounds: ROUNDS,
    loadAverage1m: { before: loadBefore, after: os.loadavg()[0], cpus: os.cpus().length },
    cases,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(JSON.stringify(await runDealsSuite(), null, 2));
