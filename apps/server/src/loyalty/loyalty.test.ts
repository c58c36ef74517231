/**
 * Loyalty points on both databases, through the real routes (issue 30): credited once when an
 * order is completed (20 parallel completes), reversed once when it is cancelled (20 parallel
 * cancels), never negative under a burst of redemptions, one sign-up bonus under a burst of openings,
 * 2× on the demo store's Tuesdays, the tier
 * and the account view, the hourly job (reminder once, expiry once under two runs at once), and the
 * New York preset: a recreational customer earns nothing.
 */
import { loyaltyOfPreset, nextAllowedTime, pointsForOrder } from '@verdant/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { bearer, loginCustomer } from '../../test-support/cart/testing.ts';
import { JAR, lifecycleHarness, readyIn, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { inWriteTransaction } from '../db/group-commit.ts';
import { adjustPoints, balanceOf, postEntry } from './ledger.ts';
import { openAccountAtSignup } from './orders.ts';
import { LOYALTY_REMINDER_TEMPLATE, runLoyaltyJob } from './expiry.ts';
import { recordConsent } from '../notifications/consent.ts';
import { registry } from '../../test-support/cart/testing.ts';

const PARALLEL = 20;
const DAY = 86_400_000;

describeEachDatabase('loyalty points', (getDb) => {
  let h: LifecycleHarness;
  const ledger = (customerId: number) => h.db.selectFrom('loyalty_ledger').selectAll().where('customer_id', '=', customerId).orderBy('id').execute();
  /** The ledger adds up: each entry's balance after is the one before plus its points, and the last is the account's. */
  const consistent = async (customerId: number) => {
    const rows = await ledger(customerId);
    let running = 0;
    for (const r of rows) {
      running += Number(r.points);
      expect(Number(r.balance_after)).toBe(running);
      expect(running).toBeGreaterThanOrEqual(0);
    }
    expect(await balanceOf(h.db, customerId, 1)).toBe(running);
  };
  const ready = async (orderId: number) => {
    expect((await h.move(orderId, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(200);
    expect((await h.move(orderId, { action: 'mark_ready' })).status).toBe(200);
  };
  const view = async (token: string) => {
    const r = await h.app.inject({ method: 'GET', url: '/api/user/loyalty', headers: { host: 'downtown.localhost', ...bearer(token) } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().result;
  };

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  it(`credits a completed order once (${PARALLEL} completes at once), not when placed; the account shows balance, tier, next tier and history`, async () => {
    await h.at('2026-06-15T19:00:00.000Z'); // a Monday in Los Angeles: 1×
    const c = await loginCustomer(h.app, '9165553401');
    // The demo store's sign-up bonus, once.
    expect((await ledger(c.customerId)).map((r) => [r.kind, r.points])).toEqual([['bonus', 50]]);
    const o = await h.place({ token: c.token, qty: 10 });
    expect(await balanceOf(h.db, c.customerId, 1)).toBe(50);
    await ready(o.id);
    const answers = await Promise.all(Array.from({ length: PARALLEL }, () => h.move(o.id, { action: 'complete', idChecked: true })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(PARALLEL - 1).fill(409)]);
    const paid = o.result.subtotal - o.result.discount;
    const earned = Math.floor(paid / 100);
    const earns = (await ledger(c.customerId)).filter((r) => r.kind === 'earn');
    expect(earns.map((r) => [r.order_id, r.points])).toEqual([[o.id, earned]]);
    await consistent(c.customerId);

    const v = await view(c.token);
    expect(v).toMatchObject({ enabled: true, earns: true, balance: 50 + earned, tier: { name: 'Silver', earn_rate: 1.25 }, next_tier: { name: 'Gold', needed_cents: 75_000 - paid } });
    expect(v.history[0]).toMatchObject({ kind: 'earn', points: earned, order_number: o.increment_id });
    expect(v.expiry.points).toBe(50 + earned);
    expect(v.expiry.expires_at).toBe(new Date(h.clock.now.getTime() + 365 * DAY).toISOString());

    // A Tuesday in the store's zone: the demo's "2× Tuesdays" at the Silver rate.
    await h.at('2026-06-16T19:00:00.000Z');
    const again = await loginCustomer(h.app, '9165553401');
    const t = await h.place({ token: again.token, qty: 1 });
    await ready(t.id);
    expect((await h.move(t.id, { action: 'complete', idChecked: true })).status).toBe(200);
    const tue = (await ledger(c.customerId)).filter((r) => r.kind === 'earn' && r.order_id === t.id);
    expect(tue.map((r) => [r.points, r.note])).toEqual([[Math.floor(((t.result.subtotal - t.result.discount) * 125 * 200) / 1_000_000), 'Silver tier, 2× Tuesdays']]);
    await consistent(c.customerId);
  });

  it(`reverses a cancelled order's redemption once (${PARALLEL} cancels at once)`, async () => {
    const c = await loginCustomer(h.app, '9165553402');
    await adjustPoints(h.db, c.customerId, 1, 500, h.clock.now.toISOString());
    const before = await balanceOf(h.db, c.customerId, 1);
    const o = await h.place({ token: c.token, qty: 4, body: { credits: 300 } });
    expect(await balanceOf(h.db, c.customerId, 1)).toBe(before - 300);
    const answers = await Promise.all(Array.from({ length: PARALLEL }, () => h.move(o.id, { action: 'cancel', reason: 'customer_request' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(PARALLEL - 1).fill(409)]);
    const rows = (await ledger(c.customerId)).filter((r) => r.order_id === o.id);
    expect(rows.map((r) => [r.kind, r.points])).toEqual([['redeem', -300], ['reverse', 300]]);
    expect(await balanceOf(h.db, c.customerId, 1)).toBe(before);
    await consistent(c.customerId);
  });

  it('never goes negative: a burst of orders redeeming and of debits, each taken at most as far as the balance goes', async () => {
    const c = await loginCustomer(h.app, '9165553403');
    await adjustPoints(h.db, c.customerId, 1, 950, h.clock.now.toISOString());
    const start = await balanceOf(h.db, c.customerId, 1); // 1000 with the bonus
    const orders = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.place({ token: c.token, qty: 2, body: { credits: 400 } }).then(
          () => 200,
          (e: Error) => (/\b400\b/.test(e.message) ? 400 : 500),
        ),
      ),
    );
    expect(orders.filter((s) => s === 200)).toHaveLength(Math.floor(start / 400));
    expect(orders.filter((s) => s === 500)).toEqual([]);
    const left = await balanceOf(h.db, c.customerId, 1);
    expect(left).toBe(start - 400 * Math.floor(start / 400));
    // Debits straight on the ledger, all at once: exactly as many as the balance covers.
    const debits = await Promise.all(
      Array.from({ length: PARALLEL }, () => inWriteTransaction(h.db, (trx) => postEntry(trx, { customerId: c.customerId, storeId: 1, orderId: null, kind: 'adjust', points: -50, iso: h.clock.now.toISOString() }))),
    );
    expect(debits.filter(Boolean)).toHaveLength(Math.floor(left / 50));
    expect(await balanceOf(h.db, c.customerId, 1)).toBe(left % 50);
    await consistent(c.customerId);
  });

  it(`gives the sign-up bonus once however many openings race (${PARALLEL} at once)`, async () => {
    const c = await loginCustomer(h.app, '9165553406');
    // As if the account had not been opened yet.
    await h.db.deleteFrom('loyalty_ledger').where('customer_id', '=', c.customerId).execute();
    await h.db.deleteFrom('loyalty_accounts').where('customer_id', '=', c.customerId).execute();
    const customer = { id: c.customerId, store_id: 1, license_type: 'recreational' as const };
    const given = await Promise.all(Array.from({ length: PARALLEL }, () => inWriteTransaction(h.db, (trx) => openAccountAtSignup(trx, customer, h.clock.now))));
    expect(given.filter(Boolean)).toHaveLength(1);
    expect((await ledger(c.customerId)).map((r) => [r.kind, r.points])).toEqual([['bonus', 50]]);
    await consistent(c.customerId);
  });

  it('the hourly job: one reminder before the expiry (marketing: only with consent, outside quiet hours), then one expiry, however many runs at once', async () => {
    const c = await loginCustomer(h.app, '9165553404');
    const silent = await loginCustomer(h.app, '9165553406'); // never agreed to marketing texts
    const store = registry.stores.find((s) => s.storeId === 1)!;
    const now = h.clock.now;
    await recordConsent(h.db, { storeId: 1, customerId: c.customerId, contact: '+19165553404', channel: 'sms', purposes: ['marketing'], action: 'granted', source: 'test', words: 'Text me offers', at: now });
    for (const who of [c, silent]) {
      await adjustPoints(h.db, who.customerId, 1, 150, now.toISOString());
      // 25 days left: inside the 30-day reminder.
      await h.db.updateTable('loyalty_accounts').set({ last_purchase_at: new Date(now.getTime() - 340 * DAY).toISOString() }).where('customer_id', '=', who.customerId).execute();
    }
    const setLast = (iso: string) => h.db.updateTable('loyalty_accounts').set({ last_purchase_at: iso }).where('customer_id', '=', c.customerId).execute();
    await Promise.all([runLoyaltyJob(h.db, [store], now), runLoyaltyJob(h.db, [store], now)]);
    await runLoyaltyJob(h.db, [store], now);
    const messages = await h.db.selectFrom('message_deliveries').selectAll().where('template', '=', LOYALTY_REMINDER_TEMPLATE).where('store_id', '=', 1).execute();
    expect(messages.filter((m) => m.recipient === '+19165553406')).toEqual([]);
    const mine = messages.filter((m) => m.recipient === '+19165553404');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ channel: 'sms', status: 'pending', purpose: 'marketing' });
    expect(mine[0].next_attempt_at).toBe(nextAllowedTime(now, store.dispensarySettings.place_info.timezone).toISOString());
    expect(mine[0].body).toMatch(/your 200 reward points expire on/);
    expect(await balanceOf(h.db, c.customerId, 1)).toBe(200);

    await setLast(new Date(now.getTime() - 366 * DAY).toISOString());
    const runs = await Promise.all(Array.from({ length: 4 }, () => runLoyaltyJob(h.db, [store], now)));
    expect(runs.reduce((s, r) => s + r.expired, 0)).toBeGreaterThanOrEqual(1);
    expect((await ledger(c.customerId)).filter((r) => r.kind === 'expire').map((r) => r.points)).toEqual([-200]);
    expect(await balanceOf(h.db, c.customerId, 1)).toBe(0);
    await consistent(c.customerId);
  });

  it('New York preset: a recreational customer earns nothing and is told so; the setting refuses a typo clearly', async () => {
    const url = '/api/console/stores/1/settings/sections/loyalty';
    const current = (await h.get(url)).body.result;
    const typo = await h.console('PUT', url, { value: { ...current.value, multipliers: [{ label: '2× Tuesdays', multiplier: 2, weekdays: ['tues'] }] }, version: current.version });
    expect(typo.status).toBe(400);
    expect(typo.body).toMatchObject({ errorCode: 'invalid_settings' });
    expect(typo.body.result).toMatch(/weekday is one of/);
    const saved = await h.console('PUT', url, { value: loyaltyOfPreset('NY'), version: current.version });
    expect(saved.status).toBe(200);
    try {
      const c = await loginCustomer(h.app, '9165553405');
      const o = await h.place({ token: c.token, qty: 3 });
      await ready(o.id);
      expect((await h.move(o.id, { action: 'complete', idChecked: true })).status).toBe(200);
      expect((await ledger(c.customerId)).filter((r) => r.kind === 'earn')).toEqual([]);
      expect(await view(c.token)).toMatchObject({ earns: false, eligibility: 'medical', balance: 0 });
      // The same order under a medical licence would have earned.
      expect(pointsForOrder(loyaltyOfPreset('NY'), { lines: [{ product: null, netCents: 8097 }], redeemedCents: 0, placedAt: h.clock.now, timeZone: 'America/Los_Angeles', licence: 'medical' }).points).toBe(80);
    } finally {
      const back = await h.console('PUT', url, { value: current.value, version: saved.body.result.version });
      expect(back.status).toBe(200);
    }
  });
});
