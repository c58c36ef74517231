/**
 * Issue 26 blocker, both databases: a patient who signs up by SMS code gives the medical card's
 * number and expiry (refused without), can add or correct them on the account, orders a
 * medical-only product, and staff verifying the ID and the card release the held order so Confirm
 * works — in the verification's own transaction (auto-confirm stores confirm it there), once, even
 * when both documents are verified at the same moment.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { Shopper, bearer, orderBody, pin } from '../../test-support/cart/testing.ts';
import { lifecycleHarness, readyIn, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { USER_MESSAGES } from './customers.ts';
import { VERIFICATION_MESSAGES } from '../orders/lifecycle/verification.ts';

const GUMMIES = 'ED-POMEGRANATE-GUMMIES-500-MG'; // medical-only in the demo catalogue
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const HOST = 'downtown.localhost';

describeEachDatabase('medical sign-up by SMS code, the account card and the hold verification lifts', (getDb) => {
  let h: LifecycleHarness;
  let ipSeq = 0;
  const post = async (url: string, payload: Record<string, unknown>, token?: string) => {
    const res = await h.app.inject({ method: 'POST', url, remoteAddress: `10.91.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`, headers: { host: HOST, ...(token ? bearer(token) : {}) }, payload });
    return { status: res.statusCode, body: res.json() };
  };
  /** An SMS login of a new phone up to its licence step; answers that step's poster. */
  const smsUpTo = async (phone: string) => {
    const code = (await post('/api/user/login', { phone })).body.meta.demo_code ?? h.app.accounts!.sms.lastCode!(phone.replace(/\D/g, ''));
    const confirmed = await post('/api/user/login', { phone, code });
    expect(confirmed.body.result).toEqual({ needs: ['license_type', 'birthday'], medical_needs: ['medcard_number', 'medcard_expiry'] });
    return (extra: Record<string, unknown>) => post('/api/user/login', { phone, birthday: '1990-01-01', pendingToken: confirmed.body.meta.pendingToken, ...extra });
  };
  const customerOf = (id: number) => h.db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const upload = (token: string, kind: 'id' | 'medcard') =>
    h.app.inject({
      method: 'POST',
      url: `/api/user/upload?kind=${kind}`,
      headers: { host: HOST, ...bearer(token), 'content-type': 'multipart/form-data; boundary=B' },
      payload: Buffer.concat([Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="c.png"\r\nContent-Type: image/png\r\n\r\n'), PNG, Buffer.from('\r\n--B--\r\n')]),
    });
  const review = (customerId: number, body: Record<string, unknown>) => h.console('POST', `/api/console/stores/1/customers/${customerId}/verification`, body);
  const detail = async (orderId: number) => (await h.get(`/api/console/stores/1/orders/${orderId}`)).body.result;
  /** A medical-only product ordered from a medical cart by the patient. */
  const orderGummies = async (token: string) => {
    const s = new Shopper(h.app);
    await s.createCart('medical');
    const add = await s.call('POST', `/api/cart/update?cartId=${s.token}`, { cartItem: { quoteId: s.token, sku: GUMMIES, qty: 1 } }, bearer(token));
    expect(add.status, JSON.stringify(add)).toBe(200);
    const saved = await s.saveOrder(orderBody({ cart_id: s.token }), bearer(token));
    expect(saved.status, JSON.stringify(saved)).toBe(200);
    return saved.result.order_id as number;
  };
  /** A patient signed up by SMS code with a valid card, both documents uploaded. */
  const patient = async (phone: string) => {
    const done = await (await smsUpTo(phone))({ license_type: 'medical', medcard_number: 'MC-26-001', medcard_expiry: '2027-12-31' });
    expect(done.status).toBe(200);
    const token = done.body.meta.token as string;
    expect((await upload(token, 'id')).statusCode).toBe(200);
    expect((await upload(token, 'medcard')).statusCode).toBe(200);
    return { token, customerId: done.body.meta.customer_id as number };
  };

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    await pin(h.db, 1, GUMMIES, { price: 3000, stock: 1000 });
  });
  afterAll(async () => h?.app.close());

  it('asks a medical SMS sign-up for the card number and expiry and refuses it without them', async () => {
    const step = await smsUpTo('+19165552601');
    expect(await step({ license_type: 'medical' })).toMatchObject({ status: 400 });
    expect(JSON.stringify((await step({ license_type: 'medical' })).body)).toContain(USER_MESSAGES.medcardTooShort);
    expect(JSON.stringify((await step({ license_type: 'medical', medcard_number: 'MC-1' })).body)).toContain(USER_MESSAGES.medcardExpiryRequired);
    expect(await step({ license_type: 'medical', medcard_number: 'MC-1', medcard_expiry: '2026-06-14' })).toMatchObject({ status: 400, body: { result: USER_MESSAGES.medcardExpired } });
    expect((await step({ license_type: 'medical', medcard_number: 'MC-1', medcard_expiry: '2026-02-30' })).status).toBe(400);
    const made = await step({ license_type: 'medical', medcard_number: ' MC-2601 ', medcard_expiry: '2026-06-15' });
    expect(made.status).toBe(200);
    expect(await customerOf(made.body.meta.customer_id)).toMatchObject({ license_type: 'medical', medcard_number: 'MC-2601', medcard_expiry: '2026-06-15' });
    // A recreational sign-up is not asked for a card, and none is stored from a stray field.
    const rec = await (await smsUpTo('+19165552602'))({ license_type: 'recreational', medcard_number: 'MC-X', medcard_expiry: '2030-01-01' });
    expect(rec.status).toBe(200);
    expect(await customerOf(rec.body.meta.customer_id)).toMatchObject({ medcard_number: null, medcard_expiry: null });
  });

  it('lets a medical account add and correct its card; a reviewed card changed goes back to review', async () => {
    // An account made before sign-up asked for the card (no number, no expiry).
    const step = await smsUpTo('+19165552611');
    const made = await step({ license_type: 'medical', medcard_number: 'MC-OLD', medcard_expiry: '2027-01-01' });
    const token = made.body.meta.token as string;
    const id = made.body.meta.customer_id as number;
    await h.db.updateTable('customers').set({ medcard_number: null, medcard_expiry: null }).where('id', '=', id).execute();
    const save = (body: Record<string, unknown>) => post('/api/user/me/medcard', body, token);
    expect((await save({ medcard_number: 'M' , medcard_expiry: '2027-01-01' })).body).toMatchObject({ code: 400, result: expect.stringContaining('MedCard') });
    expect((await save({ medcard_number: 'MC-9' })).status).toBe(400);
    expect((await save({ medcard_number: 'MC-9', medcard_expiry: '2026-06-14' })).body).toMatchObject({ code: 400, result: USER_MESSAGES.medcardExpired });
    expect((await save({ medcard_number: 'MC-9', medcard_expiry: '2027-01-01', license_type: 'recreational' })).status).toBe(400);
    expect((await post('/api/user/me/medcard', { medcard_number: 'MC-9', medcard_expiry: '2027-01-01' })).status).toBe(401);
    const saved = await save({ medcard_number: 'MC-9', medcard_expiry: '2027-01-01' });
    expect(saved.body.result).toMatchObject({ medcard_number: 'MC-9', medcard_expiry: '2027-01-01', medcard_status: 'none' });
    // Uploaded and verified, then corrected: staff review the new details.
    expect((await upload(token, 'medcard')).statusCode).toBe(200);
    expect((await review(id, { document: 'medcard', decision: 'verified' })).status).toBe(200);
    expect((await save({ medcard_number: 'MC-9', medcard_expiry: '2027-01-01' })).body.result).toMatchObject({ medcard_status: 'verified' });
    expect((await save({ medcard_number: 'MC-10', medcard_expiry: '2028-01-01' })).body.result).toMatchObject({ medcard_number: 'MC-10', medcard_status: 'pending' });
    // A recreational account has no card to add.
    const rec = await (await smsUpTo('+19165552612'))({ license_type: 'recreational' });
    expect((await post('/api/user/me/medcard', { medcard_number: 'MC-9', medcard_expiry: '2027-01-01' }, rec.body.meta.token)).body).toMatchObject({ code: 400, result: USER_MESSAGES.medcardNotMedical });
  });

  it('SMS sign-up as medical → medical-only order held → staff verify both documents → released → Confirm', async () => {
    const p = await patient('+19165552621');
    const orderId = await orderGummies(p.token);
    expect(await detail(orderId)).toMatchObject({ status: 'submitted', hold: ['id', 'medcard'] });
    expect((await h.move(orderId, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(400);
    const id = await review(p.customerId, { document: 'id', decision: 'verified' });
    expect(id.body.result).toMatchObject({ orderIds: [orderId], releasedOrderIds: [] });
    const card = await review(p.customerId, { document: 'medcard', decision: 'verified' });
    expect(card.body.result).toMatchObject({ orderIds: [orderId], releasedOrderIds: [orderId], customer: { medcard_status: 'verified', medcard_expiry: '2027-12-31' } });
    const d = await detail(orderId);
    expect(d.hold).toEqual([]);
    expect(d.history.filter((e: { kind: string }) => e.kind === 'verification').map((e: { data: unknown }) => e.data)).toEqual([
      { document: 'id', decision: 'verified', reason: null, hold: ['medcard'] },
      { document: 'medcard', decision: 'verified', reason: null, hold: [], released: true },
    ]);
    expect((await h.move(orderId, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(200);
  });

  it('refuses to verify a card with no number or expiry; staff reading them from the card release the order', async () => {
    const p = await patient('+19165552631');
    const orderId = await orderGummies(p.token);
    // As an account made before the fix: the card details are missing.
    await h.db.updateTable('customers').set({ medcard_number: null, medcard_expiry: null }).where('id', '=', p.customerId).execute();
    await review(p.customerId, { document: 'id', decision: 'verified' });
    const refused = await review(p.customerId, { document: 'medcard', decision: 'verified' });
    expect(refused).toMatchObject({ status: 400, body: { result: VERIFICATION_MESSAGES.medcardDetailsRequired } });
    expect((await customerOf(p.customerId)).medcard_status).toBe('pending');
    expect((await review(p.customerId, { document: 'medcard', decision: 'verified', medcardExpiry: '2027-03-31' })).status).toBe(400);
    const ok = await review(p.customerId, { document: 'medcard', decision: 'verified', medcardExpiry: '2027-03-31', medcardNumber: 'MC-READ' });
    expect(ok.body.result).toMatchObject({ releasedOrderIds: [orderId], customer: { medcard_number: 'MC-READ', medcard_expiry: '2027-03-31' } });
    expect((await h.move(orderId, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(200);
  });

  it('auto-confirm store: verifying both documents at once (40 requests) releases and confirms the order exactly once', async () => {
    const saved = await h.console('PUT', '/api/console/stores/1/settings/orders', { auto_confirm: true, auto_confirm_minutes: 30 });
    expect(saved.status).toBe(200);
    try {
      const p = await patient('+19165552641');
      const orderId = await orderGummies(p.token);
      expect((await detail(orderId)).status).toBe('submitted');
      const burst = await Promise.all(
        Array.from({ length: 40 }, (_, i) => review(p.customerId, { document: i % 2 ? 'id' : 'medcard', decision: 'verified' })),
      );
      expect(burst.map((r) => r.status)).toEqual(Array(40).fill(200));
      expect(burst.flatMap((r) => r.body.result.releasedOrderIds)).toEqual([orderId]);
      const d = await detail(orderId);
      expect(d.status).toBe('confirmed');
      const confirms = d.history.filter((e: { kind: string; to_status: string | null }) => e.kind === 'status' && e.to_status === 'confirmed');
      expect(confirms).toHaveLength(1);
    } finally {
      await h.console('PUT', '/api/console/stores/1/settings/orders', { auto_confirm: false });
    }
  });
});
