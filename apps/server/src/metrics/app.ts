/**
 * Issue 32: what an app (one node's server) measures, in the Prometheus text format operators'
 * scrapers read (prom-client): requests by route group, orders placed and refused (by reason),
 * catalogue builds and evictions, the page cache's hits, the outbox, message and webhook backlogs,
 * open console streams and PostgreSQL pool use; merged with the process's own figures (./process.ts:
 * memory, event-loop lag, deal evaluations, Redis) when read.
 *
 * Counts kept elsewhere as plain numbers (the catalogue manager's and the page cache's stats) are
 * read when scraped, so the hot paths gain nothing. Backlogs are counted in the database when
 * scraped (each on an index: pushed_at, messages_at, webhooks_at, status); they are deployment-wide
 * figures, the same on every node, so alert on them by `max`, not `sum`.
 *
 * Exposed by ./routes.ts: `GET /metrics` behind `METRICS_TOKEN`, or on `METRICS_PORT` alone.
 */
import client from 'prom-client';
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from '../db/schema.ts';
import type { CatalogIndexManager } from '../catalog/index-manager.ts';
import type { OutputCache } from '../ssr/output-cache.ts';
import { processRegistry } from './process.ts';

/** Latency buckets (seconds): pages and API answers are tens of milliseconds; a slow order save is seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface AppMetricsSources {
  db: Kysely<Database>;
  catalog: CatalogIndexManager;
  /** PostgreSQL only: the pool under Kysely. */
  pool?: pg.Pool;
}

export interface AppMetrics {
  /** Count one answered request (the onResponse hook). */
  observeRequest(method: string, routeUrl: string | undefined, url: string, status: number, seconds: number): void;
  orderPlaced(orderType: string): void;
  orderRefused(reason: string): void;
  /** Issue 32: a catalogue-reading request for another pool's store (POOLS_FILE) served here. */
  foreignStoreRequest(storeCode: string): void;
  /** The page cache, once the storefront is mounted. */
  setOutputCache(cache: OutputCache): void;
  /** Open console streams (SSE) on this node. */
  setStreams(count: () => number): void;
  /** The text `/metrics` answers: this app's figures and the process's. */
  text(): Promise<string>;
  readonly contentType: string;
}

export function createAppMetrics(sources: AppMetricsSources): AppMetrics {
  const registry = new client.Registry();
  const registers = [registry];
  let outputCache: OutputCache | undefined;
  let streams: () => number = () => 0;

  const requests = new client.Histogram({
    name: 'verdant_http_request_duration_seconds',
    help: 'Answered requests by route group, method and status class, and how long they took',
    labelNames: ['group', 'method', 'status'] as const,
    buckets: BUCKETS,
    registers,
  });
  const placed = new client.Counter({
    name: 'verdant_orders_placed_total',
    help: 'Orders placed (a replayed idempotency key counts once), by order type',
    labelNames: ['order_type'] as const,
    registers,
  });
  const refused = new client.Counter({
    name: 'verdant_orders_refused_total',
    help: 'Orders refused, by reason (purchase_limit, unavailable, validation, …)',
    labelNames: ['reason'] as const,
    registers,
  });

  /** A counter that follows a running total kept elsewhere (it only grows). */
  const followed = (name: string, help: string, read: () => number) => {
    let last = 0;
    new client.Counter({
      name,
      help,
      registers,
      collect() {
        const now = read();
        if (now > last) this.inc(now - last);
        last = now;
      },
    });
  };
  followed('verdant_catalogue_builds_total', 'Store catalogues built in memory (first request, eviction, full rebuild)', () => sources.catalog.stats.storeBuilds);
  followed('verdant_catalogue_evictions_total', 'Store catalogues dropped to stay within CATALOG_MAX_STORES', () => sources.catalog.stats.evictions);
  // Issue 32 (POOLS_FILE): other pools' stores asked of this node — the proxy's failover, or requests sent past the proxy.
  const foreign = new client.Counter({
    name: 'verdant_foreign_store_requests_total',
    help: "Catalogue-reading requests (pages, catalogue, cart APIs) for a store of another pool than this node's, by store",
    labelNames: ['store'] as const,
    registers,
  });
  followed('verdant_catalogue_foreign_builds_total', "Catalogues of another pool's stores built on this node", () => sources.catalog.stats.foreignBuilds);
  followed('verdant_catalogue_reindexes_total', 'Products reindexed after a catalogue change', () => sources.catalog.stats.productReindexes);
  new client.Gauge({
    name: 'verdant_catalogue_stores_loaded',
    help: 'Store catalogues held in memory on this node',
    registers,
    collect() {
      this.set(sources.catalog.loadedStores().length);
    },
  });
  followed('verdant_page_cache_hits_total', 'Storefront pages answered from the output cache', () => outputCache?.hits ?? 0);
  followed('verdant_page_cache_misses_total', 'Cacheable storefront pages rendered because the cache had none', () => outputCache?.misses ?? 0);
  new client.Gauge({
    name: 'verdant_console_streams',
    help: 'Open console event streams (SSE) on this node',
    registers,
    collect() {
      this.set(streams());
    },
  });

  new client.Gauge({
    name: 'verdant_outbox_backlog',
    help: 'Order events not yet handled, by consumer (push = console streams, messages, webhooks, analytics); deployment-wide',
    labelNames: ['consumer'] as const,
    registers,
    async collect() {
      const db = sources.db;
      const [push, messages, webhooks, analytics] = await Promise.all(
        (['pushed_at', 'messages_at', 'webhooks_at', 'analytics_at'] as const).map((column) =>
          db.selectFrom('outbox_events').select(sql<number>`count(*)`.as('n')).where(column, 'is', null).executeTakeFirstOrThrow(),
        ),
      );
      this.set({ consumer: 'push' }, Number(push.n));
      this.set({ consumer: 'messages' }, Number(messages.n));
      this.set({ consumer: 'webhooks' }, Number(webhooks.n));
      this.set({ consumer: 'analytics' }, Number(analytics.n));
    },
  });
  new client.Gauge({
    name: 'verdant_message_deliveries',
    help: 'SMS and e-mail messages waiting to go or given up on, by channel and status; deployment-wide',
    labelNames: ['channel', 'status'] as const,
    registers,
    async collect() {
      const rows = await sources.db
        .selectFrom('message_deliveries')
        .select(['channel', 'status', sql<number>`count(*)`.as('n')])
        .where('status', 'in', ['pending', 'failed'])
        .groupBy(['channel', 'status'])
        .execute();
      this.reset();
      for (const channel of ['sms', 'email']) for (const status of ['pending', 'failed']) this.set({ channel, status }, 0);
      for (const r of rows) this.set({ channel: r.channel, status: r.status }, Number(r.n));
    },
  });
  new client.Gauge({
    name: 'verdant_webhook_deliveries',
    help: 'Webhook deliveries waiting (pending) or given up on (failed); deployment-wide',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const rows = await sources.db
        .selectFrom('webhook_deliveries')
        .select(['status', sql<number>`count(*)`.as('n')])
        .where('status', 'in', ['pending', 'failed'])
        .groupBy('status')
        .execute();
      this.set({ status: 'pending' }, 0);
      this.set({ status: 'failed' }, 0);
      for (const r of rows) this.set({ status: r.status }, Number(r.n));
    },
  });

  const pool = sources.pool;
  if (pool) {
    new client.Gauge({
      name: 'verdant_pg_pool_connections',
      help: 'PostgreSQL pool connections of this node: total open, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers,
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  return {
    observeRequest(method, routeUrl, url, status, seconds) {
      const group = routeGroup(routeUrl, url);
      if (group === null) return;
      requests.observe({ group, method, status: `${Math.floor(status / 100)}xx` }, seconds);
    },
    orderPlaced: (orderType) => placed.inc({ order_type: orderType }),
    orderRefused: (reason) => refused.inc({ reason }),
    foreignStoreRequest: (store) => foreign.inc({ store }),
    setOutputCache(cache) {
      outputCache = cache;
    },
    setStreams(count) {
      streams = count;
    },
    async text() {
      return client.Registry.merge([processRegistry, registry]).metrics();
    },
    contentType: registry.contentType,
  };
}

/**
 * A request's group, a bounded label (never the URL itself: one series per product page would
 * swamp the scraper): the API by area, the console app, static files, storefront pages. Null for
 * `/metrics` itself.
 */
export function routeGroup(routeUrl: string | undefined, url: string): string | null {
  // The path asked for, classified by its prefix (the catch-all `/api/*` route says nothing of the area).
  const path = url.split('?')[0];
  if (path === '/metrics') return null;
  if (routeUrl === undefined) return 'unmatched';
  const api = /^\/api\/([a-z-]+)/.exec(path);
  if (api) {
    const area = api[1];
    if (area === 'order' || area === 'orders' || area === 'order-tracking') return 'api:orders';
    if (area === 'catalog' || area === 'url' || area === 'cms' || area === 'snapshot') return 'api:catalogue';
    if (API_AREAS.has(area)) return `api:${area}`;
    return 'api:other';
  }
  if (path.startsWith('/console')) return 'console';
  if (path.startsWith('/assets/') || path.startsWith('/media/') || path.startsWith('/img/')) return 'static';
  return 'pages';
}
const API_AREAS = new Set(['console', 'integration', 'cart', 'user', 'messages', 'health', 'stock-alerts', 'reviews', 'uploads', 'newsletter', 'curbside']);
