/**
 * Issue 32, both databases: one request id follows an order from its request through the outbox to
 * the message and the webhook it set off — in the pino JSON lines (`reqId`), on the event row, and
 * to the webhook receiver as `X-Request-Id`. A request without the header gets Fastify's own id,
 * followed the same way.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { orderBody, pin, REFERENCE_DATE, registry } from '../../test-support/cart/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { eventually, Receiver } from '../../test-support/webhooks/testing.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { createEndpoint } from '../webhooks/endpoints.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
type Line = { msg: string; reqId?: string; [k: string]: unknown };

describeEachDatabase('a request id followed through the outbox', (getDb) => {
  let app: FastifyInstance;
  let receiver: Receiver;
  const lines: Line[] = [];

  beforeAll(async () => {
    const { db, dataDir } = getDb();
    await seedDemo(db, readStoresFile(DEMO_STORES_FILE), { dataDir, referenceDate: REFERENCE_DATE });
    await pin(db, 1, JAR, { price: 2699, special: null, tiers: [], stock: 100_000 });
    receiver = await new Receiver().start(0);
    const endpoint = await createEndpoint(db, 1, { url: receiver.url, events: ['order.created'] }, new Date());
    receiver.secrets = [endpoint.secret];
    // A new order is e-mailed to the store (notifications/plan.ts): the message the order sets off.
    const iso = new Date().toISOString();
    await db.deleteFrom('store_order_settings').where('store_id', '=', 1).execute();
    await db.insertInto('store_order_settings').values({ store_id: 1, order_email: 'orders@downtown.test', updated_at: iso }).execute();
    app = await buildApp({
      // Not production: the webhook receiver is on loopback.
      config: { dataDir, demoMode: true, production: false, logLevel: 'info', redisPrefix: `test-reqid-${randomBytes(4).toString('hex')}:` },
      registry,
      db,
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Line) } },
      clock: () => REFERENCE_DATE,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.stop();
  });

  const place = async (headers: Record<string, string>, phone: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/order/save',
      remoteAddress: `10.91.0.${phone.slice(-2)}`,
      headers: { host: 'downtown.localhost', ...headers },
      payload: orderBody({
        products: [{ sku: JAR, qty: 1 }],
        personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: `ana${phone.slice(-2)}@example.com`, phone },
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as { order_id: number; increment_id: string };
  };

  const followed = async (requestId: string, orderId: number) => {
    const { db } = getDb();
    const event = await db.selectFrom('outbox_events').select(['event_id', 'request_id']).where('order_id', '=', orderId).where('type', '=', 'order.created').executeTakeFirstOrThrow();
    expect(event.request_id).toBe(requestId);
    await eventually('the webhook and the messages', 15_000, () =>

      receiver.received.some((r) => r.id === event.event_id) &&
      lines.some((l) => l.msg === 'message sent' && l.eventId === event.event_id) &&
      lines.some((l) => l.msg === 'webhook attempt' && l.eventId === event.event_id),
    );
    const hook = receiver.received.find((r) => r.id === event.event_id)!;
    expect(hook.headers['x-request-id']).toBe(requestId);
    expect(hook.verifiedWith).not.toBeNull();
    // Every line about this order, wherever it was written, names the request.
    const placed = lines.filter((l) => l.msg === 'order placed' && l.orderId === orderId);
    const sent = lines.filter((l) => l.msg === 'message sent' && l.eventId === event.event_id);
    const attempts = lines.filter((l) => l.msg === 'webhook attempt' && l.eventId === event.event_id);
    expect(placed).toHaveLength(1);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(attempts).toHaveLength(1);
    for (const l of [...placed, ...sent, ...attempts]) expect(l.reqId, l.msg).toBe(requestId);
    expect(attempts[0]).toMatchObject({ status: 200, attempt: 1 });
  };

  it('from the X-Request-Id a proxy sent to the message and the webhook', async () => {
    const requestId = `trace-${randomBytes(6).toString('hex')}`;
    const order = await place({ 'x-request-id': requestId }, '(916) 555-0141');
    await followed(requestId, order.order_id);
  });

  it('from the id the server gave a request that had none', async () => {
    const order = await place({}, '(916) 555-0142');
    const placed = lines.find((l) => l.msg === 'order placed' && l.orderId === order.order_id);
    expect(placed?.reqId).toMatch(/^req-/);
    await followed(placed!.reqId!, order.order_id);
  });
});
