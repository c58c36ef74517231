/**
 * Catalogue documents (spec §3) from database rows: CatalogProduct (configurable parents with
 * their options and children, grouped and bundle products with their members embedded, custom
 * options, media, category refs, labels from attribute options, quantity discounts, tier prices,
 * stock), CatalogCategory and CatalogAttribute. Every product row becomes a document, children
 * and kit members too (visibility 1), so a child sku can be looked up and lead to its parent.
 *
 * Reading is ./catalog-rows.ts (one query per table); this file only assembles, in memory.
 */
import type { Kysely } from 'kysely';
import { roundAverage } from '@verdant/domain';
import type {
  BundleOption,
  CatalogAttribute,
  CatalogCategory,
  CatalogProduct,
  ConfigurableChild,
  CustomOption,
  LinkedProduct,
  PriceFields,
  ProductLink,
  StockInfo,
} from '@verdant/domain';
import type { Database, Row } from '../db/schema.ts';
import { toAttribute, toCategories } from './taxonomy-documents.ts';
import { readCatalogRows, type CatalogRows, type RowScope } from './catalog-rows.ts';
import { summaryPriceFields } from './pricing.ts';
import { groupBy } from './group-by.ts';
import { stockInfo } from './stock-patch.ts';
import { addOnPrice, bundleOptionOf, qtyDiscountOf } from '../prices/catalog-row-mappers.ts';

export interface StoreDocuments {
  storeId: number;
  products: CatalogProduct[];
  categories: CatalogCategory[];
}

export interface BuildOptions {
  /** Customer group whose prices the documents carry (the store's not-logged-in group); group 0 otherwise. */
  customerGroupFor(storeId: number): number;
  /** When configurable and kit summary prices are judged. */
  now: Date;
  /**
   * Issue 30: whether the store shows reviews, from its saved `reviews` setting (undefined: none
   * saved). Absent: the saved value, else shown (the setting's default). The index manager asks the
   * settings section (the stores file's value counts too).
   */
  reviewsShown?(storeId: number, saved: Row<'store_settings'> | undefined): boolean;
}

function savedReviewsShown(saved: Row<'store_settings'> | undefined): boolean {
  if (!saved) return true;
  try {
    return (JSON.parse(saved.value) as { enabled?: unknown }).enabled !== false;
  } catch {
    return true;
  }
}

/**
 * One frozen empty array shared by every document's empty lists (issue 15): a product has a dozen
 * lists (discounts, tier prices, media, options, children, links …) and most are empty; an array
 * object each was ~32 bytes × 12 × every document. Frozen, so a caller that tried to add to one
 * would fail loudly instead of changing every document. Documents are read-only everywhere.
 */
const NONE: readonly never[] = Object.freeze([]);
function listOf<T>(items: T[]): T[] {
  return items.length === 0 ? (NONE as never[]) : items;
}

/** Build every store's documents from rows read for `scope`. */
export function buildDocuments(rows: CatalogRows, options: BuildOptions): StoreDocuments[] {
  // Shared values (issue 15): strings already interned by readCatalogRows, and here the small
  // objects that repeat from document to document with the same content (a category ref, an
  // attribute value, a discovery tag). Same JSON, a fraction of the objects.
  const shared = new Map<string, string>();
  const intern = (value: string) => {
    const known = shared.get(value);
    if (known !== undefined) return known;
    shared.set(value, value);
    return value;
  };
  // One frozen list per distinct discovery_tags text (a size repeats its parent's): a list built
  // by split/filter had room for ~17 entries, ~150 bytes a product.
  const tagLists = new Map<string, string[]>();
  const tagList = (raw: string): string[] => {
    let list = tagLists.get(raw);
    if (!list) {
      const tags = raw
        .split(',')
        .map((t) => intern(t.trim()))
        .filter(Boolean);
      tagLists.set(raw, (list = tags.length === 0 ? (NONE as never[]) : (Object.freeze(tags.slice()) as string[])));
    }
    return list;
  };
  // Whole lists shared by content too (frozen): products of the same categories, the same attribute values.
  const categoryIdLists = new Map<string, number[]>();
  const categoryRefLists = new Map<string, CatalogProduct['category']>();
  const attributeLists = new Map<string, CatalogProduct['custom_attributes']>();
  const sharedList = <T>(lists: Map<string, T[]>, key: string, build: () => T[]): T[] => {
    let list = lists.get(key);
    if (!list) {
      const built = build();
      lists.set(key, (list = built.length === 0 ? (NONE as never[]) : (Object.freeze(built) as T[])));
    }
    return list;
  };
  // Configurable options: one frozen list per distinct content (products sold in the same sizes).
  const optionValues = new Map<string, CatalogProduct['configurable_options'][number]['values'][number]>();
  const optionLists = new Map<string, CatalogProduct['configurable_options']>();
  const optionList = (list: CatalogProduct['configurable_options']) =>
    list.length === 0 ? (NONE as never[]) : sharedList(optionLists, JSON.stringify(list), () => list.map((o) => Object.freeze(o)));
  const categoryRefs = new Map<string, CatalogProduct['category'][number]>();
  const attributeValues = new Map<string, CatalogProduct['custom_attributes'][number]>();
  const labels = new Map(rows.attributes.map((a) => [a.attribute_code, toAttribute(a)]));
  const optionLabel = (code: string, value: number | null) =>
    value == null ? null : (labels.get(code)?.options.find((o) => o.value === String(value))?.label ?? null);

  const stock = new Map(rows.stock.map((s) => [s.product_id, s]));
  const pricesByProduct = groupBy(rows.prices, (p) => p.product_id);
  const tiers = groupBy(rows.tierPrices, (t) => t.product_id);
  const discounts = groupBy(rows.qtyDiscounts, (d) => d.product_id);
  const media = groupBy(rows.media, (m) => m.product_id);
  const attrs = groupBy(rows.attributeValues, (a) => a.product_id);
  const confOptions = groupBy(rows.configurableOptions, (o) => o.product_id);
  const confValues = groupBy(rows.configurableValues, (v) => `${v.product_id}:${v.attribute_id}`);
  const bundleOptions = groupBy(rows.bundleOptions, (o) => o.product_id);
  const links = groupBy(rows.links, (l) => l.product_id);
  const customOptions = groupBy(rows.customOptions, (o) => o.product_id);
  const customValues = groupBy(rows.customValues, (v) => v.option_id);
  const assignments = groupBy(rows.productCategories, (a) => a.product_id);
  const categoriesByStore = groupBy(rows.categories, (c) => c.store_id);
  const categoryById = new Map(rows.categories.map((c) => [`${c.store_id}:${c.id}`, c]));
  const children = groupBy(
    rows.products.filter((p) => p.parent_id != null),
    (p) => p.parent_id as number,
  );
  const bySku = new Map(rows.products.map((p) => [`${p.store_id}:${p.sku}`, p]));
  // Issue 30: ratings of the stores that show reviews (frozen objects: documents are read-only).
  const savedReviews = new Map((rows.reviewSettings ?? []).map((r) => [r.store_id, r]));
  const shown = new Map<number, boolean>();
  const reviewsShown = (storeId: number) => {
    let on = shown.get(storeId);
    if (on === undefined) {
      const saved = savedReviews.get(storeId);
      shown.set(storeId, (on = options.reviewsShown ? options.reviewsShown(storeId, saved) : savedReviewsShown(saved)));
    }
    return on;
  };
  const ratings = new Map(
    (rows.reviewStats ?? [])
      .filter((r) => r.review_count > 0 && reviewsShown(r.store_id))
      .map((r) => [`${r.store_id}:${r.product_id}`, Object.freeze({ average: roundAverage(r.star_sum, r.review_count), count: r.review_count })]),
  );

  // One frozen stock object per distinct content (a size's document and its entry in the parent
  // repeat it; most quantities repeat across products): an object and two boxed numbers each before.
  const stockObjects = new Map<string, StockInfo>();
  const stockOf = (id: number): StockInfo => {
    const info = stockInfo(stock.get(id));
    const key = `${info.qty}|${info.is_in_stock}|${info.manage_stock}|${info.low_stock_threshold}`;
    const known = stockObjects.get(key);
    if (known) return known;
    stockObjects.set(key, Object.freeze(info) as StockInfo);
    return info;
  };
  const priceOf = (p: Row<'products'>): PriceFields => {
    const group = options.customerGroupFor(p.store_id);
    const list = pricesByProduct.get(p.id) ?? [];
    const row = list.find((r) => r.customer_group_id === group) ?? list.find((r) => r.customer_group_id === 0);
    // Groups with a price row of their own (the domain's groupPriceRow): a logged-in customer's page
    // prices with its group's row, as the cart does. The document stays the same for every shopper.
    const groupPrices = list
      .filter((r) => r !== row)
      .map((r) => ({
        customer_group_id: r.customer_group_id,
        price: r.price_cents,
        special_price: r.special_price_cents,
        special_from_date: r.special_from_date,
        special_to_date: r.special_to_date,
      }));
    return {
      price: row?.price_cents ?? 0,
      special_price: row?.special_price_cents ?? null,
      special_from_date: row?.special_from_date ?? null,
      special_to_date: row?.special_to_date ?? null,
      tier_prices: listOf((tiers.get(p.id) ?? []).map((t) => ({
        customer_group_id: t.customer_group_id,
        qty: t.qty,
        price: t.price_cents,
      }))),
      ...(groupPrices.length > 0 ? { group_prices: groupPrices } : {}),
    };
  };
  const image = (value: string | null) => (value && value !== 'no_selection' ? value : null);

  const child = (c: Row<'products'>): ConfigurableChild => {
    const prices = priceOf(c);
    // One literal with every field (no spread), so V8 keeps them all inside the object instead of
    // a separate property array (issue 15). Same keys in the same order as the spread gave.
    const entry: ConfigurableChild = {
      id: c.id,
      sku: c.sku,
      name: c.name,
      status: c.status,
      size: c.size,
      image: image(c.image),
      stock: stockOf(c.id),
      price: prices.price,
      special_price: prices.special_price,
      special_from_date: prices.special_from_date,
      special_to_date: prices.special_to_date,
      tier_prices: prices.tier_prices,
    };
    return prices.group_prices ? { ...entry, group_prices: prices.group_prices } : entry;
  };
  const linked = (m: Row<'products'>): LinkedProduct => ({
    id: m.id,
    sku: m.sku,
    name: m.name,
    type_id: m.type_id,
    status: m.status,
    stock: stockOf(m.id),
    size: m.size,
    uom: m.uom === 'g' ? 'g' : 'ea',
    canna_type: m.canna_type,
    unit_weight_grams_equivelent: m.unit_weight_grams_equivelent,
    ...priceOf(m),
  });
  const link = (p: Row<'products'>, l: Row<'product_links'>): ProductLink => {
    const member = bySku.get(`${p.store_id}:${l.linked_product_sku}`);
    return {
      id: l.id,
      link_type: l.link_type,
      linked_product_sku: l.linked_product_sku,
      linked_product_type: l.linked_product_type,
      qty: l.qty,
      position: l.position,
      is_default: l.is_default === 1,
      ...(member ? { product: linked(member) } : {}),
    };
  };
  const custom = (o: Row<'custom_options'>): CustomOption => {
    const values = (customValues.get(o.option_id) ?? []).map((v) => ({
      option_type_id: v.option_type_id,
      title: v.title,
      price_type: v.price_type,
      price: addOnPrice(v),
      position: v.position,
    }));
    // A text option (field, area) is priced on the option itself: carried as its one value, keyed
    // by the option id, so the add-on rule (option_type_id above 0) counts it like any other.
    if (values.length === 0 && o.price_type) {
      values.push({ option_type_id: o.option_id, title: o.title, price_type: o.price_type, price: addOnPrice(o), position: 0 });
    }
    return {
      option_id: o.option_id,
      title: o.title,
      type: o.type,
      is_require: o.is_require === 1,
      position: o.position,
      values,
    };
  };

  const toProduct = (p: Row<'products'>): CatalogProduct => {
    const refs = (assignments.get(p.id) ?? [])
      .map((a) => categoryById.get(`${a.store_id}:${a.category_id}`))
      .filter((c): c is Row<'categories'> => c !== undefined);
    const ownLinks = links.get(p.id) ?? [];
    const bundle: BundleOption[] = (bundleOptions.get(p.id) ?? []).map((o) => ({
      ...bundleOptionOf(o),
      product_links: ownLinks.filter((l) => l.bundle_option_id === o.option_id).map((l) => link(p, l)),
    }));
    const prices = priceOf(p);
    const refKey = refs.map((c) => c.id).join(',');
    // One literal with every field (no spread: V8 keeps them inside the object, no property array).
    let doc: CatalogProduct = {
      id: p.id,
      sku: p.sku,
      type_id: p.type_id,
      name: p.name,
      slug: p.slug,
      url_key: p.url_key,
      url_path: p.url_path,
      status: p.status,
      visibility: p.visibility,
      tax_class_id: p.tax_class_id,
      dispensaryID: p.store_id,
      license_type: p.license_type,
      category_ids: sharedList(categoryIdLists, `${p.store_id}:${refKey}`, () => refs.map((c) => c.id)),
      category: sharedList(categoryRefLists, `${p.store_id}:${refKey}`, () =>
        refs.map((c) => {
          const key = `${c.store_id}:${c.id}`;
          let ref = categoryRefs.get(key);
          if (!ref) categoryRefs.set(key, (ref = { category_id: c.id, name: c.name, slug: c.slug, url_path: c.url_path }));
          return ref;
        }),
      ),
      image: image(p.image),
      media_gallery: listOf(
        (media.get(p.id) ?? []).map((m) => ({
          image: m.image,
          label: m.label,
          position: m.position,
          video: m.video,
        })),
      ),
      size: p.size,
      uom: p.uom === 'g' ? 'g' : 'ea',
      brand: optionLabel('brand_id', p.brand_id),
      brand_id: p.brand_id,
      discount_group: optionLabel('discount_group_id', p.discount_group_id),
      discount_group_id: p.discount_group_id,
      canna_type: p.canna_type,
      strain_type: p.strain_type,
      thc_percent: p.thc_percent,
      cbd_percent: p.cbd_percent,
      description: p.description,
      short_description: p.short_description,
      discovery_tags: tagList(p.discovery_tags),
      unit_weight_grams_equivelent: p.unit_weight_grams_equivelent,
      staff_pick: p.staff_pick === 1,
      best_seller: p.best_seller === 1,
      new: p.is_new === 1,
      created_at: p.created_at,
      updated_at: p.updated_at,
      stock: stockOf(p.id),
      discounts: listOf((discounts.get(p.id) ?? []).map(qtyDiscountOf)),
      price: prices.price,
      special_price: prices.special_price,
      special_from_date: prices.special_from_date,
      special_to_date: prices.special_to_date,
      tier_prices: prices.tier_prices,
      configurable_options: optionList(
        (confOptions.get(p.id) ?? []).map((o) => ({
          attribute_id: o.attribute_id,
          attribute_code: o.attribute_code,
          label: o.label,
          position: o.position,
          values: (confValues.get(`${p.id}:${o.attribute_id}`) ?? []).map((v) => {
            const key = `${v.value_index}\u0000${v.label}`;
            let value = optionValues.get(key);
            if (!value) optionValues.set(key, (value = Object.freeze({ value_index: v.value_index, label: v.label })));
            return value;
          }),
        })),
      ),
      configurable_children: listOf((children.get(p.id) ?? []).map(child)),
      product_links: listOf(ownLinks.map((l) => link(p, l))),
      bundle_options: listOf(bundle),
      custom_options: listOf((customOptions.get(p.id) ?? []).map(custom)),
      custom_attributes: sharedList(
        attributeLists,
        (attrs.get(p.id) ?? []).map((a) => `${a.attribute_code}\u0000${a.value}`).join('\u0001'),
        () =>
          (attrs.get(p.id) ?? []).map((a) => {
            const key = `${a.attribute_code}\u0000${a.value}`;
            let shared = attributeValues.get(key);
            if (!shared) attributeValues.set(key, (shared = { attribute_code: a.attribute_code, value: a.value }));
            return shared;
          }),
      ),
    };
    if (prices.group_prices) {
      // Where the spread of priceOf() put it: right after tier_prices (a few products have them).
      const ordered: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(doc)) {
        ordered[key] = value;
        if (key === 'tier_prices') ordered.group_prices = prices.group_prices;
      }
      doc = ordered as unknown as CatalogProduct;
    }
    // Parents and kits have no price rows of their own: give them the price a listing shows.
    if (doc.type_id === 'configurable' || doc.type_id === 'grouped' || doc.type_id === 'bundle') {
      Object.assign(doc, summaryPriceFields(doc, options.now));
    }
    // Potency and lab facts of a menu file live on the sizes: a product with sizes shows those its
    // listed sizes agree on (sizes of one batch), so the card and page show an imported flower's THC.
    const sizes = p.type_id === 'configurable' ? (children.get(p.id) ?? []).filter((c) => c.status <= 2) : [];
    if (sizes.length > 0) {
      if (doc.thc_percent == null) doc.thc_percent = agreed(sizes.map((c) => c.thc_percent));
      if (doc.cbd_percent == null) doc.cbd_percent = agreed(sizes.map((c) => c.cbd_percent));
    }
    const lab = {
      lab_tested_at: p.lab_tested_at ?? agreed(sizes.map((c) => c.lab_tested_at)),
      batch_number: p.batch_number ?? agreed(sizes.map((c) => c.batch_number)),
      coa_url: p.coa_url ?? agreed(sizes.map((c) => c.coa_url)),
    };
    for (const [key, value] of Object.entries(lab)) if (value != null) (doc as unknown as Record<string, unknown>)[key] = value;
    const rating = ratings.get(`${p.store_id}:${p.id}`);
    if (rating) doc.rating = rating;
    return doc;
  };

  const productsByStore = groupBy(rows.products, (p) => p.store_id);
  const storeIds = [...new Set([...categoriesByStore.keys(), ...productsByStore.keys()])].sort((a, b) => a - b);
  return storeIds.map((storeId) => ({
    storeId,
    products: (productsByStore.get(storeId) ?? []).map(toProduct),
    categories: toCategories(categoriesByStore.get(storeId) ?? []),
  }));
}

/** Read and build the documents of a scope (start-up, a store rebuild, or changed products). */
export async function loadDocuments(
  db: Kysely<Database>,
  scope: RowScope,
  options: BuildOptions,
): Promise<{ stores: StoreDocuments[]; attributes: CatalogAttribute[]; rows: CatalogRows }> {
  const rows = await readCatalogRows(db, scope);
  const stores = buildDocuments(rows, options);
  // A scope of stores answers for each of them, even one without rows (an empty catalogue).
  const wanted = 'storeIds' in scope ? scope.storeIds : [scope.storeId];
  const complete = wanted.map(
    (id) => stores.find((s) => s.storeId === id) ?? { storeId: id, products: [], categories: [] },
  );
  return { stores: complete, attributes: rows.attributes.map(toAttribute), rows };
}

/** The one value the given ones agree on (missing ones ignored); null when they differ or none has one. */
function agreed<T>(values: readonly (T | null | undefined)[]): T | null {
  let found: T | null = null;
  for (const v of values) {
    if (v == null) continue;
    if (found !== null && v !== found) return null;
    found = v;
  }
  return found;
}
