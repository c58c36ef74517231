/**
 * generateCatalog: the whole demo catalogue as rows, a pure function of the stores file and its
 * options. No clock and no Math.random: every date is relative to `referenceDate` and every choice
 * comes from a PRNG seeded by store and purpose, so the same input always yields the same rows.
 */
import type { Store, StoresFile } from '@verdant/domain';
import type { NewRow, Row } from '../db/schema.ts';
import { attributeRows } from './attributes.ts';
import { addAssortment, selectAssortment } from './assortment.ts';
import { CATEGORY_TREE, categoryRows, type CategoryKey } from './categories.ts';
import { cmsRows, urlRewriteRows } from './content.ts';
import { BRANDS, CANNA_TYPE, type ProductKind } from './data/merch.ts';
import { addKits } from './kits.ts';
import { buildMasterCatalog, kindQuotas, type MasterProduct } from './master.ts';
import type { StoreContext } from './product-rows.ts';
import { IdAllocator, emptyStoreRows, type StoreRows } from './rows.ts';
import { productSvg, type ImageKind, type ImageSpec } from './svg.ts';
import { couponRows, taxRows } from './tax.ts';
import { shiftDays } from './text.ts';

export const DEFAULT_PRODUCTS_PER_STORE = 150;
/** One product per kind plus the grouped and the bundle product. */
export const MIN_PRODUCTS_PER_STORE = 10;
const KITS_PER_STORE = 2;

export interface GenerateCatalogOptions {
  /** Listed products per store (configurable children and kit members not counted). */
  productsPerStore?: number;
  /** "Now" for the demo: creation dates, "new" items and special-price windows are relative to it. */
  referenceDate: Date;
}

export interface StoreCatalog {
  storeId: number;
  storeCode: string;
  rows: StoreRows;
}

export interface DemoImage {
  /** Relative to the media root: `catalog/product/<sku>.svg` (served at `/media/...`). */
  path: string;
  svg: string;
}

export interface DemoCatalog {
  productsPerStore: number;
  referenceDate: string;
  /** Global rows. */
  attributes: Row<'attributes'>[];
  coupons: NewRow<'coupons'>[];
  stores: StoreCatalog[];
  images: DemoImage[];
}

export function generateCatalog(storesFile: StoresFile, options: GenerateCatalogOptions): DemoCatalog {
  const perStore = options.productsPerStore ?? DEFAULT_PRODUCTS_PER_STORE;
  if (!Number.isInteger(perStore) || perStore < MIN_PRODUCTS_PER_STORE) {
    throw new RangeError(`productsPerStore must be an integer of at least ${MIN_PRODUCTS_PER_STORE}, got ${perStore}`);
  }
  const reference = options.referenceDate;
  if (!(reference instanceof Date) || Number.isNaN(reference.getTime())) throw new RangeError('referenceDate must be a valid Date');

  const masters = prepareMasters(perStore);
  const stores = [...storesFile.stores]
    .sort((a, b) => a.storeId - b.storeId)
    .map((store) => generateStoreCatalog(store, masters, reference));

  return {
    productsPerStore: perStore,
    referenceDate: reference.toISOString(),
    attributes: attributeRows(),
    coupons: couponRows(reference.toISOString()),
    stores,
    images: productImages(stores, masters.masters),
  };
}

/** The master products and per-kind quotas every store of one product count draws from. */
export interface PreparedMasters {
  masters: MasterProduct[];
  quotas: Readonly<Record<ProductKind, number>>;
}

export function prepareMasters(productsPerStore: number): PreparedMasters {
  const listed = productsPerStore - KITS_PER_STORE;
  return { masters: buildMasterCatalog(listed), quotas: kindQuotas(listed) };
}

/**
 * One store's catalogue rows: a pure function of the store, the masters and the reference date
 * (generateCatalog maps it over the stores file; the many-store seed calls it one store at a time
 * so that only one store's rows are in memory at once).
 */
export function generateStoreCatalog(store: Store, prepared: PreparedMasters, reference: Date): StoreCatalog {
  const ctx: StoreContext = {
    storeId: store.storeId,
    storeName: store.name,
    reference,
    ids: new IdAllocator(store.storeId),
    rows: emptyStoreRows(),
    positions: new Map(),
  };
  addAssortment(ctx, selectAssortment(store, prepared.masters, prepared.quotas));
  addKits(ctx);
  const rows = ctx.rows;
  rows.categories = categoryRows(store.storeId, shiftDays(reference, -400), listedPerCategory(rows));
  const tax = taxRows(store);
  rows.tax_rules = tax.rules;
  rows.tax_rates = tax.rates;
  const cms = cmsRows(store, shiftDays(reference, -200));
  rows.cms_pages = cms.pages;
  rows.cms_blocks = cms.blocks;
  rows.url_rewrites = urlRewriteRows(store.storeId, cms.pages, rows.products);
  return { storeId: store.storeId, storeCode: store.storeCode, rows };
}

/** Listed (catalogue-visible, enabled, top-level) products assigned to each leaf category. */
function listedPerCategory(rows: StoreRows): Map<CategoryKey, number> {
  const listed = new Set(
    rows.products.filter((p) => p.parent_id == null && (p.visibility === 2 || p.visibility === 4) && (p.status ?? 1) <= 1).map((p) => p.id),
  );
  const keyById = new Map(CATEGORY_TREE.map((c) => [c.id, c.key]));
  const counts = new Map<CategoryKey, number>();
  for (const pc of rows.product_categories) {
    const key = keyById.get(pc.category_id);
    if (!listed.has(pc.product_id) || !key || key === 'root') continue;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const KIND_BY_CANNA_TYPE: Readonly<Record<number, ImageKind>> = {
  [CANNA_TYPE.flower]: 'flower',
  [CANNA_TYPE.preroll]: 'preroll',
  [CANNA_TYPE.concentrate]: 'vape',
  [CANNA_TYPE.accessory]: 'accessory',
  [CANNA_TYPE.infused]: 'edible',
  [CANNA_TYPE.hempCbd]: 'tincture',
};

/**
 * One SVG per distinct image path, described by the master product or, for kits, the row itself.
 * `done` (the many-store seed, one store at a time): paths already rendered are skipped, and the
 * paths rendered now are added to it.
 */
export function productImages(stores: readonly StoreCatalog[], masters: readonly MasterProduct[], done?: Set<string>): DemoImage[] {
  const bySku = new Map(masters.map((m) => [m.sku, m]));
  const brandName = (id: number | null | undefined) => BRANDS.find((b) => b.id === id)?.name ?? 'Verdant';
  const specs = new Map<string, ImageSpec>();
  for (const { rows } of stores) {
    for (const p of rows.products) {
      const image = p.image ?? '';
      if (!image.startsWith('/catalog/product/') || specs.has(image) || done?.has(image) || p.parent_id != null) continue;
      const m = bySku.get(p.sku);
      const kind: ImageKind = m
        ? m.kind
        : p.type_id === 'grouped' || p.type_id === 'bundle'
          ? 'kit'
          : (KIND_BY_CANNA_TYPE[p.canna_type ?? 0] ?? 'kit');
      specs.set(image, {
        sku: p.sku,
        name: p.name,
        kind,
        strainType: p.strain_type ?? null,
        caption: brandName(p.brand_id),
      });
    }
  }
  for (const image of specs.keys()) done?.add(image);
  return [...specs.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([image, spec]) => ({ path: image.slice(1), svg: productSvg(spec) }));
}
