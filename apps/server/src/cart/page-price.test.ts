/**
 * Issue 11: what the product page shows for a choice is what the cart charges. A property over the
 * whole seeded demo catalogue (every store, every product, every available size, kit member,
 * bundle default and "Buy N+" offer): the page's price, computed from the page's own catalogue
 * document (`/api/catalog/product`) with the web's own helpers (apps/web/app/lib/product-page.ts:
 * sizeChoices, chosenPriceView and its tier offers, groupedMembers; bundlePrice / productPrice as
 * ProductView calls them) for the customer group the page gets (pageCustomerGroup: a guest's
 * default group, a logged-in customer's /api/user/me group_id), equals the line price
 * `/api/cart/update` answers for that choice and quantity.
 *
 * Shoppers per store: a guest, a patient (medical lines) and a recreational customer. New accounts
 * are in group 1, which the demo never prices: they must pay the store's default prices and tiers
 * (before the fix a logged-in customer got no "buy 3" tier a guest got). In the first store both
 * customers are in a fixture group with price rows and tier rows of its own (WHOLESALE), which the
 * page must show and the cart charge (before the fix the page showed the default prices).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { bundlePrice, defaultBundleChoice, bundleMembers, productPrice, type CatalogProduct } from '@verdant/domain';
import { chosenPriceView, groupedMembers, pageCustomerGroup, sizeChoices } from '../../../web/app/lib/product-page.ts';
import { buildApp } from '../app.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { bearer, loginCustomer, REFERENCE_DATE, registry, Shopper } from '../../test-support/cart/testing.ts';

/** A customer group with prices of its own (fixture): 80 % of the default price, and "buy 2" tiers. */
const WHOLESALE = 7;

interface Case {
  what: string;
  kind: 'weight deal' | 'special' | 'size' | 'simple' | 'bundle' | 'grouped member' | 'tier';
  line: Record<string, unknown>;
  shown: number;
}

/**
 * The choices a shopper can make on a product's page, each with the price the page shows for it,
 * through the page's own helpers for the group the page prices with.
 */
function pageCases(p: CatalogProduct, now: Date, group: number): Case[] {
  switch (p.type_id) {
    case 'configurable':
      return sizeChoices(p, now, group)
        .filter((c) => c.available && c.child)
        .map((c) => {
          const view = chosenPriceView(c.child!, p, now, group, 1);
          expect(view.final_price).toBe(c.charge);
          const kind = c.discountPrice != null ? 'weight deal' : view.sale ? 'special' : 'size';
          return { what: `${p.sku} size ${c.size}`, kind, line: { sku: p.sku, qty: 1, size: c.size }, shown: c.charge };
        });
    case 'grouped':
      return groupedMembers(p, now, group)
        .filter((m) => m.available)
        .map((m) => ({ what: `${p.sku} member ${m.sku}`, kind: 'grouped member', line: { sku: m.sku, qty: 1 }, shown: m.finalPrice }));
    case 'bundle': {
      const choice = defaultBundleChoice(p.bundle_options);
      const members = bundleMembers(p.bundle_options, choice);
      if (members.length === 0) return [];
      const bundle_options = p.bundle_options.map((o) => ({
        option_id: o.option_id,
        option_qty: 1,
        option_selections: members.filter((m) => m.option.option_id === o.option_id).map((m) => m.link.id!),
      }));
      return [{ what: `${p.sku} default bundle`, kind: 'bundle', line: { sku: p.sku, qty: 1, product_option: { extension_attributes: { bundle_options } } }, shown: bundlePrice(p.bundle_options, choice, now, group).final_price }];
    }
    default: {
      if (!p.stock.is_in_stock) return [];
      const view = chosenPriceView(p, null, now, group, 1);
      expect(view.final_price).toBe(productPrice(p, now, group).final_price);
      const cases: Case[] = [{ what: p.sku, kind: view.sale ? 'special' : 'simple', line: { sku: p.sku, qty: 1 }, shown: view.final_price }];
      // "Buy 3+: $X each": every offer the page shows, at its quantity, and what the page shows
      // once that quantity is chosen.
      for (const offer of view.offers) {
        if ((p.stock.qty ?? 0) < offer.qty) continue;
        expect(chosenPriceView(p, null, now, group, offer.qty).final_price).toBe(offer.each);
        cases.push({ what: `${p.sku} × ${offer.qty}`, kind: 'tier', line: { sku: p.sku, qty: offer.qty }, shown: offer.each });
      }
      return cases;
    }
  }
}

/**
 * The fixture group's own rows in one store: a price row (80 % of the default, no special) for
 * every other unit, and "buy 2" tier rows for every third sellable simple product; the rest of
 * the units keep the store's default prices and tiers for the group.
 */
async function priceWholesaleGroup(db: Kysely<Database>, storeId: number): Promise<void> {
  const rows = await db
    .selectFrom('products as p')
    .innerJoin('product_prices as pp', (j) => j.onRef('pp.product_id', '=', 'p.id').on('pp.customer_group_id', '=', 0))
    .select(['p.id', 'p.type_id', 'p.parent_id', 'pp.price_cents'])
    .where('p.store_id', '=', storeId)
    .orderBy('p.id')
    .execute();
  const prices = rows
    .filter((r) => r.id % 2 === 0)
    .map((r) => ({ product_id: r.id, customer_group_id: WHOLESALE, price_cents: Math.round(r.price_cents * 0.8), special_price_cents: null, special_from_date: null, special_to_date: null }));
  const tiers = rows
    .filter((r) => r.type_id === 'simple' && r.parent_id == null && r.id % 3 === 0)
    .map((r) => ({ product_id: r.id, customer_group_id: WHOLESALE, qty: 2, price_cents: Math.round(r.price_cents * 0.7) }));
  for (let i = 0; i < prices.length; i += 200) await db.insertInto('product_prices').values(prices.slice(i, i + 200)).execute();
  for (let i = 0; i < tiers.length; i += 200) await db.insertInto('tier_prices').values(tiers.slice(i, i + 200)).execute();
}

/** Logs a new phone in at `host`, as a medical customer when the store sells nothing else. */
async function patientOf(app: FastifyInstance, host: string, phone: string): Promise<{ token: string; customerId: number }> {
  try {
    return await loginCustomer(app, phone, host);
  } catch {
    const send = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/user/login', headers: { host }, payload }).then((r) => r.json());
    const sent = await send({ phone });
    let body = await send({ phone, code: sent.meta?.demo_code ?? app.accounts!.sms.lastCode!(phone) });
    if (body.result?.needs) {
      body = await send({ phone, license_type: 'medical', birthday: '1990-01-01', medcard_number: 'MC-PAGE-PRICE', medcard_expiry: '2030-12-31', pendingToken: body.meta.pendingToken });
    }
    if (!body.meta?.token) throw new Error(`medical login failed at ${host}: ${JSON.stringify(body)}`);
    return { token: body.meta.token, customerId: body.meta.customer_id };
  }
}

describeEachDatabase('product page price = cart price, over the demo catalogue', (getDb) => {
  let app: FastifyInstance;
  let wholesaleStore: number;
  beforeAll(async () => {
    // The commerce suites' app (test-support/cart/testing.ts commerceApp), without the per-IP write limit: this
    // test sends a few thousand cart writes from one address.
    const t = getDb();
    await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), { dataDir: t.dataDir, referenceDate: REFERENCE_DATE });
    wholesaleStore = (await t.db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    await priceWholesaleGroup(t.db, wholesaleStore);
    app = await buildApp({
      config: { dataDir: t.dataDir, demoMode: true, production: true, logLevel: 'silent' },
      registry,
      db: t.db,
      logger: false,
      clock: () => REFERENCE_DATE,
      writeLimit: { max: 0, windowSeconds: 60 },
    });
  });
  afterAll(async () => app?.close());

  /** The group the page prices a logged-in customer with: `/api/user/me`'s group_id, as the page reads it. */
  async function pageGroupOf(host: string, token: string): Promise<number> {
    const me = await new Shopper(app, host).call<{ group_id: number }>('GET', '/api/user/me', undefined, bearer(token));
    expect(me.status).toBe(200);
    return pageCustomerGroup(true, me.result);
  }

  it('every size, kit member, bundle and tier offer of every demo store, for a guest and for customers of an unpriced and a priced group: the page shows what /api/cart/update charges', { timeout: 420_000 }, async () => {
    const db = getDb().db;
    const stores = await db.selectFrom('stores').select(['id', 'code']).orderBy('id').execute();
    const seen: Record<string, number> = {};
    const mismatches: string[] = [];
    /** Cases where a customer's page price differs from the guest's page price for the same choice. */
    let groupDiffers = 0;

    for (const store of stores) {
      const host = `${store.code}.localhost`;
      const group = store.id === wholesaleStore ? WHOLESALE : null;
      const rows = await db
        .selectFrom('products')
        .select(['sku', 'license_type'])
        .where('store_id', '=', store.id)
        .where('parent_id', 'is', null)
        .where('visibility', '!=', 1)
        .where('status', '=', 1)
        .orderBy('id')
        .execute();
      // Recreational lines in a guest's cart and in a recreational customer's; medical ones in a
      // patient's with a valid medical card (accounts are per store).
      const guest = new Shopper(app, host);
      await guest.createCart('recreational').catch(() => null);
      const patient = await patientOf(app, host, `91655503${String(store.id).padStart(2, '0')}`);
      await db.updateTable('customers').set({ medcard_number: 'MC-PAGE-PRICE', medcard_expiry: '2030-12-31' }).where('id', '=', patient.customerId).execute();
      const member = guest.token ? await loginCustomer(app, `91655504${String(store.id).padStart(2, '0')}`, host) : null;
      if (group != null) {
        const ids = [patient.customerId, ...(member ? [member.customerId] : [])];
        await db.updateTable('customers').set({ group_id: group }).where('id', 'in', ids).execute();
      }
      const shoppers: { name: string; shopper: Shopper; auth: Record<string, string>; group: number; lines: 'medical' | 'recreational' | 'all' }[] = [];
      const medical = new Shopper(app, host);
      const made = await medical.call<string>('POST', '/api/cart/create', { license_type: 'medical' }, bearer(patient.token));
      medical.token = made.status === 200 ? made.result : '';
      shoppers.push({ name: 'patient', shopper: medical, auth: bearer(patient.token), group: await pageGroupOf(host, patient.token), lines: guest.token ? 'medical' : 'all' });
      if (guest.token) shoppers.push({ name: 'guest', shopper: guest, auth: {}, group: pageCustomerGroup(true, null), lines: 'recreational' });
      if (member) {
        const cart = new Shopper(app, host);
        const created = await cart.call<string>('POST', '/api/cart/create', { license_type: 'recreational' }, bearer(member.token));
        expect(created.status).toBe(200);
        cart.token = created.result;
        shoppers.push({ name: 'customer', shopper: cart, auth: bearer(member.token), group: await pageGroupOf(host, member.token), lines: 'recreational' });
      }
      // The page's group is the account's: 1 for a new account, the fixture group in the first store.
      for (const s of shoppers) if (s.name !== 'guest') expect(s.group).toBe(group ?? 1);

      for (const row of rows) {
        const doc = await new Shopper(app, host).call<CatalogProduct>('GET', `/api/catalog/product?sku=${encodeURIComponent(row.sku)}`);
        if (doc.status === 404) continue; // not on a page of this store (a hidden category)
        expect(doc.status).toBe(200);
        const guestShown = new Map(pageCases(doc.result, REFERENCE_DATE, 0).map((c) => [c.what, c.shown]));
        for (const s of shoppers) {
          if (s.lines !== 'all' && (row.license_type === 'medical') !== (s.lines === 'medical')) continue;
          for (const c of pageCases(doc.result, REFERENCE_DATE, s.group)) {
            // One line at a time (replace): the purchase limit never gets in the way of a price.
            const r = await s.shopper.call('POST', `/api/cart/update?cartId=${s.shopper.token}`, { cartItems: [{ quoteId: s.shopper.token, ...c.line }] }, s.auth);
            if (r.status !== 200) {
              mismatches.push(`${store.code} ${s.name} ${c.what}: cart refused (${r.status} ${JSON.stringify(r.result)})`);
              continue;
            }
            const charged = (r.result as { price: number }[])[0]?.price;
            seen[c.kind] = (seen[c.kind] ?? 0) + 1;
            const key = `${c.kind} (group ${s.group === WHOLESALE ? 'wholesale' : s.group})`;
            seen[key] = (seen[key] ?? 0) + 1;
            if (s.group !== 0 && guestShown.has(c.what) && guestShown.get(c.what) !== c.shown) groupDiffers++;
            if (charged !== c.shown) mismatches.push(`${store.code} ${s.name} (group ${s.group}) ${c.what} (${c.kind}): page ${c.shown}, cart ${charged}`);
          }
        }
      }
    }
    console.info(JSON.stringify(seen), groupDiffers);
    expect(mismatches).toEqual([]);
    // The property covered every kind of price the demo holds, and plenty of each, for every group.
    // (demo at the reference date, guests: 375 sizes, 157 weight deals, 149 specials, 313 simple, 18 tiers, 12 members, 4 bundles)
    expect(seen['weight deal']).toBeGreaterThan(100);
    expect(seen['special']).toBeGreaterThan(100);
    expect(seen['size']).toBeGreaterThan(300);
    expect(seen['simple']).toBeGreaterThan(250);
    expect(seen['tier']).toBeGreaterThan(10);
    expect(seen['bundle']).toBeGreaterThan(0);
    expect(seen['grouped member']).toBeGreaterThan(0);
    // A customer of an unpriced group gets the default tiers ("buy 3") as a guest does.
    expect(seen['tier (group 1)']).toBeGreaterThan(5);
    // The priced group's own prices and tiers were shown and charged.
    expect(seen['tier (group wholesale)']).toBeGreaterThan(5);
    expect(seen['size (group wholesale)'] ?? 0).toBeGreaterThan(10);
    expect(groupDiffers).toBeGreaterThan(50);
  });
});
