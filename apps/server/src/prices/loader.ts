/**
 * Reads what pricing, stock checks and the cart need about a set of skus of one store, straight
 * from the database (never from the search index): the products, their configurable children or
 * parent, grouped/bundle members, custom options, price rows, tier prices, weight prices and
 * stock. A fixed number of queries whatever the number of skus (no query per product), and it
 * runs inside a transaction when given one, so an order is priced from what it decrements.
 */
import { sql, type Kysely } from 'kysely';
import { DEFAULT_CUSTOMER_GROUP_ID, type CustomOption, type QtyDiscount } from '@verdant/domain';
import type { Database, Row } from '../db/schema.ts';
import { inList, toUnit, unitRows, type SellableUnit, type UnitRow } from './unit-rows.ts';
import { loadedProduct, type LoadedCustomOption, type LoadedProduct } from './loaded-product.ts';
import { addOnPrice, bundleOptionOf, loadedLinkOf, ownAddOn, qtyDiscountOf } from './catalog-row-mappers.ts';

export type { SellableUnit } from './unit-rows.ts';
export type { LoadedBundleOption, LoadedCustomOption, LoadedLink, LoadedParent, LoadedProduct } from './loaded-product.ts';

type Db = Kysely<Database>;

const none = <T>(): Promise<T[]> => Promise.resolve([]);

/** Everything about `skus` in `storeId` (and kit members), keyed by sku; unknown skus are simply absent. */
export async function loadProducts(
  db: Db,
  storeId: number,
  skus: readonly string[],
  groupId = 0,
): Promise<Map<string, LoadedProduct>> {
  const wanted = [...new Set(skus)];
  const out = new Map<string, LoadedProduct>();
  if (wanted.length === 0) return out;
  const baseRows = await unitRows(db, groupId, sql`p.store_id = ${storeId} and p.sku in (${inList(wanted)})`);
  if (baseRows.length === 0) return out;
  const base = baseRows.map(toUnit);

  const configurableIds = base.filter((u) => u.type_id === 'configurable').map((u) => u.id);
  const parentIds = [...new Set(base.map((u) => u.parentId).filter((id): id is number => id != null))];
  const kitIds = base.filter((u) => u.type_id === 'grouped' || u.type_id === 'bundle').map((u) => u.id);
  const bundleIds = base.filter((u) => u.type_id === 'bundle').map((u) => u.id);
  const optionIds = base.filter((u) => u.hasOptions).map((u) => u.id);

  // Second round, only for what the first round says exists (a simple product needs none).
  const [children, links, bundleOptions, customRows] = await Promise.all([
    configurableIds.length ? unitRows(db, groupId, sql`p.parent_id in (${inList(configurableIds)})`) : none<UnitRow>(),
    kitIds.length
      ? db.selectFrom('product_links').selectAll().where('product_id', 'in', kitIds).where('link_type', 'in', ['associated', 'bundle']).orderBy('position').orderBy('id').execute()
      : none<Row<'product_links'>>(),
    bundleIds.length
      ? db.selectFrom('bundle_options').selectAll().where('product_id', 'in', bundleIds).orderBy('position').orderBy('option_id').execute()
      : none<Row<'bundle_options'>>(),
    optionIds.length ? customOptionRows(db, optionIds) : none<CustomRow>(),
  ]);

  const memberSkus = [...new Set(links.map((l) => l.linked_product_sku))];
  const members = memberSkus.length
    ? (await unitRows(db, groupId, sql`p.store_id = ${storeId} and p.sku in (${inList(memberSkus)})`)).map(toUnit)
    : [];
  const childUnits = children.map(toUnit);

  const allUnits = [...base, ...childUnits, ...members];
  const tierIds = [...new Set(allUnits.filter((u) => u.hasTiers).map((u) => u.id))];
  const discountOwners = [...new Set([...configurableIds, ...parentIds])];
  const [tiers, discounts] = await Promise.all([
    tierIds.length
      ? db.selectFrom('tier_prices').selectAll().where('product_id', 'in', tierIds).where('customer_group_id', 'in', [...new Set([groupId, DEFAULT_CUSTOMER_GROUP_ID])]).execute()
      : none<Row<'tier_prices'>>(),
    discountOwners.length
      ? db.selectFrom('qty_discounts').selectAll().where('product_id', 'in', discountOwners).orderBy('qty_to_buy').execute()
      : none<Row<'qty_discounts'>>(),
  ]);

  // The group's tier rows and the default group's: the domain's groupTiers picks (its own, else the default).
  for (const t of tiers) {
    for (const u of allUnits) if (u.id === t.product_id) u.tiers.push({ customer_group_id: t.customer_group_id, qty: t.qty, price: t.price_cents });
  }
  const discountsOf = (id: number): QtyDiscount[] =>
    discounts.filter((d) => d.product_id === id).map(qtyDiscountOf);
  const memberBySku = new Map(members.map((m) => [m.sku, m]));
  const customByProduct = groupCustomOptions(customRows);

  base.forEach((u, i) => {
    const r = baseRows[i];
    out.set(u.sku, loadedProduct(u, {
      parent:
        u.parentId != null && r.parent_sku != null
          ? { id: u.parentId, sku: r.parent_sku, status: r.parent_status ?? 2, licenseType: r.parent_license_type ?? u.licenseType, discounts: discountsOf(u.parentId) }
          : null,
      children: childUnits.filter((c) => c.parentId === u.id),
      discounts: u.type_id === 'configurable' ? discountsOf(u.id) : [],
      links: links
        .filter((l) => l.product_id === u.id)
        .map((l) => loadedLinkOf(l, memberBySku.get(l.linked_product_sku) ?? null)),
      bundleOptions: bundleOptions
        .filter((o) => o.product_id === u.id)
        .map(bundleOptionOf),
      customOptions: customByProduct.get(u.id) ?? [],
    }));
  });
  // Members are sellable under their own skus too (a grouped product becomes member lines, which
  // are re-priced when they grow), so they are in the map as plain products.
  for (const m of members) {
    if (!out.has(m.sku)) out.set(m.sku, loadedProduct(m, { parent: null, children: [], discounts: [], links: [], bundleOptions: [], customOptions: [] }));
  }
  return out;
}

// loadedProduct lives apart (no query builder in its imports): the browser's offline catalogue
// imports the in-memory catalogue, which uses it.
export { loadedProduct } from './loaded-product.ts';

async function customOptionRows(db: Db, productIds: readonly number[]): Promise<CustomRow[]> {
  const { rows } = await sql<CustomRow>`
    select o.option_id, o.product_id, o.title, o.type, o.is_require, o.position, o.price_type, o.price_cents, o.price_percent,
      v.option_type_id, v.title as v_title, v.price_type as v_price_type, v.price_cents as v_price_cents,
      v.price_percent as v_price_percent, v.position as v_position
    from custom_options o
    left join custom_option_values v on v.option_id = o.option_id
    where o.product_id in (${inList(productIds)})
    order by o.position, o.option_id, v.position, v.option_type_id`.execute(db);
  return rows;
}

type CustomRow = {
  option_id: number; product_id: number; title: string; type: CustomOption['type']; is_require: number; position: number;
  price_type: 'fixed' | 'percent' | null; price_cents: number | null; price_percent: number | null;
  option_type_id: number | null; v_title: string | null; v_price_type: 'fixed' | 'percent' | null;
  v_price_cents: number | null; v_price_percent: number | null; v_position: number | null;
};

function groupCustomOptions(rows: readonly CustomRow[]): Map<number, LoadedCustomOption[]> {
  const byOption = new Map<number, LoadedCustomOption & { product_id: number }>();
  for (const r of rows) {
    let o = byOption.get(r.option_id);
    if (!o) {
      o = {
        product_id: r.product_id,
        option_id: r.option_id,
        title: r.title,
        type: r.type,
        is_require: r.is_require === 1,
        position: r.position,
        values: [],
        own: ownAddOn(r),
      } as LoadedCustomOption & { product_id: number };
      byOption.set(r.option_id, o);
    }
    if (r.option_type_id != null) {
      o.values.push({
        option_type_id: r.option_type_id,
        title: r.v_title ?? '',
        price_type: r.v_price_type ?? 'fixed',
        price: addOnPrice({ price_type: r.v_price_type, price_cents: r.v_price_cents, price_percent: r.v_price_percent }),
        position: r.v_position ?? 0,
      });
    }
  }
  const out = new Map<number, LoadedCustomOption[]>();
  for (const { product_id, ...o } of byOption.values()) out.set(product_id, [...(out.get(product_id) ?? []), o]);
  return out;
}
