/**
 * The whole path in one app (both databases): an order placed through the API and moved to
 * ready_for_pickup is written as message rows by the app's own messages consumer and sent by its
 * sender through the SMS outbox (the demo's provider); the console lists them per store and
 * order, and refuses a store the member is not assigned.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OutboxSms } from '../auth/sms.ts';
import { seed, testApp } from '../../test-support/catalog/test-app.ts';
import { moveOrderForTest } from '../../test-support/outbox/test-events.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';

describeEachDatabase('order messages through the app (console log, SMS outbox)', (getDb) => {
  let app: FastifyInstance;
  let budtender: StaffTestSession;

  beforeAll(async () => {
    const t = getDb();
    await seed(t);
    app = await testApp(t);
    await addStaff(t.db, { email: 'bud@messages.test', role: 'budtender', storeIds: [1] });
    budtender = await loginStaff(app, 'bud@messages.test');
    await t.db
      .insertInto('store_order_settings')
      .values({ store_id: 1, order_email: 'orders@downtown.test', updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('store_id').doUpdateSet({ order_email: 'orders@downtown.test' }))
      .execute();
  });
  afterAll(() => app?.close());

  const messages = async (storeId: number, query = '', session = budtender) =>
    app.inject({ method: 'GET', url: `/api/console/stores/${storeId}/messages${query}`, headers: session.headers });

  it('placing and moving an order sends the store e-mail and the shopper SMS and e-mail (a gateway without delivery reports: no fallback could fire, so both go); the console lists them', async () => {
    const placed = await app.inject({
      method: 'POST',
      url: '/api/order/save',
      headers: { host: 'downtown.localhost' },
      payload: {
        idempotency_key: randomUUID(),
        products: [{ sku: 'AC-BLACK-CERAMIC-STASH-JAR', qty: 1 }],
        order_type: 'pickup',
        personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0177' },
        // Age on every order (issue 14): a guest gives a date of birth.
        birthday: '1990-01-01',
        payment_method: 'cashondelivery',
      },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const { order_id: orderId, increment_id: number } = placed.json().result;
    await moveOrderForTest(getDb().db, { orderId, to: 'ready_for_pickup' });
    app.outbox.kick();

    const deadline = Date.now() + 5000;
    let items: any[] = [];
    for (;;) {
      const res = await messages(1, `?orderId=${orderId}`);
      expect(res.statusCode, res.body).toBe(200);
      items = res.json().result.items;
      if (items.length === 3 && items.every((m) => m.status === 'sent')) break;
      if (Date.now() > deadline) throw new Error(`messages not sent within 5 s: ${JSON.stringify(items)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(items.map((m) => [m.template, m.channel, m.recipient, m.attempts, m.provider, m.state, m.fallback_of]).sort()).toEqual([
      // The outbox reports nothing: `sent`, never waiting for a receipt, never falling back; so both channels go.
      ['order_ready_for_pickup', 'email', 'ana@example.com', 1, 'outbox', 'sent', null],
      ['order_ready_for_pickup', 'sms', '+19165550177', 1, 'outbox', 'sent', null],
      ['store_new_order', 'email', 'orders@downtown.test', 1, 'outbox', 'sent', null],
    ]);
    const sms = (app.accounts!.sms as OutboxSms).sentTexts.filter((m) => m.to === '+19165550177');
    expect(sms).toEqual([{ to: '+19165550177', text: `Verdant Downtown: order #${number} is ready for pickup. Bring a valid photo ID.` }]);
    expect((await messages(1, '?orderId=abc')).statusCode).toBe(400);
  });

  it('refuses a store the member is not assigned (403) and a request without a session (401)', async () => {
    const foreign = await messages(2);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ errorCode: 'store_forbidden' });
    const anonymous = await app.inject({ method: 'GET', url: '/api/console/stores/1/messages' });
    expect(anonymous.statusCode).toBe(401);
  });
});
