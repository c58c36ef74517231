/**
 * Issue 11: what the product page shows for a choice is what the cart charges. A property over the
 * whole seeded demo catalogue (every store, every product, every available size, kit member and
 * bundle default): the page's price, computed from the page's own catalogue document
 * (`/api/catalog/product`) with the functions the page uses (chosenUnitPrice for a size,
 * productPrice / bundlePrice / unitPrice for the rest), equals the line price `/api/cart/update`
 * answers for that choice. Before the fix the page showed a size without its weight price
 * (14 g: $175.00 shown, $161.00 charged).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  availableChildren,
  bundleMembers,
  bundlePrice,
  chosenUnitPrice,
  defaultBundleChoice,
  isMemberAvailable,
  productPrice,
  unitPrice,
  type CatalogProduct,
} from '@verdant/domain';
import { buildApp } from '../app.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { bearer, loginCustomer, REFERENCE_DATE, registry, Shopper } from './testing.ts';

interface Case {
  what: string;
  kind: 'weight deal' | 'special' | 'size' | 'simple' | 'bundle' | 'grouped member' | 'tier';
  line: Record<string, unknown>;
  shown: number;
}

/** The choices a shopper can make on a product's page, each with the price the page shows for it. */
function pageCases(p: CatalogProduct, now: Date, group: number): Case[] {
  switch (p.type_id) {
    case 'configurable':
      return availableChildren(p).map((child) => {
        const shown = chosenUnitPrice(child, p, now, group);
        const plain = unitPrice(child, now, group);
        const kind = shown.final_price < plain.final_price ? 'weight deal' : shown.sale ? 'special' : 'size';
        return { what: `${p.sku} size ${child.size}`, kind, line: { sku: p.sku, qty: 1, size: child.size }, shown: shown.final_price };
      });
    case 'grouped':
      return p.product_links
        .filter((l) => l.link_type === 'associated' && l.product && isMemberAvailable(l.product))
        .map((l) => ({ what: `${p.sku} member ${l.product!.sku}`, kind: 'grouped member', line: { sku: l.product!.sku, qty: 1 }, shown: unitPrice(l.product!, now, group).final_price }));
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
      const shown = productPrice(p, now, group);
      const cases: Case[] = [{ what: p.sku, kind: shown.sale ? 'special' : 'simple', line: { sku: p.sku, qty: 1 }, shown: shown.final_price }];
      // "Buy 3, pay less each": the unit price at the tier's quantity, by the same rule.
      const tierQty = Math.min(...(p.tier_prices ?? []).filter((t) => t.customer_group_id === group).map((t) => t.qty));
      if (Number.isFinite(tierQty) && tierQty > 1 && (p.stock.qty ?? 0) >= tierQty) {
        cases.push({ what: `${p.sku} × ${tierQty}`, kind: 'tier', line: { sku: p.sku, qty: tierQty }, shown: chosenUnitPrice(p, null, now, group, tierQty).final_price });
      }
      return cases;
    }
  }
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
  beforeAll(async () => {
    // The commerce suites' app (./testing.ts commerceApp), without the per-IP write limit: this
    // test sends a few thousand cart writes from one address.
    const t = getDb();
    await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), { dataDir: t.dataDir, referenceDate: REFERENCE_DATE });
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

  it('every size, kit member and bundle of every demo store: the page shows what /api/cart/update charges', { timeout: 240_000 }, async () => {
    const stores = await getDb().db.selectFrom('stores').select(['id', 'code']).execute();
    const seen: Record<string, number> = {};

    const mismatches: string[] = [];
    for (const store of stores) {
      const host = `${store.code}.localhost`;
      const rows = await getDb()
        .db.selectFrom('products')
        .select(['sku', 'license_type'])
        .where('store_id', '=', store.id)
        .where('parent_id', 'is', null)
        .where('visibility', '!=', 1)
        .where('status', '=', 1)
        .orderBy('id')
        .execute();
      // Recreational lines in a guest's cart; medical ones in a customer's with a valid medical card.
      const guest = new Shopper(app, host);
      await guest.createCart('recreational').catch(() => null);
      // A patient of this store (accounts are per store) with a valid medical card shops its medical lines.
      const patient = await patientOf(app, host, `91655503${String(store.id).padStart(2, '0')}`);
      await getDb().db.updateTable('customers').set({ medcard_number: 'MC-PAGE-PRICE', medcard_expiry: '2030-12-31' }).where('id', '=', patient.customerId).execute();
      const group = (await getDb().db.selectFrom('customers').select('group_id').where('id', '=', patient.customerId).executeTakeFirstOrThrow()).group_id;
      const medical = new Shopper(app, host);
      const made = await medical.call<string>('POST', '/api/cart/create', { license_type: 'medical' }, bearer(patient.token));
      medical.token = made.status === 200 ? made.result : '';
      for (const row of rows) {
        const doc = await new Shopper(app, host).call<CatalogProduct>('GET', `/api/catalog/product?sku=${encodeURIComponent(row.sku)}`);
        if (doc.status === 404) continue; // not on a page of this store (a hidden category)
        expect(doc.status).toBe(200);
        const shopper = row.license_type === 'medical' || !guest.token ? medical : guest;
        const auth = shopper === medical ? bearer(patient.token) : {};
        for (const c of pageCases(doc.result, REFERENCE_DATE, shopper === medical ? group : 0)) {
          // One line at a time (replace): the purchase limit never gets in the way of a price.
          const r = await shopper.call('POST', `/api/cart/update?cartId=${shopper.token}`, { cartItems: [{ quoteId: shopper.token, ...c.line }] }, auth);
          if (r.status !== 200) {
            mismatches.push(`${store.code} ${c.what}: cart refused (${r.status} ${JSON.stringify(r.result)})`);
            continue;
          }
          const charged = (r.result as { price: number }[])[0]?.price;
          seen[c.kind] = (seen[c.kind] ?? 0) + 1;
          if (charged !== c.shown) mismatches.push(`${store.code} ${c.what} (${c.kind}): page ${c.shown}, cart ${charged}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    // The property covered every kind of price the demo holds, and plenty of each.
    // (demo at the reference date: 375 sizes, 157 weight deals, 149 specials, 313 simple, 18 tiers, 12 members, 4 bundles)
    expect(seen['weight deal']).toBeGreaterThan(100);
    expect(seen['special']).toBeGreaterThan(100);
    expect(seen['size']).toBeGreaterThan(300);
    expect(seen['simple']).toBeGreaterThan(250);
    expect(seen['tier']).toBeGreaterThan(10);
    expect(seen['bundle']).toBeGreaterThan(0);
    expect(seen['grouped member']).toBeGreaterThan(0);
  });
});
