/**
 * The console's deal routes and the integration API's deals (issue 28 "The store's side") through the
 * real app, the real staff guard and real API keys, on SQLite and PostgreSQL: who may read and write,
 * validation in the model's words, optimistic versions (one of 10 parallel saves over the same
 * version wins), pause / resume / end and the history of every change, the preview's numbers, the
 * calendar, the per-deal report (its sums are the redemption rows; a cancelled order's are given
 * back) and its CSV, the order trace ("why didn't I get the deal?"), and deals by the store's own ids
 * (a burst of creates of one external id makes one deal).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, orderBody, pin, REFERENCE_DATE } from '../../test-support/cart/testing.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { applyTransition, SYSTEM_ACTOR } from '../orders/lifecycle/transitions.ts';
import { createApiKey } from '../integration/keys.ts';

const HOST = 'downtown.localhost';
const BASE = '/api/console/stores/1';
const SHATTER = 'CN-SOUR-DIESEL-SHATTER-1-G';
const ROSIN = 'CN-JACK-HERER-LIVE-ROSIN-1-G';
const stack = { deals: true, coupons: true, points: true };
const shatter20 = { title: 'Shatter: 20% off', kind: 'set_discount', set: { skus: [SHATTER] }, reward: { type: 'percent', percent: 20 }, stacking: stack };
const rosin3 = { id: 'rosin-3-for-60', title: 'Any 3 rosins for $60', kind: 'mix_match', set: { skus: [ROSIN] }, qty: 3, priceCents: 6000, stacking: stack };
const medical = { id: 'medical-rosin', title: 'Medical: 30% off rosin', kind: 'set_discount', set: { skus: [ROSIN] }, reward: { type: 'percent', percent: 30 }, eligibility: { licence: 'medical' }, stacking: stack };

type Reply = { status: number; body: { code: number; result: any; errorCode?: string; meta?: any }; text: string; headers: Record<string, unknown> };

describeEachDatabase('deals in the console and the integration API', (getDb) => {
  let app: FastifyInstance;
  let owner: StaffTestSession;
  let manager: StaffTestSession;
  let budtender: StaffTestSession;
  let apiKey = '';
  const db = () => getDb().db;

  async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, who: StaffTestSession | null = manager, extra: Record<string, string> = {}): Promise<Reply> {
    const res = await app.inject({
      method,
      url,
      remoteAddress: '10.231.0.1',
      headers: { host: HOST, ...(who ? who.headers : {}), ...extra },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    const type = String(res.headers['content-type'] ?? '');
    return { status: res.statusCode, body: type.includes('json') ? res.json() : ({} as Reply['body']), text: res.body, headers: res.headers as Record<string, unknown> };
  }
  const shop = async (method: 'GET' | 'POST', url: string, payload?: unknown) => call(method, url, payload, null);
  const pos = (method: 'GET' | 'PUT' | 'DELETE', path: string, payload?: unknown, idem?: string) =>
    call(method, `/api/integration/v1${path}`, payload, null, { authorization: `Bearer ${apiKey}`, ...(idem ? { 'idempotency-key': idem } : {}) });

  async function order(lines: [string, number][], licence: 'recreational' | 'medical' = 'recreational'): Promise<number> {
    const cart = (await shop('POST', '/api/cart/create', { license_type: licence })).body.result as string;
    for (const [sku, qty] of lines) expect((await shop('POST', `/api/cart/update?cartId=${cart}`, { cartItem: { quoteId: cart, sku, qty } })).status).toBe(200);
    const placed = await shop('POST', '/api/order/save', orderBody({ cart_id: cart, license_type: licence }));
    expect(placed.status).toBe(200);
    return placed.body.result.order_id as number;
  }

  beforeAll(async () => {
    app = await commerceApp(getDb());
    for (const sku of [SHATTER, ROSIN]) await pin(db(), 1, sku, { price: 3000, stock: 10_000, manageStock: true });
    // The demo deals end, so the numbers below are this suite's deals' alone.
    for (const d of await app.deals.list(1)) if (d.status !== 'ended') await app.deals.setStatus(1, d.id, 'end', null, { type: 'system', name: 'test' }, { source: 'cli' });
    await addStaff(db(), { email: 'owner@deals.test', role: 'owner', name: 'Olga Owner' });
    await addStaff(db(), { email: 'manager@deals.test', role: 'manager', storeIds: [1], name: 'Mia Manager' });
    await addStaff(db(), { email: 'budtender@deals.test', role: 'budtender', storeIds: [1], name: 'Ben Budtender' });
    owner = await loginStaff(app, 'owner@deals.test', { ip: '10.231.1.1' });
    manager = await loginStaff(app, 'manager@deals.test', { ip: '10.231.1.2' });
    budtender = await loginStaff(app, 'budtender@deals.test', { ip: '10.231.1.3' });
    apiKey = (await createApiKey(db(), 1, { name: 'POS', scopes: ['menu:write'], createdBy: 'test' }, REFERENCE_DATE)).key;
  });
  afterAll(async () => app?.close());

  it('budtenders read deals; managers and owners write; another store is refused', async () => {
    const created = await call('POST', `${BASE}/deals`, { record: shatter20 });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ code: 'shatter-20-off', title: 'Shatter: 20% off', status: 'active', version: 1, created_by: 'Mia Manager', headline: 'Shatter: 20% off' });
    expect((await call('GET', `${BASE}/deals`, undefined, budtender)).body.result.items.map((d: { code: string }) => d.code)).toContain('shatter-20-off');
    expect((await call('GET', `${BASE}/deals/${created.body.result.id}`, undefined, budtender)).body.result.record).toMatchObject({ id: 'shatter-20-off', reward: { percent: 20 } });
    const refused = await call('POST', `${BASE}/deals`, { record: { ...shatter20, title: 'Budtender deal' } }, budtender);
    expect(refused).toMatchObject({ status: 403, body: { errorCode: 'forbidden' } });
    const pauseRefused = await call('POST', `${BASE}/deals/${created.body.result.id}/pause`, { version: 1 }, budtender);
    expect(pauseRefused.status).toBe(403);
    expect((await call('GET', '/api/console/stores/2/deals')).body.errorCode).toBe('store_forbidden');
    // The owner may work on any store; store 2's list does not show store 1's deal.
    const other = await call('GET', '/api/console/stores/2/deals', undefined, owner);
    expect(other.status).toBe(200);
    expect(other.body.result.items.map((d: { code: string }) => d.code)).not.toContain('shatter-20-off');
    expect((await call('GET', `/api/console/stores/2/deals/${created.body.result.id}`, undefined, owner)).body.errorCode).toBe('deal_not_found');
    // Filters.
    expect((await call('GET', `${BASE}/deals?status=active&kind=set_discount`)).body.result.items.map((d: { code: string }) => d.code)).toEqual(['shatter-20-off']);
    expect((await call('GET', `${BASE}/deals?status=active&kind=bundle`)).body.result.items).toEqual([]);
    expect((await call('GET', `${BASE}/deals?status=gone`)).body).toMatchObject({ code: 400, result: expect.stringContaining('status must be one of: active, paused, ended') });
  });

  it('refuses a bad record with the field and the reason, and writes nothing', async () => {
    const before = (await db().selectFrom('deal_changes').select('id').execute()).length;
    const bad = await call('POST', `${BASE}/deals`, { record: { ...shatter20, reward: { type: 'percent', percent: 120 } } });
    expect(bad).toMatchObject({ status: 400, body: { errorCode: 'invalid_deal', result: expect.stringMatching(/percent must be at most 100/) } });
    const mix = await call('POST', `${BASE}/deals`, { record: { ...rosin3, priceCents: 2 } });
    expect(mix.body.result).toMatch(/leave every item at least \$0\.01/);
    expect((await call('POST', `${BASE}/deals`, { nope: true })).status).toBe(400);
    expect((await db().selectFrom('deal_changes').select('id').execute()).length).toBe(before);
  });

  it('an update names its version: stale → 409 with the deal as it is; of 10 parallel saves over one version exactly one wins', async () => {
    const d = (await call('POST', `${BASE}/deals`, { record: { ...shatter20, id: 'versioned', title: 'Versioned 10%', reward: { type: 'percent', percent: 10 } } })).body.result;
    const saved = await call('PUT', `${BASE}/deals/${d.id}`, { record: { ...d.record, title: 'Versioned 15%', reward: { type: 'percent', percent: 15 } }, version: 1 });
    expect(saved.body.result).toMatchObject({ version: 2, title: 'Versioned 15%', updated_by: 'Mia Manager' });
    const stale = await call('PUT', `${BASE}/deals/${d.id}`, { record: { ...d.record, title: 'Late' }, version: 1 });
    expect(stale).toMatchObject({ status: 409, body: { errorCode: 'stale_deal', meta: { current: { version: 2, title: 'Versioned 15%' } } } });
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call('PUT', `${BASE}/deals/${d.id}`, { record: { ...d.record, title: `Burst ${i}` }, version: 2 })),
    );
    expect(burst.filter((r) => r.status === 200)).toHaveLength(1);
    expect(burst.filter((r) => r.status === 409 && r.body.errorCode === 'stale_deal')).toHaveLength(9);
    const now = (await call('GET', `${BASE}/deals/${d.id}`)).body.result;
    expect(now.version).toBe(3);
    expect(now.title).toBe(burst.find((r) => r.status === 200)!.body.result.title);
    // Pause, resume and end over the version; a stale pause is refused; an ended deal is final.
    expect((await call('POST', `${BASE}/deals/${d.id}/pause`, { version: 2 })).body.errorCode).toBe('stale_deal');
    expect((await call('POST', `${BASE}/deals/${d.id}/pause`, { version: 3 })).body.result).toMatchObject({ status: 'paused', version: 4 });
    expect((await call('POST', `${BASE}/deals/${d.id}/pause`, { version: 4 })).body.result).toMatchObject({ status: 'paused', version: 4 });
    expect((await call('POST', `${BASE}/deals/${d.id}/resume`, { version: 4 })).body.result).toMatchObject({ status: 'active', version: 5 });
    expect((await call('POST', `${BASE}/deals/${d.id}/end`, { version: 5 }, owner)).body.result).toMatchObject({ status: 'ended', version: 6, updated_by: 'Olga Owner' });
    expect((await call('POST', `${BASE}/deals/${d.id}/resume`, { version: 6 })).body).toMatchObject({ code: 409, errorCode: 'deal_status' });
    expect((await call('PUT', `${BASE}/deals/${d.id}`, { record: d.record, version: 6 })).body.errorCode).toBe('deal_ended');
    expect((await call('POST', `${BASE}/deals/${d.id}/pause`, {})).status).toBe(400);

    const history = (await call('GET', `${BASE}/deals/${d.id}/history`, undefined, budtender)).body.result.items;
    expect(history.map((h: { action: string }) => h.action)).toEqual(['end', 'resume', 'pause', 'update', 'update', 'create']);
    expect(history.at(-2)).toMatchObject({
      actor: { type: 'staff', name: 'Mia Manager' },
      source: 'console',
      before: { title: 'Versioned 10%', reward: { percent: 10 } },
      after: { title: 'Versioned 15%', reward: { percent: 15 } },
      changed: ['reward.percent', 'title'],
    });
    expect(history[0]).toMatchObject({ actor: { name: 'Olga Owner' }, changed: ['status'], before: { status: 'active' }, after: { status: 'ended' } });
    expect(history.at(-1)).toMatchObject({ action: 'create', before: null, changed: [] });
    const page = (await call('GET', `${BASE}/deals/${d.id}/history?limit=2&before=${history[1].id}`)).body.result.items;
    expect(page.map((h: { action: string }) => h.action)).toEqual(['pause', 'update']);
  });

  it('previews a draft: the products it matches and what a sample cart pays with and without it', async () => {
    const preview = await call('POST', `${BASE}/deals/preview`, {
      record: { title: 'Draft 25% rosin', kind: 'set_discount', set: { skus: [ROSIN] }, reward: { type: 'percent', percent: 25 }, stacking: stack, status: 'paused' },
      cart: [
        { sku: SHATTER, qty: 2 },
        { sku: ROSIN, qty: 1 },
        { sku: 'NO-SUCH-SKU', qty: 1 },
      ],
    }, budtender);
    expect(preview.status).toBe(200);
    const p = preview.body.result;
    expect(p.matching).toEqual({ count: 1, sample: [{ sku: ROSIN, name: expect.any(String), price_cents: 3000 }] });
    expect(p.headline).toBe('Draft 25% rosin');
    // Without: the store's shatter deal (20% of 2 × $30.00 = $12.00). With: plus 25% of $30.00.
    expect(p.cart).toMatchObject({
      subtotal_cents: 9000,
      without: { discount_cents: 1200, total_cents: 7800 },
      with: { discount_cents: 1950, total_cents: 7050 },
      draft: { applied: true, discount_cents: 750 },
      unknown: ['NO-SUCH-SKU'],
    });
    expect(p.cart.lines).toEqual([
      { sku: SHATTER, name: expect.any(String), qty: 2, unit_price_cents: 3000, without_cents: 1200, with_cents: 1200 },
      { sku: ROSIN, name: expect.any(String), qty: 1, unit_price_cents: 3000, without_cents: 0, with_cents: 750 },
    ]);
    // A draft that does not apply says why; the whole menu as the set matches every sellable product.
    const missed = (await call('POST', `${BASE}/deals/preview`, { record: rosin3, cart: [{ sku: ROSIN, qty: 2 }] })).body.result;
    expect(missed.cart.draft).toEqual({ applied: false, reason: 'not_enough_items', text: expect.stringMatching(/1 more/) });
    expect(missed.cart.with.discount_cents).toBe(missed.cart.without.discount_cents);
    const all = (await call('POST', `${BASE}/deals/preview`, { record: { ...shatter20, set: {} }, sample: 3 })).body.result;
    const sellable = await db().selectFrom('products').select('id').where('store_id', '=', 1).where('type_id', '=', 'simple').where('status', '<=', 1).execute();
    expect(all.matching.count).toBe(sellable.length);
    expect(all.matching.sample).toHaveLength(3);
    expect(all.cart).toBeNull();
    // A bad draft: the model's words.
    expect((await call('POST', `${BASE}/deals/preview`, { record: { ...rosin3, qty: 1 } })).body).toMatchObject({ code: 400, errorCode: 'invalid_deal', result: expect.stringMatching(/qty must be at least 2/) });
  });

  it('checks a typed-in cart against the active deals: what applies per line, and why each other deal does not', async () => {
    const check = await call('POST', `${BASE}/deals/check`, { cart: [{ sku: SHATTER, qty: 2 }, { sku: ROSIN, qty: 1 }, { sku: 'NO-SUCH-SKU', qty: 1 }], licence: 'recreational' }, budtender);
    expect(check.status).toBe(200);
    const c = check.body.result;
    expect(c).toMatchObject({ subtotal_cents: 9000, discount_cents: 1200, unknown: ['NO-SUCH-SKU'], applied: [{ code: 'shatter-20-off', title: 'Shatter: 20% off', discount_cents: 1200 }] });
    expect(c.lines).toEqual([
      { sku: SHATTER, name: expect.any(String), qty: 2, unit_price_cents: 3000, deals: [{ code: 'shatter-20-off', title: 'Shatter: 20% off', discount_cents: 1200 }] },
      { sku: ROSIN, name: expect.any(String), qty: 1, unit_price_cents: 3000, deals: [] },
    ]);
    // Ended deals are not the store's active ones: nothing to say about them.
    expect(c.not_applied.map((n: { code: string }) => n.code)).not.toContain('wax-wednesday');
    expect((await call('POST', `${BASE}/deals/check`, { cart: [] })).body).toMatchObject({ code: 400, result: expect.stringContaining('Enter at least one SKU') });
  });

  it('the calendar shows what runs on which day in the store’s zone', async () => {
    const wax = (await call('POST', `${BASE}/deals`, { record: { ...shatter20, id: 'cal-wednesday', title: 'Cal: Wednesdays 4–6 pm', schedule: { days: [3], hours: { from: '16:00', to: '18:00' } } } })).body.result;
    const june = (await call('POST', `${BASE}/deals`, { record: { ...shatter20, id: 'cal-window', title: 'Cal: 20–21 June', schedule: { startsAt: '2026-06-20T07:00:00Z', endsAt: '2026-06-22T07:00:00Z' } } })).body.result;
    await call('POST', `${BASE}/deals/${june.id}/pause`, { version: 1 });
    const cal = (await call('GET', `${BASE}/deals/calendar?from=2026-06-15&to=2026-06-23`, undefined, budtender)).body.result;
    expect(cal.time_zone).toBe('America/Los_Angeles');
    expect(cal.days).toHaveLength(9);
    const on = (code: string) => cal.days.filter((d: { deals: { code: string }[] }) => d.deals.some((x) => x.code === code)).map((d: { date: string }) => d.date);
    expect(on('cal-wednesday')).toEqual(['2026-06-17']);
    expect(cal.days[2]).toMatchObject({ date: '2026-06-17', weekday: 3 });
    expect(cal.days[2].deals.find((x: { code: string }) => x.code === 'cal-wednesday')).toEqual({ id: wax.id, code: 'cal-wednesday', title: 'Cal: Wednesdays 4–6 pm', status: 'active', hours: { from: '16:00', to: '18:00' } });
    expect(on('cal-window')).toEqual(['2026-06-20', '2026-06-21']);
    expect(on('shatter-20-off')).toHaveLength(9);
    expect(on('versioned')).toEqual([]);
    const activeOnly = (await call('GET', `${BASE}/deals/calendar?from=2026-06-20&to=2026-06-20&status=active`)).body.result;
    expect(activeOnly.days[0].deals.map((x: { code: string }) => x.code)).not.toContain('cal-window');
    expect((await call('GET', `${BASE}/deals/calendar?from=2026-06-20&to=2026-09-20`)).body).toMatchObject({ code: 400, result: expect.stringContaining('At most 62 days') });
    expect((await call('GET', `${BASE}/deals/calendar?from=2026-06-20&to=2026-06-19`)).body.result).toContain('from must not be after to');
    // Calendar entries of other tests must not change the numbers below.
    await call('POST', `${BASE}/deals/${wax.id}/end`, { version: 1 });
  });

  it('the trace says which deals applied per line and why each other deal did not', async () => {
    await call('POST', `${BASE}/deals`, { record: rosin3 });
    await call('POST', `${BASE}/deals`, { record: medical });
    const orderId = await order([
      [SHATTER, 1],
      [ROSIN, 2],
    ]);
    const trace = await call('GET', `${BASE}/orders/${orderId}/deals-trace`, undefined, budtender);
    expect(trace.status).toBe(200);
    const t = trace.body.result;
    expect(t.consistent).toBe(true);
    expect(t.applied).toEqual([{ code: 'shatter-20-off', title: 'Shatter: 20% off', discount_cents: 600 }]);
    expect(t.lines.find((l: { sku: string }) => l.sku === SHATTER).deals).toEqual([{ code: 'shatter-20-off', title: 'Shatter: 20% off', discount_cents: 600 }]);
    expect(t.lines.find((l: { sku: string }) => l.sku === ROSIN)).toMatchObject({ qty: 2, unit_price_cents: 3000, deals: [] });
    const why = Object.fromEntries(t.not_applied.map((n: { code: string; reason: string; text: string }) => [n.code, n]));
    expect(why['rosin-3-for-60']).toMatchObject({ reason: 'not_enough_items', text: expect.stringMatching(/1 more/) });
    expect(why['medical-rosin']).toMatchObject({ reason: 'medical_only', text: 'For medical patients only.' });
    // Ended deals (the demo's, "versioned") ran no more: not in the answer.
    expect(Object.keys(why)).not.toContain('versioned');
    expect(Object.keys(why)).not.toContain('wax-wednesday');
    // Another store's path does not reach the order.
    expect((await call('GET', `/api/console/stores/2/orders/${orderId}/deals-trace`, undefined, owner)).body.errorCode).toBe('order_not_found');

    // The trace judges the deals as they were when the order was placed: a later edit (2 rosins would
    // now do) and a deal created later change nothing of it. The clock stands still in this app, so
    // "later" is a history row written with a later time.
    const rosinDeal = (await call('GET', `${BASE}/deals?kind=mix_match`)).body.result.items.find((d: { code: string }) => d.code === 'rosin-3-for-60');
    const edited = await call('PUT', `${BASE}/deals/${rosinDeal.id}`, { record: { ...rosin3, qty: 2, priceCents: 4000 }, version: rosinDeal.version });
    expect(edited.status).toBe(200);
    await call('POST', `${BASE}/deals`, { record: { ...medical, id: 'created-later', title: 'Created later', eligibility: {} } });
    const later = new Date(Date.parse(REFERENCE_DATE.toISOString()) + 60_000).toISOString();
    await db().updateTable('deal_changes').set({ at: later }).where('deal_id', '=', rosinDeal.id).where('action', '=', 'update').execute();
    const createdLater = (await call('GET', `${BASE}/deals?kind=set_discount`)).body.result.items.find((d: { code: string }) => d.code === 'created-later');
    await db().updateTable('deal_changes').set({ at: later }).where('deal_id', '=', createdLater.id).execute();
    const again = (await call('GET', `${BASE}/orders/${orderId}/deals-trace`)).body.result;
    expect(again.consistent).toBe(true);
    expect(again.not_applied.find((n: { code: string }) => n.code === 'rosin-3-for-60')).toMatchObject({ reason: 'not_enough_items' });
    expect(again.not_applied.map((n: { code: string }) => n.code)).not.toContain('created-later');
    // Out of the way of the report below.
    await call('POST', `${BASE}/deals/${createdLater.id}/end`, { version: 1 });
    await call('POST', `${BASE}/deals/${rosinDeal.id}/end`, { version: rosinDeal.version + 1 });
  });

  it('the report counts redemptions and discount per deal per day, equal to the redemption rows; a cancelled order’s are given back; CSV too', async () => {
    const placed = [];
    for (let i = 0; i < 3; i++) placed.push(await order([[SHATTER, 2]]));
    await applyTransition(db(), { storeId: 1, orderId: placed[0], action: 'cancel', input: { reason: 'customer_request' }, actor: SYSTEM_ACTOR, now: REFERENCE_DATE });
    const report = await call('GET', `${BASE}/deals/report?from=2026-06-15&to=2026-06-15`);
    expect(report.status).toBe(200);
    const r = report.body.result;
    const rows = await db()
      .selectFrom('deal_redemptions')
      .select(['deal_id', 'discount_cents'])
      .where('store_id', '=', 1)
      .where('released_at', 'is', null)
      .execute();
    expect(r.totals).toEqual({ redemptions: rows.length, discount_cents: rows.reduce((s, x) => s + Number(x.discount_cents), 0) });
    // Shatter: the trace's order (1 × $6.00) and two of the three orders here (2 × $12.00).
    expect(r.rows).toEqual([{ date: '2026-06-15', deal_id: expect.any(Number), code: 'shatter-20-off', title: 'Shatter: 20% off', redemptions: 3, discount_cents: 3000 }]);
    expect((await call('GET', `${BASE}/deals/report?from=2026-06-16&to=2026-06-20`)).body.result).toMatchObject({ rows: [], totals: { redemptions: 0, discount_cents: 0 } });
    const csv = await call('GET', `${BASE}/deals/report.csv?from=2026-06-15&to=2026-06-15`);
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toContain('text/csv');
    expect(csv.text.trim().split('\n')).toEqual([
      'date,deal_id,deal,title,redemptions,discount',
      `2026-06-15,${r.rows[0].deal_id},shatter-20-off,Shatter: 20% off,3,30.00`,
      'total,,,,3,30.00',
    ]);
    // Reports: budtenders cannot read them (reports:read), as the daily report.
    expect((await call('GET', `${BASE}/deals/report?from=2026-06-15&to=2026-06-15`, undefined, budtender)).status).toBe(403);
  });

  it('the integration API creates, updates and ends deals by the store’s own ids; a burst of creates of one id makes one deal', async () => {
    const record = { title: 'POS: 10% off rosin', kind: 'set_discount', set: { skus: [ROSIN] }, reward: { type: 'percent', percent: 10 }, stacking: stack };
    const created = await pos('PUT', '/deals/POS-77', { record }, 'k-create');
    expect(created.status).toBe(201);
    expect(created.body.result).toMatchObject({ external_id: 'POS-77', code: 'pos-10-off-rosin', status: 'active', version: 1 });
    // A retry with the same key answers the same, and creates nothing more.
    expect((await pos('PUT', '/deals/POS-77', { record }, 'k-create')).body.result.id).toBe(created.body.result.id);
    const updated = await pos('PUT', '/deals/POS-77', { record: { ...record, reward: { type: 'percent', percent: 12 }, status: 'ended' } }, 'k-update');
    expect(updated.body.result).toMatchObject({ version: 2, status: 'active', record: { reward: { percent: 12 } } });
    expect((await pos('PUT', '/deals/POS-77', { record, version: 1 }, 'k-stale')).body.errorCode).toBe('stale_deal');
    expect((await pos('PUT', '/deals/POS-77', { record: { ...record, kind: 'nope' } }, 'k-bad')).body.errorCode).toBe('invalid_deal');
    expect((await pos('PUT', '/deals/POS-77', { record }, undefined)).status).toBe(400);
    expect((await pos('PUT', '/deals/bad id!', { record }, 'k-id')).status).toBe(400);
    const list = (await pos('GET', '/deals')).body.result.items;
    expect(list.find((d: { external_id: string | null }) => d.external_id === 'POS-77')).toMatchObject({ title: 'POS: 10% off rosin' });
    const ended = await pos('DELETE', '/deals/POS-77', undefined, 'k-end');
    expect(ended.body.result).toMatchObject({ status: 'ended', version: 3 });
    expect((await pos('DELETE', '/deals/POS-77', undefined, 'k-end-again')).body.result).toMatchObject({ status: 'ended', version: 3 });
    expect((await pos('DELETE', '/deals/POS-404', undefined, 'k-404')).body.errorCode).toBe('deal_not_found');
    const history = (await call('GET', `${BASE}/deals/${created.body.result.id}/history`)).body.result.items;
    expect(history.map((h: { action: string; source: string; actor: { type: string; name: string } }) => [h.action, h.source, h.actor.type, h.actor.name])).toEqual([
      ['end', 'api', 'api_key', 'POS'],
      ['update', 'api', 'api_key', 'POS'],
      ['create', 'api', 'api_key', 'POS'],
    ]);

    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => pos('PUT', '/deals/POS-BURST', { record: { ...record, title: 'POS burst' } }, `k-burst-${i}`)));
    const statuses = burst.map((b) => b.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    // The others found it (an update, 200), lost the race to create it (409 deal_exists) or to update it (409 stale_deal) — never a second deal.
    expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
    const rows = await db().selectFrom('deals').select('id').where('store_id', '=', 1).where('external_id', '=', 'POS-BURST').execute();
    expect(rows).toHaveLength(1);
    // 12 parallel ends of one deal (each its own Idempotency-Key): every answer is the ended deal, and it ended once.
    const ends = await Promise.all(Array.from({ length: 12 }, (_, i) => pos('DELETE', '/deals/POS-BURST', undefined, `k-burst-end-${i}`)));
    expect(ends.map((e) => e.status)).toEqual(Array(12).fill(200));
    expect(new Set(ends.map((e) => e.body.result.version)).size).toBe(1);
    const endRows = await db().selectFrom('deal_changes').select('id').where('deal_id', '=', rows[0].id).where('action', '=', 'end').execute();
    expect(endRows).toHaveLength(1);
    // Wrong scope: a key without menu:write is refused.
    const readKey = (await createApiKey(db(), 1, { name: 'Reader', scopes: ['orders:read'], createdBy: 'test' }, REFERENCE_DATE)).key;
    const refused = await call('GET', '/api/integration/v1/deals', undefined, null, { authorization: `Bearer ${readKey}` });
    expect(refused.status).toBe(403);
  });
});
