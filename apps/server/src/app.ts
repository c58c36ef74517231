import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Kysely } from 'kysely';
import type { Store } from '@verdant/domain';
import type { AppContext, StoreDirectoryEntry } from '@verdant/web/context';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/schema.ts';
import { ApiError, sendError } from './http/envelope.ts';
import { frameworkErrors, installBodyPolicy } from './http/body-policy.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { installOpenApiCollector } from './openapi/document.ts';
import { registerOpenApiRoutes } from './openapi/routes.ts';
import { registerWriteLimits, writeLimitFromEnv, type WriteLimitConfig } from './http/write-limits.ts';
import type { StoreRegistry } from './stores/registry.ts';
import { registerStoreviewRoutes } from './stores/storeview.ts';
import { CatalogIndexManager } from './catalog/index-manager.ts';
import { redisBus } from './catalog/change-bus.ts';
import { registerCatalogRoutes } from './catalog/routes.ts';
import { registerSnapshotRoutes } from './catalog/snapshot-routes.ts';
import { registerUrlRoutes } from './urls/routes.ts';
import { registerCmsRoutes } from './cms/routes.ts';
import { registerImageRoutes } from './images/routes.ts';
import { registerPwaRoutes } from './pwa/routes.ts';
import { registerSeoRoutes } from './seo/routes.ts';
import { registerCommerceRoutes } from './commerce.ts';
import { registerAccountRoutes } from './users/index.ts';
import { registerCurbsideRoutes } from './orders/curbside/routes.ts';
import { registerStockAlertRoutes } from './alerts/routes.ts';
import { GUEST_WATCHES_PER_IP_PER_HOUR } from './alerts/service.ts';
import { registerReviewRoutes } from './reviews/routes.ts';
import { registerReviewConsoleRoutes } from './reviews/console-routes.ts';
import { registerCustomerConsoleRoutes } from './customers/console-routes.ts';
import { productReviews } from './reviews/index.ts';
import { registerNewsletterRoutes } from './newsletter/routes.ts';
import { registerUploadRoutes } from './uploads/routes.ts';
import { registerPrivacyRoutes } from './privacy/routes.ts';
import { registerDataRightsRoutes } from './privacy/rights-routes.ts';
import { registerStoreExportRoutes } from './store-export/routes.ts';
import { createStorefrontServices } from './ssr/services.ts';
import { loadWebBuild, registerSsr } from './ssr/mount.ts';
import { trackOrderFor } from './ssr/order-tracking.ts';
import { curbsideFor } from './ssr/curbside.ts';
import { stockAlertsFor } from './ssr/stock-alerts.ts';
import { OutputCache } from './ssr/output-cache.ts';
import { createOutboxSignal, type OutboxSignal } from './outbox/signal.ts';
import { registerWebhooks } from './webhooks/index.ts';
import { registerMenuAdminRoutes } from './menu-admin/routes.ts';
import { registerConsole } from './console/serve.ts';
import { registerStaff } from './staff/index.ts';
import { registerOutboxDispatcher } from './outbox/dispatcher.ts';
import { registerAnalytics } from './analytics/index.ts';
import { registerMessageRoutes } from './notifications/console-routes.ts';
import { registerProviderRoutes } from './notifications/provider-routes.ts';
import { registerRealtimeRoutes } from './realtime/console-routes.ts';
import { registerOrderLifecycle } from './orders/lifecycle/index.ts';
import { StoreSettings } from './store-settings/service.ts';
import { DealsRepository } from './deals/repository.ts';
import { registerDealConsoleRoutes } from './deals/console-routes.ts';
import { registerDeliveryConsoleRoutes } from './delivery/console-routes.ts';
import { registerDriverRoutes } from './delivery/driver-routes.ts';
import { registerPaperworkRoutes } from './delivery/paperwork-routes.ts';
import { registerLoyaltyRoutes } from './loyalty/routes.ts';
import { registerDealIntegrationRoutes } from './deals/integration-routes.ts';
import { pageDealState, pageDealsSourceOf } from './deals/page-source.ts';
import { bindStoreSettings, sectionOf } from './store-settings/read.ts';
import { TAX_SECTION } from './tax/section.ts';
import { bindStoreLimits } from './limits/enforce.ts';
import { registerStoreSettingsRoutes } from './store-settings/routes.ts';
import { registerHoursRoutes } from './hours/routes.ts';
import { storefrontHours } from './hours/storefront.ts';
import { invalidatePagesOnSettingsSave, storefrontOptions } from './store-settings/storefront.ts';
import { registerIntegration, type IntegrationRateLimit } from './integration/index.ts';
import { createAppMetrics, type AppMetrics } from './metrics/app.ts';
import { registerMetricsRoute } from './metrics/routes.ts';
import { databaseInfo } from './db/registry.ts';
import { withRequestId } from './http/request-context.ts';
import { installLifecycle, type Lifecycle } from './http/graceful-shutdown.ts';
import { warmStores, type NodePool } from './pools/pools.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Drop what this process cached for a store (pages, home lists) after its catalogue changed. */
    invalidateStore(storeId?: number): void;
    /** Register a cache of this process that must be dropped with a store's catalogue. */
    onStoreInvalidated(listener: (storeId?: number) => void): void;
    /** Every store's in-memory catalogue; call `catalog.catalogChanged(storeId, productIds?)` after writing it. */
    catalog: CatalogIndexManager;
    /** Wake the outbox consumers after committing a transaction that wrote outbox events (outbox/append.ts). */
    outbox: OutboxSignal;
    /** Each store's own settings by section (hours, zones, tax, limits, …; store-settings/). */
    storeSettings: StoreSettings;
    /** Each store's deals (issue 28; deals/repository.ts): the active ones cached 1 s per node, dropped on a change. */
    deals: DealsRepository;
    /** Issue 32: this node's figures for /metrics (metrics/app.ts). */
    metrics: AppMetrics;
    /** Issue 32: draining on SIGTERM and requests in flight (http/graceful-shutdown.ts). */
    lifecycle: Lifecycle;
  }
  interface FastifyRequest {
    /** The store this request is for (host or store-code path prefix, spec §1/§2). */
    store: Store;
    /** '' or '/{storeCode}' when the path carried the store code. */
    storePathPrefix: string;
  }
}

export interface AppDeps {
  config: Pick<
    ServerConfig,
    'dataDir' | 'demoMode' | 'production' | 'logLevel' | 'redisUrl' | 'authSecret' | 'smsProvider' | 'smsHttpUrl'
  > &
    Partial<Pick<ServerConfig, 'mailProvider' | 'mailHttpUrl' | 'mailReceipts' | 'smsReceipts' | 'messageStatusSecret' | 'messageReceiptWaitSeconds' | 'redisPrefix' | 'trustProxy' | 'catalogMaxStores' | 'catalogWarmStores' | 'metricsToken' | 'nodeName'>>;
  registry: StoreRegistry;
  /** Issue 32: this node's pool (POOLS_FILE + NODE_POOL, checked by main.ts); unset: every store is this node's. */
  pool?: NodePool;
  db: Kysely<Database>;
  /** Directory of the React Router build; omit to serve the API only (API tests). */
  webBuildDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** The time prices and special windows are judged at (tests pin it); default now. */
  clock?: () => Date;
  /** Per-IP limit on cart, order, account and newsletter writes; default WRITE_RATE_LIMIT/WINDOW. */
  writeLimit?: WriteLimitConfig;
  /** Per-API-key limit of the integration API; default INTEGRATION_RATE_LIMIT/WINDOW. */
  integrationRateLimit?: IntegrationRateLimit;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? { level: deps.config.logLevel },
    // Forwarded headers count only from proxies TRUST_PROXY names (default none): request.ip feeds
    // the per-IP limits, and request.host/protocol the store and the links in sitemaps.
    trustProxy: trustProxyOption(deps.config.trustProxy),
    // Ids in logs let one shopper's requests be followed.
    requestIdHeader: 'x-request-id',
    // One line per response (below) instead of Fastify's two per request.
    logController: new LogController({ disableRequestLogging: true }),
    // A broken escape in the path (`/api/catalog/product/%ZZ`) answers the envelope, pages too.
    frameworkErrors,
    // Issue 32 (http/graceful-shutdown.ts): a request that arrives on a kept-alive connection while the
    // node closes (the proxy picked that connection just before) is served, not refused with a 503.
    return503OnClosing: false,
  });
  // Draining on SIGTERM and the count of requests in flight: first, so its hooks see every request.
  app.decorate('lifecycle', installLifecycle(app));
  // Issue 32: the request id known to everything the request runs (http/request-context.ts), first of all hooks.
  app.addHook('onRequest', (request, _reply, done) => withRequestId(request.id, done));
  // JSON-object bodies only on the API, before any route exists (its onRoute hook sees them all).
  installBodyPolicy(app);
  installOpenApiCollector(app); // OpenAPI document of every route registered after this (openapi/).
  await registerSecurityHeaders(app);
  await registerWriteLimits(app, {
    limit: deps.writeLimit ?? writeLimitFromEnv(),
    redisUrl: deps.config.redisUrl,
    redisPrefix: deps.config.redisPrefix,
  });

  // Errors and slow answers at warn, the rest at debug (LOG_LEVEL=debug shows every request).
  // The line is not even built when its level is off (the usual debug case: every request).
  const debugOn = deps.config.logLevel === 'debug' || deps.config.logLevel === 'trace';
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    const level = reply.statusCode >= 500 || ms > 1000 ? 'warn' : 'debug';
    if (level === 'debug' && !debugOn) return done();
    request.log[level](
      { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(ms), store: request.store?.storeCode },
      'response',
    );
    done();
  });

  app.decorate(
    'outbox',
    createOutboxSignal((err) => app.log.warn({ err }, 'outbox consumer failed')),
  );
  app.decorateRequest('store', null as unknown as Store);
  app.decorateRequest('storePathPrefix', '');
  const invalidationListeners: ((storeId?: number) => void)[] = [];
  app.decorate('onStoreInvalidated', (listener: (storeId?: number) => void) => {
    invalidationListeners.push(listener);
  });
  // Callback-style hook: one per request, no promise.
  app.addHook('onRequest', (request, reply, done) => {
    // Client navigations fetch `{path}.data` (React Router single fetch): resolve on the page path.
    const pathname = request.url.split('?')[0].replace(/\.data$/, '');
    // X-Forwarded-Host only when the proxy is trusted (request.host follows trustProxy).
    const host = request.host;
    const resolved = deps.registry.resolve(host, pathname);
    request.store = resolved.store;
    request.storePathPrefix = resolved.pathPrefix;
    // Multistore by path (spec §4: the client adds storeCode to its calls): a page under
    // `/{code}/…` calls `/api/…?storeCode={code}`. The code may only name a store the path prefix
    // could name as well, so it opens nothing a URL could not; unknown codes change nothing.
    const api = pathname.startsWith('/api/');
    if (api && !resolved.pathPrefix) {
      const code = (request.query as Record<string, unknown> | undefined)?.storeCode;
      const named = typeof code === 'string' && code !== '' ? deps.registry.byCode(code.toLowerCase()) : undefined;
      if (named) request.store = named;
    }
    done();
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof ApiError) return sendError(reply, error.statusCode, error.message, error.extra);
    const status = error.statusCode;
    // Fastify's own 4xx (bad JSON, payload too large, unsupported type) keep their status and text.
    if (status && status >= 400 && status < 500) return sendError(reply, status, error.message);
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'Internal Server Error 500');
  });

  // Issue 32: with pools, this node's stores (the others are served too, counted as foreign), and its name on every answer.
  const homeStores = deps.pool?.storeCodes.flatMap((code) => deps.registry.byCode(code)?.storeId ?? []);
  const nodeName = deps.config.nodeName ?? (deps.pool ? os.hostname() : undefined);
  if (nodeName)
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header('x-verdant-node', nodeName);
      done();
    });
  // Each store's catalogue in memory; with REDIS_URL, changes reach the other nodes by pub/sub.
  const catalog = new CatalogIndexManager({
    db: deps.db,
    stores: deps.registry.stores,
    bus: deps.config.redisUrl
      ? redisBus({
          url: deps.config.redisUrl,
          channel: `${deps.config.redisPrefix ?? 'verdant:'}catalog-changed`,
          onError: (err) => app.log.warn({ err }, 'redis (catalogue changes)'),
        })
      : undefined,
    onChanged: (storeId) => app.invalidateStore(storeId),
    clock: deps.clock,
    log: app.log,
    maxStores: deps.config.catalogMaxStores,
    home: homeStores,
    warm: warmStores(deps.registry, deps.pool, deps.config.catalogWarmStores ?? [], deps.config.catalogMaxStores, (codes) =>
      app.log.warn({ codes, pool: deps.pool?.name }, "CATALOG_WARM_STORES names stores of another pool: not warmed here"),
    ),
  });
  if (deps.pool) app.log.info({ pool: deps.pool.name, stores: deps.pool.storeCodes.length, node: nodeName }, "this node's pool (POOLS_FILE, NODE_POOL)");
  // Builds nothing (issue 15): readiness does not wait for catalogues.
  await catalog.start();
  app.decorate('catalog', catalog);
  // Issue 32: every answer counted by route group (metrics/app.ts), read at /metrics (metrics/routes.ts).
  const metrics = createAppMetrics({ db: deps.db, catalog, pool: databaseInfo(deps.db)?.pool });
  app.decorate('metrics', metrics);
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url, request.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  registerMetricsRoute(app, metrics, deps.config.metricsToken);
  // A request that may read its store's catalogue (pages, sitemaps, the catalogue/URL/CMS/snapshot
  // and cart APIs) waits for it to be loaded (built on first need, one build for concurrent requests)
  // and holds it until its response, so handlers keep reading it synchronously (`catalog.catalog(id)`)
  // and eviction never drops it under them. Other APIs (orders, console, integration…) do not load
  // it; whatever reads a store not loaded falls back to the database (cart/catalog-source.ts).
  app.addHook('onRequest', async (request) => {
    if (!request.store) return;
    const pathname = request.url.split('?')[0];
    if (!readsCatalogue(pathname)) return;
    const ids = new Set([request.store.storeId]);
    // http/request-store.ts requestStore: `?storeCode` names the store of these routes.
    const code = (request.query as Record<string, unknown> | undefined)?.storeCode;
    const named = typeof code === 'string' && code.trim() !== '' ? deps.registry.byCode(code.trim().toLowerCase()) : undefined;
    if (named) ids.add(named.storeId);
    // Issue 32: another pool's store asked here is served, and counted (the proxy sends a store to its pool).
    for (const store of named && named.storeId !== request.store.storeId ? [request.store, named] : [request.store])
      if (catalog.isForeign(store.storeId)) {
        metrics.foreignStoreRequest(store.storeCode);
        request.log.debug({ store: store.storeCode }, "a request for another pool's store (foreign)");
      }
    for (const id of ids) catalogHolds.set(request, [...(catalogHolds.get(request) ?? []), await catalog.acquire(id)]);
  });
  const releaseCatalog = (request: FastifyRequest) => {
    for (const release of catalogHolds.get(request) ?? []) release();
    catalogHolds.delete(request);
  };
  app.addHook('onResponse', async (request) => releaseCatalog(request));
  app.addHook('onRequestAbort', async (request) => releaseCatalog(request));
  // Checks every store's `settings` of the stores file: a bad section stops the start, naming the field.
  app.decorate('storeSettings', new StoreSettings({ db: deps.db, stores: deps.registry.stores, now: deps.clock }));
  // Hours, limits and tax lines are read through it (and its 1 s cache) by code handed only a connection and a store.
  bindStoreSettings(app.storeSettings, deps.registry.stores);
  app.decorate('deals', new DealsRepository({ db: deps.db, now: deps.clock }));
  // Pages that show deals (home specials, /sale) are in the output cache: a change drops the store's.
  app.deals.onChanged((storeId) => app.invalidateStore(storeId));
  bindStoreLimits(deps.registry.stores);
  // Tax lines (issue 14) feed the catalogue's `taxrule` view and the offline snapshot: a save rebuilds the store there and on every node.
  // Issue 30: so does the `reviews` switch: a store that shows no reviews carries no rating in its documents.
  app.storeSettings.onSaved(async (storeId, section) => {
    if (section === 'tax' || section === 'reviews')
      await catalog
        .catalogChanged(storeId)
        .catch((err: unknown) => app.log.warn({ err, storeId, section }, 'settings saved; catalogue not rebuilt'));
  });
  app.addHook('onClose', async () => catalog.close());
  // Issue 28: the pages show the deals live now (deals/page-deals.ts), read through the deals' 1 s cache.
  const storefront = createStorefrontServices({ manager: catalog, clock: deps.clock, deals: (store) => pageDealsSourceOf(app, store) });
  const catalogDeps = {
    registry: deps.registry,
    manager: catalog,
    services: storefront.services,
    clock: deps.clock ?? (() => new Date()),
    pageDeals: (store: Store) => pageDealsSourceOf(app, store),
    // The offline estimate taxes by the store's named lines (issue 28: an offline cart's estimate = what the server charges).
    taxLines: async (store: Store) => (await sectionOf(deps.db, store, TAX_SECTION)).value.lines,
  };

  // First of the routes: the staff guard's onRoute hook must see every /api/console route.
  registerStaff(app, { db: deps.db, now: deps.clock });
  registerStoreviewRoutes(app, deps.registry);
  registerCatalogRoutes(app, catalogDeps);
  registerSnapshotRoutes(app, catalogDeps);
  registerUrlRoutes(app, catalogDeps);
  registerCmsRoutes(app, catalogDeps);
  registerImageRoutes(app, { dataDir: deps.config.dataDir });
  registerSeoRoutes(app, catalogDeps);
  registerPwaRoutes(app);
  registerConsole(app);
  registerCommerceRoutes(app, { db: deps.db, registry: deps.registry, now: deps.clock, catalog });
  const accounts = registerAccountRoutes(app, { db: deps.db, config: deps.config, now: deps.clock });
  // Issue 29: the shopper's curbside "I'm here" (the link is signed with the accounts' secret).
  registerCurbsideRoutes(app, { db: deps.db, secret: accounts.secret, now: deps.clock });
  // Issue 30: back-in-stock watches and their one-tap unsubscribe link (signed with the accounts' secret).
  const alertDeps = {
    db: deps.db,
    secret: accounts.secret,
    now: deps.clock ?? (() => new Date()),
    limitGuest: (ip: string) => accounts.limiter.hit(`stock-alert-ip:${ip}`, GUEST_WATCHES_PER_IP_PER_HOUR, 3_600_000),
  };
  registerStockAlertRoutes(app, alertDeps);
  // Issue 30: product reviews (shopper) and their moderation (console).
  registerReviewRoutes(app, { db: deps.db, now: deps.clock });
  registerReviewConsoleRoutes(app, { db: deps.db, now: deps.clock });
  // Issue 31: customer records (directory, profile, staff notes).
  registerCustomerConsoleRoutes(app, { db: deps.db, stores: deps.registry.stores, now: deps.clock });
  registerNewsletterRoutes(app);
  registerUploadRoutes(app);
  // Issue 31: the data-retention job, its run log and the document view log.
  registerPrivacyRoutes(app, { db: deps.db, storeIds: deps.registry.stores.map((s) => s.storeId), now: deps.clock });
  // Issue 31: the shopper's data export and account deletion (privacy/rights-routes.ts).
  registerDataRightsRoutes(app);
  // Issue 31: the store-wide export for owners (store-export/routes.ts).
  registerStoreExportRoutes(app, { db: deps.db, now: deps.clock });
  registerOrderLifecycle(app, { db: deps.db, now: deps.clock });
  registerWebhooks(app, { db: deps.db, production: deps.config.production });
  // Issue 14: a saved hours, zones or age section drops the store's cached pages (what they show of it).
  invalidatePagesOnSettingsSave(app);
  registerStoreSettingsRoutes(app, app.storeSettings);
  registerHoursRoutes(app, { db: deps.db, now: deps.clock });
  registerIntegration(app, {
    db: deps.db,
    production: deps.config.production,
    redisUrl: deps.config.redisUrl,
    redisPrefix: deps.config.redisPrefix,
    now: deps.clock,
    rateLimit: deps.integrationRateLimit,
    // Deals by the store's own ids (issue 28), with the integration API's key check and idempotency.
    extraRoutes: [(helpers) => registerDealIntegrationRoutes(app, { db: deps.db, ...helpers })],
  });
  registerMenuAdminRoutes(app, { db: deps.db, now: deps.clock ?? (() => new Date()) });
  registerDealConsoleRoutes(app, { db: deps.db, stores: deps.registry.stores, now: deps.clock });
  // Drivers, vehicles and trips (issue 29).
  registerDeliveryConsoleRoutes(app, { db: deps.db, stores: deps.registry.stores, now: deps.clock });
  // The driver's phone and the end of a trip (issue 29).
  registerDriverRoutes(app, { db: deps.db, stores: deps.registry.stores, now: deps.clock });
  // Delivery paperwork: manifests, receipts, end-of-day records, export, retention (issue 29).
  registerPaperworkRoutes(app, { db: deps.db, stores: deps.registry.stores, now: deps.clock });
  // Loyalty points: the shopper's account and the hourly expiry job (issue 30).
  registerLoyaltyRoutes(app, { db: deps.db, stores: deps.registry.stores, now: deps.clock });
  // Issue 31: analytics rollups (an outbox consumer), the server-side funnel and the console's dashboard.
  registerAnalytics(app, { db: deps.db, stores: deps.registry.stores, now: deps.clock });
  const { hub } = await registerOutboxDispatcher(app, { db: deps.db, registry: deps.registry, config: deps.config, clock: deps.clock });
  metrics.setStreams(() => hub.listeners());
  app.lifecycle.setStreams(() => hub.listeners());
  registerRealtimeRoutes(app, { db: deps.db, hub, now: deps.clock });
  registerMessageRoutes(app, { db: deps.db });
  // Issue 30: the gateways' delivery reports and inbound texts (STOP).
  const zones = new Map(deps.registry.stores.map((s) => [s.storeId, s.dispensarySettings.place_info.timezone]));
  registerProviderRoutes(app, {
    db: deps.db,
    secret: deps.config.messageStatusSecret,
    timeZoneOf: (id) => zones.get(id),
    wake: () => app.outboxDispatcher.sender.wake(),
  });
  // After setErrorHandler: a route keeps the error handler of the moment it is registered.
  registerOpenApiRoutes(app);
  // 503 "draining" from SIGTERM on (http/graceful-shutdown.ts): the proxy's check takes the node out while it still serves.
  app.get(
    '/api/health',
    { config: { docs: { summary: 'Whether the server answers (503 while it drains before a shutdown)', tags: ['Health'], security: 'none' } } },
    async (_request, reply) => (app.lifecycle.draining ? reply.code(503).send({ code: 503, result: 'draining' }) : { code: 200, result: 'ok' }),
  );
  app.all('/api/*', async (request, reply) => sendError(reply, 404, `No API endpoint ${request.method} ${request.url.split('?')[0]}`));

  const mediaDir = path.join(deps.config.dataDir, 'media');
  fs.mkdirSync(mediaDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: mediaDir,
    prefix: '/media/',
    decorateReply: false,
    index: false,
    maxAge: '1d',
  });

  const outputCache = new OutputCache();
  metrics.setOutputCache(outputCache);
  app.decorate('invalidateStore', (storeId?: number) => {
    storefront.invalidate(storeId);
    outputCache.invalidate(storeId);
    for (const listener of invalidationListeners) listener(storeId);
  });

  if (deps.webBuildDir) {
    const { services } = storefront;
    const stores: StoreDirectoryEntry[] = deps.registry.stores.map((s) => ({
      storeCode: s.storeCode,
      storeId: s.storeId,
      name: s.name,
      url: s.url,
      city: s.dispensarySettings.place_info.address.city,
      hours: s.dispensarySettings.place_info.hours,
      timezone: s.dispensarySettings.place_info.timezone,
    }));
    await registerSsr(app, {
      build: await loadWebBuild(deps.webBuildDir),
      buildDir: deps.webBuildDir,
      mode: deps.config.production ? 'production' : 'development',
      outputCache,
      pageVariant: (store) => pageDealState(app, store, deps.clock?.() ?? new Date()),
      context: (request): AppContext => ({
        store: request.store,
        basePath: request.storePathPrefix || (request.store.appendStoreCode ? `/${request.store.storeCode}` : ''),
        stores,
        services,
        demoMode: deps.config.demoMode,
        trackOrder: trackOrderFor(app, deps.db, request),
        curbside: curbsideFor(app, { db: deps.db, secret: accounts.secret, now: deps.clock }, request),
        stockAlerts: stockAlertsFor(alertDeps, request),
        // Issue 30: the product page's published reviews, average and count (its JSON-LD too).
        productReviews: (sku, sort, page) => productReviews(deps.db, request.store, sku, sort, page),
        storeHours: (storeId) => storefrontHours(app.storeSettings, storeId, deps.clock?.() ?? new Date()),
        storeOptions: (storeId) => storefrontOptions(app.storeSettings, storeId),
      }),
    });
  }
  return app;
}

/** Per request: releases of the store catalogues it holds (see the onRequest hook of buildApp). */
const catalogHolds = new WeakMap<FastifyRequest, (() => void)[]>();

/**
 * Whether a request may read its store's in-memory catalogue: the catalogue, URL, CMS and snapshot
 * APIs, the cart (it prices from the catalogue in memory, as announced changes left it; a shopper's
 * cart follows their browsing, so its store is loaded anyway), and every other non-API path except media and static files (scripts, styles, images, fonts,
 * robots.txt, the manifest): pages (with their `.data`, and URL rewrites that may end in `.html` or
 * anything else) and sitemaps.
 */
function readsCatalogue(pathname: string): boolean {
  if (pathname.startsWith('/api/')) return /^\/api\/(catalog|url|cms|cart)(\/|$)/.test(pathname);
  if (pathname.startsWith('/media/') || pathname.startsWith('/assets/') || pathname === '/metrics') return false;
  return !STATIC_FILE.test(pathname);
}
const STATIC_FILE = /\.(js|mjs|css|map|png|jpe?g|gif|webp|avif|svg|ico|woff2?|ttf|txt|webmanifest|json)$/i;

/** TRUST_PROXY as Fastify takes it: a hop count becomes "trust the nearest n hops". */
function trustProxyOption(value: boolean | number | string | undefined): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return value ?? false;
}
