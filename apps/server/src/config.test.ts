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
      mailProvider: 'outbox',
      mailHttpUrl: undefined,
      redisPrefix: 'verdant:',
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
    expect(() => loadConfig({ MAIL_PROVIDER: 'smtp' })).toThrow(/MAIL_PROVIDER/);
    expect(() => loadConfig({ MAIL_HTTP_URL: 'not a url' })).toThrow(/MAIL_HTTP_URL/);
    expect(() => loadConfig({ REDIS_PREFIX: 'has space' })).toThrow(/REDIS_PREFIX/);
  });
  it('reads MAIL_PROVIDER and MAIL_HTTP_URL (the URL is required with http)', () => {
    expect(() => loadConfig({ MAIL_PROVIDER: 'http' })).toThrow(/MAIL_HTTP_URL: required when MAIL_PROVIDER=http/);
    expect(loadConfig({ MAIL_PROVIDER: 'http', MAIL_HTTP_URL: 'https://mail.example/send' })).toMatchObject({ mailProvider: 'http', mailHttpUrl: 'https://mail.example/send' });
    expect(loadConfig({ MAIL_PROVIDER: '' }).mailProvider).toBe('outbox');
  });
  it('reads TRUST_PROXY: nobody by default, or any hop, a hop count, proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
  it('reads REDIS_PREFIX, the namespace of this deployment in a shared Redis', () => {
    expect(loadConfig({ REDIS_PREFIX: 'shop-a:' }).redisPrefix).toBe('shop-a:');
  });
});
