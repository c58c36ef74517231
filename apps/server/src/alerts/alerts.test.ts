/**
 * Back-in-stock alerts on both databases (issue 30): a watch on a sold-out size, a restock through
 * the console's edit path (the menu history hook) → one message with the product link, told once
 * (a second restock and a parallel burst of restocks with two planners add nothing); no consent →
 * refused, consent withdrawn before the restock → no message; quiet hours in the store's zone defer
 * the row to 08:00; the signed unsubscribe link withdraws consent and holds a pending alert back.
 */
import { beforeAll, expect, it } from 'vitest';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { REFERENCE_DATE } from '../../test-support/cart/testing.ts';
import { editVariants } from '../menu-admin/edit.ts';
import { applyStock } from '../integration/stock.ts';
import { readUnsubscribeToken, unsubscribeToken } from './link.ts';
import { BACK_IN_STOCK, createAlertPlanner } from './planner.ts';
import { ask, unsubscribe, unsubscribeView } from './service.ts';
import { WatchRefused, watch } from './watches.ts';
import type { Store } from '@verdant/domain';

const SECRET = 'test-secret-for-alerts';
const stores = readStoresFile(DEMO_STORES_FILE).stores as unknown as Store[];
const store = stores[0]!;
// 2026-11-20 is PST: 20:00Z is 12:00 in Los Angeles, 07:00Z the next day is 23:00.
const NOON = new Date('2026-11-20T20:00:00Z');
const LATE = new Date('2026-11-21T07:00:00Z');

describeEachDatabase('back-in-stock alerts', (getDb) => {
  let productId: number;
  let variants: number[];
  let sku: string;

  beforeAll(async () => {
    const { db, dataDir } = getDb();
    await seedDemo(db, readStoresFile(DEMO_STORES_FILE), { dataDir, referenceDate: REFERENCE_DATE });
    const p = await db.selectFrom('products').select(['id', 'sku']).where('store_id', '=', store.storeId).where('sku', '=', 'FL-BLUE-DREAM').executeTakeFirstOrThrow();
    productId = p.id;
    sku = p.sku;
    variants = (await db.selectFrom('products').select('id').where('parent_id', '=', p.id).orderBy('id').execute()).map((v) => v.id);
    expect(variants.length).toBeGreaterThan(1);
  });

  const setStock = (ids: number[], stock: string, at = NOON) =>
    editVariants(getDb().db, {
      storeId: store.storeId,
      edits: ids.map((id) => ({ productId: id, cells: { stock } })),
      actor: { type: 'staff', id: null, name: 'Test Budtender' },
      at,
    });
  const deps = (now = NOON) => ({ db: getDb().db, secret: SECRET, now: () => now });
  const planner = (now = NOON) => createAlertPlanner({ db: getDb().db, stores, secret: SECRET, now: () => now });
  const alertsTo = (recipient: string) =>
    getDb().db.selectFrom('message_deliveries').selectAll().where('template', '=', BACK_IN_STOCK).where('recipient', '=', recipient).execute();

  it('refuses an in-stock size and a watch without consent', async () => {
    await setStock(variants, '5');
    await expect(ask(deps(), store, null, { productId, variantId: variants[0], contact: 'a@alerts.test', consent: true })).rejects.toMatchObject({ statusCode: 409 });
    await setStock(variants, '0');
    await expect(watch(getDb().db, { storeId: store.storeId, storeName: store.name, productId, guest: { channel: 'email', contact: 'b@alerts.test' }, consent: false, at: NOON })).rejects.toBeInstanceOf(
      WatchRefused,
    );
    const rows = await getDb().db.selectFrom('consent_events').selectAll().where('contact', '=', 'b@alerts.test').execute();
    expect(rows).toEqual([]);
  });

  it('a guest with consent is told once, with the link to the size, when the size comes back', async () => {
    await setStock(variants, '0');
    await ask(deps(), store, null, { productId, variantId: variants[0], channel: 'email', contact: 'Guest@Alerts.test', consent: 'on' });
    const ledger = await getDb().db.selectFrom('consent_events').selectAll().where('contact', '=', 'guest@alerts.test').execute();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ channel: 'email', purpose: 'marketing', action: 'granted', source: 'stock_alert_form' });
    expect(ledger[0]!.words).toContain('back in stock');

    // Another size coming back does not tell the watcher of this one.
    await setStock([variants[1]!], '3');
    await planner().drain();
    expect(await alertsTo('guest@alerts.test')).toHaveLength(0);

    await setStock([variants[0]!], '4');
    expect(await planner().drain()).toBeGreaterThanOrEqual(1);
    const [row, ...more] = await alertsTo('guest@alerts.test');
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({ channel: 'email', purpose: 'marketing', status: 'pending', next_attempt_at: NOON.toISOString() });
    const childSku = (await getDb().db.selectFrom('products').select('sku').where('id', '=', variants[0]!).executeTakeFirstOrThrow()).sku;
    expect(row!.body).toContain(`/p/${sku}/`);
    expect(row!.body).toContain(childSku);
    expect(row!.body).toMatch(/\/unsubscribe\/\d+\.[A-Za-z0-9_-]{43}/);

    // Sold out and back again: still one message (once per watch).
    await setStock([variants[0]!], '0');
    await setStock([variants[0]!], '6');
    await planner().drain();
    expect(await alertsTo('guest@alerts.test')).toHaveLength(1);
  });

  it('a parallel burst of restocks with two planners at once: one message per watcher', async () => {
    await setStock(variants, '0');
    const emails = Array.from({ length: 12 }, (_, i) => `burst${i}@alerts.test`);
    for (const e of emails) await ask(deps(), store, null, { productId, contact: e, consent: true });
    const results = await Promise.allSettled(variants.flatMap((v) => [setStock([v], '2'), setStock([v], '3')]));
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    const a = planner();
    const b = planner();
    await Promise.all([a.drain(), b.drain(), a.drain(), b.drain()]);
    for (const e of emails) expect(await alertsTo(e)).toHaveLength(1);
  });

  it('no message when consent was withdrawn before the restock; quiet hours defer to 08:00', async () => {
    await setStock(variants, '0');
    await ask(deps(), store, null, { productId, contact: 'quits@alerts.test', consent: true });
    await ask(deps(), store, null, { productId, contact: 'night@alerts.test', consent: true });
    const w = await getDb().db.selectFrom('stock_watches').select('id').where('subscriber_key', '=', 'email:quits@alerts.test').executeTakeFirstOrThrow();
    const token = unsubscribeToken(SECRET, store.storeId, w.id);
    expect(readUnsubscribeToken(SECRET, store.storeId, token)).toBe(w.id);
    expect(readUnsubscribeToken(SECRET, store.storeId + 1, token)).toBeNull();
    expect(await unsubscribeView(deps(), store, token)).toMatchObject({ unsubscribed: false, channel: 'email' });
    await unsubscribe(deps(), store, token);
    await unsubscribe(deps(), store, token); // a second tap changes nothing
    expect(await unsubscribeView(deps(), store, token)).toMatchObject({ unsubscribed: true });

    await setStock([variants[0]!], '5', LATE);
    await planner(LATE).drain();
    expect(await alertsTo('quits@alerts.test')).toHaveLength(0);
    const [night] = await alertsTo('night@alerts.test');
    // 23:00 in Los Angeles: held until 08:00 local (16:00Z).
    expect(night!.next_attempt_at).toBe('2026-11-21T16:00:00.000Z');
  });

  it('a restock through the integration API tells the watcher too (the same menu-history hook)', async () => {
    await setStock(variants, '0');
    await ask(deps(), store, null, { productId, variantId: variants[2] ?? variants[0], contact: 'pos@alerts.test', consent: true });
    const v = await getDb().db.selectFrom('products').select('sku').where('id', '=', variants[2] ?? variants[0]!).executeTakeFirstOrThrow();
    const { report } = await applyStock(getDb().db, {
      storeId: store.storeId,
      items: [{ sku: v.sku, stock: 4, sequence: Date.now() }],
      actor: { type: 'api_key', id: null, name: 'POS' },
      now: NOON,
    });
    expect(report.applied).toHaveLength(1);
    await planner().drain();
    expect(await alertsTo('pos@alerts.test')).toHaveLength(1);
  });

  it('the unsubscribe link holds back an alert waiting for the morning', async () => {
    await setStock(variants, '0');
    await ask(deps(), store, null, { productId, contact: 'morning@alerts.test', consent: true });
    await setStock([variants[1]!], '5', LATE);
    await planner(LATE).drain();
    const [row] = await alertsTo('morning@alerts.test');
    expect(row!.status).toBe('pending');
    const w = await getDb().db.selectFrom('stock_watches').select('id').where('subscriber_key', '=', 'email:morning@alerts.test').executeTakeFirstOrThrow();
    await unsubscribe(deps(LATE), store, unsubscribeToken(SECRET, store.storeId, w.id));
    const [after] = await alertsTo('morning@alerts.test');
    expect(after).toMatchObject({ status: 'failed', last_error: 'Not sent: consent withdrawn' });
  });
});
