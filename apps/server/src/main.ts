import './env.ts';
import { loadConfig, WEB_BUILD_DIR } from './config.ts';
import { StoreRegistry } from './stores/registry.ts';
import { createDatabase, migrateToLatest, syncStores } from './db/index.ts';
import { ensureSeeded } from './seed/index.ts';
import { buildApp } from './app.ts';

/**
 * `npm start`: validate the environment and the stores file, open the database (SQLite under
 * DATA_DIR unless DATABASE_URL is set), migrate, load the demo catalogue when the catalogue is
 * empty, then serve the API and the storefront on one port.
 */
async function main(): Promise<void> {
  let config;
  let registry;
  try {
    config = loadConfig();
    registry = StoreRegistry.fromFile(config.storesFile);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }

  const { db, dialect, destroy } = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(db);
  await syncStores(db, registry.file);
  const seeded = await ensureSeeded(db, registry.file, config.dataDir);

  const app = await buildApp({ config, registry, db, webBuildDir: WEB_BUILD_DIR });
  app.log.info(
    { dialect, dataDir: config.dataDir, storesFile: config.storesFile, seeded },
    seeded ? 'demo catalogue loaded' : 'using existing catalogue',
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as { port: number }).port;
  for (const store of registry.stores) app.log.info(`${store.name}: http://${store.storeCode}.localhost:${port}/`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
