import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_STORES_FILE, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({}, '/srv/verdant');
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: '/srv/verdant/.data',
      databaseUrl: undefined,
      redisUrl: undefined,
      storesFile: DEMO_STORES_FILE,
      demoMode: true,
      logLevel: 'info',
      production: true,
    });
  });
  it('reads every variable and treats empty values as unset', () => {
    const c = loadConfig(
      { PORT: '8080', HOST: '127.0.0.1', DATA_DIR: 'var', DATABASE_URL: 'postgres://u@db/x', REDIS_URL: 'redis://r:6379', STORES_FILE: 'stores.json', LOG_LEVEL: 'warn' },
      '/srv',
    );
    expect(c).toMatchObject({ port: 8080, host: '127.0.0.1', dataDir: path.resolve('/srv/var'), databaseUrl: 'postgres://u@db/x', redisUrl: 'redis://r:6379', storesFile: '/srv/stores.json', demoMode: false, logLevel: 'warn' });
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });
  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});
