/**
 * Order messages on both databases: which rows an event writes (texts, store-local ready-by time,
 * per-store switches, the store's new-order e-mail), idempotency, and the sender against a real
 * HTTP SMS/mail gateway on loopback: retries with backoff after failures, giving up, leases that
 * keep two senders (or a dead node's lease) from sending one row twice, and pending rows surviving
 * a restart.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { HttpSms } from '../auth/sms.ts';
import { storesFile } from '../../test-support/catalog/test-app.ts';
import { syncStores } from '../db/index.ts';
import { HttpMailer } from '../mail/mailer.ts';
import type { OutboxEvent } from '../outbox/consumer.ts';
import { moveOrderForTest } from '../../test-support/outbox/test-events.ts';
import { describeEachDatabase, type TestDatabase } from '../../test-support/databases.ts';
import { recordMessages, type PlanDeps } from './plan.ts';
import { recordConsent } from './consent.ts';
import { createMessageSender } from './sender.ts';

const storeInfo: PlanDeps['storeInfo'] = (id) => {
  const s = storesFile.stores.find((x) => x.storeId === id);
  return s && { name: s.name, timezone: s.dispensarySettings.place_info.timezone };
};

/** A gateway for SMS (`/sms`) and mail (`/mail`) that fails the next `failures` requests with 500. */
class Gateway {
  received: { path: string; body: any }[] = [];
  failures = 0;
  private server!: Server;
  url = '';
  async start() {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (this.failures > 0) {
          this.failures--;
          res.writeHead(500).end('down for maintenance');
          return;
        }
        this.received.push({ path: req.url ?? '', body: JSON.parse(raw) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

describeEachDatabase('order messages', (getDb) => {
  const gateway = new Gateway();
  let seq = 0;
  const deps = (): PlanDeps => ({ db: getDb().db, storeInfo });

  beforeAll(async () => {
    await syncStores(getDb().db, storesFile);
    await gateway.start();
  });
  afterAll(() => gateway.stop());
  beforeEach(async () => {
    const { db } = getDb();
    await db.deleteFrom('message_deliveries').execute();
    await db.deleteFrom('store_order_settings').execute();
    gateway.received = [];
    gateway.failures = 0;
  });

  async function insertOrder(
    t: TestDatabase,
    details: Record<string, string> = {},
    orderType: 'pickup' | 'delivery' = 'pickup',
  ): Promise<{ id: number; number: string }> {
    const n = ++seq;
    const number = `10000${n}`;
    const at = new Date().toISOString();
    const row = await t.db
      .insertInto('orders')
      .values({
        increment_id: number,
        store_id: 1,
        customer_id: null,
        idempotency_key: `msg-test-${n}-${Math.random()}`,
        status: 'submitted',
        order_type: orderType,
        license_type: 'recreational',
        subtotal_cents: 4000,
        total_cents: 4500,
        personal_details: JSON.stringify({
          firstName: 'Ana',
          lastName: 'Reyes',
          emailAddress: 'ana@example.com',
          phone: '(916) 555-0101',
          ...details,
        }),
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, number };
  }

  async function eventOf(t: TestDatabase, eventId: string): Promise<OutboxEvent> {
    const row = await t.db.selectFrom('outbox_events').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();
    return {
      id: row.id,
      event_id: row.event_id,
      store_id: row.store_id,
      type: row.type,
      order_id: row.order_id,
      payload: JSON.parse(row.payload),
      created_at: row.created_at,
    };
  }
  const rowsOf = (orderId: number) =>
    getDb().db.selectFrom('message_deliveries').selectAll().where('order_id', '=', orderId).orderBy('channel', 'desc').execute();

  it('confirmed: an SMS to the E.164 phone and an e-mail, with the store, the number and the ready-by time in store-local time; twice writes nothing new', async () => {
    const t = getDb();
    const order = await insertOrder(t);
    const event = await eventOf(
      t,
      await moveOrderForTest(t.db, { orderId: order.id, to: 'confirmed', readyBy: '2026-06-15T22:30:00.000Z' }),
    );
    expect(await recordMessages(deps(), event)).toBe(2);
    expect(await recordMessages(deps(), event)).toBe(0);
    const rows = await rowsOf(order.id);
    expect(rows.map((r) => [r.channel, r.recipient, r.template, r.status, r.event_id])).toEqual([
      ['sms', '+19165550101', 'order_confirmed', 'pending', event.event_id],
      ['email', 'ana@example.com', 'order_confirmed', 'pending', event.event_id],
    ]);
    expect(rows[0].body).toBe(
      `Verdant Downtown: order #${order.number} is confirmed. Ready for pickup by 6/15/2026 15:30. Bring a valid photo ID.`,
    );
    expect(rows[1].subject).toBe(`Order #${order.number} is confirmed`);
    expect(rows[1].body).toContain('It will be ready for pickup by 6/15/2026 15:30.');
  });

  it('issue 30: an SMS STOP on record (transactional withdrawn) stops the order’s texts; the e-mail still goes', async () => {
    const t = getDb();
    const order = await insertOrder(t, { phone: '(916) 555-0177', emailAddress: 'stop@example.com' });
    await recordConsent(t.db, {
      storeId: 1,
      contact: '+19165550177',
      channel: 'sms',
      purposes: ['transactional', 'marketing'],
      action: 'withdrawn',
      source: 'sms_stop',
      words: null,
      at: new Date('2026-06-01T00:00:00Z'),
    });
    const event = await eventOf(t, await moveOrderForTest(t.db, { orderId: order.id, to: 'confirmed', readyBy: '2026-06-15T22:30:00.000Z' }));
    expect(await recordMessages(deps(), event)).toBe(1);
    expect((await rowsOf(order.id)).map((r) => [r.channel, r.recipient])).toEqual([['email', 'stop@example.com']]);
  });

  it('ready, out for delivery and cancelled (staff message, else the reason’s words); submitted and completed send nothing', async () => {
    const t = getDb();
    const a = await insertOrder(t);
    await recordMessages(deps(), await eventOf(t, await moveOrderForTest(t.db, { orderId: a.id, to: 'ready_for_pickup' })));
    expect((await rowsOf(a.id)).map((r) => r.body)[0]).toBe(
      `Verdant Downtown: order #${a.number} is ready for pickup. Bring a valid photo ID.`,
    );
    expect(await recordMessages(deps(), await eventOf(t, await moveOrderForTest(t.db, { orderId: a.id, to: 'completed' })))).toBe(0);

    const b = await insertOrder(t, {}, 'delivery');
    await recordMessages(deps(), await eventOf(t, await moveOrderForTest(t.db, { orderId: b.id, to: 'out_for_delivery' })));
    expect((await rowsOf(b.id))[0].body).toBe(`Verdant Downtown: order #${b.number} is out for delivery. Have your ID ready.`);

    const c = await insertOrder(t);
    const cancelled = await eventOf(
      t,
      await moveOrderForTest(t.db, {
        orderId: c.id,
        to: 'cancelled',
        cancelReason: 'sold_out',
        cancelMessage: 'The Blue Dream sold out, sorry!',
      }),
    );
    await recordMessages(deps(), cancelled);
    // Issue 30: one message, on the preferred channel (SMS); the e-mail is rendered as its fallback.
    const [sms, mail] = await rowsOf(c.id);
    expect(mail).toBeUndefined();
    expect(sms.body).toBe(`Verdant Downtown: order #${c.number} was cancelled. The Blue Dream sold out, sorry!`);
    expect([sms.fallback_channel, sms.fallback_recipient, sms.fallback_subject]).toEqual(['email', 'ana@example.com', `Order #${c.number} was cancelled`]);
    expect(sms.fallback_body).toContain('was cancelled (Sold out).');

    const d = await insertOrder(t, { emailAddress: '' });
    await recordMessages(deps(), await eventOf(t, await moveOrderForTest(t.db, { orderId: d.id, to: 'cancelled', cancelReason: 'no_id' })));
    const rows = await rowsOf(d.id);
    expect(rows.map((r) => r.channel)).toEqual(['sms']);
    expect(rows[0].body).toBe(`Verdant Downtown: order #${d.number} was cancelled. We could not verify a valid ID for this order.`);
  });

  it("each message type can be switched off per store and channel; the store's e-mail goes out only when set", async () => {
    const t = getDb();
    const at = new Date().toISOString();
    await t.db
      .insertInto('store_order_settings')
      .values({
        store_id: 1,
        notifications: JSON.stringify({ order_ready_for_pickup: { sms: false }, order_cancelled: { sms: false, email: false } }),
        order_email: null,
        updated_at: at,
      })
      .execute();
    const a = await insertOrder(t);
    const placed = await eventOf(t, await placedEvent(t, a.id, a.number));
    expect(await recordMessages(deps(), placed)).toBe(0);
    await recordMessages(deps(), await eventOf(t, await moveOrderForTest(t.db, { orderId: a.id, to: 'ready_for_pickup' })));
    expect((await rowsOf(a.id)).map((r) => r.channel)).toEqual(['email']);
    expect(
      await recordMessages(
        deps(),
        await eventOf(t, await moveOrderForTest(t.db, { orderId: a.id, to: 'cancelled', cancelReason: 'other' })),
      ),
    ).toBe(0);
    // Still on: confirmed (absent = on).
    const b = await insertOrder(t);
    expect(
      await recordMessages(deps(), await eventOf(t, await moveOrderForTest(t.db, { orderId: b.id, to: 'confirmed', readyBy: at }))),
    ).toBe(2);

    await t.db.updateTable('store_order_settings').set({ order_email: 'orders@downtown.test' }).where('store_id', '=', 1).execute();
    expect(await recordMessages(deps(), placed)).toBe(1);
    const [mail] = await rowsOf(a.id).then((rows) => rows.filter((r) => r.template === 'store_new_order'));
    expect(mail).toMatchObject({ channel: 'email', recipient: 'orders@downtown.test', subject: `New pickup order #${a.number}` });
    expect(mail.body).toContain('Customer: Ana Reyes');
    expect(mail.body).toContain('Total: $45.00');
  });

  it('the store’s new-order e-mail gives a delivery order’s whole address and a map link (issue 26)', async () => {
    const t = getDb();
    const order = await insertOrder(t, {}, 'delivery');
    await t.db
      .updateTable('orders')
      .set({ shipping_address: JSON.stringify({ city: 'Sacramento', zip: '95814', address: '900 J St', apt_ste: '2B', distance: 0.4 }) })
      .where('id', '=', order.id)
      .execute();
    await t.db
      .insertInto('store_order_settings')
      .values({ store_id: 1, order_email: 'orders@downtown.test', updated_at: new Date().toISOString() })
      .execute();
    expect(await recordMessages(deps(), await eventOf(t, await placedEvent(t, order.id, order.number)))).toBe(1);
    const [mail] = (await rowsOf(order.id)).filter((r) => r.template === 'store_new_order');
    expect(mail.subject).toBe(`New delivery order #${order.number}`);
    expect(mail.body).toContain(
      'Deliver to: 900 J St, Apt 2B, Sacramento 95814\nMap: https://www.google.com/maps/search/?api=1&query=900%20J%20St%2C%20Sacramento%2095814\n',
    );
  });

  async function placedEvent(t: TestDatabase, orderId: number, number: string): Promise<string> {
    const { appendOutboxEvent } = await import('../outbox/append.ts');
    return appendOutboxEvent(t.db, {
      storeId: 1,
      type: 'order.created',
      orderId,
      payload: {
        order_id: orderId,
        increment_id: number,
        store_code: 'downtown',
        status: 'submitted',
        previous_status: null,
        order_type: 'pickup',
        version: 1,
      },
      at: new Date().toISOString(),
    });
  }

  /** Two pending rows (SMS + e-mail) of a confirmed order. */
  async function pendingPair(t: TestDatabase) {
    const order = await insertOrder(t);
    await recordMessages(
      deps(),
      await eventOf(t, await moveOrderForTest(t.db, { orderId: order.id, to: 'confirmed', readyBy: new Date().toISOString() })),
    );
    return order;
  }

  it('a provider failure is retried after 1 min, then 5 min; success marks the row sent; the 8th failure gives up', async () => {
    const t = getDb();
    // An hour ahead of the wall clock the rows were written by, on a whole minute.
    const t0 = Math.ceil((Date.now() + 3600_000) / 60_000) * 60_000;
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    let clock = new Date(t0);
    const sender = createMessageSender({
      db: t.db,
      sms: new HttpSms(`${gateway.url}/sms`),
      mailer: new HttpMailer(`${gateway.url}/mail`),
      now: () => clock,
    });
    const order = await pendingPair(t);
    gateway.failures = 4;
    expect(await sender.drain()).toBe(2);
    let [sms, mail] = await rowsOf(order.id);
    expect(sms).toMatchObject({
      status: 'pending',
      attempts: 1,
      next_attempt_at: at(60_000),
      lease_until: null,
      last_error: 'SMS gateway answered 500',
    });
    expect(mail).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: at(60_000) });
    expect(mail.last_error).toContain('Mail gateway answered 500');
    // Not due yet.
    clock = new Date(t0 + 59_000);
    expect(await sender.drain()).toBe(0);
    clock = new Date(t0 + 60_000);
    expect(await sender.drain()).toBe(2);
    [sms] = await rowsOf(order.id);
    expect(sms).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: at(360_000) });
    clock = new Date(t0 + 360_000);
    expect(await sender.drain()).toBe(2);
    [sms, mail] = await rowsOf(order.id);
    expect(sms).toMatchObject({ status: 'sent', attempts: 3, sent_at: at(360_000), last_error: null, next_attempt_at: null });
    expect(mail).toMatchObject({ status: 'sent', attempts: 3 });
    expect(gateway.received).toEqual([
      { path: '/sms', body: { to: '+19165550101', text: sms.body } },
      { path: '/mail', body: { to: 'ana@example.com', subject: mail.subject, text: mail.body } },
    ]);

    // Giving up.
    const other = await pendingPair(t);
    gateway.failures = 1000;
    for (let i = 0; i < 8; i++) {
      await sender.drain();
      clock = new Date(clock.getTime() + 25 * 3600_000);
    }
    const failed = await rowsOf(other.id);
    expect(failed.map((r) => [r.status, r.attempts, r.next_attempt_at])).toEqual([
      ['failed', 8, null],
      ['failed', 8, null],
    ]);
    expect(await sender.drain()).toBe(0);
    gateway.failures = 0;
  });

  it('two senders racing on the same rows send each exactly once', async () => {
    const t = getDb();
    const orders = [];
    for (let i = 0; i < 10; i++) orders.push(await pendingPair(t));
    const make = () =>
      createMessageSender({
        db: t.db,
        sms: new HttpSms(`${gateway.url}/sms`),
        mailer: new HttpMailer(`${gateway.url}/mail`),
        batchSize: 4,
      });
    const [a, b] = [make(), make()];
    const [na, nb] = await Promise.all([a.drain(), b.drain()]);
    expect(na + nb).toBe(20);
    expect(gateway.received).toHaveLength(20);
    const keys = gateway.received.map((r) => `${r.path} ${r.body.text}`);
    expect(new Set(keys).size).toBe(20);
    const rows = await t.db.selectFrom('message_deliveries').select(['status', 'attempts']).execute();
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it("pending rows survive a restart; a dead node's lease is respected until it expires", async () => {
    const t = getDb();
    const t0 = Math.ceil((Date.now() + 3600_000) / 60_000) * 60_000;
    let clock = new Date(t0);
    const order = await pendingPair(t);
    // A node took the SMS row's lease and died before sending.
    const [smsRow] = await rowsOf(order.id);
    await t.db
      .updateTable('message_deliveries')
      .set({ lease_until: new Date(t0 + 60_000).toISOString() })
      .where('id', '=', smsRow.id)
      .execute();
    // A sender that stops before it ran: the rows stay pending.
    const first = createMessageSender({
      db: t.db,
      sms: new HttpSms(`${gateway.url}/sms`),
      mailer: new HttpMailer(`${gateway.url}/mail`),
      now: () => clock,
    });
    await first.stop();
    expect((await rowsOf(order.id)).map((r) => r.status)).toEqual(['pending', 'pending']);
    // The next process sends the e-mail at once, the SMS once the lease ran out.
    const second = createMessageSender({
      db: t.db,
      sms: new HttpSms(`${gateway.url}/sms`),
      mailer: new HttpMailer(`${gateway.url}/mail`),
      now: () => clock,
    });
    expect(await second.drain()).toBe(1);
    expect(gateway.received.map((r) => r.path)).toEqual(['/mail']);
    clock = new Date(t0 + 60_001);
    expect(await second.drain()).toBe(1);
    expect(gateway.received.map((r) => r.path)).toEqual(['/mail', '/sms']);
    expect((await rowsOf(order.id)).map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
    ]);
    await second.stop();
  });
});
