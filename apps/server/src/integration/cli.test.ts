/**
 * `npm run api-key`: the argument rules, and create (key printed once, works against the API) /
 * list / revoke against a real database on both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { registry } from '../../test-support/cart/testing.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { parseApiKeyArgs, runApiKeyCommand } from './cli.ts';
import { api, secretOf } from '../../test-support/integration/testing.ts';

describe('npm run api-key arguments', () => {
  it('parses create, list and revoke; refuses bad input with the usage', () => {
    expect(parseApiKeyArgs(['create', '--store', 'Downtown', '--name', 'Till', '--scopes', 'orders:read,menu:write'])).toEqual({
      command: 'create',
      store: 'downtown',
      name: 'Till',
      scopes: ['menu:write', 'orders:read'],
    });
    expect(parseApiKeyArgs(['list', '--store', 'downtown'])).toEqual({ command: 'list', store: 'downtown' });
    expect(parseApiKeyArgs(['revoke', '--id', '7'])).toEqual({ command: 'revoke', id: 7 });
    expect(() => parseApiKeyArgs(['create', '--store', 'downtown', '--name', 'Till', '--scopes', 'menu:read'])).toThrow(/--scopes.*Usage/s);
    expect(() => parseApiKeyArgs(['create', '--store', 'downtown', '--scopes', 'menu:write'])).toThrow(/--name/);
    expect(() => parseApiKeyArgs(['revoke', '--id', 'x'])).toThrow(/--id/);
    expect(() => parseApiKeyArgs(['rotate'])).toThrow(/Usage/);
    expect(() => parseApiKeyArgs(['list', '--store', 'a', '--bogus', '1'])).toThrow(/Usage/);
  });
});

describeEachDatabase('npm run api-key', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const t = getDb();
    await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), {
      dataDir: t.dataDir,
      referenceDate: new Date('2026-06-15T12:00:00Z'),
      productsPerStore: 10,
    });
    app = await buildApp({
      config: { dataDir: t.dataDir, demoMode: false, production: true, logLevel: 'silent' },
      registry,
      db: t.db,
      logger: false,
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates a key shown once that works, lists it without the secret, revokes it', async () => {
    const { db } = getDb();
    const now = new Date();
    const out = await runApiKeyCommand(
      db,
      parseApiKeyArgs(['create', '--store', 'downtown', '--name', 'Till', '--scopes', 'orders:read']),
      now,
    );
    const key = out.find((l) => l.startsWith('vdk_'))!;
    expect(key).toMatch(/^vdk_/);
    expect((await api(app, key).get('/orders')).status).toBe(200);
    const list = await runApiKeyCommand(db, { command: 'list', store: 'downtown' }, now);
    expect(list.join('\n')).toContain('Till');
    expect(list.join('\n')).not.toContain(secretOf(key));
    const id = Number(/API key (\d+)/.exec(out[0])![1]);
    expect(await runApiKeyCommand(db, { command: 'revoke', id }, now)).toEqual([expect.stringContaining(`Revoked API key ${id}`)]);
    expect((await api(app, key).get('/orders')).status).toBe(401);
    await expect(runApiKeyCommand(db, { command: 'revoke', id: 99999 }, now)).rejects.toThrow(/No API key/);
    await expect(runApiKeyCommand(db, { command: 'list', store: 'nowhere' }, now)).rejects.toThrow(/Unknown store code nowhere/);
  });
});
