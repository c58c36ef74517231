import './env.ts';
import { loadConfig, WEB_BUILD_DIR } from './config.ts';
import { StoreRegistry } from './stores/registry.ts';
import { ensureDemoDispatch } from './seed/demo-trip.ts';
import { ensureDemoReviews } from './seed/demo-reviews.ts';
import { createDatabase, migrate, syncStores, type MigrationReport } from './db/index.ts';
import { DataDirLockedError, lockDataDir, type DataDirLock } from './db/data-dir-lock.ts';
import { withStartupLock } from './db/startup-lock.ts';
import { waitForRedis } from './redis/wait.ts';
import { assertPortFree, PortInUseError } from './net/port-free.ts';
import { ensureSeeded } from './seed/index.ts';
import { ensureStoreScaffold } from './seed/scaffold.ts';
import { buildApp } from './app.ts';
import { gracefulShutdown } from './http/graceful-shutdown.ts';
import { startMetricsServer } from './metrics/routes.ts';
import { ensureDemoStaff } from './staff/demo.ts';
import { nodePool, readPoolsFile, type NodePool } from './pools/pools.ts';

/**
 * `npm start`: validate the environment and the stores file, check the port is free, take the data directory (SQLite: one
 * process per DATA_DIR), wait for Redis when REDIS_URL is set, open the database (SQLite under
 * DATA_DIR unless DATABASE_URL is set), migrate, load the demo catalogue when the catalogue is
 * empty and the stores file is the demo one (any other stores file starts with an empty menu), then serve the API and the storefront on one port. The port is opened last, once the
 * catalogue manager is subscribed to the other nodes' changes: a node that answers is ready. No store's catalogue is
 * built at start (issue 15): each is built on its store's first request (CATALOG_MAX_STORES, CATALOG_WARM_STORES).
 */
async function main(): Promise<void> {
  let config;
  let registry;
  // Issue 32: with POOLS_FILE, this node's pool (NODE_POOL), checked here: a bad file or pool stops the start.
  let pool: NodePool | undefined;
  try {
    config = loadConfig();
    registry = StoreRegistry.fromFile(config.storesFile);
    if (config.poolsFile) pool = nodePool(readPoolsFile(config.poolsFile, registry.file), config.nodePool);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }

  // A taken port is told in one line before anything is locked, migrated or seeded.
  try {
    await assertPortFree(config.port, config.host);
  } catch (err) {
    if (!(err instanceof PortInUseError)) throw err;
    console.error(err.message);
    process.exit(1);
  }

  let dataDirLock: DataDirLock | undefined;
  if (!config.databaseUrl) {
    try {
      dataDirLock = lockDataDir(config.dataDir);
    } catch (err) {
      if (!(err instanceof DataDirLockedError)) throw err;
      console.error(err.message);
      process.exit(1);
    }
  }

  // Until the app exists, a signal just ends the process (e.g. while waiting for Redis).
  let shutdown = async (_signal: string): Promise<void> => process.exit(0);
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (config.redisUrl) await waitForRedis(config.redisUrl);

  const { db, dialect, destroy } = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.pgPoolMax });
  let migrations: MigrationReport = { applied: [], newer: [] };
  const seeded = await withStartupLock(db, dialect, async () => {
    // A schema a newer release already migrated is served as it is (expand, then contract: db/migrate.ts).
    migrations = await migrate(db);
    await syncStores(db, registry.file);
    // The demo catalogue only for the demo stores file: a deployment with its own STORES_FILE starts
    // with an empty menu (the storefront says "Menu coming soon") until its first import (issue 13).
    const catalogueSeeded = config.demoMode ? await ensureSeeded(db, registry.file, config.dataDir, { deals: config.demoDeals }) : false;
    // …with the frame an import fills (categories, tax lines, static pages) for stores that have none.
    if (!config.demoMode) await ensureStoreScaffold(db, registry.file);
    // Staff to open the console with (demo only; never created for a real deployment's stores).
    if (config.demoMode) await ensureDemoStaff(db);
    // The demo driver's login linked to Dana Whitfield and a sample planned trip (issue 29), once.
    if (config.demoMode) await ensureDemoDispatch(db, registry.stores);
    // Demo customers' completed orders and their reviews (issue 30): two published, one waiting with a flag.
    if (config.demoMode) await ensureDemoReviews(db, registry.stores);
    return catalogueSeeded;
  });

  const app = await buildApp({ config, registry, pool, db, webBuildDir: config.serveStorefront ? WEB_BUILD_DIR : undefined });
  app.log.info(
    { dialect, dataDir: config.dataDir, storesFile: config.storesFile, seeded },
    seeded ? 'demo catalogue loaded' : config.demoMode ? 'using existing catalogue' : 'using the catalogue in the database (menus come from npm run import)',
  );

  if (migrations.newer.length > 0) {
    app.log.warn(
      { newerMigrations: migrations.newer },
      `the database has ${migrations.newer.length} migration(s) newer than this build (${migrations.newer.join(', ')}): serving on the expanded schema (a rolling deploy in progress?)`,
    );
  }

  // Issue 32: drain (health 503, SHUTDOWN_DRAIN_MS), close (in-flight requests, SSE streams, jobs;
  // SHUTDOWN_GRACE_MS), database, exit 0; a second signal waits for the grace (http/graceful-shutdown.ts).
  const onSignal = gracefulShutdown({
    app,
    lifecycle: app.lifecycle,
    drainMs: config.shutdownDrainMs,
    graceMs: config.shutdownGraceMs,
    release: async () => {
      await destroy();
      dataDirLock?.release();
    },
  });
  shutdown = async (signal: string) => onSignal(signal);

  // Issue 32: /metrics on a port of its own (METRICS_PORT), for a scraper on the operators' network only.
  const metricsServer = config.metricsPort ? await startMetricsServer(app.metrics, config.metricsPort, config.metricsHost) : undefined;
  if (metricsServer) app.addHook('onClose', () => metricsServer.close());
  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as { port: number }).port;
  for (const store of registry.stores) app.log.info(`${store.name}: http://${store.storeCode}.localhost:${port}/`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
