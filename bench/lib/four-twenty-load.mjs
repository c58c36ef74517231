// The load generator of the 4/20 run (bench/suites/four-twenty.ts), in a process of its own so its
// event loop is not the one measuring. Plain JavaScript (no tsx): it starts fast and spends nothing
// on a loader. Open model: shoppers arrive at fixed rates whatever the servers answer —
//  - order journeys (ORDERS per second): cart create → add one line → totals → pickup → place the
//    order (POST /api/order/save with the cart), each call on the next node in turn (no stickiness:
//    carts live in the database);
//  - browsing (BROWSE per second): home, category and product pages (SSR, age-gate cookies) and
//    catalogue searches, across every store, store popularity Zipf-like (BENCH_420_STORE_SKEW);
//  - the bare Node server (BARE per second): the round-trip baseline, under the same load.
// An arrival that starts more than `lateMs` after its time is a miss (it still runs); one that would
// exceed `maxInFlight` journeys is a miss and does not run.
//
//   node bench/lib/four-twenty-load.mjs <config.json>      (writes config.out when done)
//
// Also driven by the rolling-restart test (apps/server/src/multinode/rolling-restart.test.ts), through
// a proxy: SIGUSR2 ends the schedule early (then the drain and the report as usual), `barePerS: 0`
// sends no baseline request, and a store's `home` replaces `/` (an API-only node has no pages).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
// Idle pooled sockets are closed here after 30 s. The servers answer `Keep-Alive: timeout=72` (Fastify's
// default) and close an idle connection then; Node's agent takes that hint as its own idle limit, so a
// request could be written on a socket the server was closing at the same instant: `read ECONNRESET`,
// an error of this client (a browser retries such a request on a new connection). A run saw 10 at
// once, in minute 2, for sockets opened in the warm-up's burst and idle since.
const IDLE_SOCKET_MS = 30_000;
const agents = config.nodes.map(() => new http.Agent({ keepAlive: true, maxSockets: config.maxSockets ?? 256, timeout: IDLE_SOCKET_MS }));
const bareAgent = new http.Agent({ keepAlive: true, maxSockets: 16, timeout: IDLE_SOCKET_MS });

// Deterministic pseudo-random numbers (mulberry32): the same run picks the same stores and pages.
let seed = config.seed ?? 420;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (xs) => xs[Math.floor(random() * xs.length)];

// Store popularity: weight 1 / rank^skew (0: uniform), over the stores in a fixed shuffled order.
function weightedPicker(items, skew) {
  const cumulative = [];
  let total = 0;
  items.forEach((_, i) => cumulative.push((total += 1 / Math.pow(i + 1, skew))));
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo];
  };
}
const browseStore = weightedPicker(config.stores, config.storeSkew);
const orderStores = config.stores.filter((s) => s.orderSkus.length > 0);
const orderStore = weightedPicker(orderStores, config.storeSkew);

let nextNode = 0;
function request(method, path, host, { body, cookie, json = true, node } = {}) {
  const i = node ?? nextNode++ % config.nodes.length;
  return send(agents[i], config.nodes[i], method, path, host, body, cookie, json).then((r) => ({ ...r, node: i }));
}

function send(agent, port, method, path, host, body, cookie, json) {
  return new Promise((resolve) => {
    const startedAt = performance.now();
    const t0 = process.hrtime.bigint();
    const headers = { host };
    if (cookie) headers.cookie = cookie;
    let payload;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        let parsed = null;
        if (json) {
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            parsed = null;
          }
        }
        resolve({ status: res.statusCode ?? 0, ms, json: parsed, startedAt });
      });
      res.on('error', (err) =>
        resolve({ status: -1, ms: Number(process.hrtime.bigint() - t0) / 1e6, json: null, error: String(err), startedAt }),
      );
    });
    req.setTimeout(config.timeoutMs ?? 30_000, () => req.destroy(new Error('timeout')));
    req.on('error', (err) =>
      resolve({ status: -1, ms: Number(process.hrtime.bigint() - t0) / 1e6, json: null, error: String(err), startedAt }),
    );
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

// ---- recording: per minute of the measured window (index -1: warm-up, kept apart) ----
let measureStart = Infinity;
const minutes = new Map();
const lastMinute = Math.max(0, Math.ceil(config.seconds / 60) - 1);
function bucket(at = performance.now()) {
  // A journey's later calls may start after the window: they count in its last minute.
  const m = at < measureStart ? -1 : Math.min(lastMinute, Math.floor((at - measureStart) / 60_000));
  let b = minutes.get(m);
  if (!b) {
    b = {
      latency: { page: [], search: [], api: [], order: [], journey: [], bare: [] },
      count: { page: 0, search: 0, api: 0, order: 0, bare: 0 },
      byNode: config.nodes.map(() => ({ requests: 0, errors: 0 })),
      errors: 0,
      refusals: 0,
      ordersAccepted: 0,
      ordersScheduled: 0,
      ordersMissed: 0,
      ordersLate: 0,
      ordersDropped: 0,
      journeysFailed: 0,
      ordersRefused: 0,
      browseScheduled: 0,
      browseMissed: 0,
      startLagMs: [],
    };
    minutes.set(m, b);
  }
  return b;
}

const errorSamples = new Map();
const refusalKinds = new Map();
const REFUSAL = /out of stock|no longer available|not available|sold out|only \d+|not enough|slot|closed|cannot be added/i;
const note = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);

/** A journey that ended without an order: an expected refusal (e.g. sold out) or a failure. */
function ended(b, outcome) {
  if (outcome === 'refused') b.ordersRefused += 1;
  else b.journeysFailed += 1;
}

/** Record one answer; returns 'ok', 'refused' (an expected business refusal) or 'error'. */
function record(kind, r, what) {
  // Counted in the minute the request started (a slow answer is not moved past the window).
  const b = bucket(r.startedAt);
  b.count[kind] += 1;
  b.latency[kind].push(Math.round(r.ms * 100) / 100);
  if (r.node !== undefined) b.byNode[r.node].requests += 1;
  if (r.status >= 200 && r.status < 300) return 'ok';
  const message = r.json && typeof r.json.result === 'string' ? r.json.result : (r.json?.result?.message ?? r.json?.message ?? '');
  const code = r.json?.result?.errorCode ?? r.json?.errorCode ?? '';
  if ((r.status === 400 || r.status === 409) && (REFUSAL.test(message) || /stock|slot|closed/.test(code))) {
    b.refusals += 1;
    note(refusalKinds, `${what} ${r.status}: ${message || code}`);
    return 'refused';
  }
  b.errors += 1;
  if (r.node !== undefined) b.byNode[r.node].errors += 1;
  note(errorSamples, `${what} ${r.status}: ${(r.error ?? message ?? '').slice(0, 200)}`);
  return 'error';
}

const person = { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' };
const accepted = [];
let inFlight = 0;

async function orderJourney(scheduledAt) {
  const b = bucket(scheduledAt);
  inFlight += 1;
  const t0 = performance.now();
  let step;
  try {
    const store = orderStore();
    const contended = config.contended.length > 0 && random() < config.contendedShare;
    const line = contended ? pick(config.contended) : { host: store.host, sku: pick(store.orderSkus) };
    const host = line.host;
    const created = await request('POST', '/api/cart/create', host, { body: {} });
    if ((step = record('api', created, 'cart/create')) !== 'ok') return void ended(b, step);
    const cart = created.json.result;
    const q = `?cartId=${encodeURIComponent(cart)}`;
    const added = await request('POST', `/api/cart/update${q}`, host, { body: { cartItem: { sku: line.sku, qty: 1, quoteId: cart } } });
    if ((step = record('api', added, 'cart/update')) !== 'ok') return void ended(b, step);
    const totals = await request('GET', `/api/cart/totals${q}`, host);
    if ((step = record('api', totals, 'cart/totals')) !== 'ok') return void ended(b, step);
    const shipping = await request('POST', `/api/cart/shipping-information${q}`, host, {
      body: { addressInformation: { shipping_method_code: 'pickup' } },
    });
    if ((step = record('api', shipping, 'cart/shipping-information')) !== 'ok') return void ended(b, step);
    const key = randomUUID();
    const placed = await request('POST', '/api/order/save', host, {
      body: {
        idempotency_key: key,
        cart_id: cart,
        order_type: 'pickup',
        license_type: 'recreational',
        personal_details: person,
        birthday: '1990-01-01',
        payment_method: 'cashondelivery',
      },
    });
    const outcome = record('order', placed, 'order/save');
    if (outcome === 'ok') {
      const measured = scheduledAt >= measureStart;
      accepted.push({ key, host, sku: line.sku, contended, measured, increment: placed.json?.result?.increment_id ?? null });
      b.ordersAccepted += 1;
      b.latency.journey.push(Math.round((performance.now() - t0) * 100) / 100);
    } else ended(b, outcome);
  } finally {
    inFlight -= 1;
  }
}

async function browse() {
  const store = browseStore();
  const roll = random();
  const cookie = `verdant_age=1; verdant_license=${store.license}`;
  if (roll < 0.2) {
    const r = await request('GET', pick(store.searches), store.host);
    record('search', r, 'search');
    return;
  }
  const path = roll < 0.45 ? (store.home ?? '/') : roll < 0.7 ? pick(store.categories) : pick(store.products);
  const r = await request('GET', path, store.host, { cookie, json: false });
  record('page', r, `page ${path}`);
}

async function bare() {
  const r = await send(bareAgent, config.barePort, 'GET', '/', 'localhost', undefined, undefined, false);
  record('bare', r, 'bare');
}

// ---- the schedule ----
const ms = (perS) => (perS > 0 ? 1000 / perS : Infinity);
const startAt = performance.now();
measureStart = startAt + config.warmupS * 1000;
let endAt = measureStart + config.seconds * 1000;
process.on('SIGUSR2', () => (endAt = Math.min(endAt, performance.now())));
const pending = new Set();
let nextOrder = startAt;
let nextBrowse = startAt;
let nextBare = config.barePerS > 0 ? measureStart : Infinity;
const track = (p) => {
  pending.add(p);
  p.finally(() => pending.delete(p));
};

await new Promise((resolve) => {
  const tick = () => {
    const now = performance.now();
    while (nextOrder <= now && nextOrder < endAt) {
      const b = bucket(nextOrder);
      b.ordersScheduled += 1;
      const lag = now - nextOrder;
      b.startLagMs.push(Math.round(lag * 10) / 10);
      if (inFlight >= config.maxInFlight) {
        b.ordersMissed += 1;
        b.ordersDropped += 1;
      } else {
        if (lag > config.lateMs) {
          b.ordersMissed += 1;
          b.ordersLate += 1;
        }
        track(orderJourney(nextOrder));
      }
      nextOrder += ms(config.ordersPerS);
    }
    while (nextBrowse <= now && nextBrowse < endAt) {
      const b = bucket(nextBrowse);
      b.browseScheduled += 1;
      if (now - nextBrowse > config.lateMs) b.browseMissed += 1;
      track(browse());
      nextBrowse += ms(config.browsePerS);
    }
    while (nextBare <= now && nextBare < endAt) {
      track(bare());
      nextBare += ms(config.barePerS);
    }
    if (now >= endAt) return resolve();
    setTimeout(tick, 1);
  };
  tick();
});
// Drain: answers still on their way count where they started; past drainS whatever is left (an
// overloaded node can hold thousands of queued requests) is reported as unfinished, not awaited.
const drained = await Promise.race([
  Promise.all([...pending]).then(() => true),
  new Promise((r) => setTimeout(() => r(false), (config.drainS ?? 60) * 1000)),
]);
const unfinished = drained ? 0 : pending.size;

const out = {
  warmupS: config.warmupS,
  seconds: config.seconds,
  measuredMs: endAt - measureStart,
  minutes: Object.fromEntries([...minutes].sort(([a], [b]) => a - b)),
  errorSamples: Object.fromEntries([...errorSamples].sort((a, b) => b[1] - a[1]).slice(0, 30)),
  refusalKinds: Object.fromEntries([...refusalKinds].sort((a, b) => b[1] - a[1]).slice(0, 30)),
  accepted,
  unfinished,
};
fs.writeFileSync(config.out, JSON.stringify(out));
for (const a of agents) a.destroy();
bareAgent.destroy();
process.exit(0);
