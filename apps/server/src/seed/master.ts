/**
 * The master catalogue: every product the demo's stores could carry, independent of any store.
 * Stores then pick deterministic subsets of it (./assortment.ts), so the same sku means the same
 * product (name, brand, potency, image) everywhere, while assortments and prices differ by store.
 */
import type { ProductLicenseType } from '../db/schema.ts';
import { BRANDS, type ProductKind } from './data/merch.ts';
import type { StrainType } from './data/strains.ts';
import type { Candidate } from './candidate.ts';
import type { CategoryKey } from './categories.ts';
import { KIND_TEMPLATES } from './master-kinds.ts';
import { createRng } from './prng.ts';
import { skuFrom, slugify } from './text.ts';

export interface MasterProduct {
  /** Stable identity across stores: `flower:blue-dream`. */
  key: string;
  kind: ProductKind;
  sku: string;
  name: string;
  slug: string;
  category: CategoryKey;
  brandId: number;
  strainType: StrainType | null;
  thcPercent: number | null;
  cbdPercent: number | null;
  tags: string[];
  licenseType: ProductLicenseType;
  cannaType: number;
  taxClassId: number;
  /** THC-equivalent grams per unit; null for flower (its size decides) and for non-cannabis items. */
  unitWeight: number | null;
  /** Unit price before the store's adjustment; for flower the price of 1 g. */
  basePriceCents: number;
  discountGroupId: number | null;
  shortDescription: string;
  description: string;
  /** Custom attribute values (grow_type, thc_mg, …). */
  attributes: Record<string, string>;
  /** Offer engraving and gift-wrap custom options (some accessories). */
  customOptions: boolean;
}

export const KIND_ORDER: readonly ProductKind[] = [
  'flower',
  'preroll',
  'vape',
  'concentrate',
  'edible',
  'tincture',
  'topical',
  'accessory',
];

/** Share of a store's menu per kind, roughly what a California dispensary stocks. */
export const KIND_SHARES: Readonly<Record<ProductKind, number>> = {
  flower: 0.28,
  preroll: 0.12,
  vape: 0.14,
  concentrate: 0.1,
  edible: 0.14,
  tincture: 0.07,
  topical: 0.07,
  accessory: 0.08,
};

export const SKU_PREFIX: Readonly<Record<ProductKind, string>> = {
  flower: 'FL',
  preroll: 'PR',
  vape: 'VP',
  concentrate: 'CN',
  edible: 'ED',
  tincture: 'TN',
  topical: 'TP',
  accessory: 'AC',
};

/** Products per kind for a menu of `total` items: every kind gets at least one (largest remainder). */
export function kindQuotas(total: number): Record<ProductKind, number> {
  if (!Number.isInteger(total) || total < KIND_ORDER.length) {
    throw new RangeError(`a menu needs at least one product per kind (${KIND_ORDER.length}), got ${total}`);
  }
  const spare = total - KIND_ORDER.length;
  const exact = KIND_ORDER.map((k) => (spare * KIND_SHARES[k]) / sumShares());
  const floors = exact.map(Math.floor);
  let left = spare - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - floors[i], i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    floors[i]++;
  }
  return Object.fromEntries(KIND_ORDER.map((k, i) => [k, floors[i] + 1])) as Record<ProductKind, number>;
}

function sumShares(): number {
  return KIND_ORDER.reduce((a, k) => a + KIND_SHARES[k], 0);
}

/**
 * The master pool for menus of `menuSize` products: half as many again as a store needs per kind,
 * so each store's pick differs. Names are unique across the pool.
 */
export function buildMasterCatalog(menuSize: number): MasterProduct[] {
  const quotas = kindQuotas(menuSize);
  const used = new Set<string>();
  const skus = new Set<string>();
  const out: MasterProduct[] = [];
  for (const kind of KIND_ORDER) {
    const rng = createRng('master', kind);
    const wanted = Math.ceil(quotas[kind] * 1.5) + 2;
    const candidates = KIND_TEMPLATES[kind](rng);
    let taken = 0;
    // More products than distinct templates: later rounds repeat them as "Batch 2", "Batch 3", …
    for (let i = 0; taken < wanted; i++) {
      const round = Math.floor(i / candidates.length) + 1;
      const c = candidates[i % candidates.length];
      const name = round === 1 ? c.name : `${c.name} Batch ${round}`;
      if (used.has(name)) continue;
      used.add(name);
      const product = toMaster(kind, c, name);
      // Skus are cut at 40 characters, so two long names can meet: number the later one.
      for (let n = 2; skus.has(product.sku); n++) product.sku = `${product.sku.slice(0, 36)}-${n}`;
      skus.add(product.sku);
      out.push(product);
      taken++;
    }
  }
  return out;
}

function toMaster(kind: ProductKind, c: Candidate, name: string): MasterProduct {
  const slug = slugify(name);
  const brand = BRANDS.find((b) => b.id === c.brandId);
  if (!brand) throw new Error(`unknown brand ${c.brandId}`);
  return {
    key: `${kind}:${slug}`,
    kind,
    sku: skuFrom(SKU_PREFIX[kind], name),
    name,
    slug,
    category: c.category,
    brandId: c.brandId,
    strainType: c.strainType ?? null,
    thcPercent: c.thcPercent ?? null,
    cbdPercent: c.cbdPercent ?? null,
    tags: c.tags,
    licenseType: c.licenseType ?? 'both',
    cannaType: c.cannaType,
    taxClassId: c.taxClassId,
    unitWeight: c.unitWeight ?? null,
    basePriceCents: c.basePriceCents,
    discountGroupId: c.discountGroupId ?? null,
    shortDescription: c.shortDescription.replace('{brand}', brand.name),
    description: c.description.replace(/\{brand\}/g, brand.name),
    attributes: c.attributes ?? {},
    customOptions: c.customOptions ?? false,
  };
}
