/**
 * What pricing and the cart need about a store's products, kept in memory next to the store's
 * search documents (./store-catalog.ts) and refreshed with them: the product rows, every customer
 * group's price and tier rows, weight prices, kit links, bundle options and custom options.
 * Built from the same rows as the documents (./catalog-rows.ts), so a catalogChanged() refreshes
 * both at once.
 *
 * `products(skus, groupId)` answers what ../prices/loader.ts loadProducts() reads from the
 * database, object for object, except stock: stock is the truth for availability, so every unit
 * comes back with `stock: null` and a list of the units whose stock the caller must read from the
 * database (`stockProducts`). It answers null when a sku is not in memory (unknown, or written
 * but not yet announced): the caller then reads everything from the database.
 *
 * Each record depends only on its own product's rows (parents, children and kit members are
 * joined when asked), so upserting the products a change touched keeps every answer current.
 */
import { groupTiers, type QtyDiscount } from '@verdant/domain';
import type { Row } from '../db/schema.ts';
import type { LoadedBundleOption, LoadedCustomOption, LoadedProduct, SellableUnit } from '../prices/loader.ts';
import { loadedProduct } from '../prices/loaded-product.ts';
import { addOnPrice, bundleOptionOf, loadedLinkOf, ownAddOn, qtyDiscountOf } from '../prices/catalog-row-mappers.ts';
import type { CatalogRows } from './catalog-rows.ts';
import { groupBy } from './group-by.ts';
import { SortedLookup } from './sorted-lookup.ts';

/**
 * The columns of a product row that pricing and the cart read (toUnit, products()). Not the whole
 * row (issue 15): better-sqlite3 hands rows over as dictionary-mode objects of ~40 columns, ~1.5 KB
 * each, and the record outlives the build, so a store of 4,800 product rows kept ~7 MiB of row
 * objects alive. A literal of these twelve fields is a small fast-mode object.
 */
export type SellableRow = Pick<
  Row<'products'>,
  | 'id'
  | 'sku'
  | 'name'
  | 'type_id'
  | 'status'
  | 'parent_id'
  | 'size'
  | 'uom'
  | 'unit_weight_grams_equivelent'
  | 'canna_type'
  | 'license_type'
  | 'tax_class_id'
>;
export type SellablePrice = Pick<
  Row<'product_prices'>,
  'customer_group_id' | 'price_cents' | 'special_price_cents' | 'special_from_date' | 'special_to_date'
>;
export type SellableTier = Pick<Row<'tier_prices'>, 'customer_group_id' | 'qty' | 'price_cents'>;

export interface SellableRecord {
  row: SellableRow;
  /** Price rows of every customer group. */
  prices: SellablePrice[];
  /** Tier rows of every customer group. */
  tiers: SellableTier[];
  discounts: QtyDiscount[];
  /** `associated` and `bundle` links, by position then id (few: kits only, kept as read). */
  links: Row<'product_links'>[];
  /** By position then option id. */
  bundleOptions: LoadedBundleOption[];
  /** By position then option id, values by position then id (read-only: shared by every answer). */
  customOptions: LoadedCustomOption[];
}

/**
 * Most records have no prices of another group, tiers, discounts, links or bundle options: one
 * frozen empty list for all (records are read-only; these lists are copied or mapped into every
 * answer, never handed out as they are). customOptions is handed out as is (LoadedProduct), so an
 * empty one is replaced by a list of its own in the answer: an answer that reaches React Router's
 * stream encoding must not contain one object twice where it did not before. Price lists are
 * shared by content (frozen), read only by toUnit.
 */
const NONE: readonly never[] = Object.freeze([]);
function listOf<T>(items: T[]): T[] {
  return items.length === 0 ? (NONE as never[]) : items;
}

const byPositionThen = <T extends { position: number }>(id: (x: T) => number) => (a: T, b: T) => a.position - b.position || id(a) - id(b);

/** Records of every product in `rows`, by store id. */
export function sellableRecords(rows: CatalogRows): Map<number, SellableRecord[]> {
  const prices = groupBy(rows.prices, (r) => r.product_id);
  const tiers = groupBy(rows.tierPrices, (r) => r.product_id);
  const discounts = groupBy(rows.qtyDiscounts, (r) => r.product_id);
  const links = groupBy(
    rows.links.filter((l) => l.link_type === 'associated' || l.link_type === 'bundle'),
    (r) => r.product_id,
  );
  const bundleOptions = groupBy(rows.bundleOptions, (r) => r.product_id);
  const customOptions = groupBy(rows.customOptions, (r) => r.product_id);
  const customValues = groupBy(rows.customValues, (r) => r.option_id);
  // One frozen price list per distinct content: most products of a store repeat a few prices.
  const priceLists = new Map<string, SellablePrice[]>();
  const priceList = (list: SellablePrice[]): SellablePrice[] => {
    if (list.length === 0) return NONE as never[];
    const key = JSON.stringify(list);
    const known = priceLists.get(key);
    if (known) return known;
    const frozen = Object.freeze(list.map((r) => Object.freeze(r))) as SellablePrice[];
    priceLists.set(key, frozen);
    return frozen;
  };
  const out = new Map<number, SellableRecord[]>();
  for (const p of rows.products) {
    const record: SellableRecord = {
      row: {
        id: p.id,
        sku: p.sku,
        name: p.name,
        type_id: p.type_id,
        status: p.status,
        parent_id: p.parent_id,
        size: p.size,
        uom: p.uom,
        unit_weight_grams_equivelent: p.unit_weight_grams_equivelent,
        canna_type: p.canna_type,
        license_type: p.license_type,
        tax_class_id: p.tax_class_id,
      },
      prices: priceList(
        (prices.get(p.id) ?? []).map((r) => ({
          customer_group_id: r.customer_group_id,
          price_cents: r.price_cents,
          special_price_cents: r.special_price_cents,
          special_from_date: r.special_from_date,
          special_to_date: r.special_to_date,
        })),
      ),
      tiers: listOf((tiers.get(p.id) ?? []).map((t) => ({ customer_group_id: t.customer_group_id, qty: t.qty, price_cents: t.price_cents }))),
      discounts: listOf(
        [...(discounts.get(p.id) ?? [])].sort((a, b) => a.qty_to_buy - b.qty_to_buy).map(qtyDiscountOf),
      ),
      links: listOf([...(links.get(p.id) ?? [])].sort(byPositionThen((l) => l.id))),
      bundleOptions: listOf(
        [...(bundleOptions.get(p.id) ?? [])].sort(byPositionThen((o) => o.option_id)).map(bundleOptionOf),
      ),
      customOptions: listOf([...(customOptions.get(p.id) ?? [])].sort(byPositionThen((o) => o.option_id)).map((o) => ({
        option_id: o.option_id,
        title: o.title,
        type: o.type,
        is_require: o.is_require === 1,
        position: o.position,
        values: [...(customValues.get(o.option_id) ?? [])]
          .sort(byPositionThen((v) => v.option_type_id))
          .map((v) => ({ option_type_id: v.option_type_id, title: v.title, price_type: v.price_type, price: addOnPrice(v), position: v.position })),
        own: ownAddOn(o),
      }))),
    };
    const list = out.get(p.store_id);
    if (list) list.push(record);
    else out.set(p.store_id, [record]);
  }
  return out;
}

/** The products an answer needs stock for, and the units to give it to (one object per unit). */
export interface SellableAnswer {
  products: Map<string, LoadedProduct>;
  /** Every unit object of the answer (entries, children, kit members), to receive its stock. */
  units: SellableUnit[];
  /** Whether resolving these lines can depend on stock (a bundle picks in-stock default members). */
  stockMatters: boolean;
}

export class SellableIndex {
  // Sorted lookups, not Maps (./sorted-lookup.ts): a third of the memory; rebuilt after a change that re-keys (apply).
  private byId = new SortedLookup<number, SellableRecord>();
  private bySku = new SortedLookup<string, SellableRecord>();
  private childrenOf = new Map<number, SellableRecord[]>();

  constructor(records: readonly SellableRecord[] = []) {
    this.relink(new Map(records.map((r) => [r.row.id, r])));
  }

  get size(): number {
    return this.byId.size;
  }

  /**
   * Replace some records and drop products that no longer exist. Records that keep their id, sku and
   * parent (a stock or price change: every order's) replace the old ones where they are held;
   * anything else relinks the lookups.
   */
  apply(upserts: readonly SellableRecord[], removedIds: readonly number[]): void {
    if (removedIds.length === 0 && this.replaceInPlace(upserts)) return;
    const byId = new Map(this.byId.valuesInKeyOrder().map((r) => [r.row.id, r]));
    for (const id of removedIds) byId.delete(id);
    for (const r of upserts) byId.set(r.row.id, r);
    this.relink(byId);
  }

  private replaceInPlace(upserts: readonly SellableRecord[]): boolean {
    const olds: SellableRecord[] = [];
    const seen = new Set<number>();
    for (const r of upserts) {
      const old = this.byId.get(r.row.id);
      if (!old || seen.has(r.row.id) || old.row.sku !== r.row.sku || old.row.parent_id !== r.row.parent_id) return false;
      seen.add(r.row.id);
      olds.push(old);
    }
    for (const [i, r] of upserts.entries()) {
      const old = olds[i];
      this.byId.replace(r.row.id, r);
      if (this.bySku.get(r.row.sku) === old) this.bySku.replace(r.row.sku, r);
      if (r.row.parent_id != null) {
        const siblings = this.childrenOf.get(r.row.parent_id);
        const at = siblings ? siblings.indexOf(old) : -1;
        if (siblings && at >= 0) siblings[at] = r;
      }
    }
    return true;
  }

  private relink(records: Map<number, SellableRecord>): void {
    const bySku = new Map<string, SellableRecord>();
    const childrenOf = new Map<number, SellableRecord[]>();
    this.byId = new SortedLookup(records, (r) => r.row.id);
    for (const r of this.byId.valuesInKeyOrder()) {
      bySku.set(r.row.sku, r);
      if (r.row.parent_id != null) {
        const list = childrenOf.get(r.row.parent_id);
        if (list) list.push(r);
        else childrenOf.set(r.row.parent_id, [r]);
      }
    }
    this.bySku = new SortedLookup(bySku, (r) => r.row.sku);
    this.childrenOf = childrenOf;
  }

  private childUnits(parentId: number, groupId: number, units: SellableUnit[]): SellableUnit[] {
    const out: SellableUnit[] = [];
    for (const c of this.childrenOf.get(parentId) ?? []) {
      const u = toUnit(c, groupId);
      units.push(u);
      out.push(u);
    }
    return out;
  }

  /** loadProducts() from memory (stock left null), or null when a sku is not here. */
  products(skus: readonly string[], groupId: number): SellableAnswer | null {
    const products = new Map<string, LoadedProduct>();
    const units: SellableUnit[] = [];
    let stockMatters = false;
    const wanted = [...new Set(skus)];
    const base: SellableRecord[] = [];
    for (const sku of wanted) {
      const r = this.bySku.get(sku);
      if (!r) return null;
      base.push(r);
    }
    base.sort((a, b) => a.row.id - b.row.id);
    // Kit members, one object per sku (shared by the links naming it), as the loader reads them.
    const members = new Map<string, SellableUnit>();
    for (const r of base) {
      if (r.row.type_id !== 'grouped' && r.row.type_id !== 'bundle') continue;
      for (const l of r.links) {
        if (members.has(l.linked_product_sku)) continue;
        const m = this.bySku.get(l.linked_product_sku);
        if (m) {
          const u = toUnit(m, groupId);
          units.push(u);
          members.set(l.linked_product_sku, u);
        }
      }
    }
    const orderedMembers = [...members.values()].sort((a, b) => a.id - b.id);
    for (const r of base) {
      const u = toUnit(r, groupId);
      const type = r.row.type_id;
      const parentRecord = r.row.parent_id != null ? this.byId.get(r.row.parent_id) : undefined;
      if (type === 'bundle') stockMatters = true;
      const product = loadedProduct(u, {
        parent: parentRecord
          ? {
              id: parentRecord.row.id,
              sku: parentRecord.row.sku,
              status: parentRecord.row.status,
              licenseType: parentRecord.row.license_type ?? u.licenseType,
              discounts: parentRecord.discounts.map((d) => ({ ...d })),
            }
          : null,
        children: type === 'configurable' ? this.childUnits(r.row.id, groupId, units) : [],
        discounts: type === 'configurable' ? r.discounts.map((d) => ({ ...d })) : [],
        links:
          type === 'grouped' || type === 'bundle'
            ? r.links.map((l) => loadedLinkOf(l, members.get(l.linked_product_sku) ?? null))
            : [],
        bundleOptions: type === 'bundle' ? r.bundleOptions.map((o) => ({ ...o })) : [],
        // Handed out as is: an empty one is a list of its own per answer, as each record had.
        customOptions: r.customOptions.length === 0 ? [] : r.customOptions,
      });
      // The entry is a copy of the unit, as in the loader: it receives stock too.
      units.push(product);
      products.set(u.sku, product);
    }
    // Members are sellable under their own skus too (see loadProducts).
    for (const m of orderedMembers) {
      if (!products.has(m.sku)) {
        const entry = loadedProduct(m, { parent: null, children: [], discounts: [], links: [], bundleOptions: [], customOptions: [] });
        units.push(entry);
        products.set(m.sku, entry);
      }
    }
    return { products, units, stockMatters };
  }
}

/** A unit as ../prices/unit-rows.ts toUnit() makes it, for a customer group, stock not read. */
function toUnit(r: SellableRecord, groupId: number): SellableUnit {
  const p = r.row;
  // A price row of the shopper's group replaces the general one (group 0) as a whole.
  const row = r.prices.find((x) => x.customer_group_id === groupId) ?? r.prices.find((x) => x.customer_group_id === 0);
  // The group's own tier rows, else the default group's (the domain's groupTiers, as the cart prices).
  const tiers = groupTiers(
    r.tiers.map((t) => ({ customer_group_id: t.customer_group_id, qty: t.qty, price: t.price_cents })),
    groupId,
  );
  return {
    id: p.id,
    sku: p.sku,
    name: p.name,
    type_id: p.type_id,
    status: p.status,
    parentId: p.parent_id,
    size: p.size,
    uom: p.uom,
    unitWeight: p.unit_weight_grams_equivelent,
    cannaType: p.canna_type,
    licenseType: p.license_type,
    taxClassId: p.tax_class_id,
    price: row
      ? { price: row.price_cents, special_price: row.special_price_cents, special_from_date: row.special_from_date, special_to_date: row.special_to_date }
      : null,
    tiers,
    hasTiers: tiers.length > 0,
    hasOptions: r.customOptions.length > 0,
    stock: null,
  };
}
