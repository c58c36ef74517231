/**
 * Messages that arrive (issue 30), on both databases, with the real app sending through
 * SMS_PROVIDER=http / MAIL_PROVIDER=http to a loopback gateway that plays the provider
 * (test-support/messages/gateway.ts) and calls the app's status route back:
 *  - delivered (at once or after a delay within the wait): the SMS is marked delivered, no fallback;
 *  - failed: the provider's failure writes ONE fallback e-mail (linked by fallback_of), which is sent;
 *  - dropped: no receipt within the wait → `no_receipt` and the fallback;
 *  - a burst of failure callbacks on two nodes writes one fallback, and `delivered` is never undone;
 *  - an inbound STOP withdraws at once: a pending marketing text is held back, one queued later is
 *    refused at send time, the order's texts stop; START allows order texts again;
 *  - the routes' refusals: no or wrong secret 401, unknown id 404, bad body 400, no secret set 404.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { registry, seed } from '../../test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { LoopbackGateway } from '../../test-support/messages/gateway.ts';
import { moveOrderForTest } from '../../test-support/outbox/test-events.ts';
import { recordConsent } from './consent.ts';

const SECRET = 'test-message-status-secret-0123456789abcdef';
const WAIT_S = 3;

describeEachDatabase('messages that arrive: receipts, fallback, STOP', (getDb) => {
  const gateway = new LoopbackGateway(SECRET);
  let a: FastifyInstance;
  let b: FastifyInstance;
  let phoneSeq = 0;

  const node = () =>
    buildApp({
      config: {
        dataDir: getDb().dataDir,
        demoMode: true,
        production: true,
        logLevel: 'silent',
        smsProvider: 'http',
        smsHttpUrl: gateway.smsUrl,
        mailProvider: 'http',
        mailHttpUrl: gateway.mailUrl,
        smsReceipts: true,
        mailReceipts: true,
        messageStatusSecret: SECRET,
        messageReceiptWaitSeconds: WAIT_S,
      },
      registry,
      db: getDb().db,
      logger: false,
    });

  beforeAll(async () => {
    await seed(getDb());
    await gateway.start();
    a = await node();
    b = await node();
    await a.listen({ port: 0, host: '127.0.0.1' });
    await b.ready();
    const address = a.server.address();
    gateway.statusBaseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await gateway.stop();
    await a?.close();
    await b?.close();
  });

  /** A guest order in downtown with its own phone and e-mail, moved to ready for pickup. */
  async function readyOrder(): Promise<{ orderId: number; phone: string; email: string }> {
    const n = String(++phoneSeq).padStart(2, '0');
    const email = `shopper${n}-${getDb().dialect}@example.com`;
    const placed = await a.inject({
      method: 'POST',
      url: '/api/order/save',
      headers: { host: 'downtown.localhost', 'x-forwarded-for': `10.9.0.${phoneSeq}` },
      payload: {
        idempotency_key: randomUUID(),
        products: [{ sku: 'AC-BLACK-CERAMIC-STASH-JAR', qty: 1 }],
        order_type: 'pickup',
        personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: email, phone: `(916) 555-02${n}` },
        birthday: '1990-01-01',
        payment_method: 'cashondelivery',
      },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json().result.order_id as number;
    return { orderId, phone: `+191655502${n}`, email };
  }

  async function moveToReady(orderId: number): Promise<void> {
    await moveOrderForTest(getDb().db, { orderId, to: 'ready_for_pickup' });
    a.outbox.kick();
  }

  const rowsOf = (orderId: number) =>
    getDb().db.selectFrom('message_deliveries').selectAll().where('order_id', '=', orderId).where('template', '=', 'order_ready_for_pickup').orderBy('id').execute();

  async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (done(v)) return v;
      if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const report = (app: FastifyInstance, channel: string, payload: unknown, auth = `Bearer ${SECRET}`) =>
    app.inject({ method: 'POST', url: `/api/messages/status/${channel}`, headers: { authorization: auth }, payload: payload as object });

  it('delivered: the ready message goes by SMS only, with the gateway and its id, and is marked delivered; no fallback', async () => {
    const o = await readyOrder();
    gateway.fates.set(o.phone, { fate: 'deliver' });
    await moveToReady(o.orderId);
    const rows = await until('delivered', () => rowsOf(o.orderId), (r) => r[0]?.receipt === 'delivered');
    expect(rows.map((r) => [r.channel, r.recipient, r.status, r.provider, r.receipt, r.fallback_channel, r.fallback_recipient])).toEqual([
      ['sms', o.phone, 'sent', 'http', 'delivered', 'email', o.email],
    ]);
    expect(rows[0].provider_id).toMatch(/^gw-\d+$/);
    expect(gateway.received.filter((m) => m.to === o.email)).toEqual([]);
    // A late failure report never moves `delivered` back.
    expect((await report(a, 'sms', { id: rows[0].provider_id, status: 'failed' })).statusCode).toBe(200);
    expect((await rowsOf(o.orderId)).map((r) => r.receipt)).toEqual(['delivered']);
  });

  it('a delayed report within the wait still counts: delivered, no fallback', async () => {
    const o = await readyOrder();
    gateway.fates.set(o.phone, { fate: 'deliver', delayMs: 1000 });
    await moveToReady(o.orderId);
    const [sent] = await until('sent', () => rowsOf(o.orderId), (r) => r[0]?.status === 'sent');
    expect(sent.receipt).toBe('awaiting');
    const rows = await until('delivered', () => rowsOf(o.orderId), (r) => r[0]?.receipt === 'delivered');
    expect(rows).toHaveLength(1);
  });

  it('failed: the provider’s failure writes one fallback e-mail, linked to the SMS, which the sender sends', async () => {
    const o = await readyOrder();
    gateway.fates.set(o.phone, { fate: 'fail' });
    await moveToReady(o.orderId);
    const rows = await until('fallback delivered', () => rowsOf(o.orderId), (r) => r.length === 2 && r[1].receipt === 'delivered');
    const [sms, mail] = rows;
    expect([sms.channel, sms.status, sms.receipt, sms.last_error]).toEqual(['sms', 'sent', 'failed', 'Provider: Carrier rejected the message (30007)']);
    expect([mail.channel, mail.recipient, mail.fallback_of, mail.status, mail.subject]).toEqual(['email', o.email, sms.id, 'sent', expect.stringContaining('ready for pickup')]);
    expect(gateway.received.filter((m) => m.to === o.email).map((m) => m.channel)).toEqual(['email']);
  });

  it('no receipt in time: the SMS becomes no_receipt and the fallback e-mail goes', async () => {
    const o = await readyOrder();
    gateway.fates.set(o.phone, { fate: 'drop' });
    await moveToReady(o.orderId);
    const sent = await until('sent', () => rowsOf(o.orderId), (r) => r[0]?.receipt === 'awaiting');
    expect(sent).toHaveLength(1);
    const rows = await until('fallback', () => rowsOf(o.orderId), (r) => r.length === 2 && r[1].status === 'sent', (WAIT_S + 10) * 1000);
    expect(rows.map((r) => [r.channel, r.receipt === 'no_receipt' || r.receipt === 'delivered' || r.receipt === 'awaiting', r.fallback_of])).toEqual([
      ['sms', true, null],
      ['email', true, rows[0].id],
    ]);
    expect(rows[0].receipt).toBe('no_receipt');
    // The late receipt still counts (it did arrive) and writes nothing more.
    expect((await report(b, 'sms', { id: rows[0].provider_id, status: 'delivered' })).statusCode).toBe(200);
    expect((await rowsOf(o.orderId)).map((r) => r.receipt)[0]).toBe('delivered');
    expect(await rowsOf(o.orderId)).toHaveLength(2);
  });

  it('a burst of failure callbacks on two nodes writes one fallback', async () => {
    const o = await readyOrder();
    gateway.fates.set(o.phone, { fate: 'drop' });
    await moveToReady(o.orderId);
    const [sms] = await until('sent', () => rowsOf(o.orderId), (r) => r[0]?.receipt === 'awaiting');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => report(i % 2 ? a : b, 'sms', { id: sms.provider_id, status: i % 3 ? 'failed' : 'undelivered', error: `try ${i}` })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(40).fill(200));
    expect(answers.filter((r) => r.json().result.fallback)).toHaveLength(1);
    const rows = await until('fallback sent', () => rowsOf(o.orderId), (r) => r.length === 2 && r[1].status === 'sent');
    expect(rows.filter((r) => r.fallback_of === sms.id)).toHaveLength(1);
    expect(gateway.received.filter((m) => m.to === o.email)).toHaveLength(1);
  });

  it('an inbound STOP is honoured at once: pending marketing held back, later marketing refused at send time, order texts stop; START allows order texts again', async () => {
    const { db } = getDb();
    const o = await readyOrder();
    await recordConsent(db, { storeId: 1, contact: o.phone, channel: 'sms', purposes: ['marketing'], action: 'granted', source: 'stock_alert_form', words: 'Text me', at: new Date(Date.now() - 60_000) });
    const at = new Date().toISOString();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const marketing = (eventId: string, next: string) =>
      db
        .insertInto('message_deliveries')
        .values({ event_id: eventId, store_id: 1, order_id: null, channel: 'sms', recipient: o.phone, template: 'back_in_stock', purpose: 'marketing', subject: null, body: 'Back in stock', status: 'pending', attempts: 0, next_attempt_at: next, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
    const deferred = await marketing(`stop-test-a-${o.orderId}`, later);

    const stop = await a.inject({ method: 'POST', url: '/api/messages/inbound/sms', headers: { authorization: `Bearer ${SECRET}` }, payload: { from: o.phone.replace('+1', ''), text: ' Stop ' } });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().result).toEqual({ action: 'withdrawn', stores: 1 });
    const ledger = await db.selectFrom('consent_events').select(['purpose', 'action', 'source', 'words']).where('contact', '=', o.phone).where('source', '=', 'sms_stop').orderBy('purpose').execute();
    expect(ledger).toEqual([
      { purpose: 'marketing', action: 'withdrawn', source: 'sms_stop', words: 'Stop' },
      { purpose: 'transactional', action: 'withdrawn', source: 'sms_stop', words: 'Stop' },
    ]);
    const held = await db.selectFrom('message_deliveries').select(['status', 'last_error']).where('id', '=', deferred.id).executeTakeFirstOrThrow();
    expect(held).toEqual({ status: 'failed', last_error: 'Not sent: consent withdrawn' });

    // Queued after the STOP by a planner that read consent before it: refused at send time.
    const stale = await marketing(`stop-test-b-${o.orderId}`, at);
    a.outboxDispatcher.sender.wake();
    await until('refused', () => db.selectFrom('message_deliveries').select(['status', 'last_error']).where('id', '=', stale.id).executeTakeFirstOrThrow(), (r) => r.status !== 'pending');
    expect(await db.selectFrom('message_deliveries').select(['status', 'last_error']).where('id', '=', stale.id).executeTakeFirstOrThrow()).toEqual({ status: 'failed', last_error: 'Not sent: consent withdrawn' });

    // The order's own update now goes by e-mail only.
    await moveToReady(o.orderId);
    const rows = await until('e-mail', () => rowsOf(o.orderId), (r) => r[0]?.status === 'sent');
    expect(rows.map((r) => [r.channel, r.recipient])).toEqual([['email', o.email]]);
    expect(gateway.received.filter((m) => m.to === o.phone)).toEqual([]);

    const start = await b.inject({ method: 'POST', url: '/api/messages/inbound/sms', headers: { authorization: `Bearer ${SECRET}` }, payload: { from: o.phone, text: 'START' } });
    expect(start.json().result).toEqual({ action: 'granted', stores: 1 });
    const newest = await db.selectFrom('consent_events').select(['purpose', 'action', 'source']).where('contact', '=', o.phone).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(newest).toEqual({ purpose: 'transactional', action: 'granted', source: 'sms_start' });
    const other = await a.inject({ method: 'POST', url: '/api/messages/inbound/sms', headers: { authorization: `Bearer ${SECRET}` }, payload: { from: o.phone, text: 'what time do you close?' } });
    expect(other.json().result).toEqual({ action: 'none', stores: 0 });
  });

  it('a transactional withdrawal recorded after planning stops the text at send time (the row says why) and the e-mail fallback goes', async () => {
    const { db } = getDb();
    const o = await readyOrder();
    const at = new Date().toISOString();
    const row = await db
      .insertInto('message_deliveries')
      .values({
        event_id: `late-stop-${o.orderId}`,
        store_id: 1,
        order_id: o.orderId,
        channel: 'sms',
        recipient: o.phone,
        template: 'order_ready_for_pickup',
        subject: null,
        body: 'Ready',
        fallback_channel: 'email',
        fallback_recipient: o.email,
        fallback_subject: 'Ready',
        fallback_body: 'Ready (e-mail)',
        status: 'pending',
        attempts: 0,
        next_attempt_at: new Date(Date.now() + 3_600_000).toISOString(),
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordConsent(db, { storeId: 1, contact: o.phone, channel: 'sms', purposes: ['transactional'], action: 'withdrawn', source: 'support_call', words: null, at: new Date() });
    await db.updateTable('message_deliveries').set({ next_attempt_at: at }).where('id', '=', row.id).execute();
    a.outboxDispatcher.sender.wake();
    const rows = await until(
      'fallback sent',
      () => db.selectFrom('message_deliveries').selectAll().where('event_id', '=', `late-stop-${o.orderId}`).orderBy('id').execute(),
      (r) => r.length === 2 && r[1].status === 'sent',
    );
    expect(rows.map((r) => [r.channel, r.status, r.last_error, r.fallback_of])).toEqual([
      ['sms', 'failed', 'Not sent: consent withdrawn', null],
      ['email', 'sent', null, row.id],
    ]);
    expect(gateway.received.filter((m) => m.to === o.phone)).toEqual([]);
  });

  it('refuses a missing or wrong secret (401), an unknown id (404), a bad body (400); without a secret set the routes answer 404', async () => {
    expect((await report(a, 'sms', { id: 'gw-1', status: 'delivered' }, '')).statusCode).toBe(401);
    expect((await report(a, 'email', { id: 'gw-1', status: 'delivered' }, 'Bearer wrong')).statusCode).toBe(401);
    const unknown = await report(a, 'email', { id: 'no-such-id', status: 'delivered' });
    expect([unknown.statusCode, unknown.json().errorCode]).toEqual([404, 'unknown_message']);
    expect((await report(a, 'sms', { id: 'gw-1', status: 'read' })).statusCode).toBe(400);
    expect((await a.inject({ method: 'POST', url: '/api/messages/inbound/sms', headers: { authorization: `Bearer ${SECRET}` }, payload: { text: 'STOP' } })).statusCode).toBe(400);
    const plain = await buildApp({ config: { dataDir: getDb().dataDir, demoMode: true, production: true, logLevel: 'silent', smsProvider: 'outbox' }, registry, db: getDb().db, logger: false });
    try {
      expect((await report(plain, 'sms', { id: 'gw-1', status: 'delivered' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
