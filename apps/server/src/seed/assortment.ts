/**
 * A store's menu: which master products it carries (a deterministic, store-specific pick that
 * respects the licence types it serves) and how it merchandises them (prices, flags, specials,
 * stock, status). Each product draws from its own stream keyed by store and product, so one
 * product's values never depend on which others the store carries.
 */
import { SIZE_IDS, SIZE_WEIGHTS_GRAMS, sizeLongLabel, storeOffers, type SizeId, type Store } from '@verdant/domain';
import type { ProductLicenseType } from '../db/schema.ts';
import { categoryId } from './categories.ts';
import { KIND_ORDER, type MasterProduct } from './master.ts';
import { addCustomOptions, addSizeOptions } from './options.ts';
import {
  flowerSizePrices,
  qtyDiscounts,
  specialPrice,
  specialWindow,
  storePrice,
  tierPrices,
  type SpecialWindow,
} from './pricing.ts';
import { createRng, type Rng } from './prng.ts';
import type { ProductKind } from './data/merch.ts';
import {
  addAttributes,
  addMedia,
  addPrice,
  addProduct,
  addStock,
  assignCategory,
  imagePath,
  type ProductFields,
  type StoreContext,
} from './product-rows.ts';
import { shiftDays, slugify } from './text.ts';

/** Products every store that can sell them carries (the demo and its tests rely on them). */
export const MUST_CARRY: ReadonlySet<string> = new Set(['flower:blue-dream']);

/** Child sku suffixes: dispensary shorthand for the five flower sizes. */
export const SIZE_CODES: Readonly<Record<SizeId, string>> = { 91: '1G', 92: '8TH', 93: 'QTR', 94: 'HALF', 95: 'OZ' };

/** A store sells a product when it serves at least one licence type the product is labelled for. */
export function storeCarries(store: Pick<Store, 'dispensarySettings'>, licenseType: ProductLicenseType): boolean {
  return licenseType === 'both' || storeOffers(store, licenseType);
}

export function selectAssortment(
  store: Store,
  masters: readonly MasterProduct[],
  quotas: Readonly<Record<ProductKind, number>>,
): MasterProduct[] {
  return KIND_ORDER.flatMap((kind) => {
    const pool = masters.filter((m) => m.kind === kind && storeCarries(store, m.licenseType));
    const must = pool.filter((m) => MUST_CARRY.has(m.key));
    const rest = createRng('store', store.storeId, 'assortment', kind).shuffle(
      pool.filter((m) => !MUST_CARRY.has(m.key)),
    );
    return [...must, ...rest].slice(0, quotas[kind]);
  });
}

/** How a store presents one product. */
interface Merchandising {
  rng: Rng;
  createdAt: string;
  updatedAt: string;
  isNew: boolean;
  staffPick: boolean;
  bestSeller: boolean;
  status: number;
  visibility: number;
  image: string;
  special: SpecialWindow | null;
}

function merchandise(ctx: StoreContext, m: MasterProduct): Merchandising {
  const rng = createRng('store', ctx.storeId, 'product', m.key);
  const pinned = MUST_CARRY.has(m.key);
  const isNew = rng.chance(0.18);
  const ageDays = isNew ? rng.int(0, 29) : rng.int(30, 540);
  const minutes = rng.int(1, 1439);
  const editedAfter = rng.int(0, ageDays);
  const v = rng.next();
  return {
    rng,
    createdAt: shiftDays(ctx.reference, -ageDays, -minutes),
    updatedAt: shiftDays(ctx.reference, editedAfter - ageDays, -minutes),
    isNew,
    staffPick: rng.chance(0.15),
    bestSeller: rng.chance(0.15),
    status: !pinned && rng.chance(0.03) ? 2 : 1,
    visibility: pinned ? 4 : v < 0.03 ? 1 : v < 0.05 ? 3 : v < 0.07 ? 2 : 4,
    image: !pinned && rng.chance(0.03) ? 'no_selection' : imagePath(m.sku),
    special: rng.chance(0.25) ? specialWindow(rng, ctx.reference) : null,
  };
}

function baseFields(m: MasterProduct, mm: Merchandising): ProductFields {
  return {
    sku: m.sku,
    name: m.name,
    slug: m.slug,
    type_id: 'simple',
    status: mm.status,
    visibility: mm.visibility,
    tax_class_id: m.taxClassId,
    license_type: m.licenseType,
    brand_id: m.brandId,
    discount_group_id: m.discountGroupId,
    canna_type: m.cannaType,
    uom: 'ea',
    unit_weight_grams_equivelent: m.unitWeight,
    strain_type: m.strainType,
    thc_percent: m.thcPercent,
    cbd_percent: m.cbdPercent,
    description: m.description,
    short_description: m.shortDescription,
    discovery_tags: m.tags.join(', '),
    image: mm.image,
    staff_pick: mm.staffPick,
    best_seller: mm.bestSeller,
    is_new: mm.isNew,
    created_at: mm.createdAt,
    updated_at: mm.updatedAt,
  };
}

/** A product shoppers can open: the row, its leaf category, its image (and video) and custom attributes. */
function listProduct(ctx: StoreContext, m: MasterProduct, fields: ProductFields): number {
  const id = addProduct(ctx, fields);
  assignCategory(ctx, id, categoryId(m.category));
  addMedia(
    ctx,
    id,
    fields.image,
    m.name,
    MUST_CARRY.has(m.key) ? `https://media.verdant.example/video/${m.slug}.mp4` : undefined,
  );
  addAttributes(ctx, id, m.attributes);
  return id;
}

/** The demo's certificate of analysis (a sample page served with the storefront's static files). */
export const DEMO_COA_URL = '/demo/coa-sample.html';

/**
 * Lab facts of a demo flower (issue 30), as a menu import gives them: tested 7–66 days before the
 * reference date, a batch number, the sample COA. From the sku alone (no draw from the store's
 * random sequence, so the rest of the demo stays as it was).
 */
function demoLabFacts(ctx: StoreContext, m: MasterProduct): Pick<ProductFields, 'lab_tested_at' | 'batch_number' | 'coa_url'> {
  let h = 0;
  for (const ch of m.sku) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const tested = shiftDays(ctx.reference, -(7 + (h % 60)), 0).slice(0, 10);
  return { lab_tested_at: tested, batch_number: `B-${tested.slice(2, 4)}${tested.slice(5, 7)}-${String(10 + (h % 90))}`, coa_url: DEMO_COA_URL };
}

/**
 * Flower: a configurable parent with one child per size 91–95. Stock is kept in grams on the
 * children (each size is its own sealed package; a 3.5 g child with 10 jars holds 35 g); the
 * parent's stock row only summarises them (manage_stock 0).
 */
function addFlower(ctx: StoreContext, m: MasterProduct): void {
  const mm = merchandise(ctx, m);
  const { rng } = mm;
  const pinned = MUST_CARRY.has(m.key);
  const parentId = listProduct(ctx, m, { ...baseFields(m, mm), type_id: 'configurable', uom: 'g', ...demoLabFacts(ctx, m) });
  addSizeOptions(ctx, parentId);
  const prices = flowerSizePrices(storePrice(m.basePriceCents, ctx.storeId, rng));
  const soldOut = !pinned && rng.chance(0.04);
  let grams = 0;
  for (const size of SIZE_IDS) {
    const weight = SIZE_WEIGHTS_GRAMS[size];
    const childId = addProduct(ctx, {
      ...baseFields(m, mm),
      sku: `${m.sku}-${SIZE_CODES[size]}`,
      name: `${m.name} ${sizeLongLabel(size)}`,
      slug: slugify(`${m.slug}-${SIZE_CODES[size]}`),
      parent_id: parentId,
      status: !pinned && rng.chance(0.03) ? 2 : 1,
      visibility: 1,
      size,
      uom: 'g',
      staff_pick: false,
      best_seller: false,
      is_new: false,
    });
    const jars = soldOut || (!pinned && rng.chance(0.12)) ? 0 : rng.int(2, 24);
    grams += jars * weight;
    addStock(ctx, childId, { qty: jars * weight, lowStock: weight * 3 }, mm.updatedAt);
    addPrice(ctx, childId, {
      price: prices[size],
      special: mm.special ? specialPrice(prices[size], rng) : null,
      from: mm.special?.from,
      to: mm.special?.to,
    });
  }
  addStock(ctx, parentId, { qty: grams, inStock: grams > 0, manage: false }, mm.updatedAt);
  if (rng.chance(0.5)) ctx.rows.qty_discounts.push(...qtyDiscounts(parentId, prices));
}

function addSimple(ctx: StoreContext, m: MasterProduct): void {
  const mm = merchandise(ctx, m);
  const { rng } = mm;
  const id = listProduct(ctx, m, baseFields(m, mm));
  const price = storePrice(m.basePriceCents, ctx.storeId, rng);
  addStock(ctx, id, { qty: rng.chance(0.06) ? 0 : rng.int(3, 80), lowStock: 5 }, mm.updatedAt);
  addPrice(ctx, id, {
    price,
    special: mm.special ? specialPrice(price, rng) : null,
    from: mm.special?.from,
    to: mm.special?.to,
  });
  if ((m.kind === 'preroll' || m.kind === 'edible') && rng.chance(0.25))
    ctx.rows.tier_prices.push(...tierPrices(id, price));
  if (m.customOptions) addCustomOptions(ctx, id);
}

export function addAssortment(ctx: StoreContext, products: readonly MasterProduct[]): void {
  for (const m of products) {
    if (m.kind === 'flower') addFlower(ctx, m);
    else addSimple(ctx, m);
  }
}
