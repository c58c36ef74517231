/**
 * Issue 32, both databases and real Redis: `/metrics` speaks the Prometheus text format behind its
 * token (or on a port of its own), and its figures follow what the node did: requests by route
 * group, orders placed and refused by reason (a burst counted exactly), catalogue builds, the page
 * cache, backlogs, PostgreSQL's pool, Redis connections, the runtime.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { orderBody, pin, REFERENCE_DATE, registry } from '../../test-support/cart/testing.ts';
import { createTestDatabase, describeEachDatabase } from '../../test-support/databases.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile, seedDemo, seedDemoDeals } from '../seed/index.ts';
import { routeGroup } from './app.ts';
import { startMetricsServer } from './routes.ts';

const TOKEN = randomBytes(16).toString('hex');
const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const EIGHTH = 'FL-BLUE-DREAM-8TH';

/** `name{a="x",b="y"} 12` lines as { name, labels, value }. */
function parse(text: string) {
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(l);
      if (!m) throw new Error(`not a sample line: ${l}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
      return { name: m[1], labels, value: Number(m[3]) };
    });
}
type Sample = ReturnType<typeof parse>[number];
const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);

describeEachDatabase('metrics', (getDb) => {
  let app: FastifyInstance;
  let ip = 0;
  const scrape = async () => {
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parse(res.body);
  };
  const order = (products: { sku: string; qty: number }[]) =>
    app.inject({
      method: 'POST',
      url: '/api/order/save',
      remoteAddress: `10.88.${Math.floor(++ip / 250)}.${ip % 250}`,
      headers: { host: 'downtown.localhost' },
      payload: orderBody({ products }),
    });

  beforeAll(async () => {
    const { db, dataDir } = getDb();
    await seedDemo(db, readStoresFile(DEMO_STORES_FILE), { dataDir, referenceDate: REFERENCE_DATE });
    // The demo deals: carts and orders run the deal engine.
    await seedDemoDeals(db, readStoresFile(DEMO_STORES_FILE), REFERENCE_DATE);
    app = await buildApp({
      config: {
        dataDir,
        demoMode: true,
        production: true,
        logLevel: 'silent',
        redisUrl: process.env.REDIS_URL,
        redisPrefix: `test-metrics-${randomBytes(4).toString('hex')}:`,
        metricsToken: TOKEN,
      },
      registry,
      db,
      logger: false,
      clock: () => REFERENCE_DATE,
    });
    await pin(db, 1, JAR, { price: 2699, special: null, tiers: [], stock: 100_000 });
    await pin(db, 1, EIGHTH, { price: 5200, special: null, tiers: [], stock: 100_000 });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers only with the token, in the Prometheus text format', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toEqual({ code: 401, result: 'A valid metrics token is required' });
    }
    const samples = await scrape();
    // The runtime: resident memory, heap, event-loop lag.
    expect(sum(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect(sum(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    // Redis: the connections this node opened are up.
    const redis = samples.filter((s) => s.name === 'verdant_redis_clients' && s.value > 0);
    expect(redis.length).toBeGreaterThan(0);
    expect(redis.filter((s) => s.labels.status === 'ready').map((s) => s.labels.purpose)).toEqual(
      expect.arrayContaining(['catalogue-pub', 'catalogue-sub', 'outbox-pub', 'outbox-sub']),
    );
    // The rest are there from the first scrape, zero or not.
    for (const name of ['verdant_console_streams', 'verdant_page_cache_hits_total', 'verdant_catalogue_evictions_total', 'verdant_message_deliveries', 'verdant_webhook_deliveries', 'verdant_outbox_backlog'])
      expect(samples.some((s) => s.name === name), name).toBe(true);
    // PostgreSQL only: the pool.
    if (getDb().dialect === 'postgres') expect(sum(samples, 'verdant_pg_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    else expect(samples.some((s) => s.name === 'verdant_pg_pool_connections')).toBe(false);
  });

  it('counts a burst of orders exactly, placed by type and refused by reason, and what they caused', async () => {
    const before = await scrape();
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, () => order([{ sku: JAR, qty: 1 }])),
      // 30 eighths of flower: past every state's flower limit.
      ...Array.from({ length: 3 }, () => order([{ sku: EIGHTH, qty: 30 }])),
      order([]),
    ]);
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(answers.slice(12, 15).map((a) => a.json().errorCode)).toEqual(['purchase_limit', 'purchase_limit', 'purchase_limit']);
    expect(statuses[15]).toBe(400);
    // A replayed key is the same order: not counted again.
    const replay = orderBody({ products: [{ sku: JAR, qty: 1 }] });
    for (let i = 0; i < 2; i++)
      expect((await app.inject({ method: 'POST', url: '/api/order/save', remoteAddress: '10.89.0.1', headers: { host: 'downtown.localhost' }, payload: replay })).statusCode).toBe(200);

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => sum(after, name, labels) - sum(before, name, labels);
    expect(delta('verdant_orders_placed_total', { order_type: 'pickup' })).toBe(13);
    expect(delta('verdant_orders_refused_total', { reason: 'purchase_limit' })).toBe(3);
    expect(delta('verdant_orders_refused_total')).toBe(4);
    // Every answer is one observation of its group: 16 + 2 order saves, each with its duration.
    expect(delta('verdant_http_request_duration_seconds_count', { group: 'api:orders', method: 'POST' })).toBe(18);
    expect(delta('verdant_http_request_duration_seconds_count', { group: 'api:orders', status: '4xx' })).toBe(4);
    expect(delta('verdant_http_request_duration_seconds_sum', { group: 'api:orders' })).toBeGreaterThan(0);
    // Pricing 13 carts ran the deal engine at least that often.
    expect(delta('verdant_deal_evaluations_total', { where: 'cart' })).toBeGreaterThanOrEqual(13);
    // The orders' events wait for (or have passed) their consumers; never negative, never more than were written.
    const backlog = sum(after, 'verdant_outbox_backlog', { consumer: 'webhooks' });
    expect(backlog).toBeGreaterThanOrEqual(0);
    expect(sum(after, 'verdant_webhook_deliveries', { status: 'failed' })).toBe(0);
  });

  it('follows the catalogue and the API by group, and never counts its own scrapes', async () => {
    const before = await scrape();
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: '/api/catalog/products', headers: { host: 'eastside.localhost' } });
      expect(res.statusCode).toBeLessThan(500);
    }
    await app.inject({ method: 'GET', url: '/api/nothing-here', headers: { host: 'eastside.localhost' } });
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => sum(after, name, labels) - sum(before, name, labels);
    // Eastside's catalogue was built for these requests, once.
    expect(delta('verdant_catalogue_builds_total')).toBe(1);
    expect(sum(after, 'verdant_catalogue_stores_loaded')).toBeGreaterThanOrEqual(1);
    expect(delta('verdant_http_request_duration_seconds_count', { group: 'api:catalogue' })).toBe(3);
    expect(delta('verdant_http_request_duration_seconds_count', { group: 'api:other', status: '4xx' })).toBe(1);
    expect(after.some((s) => s.name.startsWith('verdant_http') && s.labels.group === 'metrics')).toBe(false);
  });

  it('serves the same text on a port of its own, and nothing else there', async () => {
    const server = await startMetricsServer(app.metrics, 0);
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(res.status).toBe(200);
      const samples = parse(await res.text());
      expect(sum(samples, 'verdant_orders_placed_total')).toBeGreaterThanOrEqual(13);
      expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('metrics without a token', () => {
  it('are not served on the node’s port', async () => {
    const t = await createTestDatabase('sqlite');
    const app = await buildApp({ config: { dataDir: t.dataDir, demoMode: true, production: true, logLevel: 'silent' }, registry, db: t.db, logger: false });
    try {
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await app.close();
      await t.cleanup();
    }
  });
});

describe('route groups', () => {
  it('are a bounded set, never the URL', () => {
    expect(routeGroup('/api/order/save', '/api/order/save')).toBe('api:orders');
    expect(routeGroup('/api/console/stores/:storeId/orders', '/api/console/stores/1/orders')).toBe('api:console');
    expect(routeGroup('/api/catalog/product/:sku', '/api/catalog/product/x')).toBe('api:catalogue');
    expect(routeGroup('/api/integration/v1/stock', '/api/integration/v1/stock')).toBe('api:integration');
    expect(routeGroup('/api/zz-new/:x', '/api/zz-new/1')).toBe('api:other');
    expect(routeGroup('/api/*', '/api/nothing/here')).toBe('api:other');
    expect(routeGroup('/api/*', '/api/cart/nope')).toBe('api:cart');
    expect(routeGroup('/console/*', '/console/stores/1')).toBe('console');
    expect(routeGroup('/media/*', '/media/a.png')).toBe('static');
    expect(routeGroup('/*', '/menu/flower/blue-dream')).toBe('pages');
    expect(routeGroup(undefined, '/whatever')).toBe('unmatched');
    expect(routeGroup('/metrics', '/metrics')).toBeNull();
  });
});
