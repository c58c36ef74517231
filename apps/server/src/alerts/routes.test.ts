/**
 * The shopper's alert API over HTTP, both databases (issue 30): a logged-in customer watches a sold-out
 * size with one call (the account's phone; the consent words in the ledger), lists and removes it; a
 * guest without consent or without a contact is refused in words with an errorCode; an in-stock item
 * cannot be watched; a forged unsubscribe link is 404; a burst of guest requests from one address
 * is cut at the hourly limit.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REFERENCE_DATE, commerceApp } from '../../test-support/cart/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { editVariants } from '../menu-admin/edit.ts';
import { GUEST_WATCHES_PER_IP_PER_HOUR } from './service.ts';

const HOST = 'downtown.localhost';

describeEachDatabase('stock alert routes', (getDb) => {
  let app: FastifyInstance;
  let productId: number;
  let sizes: number[];
  beforeAll(async () => {
    app = await commerceApp(getDb());
    const { db } = getDb();
    productId = (await db.selectFrom('products').select('id').where('store_id', '=', 1).where('sku', '=', 'FL-BLUE-DREAM').executeTakeFirstOrThrow()).id;
    sizes = (await db.selectFrom('products').select('id').where('parent_id', '=', productId).orderBy('id').execute()).map((r) => r.id);
  });
  afterAll(async () => app?.close());

  let ipSeq = 0;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, token?: string) =>
    app
      .inject({ method, url, remoteAddress: `10.84.0.${++ipSeq}`, headers: { host: HOST, ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: payload as any })
      .then((r) => ({ status: r.statusCode, body: r.json() }));
  const setStock = (ids: number[], stock: string) =>
    editVariants(getDb().db, { storeId: 1, edits: ids.map((id) => ({ productId: id, cells: { stock } })), actor: { type: 'staff', id: null, name: 'Test' }, at: REFERENCE_DATE });

  it('a customer watches a sold-out size in one call, sees it in the list and removes it', async () => {
    await setStock([sizes[0]!], '0');
    const phone = '+19165557001';
    const code = (await call('POST', '/api/user/login', { phone })).body.meta.demo_code;
    const pending = (await call('POST', '/api/user/login', { phone, code })).body.meta.pendingToken;
    const { token } = (await call('POST', '/api/user/login', { phone, license_type: 'recreational', birthday: '1990-01-01', pendingToken: pending })).body.meta;

    const asked = await call('POST', '/api/stock-alerts', { productId, variantId: sizes[0], consent: true }, token);
    expect(asked).toMatchObject({ status: 200, body: { result: { watching: true, channel: 'sms' } } });
    const ledger = await getDb().db.selectFrom('consent_events').selectAll().where('contact', '=', phone).execute();
    expect(ledger).toMatchObject([{ channel: 'sms', purpose: 'marketing', action: 'granted', source: 'stock_alert_form:account' }]);

    const list = await call('GET', '/api/stock-alerts', undefined, token);
    expect(list.body.result.items).toHaveLength(1);
    const [item] = list.body.result.items;
    expect(item).toMatchObject({ productId, variantId: sizes[0], channel: 'sms' });
    expect(item.path).toMatch(/^\/p\/FL-BLUE-DREAM\//);
    expect((await call('DELETE', `/api/stock-alerts/${item.id}`, undefined, token)).body.result).toEqual({ removed: true });
    expect((await call('GET', '/api/stock-alerts', undefined, token)).body.result.items).toEqual([]);
    expect((await call('GET', '/api/stock-alerts')).status).toBe(401);
  });

  it('refuses a guest without consent or contact, an in-stock item, and a forged unsubscribe link', async () => {
    await setStock([sizes[0]!], '0');
    expect(await call('POST', '/api/stock-alerts', { productId, variantId: sizes[0], contact: 'g@routes.test' })).toMatchObject({
      status: 400,
      body: { errorCode: 'consent_required' },
    });
    expect(await call('POST', '/api/stock-alerts', { productId, variantId: sizes[0], consent: true })).toMatchObject({ status: 400, body: { errorCode: 'contact_required' } });
    expect(await call('POST', '/api/stock-alerts', { productId, variantId: sizes[0], contact: 'not a phone', channel: 'sms', consent: true })).toMatchObject({ status: 400 });
    await setStock([sizes[0]!], '3');
    expect(await call('POST', '/api/stock-alerts', { productId, variantId: sizes[0], contact: 'g@routes.test', consent: true })).toMatchObject({ status: 409, body: { errorCode: 'in_stock' } });
    expect((await call('GET', `/api/stock-alerts/unsubscribe/1.${'A'.repeat(43)}`)).status).toBe(404);
    // A guest's watches are limited per client address (each may message the contact typed).
    await setStock([sizes[0]!], '0');
    const from = (i: number) =>
      app
        .inject({ method: 'POST', url: '/api/stock-alerts', remoteAddress: '10.84.9.9', headers: { host: HOST }, payload: { productId, variantId: sizes[0], contact: `flood${i}@routes.test`, consent: true } })
        .then((r) => r.statusCode);
    const statuses = await Promise.all(Array.from({ length: GUEST_WATCHES_PER_IP_PER_HOUR + 2 }, (_, i) => from(i)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(GUEST_WATCHES_PER_IP_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    expect((await call('POST', `/api/stock-alerts/unsubscribe/1.${'A'.repeat(43)}`)).status).toBe(404);
  });
});
