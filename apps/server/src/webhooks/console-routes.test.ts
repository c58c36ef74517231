/**
 * The console's webhook routes through the real app and the real staff guard (cookie + CSRF), on
 * SQLite and PostgreSQL: create (secret shown once), list, change, disable, rotate, delete, the
 * delivery log with its attempts, replay, validation, another store's rows, and the production
 * rule against private receivers. Deliveries go to a verifying receiver on loopback through the
 * engine the app runs. (Refusals for every route — no session, foreign store, role, CSRF — are
 * proved for all console routes by staff/access-contract.test.ts.)
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { buildApp } from '../app.ts';
import { registry } from '../../test-support/cart/testing.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { appendEvent, eventually, Receiver } from '../../test-support/webhooks/testing.ts';

const HOST = 'downtown.localhost';
const BASE = '/api/console/stores/1';

describeEachDatabase('webhook console routes', (getDb) => {
  let app: FastifyInstance;
  let production: FastifyInstance;
  let owner: StaffTestSession;
  let budtender: StaffTestSession;
  let prodOwner: StaffTestSession;
  const receiver = new Receiver();

  beforeAll(async () => {
    const t = getDb();
    await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), {
      dataDir: t.dataDir,
      referenceDate: new Date('2026-06-15T12:00:00Z'),
      productsPerStore: 10,
    });
    const build = (prod: boolean) =>
      buildApp({
        config: { dataDir: t.dataDir, demoMode: false, production: prod, logLevel: 'silent' },
        registry,
        db: t.db,
        logger: false,
      });
    app = await build(false);
    production = await build(true);
    // Only its routes are under test: its engine (which refuses loopback receivers) must not take this suite's deliveries.
    await production.webhooks.close();
    await addStaff(t.db, { email: 'owner@hooks.test', role: 'owner' });
    await addStaff(t.db, { email: 'budtender@hooks.test', role: 'budtender', storeIds: [1] });
    owner = await loginStaff(app, 'owner@hooks.test', { ip: '10.230.0.1' });
    budtender = await loginStaff(app, 'budtender@hooks.test', { ip: '10.230.0.2' });
    prodOwner = await loginStaff(production, 'owner@hooks.test', { ip: '10.230.0.3' });
    await receiver.start(0);
  });
  afterAll(async () => {
    await app?.close();
    await production?.close();
    await receiver.stop();
  });

  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, who = owner, on = app) => {
    const res = await on.inject({
      method,
      url,
      remoteAddress: '10.230.1.1',
      headers: { host: HOST, ...who.headers },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() as { code: number; result: any; errorCode?: string } };
  };

  it('creates an endpoint, shows its secret once, and delivers signed events to it', async () => {
    const created = await call('POST', `${BASE}/webhooks`, {
      url: receiver.url,
      events: ['order.created', 'order.created'],
      description: ' Till ',
    });
    expect(created.status).toBe(200);
    const ep = created.body.result;
    expect(ep).toMatchObject({
      store_id: 1,
      url: receiver.url,
      description: 'Till',
      events: ['order.created'],
      disabled: false,
      previous_secret_until: null,
    });
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    receiver.secrets = [ep.secret];

    const list = await call('GET', `${BASE}/webhooks`);
    expect(list.body.result.map((e: { id: number }) => e.id)).toContain(ep.id);
    expect(JSON.stringify(list.body)).not.toContain(ep.secret);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    const id = await appendEvent(getDb().db, 1);
    app.outbox.kick();
    const deliveries = async () => (await call('GET', `${BASE}/webhooks/${ep.id}/deliveries`)).body.result;
    await eventually('delivered', 15_000, async () => (await deliveries()).items[0]?.status === 'succeeded');
    const got = receiver.accepted(id);
    expect(got).toHaveLength(1);
    expect(new Webhook(ep.secret).verify(got[0].body, got[0].headers as Record<string, string>)).toMatchObject({ type: 'order.created' });
    const [item] = (await deliveries()).items;
    expect(item).toMatchObject({ event_id: id, event_type: 'order.created', status: 'succeeded', attempts: 1, last_status_code: 200 });
    expect(item.attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, node: app.webhooks.node })]);

    // Replay: one more attempt now, and it shows in the log.
    const replayed = await call('POST', `${BASE}/webhook-deliveries/${item.id}/replay`);
    expect(replayed.status).toBe(200);
    expect(replayed.body.result).toMatchObject({ id: item.id, status: 'pending' });
    await eventually('replayed', 15_000, async () => (await deliveries()).items[0]?.attempt_log.length === 2);
    expect(receiver.accepted(id)).toHaveLength(2);
    expect((await call('GET', `${BASE}/webhooks/${ep.id}/deliveries?status=failed`)).body.result.items).toEqual([]);
    expect((await call('GET', `${BASE}/webhooks/${ep.id}/deliveries?status=succeeded`)).body.result.items).toHaveLength(1);
    // Another store's path does not reach this store's rows.
    expect((await call('POST', `/api/console/stores/2/webhook-deliveries/${item.id}/replay`)).body).toMatchObject({
      code: 404,
      errorCode: 'webhook_delivery_not_found',
    });
    expect((await call('GET', `/api/console/stores/2/webhooks/${ep.id}/deliveries`)).body).toMatchObject({
      code: 404,
      errorCode: 'webhook_not_found',
    });
  });

  it('changes, disables, rotates and deletes an endpoint', async () => {
    const ep = (await call('POST', `${BASE}/webhooks`, { url: receiver.url, events: ['order.created'] })).body.result;
    const changed = await call('PATCH', `${BASE}/webhooks/${ep.id}`, {
      events: ['order.status_changed'],
      description: null,
      url: `${receiver.url}?v=2`,
    });
    expect(changed.body.result).toMatchObject({ events: ['order.status_changed'], description: null, url: `${receiver.url}?v=2` });
    expect(changed.body.result.secret).toBeUndefined();
    const off = await call('PATCH', `${BASE}/webhooks/${ep.id}`, { disabled: true });
    expect(off.body.result).toMatchObject({ disabled: true, disabled_reason: 'Disabled in the console.' });
    expect((await call('PATCH', `${BASE}/webhooks/${ep.id}`, { disabled: false })).body.result).toMatchObject({
      disabled: false,
      disabled_reason: null,
    });

    const rotated = await call('POST', `${BASE}/webhooks/${ep.id}/rotate-secret`);
    expect(rotated.body.result.secret).toMatch(/^whsec_/);
    expect(rotated.body.result.secret).not.toBe(ep.secret);
    expect(Date.parse(rotated.body.result.previous_secret_until) - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    expect((await call('PATCH', `/api/console/stores/2/webhooks/${ep.id}`, { disabled: true })).body.errorCode).toBe('webhook_not_found');
    expect((await call('DELETE', `/api/console/stores/2/webhooks/${ep.id}`)).body.errorCode).toBe('webhook_not_found');
    expect((await call('DELETE', `${BASE}/webhooks/${ep.id}`)).body).toEqual({ code: 200, result: { deleted: ep.id } });
    expect((await call('GET', `${BASE}/webhooks`)).body.result.some((e: { id: number }) => e.id === ep.id)).toBe(false);
    expect((await call('POST', `${BASE}/webhooks/${ep.id}/rotate-secret`)).status).toBe(404);
  });

  it('validates what it is sent', async () => {
    const bad = async (payload: object) => (await call('POST', `${BASE}/webhooks`, payload)).body;
    expect(await bad({ url: 'ftp://example.com/x', events: ['order.created'] })).toMatchObject({
      code: 400,
      errorCode: 'webhook_url_invalid',
    });
    expect(await bad({ url: 'https://u:p@example.com/x', events: ['order.created'] })).toMatchObject({
      code: 400,
      errorCode: 'webhook_url_invalid',
    });
    expect(await bad({ url: receiver.url, events: ['order.updated'] })).toMatchObject({ code: 400, errorCode: 'invalid_request' });
    expect(await bad({ url: receiver.url, events: [] })).toMatchObject({ code: 400, result: 'events: Choose at least one event.' });
    expect(await bad({ url: receiver.url })).toMatchObject({ code: 400, errorCode: 'invalid_request' });
    expect(await bad({ url: receiver.url, events: ['order.created'], secret: 'whsec_mine' })).toMatchObject({
      code: 400,
      errorCode: 'invalid_request',
    });
    expect((await call('GET', `${BASE}/webhooks/1/deliveries?status=lost`)).body).toMatchObject({
      code: 400,
      errorCode: 'invalid_request',
    });
    expect((await call('PATCH', `${BASE}/webhooks/abc`, { disabled: true })).body).toMatchObject({ code: 400 });
  });

  it('is for owners and managers, not budtenders', async () => {
    expect((await call('GET', `${BASE}/webhooks`, undefined, budtender)).body).toMatchObject({ code: 403, errorCode: 'forbidden' });
  });

  it('refuses loopback and private receivers in production', async () => {
    for (const url of [receiver.url, 'http://localhost:9/x', 'http://10.0.0.7/x', 'http://[::1]:8080/x']) {
      expect((await call('POST', `${BASE}/webhooks`, { url, events: ['order.created'] }, prodOwner, production)).body, url).toMatchObject({
        code: 400,
        errorCode: 'webhook_url_invalid',
        result: 'Webhook URLs must not point at this server or a private network.',
      });
    }
    expect(
      (await call('POST', `${BASE}/webhooks`, { url: 'https://93.184.216.34/hooks', events: ['order.created'] }, prodOwner, production))
        .status,
    ).toBe(200);
  });
});
